#!/usr/bin/env python3
"""Where a `ref` fuzz execution goes, and what a user's campaign runs at: four measurements.

    python benchmarks/profile_fuzz_ref.py stages carla            # time per stage, instrumented
    python benchmarks/profile_fuzz_ref.py hooks carla             # atheris' coverage hooks per module
    python benchmarks/profile_fuzz_ref.py hooks carla --functions 20   # ... and the 20 functions making most
    python benchmarks/profile_fuzz_ref.py campaigns carla --before /work/main --rounds 3
    recspec fuzz carla --target ref --time 30 --seed 1 --merge kept/   # a campaign's corpus, kept
    python benchmarks/profile_fuzz_ref.py loop carla --corpus kept/ --mutants 1500 --before /work/main --rounds 3

* ``stages``: in this process, the harness module imported under a campaign's instrumentation
  (``_harness.not_instrumented("ref")``), its inputs the campaign's seeds and ``--mutants`` mutants made
  as a campaign makes them (each from a seed or an earlier mutant); each execution is the mutator and
  the harness, as in a campaign. The harness module is not instrumented, so the calls it makes (the
  check, the decoder, the report's JSON, each oracle) are timed by wrapping them there (wall time, so
  run it on a quiet machine or read only the shares). Also: how many inputs carry a finding, and what
  a packet and a finding cost the check (a least-squares fit over the mutants, variant given).
* ``hooks``: the same loop under ``cProfile``; atheris' ``_trace_branch`` and ``_trace_cmp`` calls per
  execution, by the module that made them (with ``--functions N``, also the N functions that make the most:
  atheris hooks every basic block a function enters and every comparison it makes, so a loop's count a
  packet is what to cut).
* ``--corpus DIR`` (stages, hooks, loop): the parents are DIR's inputs instead of the seeds and earlier
  mutants: a campaign's grown corpus (``recspec fuzz ... --merge DIR``) holds the inputs a campaign runs, which
  the seeds' mutants do not (smaller ones, and ones the kept answers have not seen).
* ``loop``: the harness instrumented as in a campaign, over ``--mutants`` mutants of ``--corpus``'s inputs (made
  before the clock starts; the corpus's inputs run once first, as a campaign runs them first), in executions per
  CPU-second of this process; with ``--before``, that checkout's code (this script run by its interpreter) and
  this one's, interleaved ``--rounds`` times. The mutator and libFuzzer are left out: the figure is the code
  under test's and the oracles'.
* ``campaigns``: ``python -m recspec fuzz FORMAT --target ref --time T --seed S`` as a user runs it,
  ``--before``'s checkout (its own interpreter) and this one interleaved, A B A B; per campaign the load
  before it, the execs/s of its summary line and execs per CPU-second of its processes (the parent and
  the fuzzing child, the start included: on a loaded machine the steadier figure).
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import io
import json
import os
import pstats
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def _instrumented(fmt: str) -> Any:
    import atheris

    from recspec.formats import resolve_format
    from recspec.fuzz import _harness

    with atheris.instrument_imports(include=list(_harness.INSTRUMENT), exclude=_harness.not_instrumented("ref")):
        mod = _harness.load_harness(resolve_format(fmt))
    mod.use_variant(None)
    return mod


def _corpus(corpus: Path) -> list[bytes]:
    files = [p.read_bytes() for p in sorted(corpus.iterdir()) if p.is_file()]
    if not files:
        raise SystemExit(f"{corpus}: no inputs")
    return files


def _inputs(fmt: str, mod: Any, mutants: int, corpus: Path | None = None) -> list[tuple[bytes, int]]:
    """(parent, seed) of each execution: the parent one of ``corpus``'s inputs, else a campaign seed or an
    earlier mutant (three in ten kept)."""
    if corpus is not None:
        rng = random.Random(1)
        files = _corpus(corpus)
        return [(rng.choice(files), i) for i in range(mutants)]
    sys.path.insert(0, str(HERE))
    from bench_fuzz import seed_inputs

    rng = random.Random(1)
    pool = list(seed_inputs(fmt, 65536))
    out = []
    for i in range(mutants):
        parent = rng.choice(pool)
        out.append((parent, i))
        if rng.random() < 0.3:
            pool.append(mod.mutate(parent, 65536, i))
    return out


def stages(fmt: str, mutants: int, rounds: int, corpus: Path | None = None) -> None:
    mod = _instrumented(fmt)
    inputs = _inputs(fmt, mod, mutants, corpus)
    spent: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    clock = time.perf_counter

    def timed(label: str, f: Any) -> Any:
        def wrapper(*a: Any, **k: Any) -> Any:
            t0 = clock()
            try:
                return f(*a, **k)
            finally:
                spent[label] += clock() - t0
                calls[label] += 1
        return wrapper

    check_module = sys.modules[mod.check_stream.__module__]
    if hasattr(check_module, "detect_variant"):
        check_module.detect_variant = timed("  variant detection (in the check)", check_module.detect_variant)
    for name in ("check_stream", "decode", "check_located", "check_profiles", "check_refusal", "check_paths_agree",
                 "check_rederived", "check_model_view", "check_round_trip"):
        if hasattr(mod, name):
            setattr(mod, name, timed(name, getattr(mod, name)))
    mod.json = types.SimpleNamespace(dumps=timed("json.dumps (the report's JSON)", json.dumps))
    from recspec.report import FileReport

    FileReport.to_json = timed("FileReport.to_json", FileReport.to_json)  # type: ignore[method-assign]
    mutate, harness = mod.mutate, mod.TARGETS["ref"]
    total = 0.0
    n = 0
    load = _load()
    for _ in range(rounds):
        for parent, seed in inputs:
            t0 = clock()
            data = mutate(parent, 65536, seed)
            t1 = clock()
            try:
                harness(data)
            except Exception:  # noqa: BLE001 - a finding is a campaign's business; here only time counts
                pass
            spent["the mutator"] += t1 - t0
            calls["the mutator"] += 1
            total += clock() - t0
            n += 1
    print(f"{fmt}: {n} executions (mutator and harness), {total / n * 1e6:,.0f} us each, wall, load {load}")
    for label, s in spent.most_common():
        print(f"  {s / n * 1e6:8,.0f} us {100 * s / total:5.1f} %  {label} ({calls[label] / n:.2f} a run)")
    if fmt == "carla":
        _carla_findings(mod, inputs)


def _carla_findings(mod: Any, inputs: list[tuple[bytes, int]]) -> None:
    """Inputs with findings, the rules, and a fit of the check's CPU time (variant given) on packets and findings."""
    from recspec.conformance.carla import _check
    from recspec.reference.carla import VARIANTS

    rules: collections.Counter[str] = collections.Counter()
    rows = []
    for parent, seed in inputs:
        data = mod.mutate(parent, 65536, seed)
        report = _check.check_stream(io.BytesIO(data), path="x", variant=None, profile="spec")
        rules.update({f.rule for f in report.findings})
        if report.variant is None:
            continue
        variant = VARIANTS[report.variant]
        best = min(_cpu(_check.check_stream, io.BytesIO(data), variant) for _ in range(3))
        rows.append((best, report.stats["packets"], len(report.findings)))
    with_findings = sum(1 for r in rows if r[2])
    print(f"  {with_findings} of {len(rows)} mutants carry a finding; the rules most of them break: "
          + ", ".join(f"{r} {k}" for r, k in rules.most_common(6)))
    y = [r[0] for r in rows]
    x1 = [r[1] for r in rows]
    x2 = [r[2] for r in rows]
    m1, m2, my = sum(x1) / len(x1), sum(x2) / len(x2), sum(y) / len(y)
    s11 = sum((a - m1) ** 2 for a in x1)
    s22 = sum((b - m2) ** 2 for b in x2)
    s12 = sum((a - m1) * (b - m2) for a, b in zip(x1, x2, strict=True))
    s1y = sum((a - m1) * (c - my) for a, c in zip(x1, y, strict=True))
    s2y = sum((b - m2) * (c - my) for b, c in zip(x2, y, strict=True))
    det = s11 * s22 - s12 * s12
    per_packet, per_finding = (s22 * s1y - s12 * s2y) / det, (s11 * s2y - s12 * s1y) / det
    base = my - per_packet * m1 - per_finding * m2
    print(f"  the check, variant given (CPU, best of 3): {my * 1e6:,.0f} us an input of {m1:.1f} packets and "
          f"{m2:.1f} findings = {base * 1e6:.0f} + {per_packet * 1e6:.1f} a packet + {per_finding * 1e6:.1f} a "
          f"finding; the findings {100 * per_finding * sum(x2) / sum(y):.0f} % of it")


