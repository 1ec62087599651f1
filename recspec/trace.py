"""What the HTML report draws of a recording, collected during the check's own walk.

A check fills one of these traces as it walks the file (no second pass), and
leaves it in :attr:`recspec.report.FileReport.trace`. A trace is bounded
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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["CarlaTrace", "Envelope", "MatrixTrace", "NanoverTrace", "RaskatTrace", "Sampler", "collecting",
           "enabled"]

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
#: Keys and changes per key a NanoVer state trace keeps.
STATE_KEYS, STATE_CHANGES = 40, 400


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


class CarlaTrace:
    """Per frame durationThis and elapsed; actor positions of sampled frames; the hero actors."""

    __slots__ = ("duration", "elapsed", "frame", "hero", "last_duration", "positions")

    def __init__(self) -> None:
        #: durationThis of every frame but the last (whose -1.0 is the end marker, kept apart)
        self.duration = Envelope()
        self.last_duration: float | None = None
        self.elapsed = Envelope()
        self.positions = Sampler()
        self.hero: set[int] = set()
        self.frame = -1

    def frame_start(self, duration: float | None, elapsed: float | None) -> None:
        if self.frame >= 0:
            self.duration.add(self.last_duration)
        self.frame += 1
        self.last_duration = duration
        self.elapsed.add(elapsed)

    def position_records(self, flat: list[tuple[Any, ...]]) -> None:
        """Position records (database_id, x, y, z, ...) of the current frame."""
        if self.frame >= 0 and self.positions.wants(self.frame):
            self.positions.add(self.frame, [(t[0], t[1], t[2], t[3]) for t in flat])

    def actor_added(self, record: Any) -> None:
        for a in record.attributes:
            if a.id == "role_name" and a.value == "hero":
                self.hero.add(record.database_id)


class NanoverTrace:
    """Per record the timestamp and particle.count; the records with a frame reset; for ``.state``
    the records where each key changed."""

    __slots__ = ("changes", "kind", "particles", "records", "resets", "timestamps")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.records = 0
        self.timestamps = Envelope()
        self.particles = Envelope()
        self.resets: list[int] = []
        #: key -> [(record index, deleted), ...], first STATE_KEYS keys, STATE_CHANGES changes each
        self.changes: dict[str, list[tuple[int, bool]]] = {}

    def record(self, ts: int, particle_count: Any, reset: bool) -> None:
        index = self.records
        self.records += 1
        self.timestamps.add(ts / 1e6 if not ts >> 64 else None)
        self.particles.add(particle_count if isinstance(particle_count, float) else None)
        if reset and len(self.resets) < ENVELOPE_BUCKETS:
            self.resets.append(index)

    def state_update(self, index: int, changes: Mapping[str, Any]) -> None:
        for key, value in changes.items():
            events = self.changes.get(key)
            if events is None:
                if len(self.changes) >= STATE_KEYS:
                    continue
                events = self.changes[key] = []
            if len(events) < STATE_CHANGES:
                events.append((index, value is None))


class RaskatTrace:
    """The waveform (min/max per bucket of samples) and what the header says about its scale."""

    __slots__ = ("bits", "samples", "rate", "threshold", "vref", "wave")

    def __init__(self, samples: Sequence[Any], rate: Any, bits: Any = None, vref: Any = None,
                 threshold: Any = None) -> None:
        ints = [x for x in samples if type(x) is int]
        self.samples = len(samples)
        self.rate = rate if type(rate) is int and rate > 0 else None
        self.bits = bits if type(bits) is int and 1 <= bits <= 16 else None
        self.vref = vref if type(vref) is float and 0 < vref < float("inf") else None
        self.threshold = threshold if type(threshold) is int else None
        self.wave = Envelope(2 * ENVELOPE_BUCKETS)
        if len(ints) == len(samples):
            width = max(1, -(-len(ints) // self.wave.limit))
            if width == 1:
                for x in ints:
                    self.wave.add(x)
            else:  # whole buckets at C speed: the envelope of a long signal without a call per sample
                w = self.wave
                w.width, w.n = width, len(ints)
                for i in range(0, len(ints), width):
                    chunk = ints[i:i + width]
                    w.lo.append(min(chunk))
                    w.hi.append(max(chunk))

    @classmethod
    def of(cls, signal: Any) -> RaskatTrace | None:
        """The trace of a decoded signal (v1/v2 have no ADC fields; v3 has no threshold)."""
        samples = signal.samples
        if not isinstance(samples, tuple):
            return None
        return cls(samples, signal.sample_rate, getattr(signal, "adc_bits", None), getattr(signal, "vref", None),
                   getattr(signal, "threshold", None))


class MatrixTrace:
    """Per frame the time and the number of states; object positions of sampled frames; object names."""

    __slots__ = ("names", "positions", "sampling", "states", "times", "_frame", "_points", "_states_at", "_t")

    def __init__(self) -> None:
        self.times = Envelope()
        self.states = Envelope()
        self.positions = Sampler()
        self.names: dict[int, str] = {}
        self.sampling = False
        self._frame = -1
        self._t: float | None = None
        self._states_at = 0
        self._points: list[tuple[int, float, float, float]] = []

    def begin(self, index: int, states_so_far: int) -> None:
        """A frame starts (both paths of the walk call this once per frame, in order)."""
        self.end(states_so_far)
        self._frame = index
        self._t = None
        self._states_at = states_so_far
        self.sampling = self.positions.wants(index)

    def time(self, t: float) -> None:
        self._t = t

    def position(self, oid: int, p: Sequence[float]) -> None:
        if self.sampling:
            self._points.append((oid, p[0], p[1], p[2]))

    def fast_frame(self, index: int, states_so_far: int, t: float, points: Sequence[tuple[int, float, float, float]]
                   ) -> None:
        """A whole frame the walk's fast path accepted: its time and (when sampled) its positions."""
        self.begin(index, states_so_far)
        self._t = t
        if self.sampling:
            self._points = list(points)

    def end(self, states_so_far: int) -> None:
        """Close the current frame (called by :meth:`begin` and once after the last frame)."""
        if self._frame < 0:
            return
        self.times.add(self._t)
        self.states.add(float(states_so_far - self._states_at))
        if self._points:
            self.positions.add(self._frame, self._points)
            self._points = []
        self._frame = -1
