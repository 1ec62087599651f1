"""benchmarks/bench_ratios.py --before: two checkouts' runs in turn, each with the options of the comparison
left out and the same synthetic files, their tables read back row by row."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from helpers import load_script

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "benchmarks" / "bench_ratios.py"


def _module() -> ModuleType:
    return load_script("benchmarks/bench_ratios.py", "bench_ratios_under_test")


def test_each_side_gets_the_options_but_the_comparisons_own() -> None:
    side_options = _module().side_options
    argv = ["--only", "cross-check", "--before", "../main", "--cpu", "--rounds=4", "--before-python", "/x/python",
            "--repeat", "9", "--workdir", "/tmp/w", "--before=../other", "--nanover-size", "10MB"]
    assert side_options(argv) == ["--only", "cross-check", "--cpu", "--repeat", "9", "--nanover-size", "10MB"]


def test_a_runs_table_is_read_back_by_row() -> None:
    out = "\n".join([
        "NanoVer",
        "  nanover real a.traj (0.52 MB) spec: recspec 1.0 ms, bare 0.3 ms -> 3.08x (target <= 2x)",
        "",
        "| row | recspec | bare reader | ratio / value | target | met |",
        "|---|---|---|---|---|---|",
        "| nanover real a.traj (0.52 MB) spec | 1.0 ms | 0.3 ms | 3.08x | <= 2x | no |",
        "| recspec check s.v3 (173 B), whole process |  |  | 0.121 s; python -c pass: 0.020 s | <= 0.15 s | yes |",
    ])
    rows = _module().table_rows(out)
    assert rows == {"nanover real a.traj (0.52 MB) spec": "3.08x",
                    "recspec check s.v3 (173 B), whole process": "0.121 s; python -c pass: 0.020 s"}


def test_a_comparison_of_this_checkout_with_itself(tmp_path: Path) -> None:
    """One round of the start-up row (a whole `recspec check` process): both sides run, each row is shown
    with a value for each side."""
    proc = subprocess.run([sys.executable, str(SCRIPT), "--only", "startup", "--repeat", "1", "--rounds", "1",
                           "--before", str(REPO), "--before-python", sys.executable, "--workdir", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    table = [line for line in proc.stdout.splitlines() if line.startswith("| recspec check ")]
    assert len(table) == 1
    cells = [c.strip() for c in table[0].strip()[1:-1].split("|")]
    assert cells[1].endswith(" s") and cells[2].endswith(" s")  # before's value, after's value (seconds)
    assert "round 1, before" in proc.stdout and "round 1, after" in proc.stdout


def test_with_cpu_the_whole_process_rows_still_time_the_process(tmp_path: Path) -> None:
    """``--cpu`` times the in-process rows by this thread's CPU time; a whole-process row waits on a child,
    which this thread's CPU time does not see, so it must keep the wall clock: a Python process that starts
    and exits takes milliseconds, not the microseconds the waiting thread spends."""
    proc = subprocess.run([sys.executable, str(SCRIPT), "--only", "startup", "--repeat", "1", "--cpu",
                           "--workdir", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    value = _module().table_rows(proc.stdout)[next(r for r in _module().table_rows(proc.stdout)
                                                   if r.startswith("recspec check "))]
    recspec_s, bare_s = (float(x) for x in re.findall(r"([\d.]+) s", value))
    assert bare_s >= 0.005 and recspec_s >= 0.005, value
