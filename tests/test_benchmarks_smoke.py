"""Smoke tests of the benchmark scripts in benchmarks/.

The benchmarks themselves are not part of the test suite; this only keeps each
format's generator writing files that recspec checks valid (with no finding
above what the format's writer is known for), so that the throughput figures
are about valid files, keeps the generators deterministic, and runs
``bench_parallel.py`` on a tiny folder (its speed is measured only by the
benchmark).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from recspec.formats import FORMATS
from recspec.report import FileReport, Verdict

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(script: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{Path(script).stem}", BENCHMARKS / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _script(script: str, suffix: str, *args: str) -> Callable[[Path, tuple[str, ...]], list[Path]]:
    """A generator run as ``python benchmarks/SCRIPT OUT ARGS EXTRA --quiet``, writing one file."""

    def write(folder: Path, extra: tuple[str, ...]) -> list[Path]:
        out = folder / f"synthetic{suffix}"
        subprocess.run([sys.executable, str(BENCHMARKS / script), str(out), *args, *extra, "--quiet"], check=True)
        return [out]

    return write


def _raskat_tree(folder: Path, extra: tuple[str, ...]) -> list[Path]:
    """bench_raskat_signal.py's detector-style tree of version 4 files the writer could have written."""
    _load("bench_raskat_signal.py").write_tree(folder, 12, 100, seed=int(extra[-1]) if extra else 1)
    files = sorted(folder.rglob("*.sig"))
    assert len(files) == 12 and files[0].relative_to(folder).parts[:4] == ("2025", "06", "24", "10")
    return files


@dataclass(frozen=True)
class Generator:
    """One format's benchmark generator: how it writes, and what recspec must say of what it writes."""

    write: Callable[[Path, tuple[str, ...]], list[Path]]
    profile: str
    min_size: int
    expect: Callable[[FileReport], None]
    #: The arguments of a small run with a fixed seed, for the determinism test.
    seeded: tuple[str, ...]


def _carla(variant: str) -> Callable[[FileReport], None]:
    def expect(report: FileReport) -> None:
        assert report.findings == []
        assert report.verdict is Verdict.VALID
        assert report.variant == variant
        assert report.stats["frames"] > 1
        assert report.stats["actors_added"] == 212

    return expect


def _nanover(report: FileReport) -> None:
    assert report.findings == [] and report.verdict is Verdict.VALID
    assert report.stats["resets"] == 1 and report.stats["records"] > 20  # 1 MB / (2 x 1500 floats) per frame


def _raskat(report: FileReport) -> None:
    assert report.verdict is Verdict.VALID and report.variant == "v4"
    assert [f.rule for f in report.findings] == ["RSIG-VERSION-003", "RSIG-FLAGS-001"]  # both info
    assert report.stats["samples"] == 100


def _matrix(profile: str) -> Callable[[FileReport], None]:
    def expect(report: FileReport) -> None:
        # the compat (producer's) encoding keeps frame time under 'time', which the viewer does not read
        assert {f.rule for f in report.findings} <= ({"MATRIX-FRAME-005"} if profile == "compat" else set())
        assert report.verdict is Verdict.VALID
        assert report.stats["objects"] == 8 and report.stats["frames"] > 100
        assert report.stats["states"] == 8 * report.stats["frames"]
        assert report.stats["commands"] == 4 * (report.stats["frames"] // 7)
        if profile == "spec":  # frames without commands take the fast path
            assert report.evidence["fast_path_frames"] == report.stats["frames"] - report.stats["frames"] // 7

    return expect


CARLA_SEEDED = ("--size", "200kB", "--seed", "7")
MATRIX_SEEDED = ("--size", "50kB", "--seed", "7")

#: (format id, case id, generator): every format, some under two variants or profiles.
GENERATORS = [
    ("carla", "0.9.15", Generator(_script("make_carla_log.py", ".log", "--size", "1MB", "--variant", "0.9.15"),
                                  "spec", 1_000_000, _carla("0.9.15"), CARLA_SEEDED)),
    ("carla", "0.9.16", Generator(_script("make_carla_log.py", ".log", "--size", "1MB", "--variant", "0.9.16"),
                                  "spec", 1_000_000, _carla("0.9.16"), CARLA_SEEDED)),
    ("nanover", "traj", Generator(_script("make_nanover_traj.py", ".traj", "--size", "1MB", "--particles", "500"),
                                  "spec", 1_000_000, _nanover,
                                  ("--size", "200kB", "--particles", "500", "--seed", "7"))),
    ("raskat-signal", "tree", Generator(_raskat_tree, "compat", 0, _raskat, ("7",))),
    ("matrix-smt", "spec", Generator(_script("make_matrix_recording.py", ".bson", "--size", "300kB", "--profile",
                                             "spec", "--cmd-every", "7"), "spec", 300_000, _matrix("spec"),
                                     MATRIX_SEEDED)),
    ("matrix-smt", "compat", Generator(_script("make_matrix_recording.py", ".bson", "--size", "300kB", "--profile",
                                               "compat", "--cmd-every", "7"), "compat", 300_000, _matrix("compat"),
                                       MATRIX_SEEDED)),
]


@pytest.mark.parametrize(("fmt", "gen"), [(fmt, gen) for fmt, _, gen in GENERATORS],
                         ids=[f"{fmt}-{case}" for fmt, case, _ in GENERATORS])
def test_generated_files_are_valid(tmp_path: Path, fmt: str, gen: Generator) -> None:
    plugin = FORMATS[fmt].load()
    for path in gen.write(tmp_path, ()):
        size = path.stat().st_size
        assert size >= gen.min_size
        with open(path, "rb") as f:
            report = plugin.check(f, path=str(path), variant=None, profile=gen.profile, size=size, cross_check=False)
        gen.expect(report)


#: One generator per format (the first listed).
_ONE_PER_FORMAT: dict[str, Generator] = {}
for _fmt, _, _gen in GENERATORS:
    _ONE_PER_FORMAT.setdefault(_fmt, _gen)


@pytest.mark.parametrize("gen", _ONE_PER_FORMAT.values(), ids=_ONE_PER_FORMAT.keys())
def test_generator_is_deterministic(tmp_path: Path, gen: Generator) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    written = []
    for folder in (a, b):
        folder.mkdir()
        written.append({p.relative_to(folder): p.read_bytes() for p in gen.write(folder, gen.seeded)})
    assert written[0] == written[1]


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
    (not corpus/real), every configuration runs, the tables are identical at every -j, and the parent's and
    the workers' CPU are read."""
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
