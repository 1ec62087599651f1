"""NanoVer's benchmark generator (benchmarks/) writes files recspec checks valid, and the same bytes from the
same seed (the shared steps are tests/benchmark_generators.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_generators import Generator, generated_files_are_valid, generator_is_deterministic, script

from recspec.report import FileReport, Verdict

FORMAT = "nanover"


def _nanover(report: FileReport) -> None:
    assert report.findings == [] and report.verdict is Verdict.VALID
    assert report.stats["resets"] == 1 and report.stats["records"] > 20  # 1 MB / (2 x 1500 floats) per frame


#: case id -> generator
GENERATORS = {
    "traj": Generator(script("make_nanover_traj.py", ".traj", "--size", "1MB", "--particles", "500"),
                      "spec", 1_000_000, _nanover, ("--size", "200kB", "--particles", "500", "--seed", "7")),
}


@pytest.mark.parametrize("case", GENERATORS)
def test_generated_files_are_valid(tmp_path: Path, case: str) -> None:
    generated_files_are_valid(FORMAT, GENERATORS[case], tmp_path)


def test_generator_is_deterministic(tmp_path: Path) -> None:
    generator_is_deterministic(GENERATORS["traj"], tmp_path)
