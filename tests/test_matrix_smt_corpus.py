"""The Matrix-SMT seed corpus: every rule has an invalid file named after it (or
a stated reason), and every manifest entry gets its expected verdict and rules."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from recspec.corpus_check import verify_corpus
from recspec.formats import FORMATS

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "corpus" / "matrix-smt"


def _entries() -> list[dict]:
    return json.loads((FOLDER / "manifest.json").read_text())["files"]


def test_every_rule_has_an_invalid_file_or_a_reason() -> None:
    from recspec.conformance.matrix_smt import RULES

    have = {Path(e["path"]).stem for e in _entries() if e["path"].startswith("invalid/")}
    not_seeded = {
        "MATRIX-LIMIT-002": "needs a value over 64 MiB; tests/test_matrix_smt_check.py lowers the limit instead",
        "MATRIX-LIMIT-003": "needs a million elements; tests/test_matrix_smt_check.py lowers the limit instead",
        "MATRIX-XCHECK-001": "fires only when recspec's readers disagree, which the corpus must never show",
    }
    assert {r.id for r in RULES} - have == set(not_seeded)


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e["path"])
def test_manifest_entry(entry: dict, tmp_path: Path) -> None:
    folder = tmp_path / "matrix-smt"
    (folder / Path(entry["path"]).parent).mkdir(parents=True)
    (folder / entry["path"]).write_bytes((FOLDER / entry["path"]).read_bytes())
    (folder / "manifest.json").write_text(json.dumps({"format": "matrix-smt", "files": [entry]}))
    out, err = io.StringIO(), io.StringIO()
    assert verify_corpus([FORMATS["matrix-smt"]], corpus_dir=tmp_path, out=out, err=err, verbose=True) == 0, \
        out.getvalue()
