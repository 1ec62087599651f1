#!/usr/bin/env python3
"""Batch throughput of ``recspec check`` on a folder of raSkat signal files.

A detector writes one small file per pulse under
``<year>/<month>/<day>/<hour>/<timestamp>.sig``; this script writes such a tree
of N files (default 100,000 version 4 files as the raSkat writer emits them:
raw, 100 raw 10-bit codes, flags with extra bits), then times
``recspec check FOLDER`` in a fresh process, pinned to one CPU, with the
output to /dev/null:

* ``default``: the plain command (Kaitai cross-check batch-sampled, see README);
* ``no-cross-check``: ``--no-cross-check``, the reference path alone;
* ``all-cross-check`` (with ``--all``): cross-check limit raised, sampling
  still applies; kept for comparison only when asked.

Every file is read once before the runs, so they are in the page cache and the
figures are parsing, not disk. Files/s is N divided by the wall time of the
process (start-up included); files/cpu-s uses its user+sys CPU time, which
other load on the machine disturbs less.
``--profile`` (default compat: the writer's files are valid there) is passed on.
The bar: at least 2,000 files/s in one process for the default command.

    python benchmarks/bench_raskat_signal.py                 # 100,000 files
    python benchmarks/bench_raskat_signal.py --files 20000 --repeat 3 --keep --workdir /tmp/sigs
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BAR_FILES_PER_S = 2000


def write_tree(root: Path, n: int, samples: int, seed: int) -> int:
    """N version 4 signal files in the detector's folder layout; returns the bytes written."""
    from recspec.reference.raskat_signal import SignalMsgpack, encode

    rng = random.Random(seed)
    total = 0
    t0 = 1_750_759_618
    for i in range(n):
        t = time.gmtime(t0 + i * 7)
        stamp = time.strftime("%Y%m%d%H%M%S", t)
        folder = root / time.strftime("%Y/%m/%d/%H", t)
        folder.mkdir(parents=True, exist_ok=True)
        sig = SignalMsgpack.build(
            time=stamp, microseconds=rng.randrange(1_000_000), coordinate_1=70.54321, coordinate_2=128.012345,
            altitude=150.0, sample_rate=500_000, load_ohm=1000, adc_bits=10, vref=3.299999952316284,
            flags=0x82, antenna=1,
            samples=tuple(max(0, min(1023, 512 + int(rng.gauss(0, 90)))) for _ in range(samples)),
            threshold=643)
        data = encode(sig)
        (folder / f"{stamp}{i % 7:01d}.sig").write_bytes(data)
        total += len(data)
    return total


def run(cmd: list[str], pin: bool) -> dict[str, Any]:
    prefix = ["taskset", "-c", "0"] if pin and shutil.which("taskset") else []
    start = time.perf_counter()
    r0 = os.times()
    proc = subprocess.run(prefix + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    r1 = os.times()
    cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
    return {"wall_s": wall, "cpu_s": cpu, "exit": proc.returncode, "stderr_tail": proc.stderr[-300:]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=100_000, help="how many signal files (default 100000)")
    ap.add_argument("--samples", type=int, default=100, help="samples per file (default 100, as the upstream test)")
    ap.add_argument("--profile", default="compat", choices=("spec", "compat"))
    ap.add_argument("--repeat", type=int, default=1, help="runs per command (median)")
    ap.add_argument("--workdir", type=Path, help="where the tree goes (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the tree (and reuse a kept one of the same size)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="folder for the JSON result")
    args = ap.parse_args(argv)

    work = args.workdir or Path(tempfile.mkdtemp(prefix="recspec-raskat-bench-"))
    tree = work / f"signals-{args.files}-{args.samples}"
    if not (args.keep and tree.is_dir()):
        shutil.rmtree(tree, ignore_errors=True)
        t = time.perf_counter()
        nbytes = write_tree(tree, args.files, args.samples, args.seed)
        print(f"wrote {args.files} files ({nbytes / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s to {tree}")
    t = time.perf_counter()
    warm = sum(len(p.read_bytes()) for p in tree.rglob("*.sig"))  # into the page cache: measure parsing, not disk
    print(f"read {warm / 1e6:.1f} MB once to warm the page cache in {time.perf_counter() - t:.1f} s")
    recspec = [sys.executable, "-m", "recspec", "check", "--profile", args.profile]
    runs = {"default": recspec + [str(tree)], "no-cross-check": recspec + ["--no-cross-check", str(tree)]}
    results: dict[str, Any] = {"files": args.files, "samples": args.samples, "profile": args.profile,
                               "nproc": os.cpu_count(), "loadavg_before": os.getloadavg()}
    ok = True
    for name, cmd in runs.items():
        walls = []
        for _ in range(args.repeat):
            r = run(cmd, not args.no_pin)
            if r["exit"] != 0:
                print(f"{name}: exit {r['exit']}: {r['stderr_tail']}")
            walls.append(r)
        wall = statistics.median(r["wall_s"] for r in walls)
        cpu = statistics.median(r["cpu_s"] for r in walls)
        rate = args.files / wall
        results[name] = {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "files_per_s": round(rate),
                         "files_per_cpu_s": round(args.files / cpu) if cpu else None,
                         "exit": [r["exit"] for r in walls]}
        line = f"{name:15} {wall:7.2f} s wall  {cpu:7.2f} s cpu  {rate:7.0f} files/s"
        if name == "default":
            passed = rate >= BAR_FILES_PER_S
            ok = ok and passed
            line += f"  bar {BAR_FILES_PER_S}/s: {'PASS' if passed else 'FAIL'}"
        print(line)
    results["loadavg_after"] = os.getloadavg()
    print(f"nproc {results['nproc']}, load average before {results['loadavg_before']}, "
          f"after {results['loadavg_after']}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "raskat.json").write_text(json.dumps(results, indent=2) + "\n")
    if not args.keep and args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
