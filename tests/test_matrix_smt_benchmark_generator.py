"""Matrix-SMT's benchmark generator (benchmarks/) writes files recspec checks valid, and the same bytes from the
same seed (the shared steps are tests/benchmark_generators.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from benchmark_generators import Generator, generated_files_are_valid, generator_is_deterministic, script

from recspec.report import FileReport, Verdict

FORMAT = "matrix-smt"


def _matrix(profile: str) -> Callable[[FileReport], None]:
    def expect(report: FileReport) -> None:
        # the compat (producer's) encoding keeps frame time under 'time', which the viewer does not read
        assert {f.rule for f in report.findings} <= ({"MATRIX-FRAME-005"} if profile == "compat" else set())
        assert report.verdict is Verdict.VALID
        assert report.stats["objects"] == 8 and report.stats["frames"] > 100
        assert report.stats["states"] == 8 * report.stats["frames"]
        assert report.stats["commands"] == 4 * (report.stats["frames"] // 7)
        if profile == "spec":  # every frame takes the fast path, those with commands too
            assert report.evidence["fast_path_frames"] == report.stats["frames"]

    return expect


SEEDED = ("--size", "50kB", "--seed", "7")

#: case id -> generator
GENERATORS = {
    "spec": Generator(script("make_matrix_recording.py", ".bson", "--size", "300kB", "--profile", "spec",
                             "--cmd-every", "7"), "spec", 300_000, _matrix("spec"), SEEDED),
    "compat": Generator(script("make_matrix_recording.py", ".bson", "--size", "300kB", "--profile", "compat",
                               "--cmd-every", "7"), "compat", 300_000, _matrix("compat"), SEEDED),
}


@pytest.mark.parametrize("case", GENERATORS)
def test_generated_files_are_valid(tmp_path: Path, case: str) -> None:
    generated_files_are_valid(FORMAT, GENERATORS[case], tmp_path)


def test_generator_is_deterministic(tmp_path: Path) -> None:
    generator_is_deterministic(GENERATORS["spec"], tmp_path)
