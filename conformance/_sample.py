"""The sampled second reading: the default cross-check of framed formats (CARLA, NanoVer).

The Kaitai parser and the adapters that compare its reading with the reference's
cost 15-300 times the whole reference check on real files, so the default
cross-check does not read every unit (packet, record): it reads the header,
whatever the framing cannot frame (a truncated or oversized tail), about one unit
in ``stride`` chosen by a hash of the unit's index, and the first and the last
unit (CARLA) or, where one unit's reading can cost more than the whole check
(a NanoVer trajectory's first frame, its topology), the last unit only when the
hash chose none (``choose(ends=False)``). The hash spreads the sample over the
file and over every kind of unit whatever the file's rhythm (every 16th packet
would always be the same kind in a log of 16 packets per frame). ``stride`` is each format's measured cost ratio,
so the sampled reading costs about as much as the check itself: a default check
with its cross-check takes at most about twice the check alone. The selection
depends only on the bytes, so two runs give the same report. ``--cross-check
full`` reads every unit.

The sample is cut out as a smaller file of the same format (the header, then the
chosen units back to back, byte for byte), which the format's ``differential``
compares as it would the whole file; :class:`Sample` maps offsets in it back to
offsets in the original.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import and_, lt, mul

__all__ = ["AS_MUCH_AS_THE_CHECK", "Sample", "choose", "chosen_indices", "cut", "cut_chosen", "evidence", "is_chosen"]

_GOLDEN = 0x9E3779B1  # Knuth's multiplicative hash constant (2^32 / phi)


def is_chosen(index: int, stride: int) -> bool:
    """Whether unit ``index`` is in the sample of about one in ``stride`` (deterministic)."""
    return stride <= 1 or ((index * _GOLDEN) & 0xFFFFFFFF) < (1 << 32) // stride


def chosen_indices(lo: int, hi: int, stride: int) -> list[int]:
    """The indices ``lo .. hi - 1`` that ``is_chosen`` takes. For a stride of ``_STEP_STRIDE`` or
    more they are stepped through, one Python step per chosen index, not per index (``_Steps``);
    below it, found by C loops over every index."""
    if stride <= 1:
        return list(range(lo, hi))
    if hi <= lo:
        return []
    if stride < _STEP_STRIDE:
        return _scan(lo, hi, stride)
    steps = _STEPS.get(stride)
    if steps is None:
        steps = _STEPS[stride] = _Steps(stride)
    return steps.between(lo, hi)


def _scan(lo: int, hi: int, stride: int) -> list[int]:
    indices = range(lo, hi)
    hashes = map(and_, map(mul, indices, repeat(_GOLDEN)), repeat(0xFFFFFFFF))
    return list(compress(indices, map(lt, hashes, repeat((1 << 32) // stride))))


class _Steps:
    """The indices ``is_chosen`` takes for one stride, from one to the next by arithmetic.

    The hash of index ``i`` is ``i * _GOLDEN mod 2**32``: a rotation of the circle of 2**32 points by
    ``_GOLDEN`` per index, and an index is chosen when its hash falls in ``[0, 2**32 // stride)``. By the
    three-gap theorem (Slater's, on the return times of a rotation to an interval), the gap from one
    chosen index to the next is one of ``a``, ``b`` and ``a + b``, where ``a`` is the first index whose
    hash is in the interval (a step forward by less than its width) and ``b`` the first whose hash is
    within the width below 2**32 (a step back by less than it); the next chosen index is the smallest of
    the three whose hash lands in the interval. ``tests/test_cross_check_sample.py`` holds the steps to
    ``is_chosen`` of every index over millions of indices for every stride the formats use.

    Callers read a file's units in order, so the last place reached is kept: a range that starts at or
    shortly after it resumes there (the work is one step per chosen index over the whole file); another
    one finds its first chosen index by a C scan of the largest gap's indices."""

    def __init__(self, stride: int) -> None:
        width = (1 << 32) // stride
        a = b = 0
        g = h = 0
        while not (a and b):
            g += 1
            h = (h + _GOLDEN) & 0xFFFFFFFF
            if not a and h < width:
                a = g
            if not b and h > (1 << 32) - width:
                b = g
        gaps = sorted({a, b, a + b})
        self.stride = stride
        self.width = width
        self.gaps = [(g, (g * _GOLDEN) & 0xFFFFFFFF) for g in gaps]
        self.resume = (0, 0, 0)  # (a range may resume here if it starts at or after, chosen index, its hash)

    def between(self, lo: int, hi: int) -> list[int]:
        valid_from, i, h = self.resume
        (g1, d1), (g2, d2), *rest = self.gaps
        g3, d3 = rest[0] if rest else (g2, d2)
        if lo < valid_from or lo - i > 8 * self.stride:
            # elsewhere: the first chosen index at or after lo lies within the largest gap of it
            first = _scan(lo, min(hi, lo + g3), self.stride)
            if not first:
                return []
            i = first[0]
            h = (i * _GOLDEN) & 0xFFFFFFFF
        width = self.width
        out: list[int] = []
        add = out.append
        while i < hi:
            if i >= lo:
                add(i)
            x = (h + d1) & 0xFFFFFFFF
            if x < width:
                i += g1
                h = x
                continue
            x = (h + d2) & 0xFFFFFFFF
            if x < width:
                i += g2
                h = x
                continue
            i += g3
            h = (h + d3) & 0xFFFFFFFF
        self.resume = (hi, i, h)
        return out


#: Strides from which ``chosen_indices`` steps from chosen index to chosen index (below it a C scan of every
#: index costs less than a Python step per chosen one).
_STEP_STRIDE = 4
_STEPS: dict[int, _Steps] = {}


@dataclass
class Sample:
    """The sampled file and how its offsets map back to the original's."""

    data: bytes
    units: int = 0  # units in the original
    chosen: int = 0  # units in the sample
    # (offset in the sample, offset in the original) of each copied run, ascending
    _runs: list[tuple[int, int]] = field(default_factory=list)
    left_out: int = 0  # chosen units ``leave_out`` refused (over the cross-check's budget)

    def original_offset(self, offset: int) -> int:
        starts = [s for s, _ in self._runs]
        i = bisect.bisect_right(starts, offset) - 1
        if i < 0:
            return offset
        s, o = self._runs[i]
        return o + (offset - s)

    @property
    def full(self) -> bool:
        return self.chosen == self.units


def cut(data: bytes, header_end: int, units: Iterator[tuple[int, int]], stride: int,
        leave_out: Callable[[int, int], bool] | None = None, *, ends: bool = True) -> Sample:
    """The sample of ``data``: ``data[:header_end]``, then each chosen unit.

    ``units`` yields ``(start, end)`` of each framed unit in order; a unit whose end
    is past the end of ``data`` (truncated, or a size the framing refuses) is the
    last and is always chosen, with everything after its start. ``leave_out(start,
    end)``, asked of each chosen whole unit, drops the ones the second reading must
    not be given (a unit over its memory budget); they count in ``left_out``.

    Streams ``units`` (one unit of look-ahead), so memory grows with the sample,
    not with the number of units in the file."""
    return cut_chosen(data, header_end, choose(units, stride, len(data), ends=ends), leave_out)


def choose(units: Iterator[tuple[int, int]], stride: int, size: int, *,
           ends: bool = True) -> Iterator[tuple[int, int, int]]:
    """``(index, start, end)`` of the units of ``units`` (``(start, end)`` each) that the sample
    takes: about one in ``stride`` (``is_chosen``), a unit that ends past ``size`` (a tail: the
    last one looked at), and with ``ends`` the first and the last unit.

    Without ``ends`` (a format whose first or last unit can cost the second reading more than
    the whole check), the hash counts from 1 (``is_chosen(0)`` holds for every stride), and the
    last unit is taken only when nothing else was; otherwise it is yielded as ``(index, -1, end)``:
    counted, not copied (``cut_chosen`` learns from it how many units there are and where the
    last ends)."""
    i = -1
    taken = 0
    it = iter(units)
    nxt = next(it, None)
    while nxt is not None:
        (start, end), nxt = nxt, next(it, None)
        i += 1
        last = nxt is None
        if ends:
            take = i == 0 or last or end > size or is_chosen(i, stride)
        else:
            take = end > size or is_chosen(i + 1, stride) or (last and not taken)
        if take:
            taken += 1
            yield i, start, end
            if end > size:
                return
        elif last:
            yield i, -1, end


def cut_chosen(data: bytes, header_end: int, chosen: Iterator[tuple[int, int, int]],
               leave_out: Callable[[int, int], bool] | None = None) -> Sample:
    """``cut`` from the units the sample takes, as ``choose`` yields them (the last one yielded
    is the last unit of the file, or its tail): a format that frames its units faster than one
    at a time can choose them itself."""
    runs: list[tuple[int, int]] = [(0, 0)]
    parts = [data[:header_end]]
    out_len = header_end
    taken = left = 0
    i = -1
    last_end: int | None = None
    for unit in chosen:
        i, start, end = unit
        last_end = end
        if start < 0:  # the file's last unit, counted and not taken (``choose`` without ends)
            continue
        tail = end > len(data)
        if not tail and leave_out is not None and leave_out(start, end):
            left += 1
            continue
        piece = data[start:] if tail else data[start:end]
        if runs[-1][1] + (out_len - runs[-1][0]) != start:  # not contiguous with the previous copy
            runs.append((out_len, start))
        parts.append(piece)
        out_len += len(piece)
        taken += 1
        if tail:
            break
    if last_end is not None and last_end < len(data):  # bytes after the last unit the framing saw
        rest_at = last_end
        if runs[-1][1] + (out_len - runs[-1][0]) != rest_at:
            runs.append((out_len, rest_at))
        parts.append(data[rest_at:])
    elif last_end is None and header_end < len(data):
        parts.append(data[header_end:])
    return Sample(b"".join(parts), i + 1, taken, runs, left)


#: Why the default cross-check reads a sample (``evidence``'s ``why``).
AS_MUCH_AS_THE_CHECK = "so the second reading costs about as much as the check"


def evidence(sample: Sample, size: int, unit: str, stride: int, outcome: str, *, ends: bool = True,
             which: str | None = None, why: str = AS_MUCH_AS_THE_CHECK) -> str:
    """The report's ``evidence.cross_check`` for a sampled reading (``which``: what the sample takes, where the
    format says more than ``ends`` does; ``why``: why it reads a sample)."""
    if sample.left_out:  # over the cross-check's budget per unit: said first, it is what was not compared
        outcome += (f"; {sample.left_out:,} {unit}(s) left out, each above the cross-check's budget "
                    f"(the check reports them)")
    if sample.full:
        return f"kaitai: {outcome} (every {unit} of this file is in the sample)"
    if which is None:
        which = (f"the header, the first and last {unit} and about 1 in {stride}" if ends
                 else f"the header and about 1 {unit} in {stride} (the last when the hash chose none)")
    return (f"kaitai: {outcome} on a sample of {sample.chosen:,} of {sample.units:,} {unit}s "
            f"({len(sample.data):,} of {size:,} bytes: {which}, {why}; --cross-check full reads every byte)")

