"""What the HTML report draws of a recording, collected during the check's own walk: the shared pieces.

A check fills its format's trace (the plugin's ``TRACE``, ``conformance/<package>/_trace.py``, built of the
pieces here) as it walks the file (no second pass), and leaves it in
:attr:`recspec.report.FileReport.trace`; the plugin's ``picture`` draws it. A trace is bounded
whatever the file's length, so a long recording costs the same memory and the
same picture size as a short one:

* :class:`Envelope` keeps a series y[0], y[1], ... as the minimum and maximum of
  each bucket of ``width`` consecutive values, at most ``limit`` buckets; when
  they fill up, neighbouring buckets are merged and ``width`` doubles. A spike
  or a jump in one frame of a million survives (it is a bucket's min or max).
* :class:`Sampler` keeps every ``stride``-th frame's points (positions); when it
  holds more than ``budget`` points, every other kept frame is dropped and the
  stride doubles.

Collecting costs time (about 15% of a check on the real files), so a check
collects only while :func:`collecting` is on: the CLI turns it on when an HTML
report with pictures is asked for, ``recspec.check(..., trace=True)`` for one
file. Worker processes are forked, so they inherit the setting.

Traces are not part of the JSON report contract (``FileReport.to_json`` leaves
them out): they are what the pictures need, and their downsampling may change.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterable, Iterator, Sequence

__all__ = ["ENVELOPE_BUCKETS", "SAMPLER_POINTS", "Envelope", "Sampler", "collecting", "enabled"]

_COLLECT: contextvars.ContextVar[bool] = contextvars.ContextVar("recspec_trace_collect", default=False)


def enabled() -> bool:
    """Whether checks now collect traces for the pictures."""
    return _COLLECT.get()


@contextlib.contextmanager
def collecting(on: bool = True) -> Iterator[None]:
    """Checks inside this block collect (``on``) or skip the traces."""
    token = _COLLECT.set(on)
    try:
        yield
    finally:
        _COLLECT.reset(token)

#: Buckets an :class:`Envelope` keeps at most (even).
ENVELOPE_BUCKETS = 512
#: Points a :class:`Sampler` keeps at most (positions of all actors or objects in its kept frames).
SAMPLER_POINTS = 24_000


class Envelope:
    """A bounded min/max summary of y[0], y[1], ... (see the module docstring). ``None``, NaN and
    infinities are counted (they take their x) but not kept."""

    __slots__ = ("hi", "limit", "lo", "n", "width")

    def __init__(self, limit: int = ENVELOPE_BUCKETS) -> None:
        self.limit = limit
        self.width = 1
        self.n = 0
        self.lo: list[float | None] = []
        self.hi: list[float | None] = []

    def add(self, y: float | None) -> None:
        n = self.n
        self.n = n + 1
        if y is not None and y - y != 0.0:  # NaN or an infinity
            y = None
        if n % self.width:
            if y is not None:
                lo = self.lo[-1]
                if lo is None:
                    self.lo[-1] = self.hi[-1] = y
                elif y < lo:
                    self.lo[-1] = y
                elif y > self.hi[-1]:  # type: ignore[operator]
                    self.hi[-1] = y
            return
        if len(self.lo) == self.limit:
            self._halve()  # n is a multiple of the new width too, since limit is even
        self.lo.append(y)
        self.hi.append(y)

    def _halve(self) -> None:
        lo, hi = self.lo, self.hi
        self.lo = [_min(lo[i], lo[i + 1]) for i in range(0, len(lo), 2)]
        self.hi = [_max(hi[i], hi[i + 1]) for i in range(0, len(hi), 2)]
        self.width *= 2

    def buckets(self) -> Iterable[tuple[int, int, float, float]]:
        """(first x, last x, min, max) of every bucket that holds a finite value."""
        w = self.width
        for i, (lo, hi) in enumerate(zip(self.lo, self.hi)):
            if lo is not None:
                yield i * w, min(self.n, (i + 1) * w) - 1, lo, hi  # type: ignore[misc]

    def extent(self) -> tuple[float, float] | None:
        los = [v for v in self.lo if v is not None]
        if not los:
            return None
        return min(los), max(v for v in self.hi if v is not None)


def _min(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None or a <= b else b


def _max(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None or a >= b else b


class Sampler:
    """Points of every ``stride``-th frame, at most ``budget`` points in all (see the module docstring).
    Ask :meth:`wants` before building a frame's points, so unsampled frames cost nothing."""

    __slots__ = ("budget", "frames", "points", "stride")

    def __init__(self, budget: int = SAMPLER_POINTS) -> None:
        self.budget = budget
        self.stride = 1
        self.points = 0
        #: (frame index, ((id, a, b, c), ...)) in frame order
        self.frames: list[tuple[int, tuple[tuple[int, float, float, float], ...]]] = []

    def wants(self, frame: int) -> bool:
        return frame % self.stride == 0

    def add(self, frame: int, points: Sequence[tuple[int, float, float, float]]) -> None:
        if not points:
            return
        self.frames.append((frame, tuple(points)))
        self.points += len(points)
        while self.points > self.budget and len(self.frames) > 1:
            self.stride *= 2
            self.frames = [f for f in self.frames if f[0] % self.stride == 0]
            self.points = sum(len(p) for _, p in self.frames)

    def tracks(self) -> dict[int, list[tuple[int, float, float, float]]]:
        """id -> [(frame, a, b, c), ...] in frame order."""
        out: dict[int, list[tuple[int, float, float, float]]] = {}
        for frame, points in self.frames:
            for pid, a, b, c in points:
                out.setdefault(pid, []).append((frame, a, b, c))
        return out
