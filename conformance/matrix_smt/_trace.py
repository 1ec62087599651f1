"""What the HTML report draws of a Matrix-SMT recording (``_picture.py``), collected by the check's own walk while
``recspec.trace.enabled()``; bounded whatever the file's length (``recspec.trace``)."""

from __future__ import annotations

from collections.abc import Sequence

from recspec.trace import Envelope, Sampler

__all__ = ["TRACE", "MatrixTrace"]


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


#: The plugin's trace class (``recspec.formats.FormatModule.TRACE``).
TRACE = MatrixTrace
