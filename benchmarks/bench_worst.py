"""Worst-case inputs: time, rate and peak memory of ``recspec check`` on each hostile case.

    python benchmarks/bench_worst.py [--cases NAME,...] [--scale 1.0] [--timeout 300]
                                     [--cross-check both|on|off] [--workdir DIR] [--keep]
                                     [--no-bytecode-cache]

For every case of ``benchmarks/hostile.py`` (per format, the structures that
can be huge and the content that costs most per byte), the file is written at
its full size (times ``--scale``) and checked by ``recspec check --format F``
in a fresh process, with and without the Kaitai cross-check. Each check runs
under a small Python wrapper that reports the child's peak RSS from
``getrusage(RUSAGE_CHILDREN)``, so the figure is the check's alone.

The bounds checked are the README's resource contract ("Limits"):
peak RSS under ``MEMORY_BOUND_MIB`` and a verdict within
``STARTUP_ALLOWANCE_S + size / RATE_BOUND_MB_S`` of the check's CPU time (user
+ system of the check process: what the check costs, whatever else the machine
runs; the wall time is printed beside it, with the load average). A row that
breaks either, or is stopped at ``--timeout`` seconds of wall time, is marked
``OVER`` and the script exits 1.

The checks run with a bytecode cache under ``--workdir`` (filled by one check
before the first timed one), as an installed package has (pip compiles it on
install), even where the machine sets PYTHONDONTWRITEBYTECODE: the CPU figure
then holds the interpreter's start-up and imports, not the compiling of
recspec's sources. ``--no-bytecode-cache`` runs them in the environment as it
is (the figures before this option, on a machine with PYTHONDONTWRITEBYTECODE).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hostile  # noqa: E402  (sits next to this file)
from bench_ratios import bytecode_env  # noqa: E402

#: The README's bounds: peak memory whatever the input, and the worst-case rate.
MEMORY_BOUND_MIB = 256
RATE_BOUND_MB_S = 10.0
#: Interpreter start-up and imports, plus a fixed allowance for small files.
STARTUP_ALLOWANCE_S = 2.0

_WRAPPER = r"""
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
try:
    p = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=float(sys.argv[1]))
    code, out = p.returncode, p.stdout
except subprocess.TimeoutExpired:
    code, out = "timeout", b""
wall = time.perf_counter() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
verdict = "-"
try:
    verdict = json.loads(out)["files"][0]["verdict"]
except Exception:
    pass
print(json.dumps({"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_kib": ru.ru_maxrss, "code": code,
                  "verdict": verdict}))
"""


def run_case(path: Path, case: hostile.Case, *, cross_check: bool, timeout: float,
             env: dict[str, str] | None = None) -> dict:
    """The check of ``path`` in a fresh process (``env``: its environment, default this one's): its wall and
    CPU seconds, peak RSS, exit code and verdict."""
    import json

    cmd = [sys.executable, "-m", "recspec", "check", "--json", "--format", case.format, *case.extra_args]
    if not cross_check:
        cmd.append("--no-cross-check")
    # from the case's folder: ``python -m`` puts the working folder first on the import path, and a checkout
    # there would lend its ``recspec/`` to the interpreter that runs this script
    out = subprocess.run([sys.executable, "-c", _WRAPPER, str(timeout), *cmd, str(path.resolve())],
                         capture_output=True, text=True, check=True, cwd=path.resolve().parent, env=env)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every case's size (default 1.0)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per check before it is stopped")
    ap.add_argument("--cross-check", choices=("both", "on", "off"), default="both")
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the generated files")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="run the checks in the environment as it is (default: with a bytecode cache under "
                         "--workdir, as an installed package has, even where PYTHONDONTWRITEBYTECODE is set)")
    args = ap.parse_args(argv)
    wanted = set(filter(None, args.cases.split(",")))
    cases = [c for c in hostile.CASES if not wanted or c.name in wanted]
    if wanted - {c.name for c in cases}:
        ap.error(f"unknown cases: {', '.join(sorted(wanted - {c.name for c in cases}))}")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="recspec-worst-"))
    workdir.mkdir(parents=True, exist_ok=True)
    modes = {"both": (True, False), "on": (True,), "off": (False,)}[args.cross_check]
    env = None if args.no_bytecode_cache else bytecode_env(workdir / "pycache")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at start: {load:.2f} on {os.cpu_count()} CPUs; bounds: {MEMORY_BOUND_MIB} MiB, "
          f"{STARTUP_ALLOWANCE_S:g} s + size / {RATE_BOUND_MB_S:g} MB/s")
    header = f"{'case':26s} {'size MB':>8s} {'xcheck':>6s} {'verdict':>10s} {'wall s':>7s} {'cpu s':>7s} " \
             f"{'MB/cpu s':>8s} {'peak MiB':>8s}  bound"
    print("bytecode: " + ("the environment as it is" if env is None else f"cached in {workdir / 'pycache'}"))
    print(header)
    over = 0
    warmed: set[str] = set()  # the formats whose modules are in the bytecode cache
    try:
        for case in cases:
            count = max(1, int(case.full * args.scale))
            path = workdir / f"{case.name}-{count}"
            if not path.exists():
                hostile.write_case(case, path, count)
            size = path.stat().st_size
            if env is not None and case.format not in warmed:  # fill the cache: the modules this format's check imports
                run_case(path, case, cross_check=True, timeout=args.timeout, env=env)
                warmed.add(case.format)
            for xc in modes:
                r = run_case(path, case, cross_check=xc, timeout=args.timeout, env=env)
                mb = size / 1e6
                rate = mb / r["cpu"] if r["cpu"] else float("inf")  # MB per CPU second
                rss = r["rss_kib"] / 1024
                # the rate is judged on CPU time: on a shared machine the wall time measures the load
                ok = (r["code"] != "timeout" and rss <= MEMORY_BOUND_MIB
                      and r["cpu"] <= STARTUP_ALLOWANCE_S + mb / RATE_BOUND_MB_S)
                over += not ok
                verdict = r["verdict"] if r["code"] != "timeout" else "TIMEOUT"
                print(f"{case.name:26s} {mb:8.1f} {'on' if xc else 'off':>6s} {verdict:>10s} {r['wall']:7.1f} "
                      f"{r['cpu']:7.1f} {rate:8.1f} {rss:8.0f}  {'ok' if ok else 'OVER'}", flush=True)
    finally:
        if not args.keep and args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at end: {load:.2f}; {over} case(s) over the bounds")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
