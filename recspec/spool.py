"""Temporary on-disk stores for a run over many files, so that its memory does not grow with them.

:class:`Spool` holds a run's per-file results (:class:`~recspec.report.FileReport`,
pickled, one length-prefixed record each, traces included) in an anonymous
temporary file; in memory it keeps only the byte offset of each record (8 bytes
a file) and the run's :class:`~recspec.report.Tally` (counts per verdict, per
profile, the formats and rule ids present), updated as each result arrives. The
results come back in the files' order whatever the order they were stored in
(``-j N`` workers finish out of order): :meth:`Spool.put` takes the file's index,
:meth:`Spool.seal` drops the indices that got no record (unclaimed or unreadable
files). A sealed spool is a read-only sequence: the report writers iterate it.

:class:`PathList` is the walk of the input paths kept the same way: the paths in
a temporary file, their offsets in memory, so a walk of a million files does not
hold a million :class:`~pathlib.Path` objects.

With ``-j N`` each worker writes the reports it makes (and their table entries)
to segments of the spool of its own (:meth:`Spool.segment`, files the recspec
process opens before forking it, :class:`SegmentWriter` in the worker) and
sends the recspec process only where they lie (:meth:`Spool.put_written`): the
reports' bytes never pass through the recspec process. A record's offset carries
the number of the store it lies in (0: the spool's own file) above
``_SEGMENT_SHIFT`` bits. A worker writes a batch before it answers, so a report
the recspec process was told of is in the segment's file whatever becomes of the
worker; a worker that replaces a dead one writes on from the end of what was
answered (what the dead one wrote past it is never read).

All these files are created unlinked (``tempfile.TemporaryFile``): nothing is left on
disk when the run ends, however it ends. They go to the system's temporary folder
(``TMPDIR``).
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import weakref
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate, compress, islice, repeat
from operator import add, gt, sub
from pathlib import Path
from typing import Any, BinaryIO, overload

from .report import FileReport, Tally

__all__ = ["PathList", "SegmentWriter", "Spool", "frame_records", "framed_record", "load_record", "record",
           "unframe_paths"]

_LEN = struct.Struct("<I")
_ABSENT = -1
#: A record's offset holds the number of its store above this many bits (a store of up to 16 TiB).
_SEGMENT_SHIFT = 44
_IN_STORE = (1 << _SEGMENT_SHIFT) - 1


def _store_error(e: OSError) -> OSError:
    """A failure of the temporary store (a full disk), saying where it is and how to move it."""
    import tempfile  # see _Records

    return OSError(e.errno, f"cannot write the run's temporary store in {tempfile.gettempdir()}: "
                   f"{e.strerror or e} (the TMPDIR environment variable chooses the folder)")


class _Records:
    """Length-prefixed byte records appended to an unlinked temporary file, read back by offset."""

    def __init__(self) -> None:
        # tempfile (with shutil, random, bz2 and lzma: about 4 ms) is imported by the first store a run makes,
        # not by every command that imports this module (`recspec --help` and `rules` make none)
        import tempfile

        try:
            self._f: BinaryIO = tempfile.TemporaryFile(prefix="recspec-spool-")  # noqa: SIM115 - see close()
        except OSError as e:
            raise _store_error(e) from None
        self._end = 0
        self._dirty = False
        # closed when the store is closed or dropped (a store a caller forgot leaves no open file behind)
        self._closer = weakref.finalize(self, self._f.close)

    def add(self, data: bytes) -> int:
        at = self._end
        if self._f.tell() != at:
            self._f.seek(at)
        try:
            self._f.write(_LEN.pack(len(data)))
            self._f.write(data)
        except OSError as e:
            raise _store_error(e) from None
        self._end = at + _LEN.size + len(data)
        self._dirty = True
        return at

    def add_framed(self, framed: bytes) -> int:
        """Records already framed as :meth:`add` frames them, back to back (:func:`frame_records`), in
        one write; returns where the first starts (the others at the same offsets after it)."""
        at = self._end
        if self._f.tell() != at:
            self._f.seek(at)
        try:
            self._f.write(framed)
        except OSError as e:
            raise _store_error(e) from None
        self._end = at + len(framed)
        self._dirty = True
        return at

    def get_raw(self, at: int, size: int) -> bytes:
        """``size`` bytes of the store from ``at`` (records with their framing)."""
        self._seek(at)
        data = self._f.read(size)
        if len(data) != size:
            raise OSError(f"the temporary store is cut short at byte {at}")
        return data

    def get(self, at: int) -> bytes:
        self._seek(at)
        (n,) = _LEN.unpack(self._f.read(_LEN.size))
        data = self._f.read(n)
        if len(data) != n:
            raise OSError(f"the temporary store is cut short at byte {at}")
        return data

    def _seek(self, at: int) -> None:
        """Ready to read from ``at``: what was written first goes to the file."""
        if self._dirty:
            try:
                self._f.flush()
            except OSError as e:
                raise _store_error(e) from None
            self._dirty = False
        self._f.seek(at)

    def fileno(self) -> int:
        return self._f.fileno()

    @property
    def end(self) -> int:
        """Where the next record will start: the bytes written so far."""
        return self._end

    def close(self) -> None:
        self._closer()


class _Stores:
    """A spool's records in its own store (number 0, written by this process) and in the segments that
    ``-j N`` workers write (1, 2, ...): an offset carries its store's number above _SEGMENT_SHIFT bits."""

    def __init__(self) -> None:
        self._stores = [_Records()]

    def add(self, data: bytes) -> int:
        return self._stores[0].add(data)

    def add_framed(self, framed: bytes) -> int:
        return self._stores[0].add_framed(framed)

    def segment(self) -> tuple[int, int]:
        """A new store for a worker to write: its number and its file descriptor."""
        if len(self._stores) > _IN_STORE >> 1:  # far beyond any run: offsets would overflow
            raise OSError("too many segments in one spool")
        store = _Records()
        self._stores.append(store)
        return len(self._stores) - 1, store.fileno()

    def get_raw(self, at: int, size: int) -> bytes:
        return self._stores[at >> _SEGMENT_SHIFT].get_raw(at & _IN_STORE, size)

    def get(self, at: int) -> bytes:
        return self._stores[at >> _SEGMENT_SHIFT].get(at & _IN_STORE)

    def close(self) -> None:
        for store in self._stores:
            store.close()


