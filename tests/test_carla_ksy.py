"""The Kaitai parser generated from ksy/carla_recorder.ksy (recspec/_ksy/carla_recorder.py).

Two groups (the drift of every generated parser is tests/test_ksy_drift.py):

* hand-built bytes: small logs packed with ``struct`` right here, one table of
  cases over the variants, plus the payload-size and magic checks;
* real logs from ``../shared/real/`` parsed completely, asserting the facts in
  its PROVENANCE.md (skipped, with the reason, when that folder is absent).
"""

from __future__ import annotations

import dataclasses
import itertools
import struct
from collections import Counter
from io import BytesIO
from typing import Any

import pytest
from kaitaistruct import (
    EndOfStreamError,
    KaitaiStream,
    KaitaiStruct,
    KaitaiStructError,
    ValidationExprError,
)

from helpers import real_file
from recspec._ksy.carla_recorder import CarlaRecorder
from recspec.reference import carla as model
from recspec.reference.carla import VARIANTS

CARLA_0910 = "carla_0910_DistanceToLaneCenter.log"
CARLA_0915 = "carla_0915_crash.log"

V = CarlaRecorder.Variant
K = CarlaRecorder.PacketKind

# The zero-size seq field that closes every typed payload (see the ksy doc).
END_CHECK = "end_of_payload"


# --- helpers -------------------------------------------------------------------


def parse_file(data: bytes, variant: int) -> CarlaRecorder:
    log = CarlaRecorder(variant, KaitaiStream(BytesIO(data)))
    log._read()
    return log


def parse_packet(data: bytes, variant: int) -> CarlaRecorder.Packet:
    packet = CarlaRecorder.Packet(variant, KaitaiStream(BytesIO(data)))
    packet._read()
    return packet


def plain(obj: Any) -> Any:
    """A parsed object as dicts/lists/scalars; strings collapse to their text,
    fields skipped by ``if:`` become None, the end check is left out."""
    if isinstance(obj, CarlaRecorder.String):
        return obj.value
    if isinstance(obj, KaitaiStruct):
        return {f: plain(getattr(obj, f, None)) for f in obj.SEQ_FIELDS if f != END_CHECK}
    if isinstance(obj, list):
        return [plain(item) for item in obj]
    return obj


# Little-endian builders, independent of the code under test.


def s(text: str) -> bytes:
    raw = text.encode("utf-8")
    return struct.pack("<H", len(raw)) + raw


def header(map_name: str = "Town06", *, magic: str = "CARLA_RECORDER", date: int = 1599118659) -> bytes:
    return struct.pack("<H", 1) + s(magic) + struct.pack("<q", date) + s(map_name)


def packet(pid: int, payload: bytes) -> bytes:
    return struct.pack("<BI", pid, len(payload)) + payload


def counted(*records: bytes) -> bytes:
    return struct.pack("<H", len(records)) + b"".join(records)


def v3(x: float, y: float, z: float, f64: bool = False) -> bytes:
    return struct.pack("<3d" if f64 else "<3f", x, y, z)


def xyz(x: float, y: float, z: float) -> dict:
    return {"x": x, "y": y, "z": z}


def rpy(roll: float, pitch: float, yaw: float) -> dict:
    return {"roll": roll, "pitch": pitch, "yaw": yaw}


def frame_start(frame_id: int, duration: float, elapsed: float) -> bytes:
    return packet(0, struct.pack("<Qdd", frame_id, duration, elapsed))


FRAME_END = packet(1, b"")

# Values below are exact in f32, so expectations need no rounding.

EVENT_ADD = struct.pack("<IB", 7, 1) + v3(100.5, -20.25, 3.0) + v3(0.0, 1.5, -90.0) + struct.pack("<I", 12) \
    + s("vehicle.tesla.model3") + struct.pack("<H", 2) \
    + struct.pack("<B", 3) + s("role_name") + s("hero") \
    + struct.pack("<B", 4) + s("color") + s("16,16,16")
EVENT_ADD_PLAIN = {
    "database_id": 7, "type": 1, "location": xyz(100.5, -20.25, 3.0), "rotation": rpy(0.0, 1.5, -90.0),
    "description_uid": 12, "description_id": "vehicle.tesla.model3", "num_attributes": 2,
    "attributes": [{"type": 3, "id": "role_name", "value": "hero"}, {"type": 4, "id": "color", "value": "16,16,16"}],
}
EVENT_ADD_UE5 = struct.pack("<IB", 8, 2) + v3(0.1, 0.2, 0.3, True) + v3(1.1, 2.2, 3.3, True) + struct.pack("<I", 0) \
    + s("walker.pedestrian.0001") + struct.pack("<H", 0)


