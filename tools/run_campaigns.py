#!/usr/bin/env python3
"""Run the fuzz campaigns of record and append one row per campaign to ``fuzz/CAMPAIGNS.md``.

Each format and target runs until it reaches its execution count (``--ref-execs`` for
``ref``, ``--xcheck-execs`` for ``ksy`` and ``diff``), one campaign after the other,
through ``recspec.fuzz.campaign`` (what ``recspec fuzz --runs N`` runs): crashes are
saved, minimised, under ``corpus/<format>/regressions/`` (or ``--out``), and the row
records the date, the commit, the target, the executions, the coverage and the new
crashes.

    python tools/run_campaigns.py --ref-execs 1000000 --xcheck-execs 100000   # the long campaign
    python tools/run_campaigns.py --formats carla --targets ref --ref-execs 20000 --max-seconds 120 --jobs 2

``--max-seconds`` caps each campaign (the row then says it stopped on time, short of its
count). Exit status 0 when no campaign found a new crash, 1 otherwise.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import subprocess
import sys
from pathlib import Path

from recspec.formats import FORMATS
from recspec.fuzz import TARGETS, CampaignResult, campaign

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = ROOT / "fuzz" / "CAMPAIGNS.md"

#: The table every row is appended to (its header is written when the file has none).
HEADER = ("| date | commit | format | target | execs | execs/s | edges (features) | new crashes | notes |\n"
          "|---|---|---|---|---|---|---|---|---|\n")


def commit() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+dirty" if dirty else "")


def row(r: CampaignResult, wanted: int, jobs: int, note: str) -> str:
    """One table row for a campaign's result."""
    crashes = ", ".join(f"`{c['file']}` ({c['signature']})" for c in r.crashes) or "0"
    notes = [note] if note else []
    if r.variant:
        notes.append(f"--variant {r.variant}")
    if jobs > 1:
        notes.append(f"--jobs {jobs}")
    if r.execs < wanted:
        notes.append(f"stopped on time, {r.execs:,} of {wanted:,} execs")
    if r.rehits:
        notes.append("re-hit known: " + ", ".join(f"{s} x{n}" for s, n in r.rehits.items()))
    cov = f"{r.cov} ({r.ft})" if r.cov is not None else "-"
    return (f"| {_dt.date.today().isoformat()} | {commit()} | {r.fmt} | {r.target} | {r.execs:,} | "
            f"{r.execs_per_second:,.0f} | {cov} | {crashes} | {'; '.join(notes)} |\n")


def append_row(text: str, path: Path = CAMPAIGNS) -> None:
    """Append a row to the campaign table in ``path`` (the table is the file's last block)."""
    current = path.read_text() if path.is_file() else "# Fuzz campaigns\n\n"
    if HEADER.splitlines()[0] not in current:
        current = current.rstrip("\n") + "\n\n" + HEADER
    path.write_text(current if current.endswith("\n") else current + "\n")
    with path.open("a") as f:
        f.write(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref-execs", type=int, default=1_000_000, help="executions per ref campaign (default 1,000,000)")
    ap.add_argument("--xcheck-execs", type=int, default=100_000,
                    help="executions per ksy and diff campaign (default 100,000)")
    ap.add_argument("--formats", default=",".join(FORMATS), help="comma-separated format ids (default all)")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets (default all)")
    ap.add_argument("--max-seconds", type=int, default=24 * 3600, help="cap per campaign (default one day)")
    ap.add_argument("--jobs", type=int, default=1, help="libFuzzer processes per campaign (default 1)")
    ap.add_argument("--variant", action="append", default=[], metavar="FORMAT=VARIANT",
                    help="fix a format's variant (e.g. carla=0.9.15); repeatable")
    ap.add_argument("--out", type=Path, help="crash folder (default corpus/<format>/regressions/)")
    ap.add_argument("--merge", action="store_true", help="merge each grown corpus into corpus/<format>/fuzz/")
    ap.add_argument("--note", default="", help="a note for every row (the machine, its load)")
    ap.add_argument("--campaigns-file", type=Path, default=CAMPAIGNS, help="the table (default fuzz/CAMPAIGNS.md)")
    ap.add_argument("--verbose", action="store_true", help="libFuzzer's whole log")
    args = ap.parse_args(argv)
    variants = dict(v.split("=", 1) for v in args.variant)
    found = False
    for fmt in [f for f in args.formats.split(",") if f]:
        for target in [t for t in args.targets.split(",") if t]:
            wanted = args.ref_execs if target == "ref" else args.xcheck_execs
            out_dir = args.out / fmt if args.out else None
            print(f"== {fmt}/{target}: {wanted:,} execs", flush=True)
            result = campaign(fmt, target=target, runs=wanted, seconds=args.max_seconds, jobs=args.jobs,
                              variant=variants.get(fmt), out_dir=out_dir, merge=args.merge, verbose=args.verbose)
            if isinstance(result, int):
                return result
            append_row(row(result, wanted, args.jobs, args.note), args.campaigns_file)
            found |= bool(result.crashes)
    print(f"rows appended to {args.campaigns_file}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
