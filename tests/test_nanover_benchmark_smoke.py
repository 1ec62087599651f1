"""Smoke test of the NanoVer benchmark generator: a small trajectory it writes
checks valid with no finding at all (the benchmark figures are about valid files)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from recspec.conformance.nanover import check_stream
from recspec.report import Verdict

GENERATOR = Path(__file__).resolve().parent.parent / "benchmarks" / "make_nanover_traj.py"


def test_generated_trajectory_is_valid_with_no_findings(tmp_path: Path) -> None:
    out = tmp_path / "synthetic.traj"
    subprocess.run([sys.executable, str(GENERATOR), str(out), "--size", "1MB", "--particles", "500", "--quiet"],
                   check=True)
    assert out.stat().st_size >= 1_000_000
    with open(out, "rb") as f:
        report = check_stream(f, path=str(out), size=out.stat().st_size)
    assert report.findings == [] and report.verdict is Verdict.VALID
    assert report.stats["resets"] == 1 and report.stats["records"] > 20  # 1 MB / (2 x 1500 floats) per frame