def wheel_physics(stiffness: bool) -> bytes:
    extra = struct.pack("<3f", 3000.0, 17.0, 3000.0) if stiffness else b""
    return struct.pack("<6f", 3.5, 0.25, 70.0, 30.0, 1500.0, 3000.0) + extra + v3(1.0, 2.0, 3.0)


def wheel_physics_plain(stiffness: bool) -> dict:
    return {
        "tire_friction": 3.5, "damping_rate": 0.25, "max_steer_angle": 70.0, "radius": 30.0,
        "max_brake_torque": 1500.0, "max_handbrake_torque": 3000.0,
        "lat_stiff_max_load": 3000.0 if stiffness else None,
        "lat_stiff_value": 17.0 if stiffness else None,
        "long_stiff_value": 3000.0 if stiffness else None,
        "position": xyz(1.0, 2.0, 3.0),
    }


def physics_control(stiffness: bool) -> bytes:
    return (
        struct.pack("<I5fB4f", 42, 5000.0, 1.0, 0.25, 2.0, 0.5, 1, 10.0, 4.0, 1500.0, 0.25)
        + v3(0.0, 0.0, -0.5)
        + struct.pack("<I4f", 2, 0.0, 400.0, 5000.0, 500.0)
        + struct.pack("<I3f", 1, 3.5, 0.5, 0.75)
        + struct.pack("<I2f", 1, 0.0, 1.0)
        + struct.pack("<I", 2) + wheel_physics(stiffness) * 2
    )


def physics_control_plain(stiffness: bool) -> dict:
    return {
        "database_id": 42, "max_rpm": 5000.0, "moi": 1.0, "damping_rate_full_throttle": 0.25,
        "damping_rate_zero_throttle_clutch_engaged": 2.0, "damping_rate_zero_throttle_clutch_disengaged": 0.5,
        "use_gear_autobox": 1, "clutch_strength": 10.0, "final_ratio": 4.0, "mass": 1500.0,
        "drag_coefficient": 0.25, "center_of_mass": xyz(0.0, 0.0, -0.5),
        "num_torque_curve": 2, "torque_curve": [{"x": 0.0, "y": 400.0}, {"x": 5000.0, "y": 500.0}],
        "num_forward_gears": 1, "forward_gears": [{"ratio": 3.5, "down_ratio": 0.5, "up_ratio": 0.75}],
        "num_steering_curve": 1, "steering_curve": [{"x": 0.0, "y": 1.0}],
        "num_wheels": 2, "wheels": [wheel_physics_plain(stiffness)] * 2,
    }


WHEELS = struct.pack("<II", 9, 2) + struct.pack("<Bff", 0, 12.5, 90.0) + struct.pack("<Bff", 1, -12.5, 180.0)
WHEELS_PLAIN = {
    "database_id": 9, "num_wheels": 2,
    "wheels": [
        {"location": 0, "steering_angle": 12.5, "tire_rotation": 90.0},
        {"location": 1, "steering_angle": -12.5, "tire_rotation": 180.0},
    ],
}
BIKER = struct.pack("<Iff", 11, 250.0, 0.5)
BIKER_PLAIN = {"database_id": 11, "forward_speed": 250.0, "engine_rotation": 0.5}
DOOR = struct.pack("<IBB", 9, 5, 1)
DOOR_PLAIN = {"database_id": 9, "door": 5, "is_open": 1}


def bones(f64: bool) -> bytes:
    return struct.pack("<IH", 5, 2) + s("crl_root") + v3(0.0, 0.0, 90.0, f64) + v3(0.0, 0.0, 0.0, f64) \
        + s("crl_hips__C") + v3(1.5, 0.0, 2.0, f64) + v3(0.5, -0.5, 45.0, f64)


BONES_PLAIN = {
    "database_id": 5, "num_bones": 2,
    "bones": [
        {"name": "crl_root", "location": xyz(0.0, 0.0, 90.0), "rotation": rpy(0.0, 0.0, 0.0)},
        {"name": "crl_hips__C", "location": xyz(1.5, 0.0, 2.0), "rotation": rpy(0.5, -0.5, 45.0)},
    ],
}


