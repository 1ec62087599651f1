"""The per-file pipeline of ``recspec check``, below the command line.

:func:`check_stream` checks one open file: the content picks the format (the
name's extension only breaks ties), the format's checker reads it, and any
failure of recspec itself becomes a ``crash`` report instead of an exception.
:func:`check_file` opens a path and hands it over; :func:`iter_files` walks the
paths and folders named on the command line; :func:`check_paths` checks them
all, in this process or in worker processes (``recspec/_parallel.py``), and
returns one :class:`~recspec.report.Report` in the files' order.

Nothing here prints: the CLI (``recspec/cli.py``) parses the arguments, draws
the progress bar through :class:`RunProgress`, renders the report and picks the
exit code. An input that cannot be read raises (or is listed as)
:class:`~recspec.errors.InputError`; the content of a file never raises.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import operator
import os
import stat
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple, Protocol

from ._limits import MAX_STREAM_SIZE, open_input
from ._run import DEFAULT_FILE_TIMEOUT, RunOptions
from .errors import InputError, RecspecError, UsageError
from .formats import SNIFF_BYTES, FormatInfo, Progress, sniff, sniff_evidence
from .report import FileReport, Finding, Report, Severity, Tally, Verdict
from .spool import PathList, SegmentWriter, Spool, frame_records, framed_record, load_record, record
from .trace import collecting

if TYPE_CHECKING:
    # the worker pool is imported where a run in workers starts (_check_in_workers), and by the workers:
    # a serial run (-j 1, every `recspec check` of one file) does not load it, nor pickle's error tuple
    from ._parallel import Result, WorkerLost

__all__ = ["CheckRun", "RunOptions", "RunProgress", "check_file", "check_files", "check_paths", "check_stream",
           "iter_files", "walk_files", "walk_folders"]


class RunProgress(Protocol):
    """What :func:`check_paths` tells its caller while it runs (the CLI's progress bar)."""

    def start(self, total: int) -> None:
        """The number of files to check, before the first one."""

    def step(self, path: Path | str) -> None:
        """One more file: about to be checked (in this process) or done (in a worker). A progress
        that also has ``steps(n, path)`` is told of a worker's batch at once (``path``: its last)."""

    def within_file(self) -> Progress | None:
        """A callback for the bytes read inside a big file (serial runs only), or ``None``."""


def iter_files(paths: Sequence[str], errors: list[str],
               not_regular: list[Path] | None = None) -> Iterator[tuple[Path, bool]]:
    """(path, named) pairs: named files are always reported; folder members if a format claims
    them (the others are the report's ``unclaimed``, see :func:`check_file`).

    A folder is walked recursively in sorted order, skipping hidden entries and anything
    that is not a regular file (FIFOs, sockets, devices, links to them: opening a FIFO
    blocks, a device never ends), which is appended to ``not_regular``; a folder that cannot
    be listed and a path that does not exist are appended to ``errors``. A FIFO or device
    named on the command line is yielded: :func:`check_file` reads it as a stream, within
    its limits."""
    for name, named in walk_files(paths, errors, not_regular):
        yield Path(name), named


#: what a path of ``-`` names (when no file of that name exists): standard input, read as a FIFO or
#: device named on the command line is (up to --stream-limit, waiting at most STREAM_IDLE_TIMEOUT for data)
STDIN_PATH = "/dev/stdin"


def named_input(name: str) -> str:
    """The path a command-line file argument names: ``-`` (where no file has that name) is standard input,
    :data:`STDIN_PATH`, read as the stream it is; any other name is itself."""
    return STDIN_PATH if name == "-" and not os.path.lexists(name) else name


def walk_files(paths: Sequence[str], errors: list[str], not_regular: list[Path] | None = None,
               sizes: array[int] | None = None) -> Iterator[tuple[str, bool]]:
    """:func:`iter_files` with each path as the text ``str()`` of its Path gives, without making
    the Path (a folder of a million files would make a million). ``sizes``, if given, gets each
    yielded folder member's size in bytes (-1 for a file named on the command line: not looked at
    here), from the look the walk takes anyway (for ``-j N``'s batches: :func:`check_files`)."""
    for names, named in walk_folders(paths, errors, not_regular, sizes):
        for name in names:
            yield name, named


def walk_folders(paths: Sequence[str], errors: list[str], not_regular: list[Path] | None = None,
                 sizes: array[int] | None = None) -> Iterator[tuple[list[str], bool]]:
    """:func:`walk_files` a folder at a time: each folder's files (in order) as a list, ``named`` False,
    and each file named on the command line alone, ``named`` True; for a caller that stores a folder's
    paths at once (``spool.PathList.extend_texts``), with no Python step per file."""
    for name in paths:
        name = named_input(name)
        p = Path(name)
        if p.is_dir():
            for members in _walk_folder(str(p), errors, not_regular, sizes):
                yield members, False
        elif p.exists():
            if sizes is not None:
                sizes.append(-1)
            yield [str(p)], True
        else:
            errors.append(f"{name}: no such file or folder")


def _walk_folder(top: str, errors: list[str], not_regular: list[Path] | None,
                 sizes: array[int] | None) -> Iterator[list[str]]:
    """One folder of :func:`walk_folders`, as ``os.walk`` would go through it (top down, a folder's files
    then its sub-folders, each in sorted order; a link to a folder is neither entered nor reported),
    from one ``os.scandir`` a folder: a member's path and look (``stat``) come from its directory
    entry, with no path joined or ``os.stat`` called by name per file, and the folders still to list
    on a stack (not nested generators); without ``sizes`` a regular file is known by its entry's type
    alone (no ``stat`` at all: ``-j 1`` walks so). Each folder's files are given as one list."""
    # each folder as its members' paths start (Path's spelling: "./a" is "a") and as os.walk names it in an error
    stack = [(top, top)]
    while stack:
        folder, named = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=_entry_name)
        except OSError as e:  # an input error; the walk goes on
            errors.append(f"{named}: {e.strerror or e}")
            continue
        here = folder == "."  # in "." a member is its name, as Path("./a") spells it
        subfolders: list[tuple[str, str]] = []
        members: list[str] = []
        for entry in entries:
            fn = entry.name
            if fn.startswith("."):
                continue
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            if is_folder:
                if not entry.is_symlink():
                    subfolders.append((fn if here else entry.path, os.path.join(named, fn)))
                continue
            member = fn if here else entry.path
            if sizes is None and entry.is_file(follow_symlinks=False):
                # a regular file by its directory entry's type (no system call): without sizes to give (-j 1)
                # the walk need not look at it again, and check_file looks at what it opens anyway
                members.append(member)
                continue
            try:
                st = entry.stat()
            except OSError:
                size: int | None = 0  # vanished or unreadable: check_file says so
            else:
                size = st.st_size if stat.S_ISREG(st.st_mode) else None
            if size is not None:
                if sizes is not None:
                    sizes.append(size)
                members.append(member)
            elif not_regular is not None:
                not_regular.append(Path(member))
        if members:
            yield members
        stack.extend(reversed(subfolders))  # the first sub-folder is listed next


