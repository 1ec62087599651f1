"""Runs of frames checked in bulk: the frames that follow a frame the fast path
accepted and that have its layout, byte for byte, around other numbers.

A frame the fast path (``_fastpath.FrameMatcher``) accepted is one of the two
shapes it knows (the spec encoder's or the producer's), and every byte of it but
its numbers (the states' positions and rotations, and the time) is fixed by that
shape: the lengths, the type bytes, the keys, the strings, and here the states'
ids too. So a later frame whose bytes equal the accepted frame's outside those
numbers has the same structure and names the same objects (which existed and
were not destroyed then, and are checked again against the destroyed ones), and
what is left for the rules is its numbers. :class:`FrameRuns` checks a run of
such frames at once, at C speed (the recording's frames array, read from the
walker's window, is a sequence of ``03 key 00 frame`` elements of one size):

- the bytes: a cheap first cut on the documents' length fields (a column of
  bytes a time), then the run's elements as one integer, masked (the numbers and
  the keys out) and compared with the layout's bytes repeated; the first
  difference ends the run there;
- the keys: each digit column of the keys (``bytes[i::stride]``) against the
  indexes' digits;
- the numbers: one ``struct`` unpack per element, then a column at a time:
  finite (their sum is), quaternions of unit length (as the fast path, strictly
  inside the tolerance), times >= 0 and non-decreasing.

A run stops before the first frame whose numbers a rule could report; that frame
goes on through the fast path or the full walk, which locate the finding, and a
run starts again after it. A frame that destroys an object starts no run, and
only layouts seen in the last few accepted frames are tried. What a run records
is what the fast path records for each of its frames, in order: the counts, the
time, the findings the producer's keys get (the first ones stored, at the same
offsets, with their elements' lengths; once each rule has its stored findings,
only counted). ``tests/test_matrix_smt_runs.py`` holds the reports to the full
walk's on generated, edited and mutated recordings.
"""

from __future__ import annotations

import struct
from itertools import chain, islice
from math import hypot
from operator import le
from typing import TYPE_CHECKING, Any

from recspec.reference.matrix_smt import Entry, RecordingWalker
from recspec.report import Finding, Severity

from ._fastpath import _HI, _LO, PRODUCER_RULES, producer_finding_args

if TYPE_CHECKING:
    from ._walk_state import WalkState

__all__ = ["FrameRuns"]

#: Bytes of frames checked at once at most (memory: the integers and the numbers of a chunk of
#: this size cost a few times it; 64 KiB keeps the peak RSS where the frame-by-frame walk had it).
RUN_BYTES = 1 << 16
#: Layouts kept (the producer's frames alternate between a few: whole numbers are int32).
LAYOUTS = 8
_I32_AT = struct.Struct("<i").unpack_from


def _numbers(raw: bytes, start: int, last: int, out: list[tuple[int, str]]) -> None:
    """The offsets and struct codes of the numbers of the document at ``start`` (final NUL at
    ``last``), in order. ``raw`` is a frame the fast path accepted: doubles, int32s, strings,
    documents and arrays only."""
    p = start + 4
    while p < last:
        t = raw[p]
        v = raw.index(0, p + 1) + 1
        if t == 0x01:
            out.append((v, "d"))
            p = v + 8
        elif t == 0x10:
            out.append((v, "i"))
            p = v + 4
        elif t == 0x02:
            p = v + 4 + _I32_AT(raw, v)[0]
        elif t in (0x03, 0x04):
            n = _I32_AT(raw, v)[0]
            _numbers(raw, v, v + n - 1, out)
            p = v + n
        else:
            raise ValueError(f"type {t:#04x} in a frame the fast path accepted")


