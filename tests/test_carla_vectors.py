"""`recspec corpus export` of the CARLA corpus: facts of CARLA files in their vectors (the export itself is
tests/test_vectors.py's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recspec.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The export of this format's corpus alone."""
    out = tmp_path_factory.mktemp("vectors")
    assert main(["corpus", "export", str(out), "--format", "carla"]) == 0
    return out


def test_a_truncated_log_has_no_case_and_says_where(exported: Path) -> None:
    """corpus/carla/invalid/CARLA-STREAM-001.log: the file ends inside its last packet."""
    side = json.loads((exported / "carla" / "invalid" / "CARLA-STREAM-001.log.json").read_text())
    assert side["case"] is None and side["no_case"]["rule"] == "CARLA-STREAM-001"
    assert side["no_case"]["offset"] < side["size"]
    assert side["expect"]["spec"] == {"verdict": "malformed", "rules": ["CARLA-STREAM-001"]}
