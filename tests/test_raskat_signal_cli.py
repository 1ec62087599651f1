"""`recspec` commands on raSkat files: folders, profiles, aliases, forced variants,
the file-size limit and the batch sampling of the cross-check (rules, explain and
dump, the same for every format, are in tests/test_cli.py)."""

from __future__ import annotations

import io
import json
import zlib
from pathlib import Path

import pytest

from helpers import run_cli as _run
from recspec.conformance.raskat_signal import _format
from recspec.conformance.raskat_signal._seeds import writer_v3
from recspec.reference.raskat_signal import encode

REPO = Path(__file__).resolve().parents[1]
VALID = REPO / "corpus" / "raskat-signal" / "valid"


def test_folder_under_both_profiles() -> None:
    rc, out, _ = _run("check", "--json", "--profile", "compat", str(VALID))
    doc = json.loads(out)
    assert rc == 0 and doc["summary"] == {"files": 6, "valid": 6, "invalid": 0, "malformed": 0, "unrecognized": 0}
    rc, out, _ = _run("check", "--json", str(VALID))
    doc = json.loads(out)
    # the three raw writer files break the spec profile (see the corpus manifest); the tar.xz ones do not
    assert rc == 1 and doc["summary"]["valid"] == 3 and doc["summary"]["invalid"] == 3


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


def test_cross_check_is_sampled_in_long_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of more files than CROSS_CHECK_ALL_FIRST samples the cross-check of walkable raw files by
    CRC-32 of the content alone, so the choice does not depend on the order, -j or --shard."""
    monkeypatch.setattr(_format, "CROSS_CHECK_ALL_FIRST", 3)
    base = encode(writer_v3())
    for i in range(40):
        (tmp_path / f"{i:03d}.sig").write_bytes(base[:-1] + bytes([i]))  # the last sample differs
    (tmp_path / "zz-cut.sig").write_bytes(base[:60])
    _rc, out, _ = _run("check", "--json", "--profile", "compat", str(tmp_path))
    files = json.loads(out)["files"]
    evidence = [f["evidence"]["cross_check"] for f in files]
    assert evidence[-1] == "kaitai: agrees" and files[-1]["verdict"] == "malformed"  # never sampled out
    # a walkable raw file is cross-checked when the CRC-32 of its bytes is 0 mod 32, the first files too
    for i in range(len(files) - 1):
        data = (tmp_path / f"{i:03d}.sig").read_bytes()
        assert evidence[i].startswith("sampled") == (zlib.crc32(data) % 32 != 0)
    assert any(e.startswith("sampled") for e in evidence[:3])
    for jobs in ("2",):  # the same choice in worker processes
        _, out2, _ = _run("check", "--json", "--profile", "compat", "-j", jobs, str(tmp_path))
        assert out2 == out
    # a short run (and the Python API) cross-checks every file
    monkeypatch.setattr(_format, "CROSS_CHECK_ALL_FIRST", 41)
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