def records(*items: dict) -> dict:
    return {"num_records": len(items), "records": list(items)}


# (test id, variant, on-disk id, payload, expected kind, expected plain payload)
CASES = [
    ("frame_start", V.v0_9_4, 0, struct.pack("<Qdd", 3, 0.05, 0.1), K.frame_start,
     {"frame_id": 3, "duration_this": 0.05, "elapsed": 0.1}),
    ("frame_end", V.v0_9_4, 1, b"", K.frame_end, {}),
    ("event_add", V.v0_9_4, 2, counted(EVENT_ADD), K.event_add, records(EVENT_ADD_PLAIN)),
    ("event_add_empty", V.v0_9_15, 2, counted(), K.event_add, records()),
    ("event_del", V.v0_9_6, 3, counted(struct.pack("<I", 100), struct.pack("<I", 120)), K.event_del,
     records({"database_id": 100}, {"database_id": 120})),
    ("event_parent", V.v0_9_10, 4, counted(struct.pack("<II", 30, 24)), K.event_parent,
     records({"database_id": 30, "database_id_parent": 24})),
    ("collision", V.v0_9_12, 5, counted(struct.pack("<IIIBB", 3, 174, 0xFFFFFFFF, 1, 0)), K.collision,
     records({"collision_id": 3, "database_id1": 174, "database_id2": 0xFFFFFFFF,
              "is_actor1_hero": 1, "is_actor2_hero": 0})),
    ("position", V.v0_9_15, 6, counted(struct.pack("<I", 24) + v3(10700.0, 5.5, 0.25) + v3(0.0, -1.5, -131.75)),
     K.position,
     records({"database_id": 24, "location": xyz(10700.0, 5.5, 0.25), "rotation": rpy(0.0, -1.5, -131.75)})),
    ("position_ue5", V.ue5, 6, counted(struct.pack("<I", 24) + v3(0.1, 0.2, 0.3, True) + v3(1.1, 2.2, 3.3, True)),
     K.position, records({"database_id": 24, "location": xyz(0.1, 0.2, 0.3), "rotation": rpy(1.1, 2.2, 3.3)})),
    ("event_add_ue5", V.ue5, 2, counted(EVENT_ADD_UE5), K.event_add, records({
        "database_id": 8, "type": 2, "location": xyz(0.1, 0.2, 0.3), "rotation": rpy(1.1, 2.2, 3.3),
        "description_uid": 0, "description_id": "walker.pedestrian.0001", "num_attributes": 0, "attributes": []})),
    ("state", V.v0_9_10, 7, counted(struct.pack("<IBfB", 50, 0, 2.5, 3)), K.state,
     records({"database_id": 50, "is_frozen": 0, "elapsed_time": 2.5, "state": 3})),
    ("anim_vehicle", V.v0_9_6, 8, counted(struct.pack("<IfffBi", 24, -0.5, 1.0, 0.0, 0, -1)), K.anim_vehicle,
     records({"database_id": 24, "steering": -0.5, "throttle": 1.0, "brake": 0.0, "handbrake": 0, "gear": -1})),
    ("anim_walker", V.v0_9_14, 9, counted(struct.pack("<If", 25, 140.0)), K.anim_walker,
     records({"database_id": 25, "speed": 140.0})),
    ("vehicle_light", V.v0_9_10, 10, counted(struct.pack("<II", 24, 0x1 | 0x8)), K.vehicle_light,
     records({"database_id": 24, "state": 9})),
    ("scene_light", V.v0_9_10, 11, counted(struct.pack("<ifffffBB", -3, 50.0, 1.0, 0.5, 0.25, 1.0, 1, 2)),
     K.scene_light, records({"light_id": -3, "intensity": 50.0, "color": {"r": 1.0, "g": 0.5, "b": 0.25, "a": 1.0},
                             "is_on": 1, "light_group": 2})),
    ("kinematics", V.v0_9_12, 12, counted(struct.pack("<I", 24) + v3(1.0, 2.0, 3.0) + v3(0.0, 0.0, 4.5)),
     K.kinematics, records({"database_id": 24, "linear_velocity": xyz(1.0, 2.0, 3.0),
                            "angular_velocity": xyz(0.0, 0.0, 4.5)})),
    ("bounding_box", V.v0_9_12, 13, counted(struct.pack("<I", 24) + v3(0.0, 0.0, 70.0) + v3(230.0, 90.0, 70.0)),
     K.bounding_box, records({"database_id": 24, "origin": xyz(0.0, 0.0, 70.0), "extent": xyz(230.0, 90.0, 70.0)})),
    ("platform_time", V.v0_9_10, 14, struct.pack("<d", 0.125), K.platform_time, {"time": 0.125}),
    ("physics_control_36", V.v0_9_10, 15, counted(physics_control(False)), K.physics_control,
     records(physics_control_plain(False))),
    ("physics_control_48", V.v0_9_12, 15, counted(physics_control(True)), K.physics_control,
     records(physics_control_plain(True))),
    ("traffic_light_time", V.v0_9_14, 16, counted(struct.pack("<I3f", 50, 10.0, 3.0, 2.0)), K.traffic_light_time,
     records({"database_id": 50, "green_time": 10.0, "yellow_time": 3.0, "red_time": 2.0})),
    ("trigger_volume", V.v0_9_14, 17, counted(struct.pack("<I", 60) + v3(1.0, 2.0, 3.0) + v3(4.0, 5.0, 6.0)),
     K.trigger_volume, records({"database_id": 60, "origin": xyz(1.0, 2.0, 3.0), "extent": xyz(4.0, 5.0, 6.0)})),
    ("frame_counter", V.v0_9_14, 18, struct.pack("<Q", 2**63 + 5), K.frame_counter, {"frame_counter": 2**63 + 5}),
    ("walker_bones", V.v0_9_14, 19, counted(bones(False)), K.walker_bones, records(BONES_PLAIN)),
    ("walker_bones_ue5", V.ue5, 19, counted(bones(True)), K.walker_bones, records(BONES_PLAIN)),
    ("visual_time", V.v0_9_15, 20, struct.pack("<d", 737.75), K.visual_time, {"time": 737.75}),
    # Ids 21-23: three numberings.
    ("0.9.15_21_wheels", V.v0_9_15, 21, counted(WHEELS), K.anim_vehicle_wheels, records(WHEELS_PLAIN)),
    ("0.9.15_22_biker", V.v0_9_15, 22, counted(BIKER), K.anim_biker, records(BIKER_PLAIN)),
    ("dev_2023_21_door", V.dev_2023, 21, counted(DOOR), K.vehicle_door, records(DOOR_PLAIN)),
    ("dev_2023_22_wheels", V.dev_2023, 22, counted(WHEELS), K.anim_vehicle_wheels, records(WHEELS_PLAIN)),
    ("dev_2023_23_biker", V.dev_2023, 23, counted(BIKER), K.anim_biker, records(BIKER_PLAIN)),
    ("0.9.16_21_wheels", V.v0_9_16, 21, counted(WHEELS), K.anim_vehicle_wheels, records(WHEELS_PLAIN)),
    ("0.9.16_22_biker", V.v0_9_16, 22, counted(BIKER), K.anim_biker, records(BIKER_PLAIN)),
    ("0.9.16_23_door", V.v0_9_16, 23, counted(DOOR), K.vehicle_door, records(DOOR_PLAIN)),
    ("ue5_21_door", V.ue5, 21, counted(DOOR), K.vehicle_door, records(DOOR_PLAIN)),
    # Raw: ids the variant does not define, user ids, and UE5 PhysicsControl.
    ("0.9.4_8_raw", V.v0_9_4, 8, b"\x01\x02\x03", K.raw, b"\x01\x02\x03"),
    ("0.9.6_10_raw", V.v0_9_6, 10, b"", K.raw, b""),
    ("0.9.12_20_raw", V.v0_9_12, 20, b"\xff" * 9, K.raw, b"\xff" * 9),
    ("0.9.15_23_raw", V.v0_9_15, 23, counted(DOOR), K.raw, counted(DOOR)),
    ("user_139_raw", V.v0_9_16, 139, b"DReyeVR", K.raw, b"DReyeVR"),
    ("ue5_15_raw", V.ue5, 15, b"\x00" * 5, K.raw, b"\x00" * 5),
]