def _cpu(check: Any, f: io.BytesIO, variant: Any) -> float:
    f.seek(0)
    t0 = time.process_time()
    check(f, path="x", variant=variant, profile="spec")
    return time.process_time() - t0


def hooks(fmt: str, mutants: int, corpus: Path | None = None, functions: int = 0) -> None:
    mod = _instrumented(fmt)
    inputs = _inputs(fmt, mod, mutants, corpus)
    mutate, harness = mod.mutate, mod.TARGETS["ref"]
    profile = cProfile.Profile()
    profile.enable()
    for parent, seed in inputs:
        data = mutate(parent, 65536, seed)
        try:
            harness(data)
        except Exception:  # noqa: BLE001 - as above
            pass
    profile.disable()
    by_module: collections.Counter[str] = collections.Counter()
    by_function: collections.Counter[str] = collections.Counter()
    for func, (_cc, _nc, _tt, _ct, callers) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        if func[2] in ("<built-in method atheris.native._trace_branch>", "<built-in method atheris.native._trace_cmp>"):
            for caller, counts in callers.items():
                module = str(Path(caller[0]).relative_to(REPO)) if caller[0].startswith(str(REPO)) else caller[0]
                n = counts[1] if isinstance(counts, tuple) else counts
                by_module[module] += n
                by_function[f"{module}:{caller[1]} {caller[2]}"] += n
    total = sum(by_module.values())
    print(f"{fmt}: {total / len(inputs):,.0f} coverage hooks an execution (mutator and harness)")
    for module, k in by_module.most_common(12):
        print(f"  {k / len(inputs):7,.0f} {100 * k / total:5.1f} %  {module}")
    if functions:
        print(f"  the {functions} functions that make the most:")
        for where, k in by_function.most_common(functions):
            print(f"  {k / len(inputs):7,.0f} {100 * k / total:5.1f} %  {where}")


