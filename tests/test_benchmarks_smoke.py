"""Smoke test of the benchmark log generator: a small log it writes is valid.

The benchmarks themselves are not part of the test suite; this only keeps
``benchmarks/make_carla_log.py`` producing logs that the checker accepts with
no finding at all, so that the throughput figures are about valid logs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from recspec.conformance.carla import check_stream
from recspec.report import Verdict

GENERATOR = Path(__file__).resolve().parent.parent / "benchmarks" / "make_carla_log.py"


@pytest.mark.parametrize("variant", ["0.9.15", "0.9.16"])
def test_generated_log_is_valid_with_no_findings(tmp_path: Path, variant: str) -> None:
    out = tmp_path / "synthetic.log"
    subprocess.run([sys.executable, str(GENERATOR), str(out), "--size", "1MB", "--variant", variant, "--quiet"],
                   check=True)
    assert out.stat().st_size >= 1_000_000
    with open(out, "rb") as f:
        report = check_stream(f, path=str(out), variant=None, profile="spec")
    assert report.findings == []
    assert report.verdict is Verdict.VALID
    assert report.variant == variant
    assert report.stats["frames"] > 1
    assert report.stats["actors_added"] == 212


def test_generator_is_deterministic(tmp_path: Path) -> None:
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    for out in (a, b):
        subprocess.run([sys.executable, str(GENERATOR), str(out), "--size", "200kB", "--seed", "7", "--quiet"],
                       check=True)
    assert a.read_bytes() == b.read_bytes()


def test_raskat_benchmark_tree_is_valid_under_compat(tmp_path: Path) -> None:
    """bench_raskat_signal.py writes detector-style folders of version 4 files the writer could have written."""
    import importlib.util

    from recspec.conformance.raskat_signal import check_bytes

    spec = importlib.util.spec_from_file_location("bench_raskat", GENERATOR.parent / "bench_raskat_signal.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.write_tree(tmp_path, 12, 100, seed=1)
    files = sorted(tmp_path.rglob("*.sig"))
    assert len(files) == 12 and files[0].relative_to(tmp_path).parts[:4] == ("2025", "06", "24", "10")
    for p in files:
        report, _ = check_bytes(p.read_bytes(), path=str(p), variant=None, profile="compat")
        assert report.verdict is Verdict.VALID and report.variant == "v4"
        assert [f.rule for f in report.findings] == ["RSIG-VERSION-003", "RSIG-FLAGS-001"]  # both info
        assert report.stats["samples"] == 100
