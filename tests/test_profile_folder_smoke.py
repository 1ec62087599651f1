"""benchmarks/profile_folder.py on one copy of the seed corpus: every seed is checked once and counted in
one (format, verdict) group, and the groups' files add up to the corpus's seeds (its speed is the
benchmark's to measure, not the test's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_profile_folder_groups_every_seed_by_format_and_verdict() -> None:
    seeds = [p for p in (REPO / "corpus").rglob("*") if p.is_file() and not p.name.startswith(".")
             and p.relative_to(REPO / "corpus").parts[0] != "real"]
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "profile_folder.py"), "--copies", "1",
                           "--no-cross-check", "--slowest", "3"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    head = re.search(r"^(\d+) files \(1 copies of the seed corpus\), no cross-check, run size 10000", proc.stdout, re.M)
    assert head is not None and int(head[1]) == len(seeds)
    rows = re.findall(r"^(\S+)\s+(valid|invalid|malformed|unclaimed|unrecognized|crash)\s+(\d+)\s", proc.stdout, re.M)
    assert sum(int(n) for _f, _v, n in rows) == len(seeds)
    from recspec.formats import FORMATS

    assert set(FORMATS) <= {f for f, _v, _n in rows}  # every format's seeds are recognised as it
    assert "RSIG-LIMIT-001.sig" not in proc.stdout.split("slowest 3:")[1]  # refused by its index: no longer slow


def test_profile_folder_can_read_through_the_runtimes_stream() -> None:
    """``--runtime-streams``: the same files, grouped the same way, the run saying which stream it used."""
    def groups(*extra: str) -> tuple[str, list[tuple[str, str, str]]]:
        proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "profile_folder.py"), "--copies", "1",
                               "--slowest", "1", *extra], capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        rows = re.findall(r"^(\S+)\s+(valid|invalid|malformed|unclaimed)\s+(\d+)\s", proc.stdout, re.M)
        return proc.stdout.splitlines()[0], sorted(rows)

    runtime_head, runtime_rows = groups("--runtime-streams")
    head, rows = groups()
    assert "default cross-check through the runtime's KaitaiStream," in runtime_head
    assert "default cross-check," in head
    assert runtime_rows == rows