# --- 1. hand-built bytes -----------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "pid", "payload", "kind", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_packet(variant: int, pid: int, payload: bytes, kind: int, expected: Any) -> None:
    for code in (variant, int(variant)):  # the enum member and the bare code both work
        parsed = parse_packet(packet(pid, payload), code)
        assert parsed.id == pid
        assert parsed.len_payload == len(payload)
        assert parsed.kind == kind
        assert plain(parsed.payload) == expected
        assert parsed._root is None
        assert parsed._debug["payload"] == {"start": 5, "end": 5 + len(payload)}


TYPED_CASES = [case for case in CASES if case[4] != K.raw]


@pytest.mark.parametrize(
    ("variant", "pid", "payload"),
    [case[1:4] for case in TYPED_CASES],
    ids=[case[0] for case in TYPED_CASES],
)
def test_payload_longer_than_its_layout_is_rejected(variant: int, pid: int, payload: bytes) -> None:
    with pytest.raises(ValidationExprError) as info:
        parse_packet(packet(pid, payload + b"\x00"), variant)
    # The error points at the end of the layout inside the payload substream.
    assert info.value.io.pos() == len(payload)
    assert info.value.src_path.startswith("/types/")


@pytest.mark.parametrize(
    ("variant", "pid", "payload"),
    [case[1:4] for case in TYPED_CASES if case[3]],
    ids=[case[0] for case in TYPED_CASES if case[3]],
)
def test_payload_shorter_than_its_layout_is_rejected(variant: int, pid: int, payload: bytes) -> None:
    with pytest.raises(EndOfStreamError):
        parse_packet(packet(pid, payload[:-1]), variant)


