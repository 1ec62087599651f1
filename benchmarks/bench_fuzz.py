"""Benchmark the fuzz harnesses: executions per second per format and target, and the mutator's cost.

Two measurements per format and target (``ref``, ``ksy``, ``diff``):

* **plain** (no atheris instrumentation): a loop in this process over the
  campaign's own seed corpus (``corpus/<format>/``, the derived and the synthetic
  seeds, exactly what ``recspec fuzz`` starts from) and mutants of it made by the
  format's structure-aware mutator (with its own byte mutator standing in for
  libFuzzer's). Times are this process's CPU time, so other processes on the
  machine do not slow the figure down. Reported: harness execs/s (time inside the harness only), the
  mutator's mean cost per call, and the bare reader's execs/s on the same inputs
  (``FormatInfo.load_reference().decode``: the harness/bare ratio says how much
  the harness costs beyond one reading);
* **instrumented**: a short real campaign, ``recspec fuzz FORMAT --target T
  --time S --seed 1 --out <tmp> --verbose``, and libFuzzer's own exec/s figure
  (its last progress line, else ``stat::average_exec_per_sec``), the figure the
  targets are set in. Its start-up (imports under instrumentation, loading the
  corpus) counts in libFuzzer's average, as it does in every real campaign;
* **instrumented, per CPU-second** (``--cpu-loop SECONDS``): in a child process,
  the harness imported under the same atheris instrumentation as a campaign's
  (``recspec.fuzz._harness.INSTRUMENT`` and ``not_instrumented()``), looped over
  the seeds and mutants, executions over the process's CPU time. It leaves out
  libFuzzer and its corpus growth, so it is a steadier figure on a loaded
  machine than the campaign's (a campaign at load 1 ran at about 0.9 times it);
  use it to compare two commits, the campaign's figure for the bar. ``--before CHECKOUT`` does
  that comparison: CHECKOUT's loop (its own benchmark and code, run by its ``.venv``'s
  interpreter) and this checkout's, interleaved, ``--rounds`` times each, and the ratio.

The targets (issue 14):

    | what                                   | target                               |
    |----------------------------------------|--------------------------------------|
    | ref, execs/s instrumented              | >= 1,000 every format (stretch 3,000)|
    | ksy and diff, execs/s instrumented     | >= 300 every format                  |
    | mutator cost per call                  | <= 0.5 ms                            |

The machine's load average is printed before and after: on a shared machine
other processes only ever lower the figures. Usage::

    python benchmarks/bench_fuzz.py                         # every format and target, plain 3 s + campaign 20 s
    python benchmarks/bench_fuzz.py --formats carla --targets ref --campaign-seconds 30
    python benchmarks/bench_fuzz.py --no-campaign           # the plain loop only (no atheris needed)
    python benchmarks/bench_fuzz.py --targets ref --cpu-loop 10 --no-campaign   # per CPU-second, under load
    python benchmarks/bench_fuzz.py --formats carla --variant carla=0.9.15   # a campaign that fixes the variant
    python benchmarks/bench_fuzz.py --targets ref --cpu-loop 10 --before ../main   # two checkouts, interleaved

Exit status 0 when every measured figure meets its target, 1 otherwise. The
figures are also written as JSON to ``benchmarks/out/fuzz-<date>.json``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

#: The issue's bars: instrumented execs/s per target, and the mutator's ms per call.
BAR_EXECS = {"ref": 1000, "ksy": 300, "diff": 300}
STRETCH_REF = 3000
BAR_MUTATOR_MS = 0.5

_RE_PROGRESS_RATE = re.compile(r"^#\d+\s+\w+\b.*\bexec/s: (\d+)")
_RE_AVG = re.compile(r"^stat::average_exec_per_sec:\s+(\d+)")
_RE_EXECS = re.compile(r"^stat::number_of_executed_units:\s+(\d+)")


def seed_inputs(fmt: str, max_len: int) -> list[bytes]:
    """The inputs a campaign of ``fmt`` starts from (the runner's own corpus preparation)."""
    from recspec.formats import resolve_format
    from recspec.fuzz import _harness, _seeds

    mod = _harness.load_harness(resolve_format(fmt))
    with tempfile.TemporaryDirectory() as tmp:
        _seeds.prepare_corpus(mod, fmt, Path(tmp), max_len, (), None)
        return [p.read_bytes() for p in sorted(Path(tmp).iterdir())]


def _timed_loop(inputs: list[bytes], call: Callable[[bytes], object], seconds: float) -> tuple[int, float, int]:
    """Call ``call`` on the inputs round-robin for about ``seconds`` of wall time.

    Returns (calls, CPU seconds spent inside them, exceptions)."""
    n = failures = 0
    spent = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or n < len(inputs):
        data = inputs[n % len(inputs)]
        t0 = time.process_time()
        try:
            call(data)
        except Exception:  # noqa: BLE001 - a finding; the benchmark counts it and goes on
            failures += 1
        spent += time.process_time() - t0
        n += 1
    return n, spent, failures


def _variant_for_decode(codec: Any, mod: Any, data: bytes) -> str | None:
    """The variant the bare reader needs for ``data``: none when it reads the input without
    one, else the harness's (``describe_input``: the variant ``recspec check`` detects)."""
    from recspec.errors import UsageError

    try:
        codec.decode(data)
    except UsageError:  # CARLA and NanoVer name no variant in the file: pass the detected one
        return mod.describe_input(data).get("variant")
    except Exception:  # noqa: BLE001 - a bad input is the reader's business, timed below
        pass
    return None


def plain(fmt: str, targets: list[str], seconds: float, max_len: int, mutants: int,
          variant: str | None = None) -> dict[str, Any]:
    """Execs/s of each harness, the mutator's cost and the bare reader's execs/s, uninstrumented."""
    from recspec.formats import resolve_format
    from recspec.fuzz import _harness

    info = resolve_format(fmt)
    mod = _harness.load_harness(info)
    mod.use_variant(variant)
    seeds = seed_inputs(fmt, max_len)
    rng = random.Random(1)
    made: list[bytes] = []
    t0 = time.process_time()
    for i in range(mutants):
        made.append(mod.mutate(rng.choice(seeds), max_len, i))
    mutator_ms = (time.process_time() - t0) * 1000 / mutants
    inputs = seeds + made
    codec = info.load_reference()
    variants = {data: _variant_for_decode(codec, mod, data) for data in inputs}

    def bare(data: bytes) -> None:
        codec.decode(data, variant=variants[data])

    n, spent, _ = _timed_loop(inputs, bare, seconds)
    out: dict[str, Any] = {"seeds": len(seeds), "mutants": len(made), "mutator_ms": mutator_ms,
                           "bare_execs_s": n / spent if spent else 0.0, "targets": {}}
    for target in targets:
        n, spent, failures = _timed_loop(inputs, mod.TARGETS[target], seconds)
        out["targets"][target] = {"execs": n, "execs_s": n / spent if spent else 0.0, "failures": failures}
    mod.use_variant(None)
    return out


def campaign(fmt: str, target: str, seconds: int, variant: str | None = None) -> dict[str, Any]:
    """One short instrumented campaign; libFuzzer's exec/s."""
    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as tmp:
        cmd = [sys.executable, "-m", "recspec", "fuzz", fmt, "--target", target, "--time", str(seconds),
               "--seed", "1", "--out", tmp, "--verbose", *(["--variant", variant] if variant else [])]
        t0 = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=REPO)
        wall = time.monotonic() - t0
    rate = avg = execs = None
    for line in (proc.stderr + proc.stdout).splitlines():
        if m := _RE_PROGRESS_RATE.match(line):
            rate = int(m.group(1))
        elif m := _RE_AVG.match(line):
            avg = int(m.group(1))
        elif m := _RE_EXECS.match(line):
            execs = (execs or 0) + int(m.group(1))
    return {"execs_s": rate if rate is not None else avg, "avg_execs_s": avg, "execs": execs, "wall_s": wall,
            "returncode": proc.returncode,
            "tail": None if rate is not None or avg is not None else (proc.stderr + proc.stdout)[-2000:]}


