"""The default cross-check of a long run reads a sample of its files (conformance/_plugin.py
``run_sampled_out``): about 1 file in RUN_SAMPLE by CRC-32 of the path, and every malformed file;
the choice is a function of the inputs (the same at -j 1 and -j 2, across --shard), counted in the
summary, and a single named file, a short run and ``--cross-check full`` read every file."""

from __future__ import annotations

import json
import os
import shutil
import zlib
from pathlib import Path

import pytest

from helpers import run_cli
from recspec.conformance import _plugin
from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS
from recspec.report import SAMPLED_OUT

#: a few seeds of each format the shared rule covers (``EXAMPLES.run_sample``; a format with a rule of its own
#: tests it itself): its first valid and invalid corpus files
SEEDS = [p for info in FORMATS.values() if info.load().EXAMPLES.run_sample == "default"
         for sub, n in (("valid", 3), ("invalid", 4))
         for p in sorted(q for q in (corpus_folder(info.id) / sub).iterdir() if q.is_file())[:n]]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three copies of the seeds, and a run size from which the sample applies of 8 files."""
    monkeypatch.setattr(_plugin, "RUN_SAMPLE_FROM", 8)
    data = tmp_path / "data"
    for copy in range(3):
        for src in SEEDS:
            dst = data / f"c{copy}" / src.parent.name / src.name
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    return data


def _files(out: str) -> list[dict]:
    return json.loads(out)["files"]


def test_a_long_run_cross_checks_a_sample_chosen_by_path_and_every_malformed_file(folder: Path) -> None:
    _code, out, err = run_cli("check", "--json", str(folder))
    doc = json.loads(out)
    files = doc["files"]
    assert len(files) == 3 * len(SEEDS), err
    left_out = 0
    for f in files:
        xcheck = f.get("evidence", {}).get("cross_check", "")
        if f["verdict"] == "malformed":
            assert not xcheck.startswith(SAMPLED_OUT), f["path"]
        elif f["verdict"] in ("valid", "invalid") and f["variant"] is not None:
            chosen = zlib.crc32(os.fsencode(f["path"])) % 16 == 0
            assert xcheck.startswith(SAMPLED_OUT) == (not chosen), (f["path"], xcheck)
        left_out += xcheck.startswith(SAMPLED_OUT)
    assert left_out > len(files) // 2  # most were left out: 15 in 16 of the files not malformed
    assert doc["summary"]["not_cross_checked"] == left_out
    # the table's summary says so too
    _code, table, _ = run_cli("check", str(folder))
    assert f"{left_out} not cross-checked" in table.splitlines()[-1]
    # the same files at -j 2 (worker processes forked from this one)
    _code, out2, _ = run_cli("check", "--json", "-j", "2", str(folder))
    assert out2 == out


def test_the_sample_is_the_same_across_shards(folder: Path, tmp_path: Path) -> None:
    _code, whole, _ = run_cli("check", "--json", str(folder))
    shards = []
    for k in (1, 2, 3):
        target = tmp_path / f"{k}.json"
        run_cli("check", str(folder), "--shard", f"{k}/3", f"--report=json:{target}")
        shards.append(str(target))
    _code, merged, err = run_cli("merge", "--json", *shards)
    assert merged == whole, err


def test_full_a_short_run_and_a_named_file_cross_check_every_file(folder: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _code, out, _ = run_cli("check", "--json", "--cross-check", "full", str(folder))
    assert not any(f.get("evidence", {}).get("cross_check", "").startswith(SAMPLED_OUT) for f in _files(out))
    assert "not_cross_checked" not in json.loads(out)["summary"]
    # a file the hash leaves out of a long run's sample, named alone: read
    named = next(p for p in sorted(folder.rglob("*")) if p.is_file() and zlib.crc32(os.fsencode(str(p))) % 16 != 0
                 and p.parent.name == "valid")
    _code, out, _ = run_cli("check", "--json", str(named))
    assert _files(out)[0]["evidence"]["cross_check"].startswith("kaitai")
    monkeypatch.setattr(_plugin, "RUN_SAMPLE_FROM", 3 * len(SEEDS))  # the run is not longer than that
    _code, out, _ = run_cli("check", "--json", str(folder))
    assert not any(f.get("evidence", {}).get("cross_check", "").startswith(SAMPLED_OUT) for f in _files(out))