_entry_name = operator.attrgetter("name")  # a directory entry's sort key, with no Python call per entry




def check_file(path: Path | str, *, fmt: FormatInfo | None, variant: str | None, profile: str | None,
               cross_check: bool | str = True, cross_check_limit: int | None = None, named: bool = True,
               progress: Progress | None = None, stream_limit: int = MAX_STREAM_SIZE,
               run_files: int | None = None) -> FileReport | None:
    """Check one file; ``None`` for a folder member (``named=False``) that neither content nor extension
    claims (the caller lists it in ``Report.unclaimed``).

    A FIFO or device is read as a stream of at most ``stream_limit`` bytes
    (``recspec/_limits.py``). ``run_files``: the size of the run the file is checked in
    (:class:`~recspec._run.RunOptions`), ``None`` for a file checked on its own. ``path`` as a
    :class:`~pathlib.Path` or as the text the report shows (what a folder's walk stores). Never raises for
    bad content; raises :class:`InputError` when the file cannot be read and :class:`UsageError`
    for an impossible variant or profile."""
    shown = str(path)
    try:
        with open_input(path, shown, stream_limit=stream_limit) as (f, size):
            return _check(f, name=shown, size=size, fmt=fmt, variant=variant,
                          profile=profile, cross_check=cross_check, cross_check_limit=cross_check_limit,
                          named=named, progress=progress, run_files=run_files)
    except OSError as e:
        raise InputError(f"{shown}: {e.strerror or e}", shown) from None