def cpu_loop(fmt: str, target: str, seconds: float, max_len: int, mutants: int,
             variant: str | None = None, checkout: Path = REPO, python: str = sys.executable) -> dict[str, Any]:
    """Execs per CPU-second of the instrumented harness, measured in a child process (see the module doc):
    ``checkout``'s own benchmark and code, run by ``python`` (another checkout's: its interpreter)."""
    cmd = [python, str(checkout / "benchmarks" / "bench_fuzz.py"), "--_cpu-loop-child", fmt, target, str(seconds),
           str(max_len), str(mutants), variant or ""]
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=checkout)
    if proc.returncode != 0:
        return {"execs_per_cpu_s": None, "tail": (proc.stderr + proc.stdout)[-2000:]}
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def _cpu_loop_child(fmt: str, target: str, seconds: float, max_len: int, mutants: int, variant: str) -> None:
    import atheris

    from recspec.formats import resolve_format
    from recspec.fuzz import _harness

    info = resolve_format(fmt)
    # Import the code under test under instrumentation first: a module imported before is not instrumented.
    with atheris.instrument_imports(include=list(_harness.INSTRUMENT), exclude=_harness.not_instrumented()):
        mod = _harness.load_harness(info)
    seeds = seed_inputs(fmt, max_len)
    mod.use_variant(variant or None)
    rng = random.Random(1)
    inputs = seeds + [mod.mutate(rng.choice(seeds), max_len, i) for i in range(mutants)]
    harness = mod.TARGETS[target]
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds or n < len(inputs):
        try:
            harness(inputs[n % len(inputs)])
        except Exception:  # noqa: BLE001 - a finding is a campaign's business; here only time counts
            pass
        n += 1
    spent = time.process_time() - t0
    print(json.dumps({"execs": n, "cpu_s": spent, "execs_per_cpu_s": n / spent if spent else 0.0,
                      "inputs": len(inputs)}))


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _fmt_rate(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def main(argv: list[str] | None = None) -> int:
    from recspec.formats import FORMATS
    from recspec.fuzz import TARGETS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--formats", default=",".join(FORMATS), help="comma-separated format ids (default all)")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets (default all)")
    ap.add_argument("--plain-seconds", type=float, default=3.0, help="plain loop length per target (default 3)")
    ap.add_argument("--mutants", type=int, default=300, help="mutants made (and timed) per format (default 300)")
    ap.add_argument("--campaign-seconds", type=int, default=20, help="instrumented campaign per target (default 20)")
    ap.add_argument("--no-campaign", action="store_true", help="skip the instrumented campaigns")
    ap.add_argument("--max-len", type=int, default=65536, help="the campaigns' default --max-len")
    ap.add_argument("--variant", action="append", default=[], metavar="FORMAT=VARIANT",
                    help="fix a format's variant, as `recspec fuzz --variant` (e.g. carla=0.9.15); repeatable")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="where the JSON goes (default benchmarks/out)")
    ap.add_argument("--cpu-loop", type=float, default=0.0, metavar="SECONDS",
                    help="also time the instrumented harness per CPU-second for SECONDS (steadier under load)")
    ap.add_argument("--before", type=Path, metavar="CHECKOUT",
                    help="with --cpu-loop: only the CPU-second loop, CHECKOUT's (before) and this checkout's (after) "
                         "interleaved, --rounds times each, and their ratio")
    ap.add_argument("--before-python", metavar="PYTHON",
                    help="the interpreter that runs CHECKOUT's recspec (default CHECKOUT/.venv/bin/python)")
    ap.add_argument("--rounds", type=int, default=3, help="with --before: loops of each per format (default 3)")
    ap.add_argument("--_cpu-loop-child", nargs=6, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._cpu_loop_child:
        fmt, target, secs, max_len, mutants, variant = args._cpu_loop_child
        _cpu_loop_child(fmt, target, float(secs), int(max_len), int(mutants), variant)
        return 0
    formats = [f for f in args.formats.split(",") if f]
    variants = dict(v.split("=", 1) for v in args.variant)
    targets = [t for t in args.targets.split(",") if t]
    if args.before is not None:
        if args.cpu_loop <= 0:
            ap.error("--before compares the CPU-second loops: give --cpu-loop SECONDS")
        return before_after(args, formats, targets, variants)

    print(f"bench_fuzz at commit {_commit()}; {_load()}", flush=True)
    results: dict[str, Any] = {"commit": _commit(), "date": _dt.date.today().isoformat(), "load_before": _load(),
                               "formats": {}}
    for fmt in formats:
        res = plain(fmt, targets, args.plain_seconds, args.max_len, args.mutants, variants.get(fmt))
        res["variant"] = variants.get(fmt)
        if args.cpu_loop > 0:
            for target in targets:
                res["targets"][target]["cpu_loop"] = cpu_loop(fmt, target, args.cpu_loop, args.max_len,
                                                              args.mutants, variants.get(fmt))
        if not args.no_campaign:
            for target in targets:
                res["targets"][target]["instrumented"] = campaign(fmt, target, args.campaign_seconds,
                                                                  variants.get(fmt))
        results["formats"][fmt] = res
        print(f"  {fmt} done; {_load()}", file=sys.stderr, flush=True)
    results["load_after"] = _load()

    ok = True
    head = ("format", "target", "plain execs/s", "bare decode/s", "harness/bare", "instrumented execs/s", "bar",
            "mutator ms/call", "instrumented execs/CPU-s")
    rows = []
    for fmt, res in results["formats"].items():
        for target, t in res["targets"].items():
            inst = t.get("instrumented", {}).get("execs_s")
            bar = BAR_EXECS[target]
            if inst is not None and inst < bar:
                ok = False
            if res["mutator_ms"] > BAR_MUTATOR_MS:
                ok = False
            verdict = "" if inst is None else (" PASS" if inst >= bar else " FAIL")
            ratio = t["execs_s"] / res["bare_execs_s"] if res["bare_execs_s"] else 0.0
            label = fmt + (f" ({res['variant']})" if res.get("variant") else "")
            rows.append((label, target, _fmt_rate(t["execs_s"]), _fmt_rate(res["bare_execs_s"]), f"{ratio:.2f}",
                         _fmt_rate(inst), f">= {bar:,}{verdict}", f"{res['mutator_ms']:.3f}",
                         _fmt_rate(t.get("cpu_loop", {}).get("execs_per_cpu_s"))))
    widths = [max(len(str(r[i])) for r in (head, *rows)) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"  # noqa: E731
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print(f"bars: ref >= {BAR_EXECS['ref']:,} execs/s instrumented (stretch {STRETCH_REF:,}), ksy/diff >= "
          f"{BAR_EXECS['ksy']:,}, mutator <= {BAR_MUTATOR_MS} ms/call; {results['load_after']}")
    for fmt, res in results["formats"].items():
        for target, t in res["targets"].items():
            if t.get("cpu_loop", {}).get("tail"):
                print(f"{fmt}/{target}: the CPU-second loop failed; its end:\n{t['cpu_loop']['tail']}")
            if t.get("instrumented", {}).get("tail"):
                print(f"{fmt}/{target}: no exec/s in the campaign's output; its end:\n{t['instrumented']['tail']}")
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    (args.out / f"fuzz-{stamp}.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0 if ok else 1


def before_after(args: argparse.Namespace, formats: list[str], targets: list[str], variants: dict[str, str]) -> int:
    """The instrumented CPU-second loop of ``args.before`` (before) and of this checkout (after), interleaved
    (before, after, before, after ...) so that a change of the machine's load falls on both."""
    import statistics

    checkout = args.before.resolve()
    python = args.before_python or str(checkout / ".venv" / "bin" / "python")
    if not Path(python).exists():
        raise SystemExit(f"no interpreter {python}: give --before-python")
    print(f"instrumented execs per CPU-second, {args.cpu_loop:g} s loops, {args.rounds} rounds interleaved; "
          f"before: {checkout} ({python}), after: {REPO} at {_commit()} ({sys.executable})\n")
    print("| format | target | before (each round) | after (each round) | after / before (median) "
          "| load before each round |")
    print("|---|---|---|---|---|---|")
    for fmt in formats:
        for target in targets:
            before: list[float] = []
            after: list[float] = []
            loads = []
            for _ in range(args.rounds):
                loads.append(f"{os.getloadavg()[0]:.2f}")
                for side, kw in ((before, {"checkout": checkout, "python": python}), (after, {})):
                    res = cpu_loop(fmt, target, args.cpu_loop, args.max_len, args.mutants, variants.get(fmt), **kw)
                    if res.get("execs_per_cpu_s") is None:
                        raise SystemExit(f"{fmt}/{target}: the CPU-second loop failed; its end:\n{res.get('tail')}")
                    side.append(res["execs_per_cpu_s"])
            print(f"| {fmt} | {target} | {' / '.join(f'{x:.0f}' for x in before)} "
                  f"| {' / '.join(f'{x:.0f}' for x in after)} "
                  f"| {statistics.median(after) / statistics.median(before):.2f} | {', '.join(loads)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