class _SegmentEnd:
    """One segment as its worker writes it: the store's number, its file, where the next write goes."""

    def __init__(self, number: int, fd: int, end: int) -> None:
        self.number, self.fd, self.end = number, fd, end

    def write(self, framed: bytes) -> int:
        """Append ``framed``; its first byte's offset in the spool (the store's number included)."""
        at = self.end
        view = memoryview(framed)
        while view:
            done = os.pwrite(self.fd, view, self.end)
            view = view[done:]
            self.end += done
        return (self.number << _SEGMENT_SHIFT) | at


class SegmentWriter:
    """A ``-j N`` worker's side of its segments of the spool (:meth:`Spool.segment`): what the recspec
    process made for it (each segment's number, file descriptor, inherited through the fork, and the end
    of what was answered so far), to which it appends each batch's records before it answers."""

    def __init__(self, records: tuple[int, int, int], entries: tuple[int, int, int] | None) -> None:
        self.records = _SegmentEnd(*records)
        self.entries = _SegmentEnd(*entries) if entries is not None else None

    def ends(self) -> tuple[int, int]:
        """Where each segment ends now (the entries' -1 without one): the start of a worker that replaces
        this one, should it die after answering."""
        return self.records.end, self.entries.end if self.entries is not None else -1

    def write_batch(self, lo: int, span: int, indices: Sequence[int], records: Sequence[bytes],
                    entries: Sequence[bytes | None] | None) -> tuple[array[int], array[int] | None]:
        """Write the reports of files ``indices`` (all in ``lo`` .. ``lo + span - 1``) and their entries;
        where each lies, as :meth:`Spool.put_written` takes them (index ``lo + k`` at ``[k]``, -1: none).
        An OSError (a full disk) leaves the segment's end where it was."""
        rec_end, entry_end = self.ends()
        try:
            offsets = _placed(lo, span, indices, self.records, records)
            entry_offsets = (_placed(lo, span, indices, self.entries, entries)
                             if self.entries is not None and entries is not None else None)
        except OSError:
            self.records.end = rec_end
            if self.entries is not None:
                self.entries.end = entry_end
            raise
        return offsets, entry_offsets


