"""What the HTML report draws of a NanoVer recording (``_picture.py``), collected by the check's own walk while
``recspec.trace.enabled()``; bounded whatever the file's length (``recspec.trace``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from recspec.trace import ENVELOPE_BUCKETS, Envelope

__all__ = ["TRACE", "NanoverTrace"]

#: Keys and changes per key a state trace keeps.
STATE_KEYS, STATE_CHANGES = 40, 400



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


#: The plugin's trace class (``recspec.formats.FormatModule.TRACE``).
TRACE = NanoverTrace