def check_stream(f: BinaryIO, *, name: str, size: int, fmt: FormatInfo | None = None, variant: str | None = None,
                 profile: str | None = None, cross_check: bool = True, cross_check_limit: int | None = None,
                 progress: Progress | None = None) -> FileReport:
    """Check an open, seekable binary file of ``size`` bytes, read from its start.

    ``name`` is the path the report shows (its extension breaks ties between formats).
    An unrecognised content gets the verdict ``unrecognized``; the same guarantees as
    :func:`check_file` otherwise."""
    report = _check(f, name=name, size=size, fmt=fmt, variant=variant, profile=profile, cross_check=cross_check,
                    cross_check_limit=cross_check_limit, named=True, progress=progress, run_files=None)
    assert report is not None  # named: an unrecognised content is reported
    return report


def _check(f: BinaryIO, *, name: str, size: int, fmt: FormatInfo | None, variant: str | None,
           profile: str | None, cross_check: bool | str, cross_check_limit: int | None, named: bool,
           progress: Progress | None, run_files: int | None) -> FileReport | None:
    shown = name
    try:
        f.seek(0)
        head = f.read(SNIFF_BYTES)
        info = fmt
        by_extension = ""  # the extension that named the format, when the content did not
        if info is None:
            info, _score, by_extension = sniff_evidence(head, shown)
            if info is None:
                if not named:
                    return None  # clearly not a recording: listed and counted (Report.unclaimed)
                return FileReport(shown, None, None, profile or "spec", Verdict.UNRECOGNIZED, [Finding(
                    "RECSPEC-UNRECOGNIZED", Severity.ERROR,
                    "no known format recognises this content (force one with --format)", 0, min(size, 16), "")])
        prof = info.check_profile(profile)
        info.check_variant(variant)
        f.seek(0)
        kwargs: dict[str, Any] = {}
        if cross_check_limit is not None:
            kwargs["cross_check_limit"] = cross_check_limit
        if progress is not None:
            kwargs["progress"] = progress
        if run_files is not None:
            kwargs["run_files"] = run_files
        report = info.checker(f, path=shown, variant=variant, profile=prof, size=size,
                              cross_check=cross_check, **kwargs)
        if by_extension:
            # a folder member that a format's extension names is checked as that format: a recording broken
            # past recognition (an empty run2.log, a zeroed header) is reported with the header rule it fails
            report.evidence["format"] = {"method": "extension", "extension": by_extension,
                                         "content": "the first bytes are no format's recognised header"}
        return report
    except UsageError:
        raise
    except OSError as e:
        raise InputError(f"{shown}: {e.strerror or e}", shown) from None
    except RecspecError as e:
        return FileReport(shown, fmt.id if fmt else None, variant, profile or "spec", Verdict.CRASH, [Finding(
            "RECSPEC-INTERNAL", Severity.ERROR, f"recspec could not finish this file: {e}", None, None, "")])
    except Exception as e:  # noqa: BLE001 - a bug in recspec, never the file's fault
        import traceback  # here: only a recspec bug gets this far

        tb = traceback.format_exc(limit=-3).strip().splitlines()[-1]
        return FileReport(shown, fmt.id if fmt else None, variant, profile or "spec", Verdict.CRASH, [Finding(
            "RECSPEC-INTERNAL", Severity.ERROR,
            f"internal error in recspec ({type(e).__name__}: {e}); this is a recspec bug, not a finding about the "
            f"file. Please report it with the file. [{tb}]", None, None, "")])