def _placed(lo: int, span: int, indices: Sequence[int], segment: _SegmentEnd,
            items: Sequence[bytes | None]) -> array[int]:
    framed, starts = frame_records(items)
    base = segment.write(framed)
    offsets = array("q", [_ABSENT]) * span
    for index, start in zip(indices, starts):
        if start != _ABSENT:
            offsets[index - lo] = base + start
    return offsets


def unframe_paths(framed: bytes) -> list[tuple[str, bool]]:
    """The ``(path, named)`` items of a run of a :class:`PathList`'s paths none of them named, as
    :meth:`PathList.texts` ``framed`` read them: a ``-j N`` worker decodes the paths of its batch."""
    texts = framed.decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()).split(_PATH_END)
    return list(zip(texts, repeat(False)))


def _place(at: array[int], lo: int, offsets: array[int]) -> None:
    """``at[lo + k] = offsets[k]`` where ``offsets[k]`` is not _ABSENT, each index set at most once."""
    hi = lo + len(offsets)
    _reach(at, hi - 1)
    if at[lo:hi].count(_ABSENT) == len(offsets):
        at[lo:hi] = offsets  # none of them stored yet: in one slice
        return
    for k, offset in enumerate(offsets):  # files of other batches among them
        if offset != _ABSENT:
            if at[lo + k] != _ABSENT:
                raise ValueError(f"file {lo + k} is stored twice")
            at[lo + k] = offset


def _reach(offsets: array[int], index: int) -> None:
    """Grow an index -> offset array with ``_ABSENT`` up to ``index`` (indices come in any order)."""
    if index >= len(offsets):
        offsets.extend(array("q", [_ABSENT]) * (index + 1 - len(offsets)))


def frame_records(items: Iterable[bytes | None]) -> tuple[bytes, array[int]]:
    """Records framed as a spool's store frames them, back to back, and where each starts in the
    result (``-1`` for a None: no record), for :meth:`Spool.put_batch`: a ``-j N`` worker frames a
    batch's reports and table entries, so that the recspec process stores them in one write each."""
    parts: list[bytes] = []
    starts = array("q")
    at = 0
    for data in items:
        if data is None:
            starts.append(_ABSENT)
            continue
        starts.append(at)
        parts.append(_LEN.pack(len(data)))
        parts.append(data)
        at += _LEN.size + len(data)
    return b"".join(parts), starts


def _read_clustered(records: _Stores, group: Sequence[int]) -> list[bytes | None]:
    """The records at offsets ``group`` (``_ABSENT``: None), read a cluster at a time: offsets within
    _ENTRIES_GAP bytes of the one before (a ``-j N`` batch's entries lie back to back), and within
    _ENTRIES_SPAN of the cluster's first, in one read."""
    present = sorted({at for at in group if at != _ABSENT})
    found: dict[int, bytes] = {}
    head = _LEN.size
    lo = 0
    while lo < len(present):
        hi = lo + 1
        first = present[lo]
        while (hi < len(present) and present[hi] - present[hi - 1] <= _ENTRIES_GAP
               and present[hi] - first <= _ENTRIES_SPAN):
            hi += 1
        last = present[hi - 1]
        (n,) = _LEN.unpack(records.get_raw(last, head))
        data = records.get_raw(first, last + head + n - first)
        for at in present[lo:hi]:
            start = at - first
            (n,) = _LEN.unpack_from(data, start)
            found[at] = data[start + head:start + head + n]
        lo = hi
    return [None if at == _ABSENT else found[at] for at in group]


