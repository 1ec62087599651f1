"""The CARLA fields the rules judge (conformance/carla/_fields.py) and CARLA-FRAME-011's message
(conformance/carla/_always.py), on logs put together from the layouts in docs/formats/carla.md
(tests/build_carla.py):

* AnimVehicle (id 8 from 0.9.6), 21-byte records: u32 actor id, f32 steering, throttle and brake, the
  handbrake bool at 16, an i32 gear;
* SceneLight (id 11 from 0.9.10), 26-byte records: i32 light id, f32 intensity, 4 x f32 colour, the
  "on" bool at 24, the u8 light group at 25 (0 None .. 4 Other: CARLA-ENUM-004);
* VehicleDoor (id 23 in 0.9.16), 6-byte records: u32 actor id, the u8 door at 4 (0 front left .. 6 all:
  CARLA-ENUM-003), the "open" bool at 5.

A flag that is not 0 or 1 is CARLA-VALUE-001, reported at the record (its offset and size) under the
field's name; the fields beside it hold values a wrong field index would judge (a brake of 0.5, an alpha
of 0.5, a door that is not a flag).
"""

from __future__ import annotations

import struct

import pytest
from build_carla import FE, POSITION, STATE, actor, both, counted, found, frame, log, offsets

from recspec.reference.carla import VARIANTS
from recspec.reference.carla import PacketKind as K

NEW = "0.9.16"
IDS = VARIANTS[NEW].id_of
EVENT_ADD = IDS[K.EVENT_ADD]


def anim_vehicle(actor_id: int, handbrake: int) -> bytes:
    return struct.pack("<IfffBi", actor_id, 0.25, 1.0, 0.5, handbrake, 1)


def scene_light(light: int, on: int, group: int) -> bytes:
    return struct.pack("<ifffffBB", light, 1000.0, 1.0, 1.0, 1.0, 0.5, on, group)


def vehicle_door(actor_id: int, door: int, is_open: int) -> bytes:
    return struct.pack("<IBB", actor_id, door, is_open)


def _one_frame(kind: K, record: bytes) -> tuple[bytes, int, str]:
    """A 0.9.16 log of one frame: actor 5 added, then one packet of ``kind`` holding ``record``; with the
    record's offset (after the packet's 5-byte header and u16 count) and its path."""
    data = log(frame(1, counted(EVENT_ADD, [actor(5)]), counted(IDS[kind], [record]), last=True))
    at = offsets(data)[2]  # FrameStart, EventAdd, the packet
    assert data[at] == IDS[kind]
    return data, at + 5 + 2, f"frame[0]/packet[2]:{kind.label}/record[0]"


def test_the_handbrake_is_a_flag() -> None:
    data, rec, path = _one_frame(K.ANIM_VEHICLE, anim_vehicle(5, 2))
    assert found(both(data, NEW), "CARLA-VALUE-001") == [(rec, 21, f"{path}.handbrake")]
    data, rec, path = _one_frame(K.ANIM_VEHICLE, anim_vehicle(5, 1))
    assert found(both(data, NEW), "CARLA-VALUE-001") == []


def test_a_scene_lights_on_is_a_flag() -> None:
    data, rec, path = _one_frame(K.SCENE_LIGHT, scene_light(3, 2, 0))
    assert found(both(data, NEW), "CARLA-VALUE-001") == [(rec, 26, f"{path}.is_on")]


@pytest.mark.parametrize(("group", "fires"), [(0, False), (4, False), (5, True), (6, True)])
def test_light_groups_are_0_to_4(group: int, fires: bool) -> None:
    data, rec, path = _one_frame(K.SCENE_LIGHT, scene_light(3, 1, group))
    report = both(data, NEW)
    assert found(report, "CARLA-ENUM-004") == ([(rec, 26, f"{path}.light_group")] if fires else [])
    assert found(report, "CARLA-VALUE-001") == []


@pytest.mark.parametrize(("door", "fires"), [(0, False), (2, False), (6, False), (7, True), (8, True)])
def test_doors_are_0_to_6(door: int, fires: bool) -> None:
    """The door byte of a closed door (open 0): only the door's value decides (a door of 2 is in range,
    and no flag)."""
    data, rec, path = _one_frame(K.VEHICLE_DOOR, vehicle_door(5, door, 0))
    report = both(data, NEW)
    assert found(report, "CARLA-ENUM-003") == ([(rec, 6, f"{path}.door")] if fires else [])
    assert found(report, "CARLA-VALUE-001") == []


# --- CARLA-FRAME-011's message: the missing kinds in the writer's order, "it" for one, "them" for more -------


def test_one_missing_packet_is_named_it() -> None:
    """A 0.9.4-0.9.5 frame with Position but no State (0.9.4 writes both in every frame)."""
    data = log(frame(1, counted(POSITION, []), last=True))
    report = both(data)
    frame_end = offsets(data)[-1]
    assert data[frame_end] == FE
    assert [(f.offset, f.message) for f in report.findings if f.rule == "CARLA-FRAME-011"] == [
        (frame_end, "frame lacks State: CARLA 0.9.4-0.9.5 writes it in every frame")]


def test_missing_packets_are_named_them_in_the_writers_order() -> None:
    """A 0.9.4-0.9.5 frame with neither Position nor State: Position comes first in the writer's order."""
    data = log(frame(1, last=True))
    report = both(data)
    assert [f.message for f in report.findings if f.rule == "CARLA-FRAME-011"] == [
        "frame lacks Position, State: CARLA 0.9.4-0.9.5 writes them in every frame"]
    data = log(frame(1, counted(STATE, []), last=True))
    assert [f.message for f in both(data).findings if f.rule == "CARLA-FRAME-011"] == [
        "frame lacks Position: CARLA 0.9.4-0.9.5 writes it in every frame"]
