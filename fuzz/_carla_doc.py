"""Facts of docs/formats/carla.md that the CARLA ``ref`` harness's second opinion
(``recspec.fuzz.carla.rederived``) and its boundary mutations (``recspec.fuzz._carla_mutate``)
need, written down here from the document's tables and rule texts.

Nothing here is imported from the checker (``recspec.conformance.carla``) or taken from the
reference variant table's counts: a table typed wrong in the checker must disagree with this
one, not follow it. Each table names the document section it comes from. Only the kinds
(``PacketKind``) and the record classes of the reference model are shared, since the second
opinion reads the reference decoder's model.
"""

from __future__ import annotations

from types import MappingProxyType

from recspec.reference import carla as m
from recspec.reference.carla import PacketKind as K

__all__ = ["ACTOR_FIELDS", "ACTOR_TYPES", "ALWAYS", "ATTRIBUTE_TYPES", "DATE_RANGE", "ENUMS", "FLAGS",
           "LIGHT_STATES", "NOT_AN_ACTOR", "VARIANT_NAMES", "WRITER_ORDER", "enum_values"]

#: The nine variants, in the document's order (§ Variants).
VARIANT_NAMES = ("0.9.4-0.9.5", "0.9.6-0.9.9", "0.9.10-0.9.11", "0.9.12-0.9.13", "0.9.14", "0.9.15", "dev-2023",
                 "0.9.16", "ue5")

# --- § Order inside a frame (the writer-order table): CARLA-ORDER-001, and what FRAME-011 requires -----------

_EVENTS = (K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION)
_AD = (K.KINEMATICS, K.BOUNDING_BOX, K.TRIGGER_VOLUME, K.PLATFORM_TIME, K.PHYSICS_CONTROL, K.TRAFFIC_LIGHT_TIME)
_0910 = (*_EVENTS, K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT, K.SCENE_LIGHT, *_AD)
_0915 = (K.VISUAL_TIME, *_EVENTS, K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT,
         K.SCENE_LIGHT, K.ANIM_VEHICLE_WHEELS, K.ANIM_BIKER, *_AD, K.WALKER_BONES)
_2023 = (K.VISUAL_TIME, *_EVENTS, K.VEHICLE_DOOR, K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER,
         K.VEHICLE_LIGHT, K.SCENE_LIGHT, K.ANIM_VEHICLE_WHEELS, K.ANIM_BIKER, *_AD, K.WALKER_BONES)

#: variant -> the kinds the writer orders, first to last (FrameStart and FrameEnd bracket them).
WRITER_ORDER: MappingProxyType[str, tuple[K, ...]] = MappingProxyType({
    "0.9.4-0.9.5": (*_EVENTS, K.POSITION, K.STATE),
    "0.9.6-0.9.9": (*_EVENTS, K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER),
    "0.9.10-0.9.11": _0910,
    "0.9.12-0.9.13": _0910,
    "0.9.14": (K.VISUAL_TIME, *_0910, K.WALKER_BONES),
    "0.9.15": _0915,
    "dev-2023": _2023,
    "0.9.16": _2023,
    "ue5": _2023,
})

#: CARLA-FRAME-011 (its rule text): the packets a frame of each variant must hold. The event packets are
#: optional as the document says, the additional-data ones are written only when asked for.
ALWAYS: MappingProxyType[str, frozenset[K]] = MappingProxyType({
    "0.9.4-0.9.5": frozenset((K.POSITION, K.STATE)),
    "0.9.6-0.9.9": frozenset((K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER)),
    "0.9.10-0.9.11": frozenset((K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT)),
    "0.9.12-0.9.13": frozenset((K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT)),
    "0.9.14": frozenset((K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT, K.VISUAL_TIME)),
    "0.9.15": frozenset((K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT, K.VISUAL_TIME,
                         K.ANIM_VEHICLE_WHEELS, K.ANIM_BIKER)),
    **dict.fromkeys(("dev-2023", "0.9.16", "ue5"), frozenset((
        K.POSITION, K.STATE, K.ANIM_VEHICLE, K.ANIM_WALKER, K.VEHICLE_LIGHT, K.VISUAL_TIME, K.ANIM_VEHICLE_WHEELS,
        K.ANIM_BIKER, K.VEHICLE_DOOR))),
})

