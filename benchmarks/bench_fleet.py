#!/usr/bin/env python3
"""Peak memory and files/s of one `recspec check` run over many small files (fleet scale).

Writes a raSkat detector tree of N small signal files (default 100,000; the
generator of ``bench_raskat_signal.py``: version 4, raw, 100 samples, valid
under compat), reads it once into the page cache, then runs in a fresh process
each of

* ``-j 1``:  ``recspec check --profile compat TREE --report json:OUT``
* ``-j 2``:  the same with ``-j 2``

with the table to /dev/null, and reports wall time, files/s and peak RSS: the
largest "Maximum resident set size" of the recspec process and of any one of its
worker processes (GNU ``/usr/bin/time -v`` on the recspec process; for the
largest of all, ``getrusage(RUSAGE_CHILDREN)`` in a small launcher process of
its own, since a child forked from this script would report this script's
peak). ``--shard K/N`` measures one shard of the run instead, and ``--merge``
also times `recspec merge` of the written JSON report (its peak RSS the same way).

    python benchmarks/bench_fleet.py                          # 100,000 files
    python benchmarks/bench_fleet.py --files 10000 --keep --workdir /tmp/fleet
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_raskat_signal import write_tree  # noqa: E402

#: Runs the measured command and prints the largest peak RSS (KiB) among its processes: a small process
#: of its own, because ``ru_maxrss`` survives fork and exec (a child of a big process reports the big
#: process's peak), and because RUSAGE_CHILDREN is a maximum over every child a process ever waited for.
_LAUNCHER = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)
"""


def measure(cmd: list[str]) -> dict[str, Any]:
    """Run ``cmd`` in a fresh child; wall time, the peak RSS (MiB) of the recspec process (GNU time)
    and of the largest process in the run (the recspec process or one of its workers)."""
    gnu_time = Path("/usr/bin/time")
    prefix = [str(gnu_time), "-v"] if gnu_time.exists() else []
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _LAUNCHER, *prefix, *cmd], capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    peak_text, code_text = proc.stdout.split()
    parent_peak_kib = None
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if m:
        parent_peak_kib = int(m.group(1))
    peak_kib = int(peak_text)
    tail = [ln for ln in proc.stderr.splitlines() if not ln.startswith("\t")][-3:]
    return {"exit": int(code_text), "wall_s": round(wall, 2), "peak_rss_mib": round(peak_kib / 1024, 1),
            "recspec_process_peak_rss_mib": round(parent_peak_kib / 1024, 1) if parent_peak_kib else None,
            "stderr_tail": tail}


def files_in(report: Path) -> int:
    """The report's ``summary.files``, read from its end: loading the whole report here would grow this
    process, and a child forked from it starts with this process's peak (``ru_maxrss`` survives exec),
    which would then be counted as the next run's."""
    with report.open("rb") as f:
        f.seek(max(0, report.stat().st_size - (1 << 16)))
        tail = f.read().decode("utf-8", "replace")
    m = re.search(r'"summary": \{\s*"files": (\d+)', tail)
    return int(m.group(1)) if m else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=100_000, help="how many signal files (default 100000)")
    ap.add_argument("--samples", type=int, default=100, help="samples per file (default 100)")
    ap.add_argument("--jobs", default="1,2", help="job counts to measure (default 1,2)")
    ap.add_argument("--shard", help="measure shard K/N of the run instead of the whole run")
    ap.add_argument("--merge", action="store_true", help="also time `recspec merge` of the JSON report")
    ap.add_argument("--workdir", type=Path, help="where the tree goes (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the tree (and reuse a kept one of the same size)")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="folder for the JSON result")
    args = ap.parse_args(argv)

    work = args.workdir or Path(tempfile.mkdtemp(prefix="recspec-fleet-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    tree = work / f"signals-{args.files}-{args.samples}"
    if not (args.keep and tree.is_dir()):
        shutil.rmtree(tree, ignore_errors=True)
        t = time.perf_counter()
        nbytes = write_tree(tree, args.files, args.samples, seed=1)
        print(f"wrote {args.files} files ({nbytes / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s")
    warm = sum(len(p.read_bytes()) for p in tree.rglob("*.sig"))
    print(f"read {warm / 1e6:.1f} MB once to warm the page cache")
    results: dict[str, Any] = {"files": args.files, "samples": args.samples, "shard": args.shard,
                               "nproc": os.cpu_count(), "loadavg_before": os.getloadavg(), "runs": {}}
    failed = False
    for jobs in [int(j) for j in args.jobs.split(",")]:
        report = work / f"fleet-j{jobs}.json"
        cmd = [sys.executable, "-m", "recspec", "check", "--profile", "compat", "-j", str(jobs), str(tree),
               "--report", f"json:{report}"] + (["--shard", args.shard] if args.shard else [])
        r = measure(cmd)
        checked = files_in(report) if report.exists() else 0
        r["files_checked"] = checked
        r["files_per_s"] = round(checked / r["wall_s"]) if r["wall_s"] else None
        failed |= r["exit"] not in (0, 1)
        print(f"-j {jobs}: {checked} files in {r['wall_s']:.1f} s, {r['files_per_s']} files/s, "
              f"peak RSS {r['peak_rss_mib']} MiB (recspec process {r['recspec_process_peak_rss_mib']} MiB), "
              f"exit {r['exit']}")
        if args.merge and report.exists():
            m = measure([sys.executable, "-m", "recspec", "merge", str(report), "--report", f"json:{report}.merged"])
            r["merge"] = m
            print(f"   merge of that report: {m['wall_s']:.1f} s, peak RSS {m['peak_rss_mib']} MiB, exit {m['exit']}")
        results["runs"][f"-j {jobs}"] = r
    results["loadavg_after"] = os.getloadavg()
    print(f"nproc {results['nproc']}, load average before {results['loadavg_before']}, "
          f"after {results['loadavg_after']}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "fleet.json").write_text(json.dumps(results, indent=2) + "\n")
    if not args.keep and args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