def check_paths(paths: Sequence[str], *, fmt: FormatInfo | None = None, variant: str | None = None,
                profile: str | None = None, cross_check: bool | str = True, cross_check_limit: int | None = None,
                jobs: int = 1, timeout: float | None = None,
                progress: RunProgress | None = None, stream_limit: int = MAX_STREAM_SIZE,
                into: Spool | None = None,
                entry: Callable[[FileReport], bytes] | None = None) -> tuple[Report, list[str]]:
    """Check files and folders: the report (in the files' order) and the input errors (one line each).

    ``jobs=1`` without ``timeout`` checks in this process; otherwise ``jobs`` worker processes
    check a file each at a time under a per-file limit of ``timeout`` seconds (default
    :data:`~recspec._run.DEFAULT_FILE_TIMEOUT`), and a file that crashes or hangs its
    worker gets the verdict ``crash`` or ``timeout``. Not a run of the CLI: every file is
    cross-checked as if named alone (no run size, see :class:`~recspec._run.RunOptions`)."""
    walk_errors: list[str] = []
    not_regular: list[Path] = []  # folder members that are not regular files
    files = list(iter_files(paths, walk_errors, not_regular))
    options = RunOptions(fmt=fmt, variant=variant, profile=profile, cross_check=cross_check,
                         cross_check_limit=cross_check_limit, stream_limit=stream_limit, jobs=jobs, timeout=timeout)
    run = check_files(files, options, walk_errors=walk_errors, not_regular=not_regular, progress=progress,
                      into=into, entry=entry)
    return run.report, run.errors


@dataclass
class CheckRun:
    """What :func:`check_files` found: the report (its ``files`` in the walk's order, its ``unclaimed``
    and ``not_regular`` sorted by path) and the input errors, one line each: the walk's first, then
    those of the files that could not be read, in the walk's order."""

    report: Report
    errors: list[str]


def check_files(files: Sequence[tuple[Path, bool]], options: RunOptions, *, walk_errors: Sequence[str] = (),
                not_regular: Sequence[Path] = (), progress: RunProgress | None = None, into: Spool | None = None,
                sizes: Sequence[int] | None = None,
                entry: Callable[[FileReport], bytes] | None = None) -> CheckRun:
    """:func:`check_paths` for files already walked (``(path, named)`` pairs, e.g. one shard of a
    walk), each checked as ``options`` say; ``walk_errors``: the walk's input errors, which the run's
    list starts with; ``not_regular``: the walk's members that were not regular files, and were not
    opened. ``Report.unclaimed`` and ``Report.not_regular`` are sorted by path, so that a run's report
    does not depend on how it was split into shards.

    ``into``: the file reports go to this :class:`~recspec.spool.Spool` (on disk, as they come) and it
    is the report's ``files``, so the run's memory does not grow with its files; otherwise they are
    kept in a list. ``sizes``: each file's size as :func:`walk_files` gave it (-1: not known), so that
    ``-j N`` does not look at every file again to plan its batches. ``entry``: with ``into``, what
    ``entry`` makes of each report (the file's table entry, recspec/render/_table.py; with ``-j N``
    made by the worker) is stored beside it, so that the caller need not load the report back to print it."""
    report = Report()
    report.not_regular = sorted(str(p) for p in not_regular)
    errors = list(walk_errors)
    if progress is not None:
        progress.start(len(files))
    results = _Results(into, entry)
    # collect_traces turns the collection on for the run; without it, a caller's own collecting() holds
    with collecting(True) if options.collect_traces else contextlib.nullcontext(), _collector_for_run(len(files)):
        if not options.in_workers:
            _check_serial(files, options, results.hold, report.unclaimed, errors, progress)
        else:
            _check_in_workers(files, options, results, report.unclaimed, errors, progress, sizes=sizes,
                              entry=results.entry)
    report.files = results.files()
    report.unclaimed.sort()
    return CheckRun(report, errors)


#: A run of at least this many files leaves what is alive out of the collector's full collections (``gc.freeze``,
#: :func:`_collector_for_run`); a shorter one keeps the interpreter's collector as it is. The cross-check's Kaitai
#: parse trees are cycles (every object points at its parent and its root), which only the collector frees: it
#: collects the youngest generation every 700 allocations, and every tenth of those the middle one, and now and
#: then all three, which walks every object alive, the checkers' modules and memos included (about 20 ms each
#: time; on the 10,000-file mixed folder 15 of them, 0.3 s of a `check -j 1`'s 7.3 s). A higher threshold for
#: the youngest generation was measured too (2,000 to 20,000 allocations): its collections then go through more
#: objects than the caches hold, and the run was no faster (20,000: slower).
RUN_GC_FILES = 256


