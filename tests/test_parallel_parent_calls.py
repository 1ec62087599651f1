"""With ``-j N`` the recspec process does no call per file after the walk, the table included.

A worker checks a whole batch, writes its reports and table entries to its own segments of the spool
and sends back where they lie, with their tally (recspec/pipeline.py ``_pack``); the recspec process
plans the batches, hands out each batch's paths and stores each answer, and prints the table from the
entries the workers made. Its calls
(``sys.setprofile``'s ``call`` events: a Python function, a generator resumed; and its ``c_call``
events: a built-in function or method, ``list.append``, ``bytes.decode``, ``struct.unpack_from``) are
counted for two runs that the batch plan splits into the same
number of batches (8: with ``-j 2`` the planner aims at 4 batches a worker, up to
``BATCH_FILES`` files each, 64 at least), one of 256 files and one of 512. A single call made per file
(a size looked up through a function, a path decoded by ``os.fsdecode``, a sort key summing a
batch's sizes with a generator) would add 256 calls at least; what may differ between the runs is
how often the recspec process wakes up to wait for its workers, a few dozen calls a wake-up (about
a hundred calls either way, measured; at commit 1bdeab5, before the per-file calls were taken out, the
larger run made about 900 more Python calls). Built-in calls are counted since the work per file that
was left after that was built-in calls in Python loops: each path read back and decoded from the walk's
store to hand it out, each file appended to its batch by the planner, each report's bytes carried through
a pipe and written again; the workers now write their reports to their own segments of the spool
and send the recspec process only where they lie.
"""

from __future__ import annotations

import io
import sys
from array import array
from pathlib import Path
from types import FrameType
from typing import Any

from helpers import example_valid_file
from recspec._parallel import BATCH_FILES, BATCHES_PER_WORKER, plan_batches
from recspec._run import RunOptions
from recspec.formats import FORMATS
from recspec.pipeline import check_files, walk_files
from recspec.render._table import TABLE_FINDINGS_PER_RULE, EntryMaker, print_table
from recspec.spool import PathList, Spool

JOBS = 2
SMALL, LARGE = 256, 512


def _small_file() -> Path:
    """The smallest of the formats' example valid files: a folder of small files, as a detector writes."""
    return min((example_valid_file(info) for info in FORMATS.values()), key=lambda p: p.stat().st_size)


def _parent_calls(folder: Path) -> tuple[int, int, int]:
    """(Python calls, built-in calls made by the recspec process while checking the folder with -j 2,
    files reported)."""
    errors: list[str] = []
    sizes = array("q")
    files = PathList(walk_files([str(folder)], errors, sizes=sizes))
    calls = c_calls = 0

    def count(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls, c_calls
        if event == "call":
            calls += 1
        elif event == "c_call":
            c_calls += 1

    with files, Spool() as spool:
        sys.setprofile(count)  # this thread only; a forked worker counts into its own copy
        try:
            run = check_files(files, RunOptions(jobs=JOBS, cross_check=False), into=spool, sizes=sizes,
                              entry=EntryMaker(TABLE_FINDINGS_PER_RULE))
            print_table(run.report, io.StringIO())  # from the entries the workers made
        finally:
            sys.setprofile(None)
        reported = len(run.report.files)
    assert not errors and not run.errors
    return calls, c_calls, reported


def test_the_plan_gives_both_runs_the_same_number_of_batches() -> None:
    # the premise of the comparison below, from the planner's constants
    assert BATCH_FILES >= 64 and BATCHES_PER_WORKER == 4
    assert len(plan_batches([1000] * SMALL, JOBS)) == len(plan_batches([1000] * LARGE, JOBS)) == 8


def test_the_recspec_process_makes_no_python_call_per_file(tmp_path: Path) -> None:
    example = _small_file()
    data = example.read_bytes()
    folders = {}
    for n in (SMALL, LARGE):
        folders[n] = folder = tmp_path / str(n)
        folder.mkdir()
        for i in range(n):
            (folder / f"{i:04d}{example.suffix}").write_bytes(data)
    _parent_calls(folders[SMALL])  # the first run imports what a run needs: those calls are not per file
    counted = {}
    c_counted = {}
    for n, folder in folders.items():
        calls, c_calls, reported = _parent_calls(folder)
        assert reported == n  # every file claimed and reported: each went through its worker's batch
        counted[n] = calls
        c_counted[n] = c_calls
    extra_files = LARGE - SMALL
    # one call a file would be 256 more; the wake-ups move the count by about a hundred either way
    assert counted[LARGE] - counted[SMALL] < extra_files, counted
    # the same for built-in calls: one a file would be 256 more
    assert c_counted[LARGE] - c_counted[SMALL] < extra_files, c_counted