def loop_one(fmt: str, corpus: Path, mutants: int) -> float:
    """Executions per CPU-second of the instrumented harness over mutants of ``corpus``'s inputs (``loop``)."""
    mod = _instrumented(fmt)
    harness = mod.TARGETS["ref"]

    def run(inputs: list[bytes]) -> float:
        t0 = time.process_time()
        for data in inputs:
            try:
                harness(data)
            except Exception:  # noqa: BLE001 - a finding is a campaign's business; here only time counts
                pass
        return time.process_time() - t0

    run(_corpus(corpus))  # as a campaign runs its corpus first: the answers kept across inputs are warm
    inputs = [mod.mutate(parent, 65536, seed) for parent, seed in _inputs(fmt, mod, mutants, corpus)]
    return len(inputs) / run(inputs)


def loop(fmt: str, corpus: Path, mutants: int, rounds: int, before: Path | None, before_python: str | None) -> None:
    if before is None:
        print(f"{fmt}: {loop_one(fmt, corpus, mutants):,.0f} executions per CPU-second (load {_load()})")
        return
    old_python = before_python or str(before / ".venv" / "bin" / "python")
    rows: dict[str, list[tuple[str, float]]] = {"before": [], "after": []}
    for _ in range(rounds):
        for side, python, cwd in (("before", old_python, before), ("after", sys.executable, REPO)):
            load = _load()
            proc = subprocess.run([python, str(Path(__file__).resolve()), "loop", fmt, "--corpus", str(corpus),
                                   "--mutants", str(mutants), "--one"], capture_output=True, text=True, cwd=cwd)
            m = re.search(r"^([\d,]+) executions per CPU-second", proc.stdout, re.M)
            if m is None:
                raise SystemExit(f"{side}: {(proc.stdout + proc.stderr)[-2000:]}")
            rows[side].append((load, float(m.group(1).replace(",", ""))))
    print(f"{fmt}: the instrumented harness over {mutants} mutants of {corpus}'s inputs, {before} (before) and "
          f"{REPO} (after) interleaved, executions per CPU-second")
    for side, runs in rows.items():
        print(f"  {side:6s} " + " / ".join(f"{r[1]:,.0f}" for r in runs) + "; load before each "
              + ", ".join(r[0] for r in runs))
    ratio = sorted(r[1] for r in rows["after"])[rounds // 2] / sorted(r[1] for r in rows["before"])[rounds // 2]
    print(f"  after / before (medians): x{ratio:.2f}")


def _campaign(python: str, checkout: Path, fmt: str, seconds: int, seed: int) -> tuple[str, float, float]:
    load = _load()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as out:
        proc = subprocess.run([python, "-m", "recspec", "fuzz", fmt, "--target", "ref", "--time", str(seconds),
                               "--seed", str(seed), "--out", out], capture_output=True, text=True, cwd=checkout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    line = next((x for x in proc.stdout.splitlines() if " execs (" in x), "")
    m = re.search(r" (\d+) execs \(([\d.]+)/s\)", line)
    if m is None:
        raise SystemExit(f"{fmt}: no summary line in {checkout}'s campaign: {(proc.stdout + proc.stderr)[-2000:]}")
    return load, float(m.group(2)), int(m.group(1)) / cpu


def campaigns(fmt: str, seconds: int, seed: int, rounds: int, before: Path, before_python: str | None) -> None:
    old_python = before_python or str(before / ".venv" / "bin" / "python")
    rows: dict[str, list[tuple[str, float, float]]] = {"before": [], "after": []}
    for _ in range(rounds):
        rows["before"].append(_campaign(old_python, before, fmt, seconds, seed))
        rows["after"].append(_campaign(sys.executable, REPO, fmt, seconds, seed))
    print(f"{fmt}: `recspec fuzz {fmt} --target ref --time {seconds} --seed {seed}`, {before} (before) and "
          f"{REPO} (after) interleaved")
    for side, runs in rows.items():
        print(f"  {side:6s} execs/s " + " / ".join(f"{r[1]:.1f}" for r in runs)
              + "; execs per CPU-second " + " / ".join(f"{r[2]:.0f}" for r in runs)
              + "; load before each " + ", ".join(r[0] for r in runs))

    def median(xs: list[float]) -> float:
        return sorted(xs)[len(xs) // 2]

    rate = median([r[1] for r in rows["after"]]) / median([r[1] for r in rows["before"]])
    per_cpu = median([r[2] for r in rows["after"]]) / median([r[2] for r in rows["before"]])
    print(f"  after / before (medians): execs/s x{rate:.2f}, per CPU-second x{per_cpu:.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("stages", "hooks", "loop", "campaigns"))
    ap.add_argument("format")
    ap.add_argument("--mutants", type=int, default=400, help="stages, hooks, loop: mutants made (default 400)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="stages: passes; loop, campaigns: rounds of each (default 2)")
    ap.add_argument("--corpus", type=Path, help="stages, hooks, loop (needed there): mutants of this folder's "
                    "inputs (a campaign's corpus: recspec fuzz ... --merge DIR), not of the seeds")
    ap.add_argument("--time", type=int, default=60, help="campaigns: seconds each (default 60)")
    ap.add_argument("--seed", type=int, default=1, help="campaigns: libFuzzer seed (default 1)")
    ap.add_argument("--before", type=Path,
                    help="loop, campaigns: the other checkout (run by its .venv's interpreter)")
    ap.add_argument("--before-python", help="loop, campaigns: the interpreter for --before")
    ap.add_argument("--functions", type=int, default=0, metavar="N",
                    help="hooks: also the N functions that make the most hooks")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # loop: one measurement, this process
    args = ap.parse_args()
    if args.what == "stages":
        stages(args.format, args.mutants, args.rounds, args.corpus)
    elif args.what == "hooks":
        hooks(args.format, args.mutants, args.corpus, args.functions)
    elif args.what == "loop":
        if args.corpus is None:
            ap.error("loop needs --corpus DIR (a campaign's corpus: recspec fuzz FORMAT --target ref --merge DIR)")
        if args.one:
            print(f"{loop_one(args.format, args.corpus.resolve(), args.mutants):,.0f} executions per CPU-second")
        else:
            loop(args.format, args.corpus.resolve(), args.mutants, args.rounds,
                 args.before.resolve() if args.before else None, args.before_python)
    else:
        if args.before is None:
            ap.error("campaigns needs --before CHECKOUT")
        campaigns(args.format, args.time, args.seed, args.rounds, args.before.resolve(), args.before_python)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