class _RunCollector:
    """What a run does after each file: the first file of each format imports that format's modules (the
    checker, the cross-check, the generated parsers, their memos), which the collector's full collections
    would then walk every few thousand files; after it, what is alive is left out of the collections
    (``gc.freeze``), once the young generations are collected (the garbage of the file just checked: what
    is left of it in the old generation stays, a few KB at most per format)."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: set[str | None] = set()

    def after(self, fr: FileReport | None) -> None:
        fmt = fr.format if fr is not None else None
        if fmt not in self.seen:
            self.seen.add(fmt)
            gc.collect(1)
            gc.freeze()


#: The run's collector while a run of at least RUN_GC_FILES files is checked (forked workers inherit it)
_run_collector: _RunCollector | None = None


@contextlib.contextmanager
def _collector_for_run(files: int) -> Iterator[None]:
    """For a run of at least RUN_GC_FILES files: what is alive at the start and after the first file of each
    format left out of the collections (:class:`_RunCollector`); at the end, unless something was frozen before
    the run (the caller's own ``gc.freeze``, which stays), everything is unfrozen."""
    global _run_collector
    if files < RUN_GC_FILES or _run_collector is not None:
        yield
        return
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    _run_collector = _RunCollector()
    try:
        yield
    finally:
        _run_collector = None
        if not frozen_before:
            gc.unfreeze()


def _file_options(options: RunOptions) -> dict[str, Any]:
    """The keywords of :func:`check_file` that ``options`` set, the same for every file of the run
    (made once a run, not once a file)."""
    return dict(fmt=options.fmt, variant=options.variant, profile=options.profile, cross_check=options.cross_check,
                cross_check_limit=options.cross_check_limit, stream_limit=options.stream_limit,
                run_files=options.run_files)


#: ``-j 1`` stores its reports in a spool this many at a time, as a ``-j N`` worker's batch is stored: one write
#: for the batch's records and one for their table entries, an offset stored per file (``Spool.put_batch``), not
#: two writes and a store's bookkeeping per file. What is held meanwhile is the batch's pickled reports.
SERIAL_BATCH = 64


class _Results:
    """Where :func:`check_files` puts the file reports: a spool (``into``), or a list."""

    def __init__(self, into: Spool | None, entry: Callable[[FileReport], bytes] | None = None) -> None:
        self._into = into
        #: the spool, where ``-j N`` workers write their reports to segments of it (None: a list)
        self.spool = into
        self._kept: dict[int, FileReport] = {}
        #: what makes each file's table entry, stored beside its report (a list of reports keeps none)
        self.entry = entry if into is not None else None
        # the serial run's batch not yet stored (:meth:`hold`): indices, records, entries
        self._held: tuple[array[int], list[bytes], list[bytes | None]] = (array("q"), [], [])

    def put(self, index: int, fr: FileReport) -> None:
        if self._into is not None:
            # the entry made now saves the table loading the report back from the spool
            self._into.put(index, fr, self.entry(fr) if self.entry is not None else None)
        else:
            self._kept[index] = fr

    def hold(self, index: int, fr: FileReport) -> None:
        """:meth:`put` for ``-j 1``: the report pickled, its entry made and the spool's tally counted now; the
        batch stored once SERIAL_BATCH reports are held (:meth:`files` stores the rest)."""
        if self._into is None:
            self._kept[index] = fr
            return
        indices, records, entries = self._held
        records.append(record(fr))
        entries.append(self.entry(fr) if self.entry is not None else None)
        indices.append(index)
        self._into.tally.add(fr, index)
        if len(indices) >= SERIAL_BATCH:
            self._store_held()

    def _store_held(self) -> None:
        indices, records, entries = self._held
        if indices and self._into is not None:
            self._into.put_batch(indices, frame_records(records),
                                 frame_records(entries) if self.entry is not None else None)
        self._held = (array("q"), [], [])

    def put_batch(self, batch: _Batch) -> None:
        """A worker's batch of reports as :func:`_pack` framed them, with their tally and table entries."""
        tally, indices, records, entries = batch
        if self._into is not None:
            self._into.put_batch(indices, records, entries)
            self._into.tally.merge(tally)
        else:
            framed, starts = records
            for index, start in zip(indices, starts):
                self._kept[index] = load_record(framed_record(framed, start))

    def put_written(self, batch: _Written) -> int:
        """A worker's batch of reports written to its segments of the spool (:func:`_pack`); how many."""
        assert self._into is not None  # segments are made for a spool only
        self._into.tally.merge(batch.tally)
        return self._into.put_written(batch.lo, batch.offsets, batch.entries)

    def files(self) -> Sequence[FileReport]:
        self._store_held()
        return self._into.seal() if self._into is not None else [self._kept[i] for i in sorted(self._kept)]


def _check_serial(files: Sequence[tuple[Path, bool]], options: RunOptions,
                  put: Callable[[int, FileReport], None], unclaimed: list[str], io_errors: list[str],
                  progress: RunProgress | None) -> None:
    """-j 1: in this process, with no per-file cost beyond the check itself: a walk's paths are checked as the
    text it stored (a :class:`~pathlib.Path` made per file would only be turned back into that text)."""
    bytes_progress = progress.within_file() if progress is not None else None
    each = _file_options(options)
    collector = _run_collector
    items: Sequence[tuple[Path | str, bool]] = files.texts() if isinstance(files, PathList) else files
    for index, (path, named) in enumerate(items):
        if progress is not None:
            progress.step(path)
        try:
            fr = check_file(path, named=named, progress=bytes_progress, **each)
        except InputError as e:
            io_errors.append(str(e))
            continue
        if collector is not None:
            collector.after(fr)
        if fr is not None:
            put(index, fr)
        else:
            unclaimed.append(str(path))


def _check_in_workers(files: Sequence[tuple[Path, bool]], options: RunOptions, results: _Results,
                      unclaimed: list[str], io_errors: list[str], progress: RunProgress | None, *,
                      sizes: Sequence[int] | None, entry: Callable[[FileReport], bytes] | None) -> None:
    """-j N: worker processes; each result is put at its file's index, as it comes. The workers send
    the reports as the spool stores them, with each batch's tally (:func:`_pack`): this process
    neither reads nor pickles them again."""
    from ._parallel import WorkerLost, plan_batches, run_in_workers  # here: see the TYPE_CHECKING import above

    errors: dict[int, str] = {}
    put = results.put
    texts = files.texts() if isinstance(files, PathList) else [(str(path), named) for path, named in files]
    steps = getattr(progress, "steps", None)  # many files at once (the CLI's bar); else one step each

    def on_batch(batch: _Batch | _Written) -> None:
        if isinstance(batch, _Written):
            # written by the worker to its segments: stored with a slice of offsets, the bytes never read here
            ends[batch.segment] = batch.ends
            count = results.put_written(batch)
            last = batch.last
        else:
            # the batch's reports, stored in one write: nothing here is done per file but storing its offset
            results.put_batch(batch)
            indices = batch[1]
            count = len(indices)
            last = indices[-1] if indices else -1
        if progress is not None and count:
            if steps is not None:
                steps(count, texts[last][0])
            else:
                for index in sorted(_stored_indices(batch)):
                    progress.step(texts[index][0])

    def on_result(index: int, kind: str, value: Any) -> None:
        # a file the worker did not store in its batch: unclaimed, unreadable, or lost with its worker
        path, _ = texts[index]
        if progress is not None:
            progress.step(path)
        if kind == "ok":
            assert value is None  # a report is stored with its batch (on_batch)
            unclaimed.append(path)
        elif kind == "raised":
            if isinstance(value, InputError):
                errors[index] = str(value)
            elif isinstance(value, UsageError):
                raise value
            else:  # check_file returns a crash report for every other exception; this is belt and braces
                put(index, _harness_report(path, options, WorkerLost("error", f"{type(value).__name__}: {value}")))
        else:
            put(index, _harness_report(path, options, value))

    if sizes is not None and len(sizes) != len(texts):
        sizes = None  # not this walk's

    # each file's size from the walk; those it did not look at (named on the command line, or no sizes given) here
    known = array("q", sizes) if sizes is not None else array("q", repeat(-1, len(texts)))
    for i in [i for i, size in enumerate(known) if size < 0]:
        try:
            known[i] = os.stat(texts[i][0]).st_size
        except OSError:
            known[i] = 0

    # small files in batches, big ones alone and first, so no worker is left with a big file while the others are idle
    jobs = options.jobs
    batches = plan_batches(known, jobs)
    _preload(texts, batches[:jobs], options)
    spool = results.spool
    writers: dict[int, SegmentWriter] = {}  # each worker's segments of the spool, by its number
    ends: dict[int, tuple[int, int]] = {}  # where each worker's segments end, by their number, as it answered

    def setup(number: int) -> SegmentWriter:
        """The segments worker ``number`` writes to: new, or those of the worker it replaces, from where
        that one's last answer ended (what it wrote after is overwritten: never read)."""
        writer = writers.get(number)
        if writer is None:
            assert spool is not None
            writer = writers[number] = spool.segment(entries=entry is not None)
        else:
            writer.records.end, entry_end = ends.get(writer.records.number, (0, 0))
            if writer.entries is not None:
                writer.entries.end = entry_end
        return writer

    # the workers (forked, or spawned with the function pickled) check each file as the options say
    run_in_workers(texts, functools.partial(_check_named, collect_traces=options.collect_traces,
                                            **_file_options(options)), jobs=jobs,
                   timeout=options.timeout or DEFAULT_FILE_TIMEOUT,
                   on_result=on_result, batches=batches, pack=functools.partial(_pack, entry=entry),
                   on_summary=on_batch, setup=setup if spool is not None else None)
    io_errors.extend(errors[i] for i in sorted(errors))


def _preload(texts: Sequence[tuple[str, bool]], batches: Sequence[Sequence[int]], options: RunOptions) -> None:
    """Import here, before the workers are forked, the checker of the format of each batch's first file
    (and its cross-check module, ``conformance/<fmt>/_xcheck.py``, when the cross-check runs): the
    workers share what this process imported instead of each importing (or compiling) its own copy."""
    fmt = options.fmt
    infos: dict[str, FormatInfo] = {fmt.id: fmt} if fmt is not None else {}
    for batch in batches if fmt is None else ():
        path = texts[batch[0]][0]
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                continue  # a FIFO or device named on the command line: opening it could block
            with open(path, "rb") as f:
                head = f.read(SNIFF_BYTES)
        except OSError:
            continue  # the worker says what is wrong with it
        info, _score = sniff(head, path)
        if info is not None:
            infos[info.id] = info
    for info in infos.values():
        try:
            info.checker  # noqa: B018 - loads the checker (a cached property of the registry entry)
            if options.cross_check:
                importlib.import_module(f"{info.module}._xcheck")  # every format has one
        except Exception:  # noqa: BLE001 - a checker that fails to load fails in the workers, with its report
            pass


#: A worker's batch of reports ready to store (:func:`_pack`): their tally, the files' indices, the
#: reports framed as the spool stores them and where each starts (:func:`~recspec.spool.frame_records`),
#: and the table entries the same way (None when none are made).
_Batch = tuple[Tally, "array[int]", tuple[bytes, "array[int]"], "tuple[bytes, array[int]] | None"]


class _Written(NamedTuple):
    """A worker's batch of reports written to its segments of the spool (:func:`_pack`), as the recspec
    process stores it (``Spool.put_written``): file ``lo + k``'s report at ``offsets[k]`` (-1: none), its
    table entry at ``entries[k]``; the tally; the last file stored (for the progress bar); the worker's
    segment (its records' number) and where its segments end now (records, entries)."""

    tally: Tally
    lo: int
    offsets: array[int]
    entries: array[int] | None
    last: int
    segment: int
    ends: tuple[int, int]


def _stored_indices(batch: _Batch | _Written) -> list[int]:
    """The files a batch stored, for a progress that takes one step a file."""
    if isinstance(batch, _Written):
        return [batch.lo + k for k, at in enumerate(batch.offsets) if at >= 0]
    return list(batch[1])


def _pack(results: list[Result], writer: SegmentWriter | None = None,
          entry: Callable[[FileReport], bytes] | None = None) -> tuple[list[Result], _Batch | _Written]:
    """In a worker: a batch's reports as the spool stores them (:func:`~recspec.spool.record`), each with
    what ``entry`` makes of it (or None), and their tally; written by the worker to its segments of the
    spool (``writer``, :func:`_check_in_workers`' ``setup``) so that the recspec process stores only where
    they lie, with a slice; or, without segments (spawned workers) or when writing them failed, framed
    back to back with their indices, so that the recspec process stores the batch in one write and reads
    no report. The results left to send one by one are the rest (a file no format claims, an error), and
    a report that cannot be pickled becomes an error saying so."""
    from ._parallel import PICKLE_ERRORS, cannot_send  # the worker running this has loaded the pool already

    tally = Tally()
    out: list[Result] = []
    indices = array("q")
    records: list[bytes] = []
    entries: list[bytes | None] = []
    for index, kind, value in results:
        if kind == "ok" and value is not None:
            try:
                data = record(value)
            except PICKLE_ERRORS as e:
                out.append((index, "raised", cannot_send(e)))
                continue
            made = None
            if entry is not None:
                try:
                    made = entry(value)
                except Exception:  # noqa: BLE001 - the parent renders the file from its report (and meets it there)
                    made = None
            tally.add(value, index)
            indices.append(index)
            records.append(data)
            entries.append(made)
        else:
            out.append((index, kind, value))
    if writer is not None and indices:
        lo = min(indices)
        try:
            offsets, entry_offsets = writer.write_batch(lo, max(indices) - lo + 1, indices, records,
                                                        entries if entry is not None else None)
        except OSError:
            pass  # sent as bytes: the recspec process stores them in its own file, or says what is wrong
        else:
            return out, _Written(tally, lo, offsets, entry_offsets, max(indices), writer.records.number,
                                 writer.ends())
    return out, (tally, indices, frame_records(records), frame_records(entries) if entry is not None else None)


def _check_named(path: Path, named: bool, *, collect_traces: bool = False, **options: Any) -> FileReport | None:
    """check_file with ``named`` positional, as the worker pool calls it (``collect_traces``: the run's
    :attr:`RunOptions.collect_traces`, which a forked worker also inherits, a spawned one does not).

    It looks ``check_file`` up in this module at call time, so a worker (forked) runs
    whatever ``recspec.pipeline.check_file`` is when the run starts (tests patch it)."""
    if collect_traces:
        with collecting(True):
            fr = check_file(path, named=named, **options)
    else:
        fr = check_file(path, named=named, **options)
    if _run_collector is not None:  # a forked worker of a run of many files
        _run_collector.after(fr)
    return fr


def _harness_report(path: Path | str, options: RunOptions, lost: WorkerLost) -> FileReport:
    fmt = options.fmt
    profile = options.profile or (fmt.default_profile if fmt else "spec")
    if lost.kind == "timeout":
        return FileReport(str(path), fmt.id if fmt else None, options.variant, profile, Verdict.TIMEOUT, [Finding(
            "RECSPEC-TIMEOUT", Severity.ERROR,
            f"recspec did not finish this file within the per-file time limit ({lost.detail}); its worker was "
            "stopped. This is a recspec limitation, not a finding about the file; raise --timeout or report it "
            "with the file.", None, None, "")])
    what = ("the worker process checking this file died" if lost.kind == "crash"
            else "recspec failed on this file in its worker process")
    return FileReport(str(path), fmt.id if fmt else None, options.variant, profile, Verdict.CRASH, [Finding(
        "RECSPEC-INTERNAL", Severity.ERROR,
        f"{what} ({lost.detail}); this is a recspec bug, not a finding about the file. Please report it with the "
        "file.", None, None, "")])
