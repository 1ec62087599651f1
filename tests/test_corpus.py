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

def _entries(info: FormatInfo) -> list[dict]:
    return json.loads((ROOT / "corpus" / info.id / "manifest.json").read_text())["files"]


def test_committed_corpus_matches_generator():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "make_corpus.py"), "--check"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("info", FORMATS.values(), ids=FORMATS.keys())
def test_every_rule_has_an_invalid_file_or_a_reason(info: FormatInfo) -> None:
    have = {Path(e["path"]).stem for e in _entries(info) if e["path"].startswith("invalid/")}
    unseeded = info.load().EXAMPLES.unseeded_rules  # each with why
    assert {r.id for r in info.load().RULES} - have == set(unseeded)


@pytest.mark.parametrize(("info", "entry"), [(info, e) for info in FORMATS.values() for e in _entries(info)],
                         ids=[f"{info.id}/{e['path']}" for info in FORMATS.values() for e in _entries(info)])
def test_manifest_entry(info: FormatInfo, entry: dict, tmp_path: Path) -> None:
    folder = tmp_path / info.id
    (folder / Path(entry["path"]).parent).mkdir(parents=True)
    (folder / entry["path"]).write_bytes((ROOT / "corpus" / info.id / entry["path"]).read_bytes())
    (folder / "manifest.json").write_text(json.dumps({"format": info.id, "files": [entry]}))
    out, err = io.StringIO(), io.StringIO()
    assert verify_corpus([info], corpus_dir=tmp_path, out=out, err=err, verbose=True) == 0, out.getvalue()
