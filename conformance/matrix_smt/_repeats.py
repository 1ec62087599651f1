"""Repeats of a frame the full walk judged, counted in bulk: the frames that follow
it under the next indices with its bytes but for the time.

The full walk's findings in a frame depend on the frame's bytes and on what the
walk keeps: the objects (fixed once the frames start), the destroyed ids and the
previous frame's time. So when a judged frame destroyed nothing, its time made no
finding, and every rule it broke has its stored findings (the next ones would
only be counted: ``FindingSink.only_counted``), a next frame with the same bytes
outside the time value would make the same findings again, only counted, plus
what its time makes. :class:`Repeats` takes such frames a chunk at a time, at C
speed, from the walker's window (the frames array is a sequence of
``03 key 00 frame`` elements of one size): the document lengths as a column of
bytes, the elements' bytes masked (the time and the keys out) and compared with
the judged frame's repeated (``_runs._Element``), the keys' digits against the
indexes, then the times unpacked in one call: finite, at or after 0 and never
before the previous one. The frames so taken are counted with
``FindingSink.count_again``; the first frame whose time a rule would report, or
whose bytes differ, ends the run and goes on through the fast path or the full
walk, which locate its findings; a run may start again after it.

This is what turns a flood of invalid frames that differ only in their time
(hostile.py matrix-empty-states, matrix-nested-states, matrix-keyed-states: a
frame whose one state lacks its keys) from a full walk of every frame into one
walk per run. ``tests/test_matrix_smt_repeats.py`` holds the reports to the
frame-by-frame walk's on generated, edited and mutated recordings.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from itertools import islice
from operator import le
from typing import TYPE_CHECKING

from recspec.reference.matrix_smt import Entry, RecordingWalker

from ._runs import RUN_BYTES, _Element, _keys_match, _same_size

if TYPE_CHECKING:
    from ._walk_state import WalkState

__all__ = ["FIRST_CHUNK", "Repeats"]

#: Frames looked at in a run's first chunk; each next chunk is twice the last (up to ``RUN_BYTES``), so
#: a short run costs little more than its frames.
FIRST_CHUNK = 16
#: Layouts kept (a flood alternates between a few, mostly one).
LAYOUTS = 8
_I32_AT = struct.Struct("<i").unpack_from


class _Repeat:
    """A judged frame's bytes with its time zeroed (``expected``), which bytes are fixed (``mask``:
    all but the time's), and the struct format of its time (none when the frame has no time number:
    every byte is fixed then)."""

    __slots__ = ("_elements", "expected", "fmt", "int_time", "mask", "size", "timed")

    def __init__(self, raw: bytes, time_at: int, code: str) -> None:
        self.size = len(raw)
        mask = bytearray(b"\xff") * len(raw)
        expected = bytearray(raw)
        self.timed = bool(code)
        self.int_time = code in ("i", "q")
        if code:
            width = struct.calcsize("<" + code)
            mask[time_at:time_at + width] = bytes(width)
            expected[time_at:time_at + width] = bytes(width)
            after = len(raw) - time_at - width
            self.fmt = (f"{time_at}x" if time_at else "") + code + (f"{after}x" if after else "")
        else:
            self.fmt = f"{len(raw)}x"
        self.mask = bytes(mask)
        self.expected = bytes(expected)
        self._elements: dict[int, _Element] = {}

    def element(self, key_len: int) -> _Element:
        e = self._elements.get(key_len)
        if e is None:
            e = self._elements[key_len] = _Element(self, key_len)  # type: ignore[arg-type]
        return e


class Repeats:
    """Counts the repeats of a judged frame in bulk (see the module's docstring)."""

    def __init__(self, walk: WalkState) -> None:
        self.walk = walk
        #: (time code, time offset, the bytes with the time zeroed) -> layout, the most recently used last
        self._layouts: dict[tuple[str, int, bytes], _Repeat] = {}

    @staticmethod
    def may_follow(entry: Entry, w: RecordingWalker) -> bool:
        """Whether a repeat of ``entry`` (about to be judged) may follow it: it is a document under its
        own index, and the next element holds a document of its size (the cheap test made before the
        walk keeps what a run needs)."""
        raw = entry.raw
        if raw is None or entry.key != str(entry.index):
            return False
        at = 2 + len(str(entry.index + 1))
        head = w.following(entry.end, at + 4)
        return len(head) == at + 4 and head[0] == 0x03 and _I32_AT(head, at)[0] == len(raw)

    def after(self, entry: Entry, w: RecordingWalker, added: Mapping[str, Mapping[str, int]], states: int,
              commands: int, time_at: int, code: str) -> int:
        """Count the repeats that follow ``entry`` (just judged by the full walk, which made the findings
        ``added``, a ``FindingSink.counted_since``, and counted ``states`` states and ``commands``
        commands; its time at ``time_at`` in its bytes, of struct code ``code``, or none for ``""``),
        while they have its bytes but for the time and their times make no finding; returns how many
        were taken (the walker goes on after them)."""
        walk = self.walk
        if entry.index + 1 != walk.frames:
            return 0
        assert entry.raw is not None  # (may_follow said so)
        layout = self._layout(entry.raw, time_at, code)
        index = entry.index + 1
        pos = entry.end
        chunk = FIRST_CHUNK
        taken = 0
        while True:
            key_len = len(str(index))
            el = layout.element(key_len)
            stride = el.stride
            want = min(10 ** key_len - index, chunk)  # (one key length a chunk)
            data = w.following(pos, want * stride)
            n = len(data) // stride
            if n:
                n = _same_size(data, stride, 2 + key_len, layout.size, n)
            if n:
                n = el.matching(data, n)
            if n:
                n = _keys_match(data, stride, key_len, index, n)
            clean = self._clean_times(data[:n * stride], el, n, layout) if n and layout.timed else n
            if clean:
                walk.frames += clean
                walk.states += clean * states
                walk.commands += clean * commands
                walk.sink.count_again(added, clean)
                taken += clean
                index += clean
                pos += clean * stride
            if clean < want:  # other bytes, a time with a finding, or the array's (the file's) end
                break
            chunk = min(2 * chunk, max(1, RUN_BYTES // stride))
        if taken:
            w.resume(pos, index)
        return taken

    def _clean_times(self, data: memoryview, el: _Element, n: int, layout: _Repeat) -> int:
        """How many of the ``n`` frames in ``data`` from the first have a time no rule has anything to say
        about (finite, at or after 0, never before the one before); the walk's time moves on past them."""
        walk = self.walk
        times = [t for (t,) in el.unpack(data)]
        if layout.int_time:  # a number is a float to the rules (and in the stats)
            times = list(map(float, times))
        prev = walk.prev_time
        total = sum(times)
        if total - total == 0.0 and times[0] >= 0.0 and (prev is None or times[0] >= prev) \
                and all(map(le, times, islice(times, 1, None))):
            clean = n
        else:  # the first time with something to say, one by one (once a run)
            clean = 0
            for t in times:
                if t - t != 0.0 or t < 0.0 or (prev is not None and t < prev):
                    break
                prev = t
                clean += 1
        if clean:
            last = times[clean - 1]
            if walk.prev_time is None or last > walk.prev_time:
                walk.prev_time = last
            walk.last_time = last
        return clean

    def _layout(self, raw: bytes, time_at: int, code: str) -> _Repeat:
        """The layout of ``raw`` with its time at ``time_at`` (one of the last few, or a new one)."""
        width = struct.calcsize("<" + code) if code else 0
        key = (code, time_at, raw[:time_at] + bytes(width) + raw[time_at + width:])
        layout = self._layouts.pop(key, None)
        if layout is None:
            layout = _Repeat(raw, time_at, code)
            if len(self._layouts) >= LAYOUTS:
                del self._layouts[next(iter(self._layouts))]  # the least recently used
        self._layouts[key] = layout  # (last: the most recently used)
        return layout
