"""CARLA-FRAME-011: the packets every frame of a release holds.

CARLA's writer puts some packets in every frame, with a record count of 0 when
there is nothing to record (``ALWAYS`` in ``_detect.py``: Position, State, the
animations, VehicleLight, VisualTime, the 0.9.15 wheels and bikers, VehicleDoor
...). The user's document makes one exception explicit: "The events packets
are optional, only appears when they happen" (EventAdd, EventDel, EventParent,
Collision), so under ``spec`` a frame must hold the others; CARLA's own readers
replay a frame with any subset, so under ``compat`` a missing one is noted.
The additional-data packets (BoundingBox, PlatformTime, WalkerBones) are only
written when a recording asks for them and are not required.
"""

from __future__ import annotations

from recspec.reference.carla import PacketKind as K

from ._detect import ALWAYS

__all__ = ["EVENT_PACKETS", "missing_message", "required_per_frame"]

#: The packets the user's document declares optional (written only "when they happen").
EVENT_PACKETS = frozenset((K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION))


def required_per_frame(variant: str) -> frozenset[K]:
    """The packet kinds a frame of ``variant`` must hold under CARLA-FRAME-011."""
    return ALWAYS[variant] - EVENT_PACKETS


def missing_message(missing: frozenset[K] | set[K], order: dict[K, int], variant: str) -> str:
    """The finding's text: the missing kinds in the writer's order."""
    labels = ", ".join(k.label for k in sorted(missing, key=lambda k: order.get(k, 99)))
    return f"frame lacks {labels}: CARLA {variant} writes {'it' if len(missing) == 1 else 'them'} in every frame"