def test_record_count_larger_than_the_payload_is_rejected() -> None:
    payload = struct.pack("<H", 2) + struct.pack("<I", 100)  # EventDel claims 2 records, holds 1
    with pytest.raises(EndOfStreamError):
        parse_packet(packet(3, payload), V.v0_9_15)


def test_wheel_layout_follows_the_variant() -> None:
    # 36-byte wheels read as 48-byte ones (and back) must not parse.
    with pytest.raises(KaitaiStructError):
        parse_packet(packet(15, counted(physics_control(False))), V.v0_9_12)
    with pytest.raises(KaitaiStructError):
        parse_packet(packet(15, counted(physics_control(True))), V.v0_9_10)


def test_ue5_vectors_are_rejected_by_a_ue4_variant() -> None:
    ue5_position = counted(struct.pack("<I", 24) + v3(0.1, 0.2, 0.3, True) + v3(1.1, 2.2, 3.3, True))
    with pytest.raises(ValidationExprError):
        parse_packet(packet(6, ue5_position), V.v0_9_16)


def _small_log(map_name: str = "Town06", magic: str = "CARLA_RECORDER") -> bytes:
    return (
        header(map_name, magic=magic)
        + frame_start(1, 0.05, 0.0)
        + packet(2, counted(EVENT_ADD))
        + packet(3, counted())
        + packet(6, counted(struct.pack("<I", 7) + v3(1.0, 2.0, 3.0) + v3(0.0, 0.0, 45.0)))
        + FRAME_END
        + frame_start(2, -1.0, 0.05)
        + packet(3, counted(struct.pack("<I", 7)))
        + packet(8, b"\x00\x01")  # undefined in 0.9.4
        + FRAME_END
    )


def test_whole_small_log() -> None:
    data = _small_log()
    log = parse_file(data, V.v0_9_4)
    assert plain(log.header) == {
        "version": 1, "magic": "CARLA_RECORDER", "date": 1599118659, "map_name": "Town06",
    }
    assert log._debug["header"] == {"start": 0, "end": 34}
    assert [p.kind for p in log.packets] == [
        K.frame_start, K.event_add, K.event_del, K.position, K.frame_end,
        K.frame_start, K.event_del, K.raw, K.frame_end,
    ]
    assert plain(log.packets[1].payload) == records(EVENT_ADD_PLAIN)
    assert log.packets[7].payload == b"\x00\x01"
    assert log._debug["packets"]["end"] == len(data)


def test_packet_by_packet_from_one_stream() -> None:
    data = _small_log()
    io = KaitaiStream(BytesIO(data))
    head = CarlaRecorder.Header(io)
    head._read()
    assert head._root is None
    assert head.map_name.value == "Town06"
    kinds = []
    while not io.is_eof():
        p = CarlaRecorder.Packet(1, io)
        p._read()
        kinds.append(p.kind)
    assert kinds == [p.kind for p in parse_file(data, 1).packets]


@pytest.mark.parametrize("magic", ["CARLA_RECORDEr", "CARLA_RECORDER ", "", "carla_recorder"])
def test_wrong_magic_is_rejected(magic: str) -> None:
    with pytest.raises(ValidationExprError) as info:
        parse_file(_small_log(magic=magic), V.v0_9_4)
    assert info.value.src_path == "/types/header/seq/1"


