"""A `recspec check` run's settings, as one value from the command line to the workers.

:class:`RunOptions` holds everything that decides how each file of a run is
checked: the format and variant forced (or ``None``: sniffed per file), the
profile, the cross-check's mode and limit, the stream limit, whether the HTML
pictures' traces are collected, the per-file time limit and the number of
worker processes, and the run's size. The CLI makes it from its arguments, the
Python API (``recspec.pipeline.check_paths``) from its keywords; the pipeline
hands it to each check, in this process or in the workers (forked workers
inherit it, spawned ones get it pickled with the function they run). Nothing of
a run is kept in a module global or an environment variable.

The run's size (``run_files``) is how many files the whole walk found, before
``--shard`` keeps its part, so that a checker can save expensive work in long
runs (the default cross-check reads a sample of a long run's files) and still
decide alike for every file whatever ``-j`` and ``--shard`` are. Outside a run
(``recspec.check``, ``check_file``) it is ``None``: a file is a run of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ._limits import MAX_STREAM_SIZE

if TYPE_CHECKING:
    from .formats import FormatInfo

__all__ = ["CROSS_CHECK_MODES", "DEFAULT_FILE_TIMEOUT", "RunOptions"]

#: The cross-check modes by name, as ``--cross-check MODE`` and ``recspec.check(cross_check=...)`` take them,
#: and what the checkers are given (:attr:`RunOptions.cross_check`): ``True`` reads up to the format's limit
#: (sampled where a format samples), ``"full"`` reads every byte, ``False`` skips the second reading.
CROSS_CHECK_MODES: dict[str, bool | str] = {"default": True, "full": "full", "off": False}

#: Seconds one file may take in a worker before it is stopped (`--timeout`). Generous: the
#: slowest legitimate check is the Kaitai cross-check of a 32 MiB file, about 30 s here. Kept here,
#: not beside the worker pool (recspec/_parallel.py), so that ``--help`` names it without loading the pool.
DEFAULT_FILE_TIMEOUT = 300.0


@dataclass(frozen=True)
class RunOptions:
    """How every file of one run is checked (see the module's docstring)."""

    #: the format forced with ``--format`` (its variant with ``--variant``); ``None``: sniffed per file
    fmt: FormatInfo | None = None
    variant: str | None = None
    #: ``spec`` or ``compat``; ``None``: each format's default
    profile: str | None = None
    #: ``True`` (the default cross-check: up to the limit, sampled in long runs), ``"full"`` or ``False``
    cross_check: bool | str = True
    #: the cross-check's size limit in bytes (``None``: each format's own)
    cross_check_limit: int | None = None
    #: the most bytes read from a FIFO or device (recspec/_limits.py)
    stream_limit: int = MAX_STREAM_SIZE
    #: collect what the HTML report's pictures draw (``FileReport.trace``)
    collect_traces: bool = False
    #: worker processes; 1 with no ``timeout``: every file in this process
    jobs: int = 1
    #: the per-file time limit in seconds of a run in workers (``None``: the default, with ``jobs > 1``)
    timeout: float | None = None
    #: how many files the whole walk found (before ``--shard``); ``None`` outside a run
    run_files: int | None = None

    @property
    def in_workers(self) -> bool:
        """Whether the files are checked in worker processes (``-j N`` or a ``--timeout``)."""
        return self.jobs != 1 or self.timeout is not None

    def of_run(self, files: int) -> RunOptions:
        """These options for a run whose whole walk found ``files`` files."""
        return replace(self, run_files=files)