def _gather(records: _Stores, group: array[int]) -> tuple[memoryview | None, list[int], list[int]]:
    """The records at offsets ``group`` (none absent) in one view, read a cluster at a time (records
    within _ENTRIES_GAP bytes of the one before in the same store: a ``-j N`` batch's entries lie back to
    back in its worker's segment), the clusters found and each record placed with no Python step per
    record. Returns the view, the clusters' first offsets, and for cluster ``k`` at ``[k + 1]`` what to
    take from an offset in it to find its record's first byte (past the length) in the view
    (:func:`bisect.bisect_right` of the offset in the first list gives ``k + 1``); the view is None when
    the reads would come to more than _ENTRIES_SPAN bytes (read by cluster, a record at a time, instead)."""
    ordered = sorted(group)
    # where a record lies more than _ENTRIES_GAP bytes after the one before (another store: far more)
    far = compress(range(1, len(ordered)), map(gt, map(sub, islice(ordered, 1, None), ordered), repeat(_ENTRIES_GAP)))
    cuts = [0, *far, len(ordered)]
    parts: list[bytes] = []
    firsts: list[int] = []
    shifts = [0]
    at = 0
    head = _LEN.size
    for lo, hi in zip(cuts, islice(cuts, 1, None)):
        first, last = ordered[lo], ordered[hi - 1]
        (n,) = _LEN.unpack(records.get_raw(last, head))
        span = last + head + n - first
        if at + span > _ENTRIES_SPAN:
            return None, [], []
        parts.append(records.get_raw(first, span))
        firsts.append(first)
        shifts.append(first - at - head)
        at += span
    return memoryview(b"".join(parts)), firsts, shifts


def framed_record(framed: bytes, start: int) -> bytes:
    """The record that starts at ``start`` in what :func:`frame_records` made."""
    (n,) = _LEN.unpack_from(framed, start)
    return framed[start + _LEN.size:start + _LEN.size + n]


def record(fr: FileReport) -> bytes:
    """A report as a spool stores it (pickled, traces included); :func:`load_record` reads it back."""
    return pickle.dumps(fr, pickle.HIGHEST_PROTOCOL)


def load_record(data: bytes) -> FileReport:
    fr: FileReport = pickle.loads(data)
    return fr


