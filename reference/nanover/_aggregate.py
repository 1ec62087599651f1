"""What a NanoVer reader makes of a stream of deltas (research notes, section 3).

* Frames: each ``Frame``'s ``values`` and ``arrays`` entries replace that key's
  whole value; keys not present are left alone; ``frame_index`` 0 is a reset:
  the aggregate is dropped and starts again from that frame (as NanoVer's
  playback and Python client do; its recording utilities only overlay).
* State: each update's keys replace their whole value; a ``None`` (null)
  value deletes its key.
* A ``.traj`` and a ``.state`` of one session share a clock origin: ``merged``
  interleaves them by timestamp, and a frame and an update with the same
  timestamp come out as one entry.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from typing import Any, cast

from ._model import Array, Frame, Record, StateUpdate

__all__ = ["FrameAggregate", "StateAggregate", "merged"]


class FrameAggregate:
    """The aggregate frame: ``apply`` each record's frame in order."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.arrays: dict[str, Array] = {}
        self.frame_index: int | None = None
        self.resets = 0

    def apply(self, frame: Frame) -> None:
        if frame.frame_index == 0:
            self.values.clear()
            self.arrays.clear()
            self.resets += 1
        self.values.update(frame.values)
        self.arrays.update(frame.arrays)
        self.frame_index = frame.frame_index


class StateAggregate:
    """The shared state: ``apply`` each update in order; it returns the keys it
    was asked to delete that did not exist."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}

    def apply(self, update: StateUpdate) -> list[str]:
        missing = []
        state = self.state
        for key, value in update.changes.items():
            if value is None:
                if state.pop(key, _ABSENT) is _ABSENT:
                    missing.append(key)
            else:
                state[key] = value
        return missing


_ABSENT = object()


def merged(traj: Iterable[Record], state: Iterable[Record]
           ) -> Iterator[tuple[int, Frame | None, StateUpdate | None]]:
    """``(timestamp_us, frame or None, update or None)`` of both streams by time.

    Lazy (one record of each stream in memory), stable (records with equal
    timestamps within one stream keep their order), and a frame and an update
    with the same timestamp are paired into one entry. Neither stream ends the
    merge early: it runs until both are exhausted.
    """
    tagged = heapq.merge(((r.timestamp_us, 0, r.message) for r in traj),
                         ((r.timestamp_us, 1, r.message) for r in state),
                         key=lambda t: (t[0], t[1]))
    # ``which`` tells the streams apart: 0 for the trajectory's frames, 1 for the state updates
    pending: tuple[int, Frame | None, StateUpdate | None] | None = None
    for ts, which, msg in tagged:
        if pending is not None:
            if which == 1 and pending[0] == ts and pending[2] is None and pending[1] is not None:
                yield ts, pending[1], cast(StateUpdate, msg)
                pending = None
                continue
            yield pending
        pending = (ts, cast(Frame, msg), None) if which == 0 else (ts, None, cast(StateUpdate, msg))
    if pending is not None:
        yield pending
