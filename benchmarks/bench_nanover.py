#!/usr/bin/env python3
"""Benchmark ``recspec check`` on synthetic NanoVer trajectories.

For each size (default 50 MB and 500 MB), writes a trajectory with
``make_nanover_traj.py`` (20,000 particles: positions and velocities, 3N
floats each, per frame), reads it once so that it is in the page cache, then
runs ``recspec check --json --no-cross-check FILE`` in a fresh process pinned
to one CPU (``taskset -c 0``) under ``/usr/bin/time -v``, and reports the
throughput (file MB, 10^6 bytes, per wall-clock second, start-up included),
MB per CPU second, and the peak RSS.

Bars: at least 100 MB/s on one core on the files of 500 MB or more (the size
the bar is set for; on 50 MB the ~0.4 s of interpreter and protobuf start-up
is a large share of the wall time, so that row is shown, not judged), and peak RSS
on the largest file at most 1.10 times the one on the smallest (memory
independent of the file size).

    python benchmarks/bench_nanover.py [--sizes 50MB,500MB] [--repeat 3] [--workdir DIR] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_nanover_traj  # noqa: E402

BAR_MB_PER_S = 100.0
RSS_TOLERANCE = 1.10
#: The throughput bar is judged on files at least this large.
BAR_MIN_BYTES = 500 * 10**6
TIME_BIN = "/usr/bin/time"


def measure(path: Path, pin: bool) -> dict:
    cmd = [sys.executable, "-m", "recspec", "check", "--json", "--no-cross-check", str(path)]
    if pin and shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    if not os.path.exists(TIME_BIN):
        raise SystemExit(f"{TIME_BIN} (GNU time) is needed for the peak RSS; apt-get install time")
    proc = subprocess.run([TIME_BIN, "-v", *cmd], capture_output=True, text=True, check=False)
    report = json.loads(proc.stdout)["files"][0]

    def field(name: str) -> str:
        m = re.search(rf"{re.escape(name)}: (.+)", proc.stderr)
        assert m, proc.stderr
        return m.group(1).strip()

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
    seconds = float(wall[-1]) + 60 * float(wall[-2]) + (3600 * float(wall[-3]) if len(wall) > 2 else 0)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return {"wall_s": seconds, "cpu_s": cpu, "peak_rss_kib": int(field("Maximum resident set size (kbytes)")),
            "verdict": report["verdict"], "findings": len(report["findings"]), "records": report["stats"]["records"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="50MB,500MB")
    ap.add_argument("--repeat", type=int, default=3, help="runs per file (median wall and CPU time, max RSS)")
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-pin", action="store_true")
    args = ap.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="recspec-bench-nanover-"))
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for label in args.sizes.split(","):
            size = make_nanover_traj.parse_size(label)
            path = work / f"synthetic-{label}.traj"
            if not path.exists():
                make_nanover_traj.write(path, size, 20_000, 1)
            nbytes = path.stat().st_size
            with open(path, "rb") as f:  # into the page cache
                while f.read(1 << 24):
                    pass
            runs = [measure(path, not args.no_pin) for _ in range(args.repeat)]
            wall = statistics.median(r["wall_s"] for r in runs)
            cpu = statistics.median(r["cpu_s"] for r in runs)
            rows.append({"size": label, "bytes": nbytes, "records": runs[0]["records"],
                         "verdict": runs[0]["verdict"], "findings": runs[0]["findings"],
                         "mb_per_s": nbytes / 1e6 / wall, "mb_per_cpu_s": nbytes / 1e6 / cpu,
                         "peak_rss_mib": max(r["peak_rss_kib"] for r in runs) / 1024})
    finally:
        if not args.keep and args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{'size':>8} {'records':>8} {'verdict':>8} {'MB/s':>8} {'MB/cpu-s':>9} {'peak RSS MiB':>13}")
    for r in rows:
        print(f"{r['size']:>8} {r['records']:>8} {r['verdict']:>8} {r['mb_per_s']:8.1f} {r['mb_per_cpu_s']:9.1f} "
              f"{r['peak_rss_mib']:13.1f}")
    judged = [r for r in rows if r["bytes"] >= BAR_MIN_BYTES] or rows
    speed_ok = all(r["mb_per_s"] >= BAR_MB_PER_S for r in judged)
    rss_ok = rows[-1]["peak_rss_mib"] <= RSS_TOLERANCE * rows[0]["peak_rss_mib"]
    valid = all(r["verdict"] == "valid" and r["findings"] == 0 for r in rows)
    print(f"throughput >= {BAR_MB_PER_S:.0f} MB/s on one core (files >= 500 MB): {'PASS' if speed_ok else 'FAIL'}")
    print(f"peak RSS independent of size (<= {RSS_TOLERANCE:.2f}x): {'PASS' if rss_ok else 'FAIL'}")
    print(f"files valid with no finding: {'PASS' if valid else 'FAIL'}")
    print(f"nproc {os.cpu_count()}, load {os.getloadavg()[0]:.2f}")
    return 0 if speed_ok and rss_ok and valid else 1


if __name__ == "__main__":
    sys.exit(main())
