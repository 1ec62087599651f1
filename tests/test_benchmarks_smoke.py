"""Smoke tests of the benchmark scripts in benchmarks/.

The benchmarks themselves are not part of the test suite; this runs the shared ones
(``bench_parallel.py``, ``bench_folder.py`` on tiny folders: their speed is measured only by the
benchmark) and checks ``bench_planted.py``'s and ``bench_oracle_cost.py``'s edits still apply. Each
format's generator is kept writing valid, deterministic files by its own
tests/test_<package>_benchmark_generator.py.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_parallel_benchmark_runs_and_reports(tmp_path: Path) -> None:
    """bench_parallel.py on a tiny folder runs both job counts, finds the reports identical and prints its verdict."""
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "bench_parallel.py"), "--repeat", "1", "--logs", "2",
                           "--sizes", "20kB", "--no-cross-check", "--workdir", str(tmp_path / "work"),
                           "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr  # 1: the bar was missed, which a tiny folder may well do
    assert "medians: -j 1" in proc.stdout and "best of 1: -j 1" in proc.stdout and "(bar 1.7x)" in proc.stdout
    assert "reports of -j 1 and -j 2 byte-identical: yes" in proc.stdout
    assert len(list((tmp_path / "out").glob("parallel-*.json"))) == 1
    assert not (tmp_path / "work").exists()  # cleaned up without --keep


def test_folder_benchmark_builds_its_folders_and_measures_the_parent(tmp_path: Path) -> None:
    """bench_folder.py on tiny folders: the mixed folder holds the corpus's seeds copied to the size asked
    (not corpus/real), every configuration runs, the tables are identical at every -j, the parent's and
    the workers' CPU are read, and the runs have a bytecode cache."""
    import json

    work = tmp_path / "work"
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "bench_folder.py"), "--mixed", "200", "--raskat", "300",
                           "--jobs", "1,2", "--repeat", "1", "--workdir", str(work), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    mixed = [p for p in (work / "mixed-200").rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert len(mixed) == 200 and not any("real" in p.relative_to(work).parts for p in mixed)
    assert len(list((work / "raskat-300").rglob("*.sig"))) == 300
    got = json.loads((tmp_path / "out" / "folder.json").read_text())
    assert got["tables_identical"] is True
    # the runs read recspec's modules from a bytecode cache under the work folder, as an installed package does
    assert got["bytecode_cache"] == str(work / "pycache")
    assert list((work / "pycache").rglob("pipeline*.pyc"))
    runs = {(r["folder"], r["mode"], r["jobs"]): r for r in got["runs"]}
    assert set(runs) == {(f, m, j) for f in ("mixed", "raskat") for m in ("default", "no-cross-check") for j in (1, 2)}
    for (folder, mode, jobs), r in runs.items():
        assert set(r["exits"]) <= {0, 1}, (folder, mode, jobs)
        assert r["parent_cpu_us_per_file"] > 0 and r["worker_cpu_us_per_file"] > 0
    assert "Amdahl bound" in proc.stdout and "load" in proc.stdout


def _benchmark_module(name: str) -> ModuleType:
    """A benchmark imported by name (its dataclasses need it in ``sys.modules``; the cost benchmark
    imports bench_planted)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_every_planted_bug_still_applies_to_its_module() -> None:
    """bench_planted.py's edits: each replaced text is in its module exactly once (a refactor that
    moves it would otherwise make the benchmark stop, or plant nothing), and each names a module
    the campaign imports (recspec.<layer>.<format>...)."""
    bench = _benchmark_module("bench_planted")
    for bug in bench.PLANTED:
        edited = bench.planted_source(bug)  # raises SystemExit when the text is not there exactly once
        assert edited != (bench.ROOT / bug.path).read_text(encoding="utf-8")
        assert importlib.util.find_spec(bench.module_name(bug.path)) is not None, bug.name
    assert len({bug.name for bug in bench.PLANTED}) == len(bench.PLANTED)
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "bench_planted.py"), "--list"], capture_output=True,
                          text=True, check=True)
    assert len(proc.stdout.splitlines()) == len(bench.PLANTED)


def test_the_oracle_cost_benchmark_turns_every_oracle_off() -> None:
    """bench_oracle_cost.py's campaigns without oracles: every check the harnesses import from
    fuzz/_oracles.py is a no-op there, and nothing is sampled."""
    bench = _benchmark_module("bench_oracle_cost")
    from recspec.fuzz import _oracles

    namespace: dict[str, object] = {"__name__": "recspec.fuzz._oracles", "__package__": "recspec.fuzz"}
    exec(compile(bench.ORACLES.read_text(encoding="utf-8") + bench._OFF, str(bench.ORACLES), "exec"), namespace)
    checks = [name for name in _oracles.__all__ if name.startswith("check_")]
    assert checks and all(namespace[name] is namespace["_off"] for name in checks)
    assert namespace["sampled"](b"") is False  # type: ignore[operator]


def test_the_offline_planted_sample_still_applies() -> None:
    """bench_planted_offline.py's own bugs (the NanoVer sample and each oracle's blind set): each edit is in its
    module exactly once, and every name is one bug's (bench_planted's included)."""
    bench = _benchmark_module("bench_planted_offline")
    own = (*bench.SAMPLE, *bench.VALUE_CONTENTS, *bench.MATRIX_TYPED, *bench.MATRIX_RECOUNT, *bench.CARLA_VARIABLE,
           *bench.RASKAT_SAMPLES)
    for bug in own:
        bench.bp.planted_source(bug)  # raises SystemExit when the replaced text is not there exactly once
    assert len(bench.BUGS) == len(own) + len(bench.bp.PLANTED)
