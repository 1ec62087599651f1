"""raSkat's benchmark generator (benchmarks/) writes files recspec checks valid, and the same bytes from the
same seed (the shared steps are tests/benchmark_generators.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_generators import Generator, generated_files_are_valid, generator_is_deterministic, load

from recspec.report import FileReport, Verdict

FORMAT = "raskat-signal"


def _raskat_tree(folder: Path, extra: tuple[str, ...]) -> list[Path]:
    """bench_raskat_signal.py's detector-style tree of version 4 files the writer could have written."""
    load("bench_raskat_signal.py").write_tree(folder, 12, 100, seed=int(extra[-1]) if extra else 1)
    files = sorted(folder.rglob("*.sig"))
    assert len(files) == 12 and files[0].relative_to(folder).parts[:4] == ("2025", "06", "24", "10")
    return files


def _raskat(report: FileReport) -> None:
    assert report.verdict is Verdict.VALID and report.variant == "v4"
    assert [f.rule for f in report.findings] == ["RSIG-VERSION-003", "RSIG-FLAGS-001"]  # both info
    assert report.stats["samples"] == 100


#: case id -> generator
GENERATORS = {
    "tree": Generator(_raskat_tree, "compat", 0, _raskat, ("7",)),
}


@pytest.mark.parametrize("case", GENERATORS)
def test_generated_files_are_valid(tmp_path: Path, case: str) -> None:
    generated_files_are_valid(FORMAT, GENERATORS[case], tmp_path)


def test_generator_is_deterministic(tmp_path: Path) -> None:
    generator_is_deterministic(GENERATORS["tree"], tmp_path)