class _Element:
    """A layout inside an element of the frames array with a key of ``key_len`` digits."""

    __slots__ = ("_elements", "_expected", "_mask", "expected", "mask", "stride", "unpack")

    def __init__(self, layout: _Layout, key_len: int) -> None:
        self.stride = 2 + key_len + layout.size
        self.mask = b"\xff" + b"\x00" * key_len + b"\xff" + layout.mask
        self.expected = b"\x03" + b"\x00" * key_len + b"\x00" + layout.expected
        self.unpack = struct.Struct(f"<{2 + key_len}x" + layout.fmt).iter_unpack
        self._elements = 0  # how many elements _mask and _expected hold
        self._mask = self._expected = 0

    def matching(self, data: memoryview, n: int) -> int:
        """How many of the first ``n`` elements in ``data`` have the layout's bytes (keys aside)."""
        # big-endian integers: the first element is the most significant, so the first n elements of
        # the repeated mask are a right shift away, and the first difference is the highest set bit
        # (negative numbers and masks of low bits cost far more in CPython than shifts)
        if not self._elements:
            self._elements = 1
            self._mask = int.from_bytes(self.mask, "big")
            self._expected = int.from_bytes(self.expected, "big")
        while n > self._elements:  # the repeated mask and bytes, doubled by shifts
            shift = 8 * self.stride * self._elements
            self._mask |= self._mask << shift
            self._expected |= self._expected << shift
            self._elements *= 2
        span = n * self.stride
        cut = 8 * self.stride * (self._elements - n)
        found = (int.from_bytes(data[:span], "big") & (self._mask >> cut)) ^ (self._expected >> cut)
        if not found:
            return n
        return (span - 1 - (found.bit_length() - 1) // 8) // self.stride  # the element of the first difference


class _Layout:
    """An accepted frame's bytes with its numbers zeroed (``expected``), which bytes are fixed
    (``mask``), and the struct format of its numbers."""

    def __init__(self, raw: bytes, states: int, producer: bool) -> None:
        spots: list[tuple[int, str]] = []
        _numbers(raw, 0, len(raw) - 1, spots)
        if len(spots) != 8 * states + 1:
            raise ValueError("a frame the fast path accepted has 8 numbers a state and a time")
        # the time is the frame's last number, or its first in a frame that starts with it ({t, states, cmd})
        self.time_index = 0 if raw[4:7] == b"\x01t\x00" else 7 * states
        state_spots = spots[1:] if self.time_index == 0 else spots[:-1]
        self.size = len(raw)
        self.states = states
        self.producer = producer
        mask = bytearray(b"\xff") * len(raw)
        expected = bytearray(raw)
        fmt = []
        pos = 0
        # the states' ids stay in the fixed bytes: a run's frames name the objects this frame names
        self.ids = frozenset(_I32_AT(raw, at)[0] for at, _ in state_spots[::8])
        ids_at = {at for at, _ in state_spots[::8]}
        for at, code in spots:
            if at in ids_at:
                continue
            width = 8 if code == "d" else 4
            mask[at:at + width] = bytes(width)
            expected[at:at + width] = bytes(width)
            if at > pos:
                fmt.append(f"{at - pos}x")
            fmt.append(code)
            pos = at + width
        if pos < len(raw):
            fmt.append(f"{len(raw) - pos}x")
        self.mask = bytes(mask)
        self.expected = bytes(expected)
        self.fmt = "".join(fmt)
        self._mask_int = int.from_bytes(self.mask, "little")
        self._expected_int = int.from_bytes(self.expected, "little")
        # the producer's time element: its offset in the frame and its length (its time is last)
        self.time_at = spots[-1][0] - 6
        self.time_len = 14 if spots[-1][1] == "d" else 10
        self.int_time = spots[0 if self.time_index == 0 else -1][1] == "i"
        self._elements: dict[int, _Element] = {}

    def fits(self, raw: bytes) -> bool:
        return len(raw) == self.size and int.from_bytes(raw, "little") & self._mask_int == self._expected_int

    def element(self, key_len: int) -> _Element:
        e = self._elements.get(key_len)
        if e is None:
            e = self._elements[key_len] = _Element(self, key_len)
        return e


class FrameRuns:
    """Checks the frames after an accepted frame in bulk (see the module's docstring)."""

    def __init__(self, walk: WalkState) -> None:
        self.walk = walk
        self._layouts: list[_Layout] = []
        self._last_end = 0  # where the last run ended

    def after(self, entry: Entry, w: RecordingWalker, states: int, producer: bool) -> int:
        """Check the frames that follow ``entry`` (just accepted by the fast path, with ``states``
        states, in the producer's layout or not) while they have its layout; returns how many were
        taken (the walker goes on after them)."""
        raw = entry.raw
        walk = self.walk
        if raw is None or entry.index + 1 != walk.frames or entry.key != str(entry.index):
            return 0
        index = start = entry.index + 1
        pos = entry.end
        layout = next((x for x in self._layouts if x.fits(raw)), None)
        if layout is None and self._size_at(w, pos, index) == len(raw):  # the next frame may have its layout
            layout = self._layout(raw, states, producer)  # (otherwise no layout is built for nothing)
        while True:
            n, clean = (0, True) if layout is None else self._run(w, layout, pos, index)
            if n == 0 and clean:  # the next frame has another layout: one of the others seen, maybe
                n, clean, layout = self._switch(w, layout, pos, index)
            if n:
                index += n
                pos = self._last_end
            if not n or not clean:
                break
        if index > start:
            w.resume(pos, index)
        return index - start

    def _run(self, w: RecordingWalker, layout: _Layout, pos: int, index: int) -> tuple[int, bool]:
        """Take the frames from element ``index`` at ``pos`` while they have ``layout``: how many, and
        False when their numbers are not clean (nothing is taken then)."""
        walk = self.walk
        taken = 0
        while True:
            key_len = len(str(index))
            el = layout.element(key_len)
            stride = el.stride
            want = min(10 ** key_len - index, RUN_BYTES // stride)
            data = w.following(pos, want * stride)
            n = len(data) // stride
            if n == 0:
                break
            n = _same_size(data, stride, 2 + key_len, layout.size, n)  # most layout changes show there
            if n:
                n = el.matching(data, n)
            if n:
                n = _keys_match(data, stride, key_len, index, n)
            if not n:
                break
            clean = self._clean_frames(data[:n * stride], el, n, layout)
            stop = clean < n  # the frame after the clean ones goes to the fast path or the full walk
            n = clean
            if layout.producer:
                self._producer_findings(walk.frames, pos + 2 + key_len, stride, n, layout)
            walk.frames += n
            walk.states += n * layout.states
            taken += n
            index += n
            pos += n * stride
            if stop:
                self._last_end = pos
                return taken, False
            if n < want:
                break
        self._last_end = pos
        return taken, True

    @staticmethod
    def _size_at(w: RecordingWalker, pos: int, index: int) -> int:
        """The length field of the document in element ``index`` at ``pos`` (-1 when there is none)."""
        at = 2 + len(str(index))
        head = w.following(pos, at + 4)
        return _I32_AT(head, at)[0] if len(head) == at + 4 else -1

    def _switch(self, w: RecordingWalker, current: _Layout | None, pos: int,
                index: int) -> tuple[int, bool, _Layout | None]:
        """A run from ``pos`` with another layout seen before (the first that takes a frame)."""
        size = self._size_at(w, pos, index)
        for layout in self._layouts:
            if layout is not current and layout.size == size:
                n, clean = self._run(w, layout, pos, index)
                if n or not clean:
                    return n, clean, layout
        return 0, True, current

    def _layout(self, raw: bytes, states: int, producer: bool) -> _Layout | None:
        """A new layout, from ``raw`` (None if ``raw`` has none)."""
        try:
            layout = _Layout(raw, states, producer)
        except ValueError:  # not a frame of the fast path's shapes after all: no run
            return None
        self._layouts = [layout, *self._layouts[:LAYOUTS - 1]]
        return layout

    def _clean_frames(self, data: memoryview, el: _Element, n: int, layout: _Layout) -> int:
        """How many of the run's ``n`` frames (``data``) from the first have numbers no rule has anything
        to say about; the walk's time is updated for those."""
        if self._numbers_clean(list(chain.from_iterable(el.unpack(data))), n, layout):
            return n
        # the first frame with something to say: per frame (once a run, for the frame that ends it)
        vals = list(chain.from_iterable(el.unpack(data)))
        m = 7 * layout.states + 1
        prev = self.walk.prev_time
        ti = layout.time_index
        rotations = 3 + (ti == 0)  # the first rotation's place: after the time when it comes first
        for j in range(n):
            frame = vals[j * m:(j + 1) * m]
            t = float(frame[ti])
            total = sum(frame)
            if total - total != 0.0 or t < 0.0 or (prev is not None and t < prev) or any(
                    not _LO <= hypot(*frame[r:r + 4]) <= _HI for r in range(rotations, m - 1, 7)):
                break
            prev = t if prev is None or t > prev else prev
        else:
            return 0  # not found frame by frame: the fast path judges the run's frames one at a time
        if j and self._numbers_clean(vals[:j * m], j, layout):
            return j
        return 0

    def _numbers_clean(self, vals: list[Any], n: int, layout: _Layout) -> bool:
        """Whether no rule has anything to say about the numbers of the run's ``n`` frames
        (``vals``: their numbers, frame after frame, which this takes apart); if so, the walk's time
        is updated."""
        walk = self.walk
        m = 7 * layout.states + 1  # a state's position and rotation, and the time (last or first)
        times = vals[layout.time_index::m]
        if layout.int_time:  # a number is a float to the rules (and in the stats)
            times = list(map(float, times))
        del vals[layout.time_index::m]  # the states' numbers, 7 a state
        total = sum(vals) + sum(times)
        if total - total != 0.0:  # a NaN or an infinity (or a sum that overflows: the fast path judges)
            return False
        prev = walk.prev_time
        if times[0] < 0.0 or (prev is not None and times[0] < prev) \
                or not all(map(le, times, islice(times, 1, None))):
            return False
        if layout.states:
            ids = layout.ids  # in the fixed bytes: those of a frame the fast path accepted, unique
            if not walk.objects.keys() >= ids or not walk.destroyed.isdisjoint(ids):
                return False
            norms = list(map(hypot, vals[3::7], vals[4::7], vals[5::7], vals[6::7]))
            if min(norms) < _LO or max(norms) > _HI:
                return False
        last = times[-1]
        if prev is None or last > prev:
            walk.prev_time = last
        walk.last_time = last
        return True

    def _producer_findings(self, first: int, base: int, stride: int, n: int, layout: _Layout) -> None:
        """The producer's keys' findings of the run's ``n`` frames, as ``FindingSink.add`` would make
        them one by one, frame by frame: counted under every profile, stored (in the same order)
        while the driving profile stores that rule."""
        sink = self.walk.sink
        driving = sink.profile
        stored = []  # per rule: how many of the run's findings the driving profile stores
        for rule_id, only in PRODUCER_RULES:
            rule = sink.rules[rule_id]
            keep = 0
            for p in sink.profiles:
                if (only is None or only == p) and rule.level(p) is not Severity.OFF:
                    counts = sink.counts[p]
                    before = counts.get(rule_id, 0)
                    counts[rule_id] = before + n
                    if p == driving:
                        keep = min(n, max(0, sink.max_per_rule - before))
            stored.append(keep)
        top = max(stored)
        if not top:
            return
        levels = [sink.rules[r].level(driving) for r, _ in PRODUCER_RULES]
        out = sink.findings
        time_at, time_len = layout.time_at, layout.time_len
        for j in range(top):
            at = base + j * stride
            for i, (keep, level) in enumerate(zip(stored, levels)):
                if j < keep:
                    args = producer_finding_args(first + j, at, time_at, time_len, i)
                    out.append(Finding(args[0], level, *args[1:]))


def _same_size(data: memoryview, stride: int, at: int, size: int, n: int) -> int:
    """How many of the first ``n`` elements in ``data`` hold a document of ``size`` bytes (its
    length field at ``at`` in the element): a cheap first cut of a run (a frame of another
    layout has another size, mostly), at C speed."""
    for i, byte in enumerate(size.to_bytes(4, "little")):
        column = bytes(data[at + i:n * stride:stride])
        n -= len(column.lstrip(bytes((byte,))))  # the elements after the first other byte
    return n


#: The digit at place 1, 10 and 100 of the indexes 0, 1, 2... cycles with these patterns.
_CYCLES = {place: b"".join(bytes((0x30 + d,)) * place for d in range(10)) for place in (1, 10, 100)}


def _digits(first: int, n: int, place: int) -> bytes:
    """The digit at ``place`` (1, 10, 100...) of the indexes ``first``... ``first + n - 1``, as ASCII."""
    cycle = _CYCLES.get(place)
    if cycle is not None:
        start = first % len(cycle)
        reps = (start + n) // len(cycle) + 1
        return (cycle * reps)[start:start + n]
    parts = []  # a large place: the digit changes every ``place`` indexes, a few times in a run
    i, end = first, first + n
    while i < end:
        nxt = min(end, (i // place + 1) * place)
        parts.append(bytes((0x30 + (i // place) % 10,)) * (nxt - i))
        i = nxt
    return b"".join(parts)


def _keys_match(data: memoryview, stride: int, key_len: int, index: int, n: int) -> int:
    """How many of the ``n`` elements in ``data`` from the first have the keys ``index``, ``index + 1``...
    (all of ``key_len`` digits), a digit column at a time."""
    for d in range(key_len):
        column = bytes(data[1 + d:n * stride:stride])
        expected = _digits(index, n, 10 ** (key_len - 1 - d))
        if column != expected:
            n = next(i for i, (x, y) in enumerate(zip(column, expected)) if x != y)
    return n
