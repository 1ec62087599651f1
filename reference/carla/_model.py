"""Typed model of a CARLA recorder log.

The model keeps every value the file stores, at the width the file stores it, so
that a decoded log re-encodes to the same bytes:

* 0/1 flags stay ``int`` (a byte of 2 is kept and reported by a rule, not
  silently turned into ``True``);
* enumerations stay ``int`` (a value outside the enum is a finding, not a
  decode error);
* rotations are :class:`Rotator` with the on-disk order (roll, pitch, yaw);
  the official document says pitch, yaw, roll, which is wrong (see
  ``CARLA-REC-ROTATION`` in the rule catalog).

Field names are the contract with ``ksy/carla_recorder.ksy``: every seq field of
the Kaitai spec has the same name as the model field it fills, so the Kaitai
adapter in ``recspec.conformance.carla`` can be mechanical.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = [
    "FIXED_VALUE_CLASSES",
    "RECORD_CLASSES",
    "ActorAttribute",
    "AnimBiker",
    "AnimVehicle",
    "AnimVehicleWheels",
    "AnimWalker",
    "BoundingBox",
    "Collision",
    "Color",
    "CurvePoint",
    "EventAdd",
    "EventDel",
    "EventParent",
    "Fixed",
    "FrameCounter",
    "FrameEnd",
    "FrameStart",
    "GearPhysics",
    "Header",
    "Kinematics",
    "Packet",
    "PacketKind",
    "PhysicsControl",
    "PlatformTime",
    "Position",
    "Record",
    "Recording",
    "Rotator",
    "SceneLight",
    "TrafficLightState",
    "TrafficLightTime",
    "TriggerVolume",
    "Vec3",
    "VehicleDoor",
    "VehicleLight",
    "VisualTime",
    "WalkerBone",
    "WalkerBones",
    "WheelAnim",
    "WheelPhysics",
]


class PacketKind(enum.IntEnum):
    """What a packet means, independent of the id a given CARLA release wrote.

    The values are the ids of the 0.9.16 numbering; ``variants.py`` maps the
    on-disk id of each variant to a kind. ``RAW`` is any id the variant does not
    define (the document reserves ids >= 100 for user packets); its payload is
    kept as bytes.
    """

    FRAME_START = 0
    FRAME_END = 1
    EVENT_ADD = 2
    EVENT_DEL = 3
    EVENT_PARENT = 4
    COLLISION = 5
    POSITION = 6
    STATE = 7
    ANIM_VEHICLE = 8
    ANIM_WALKER = 9
    VEHICLE_LIGHT = 10
    SCENE_LIGHT = 11
    KINEMATICS = 12
    BOUNDING_BOX = 13
    PLATFORM_TIME = 14
    PHYSICS_CONTROL = 15
    TRAFFIC_LIGHT_TIME = 16
    TRIGGER_VOLUME = 17
    FRAME_COUNTER = 18
    WALKER_BONES = 19
    VISUAL_TIME = 20
    ANIM_VEHICLE_WHEELS = 21
    ANIM_BIKER = 22
    VEHICLE_DOOR = 23
    RAW = 255

    @property
    def label(self) -> str:
        """CamelCase name used in structural paths (``packet[3]:Position``)."""
        return _LABELS[self]


_LABELS = {k: "".join(part.capitalize() for part in k.name.split("_")) for k in PacketKind}


# --- small value types --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Vec3:
    """An FVector: 3 x f32 in UE4 builds, 3 x f64 in UE5 builds."""

    x: float
    y: float
    z: float


@dataclass(frozen=True, slots=True)
class Rotator:
    """``FQuat::Euler()`` as written by CARLA: roll, pitch, yaw, in degrees."""

    roll: float
    pitch: float
    yaw: float


@dataclass(frozen=True, slots=True)
class Color:
    """FLinearColor, always 4 x f32 (also in UE5 builds)."""

    r: float
    g: float
    b: float
    a: float


# --- info header --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Header:
    """The info header. ``date`` is seconds since 1970-01-01 UTC (not 1900)."""

    version: int
    magic: str
    date: int
    map_name: str


# --- packets without a record count ------------------------------------------


@dataclass(frozen=True, slots=True)
class FrameStart:
    frame_id: int
    duration_this: float
    elapsed: float


@dataclass(frozen=True, slots=True)
class FrameEnd:
    pass


@dataclass(frozen=True, slots=True)
class PlatformTime:
    time: float


@dataclass(frozen=True, slots=True)
class VisualTime:
    time: float


@dataclass(frozen=True, slots=True)
class FrameCounter:
    frame_counter: int


# --- records of counted packets ----------------------------------------------


@dataclass(frozen=True, slots=True)
class ActorAttribute:
    type: int
    id: str
    value: str


@dataclass(frozen=True, slots=True)
class EventAdd:
    database_id: int
    type: int
    location: Vec3
    rotation: Rotator
    description_uid: int
    description_id: str
    attributes: tuple[ActorAttribute, ...] = ()


@dataclass(frozen=True, slots=True)
class EventDel:
    database_id: int


@dataclass(frozen=True, slots=True)
class EventParent:
    database_id: int
    database_id_parent: int


@dataclass(frozen=True, slots=True)
class Collision:
    collision_id: int
    database_id1: int
    database_id2: int
    is_actor1_hero: int
    is_actor2_hero: int


@dataclass(frozen=True, slots=True)
class Position:
    database_id: int
    location: Vec3
    rotation: Rotator


@dataclass(frozen=True, slots=True)
class TrafficLightState:
    database_id: int
    is_frozen: int
    elapsed_time: float
    state: int


@dataclass(frozen=True, slots=True)
class AnimVehicle:
    database_id: int
    steering: float
    throttle: float
    brake: float
    handbrake: int
    gear: int


@dataclass(frozen=True, slots=True)
class AnimWalker:
    database_id: int
    speed: float


@dataclass(frozen=True, slots=True)
class VehicleLight:
    database_id: int
    state: int


@dataclass(frozen=True, slots=True)
class SceneLight:
    light_id: int
    intensity: float
    color: Color
    is_on: int
    light_group: int


@dataclass(frozen=True, slots=True)
class Kinematics:
    database_id: int
    linear_velocity: Vec3
    angular_velocity: Vec3


@dataclass(frozen=True, slots=True)
class BoundingBox:
    database_id: int
    origin: Vec3
    extent: Vec3


@dataclass(frozen=True, slots=True)
class CurvePoint:
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class GearPhysics:
    ratio: float
    down_ratio: float
    up_ratio: float


@dataclass(frozen=True, slots=True)
class WheelPhysics:
    """WheelPhysicsControl. The three stiffness fields exist from 0.9.12 on
    (48-byte records); in 0.9.10-0.9.11 (36-byte records) they are ``None``."""

    tire_friction: float
    damping_rate: float
    max_steer_angle: float
    radius: float
    max_brake_torque: float
    max_handbrake_torque: float
    lat_stiff_max_load: float | None
    lat_stiff_value: float | None
    long_stiff_value: float | None
    position: Vec3


@dataclass(frozen=True, slots=True)
class PhysicsControl:
    database_id: int
    max_rpm: float
    moi: float
    damping_rate_full_throttle: float
    damping_rate_zero_throttle_clutch_engaged: float
    damping_rate_zero_throttle_clutch_disengaged: float
    use_gear_autobox: int
    clutch_strength: float
    final_ratio: float
    mass: float
    drag_coefficient: float
    center_of_mass: Vec3
    torque_curve: tuple[CurvePoint, ...]
    forward_gears: tuple[GearPhysics, ...]
    steering_curve: tuple[CurvePoint, ...]
    wheels: tuple[WheelPhysics, ...]


@dataclass(frozen=True, slots=True)
class TrafficLightTime:
    database_id: int
    green_time: float
    yellow_time: float
    red_time: float


@dataclass(frozen=True, slots=True)
class TriggerVolume:
    database_id: int
    origin: Vec3
    extent: Vec3


@dataclass(frozen=True, slots=True)
class WalkerBone:
    name: str
    location: Vec3
    rotation: Rotator


@dataclass(frozen=True, slots=True)
class WalkerBones:
    database_id: int
    bones: tuple[WalkerBone, ...]


@dataclass(frozen=True, slots=True)
class WheelAnim:
    location: int
    steering_angle: float
    tire_rotation: float


@dataclass(frozen=True, slots=True)
class AnimVehicleWheels:
    database_id: int
    wheels: tuple[WheelAnim, ...]


@dataclass(frozen=True, slots=True)
class AnimBiker:
    database_id: int
    forward_speed: float
    engine_rotation: float


@dataclass(frozen=True, slots=True)
class VehicleDoor:
    database_id: int
    door: int
    is_open: int


Fixed = FrameStart | FrameEnd | PlatformTime | VisualTime | FrameCounter
Record = (
    EventAdd | EventDel | EventParent | Collision | Position | TrafficLightState | AnimVehicle
    | AnimWalker | VehicleLight | SceneLight | Kinematics | BoundingBox | PhysicsControl
    | TrafficLightTime | TriggerVolume | WalkerBones | AnimVehicleWheels | AnimBiker | VehicleDoor
)


@dataclass(frozen=True, slots=True)
class Packet:
    """One packet.

    ``body`` is, by kind:

    * FrameStart, FrameEnd, PlatformTime, VisualTime, FrameCounter: the one
      fixed value (these packets have no record count);
    * every counted kind: a tuple of records;
    * ``RAW``: the payload bytes, kept as they are.

    ``packet_id`` is the id on disk. It is required for ``RAW`` packets and
    optional otherwise (the encoder takes it from the variant's id map).
    """

    kind: PacketKind
    body: Fixed | tuple[Record, ...] | bytes
    packet_id: int | None = None


@dataclass(frozen=True, slots=True)
class Recording:
    """A whole log: the header and its packets in file order.

    Frames are a view over the packets (``recspec.reference.carla.frames``),
    not the storage, so that a log with broken bracketing still round-trips.
    """

    header: Header
    packets: tuple[Packet, ...] = field(default_factory=tuple)


#: The model class of the one value a fixed packet holds (the packets that are not record lists).
FIXED_VALUE_CLASSES: dict[PacketKind, type] = {
    PacketKind.FRAME_START: FrameStart, PacketKind.FRAME_END: FrameEnd, PacketKind.PLATFORM_TIME: PlatformTime,
    PacketKind.VISUAL_TIME: VisualTime, PacketKind.FRAME_COUNTER: FrameCounter,
}
#: The model class of one record of each record-list packet.
RECORD_CLASSES: dict[PacketKind, type] = {
    PacketKind.EVENT_ADD: EventAdd, PacketKind.EVENT_DEL: EventDel, PacketKind.EVENT_PARENT: EventParent,
    PacketKind.COLLISION: Collision, PacketKind.POSITION: Position, PacketKind.STATE: TrafficLightState,
    PacketKind.ANIM_VEHICLE: AnimVehicle, PacketKind.ANIM_WALKER: AnimWalker,
    PacketKind.VEHICLE_LIGHT: VehicleLight, PacketKind.SCENE_LIGHT: SceneLight,
    PacketKind.KINEMATICS: Kinematics, PacketKind.BOUNDING_BOX: BoundingBox,
    PacketKind.PHYSICS_CONTROL: PhysicsControl, PacketKind.TRAFFIC_LIGHT_TIME: TrafficLightTime,
    PacketKind.TRIGGER_VOLUME: TriggerVolume, PacketKind.WALKER_BONES: WalkerBones,
    PacketKind.ANIM_VEHICLE_WHEELS: AnimVehicleWheels, PacketKind.ANIM_BIKER: AnimBiker,
    PacketKind.VEHICLE_DOOR: VehicleDoor,
}