class Spool(Sequence[FileReport]):
    """A run's file reports on disk, in the files' order (see the module docstring)."""

    def __init__(self) -> None:
        self._records = _Stores()
        self._at = array("q")  # file index -> record offset (_ABSENT: no record); after seal(): dense
        # the files' table entries, made as their reports were stored (recspec/render/_table.py), in a
        # store of their own made on the first one, at the same indices as _at
        self._entries: _Stores | None = None
        self._entry_at = array("q")
        self._sealed = False
        self._count = 0
        #: counts over every stored report, kept as they are stored
        self.tally = Tally()

    def put(self, index: int, fr: FileReport, entry: bytes | None = None) -> None:
        """Store file ``index``'s report (and its table entry, :meth:`entry`); indices may come in any
        order, each at most once."""
        self.put_record(index, record(fr), entry)
        self.tally.add(fr, index)

    def put_record(self, index: int, data: bytes, entry: bytes | None = None) -> None:
        """Store file ``index``'s report as :func:`record` made it, without reading it back: the
        caller counts it in :attr:`tally` (a ``-j N`` worker sends a batch's tally beside its records).
        ``entry``: the file's table entry (:meth:`entry` gives it back)."""
        if self._sealed:
            raise ValueError("the spool is sealed")
        _reach(self._at, index)
        if self._at[index] != _ABSENT:
            raise ValueError(f"file {index} is stored twice")
        self._at[index] = self._records.add(data)
        self._count += 1
        if entry is not None:
            if self._entries is None:
                self._entries = _Stores()
            _reach(self._entry_at, index)
            self._entry_at[index] = self._entries.add(entry)

    def put_batch(self, indices: Sequence[int], records: tuple[bytes, array[int]],
                  entries: tuple[bytes, array[int]] | None = None) -> None:
        """Store the reports of files ``indices`` (and their table entries) as :func:`frame_records`
        framed them, one write each, without reading them back: the caller counts them in :attr:`tally`.
        The work per file is one offset stored (the rest is per batch)."""
        if self._sealed:
            raise ValueError("the spool is sealed")
        if not indices:
            return
        framed, starts = records
        base = self._records.add_framed(framed)
        at = self._at
        _reach(at, max(indices))
        for index, start in zip(indices, starts):
            if at[index] != _ABSENT:
                raise ValueError(f"file {index} is stored twice")
            at[index] = base + start
        self._count += len(indices)
        if entries is not None and entries[0]:
            if self._entries is None:
                self._entries = _Stores()
            framed, starts = entries
            base = self._entries.add_framed(framed)
            entry_at = self._entry_at
            _reach(entry_at, max(indices))
            for index, start in zip(indices, starts):
                if start != _ABSENT:
                    entry_at[index] = base + start

    def segment(self, entries: bool) -> SegmentWriter:
        """New segments of this spool for a ``-j N`` worker to write its reports to (and their table
        entries, with ``entries``): open files that a forked worker inherits (see the module docstring)."""
        if self._sealed:
            raise ValueError("the spool is sealed")
        number, fd = self._records.segment()
        if not entries:
            return SegmentWriter((number, fd, 0), None)
        if self._entries is None:
            self._entries = _Stores()
        entry_number, entry_fd = self._entries.segment()
        return SegmentWriter((number, fd, 0), (entry_number, entry_fd, 0))

    def put_written(self, lo: int, offsets: array[int], entries: array[int] | None = None) -> int:
        """Store the reports a worker wrote to its segments (:meth:`SegmentWriter.write_batch`): file
        ``lo + k``'s at ``offsets[k]`` (-1: none), its table entry at ``entries[k]``; the caller counts them
        in :attr:`tally`. Returns how many were stored. The work is per batch, not per file: the offsets
        go in as a slice, unless files of other batches lie among this one's (checked alone: big)."""
        if self._sealed:
            raise ValueError("the spool is sealed")
        stored = len(offsets) - offsets.count(_ABSENT)
        if not stored:
            return 0
        _place(self._at, lo, offsets)
        self._count += stored
        if entries is not None and entries.count(_ABSENT) != len(entries):
            if self._entries is None:
                self._entries = _Stores()
            _place(self._entry_at, lo, entries)
        return stored

    def entries(self) -> Iterator[bytes | None]:
        """Every stored report's table entry (None: stored without one), in order: :meth:`entry` of
        each index, read with less done per file (the table of a run reads them all)."""
        for chunk in self.entry_chunks(bytes):
            yield from chunk

    def entry_chunks(self, load: Callable[[memoryview], Any]) -> Iterator[list[Any]]:
        """:meth:`entries` a chunk at a time, each entry as ``load`` reads it from a view that starts at
        the entry's first byte and may go on past its last (``pickle.loads`` stops at its value's end;
        ``bytes`` is handed the entry alone): a chunk whose entries lie near each other in one store
        is read in one read and ``load`` mapped over it, with no Python step per entry."""
        self.seal()
        if self._entries is None:
            for lo in range(0, len(self._at), _ENTRIES_AT_ONCE):
                yield [None] * len(range(lo, min(lo + _ENTRIES_AT_ONCE, len(self._at))))
            return
        records = self._entries
        every = self._entry_at
        for lo in range(0, len(every), _ENTRIES_AT_ONCE):
            group = every[lo:lo + _ENTRIES_AT_ONCE]
            if group.count(_ABSENT) == len(group):
                yield [None] * len(group)
                continue
            view, firsts, shifts = (_gather(records, group) if load is not bytes and group.count(_ABSENT) == 0
                                    else (None, [], []))
            if view is None:
                # some files without one, or scattered over the stores: by cluster, an entry at a time
                yield [None if data is None else load(memoryview(data)) if load is not bytes else data
                       for data in _read_clustered(records, group)]
                continue
            # each entry's place in the view, from its cluster's shift; sliced and loaded in C
            starts = map(sub, group, map(shifts.__getitem__, map(bisect_right, repeat(firsts), group)))
            yield list(map(load, map(view.__getitem__, map(slice, starts, repeat(None)))))

    def entry(self, index: int) -> bytes | None:
        """The table entry stored with the ``index``-th report (in order, as iterating gives them), or
        None when it came without one."""
        self.seal()
        if self._entries is None:
            return None
        at = self._entry_at[index]
        return None if at == _ABSENT else self._entries.get(at)

    def append(self, fr: FileReport) -> None:
        """Store the next file's report (after every index stored so far)."""
        self.put(len(self._at), fr)

    def extend(self, reports: Iterable[FileReport]) -> None:
        for fr in reports:
            self.append(fr)

    def records(self) -> Iterator[bytes]:
        """The stored reports as stored (pickled), in order: for :meth:`copy_records`."""
        self.seal()
        for at in self._at:
            yield self._records.get(at)

    def copy_records(self, records: Iterable[bytes], tally: Tally) -> None:
        """Store reports as :meth:`records` gives them, after the others, without reading them back;
        ``tally`` counts them (the caller adds their spools' tallies up)."""
        for data in records:
            if self._sealed:
                raise ValueError("the spool is sealed")
            self._at.append(self._records.add(data))
            self._count += 1
        self.tally = tally

    def seal(self) -> Spool:
        """Done storing: the indices without a report are dropped, the rest keep their order."""
        if not self._sealed:
            if self._entries is not None:
                _reach(self._entry_at, len(self._at) - 1)  # the same indices as _at
            if self._count != len(self._at):
                if self._entries is not None:
                    self._entry_at = array("q", (e for at, e in zip(self._at, self._entry_at) if at != _ABSENT))
                self._at = array("q", (at for at in self._at if at != _ABSENT))
            self._sealed = True
        return self

    def rewrite(self, change: Iterable[FileReport] | None = None) -> Spool:
        """A new sealed spool of these reports as ``change`` gives them back (an iterator over this
        spool's reports that changes them on the way), or the same reports; this one is closed."""
        out = Spool()
        out.extend(self if change is None else change)
        self.close()
        return out.seal()

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[FileReport]:
        self.seal()
        for at in self._at:
            yield self._load(at)

    @overload
    def __getitem__(self, index: int) -> FileReport: ...

    @overload
    def __getitem__(self, index: slice) -> list[FileReport]: ...

    def __getitem__(self, index: int | slice) -> FileReport | list[FileReport]:
        self.seal()
        if isinstance(index, slice):
            return [self._load(at) for at in self._at[index]]
        return self._load(self._at[index])

    def _load(self, at: int) -> FileReport:
        return load_record(self._records.get(at))

    def close(self) -> None:
        self._records.close()
        if self._entries is not None:
            self._entries.close()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Paths written at a time by :meth:`PathList.extend`.
