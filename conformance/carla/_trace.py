"""What the HTML report draws of a CARLA recorder log (``_picture.py``), collected by the check's own walk while
``recspec.trace.enabled()``; bounded whatever the file's length (``recspec.trace``)."""

from __future__ import annotations

from typing import Any

from recspec.trace import Envelope, Sampler

__all__ = ["TRACE", "CarlaTrace"]


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


#: The plugin's trace class (``recspec.formats.FormatModule.TRACE``).
TRACE = CarlaTrace
