#!/usr/bin/env python3
"""Where a folder of small files spends its CPU: ``check_file`` timed file by file, grouped by format and verdict.

The folder is the seed corpus (``corpus/`` but ``corpus/real/``, as ``bench_folder.py``'s mixed folder holds
it) copied ``--copies`` times; each file is checked in this process as ``recspec check -j 1`` checks a folder
member (``named=False``, the run's size ``--run-files``, default 10,000, so the default cross-check samples as in
the 10,000-file folder), once to warm the caches and once timed with a CPU clock (``time.process_time``).
Printed: each (format, verdict) group's files, CPU per file, share of the total and CPU per file of the whole
folder (what the group adds to the folder's average), then the slowest files. With ``--cprofile SORT`` the timed
pass runs under cProfile (with the same CPU clock) and its top functions are printed first (cProfile's own cost
inflates every figure, by several times for Python-heavy code: read its proportions, not its times).

    python benchmarks/profile_folder.py                        # 5 copies, the default cross-check
    python benchmarks/profile_folder.py --no-cross-check --copies 10
    python benchmarks/profile_folder.py --cprofile tottime
    python benchmarks/profile_folder.py --runtime-streams      # the cross-check through the runtime's KaitaiStream
    python benchmarks/profile_folder.py --run-collector        # the garbage collector as a run of many files sets it

``--runtime-streams`` runs the whole measurement inside ``recspec.conformance._kaitai.runtime_streams()``: the
cross-check reads through the Kaitai runtime's own ``KaitaiStream``, as it did before ``MemoryStream``, with the
code otherwise the same, so that two runs of one checkout (with and without it) show what the stream costs.

``--run-collector`` checks the files under the garbage collector's settings that ``recspec check`` gives a run of
many files (``recspec/pipeline.py`` ``_collector_for_run``: what is alive frozen at the start and after the first
file of each format); without it, the interpreter's own settings, as before.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import cProfile
import io
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def seed_files() -> list[Path]:
    """The seed corpus: every file of ``corpus/`` but ``corpus/real/`` and hidden ones, sorted."""
    root = REPO / "corpus"
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")
                  and p.relative_to(root).parts[0] != "real")


def build(folder: Path, copies: int) -> list[Path]:
    """The seeds copied into ``folder/copy0000/``, ... (their paths relative to ``corpus/`` kept)."""
    root = REPO / "corpus"
    out = []
    for c in range(copies):
        for p in seed_files():
            dst = folder / f"copy{c:04d}" / p.relative_to(root)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, dst)
            out.append(dst)
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, default=5, help="copies of the seed corpus (default 5)")
    ap.add_argument("--no-cross-check", action="store_true", help="check without the Kaitai cross-check")
    ap.add_argument("--run-files", type=int, default=10_000,
                    help="the run size each file is checked with (the cross-check's sampling reads it; default 10000)")
    ap.add_argument("--slowest", type=int, default=10, help="how many of the slowest files to list (default 10)")
    ap.add_argument("--runtime-streams", action="store_true",
                    help="let the cross-check read through the Kaitai runtime's own KaitaiStream instead of "
                    "MemoryStream (to compare the two in one checkout)")
    ap.add_argument("--run-collector", action="store_true",
                    help="check under the garbage collector's settings of a run of many files (recspec/pipeline.py "
                    "_collector_for_run), not the interpreter's")
    ap.add_argument("--cprofile", metavar="SORT", help="profile the timed pass and print its top 40 by SORT "
                    "(tottime, cumtime)")
    args = ap.parse_args(argv)

    from recspec import pipeline
    from recspec.pipeline import check_file

    clock = time.process_time
    with contextlib.ExitStack() as stack:
        root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="recspec-profile-folder-")))
        files = build(root, args.copies)
        groups: dict[tuple[str, str], list[float]] = collections.defaultdict(lambda: [0, 0.0])
        each: list[tuple[float, str]] = []

        def run(record: bool) -> None:
            collector = pipeline._run_collector  # set inside _collector_for_run (--run-collector)
            for p in files:
                t = clock()
                fr = check_file(p, fmt=None, variant=None, profile=None, cross_check=not args.no_cross_check,
                                named=False, run_files=args.run_files)
                if collector is not None:
                    collector.after(fr)
                dt = clock() - t
                if record:
                    key = (fr.format or "-", fr.verdict.value) if fr is not None else ("-", "unclaimed")
                    groups[key][0] += 1
                    groups[key][1] += dt
                    each.append((dt, str(p.relative_to(root))))

        if args.runtime_streams:
            from recspec.conformance._kaitai import runtime_streams

            stack.enter_context(runtime_streams())
        if args.run_collector:
            stack.enter_context(pipeline._collector_for_run(max(len(files), pipeline.RUN_GC_FILES)))
        run(False)  # imports and first-use caches
        if args.cprofile:
            prof = cProfile.Profile(clock)
            prof.enable()
            run(True)
            prof.disable()
            text = io.StringIO()
            pstats.Stats(prof, stream=text).sort_stats(args.cprofile).print_stats(40)
            print(text.getvalue())
        else:
            run(True)

    total = sum(t for _n, t in groups.values())
    n = len(files)
    mode = "no cross-check" if args.no_cross_check else "default cross-check"
    if args.runtime_streams:
        mode += " through the runtime's KaitaiStream"
    if args.run_collector:
        mode += ", the run's collector settings"
    print(f"{n} files ({args.copies} copies of the seed corpus), {mode}, run size {args.run_files}: "
          f"{total:.3f} s of CPU, {total / n * 1e6:.0f} us a file")
    print(f"{'format':15} {'verdict':12} {'files':>6} {'us/file':>9} {'share':>7} {'us/folder file':>15}")
    for (fmt, verdict), (count, t) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        print(f"{fmt:15} {verdict:12} {count:6d} {t / count * 1e6:9.0f} {t / total * 100:6.1f}% "
              f"{t / n * 1e6:15.0f}")
    print(f"slowest {args.slowest}:")
    for dt, path in sorted(each, reverse=True)[:args.slowest]:
        print(f"  {dt * 1e3:8.2f} ms  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
