#!/usr/bin/env python3
"""Folders of small files: files/s of `recspec check -j N`, the parent's CPU per file, the Amdahl bound.

Two folders, written once (``--workdir``, reused when their recipe is unchanged):

* **mixed**: the seed corpus (``corpus/`` but ``corpus/real/``: every format, valid, invalid and malformed files, as a
  writer's CI sees them) copied into ``copy0000/``, ``copy0001/``, ... until the folder holds
  ``--mixed`` files (default 10,000; the last copy is cut short);
* **raskat**: ``--raskat`` small raSkat signal files (default 100,000; version 4, raw, 100 samples,
  the generator of ``bench_raskat_signal.py``) in the detector's folder layout.

For each folder, each cross-check mode (the default and ``--no-cross-check``) and each job count
(``--jobs``, default 1, 2 and the CPU count), ``recspec check -j N FOLDER`` runs in a fresh process
with the table to a file; the runs are interleaved (every configuration once per round, ``--repeat``
rounds) and the best and median wall time of each are printed, with the load average before each
round. A small launcher runs the command in-process and reads, when it ends, its own CPU time (the
parent: the walk, the batches, receiving and spooling the results, the table) and its children's
(the workers'; with ``-j 1`` there are none), so:

* **parent CPU/file**: the recspec process's user+sys CPU over the files;
* **worker CPU/file**: the workers' CPU over the files (``-j 1``: the parent's, which does it all);
* **Amdahl bound**: worker CPU/file divided by parent CPU/file, the speed-up over one worker that
  the parent's serial share allows however many cores there are (the parent is one core).

The tables of a configuration's runs at every ``-j`` must be byte-identical (checked; a difference
is an error). Every file is read once before the runs, so the figures are CPU, not disk. The runs get a
bytecode cache under the work folder, as an installed package has (pip compiles it on install), even where
the machine sets PYTHONDONTWRITEBYTECODE: without one each run compiles recspec's modules from source
first, about 0.2 s of CPU, 20 us a file of the 10,000 (``--no-bytecode-cache`` runs them as this
environment has it; ``bench_ratios.py`` does the same for its whole-process rows).

    python benchmarks/bench_folder.py                      # 10,000 mixed, 100,000 raSkat files
    python benchmarks/bench_folder.py --quick              # 2,000 mixed, 10,000 raSkat, one round
    python benchmarks/bench_folder.py --folders raskat --jobs 1,8 --workdir /tmp/folders
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from bench_raskat_signal import write_tree  # noqa: E402  (both sit next to this file)
from bench_ratios import bytecode_env  # noqa: E402

#: Runs `recspec ARGS` in this (fresh) process and writes, as JSON to the file named first, the
#: process's own CPU time and its children's (the workers, joined before main returns).
_LAUNCHER = """
import json, os, resource, sys
out, argv = sys.argv[1], sys.argv[2:]
from recspec.cli import main
code = main(argv)
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "w") as f:
    json.dump({"exit": code, "parent_cpu": me.ru_utime + me.ru_stime,
               "workers_cpu": kids.ru_utime + kids.ru_stime}, f)
