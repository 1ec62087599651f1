"""What a format's checker may know about the `recspec check` run a file is checked in.

Only the run's size: how many files the whole walk found (before ``--shard``
keeps its part), so a checker can save expensive work in long runs (the raSkat
cross-check is sampled in runs of more than 256 files) and still decide alike
for every file whatever ``-j`` and ``--shard`` are. The value is kept in this
process and in the environment, so worker processes see it whether they are
forked or spawned. Outside a run (the Python API) it is ``None``: a file is
treated as a run of its own.
"""

from __future__ import annotations

import os

__all__ = ["RUN_FILES_ENV", "end_run", "run_files", "start_run"]

RUN_FILES_ENV = "RECSPEC_RUN_FILES"
_run_files: int | None = None


def start_run(files: int) -> None:
    global _run_files
    _run_files = files
    os.environ[RUN_FILES_ENV] = str(files)


def end_run() -> None:
    global _run_files
    _run_files = None
    os.environ.pop(RUN_FILES_ENV, None)


def run_files() -> int | None:
    if _run_files is not None:
        return _run_files
    text = os.environ.get(RUN_FILES_ENV)
    return int(text) if text and text.isdigit() else None
