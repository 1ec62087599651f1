"""The generated corpus is what the reference encoders build, and, for every
format, every rule has an invalid file named after it (or a stated reason) and
every manifest entry gets the verdict and rule ids it states."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from recspec.corpus_check import verify_corpus
from recspec.formats import FORMATS, FormatInfo

ROOT = Path(__file__).resolve().parents[1]

#: Rules no generated file can break, each with why, by format.
NOT_SEEDED = {
    "carla": {
        "CARLA-LIMIT-001": "needs a packet declaring more than 4 MiB; tested in tests/test_carla_limits.py",
        "CARLA-PACKET-003": "an info-level rule; seeded as valid/0.9.15-user-packet.log",
        "CARLA-XCHECK-001": "fires only when recspec's two readers disagree, which the corpus must never show",
    },
    "nanover": {
        "NANOVER-PROTO-004": "an info-level rule; seeded as valid/unpacked-floats.traj",
        "NANOVER-LIMIT-001": "needs a file over 64 MiB (in a smaller file a longer length is a damaged length, "
                             "NANOVER-STREAM-001); tested on a sparse file in tests/test_messages.py",
        "NANOVER-LIMIT-003": "needs a payload of 262,145 map entries (4 MB); tested in tests/test_limits_units.py",
        "NANOVER-LIMIT-004": "needs a state of 65,537 keys (1 MB); tested in tests/test_limits_units.py",
        "NANOVER-XCHECK-001": "fires only when recspec's readers disagree, which the corpus must never show",
    },
    "raskat-signal": {
        "RSIG-VERSION-003": "an info-level rule; seeded as the version 4 files of valid/",
        "RSIG-XCHECK-001": "fires only when recspec's readers disagree, which the corpus must never show",
    },
    "matrix-smt": {
        "MATRIX-LIMIT-002": "needs a value over 64 MiB; tests/test_matrix_smt_check.py lowers the limit instead",
        "MATRIX-LIMIT-003": "needs a million elements; tests/test_matrix_smt_check.py lowers the limit instead",
        "MATRIX-XCHECK-001": "fires only when recspec's readers disagree, which the corpus must never show",
    },
}


def _entries(info: FormatInfo) -> list[dict]:
    return json.loads((ROOT / "corpus" / info.id / "manifest.json").read_text())["files"]


def test_committed_corpus_matches_generator():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "make_corpus.py"), "--check"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("info", FORMATS.values(), ids=FORMATS.keys())
def test_every_rule_has_an_invalid_file_or_a_reason(info: FormatInfo) -> None:
    have = {Path(e["path"]).stem for e in _entries(info) if e["path"].startswith("invalid/")}
    assert {r.id for r in info.load().RULES} - have == set(NOT_SEEDED[info.id])


@pytest.mark.parametrize(("info", "entry"), [(info, e) for info in FORMATS.values() for e in _entries(info)],
                         ids=[f"{info.id}/{e['path']}" for info in FORMATS.values() for e in _entries(info)])
def test_manifest_entry(info: FormatInfo, entry: dict, tmp_path: Path) -> None:
    folder = tmp_path / info.id
    (folder / Path(entry["path"]).parent).mkdir(parents=True)
    (folder / entry["path"]).write_bytes((ROOT / "corpus" / info.id / entry["path"]).read_bytes())
    (folder / "manifest.json").write_text(json.dumps({"format": info.id, "files": [entry]}))
    out, err = io.StringIO(), io.StringIO()
    assert verify_corpus([info], corpus_dir=tmp_path, out=out, err=err, verbose=True) == 0, out.getvalue()
