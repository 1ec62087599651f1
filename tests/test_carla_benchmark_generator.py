"""CARLA's benchmark generator (benchmarks/) writes files recspec checks valid, and the same bytes from the
same seed (the shared steps are tests/benchmark_generators.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from benchmark_generators import Generator, generated_files_are_valid, generator_is_deterministic, script

from recspec.report import FileReport, Verdict

FORMAT = "carla"


def _carla(variant: str) -> Callable[[FileReport], None]:
    def expect(report: FileReport) -> None:
        assert report.findings == []
        assert report.verdict is Verdict.VALID
        assert report.variant == variant
        assert report.stats["frames"] > 1
        assert report.stats["actors_added"] == 212

    return expect


SEEDED = ("--size", "200kB", "--seed", "7")

#: case id -> generator
GENERATORS = {
    "0.9.15": Generator(script("make_carla_log.py", ".log", "--size", "1MB", "--variant", "0.9.15"),
                        "spec", 1_000_000, _carla("0.9.15"), SEEDED),
    "0.9.16": Generator(script("make_carla_log.py", ".log", "--size", "1MB", "--variant", "0.9.16"),
                        "spec", 1_000_000, _carla("0.9.16"), SEEDED),
}


@pytest.mark.parametrize("case", GENERATORS)
def test_generated_files_are_valid(tmp_path: Path, case: str) -> None:
    generated_files_are_valid(FORMAT, GENERATORS[case], tmp_path)


def test_generator_is_deterministic(tmp_path: Path) -> None:
    generator_is_deterministic(GENERATORS["0.9.15"], tmp_path)