def test_truncated_log_is_rejected() -> None:
    data = _small_log()
    with pytest.raises(EndOfStreamError):
        parse_file(data[:-3], V.v0_9_4)


def test_packet_kind_table_matches_the_reference_variants() -> None:
    """`packet.kind` maps every id exactly like reference/carla/_variants.py."""
    assert sorted(int(v) for v in V) == sorted(v.code for v in VARIANTS.values())
    assert {k.name.lower(): int(k) for k in model.PacketKind} == {k.name: int(k) for k in K}
    for variant in VARIANTS.values():
        for pid in range(256):
            p = CarlaRecorder.Packet(variant.code, KaitaiStream(BytesIO(b"")))
            p.id = pid  # `kind` is a value instance computed from `id` and the variant
            expected = variant.ids.get(pid, model.PacketKind.RAW)
            if expected == model.PacketKind.PHYSICS_CONTROL and variant.wheel_physics_size is None:
                expected = model.PacketKind.RAW
            assert int(p.kind) == int(expected), (variant.name, pid)


def _kaitai_model_pairs() -> list[tuple[type, type]]:
    C = CarlaRecorder
    return [
        (C.Header, model.Header), (C.FrameStart, model.FrameStart), (C.FrameEnd, model.FrameEnd),
        (C.PlatformTime, model.PlatformTime), (C.VisualTime, model.VisualTime),
        (C.FrameCounter, model.FrameCounter), (C.Vec3, model.Vec3), (C.Rotator, model.Rotator),
        (C.Color, model.Color), (C.EventAdd, model.EventAdd), (C.ActorAttribute, model.ActorAttribute),
        (C.EventDel, model.EventDel), (C.EventParent, model.EventParent), (C.Collision, model.Collision),
        (C.Position, model.Position), (C.TrafficLight, model.TrafficLightState),
        (C.AnimVehicle, model.AnimVehicle), (C.AnimWalker, model.AnimWalker),
        (C.VehicleLight, model.VehicleLight), (C.SceneLight, model.SceneLight),
        (C.Kinematics, model.Kinematics), (C.BoundingBox, model.BoundingBox),
        (C.PhysicsControl, model.PhysicsControl), (C.CurvePoint, model.CurvePoint),
        (C.GearPhysics, model.GearPhysics), (C.WheelPhysics, model.WheelPhysics),
        (C.TrafficLightTime, model.TrafficLightTime), (C.TriggerVolume, model.TriggerVolume),
        (C.WalkerBones, model.WalkerBones), (C.WalkerBone, model.WalkerBone),
        (C.AnimVehicleWheels, model.AnimVehicleWheels), (C.WheelAnim, model.WheelAnim),
        (C.AnimBiker, model.AnimBiker), (C.VehicleDoor, model.VehicleDoor),
    ]


@pytest.mark.parametrize(("kaitai", "dataclass"), _kaitai_model_pairs(), ids=lambda t: t.__name__)
def test_seq_field_names_equal_model_field_names(kaitai: type, dataclass: type) -> None:
    seq = [f for f in kaitai.SEQ_FIELDS if f != END_CHECK and not f.startswith(("num_", "len_"))]
    assert seq == [f.name for f in dataclasses.fields(dataclass)]


# --- 2. real logs -------------------------------------------------------------------


def _real(name: str) -> bytes:
    return real_file(name).read_bytes()


@pytest.fixture(scope="module")
def log_0910() -> tuple[bytes, CarlaRecorder]:
    data = _real(CARLA_0910)
    return data, parse_file(data, V.v0_9_10)


@pytest.fixture(scope="module")
def log_0915() -> tuple[bytes, CarlaRecorder]:
    data = _real(CARLA_0915)
    return data, parse_file(data, V.v0_9_15)


def _records(log: CarlaRecorder, kind: int) -> list:
    return [r for p in log.packets if p.kind == kind for r in p.payload.records]


def _check_frames(log: CarlaRecorder, n_frames: int) -> list:
    starts = [p.payload for p in log.packets if p.kind == K.frame_start]
    assert [f.frame_id for f in starts] == list(range(1, n_frames + 1))
    # Each frame is bracketed FrameStart ... FrameEnd.
    depth = 0
    for p in log.packets:
        if p.kind == K.frame_start:
            assert depth == 0
            depth = 1
        elif p.kind == K.frame_end:
            assert depth == 1
            depth = 0
        else:
            assert depth == 1
    assert depth == 0
    assert starts[0].elapsed == 0.0
    for prev, cur in itertools.pairwise(starts):
        assert cur.elapsed == prev.elapsed + prev.duration_this  # exact, as CARLA accumulates
    assert starts[-1].duration_this == -1.0
    return starts


