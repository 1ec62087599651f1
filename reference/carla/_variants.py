"""The CARLA recorder variants: packet-id maps, vector width, wheel layout.

The header version is 1 in every CARLA release, so nothing in the header says
which numbering a file uses (research notes, section 4). A variant is the
combination of the three things that change the bytes:

* which on-disk packet id means which packet (ids were renumbered twice after
  0.9.15);
* the width of an FVector (3 x f32 in UE4 builds, 3 x f64 in UE5 builds);
* the size of a WheelPhysicsControl record inside PhysicsControl (36 bytes up
  to 0.9.11, 48 bytes from 0.9.12).

The table below is the single source of truth; the Kaitai spec receives the
same choices through its ``variant`` parameter, whose codes are ``Variant.code``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ._model import PacketKind as K

__all__ = ["VARIANTS", "Variant", "variant_by_code", "variant_by_name"]


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    code: int
    title: str
    ids: Mapping[int, K]
    vec_f64: bool
    wheel_physics_size: int | None  # None: PhysicsControl kept as raw bytes (UE5)
    actor_types: int  # number of valid actor-type values (the last one is INVALID)
    traffic_light_states: int
    attribute_types: tuple[int, ...]

    @property
    def id_of(self) -> Mapping[K, int]:
        return _ID_OF[self.name]

    @property
    def vec_size(self) -> int:
        return 24 if self.vec_f64 else 12


def _ids(*groups: tuple[int, K]) -> Mapping[int, K]:
    return MappingProxyType(dict(groups))


_BASE_0_7 = tuple((k.value, k) for k in (
    K.FRAME_START, K.FRAME_END, K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT,
    K.COLLISION, K.POSITION, K.STATE,
))
_ANIM_8_9 = ((8, K.ANIM_VEHICLE), (9, K.ANIM_WALKER))
_ADDITIONAL_10_17 = tuple((k.value, k) for k in (
    K.VEHICLE_LIGHT, K.SCENE_LIGHT, K.KINEMATICS, K.BOUNDING_BOX, K.PLATFORM_TIME,
    K.PHYSICS_CONTROL, K.TRAFFIC_LIGHT_TIME, K.TRIGGER_VOLUME,
))
_V0914_18_20 = ((18, K.FRAME_COUNTER), (19, K.WALKER_BONES), (20, K.VISUAL_TIME))
_UP_TO_0914 = _BASE_0_7 + _ANIM_8_9 + _ADDITIONAL_10_17 + _V0914_18_20

# Research notes, section 4, "Packet id table".
_TABLE = (
    Variant("0.9.4-0.9.5", 1, "CARLA 0.9.4 and 0.9.5", _ids(*_BASE_0_7),
            False, None, 5, 3, (0, 1, 2, 3, 4)),
    Variant("0.9.6-0.9.9", 2, "CARLA 0.9.6 to 0.9.9", _ids(*_BASE_0_7, *_ANIM_8_9),
            False, None, 6, 3, (0, 1, 2, 3, 4)),
    Variant("0.9.10-0.9.11", 3, "CARLA 0.9.10 and 0.9.11 (36-byte wheel physics)",
            _ids(*_BASE_0_7, *_ANIM_8_9, *_ADDITIONAL_10_17), False, 36, 6, 4, (0, 1, 2, 3, 4)),
    Variant("0.9.12-0.9.13", 4, "CARLA 0.9.12 and 0.9.13 (48-byte wheel physics)",
            _ids(*_BASE_0_7, *_ANIM_8_9, *_ADDITIONAL_10_17), False, 48, 7, 4, (0, 1, 2, 3, 4)),
    Variant("0.9.14", 5, "CARLA 0.9.14 (VisualTime, WalkerBones)", _ids(*_UP_TO_0914),
            False, 48, 7, 4, (0, 1, 2, 3, 4)),
    Variant("0.9.15", 6, "CARLA 0.9.15 (21 wheels, 22 biker)",
            _ids(*_UP_TO_0914, (21, K.ANIM_VEHICLE_WHEELS), (22, K.ANIM_BIKER)),
            False, 48, 7, 4, (0, 1, 2, 3, 4)),
    Variant("dev-2023", 7, "ue4-dev numbering Nov 2023 to Mar 2025 (21 door, 22 wheels, 23 biker)",
            _ids(*_UP_TO_0914, (21, K.VEHICLE_DOOR), (22, K.ANIM_VEHICLE_WHEELS), (23, K.ANIM_BIKER)),
            False, 48, 7, 4, (1, 2, 3, 4, 5)),
    Variant("0.9.16", 8, "CARLA 0.9.16 (21 wheels, 22 biker, 23 door)",
            _ids(*_UP_TO_0914, (21, K.ANIM_VEHICLE_WHEELS), (22, K.ANIM_BIKER), (23, K.VEHICLE_DOOR)),
            False, 48, 7, 4, (1, 2, 3, 4, 5)),
    Variant("ue5", 9, "UE5 builds (CARLA 0.10.x): 3 x f64 vectors, door 21/wheels 22/biker 23",
            _ids(*_UP_TO_0914, (21, K.VEHICLE_DOOR), (22, K.ANIM_VEHICLE_WHEELS), (23, K.ANIM_BIKER)),
            True, None, 7, 4, (0, 1, 2, 3, 4, 5)),
)

VARIANTS: Mapping[str, Variant] = MappingProxyType({v.name: v for v in _TABLE})
_BY_CODE = {v.code: v for v in _TABLE}
_ID_OF = {v.name: MappingProxyType({k: i for i, k in v.ids.items()}) for v in _TABLE}


def variant_by_name(name: str) -> Variant:
    """Look a variant up by its name (``"0.9.15"``); ``KeyError`` if unknown."""
    return VARIANTS[name]


def variant_by_code(code: int) -> Variant:
    return _BY_CODE[code]
