"""The fields of CARLA's fixed-size records that the rules judge, by kind: actor ids
(CARLA-ACTOR-001), flags (CARLA-VALUE-001) and enums (CARLA-ENUM-002..004).

One table for the packet-by-packet walk (``_check.py``) and for the bulk proof of
whole frames (``_frames.py``); indices are those of the record's flat tuple
(``unpack_flat``), where a vector is three fields.
"""

from __future__ import annotations

from recspec.reference.carla import PacketKind as K
from recspec.reference.carla import Variant

__all__ = ["ACTOR_FIRST", "ENUMS", "FLAGS", "NOT_AN_ACTOR", "enum_size"]

#: Fixed-record kinds whose first field is an actor id (CARLA-ACTOR-001).
ACTOR_FIRST = frozenset((K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT, K.KINEMATICS,
                         K.BOUNDING_BOX, K.TRAFFIC_LIGHT_TIME, K.TRIGGER_VOLUME, K.ANIM_BIKER, K.VEHICLE_DOOR))
#: Flag fields (CARLA-VALUE-001): kind -> ((tuple index, field name), ...)
FLAGS = {
    K.COLLISION: ((3, "is_actor1_hero"), (4, "is_actor2_hero")),
    K.STATE: ((1, "is_frozen"),),
    K.ANIM_VEHICLE: ((4, "handbrake"),),
    K.SCENE_LIGHT: ((6, "is_on"),),
    K.VEHICLE_DOOR: ((2, "is_open"),),
}
#: Enum fields: kind -> (tuple index, field name, rule, number of values; 0: the variant's
#: traffic-light states)
ENUMS = {
    K.STATE: (3, "state", "CARLA-ENUM-002", 0),
    K.SCENE_LIGHT: (7, "light_group", "CARLA-ENUM-004", 5),
    K.VEHICLE_DOOR: (1, "door", "CARLA-ENUM-003", 7),
}
#: A Collision's second actor when it hit something that is not an actor.
NOT_AN_ACTOR = 0xFFFFFFFF


def enum_size(kind: K, variant: Variant) -> int:
    """How many values the enum field of ``kind`` (a key of ``ENUMS``) has in ``variant``."""
    return ENUMS[kind][3] or variant.traffic_light_states