_EXTEND_CHUNK = 4096
#: :meth:`Spool.entries` reads this many files' table entries at a time, in one read when they lie
#: within _ENTRIES_SPAN bytes of the store (memory bounded, not growing with the run).
_ENTRIES_AT_ONCE = 4096
_ENTRIES_SPAN = 8 << 20
_ENTRIES_GAP = 64 << 10
#: What ends each path in a PathList's store (no path holds it).
_PATH_END = "\0"


class PathList(Sequence[tuple[Path, bool]]):
    """``(path, named)`` pairs of a walk, stored on disk (see the module docstring): each path's bytes
    ended by a NUL, which no path holds, so that a folder's paths are encoded and written at once
    (:meth:`extend_texts`) and a run of them read and decoded at once; in memory each path's offset and
    the indices of the named ones (files named on the command line: few)."""

    def __init__(self, items: Iterable[tuple[Path | str, bool]] = ()) -> None:
        self._records = _Records()
        self._at = array("q")
        self._named: set[int] = set()
        self.extend(items)

    def append(self, item: tuple[Path | str, bool]) -> None:
        self.extend((item,))

    def extend(self, items: Iterable[tuple[Path | str, bool]]) -> None:
        """Append every item, ``_EXTEND_CHUNK`` at a time, each chunk in one write."""
        chunk: list[str] = []
        named_at: list[int] = []
        for path, named in items:
            if named:
                named_at.append(len(chunk))
            # a text as its Path spells it ("./a//b" is "a/b"): the text is what a check is given and shows
            chunk.append(os.fspath(Path(path)) if isinstance(path, str) else os.fspath(path))
            if len(chunk) >= _EXTEND_CHUNK:
                self._add_chunk(chunk, named_at)
                chunk, named_at = [], []
        self._add_chunk(chunk, named_at)

    def _add_chunk(self, chunk: list[str], named_at: list[int]) -> None:
        first = len(self._at)
        self.extend_texts(chunk)
        self._named.update(first + k for k in named_at)

    def extend_texts(self, texts: list[str], named: bool = False) -> None:
        """Append the paths ``texts`` (``named`` each, or not), encoded and written at once: nothing is
        done per path in Python (a walk appends a folder's files so)."""
        if len(texts) > _EXTEND_CHUNK:  # a folder of a million files: a chunk at a time, the memory bounded
            for lo in range(0, len(texts), _EXTEND_CHUNK):
                self.extend_texts(texts[lo:lo + _EXTEND_CHUNK], named)
            return
        if not texts:
            return
        first = len(self._at)
        text = _PATH_END.join(texts) + _PATH_END
        data = text.encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
        # each path's bytes with its end: a character a byte where the lengths agree, else split at the ends
        lengths = (map(len, texts) if len(data) == len(text) else map(len, data.split(b"\0")[:-1]))
        base = self._records.add_framed(data)
        starts = array("q", accumulate(map(add, lengths, repeat(1)), initial=base))
        starts.pop()  # where the next path will start
        self._at.extend(starts)
        if named:
            self._named.update(range(first, len(self._at)))

    def _texts(self, lo: int, hi: int) -> list[str]:
        """Paths ``lo`` .. ``hi - 1``, in one read."""
        at = self._at
        start = at[lo]
        end = at[hi] if hi < len(at) else self._records.end
        data = self._records.get_raw(start, end - start)
        return data[:-1].decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()).split(_PATH_END)

    def _raw(self, lo: int, hi: int) -> bytes:
        """The stored bytes of paths ``lo`` .. ``hi - 1``, without the last one's end."""
        at = self._at
        end = at[hi] if hi < len(at) else self._records.end
        return self._records.get_raw(at[lo], end - at[lo])[:-1]

    def __len__(self) -> int:
        return len(self._at)

    @overload
    def __getitem__(self, index: int) -> tuple[Path, bool]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[Path, bool]]: ...

    def __getitem__(self, index: int | slice) -> tuple[Path, bool] | list[tuple[Path, bool]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self._at))[index]]
        text, named = self._load_text(index)
        return Path(text), named

    def __iter__(self) -> Iterator[tuple[Path, bool]]:
        for text, named in self.texts():
            yield Path(text), named

    def _load_text(self, index: int) -> tuple[str, bool]:
        index = range(len(self._at))[index]  # an IndexError past the end; a negative index from the end
        return self._texts(index, index + 1)[0], index in self._named

    def texts(self) -> Sequence[tuple[str, bool]]:
        """The same items with each path as the text its Path gives (``str(path)``): no Path object is
        made (a ``-j N`` run's parent hands paths to its workers; ``-j 1`` checks the texts)."""
        return _Texts(self)

    def close(self) -> None:
        self._records.close()

    def __enter__(self) -> PathList:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Texts(Sequence[tuple[str, bool]]):
    """:meth:`PathList.texts`."""

    def __init__(self, paths: PathList) -> None:
        self._paths = paths

    def __len__(self) -> int:
        return len(self._paths)

    @overload
    def __getitem__(self, index: int) -> tuple[str, bool]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, bool]]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, bool] | list[tuple[str, bool]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self._paths))[index]]
        return self._paths._load_text(index)

    def __iter__(self) -> Iterator[tuple[str, bool]]:
        paths = self._paths
        for lo in range(0, len(paths), _EXTEND_CHUNK):
            hi = min(lo + _EXTEND_CHUNK, len(paths))
            named = paths._named
            yield from zip(paths._texts(lo, hi), (i in named for i in range(lo, hi)) if named else repeat(False))

    def _run(self, indices: Sequence[int]) -> bool:
        """Whether ``indices`` are a run of consecutive indices (a ``-j N`` batch of small files)."""
        return bool(indices) and indices[-1] - indices[0] == len(indices) - 1 and list(indices) == list(
            range(indices[0], indices[-1] + 1))

    def framed(self, indices: Sequence[int]) -> bytes | None:
        """The stored bytes of ``indices`` when they are a run of consecutive indices, none of them named
        (a ``-j N`` batch of a folder's small files), in one read, for the worker to decode
        (:func:`unframe_paths`); else None."""
        if not self._run(indices):
            return None
        lo, hi = indices[0], indices[-1] + 1
        named = self._paths._named
        if named and not named.isdisjoint(range(lo, hi)):
            return None
        return self._paths._raw(lo, hi)

    def many(self, indices: Sequence[int]) -> list[tuple[str, bool]]:
        """The items at ``indices``: those of a run of consecutive indices read from the store in one
        read, not one each."""
        if not self._run(indices):
            return [self[i] for i in indices]
        lo, hi = indices[0], indices[-1] + 1
        named = self._paths._named
        return list(zip(self._paths._texts(lo, hi), (i in named for i in range(lo, hi)) if named else repeat(False)))
