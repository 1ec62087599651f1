#!/usr/bin/env python3
"""What the `ref` harnesses' oracles cost: execs/s of a campaign with them and without them.

    python benchmarks/bench_oracle_cost.py                 # every format, 20 s campaigns, 2 rounds
    python benchmarks/bench_oracle_cost.py --time 60 --rounds 3 --only carla
    python benchmarks/bench_oracle_cost.py --time 60 --before ../main   # another checkout against this one

Each campaign is ``recspec fuzz FORMAT --target ref --time T --seed S`` from the seeds, as a user
runs it (the campaign's start included); its execs/s is read from the progress line. *Without*
the oracles, ``recspec.fuzz._oracles`` is imported in the campaign's processes with every check
a no-op and nothing sampled (planted as ``bench_planted.py`` plants a bug: the checkout is never
written), so what is left is the harness's own contract: the check, its JSON, the decoder.
The two run interleaved (with, without, with, without ...) so that a change of the machine's
load falls on both; the table gives the best and the median per format and their ratio, and the
load before each round.

``--before CHECKOUT`` compares two commits instead, both with their oracles: each campaign of
this checkout alternates with one that CHECKOUT's own interpreter (``CHECKOUT/.venv/bin/python``,
or ``--before-python``) runs in CHECKOUT, same format, time and seed (before, after, before,
after ...). On a loaded machine only the ratio says something; a quiet core's figure is the
one measured there times the ratio.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_planted import ROOT, run_fuzz

FORMATS = ("carla", "nanover", "matrix-smt", "raskat-signal")
ORACLES = ROOT / "fuzz" / "_oracles.py"
#: Appended to fuzz/_oracles.py for the campaigns without oracles: every check returns at once.
_OFF = '''

def _off(*args, **kwargs):
    return None


check_located = check_profiles = check_refusal = check_round_trip = check_paths_agree = _off
check_rederived = check_model_view = check_recounted = _off


def sampled(data, one_in=8):
    return False
'''


def execs_per_second(fmt: str, seconds: int, seed: int, oracles: bool, checkout: Path = ROOT,
                     python: str = sys.executable) -> float:
    plant = None if oracles else ("recspec.fuzz._oracles", str(ORACLES),
                                  ORACLES.read_text(encoding="utf-8") + _OFF)
    _, _signatures, line = run_fuzz(fmt, seconds, seed, plant, checkout, python)
    m = re.search(r"\(([\d.]+)/s\)", line)
    if m is None:
        raise SystemExit(f"{fmt}: no execs/s in the campaign's progress line {line!r}")
    return float(m.group(1))


def load() -> str:
    path = Path("/proc/loadavg")
    return path.read_text().split()[0] if path.exists() else "?"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--time", type=int, default=20, help="seconds per campaign (default 20)")
    p.add_argument("--rounds", type=int, default=2, help="campaigns of each kind per format (default 2)")
    p.add_argument("--seed", type=int, default=1, help="libFuzzer seed (default 1)")
    p.add_argument("--only", nargs="+", choices=FORMATS, metavar="FORMAT", help="only these formats")
    p.add_argument("--before", type=Path, metavar="CHECKOUT",
                   help="compare CHECKOUT's campaigns (before) with this checkout's (after), oracles on in both")
    p.add_argument("--before-python", metavar="PYTHON",
                   help="the interpreter that runs CHECKOUT's recspec (default CHECKOUT/.venv/bin/python)")
    args = p.parse_args(argv)
    if args.before is not None:
        return before_after(args)
    print(f"{args.time} s campaigns, {args.rounds} rounds, interleaved with/without, seed {args.seed}\n")
    print("| format | with oracles, execs/s (best / median) | without (best / median) | with / without (median) "
          "| load before each round |")
    print("|---|---|---|---|---|")
    for fmt in args.only or FORMATS:
        on: list[float] = []
        off: list[float] = []
        loads = []
        for _ in range(args.rounds):
            loads.append(load())
            on.append(execs_per_second(fmt, args.time, args.seed, True))
            off.append(execs_per_second(fmt, args.time, args.seed, False))
        print(f"| {fmt} | {max(on):.0f} / {statistics.median(on):.0f} | {max(off):.0f} / {statistics.median(off):.0f} "
              f"| {statistics.median(on) / statistics.median(off):.2f} | {', '.join(loads)} |", flush=True)
    return 0


def before_after(args: argparse.Namespace) -> int:
    """Interleaved campaigns of ``args.before`` (before) and this checkout (after), oracles on in both."""
    checkout = args.before.resolve()
    python = args.before_python or str(checkout / ".venv" / "bin" / "python")
    if not Path(python).exists():
        raise SystemExit(f"no interpreter {python}: give --before-python")
    print(f"{args.time} s campaigns, {args.rounds} rounds, interleaved before/after, seed {args.seed}; "
          f"before: {checkout} ({python}), after: {ROOT} ({sys.executable})\n")
    print("| format | before, execs/s (each round) | after, execs/s (each round) | after / before (median) "
          "| load before each round |")
    print("|---|---|---|---|---|")
    for fmt in args.only or FORMATS:
        before: list[float] = []
        after: list[float] = []
        loads = []
        for _ in range(args.rounds):
            loads.append(load())
            before.append(execs_per_second(fmt, args.time, args.seed, True, checkout, python))
            after.append(execs_per_second(fmt, args.time, args.seed, True))
        print(f"| {fmt} | {' / '.join(f'{x:.0f}' for x in before)} | {' / '.join(f'{x:.0f}' for x in after)} "
              f"| {statistics.median(after) / statistics.median(before):.2f} | {', '.join(loads)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
