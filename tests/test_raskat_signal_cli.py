"""`recspec` commands on raSkat files: folders, profiles, aliases, forced variants,
the file-size limit and the batch sampling of the cross-check (rules, explain and
dump, the same for every format, are in tests/test_cli.py)."""

from __future__ import annotations

import io
import json
import os
import zlib
from pathlib import Path

import pytest

from helpers import run_cli as _run
from recspec.conformance import _plugin
from recspec.conformance.raskat_signal import _format
from recspec.conformance.raskat_signal._seeds import writer_v3
from recspec.reference.raskat_signal import encode
from recspec.report import SAMPLED_OUT

REPO = Path(__file__).resolve().parents[1]
VALID = REPO / "corpus" / "raskat-signal" / "valid"


def test_folder_under_both_profiles() -> None:
    # what the corpus manifest says of each valid seed: every one valid under compat; under spec the raw
    # files (the writer's and the edge seeds) break the spec profile, the tar.xz ones do not
    manifest = json.loads((VALID.parent / "manifest.json").read_text())
    seeds = [e for e in manifest["files"] if e["path"].startswith("valid/")]
    spec_valid = sum(e["expect"]["spec"]["verdict"] == "valid" for e in seeds)
    assert len(seeds) == len(list(VALID.iterdir())) and 0 < spec_valid < len(seeds)
    rc, out, _ = _run("check", "--json", "--profile", "compat", str(VALID))
    doc = json.loads(out)
    assert rc == 0 and doc["summary"] == {"files": len(seeds), "valid": len(seeds), "invalid": 0, "malformed": 0,
                                          "unrecognized": 0}
    rc, out, _ = _run("check", "--json", str(VALID))
    doc = json.loads(out)
    assert rc == 1 and doc["summary"]["valid"] == spec_valid
    assert doc["summary"]["invalid"] == len(seeds) - spec_valid


@pytest.mark.parametrize("name", ["raskat", "SIG", "raskat-signal"])
def test_aliases(name: str) -> None:
    rc, out, _ = _run("check", "--format", name, "--profile", "compat", str(VALID / "v4-writer.sig"))
    assert rc == 0 and "raskat-signal" in out


def test_forced_variant_that_does_not_match() -> None:
    rc, out, _ = _run("check", "--json", "--format", "raskat", "--variant", "v2", str(VALID / "v3-writer.sig"))
    f = json.loads(out)["files"][0]
    assert rc == 1 and f["verdict"] == "malformed"
    assert f["findings"][1]["rule"] == "RSIG-VERSION-001" and f["findings"][1]["actual"] == 3


def test_file_above_the_size_limit_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_format, "MAX_FILE_SIZE", 50)
    p = tmp_path / "big.sig"
    p.write_bytes(encode(writer_v3()))
    rc, out, _ = _run("check", "--json", str(p))
    f = json.loads(out)["files"][0]
    assert rc == 1 and f["verdict"] == "malformed" and [x["rule"] for x in f["findings"]] == ["RSIG-LIMIT-001"]


def test_cross_check_is_sampled_in_long_runs_by_the_general_rule(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of more files than RUN_SAMPLE_FROM cross-checks raSkat signals by the rule every format follows
    (conformance/_plugin.py ``run_sampled_out``): a file whose path has a CRC-32 of 0 modulo 16, and every
    malformed file. A tar.xz signal is no exception: one whose path is not chosen is not cross-checked."""
    monkeypatch.setattr(_plugin, "RUN_SAMPLE_FROM", 3)
    base = encode(writer_v3())
    packed = encode(writer_v3(), container="tar.xz")
    for i in range(40):
        (tmp_path / f"{i:03d}.sig").write_bytes(base[:-1] + bytes([i]))  # the last sample differs
        (tmp_path / f"{i:03d}.tar.xz.sig").write_bytes(packed)
    (tmp_path / "zz-cut.sig").write_bytes(base[:60])
    _rc, out, _ = _run("check", "--json", "--profile", "compat", str(tmp_path))
    files = json.loads(out)["files"]
    assert len(files) == 81
    by_name = {Path(f["path"]).name: f for f in files}
    cut = by_name.pop("zz-cut.sig")
    assert cut["verdict"] == "malformed" and cut["evidence"]["cross_check"] == "kaitai: agrees"  # never left out
    for f in by_name.values():
        chosen = zlib.crc32(os.fsencode(f["path"])) % 16 == 0
        assert f["evidence"]["cross_check"].startswith(SAMPLED_OUT) == (not chosen), f["path"]
        if chosen:
            assert f["evidence"]["cross_check"] == "kaitai: agrees", f["path"]
    left_out = [f for f in by_name.values() if f["evidence"]["cross_check"].startswith(SAMPLED_OUT)]
    assert any(f["stats"]["container"] == "tar.xz" for f in left_out)
    assert json.loads(out)["summary"]["not_cross_checked"] == len(left_out)
    _, out2, _ = _run("check", "--json", "--profile", "compat", "-j", "2", str(tmp_path))
    assert out2 == out  # the same choice in worker processes
    # --cross-check full, a short run and a file named alone cross-check every file
    _, full, _ = _run("check", "--json", "--profile", "compat", "--cross-check", "full", str(tmp_path))
    assert all(f["evidence"]["cross_check"] == "kaitai: agrees" for f in json.loads(full)["files"])
    alone = next(f["path"] for f in left_out if f["stats"]["container"] == "tar.xz")
    _, one, _ = _run("check", "--json", "--profile", "compat", alone)
    assert json.loads(one)["files"][0]["evidence"]["cross_check"] == "kaitai: agrees"
    monkeypatch.setattr(_plugin, "RUN_SAMPLE_FROM", 81)
    _, out, _ = _run("check", "--json", "--profile", "compat", str(tmp_path))
    assert all(f["evidence"]["cross_check"] == "kaitai: agrees" for f in json.loads(out)["files"])


def test_progress_line_on_a_terminal_is_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of small files shows progress, but does not redraw the line for every file."""
    from recspec.cli import _Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("CI", raising=False)
    err = Tty()
    p = _Progress(err)
    for i in range(5000):
        p.step(Path(f"signals/{i}.sig"))
    draws = err.getvalue().count("\r")
    assert 1 <= draws < 500  # the first file is drawn at once; then at most 20 redraws a second
    assert "] 1 signals/0.sig" in err.getvalue()
    assert p.label.endswith("] 5000 signals/4999.sig")  # the label follows every file, drawn or not