@pytest.mark.requires_real_samples
def test_real_0910_log(log_0910: tuple[bytes, CarlaRecorder]) -> None:
    data, log = log_0910
    assert len(data) == 283_543
    assert plain(log.header) == {"version": 1, "magic": "CARLA_RECORDER", "date": 1599118659, "map_name": "Town01"}
    assert log._debug["header"]["end"] == 34
    assert log._debug["packets"]["end"] == len(data)  # ends exactly at a packet boundary
    assert len(log.packets) == 6_456
    assert {p.id for p in log.packets} == set(range(17))
    assert K.raw not in {p.kind for p in log.packets}
    starts = _check_frames(log, 461)
    assert starts[-1].elapsed == 15.880943656899035

    adds = _records(log, K.event_add)
    assert len(adds) == 183
    assert len({a.database_id for a in adds}) == 183
    assert Counter(a.type for a in adds) == {0: 125, 1: 1, 3: 36, 4: 21}
    heroes = [a.database_id for a in adds if any(x.id.value == "role_name" and x.value.value == "hero"
                                                 for x in a.attributes)]
    assert heroes == [259]
    assert len(_records(log, K.event_del)) == 5
    assert len(_records(log, K.position)) == 460
    assert len(_records(log, K.collision)) == 0

    # 36-byte wheels in 0.9.10: the stiffness fields are absent.
    physics = _records(log, K.physics_control)
    spans = [e["end"] - e["start"] for record in physics for e in record._debug["wheels"]["arr"]]
    assert spans and set(spans) == {36}
    assert all(plain(w)["lat_stiff_value"] is None for record in physics for w in record.wheels)


@pytest.mark.requires_real_samples
def test_real_0910_log_rejects_the_48_byte_wheel_layout() -> None:
    with pytest.raises(KaitaiStructError):
        parse_file(_real(CARLA_0910), V.v0_9_12)


@pytest.mark.requires_real_samples
def test_real_0915_log(log_0915: tuple[bytes, CarlaRecorder]) -> None:
    data, log = log_0915
    assert len(data) == 306_828
    assert plain(log.header) == {"version": 1, "magic": "CARLA_RECORDER", "date": 1702698119, "map_name": "Town05"}
    assert log._debug["packets"]["end"] == len(data)
    assert len(log.packets) == 2_212
    assert {p.id for p in log.packets} == {*range(11), 20, 21, 22}
    assert K.raw not in {p.kind for p in log.packets}
    starts = _check_frames(log, 158)
    assert starts[-1].elapsed == 4.74132364615798

    visual = [p.payload.time for p in log.packets if p.kind == K.visual_time]
    assert visual[0] == 737.7792997732759
    assert len(_records(log, K.event_add)) == 128
    assert len(_records(log, K.event_del)) == 0
    assert len(_records(log, K.position)) == 1_974
    assert len(_records(log, K.collision)) == 0
    wheels = _records(log, K.anim_vehicle_wheels)
    assert wheels and all(w.num_wheels == 4 and len(w.wheels) == 4 for w in wheels)
    assert {p.kind for p in log.packets if p.id == 22} == {K.anim_biker}


@pytest.mark.requires_real_samples
def test_real_0915_log_packet_by_packet(log_0915: tuple[bytes, CarlaRecorder]) -> None:
    _, whole = log_0915
    with real_file(CARLA_0915).open("rb") as f:
        io = KaitaiStream(f)
        head = CarlaRecorder.Header(io)
        head._read()
        n = 0
        while not io.is_eof():
            p = CarlaRecorder.Packet(V.v0_9_15, io)
            p._read()
            assert p.kind == whole.packets[n].kind
            n += 1
    assert n == len(whole.packets)


@pytest.mark.requires_real_samples
def test_real_0915_log_rejects_the_dev_2023_numbering() -> None:
    # Under dev-2023, id 21 is VehicleDoor (6-byte records): the 0.9.15 wheel records do not fit.
    with pytest.raises(ValidationExprError):
        parse_file(_real(CARLA_0915), V.dev_2023)