# --- § Enumerations and § Variants (the "actor types", "light states", "attribute types" columns) --------------

#: CARLA-ENUM-001: how many actor types are real actors (0 .. n-1; n is INVALID, and above it nothing).
ACTOR_TYPES = MappingProxyType({"0.9.4-0.9.5": 4, "0.9.6-0.9.9": 5, "0.9.10-0.9.11": 5, "0.9.12-0.9.13": 6,
                                "0.9.14": 6, "0.9.15": 6, "dev-2023": 6, "0.9.16": 6, "ue5": 6})
#: CARLA-ENUM-002: traffic-light states 0 Red, 1 Yellow, 2 Green; 3 Off from 0.9.10.
LIGHT_STATES = MappingProxyType({name: 3 if name in ("0.9.4-0.9.5", "0.9.6-0.9.9") else 4 for name in VARIANT_NAMES})
#: CARLA-ENUM-005: the attribute types: 0-4 released, 1-5 in dev-2023 and 0.9.16, 0-5 in UE5 builds.
ATTRIBUTE_TYPES = MappingProxyType({name: frozenset(range(1, 6)) if name in ("dev-2023", "0.9.16")
                                    else frozenset(range(6)) if name == "ue5" else frozenset(range(5))
                                    for name in VARIANT_NAMES})
#: CARLA-ENUM-003 and -004, the same in every variant: (record class, field, rule) -> number of values
#: (doors 0 front left .. 6 all; light groups 0 None .. 4 Other).
ENUMS = MappingProxyType({(m.VehicleDoor, "door", "CARLA-ENUM-003"): 7,
                          (m.SceneLight, "light_group", "CARLA-ENUM-004"): 5})
#: CARLA-VALUE-001: the one-byte booleans (0 or 1), by record class.
FLAGS = MappingProxyType({m.Collision: ("is_actor1_hero", "is_actor2_hero"), m.TrafficLightState: ("is_frozen",),
                          m.AnimVehicle: ("handbrake",), m.SceneLight: ("is_on",), m.VehicleDoor: ("is_open",)})
#: CARLA-HEADER-003: a plausible date, [2017-01-01, 2100-01-01) in Unix seconds.
DATE_RANGE = (1483228800, 4102444800)

# --- CARLA-ACTOR-001's rule text: the records that name actors -----------------------------------------------

#: Collision's "not an actor" (§ Collision).
NOT_AN_ACTOR = 0xFFFFFFFF
#: record class -> its fields that hold an actor id. SceneLight names lights, not actors; Collision's two
#: may be NOT_AN_ACTOR.
ACTOR_FIELDS = MappingProxyType({
    **{cls: ("database_id",) for cls in (
        m.Position, m.TrafficLightState, m.AnimVehicle, m.AnimWalker, m.VehicleLight, m.Kinematics, m.BoundingBox,
        m.TrafficLightTime, m.TriggerVolume, m.AnimBiker, m.VehicleDoor, m.PhysicsControl, m.WalkerBones,
        m.AnimVehicleWheels)},
    m.EventParent: ("database_id", "database_id_parent"),
    m.Collision: ("database_id1", "database_id2"),
})


def enum_values(variant: str) -> dict[tuple[type, str], int]:
    """(record class, field) -> the number of values of every enum a record of ``variant`` holds (the
    mutator's boundaries: n - 1 is the last value in range, n the first outside)."""
    return {(m.TrafficLightState, "state"): LIGHT_STATES[variant], (m.EventAdd, "type"): ACTOR_TYPES[variant],
            **{(cls, name): n for (cls, name, _), n in ENUMS.items()}}