"""


def build_mixed(folder: Path, files: int) -> int:
    """The corpus copied until ``files`` files; returns the bytes written (reused when present)."""
    corpus = sorted(p for p in (REPO / "corpus").rglob("*") if p.is_file() and not p.name.startswith(".")
                    and p.relative_to(REPO / "corpus").parts[0] != "real")  # the seeds, not the real recordings
    recipe = {"files": files, "corpus": hashlib.sha256("\n".join(map(str, corpus)).encode()).hexdigest()}
    stamp = folder / ".recipe.json"
    if stamp.is_file() and json.loads(stamp.read_text()) == recipe:
        return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    written = total = 0
    copy = 0
    while written < files:
        for p in corpus[:files - written]:
            dest = folder / f"copy{copy:04d}" / p.relative_to(REPO / "corpus")
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, dest)
            total += p.stat().st_size
        written += min(len(corpus), files - written)
        copy += 1
    stamp.write_text(json.dumps(recipe))
    return total


def build_raskat(folder: Path, files: int) -> int:
    recipe = {"files": files, "samples": 100, "seed": 1}
    stamp = folder / ".recipe.json"
    if stamp.is_file() and json.loads(stamp.read_text()) == recipe:
        return sum(p.stat().st_size for p in folder.rglob("*.sig"))
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    total = write_tree(folder, files, 100, 1)
    stamp.write_text(json.dumps(recipe))
    return total


def count_files(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))


def warm(folder: Path) -> None:
    """Every file read once, into the page cache."""
    for p in folder.rglob("*"):
        if p.is_file():
            p.read_bytes()


def run_once(python: str, folder: Path, jobs: int, cross_check: bool, table: Path,
             env: dict[str, str] | None = None) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        stats = Path(tmp.name)
    cmd = [python, "-c", _LAUNCHER, str(stats), "check", "-j", str(jobs), str(folder)]
    if not cross_check:
        cmd.insert(-1, "--no-cross-check")
    start = time.perf_counter()
    with table.open("wb") as out:
        # run from the table's folder: ``python -c`` puts its working folder first on the import path, so a
        # checkout as the working folder would lend its ``recspec/`` to every interpreter timed
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, text=True, cwd=table.parent, env=env)
    wall = time.perf_counter() - start
    try:
        got = json.loads(stats.read_text())
    except (OSError, ValueError):
        got = {"exit": proc.returncode, "parent_cpu": float("nan"), "workers_cpu": float("nan")}
    stats.unlink(missing_ok=True)
    got["wall_s"] = wall
    if got["exit"] not in (0, 1):
        got["stderr_tail"] = proc.stderr[-400:]
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mixed", type=int, default=10_000, help="files in the mixed folder (default 10000)")
    ap.add_argument("--raskat", type=int, default=100_000, help="files in the raSkat folder (default 100000)")
    ap.add_argument("--folders", default="mixed,raskat", help="which folders to time (default mixed,raskat)")
    ap.add_argument("--jobs", default=None, help="job counts, comma-separated (default 1,2,CPU count)")
    ap.add_argument("--modes", default="default,no-cross-check",
                    help="cross-check modes (default default,no-cross-check)")
    ap.add_argument("--repeat", type=int, default=2, help="interleaved rounds (default 2)")
    ap.add_argument("--quick", action="store_true",
                    help="2,000 mixed and 10,000 raSkat files, one round (for a loaded machine)")
    ap.add_argument("--workdir", type=Path, help="where the folders go (kept and reused; default: temporary)")
    ap.add_argument("--python", action="append", default=[], metavar="LABEL=PYTHON",
                    help="time the recspec that this interpreter imports too, interleaved with the others "
                         "(e.g. before=/tmp/before/.venv/bin/python; repeatable; default: this interpreter, "
                         "labelled now)")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="folder for the JSON result")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="run recspec as this environment has it (by default each run gets a bytecode cache "
                         "under the work folder, as an installed package has, even where "
                         "PYTHONDONTWRITEBYTECODE is set: otherwise every run compiles recspec first)")
    args = ap.parse_args(argv)
    if args.quick:
        args.mixed, args.raskat, args.repeat = min(args.mixed, 2_000), min(args.raskat, 10_000), 1
    cores = os.cpu_count() or 1
    jobs = sorted({int(j) for j in args.jobs.split(",")}) if args.jobs else sorted({1, 2, cores})
    modes = [m for m in args.modes.split(",") if m]
    work = args.workdir or Path(tempfile.mkdtemp(prefix="recspec-folder-bench-"))
    folders: dict[str, Path] = {}
    for name in args.folders.split(","):
        if name == "mixed":
            folder = work / f"mixed-{args.mixed}"
            nbytes = build_mixed(folder, args.mixed)
        elif name == "raskat":
            folder = work / f"raskat-{args.raskat}"
            nbytes = build_raskat(folder, args.raskat)
        else:
            ap.error(f"no folder {name!r}: choose mixed or raskat")
        warm(folder)
        folders[name] = folder
        print(f"{name}: {count_files(folder):,} files, {nbytes / 1e6:.1f} MB in {folder}")

    env = None if args.no_bytecode_cache else bytecode_env(work / "pycache")
    print("runs: " + ("as this environment has it" + (" (PYTHONDONTWRITEBYTECODE: each compiles recspec first)"
                                                     if os.environ.get("PYTHONDONTWRITEBYTECODE") else "")
                      if env is None else f"with a bytecode cache in {work / 'pycache'}"))
    pythons = dict(p.split("=", 1) for p in args.python) or {"now": sys.executable}
    configs = [(label, name, mode, j) for name in folders for mode in modes for j in jobs for label in pythons]
    runs: dict[tuple[str, str, str, int], list[dict[str, Any]]] = {c: [] for c in configs}
    tables: dict[tuple[str, str, str], set[str]] = {}
    loads: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "table.txt"
        if env is not None:  # the cache written first by an untimed run over a part of each folder
            for python in pythons.values():
                for folder in folders.values():
                    part = min((d for d in folder.iterdir() if d.is_dir()), default=folder)
                    run_once(python, part, 1, True, table, env)
        for rnd in range(args.repeat):
            load = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "?"
            loads.append(load)
            print(f"round {rnd + 1}/{args.repeat}, load {load}", flush=True)
            for label, name, mode, j in configs:
                got = run_once(pythons[label], folders[name], j, mode == "default", table, env)
                runs[(label, name, mode, j)].append(got)
                tables.setdefault((label, name, mode), set()).add(hashlib.sha256(table.read_bytes()).hexdigest())
                if "stderr_tail" in got:
                    print(f"  {label} {name} {mode} -j {j}: exit {got['exit']}: {got['stderr_tail']}")
    load_after = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "?"

    print(f"\nCPUs {cores}; load before each round: {' | '.join(loads)}; after: {load_after}")
    header = (f"{'code':6} {'folder':7} {'mode':15} {'-j':>3} {'files':>7} {'best s':>7} {'median s':>8} "
              f"{'files/s':>8} {'vs -j1':>6} {'parent us/file':>14} {'worker us/file':>14} {'Amdahl bound':>12}")
    print(header)
    results: list[dict[str, Any]] = []
    for label, name, mode, j in configs:
        got = runs[(label, name, mode, j)]
        n = count_files(folders[name])
        best = min(got, key=lambda r: r["wall_s"])
        median = statistics.median(r["wall_s"] for r in got)
        parent = min(r["parent_cpu"] for r in got) / n
        worker = (min(r["workers_cpu"] for r in got) if j > 1 else min(r["parent_cpu"] for r in got)) / n
        base = min(r["wall_s"] for r in runs[(label, name, mode, 1)]) if (label, name, mode, 1) in runs else None
        speedup = base / best["wall_s"] if base else float("nan")
        bound = worker / parent if j > 1 and parent > 0 else 1.0
        row = {"code": label, "folder": name, "mode": mode, "jobs": j, "files": n, "best_s": round(best["wall_s"], 3),
               "median_s": round(median, 3), "files_per_s": round(n / best["wall_s"]),
               "speedup_vs_j1": round(speedup, 2), "parent_cpu_us_per_file": round(parent * 1e6, 1),
               "worker_cpu_us_per_file": round(worker * 1e6, 1), "amdahl_bound": round(bound, 1),
               "exits": [r["exit"] for r in got]}
        results.append(row)
        print(f"{label:6} {name:7} {mode:15} {j:>3} {n:>7,} {best['wall_s']:>7.2f} {median:>8.2f} "
              f"{n / best['wall_s']:>8,.0f} {speedup:>6.2f} {parent * 1e6:>14.1f} {worker * 1e6:>14.1f} {bound:>12.1f}")
    same = all(len(h) == 1 for h in tables.values())
    print("tables identical at every -j: " + ("yes" if same else
          "NO: " + ", ".join(f"{c} {n} {m}" for (c, n, m), h in tables.items() if len(h) > 1)))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "folder.json").write_text(json.dumps(
        {"cpus": cores, "loads": loads, "load_after": load_after, "runs": results, "tables_identical": same,
         "bytecode_cache": None if env is None else env["PYTHONPYCACHEPREFIX"]},
        indent=2) + "\n")
    if args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
