"""Benchmark `recspec check -j 2` against `-j 1` on a folder of mixed files.

The bar: with ``-j 2``, checking the folder runs at least 1.7 times faster than
with ``-j 1`` (wall clock, same files, same options, reports identical).

The folder holds, by default:
- 32 synthetic CARLA logs from ``make_carla_log.py`` (0.9.15 and 0.9.16, seeds
  1-32) of 128 kB, 256 kB, 512 kB and 1 MB, about 15 MB in all;
- every file of the seed corpus (``corpus/carla/``: valid, invalid, malformed);
- the real CARLA logs of ``../shared/real/`` when that folder is there;
- files no format recognises (text, JSON), which a folder run skips.

Each run is a fresh ``python -m recspec check -j N FOLDER --report json:...``
process with recspec's default options (so the Kaitai cross-check runs on
every file: most of the time goes there). The JSON reports of the two job
counts must be byte-identical. ``--repeat`` runs alternate -j 1 and -j 2; the
best (fastest) run of each is compared, since other processes on the machine
only ever add time, and the medians are printed beside it. The machine's CPU
count, the load average and the cores each run really got are printed next to
every figure: on a shared machine other processes lower the speedup, so re-run
when the machine is quiet if the bar is missed.

Usage::

    python benchmarks/bench_parallel.py [--repeat 3] [--logs 32] [--sizes 128kB,256kB,512kB,1MB]
                                        [--workdir DIR] [--keep] [--no-cross-check] [--out DIR]

Exit status 0 when the bar is met, 1 when it is missed. Results are printed
and written as JSON to ``benchmarks/out/``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
REAL = REPO.parent / "shared" / "real"
sys.path.insert(0, str(HERE))

import make_carla_log  # noqa: E402  (sits next to this file)

#: -j 2 must be at least this many times faster than -j 1.
BAR_SPEEDUP = 1.7


def build_folder(folder: Path, *, logs: int, sizes: list[int]) -> dict:
    """Write the mixed folder (reused when it is already there with the same recipe)."""
    recipe = {"logs": logs, "sizes": sizes, "real": REAL.is_dir()}
    stamp = folder / ".recipe.json"
    if stamp.is_file() and json.loads(stamp.read_text()) == recipe:
        return recipe
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "synthetic").mkdir(parents=True)
    for i in range(logs):
        variant = ("0.9.15", "0.9.16")[i % 2]
        make_carla_log.write_log(folder / "synthetic" / f"log{i:02d}-{variant}.log", sizes[i % len(sizes)],
                                 variant=variant, seed=i + 1, vehicles=60, walkers=20)
    shutil.copytree(REPO / "corpus" / "carla", folder / "corpus")
    if REAL.is_dir():
        (folder / "real").mkdir()
        for p in sorted(REAL.glob("*.log")):
            shutil.copy(p, folder / "real" / p.name)
    (folder / "notes.txt").write_text("not a recording; a folder run skips it\n")
    stamp.write_text(json.dumps(recipe))
    return recipe


def measure(folder: Path, jobs: int, report: Path, extra: list[str]) -> dict:
    """One run; ``cpus_used`` (CPU seconds / wall seconds) says how many cores the run really got."""
    load_before = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "recspec", "check", "-j", str(jobs), str(folder),
                           "--report", f"json:{report}", *extra],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, "CI": "1"})
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"recspec check -j {jobs} failed (exit {proc.returncode}): {proc.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"jobs": jobs, "wall_s": wall, "cpu_s": cpu, "cpus_used": cpu / wall, "load_before": load_before,
            "load_after": os.getloadavg()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per job count (default 3; the best counts)")
    ap.add_argument("--logs", type=int, default=32, help="synthetic logs in the folder (default 32)")
    ap.add_argument("--sizes", default="128kB,256kB,512kB,1MB",
                    help="their sizes, cycled (default 128kB,256kB,512kB,1MB)")
    ap.add_argument("--workdir", type=Path, help="where to build the folder (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the folder (with --workdir, later runs reuse it)")
    ap.add_argument("--no-cross-check", action="store_true", help="pass --no-cross-check to recspec check")
    ap.add_argument("--out", type=Path, default=HERE / "out",
                    help="where the JSON result goes (default benchmarks/out)")
    args = ap.parse_args(argv)
    sizes = [make_carla_log.parse_size(s) for s in args.sizes.split(",") if s.strip()]
    work = args.workdir or Path(tempfile.mkdtemp(prefix="recspec-bench-parallel-"))
    work.mkdir(parents=True, exist_ok=True)
    folder = work / "mixed"
    try:
        print(f"building {folder} ...", flush=True)
        build_folder(folder, logs=args.logs, sizes=sizes)
        files = [p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")]
        total = sum(p.stat().st_size for p in files)
        print(f"{len(files)} files, {total / 1e6:.1f} MB; nproc {os.cpu_count()}, "
              f"usable CPUs {len(os.sched_getaffinity(0))}, load {_load()}", flush=True)
        extra = ["--no-cross-check"] if args.no_cross_check else []
        runs: dict[int, list[dict]] = {1: [], 2: []}
        for r in range(args.repeat):
            for jobs in (1, 2):
                m = measure(folder, jobs, work / f"report-j{jobs}.json", extra)
                runs[jobs].append(m)
                print(f"  run {r + 1}/{args.repeat}  -j {jobs}: {m['wall_s']:6.2f} s wall, {m['cpu_s']:6.2f} s CPU "
                      f"({m['cpus_used']:.2f} cores busy)   load before "
                      f"{_fmt_load(m['load_before'])}, after {_fmt_load(m['load_after'])}", flush=True)
        identical = (work / "report-j1.json").read_bytes() == (work / "report-j2.json").read_bytes()
        # Best of N decides (as timeit does): other processes only ever add time to a run, so the
        # fastest run of each job count is the closest to what the code costs. Medians are shown too.
        best = {jobs: min(ms, key=lambda m: m["wall_s"]) for jobs, ms in runs.items()}
        t1, t2 = best[1]["wall_s"], best[2]["wall_s"]
        m1 = statistics.median(m["wall_s"] for m in runs[1])
        m2 = statistics.median(m["wall_s"] for m in runs[2])
        speedup = t1 / t2
        met = speedup >= BAR_SPEEDUP and identical
        print()
        print(f"medians: -j 1 {m1:.2f} s, -j 2 {m2:.2f} s (ratio {m1 / m2:.2f}x)")
        print(f"best of {args.repeat}: -j 1 {t1:.2f} s, -j 2 {t2:.2f} s ({best[2]['cpus_used']:.2f} cores busy): "
              f"speedup {speedup:.2f}x (bar {BAR_SPEEDUP}x) -> {'PASS' if met else 'MISSED'}")
        if best[2]["cpus_used"] < 1.8:
            print("note: even the best -j 2 run got less than 1.8 cores: other processes held the CPUs")
        print(f"reports of -j 1 and -j 2 byte-identical: {'yes' if identical else 'NO'}")
        print(f"load average now {_load()} on {os.cpu_count()} CPUs"
              + ("" if met else "; on a busy machine re-run when it is quiet"))
        out = args.out
        out.mkdir(parents=True, exist_ok=True)
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        result = {"when_utc": stamp, "files": len(files), "bytes": total, "nproc": os.cpu_count(),
                  "repeat": args.repeat, "cross_check": not args.no_cross_check, "runs": runs,
                  "median_j1_s": m1, "median_j2_s": m2, "best_j1_s": t1, "best_j2_s": t2, "speedup": speedup,
                  "bar": BAR_SPEEDUP,
                  "reports_identical": identical, "met": met}
        (out / f"parallel-{stamp}.json").write_text(json.dumps(result, indent=2) + "\n")
        return 0 if met else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def _fmt_load(load: tuple[float, float, float]) -> str:
    return "/".join(f"{x:.2f}" for x in load)


def _load() -> str:
    return _fmt_load(os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
