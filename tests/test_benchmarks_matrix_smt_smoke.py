"""Smoke test of the Matrix-SMT benchmark generator: a small recording it writes
checks valid with no finding under its profile, through the fast path for the
spec encoding, and the generator is deterministic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from recspec.conformance.matrix_smt import check_stream
from recspec.report import Verdict

GENERATOR = Path(__file__).resolve().parent.parent / "benchmarks" / "make_matrix_recording.py"


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_generated_recording_is_valid_with_no_findings(tmp_path: Path, profile: str) -> None:
    out = tmp_path / "synthetic.bson"
    subprocess.run([sys.executable, str(GENERATOR), str(out), "--size", "300kB", "--profile", profile,
                    "--cmd-every", "7", "--quiet"], check=True)
    assert out.stat().st_size >= 300_000
    with open(out, "rb") as f:
        report = check_stream(f, path=str(out), profile=profile)
    assert report.findings == []
    assert report.verdict is Verdict.VALID
    assert report.stats["objects"] == 8 and report.stats["frames"] > 100
    assert report.stats["states"] == 8 * report.stats["frames"]
    assert report.stats["commands"] == 4 * (report.stats["frames"] // 7)
    if profile == "spec":  # frames without commands take the fast path
        assert report.evidence["fast_path_frames"] == report.stats["frames"] - report.stats["frames"] // 7


def test_generator_is_deterministic(tmp_path: Path) -> None:
    a, b = tmp_path / "a.bson", tmp_path / "b.bson"
    for out in (a, b):
        subprocess.run([sys.executable, str(GENERATOR), str(out), "--size", "50kB", "--seed", "7", "--quiet"],
                       check=True)
    assert a.read_bytes() == b.read_bytes()
