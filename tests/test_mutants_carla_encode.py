"""The bytes reference/carla/_encode.py writes, against packets laid out by hand with
``struct.pack`` from the research notes (docs/formats/carla.md): the frame timing of CARLA's
recorder (FrameStart written with durationThis -1.0, the previous frame's durationThis patched
with the new tick's delta, the first frame at elapsed 0, the last keeping -1.0), a SceneLight
record, a PhysicsControl record with 36- and 48-byte wheels, a FrameEnd, a whole log, and the
u16 limits of a string's length and of a packet's record count. Written against mutants of the
module that survived the codec's other tests."""

from __future__ import annotations

import io
import struct

import pytest

from recspec.errors import EncodeError
from recspec.reference.carla import (
    VARIANTS,
    Color,
    CurvePoint,
    EventDel,
    GearPhysics,
    Header,
    Packet,
    PhysicsControl,
    RecorderWriter,
    Recording,
    SceneLight,
    Vec3,
    VisualTime,
    WheelPhysics,
    encode_body,
    encode_header,
    encode_packet,
)
from recspec.reference.carla import PacketKind as K
from recspec.reference.carla._encode import encode, encode_string

V15 = VARIANTS["0.9.15"]  # FrameStart id 0, FrameEnd id 1, EventDel id 3; 48-byte wheels
HEADER = Header(1, "CARLA_RECORDER", 1_700_000_000, "Town01")
HEADER_BYTES = (struct.pack("<HH", 1, 14) + b"CARLA_RECORDER" + struct.pack("<q", 1_700_000_000)
                + struct.pack("<H", 6) + b"Town01")


def _frame_start(frame_id: int, duration: float, elapsed: float) -> bytes:
    # id 0, size 24: u64 frame id, f64 durationThis, f64 elapsed
    return struct.pack("<BI", 0, 24) + struct.pack("<Qdd", frame_id, duration, elapsed)


FRAME_END = struct.pack("<BI", 1, 0)


def test_the_recorder_patches_each_frames_duration_with_the_next_tick() -> None:
    f = io.BytesIO()
    w = RecorderWriter(f, HEADER, V15)
    deleted = Packet(K.EVENT_DEL, (EventDel(7),))
    assert w.frame([deleted], delta=0.5) == 1  # frame 1: elapsed 0, its delta unused
    assert w.frame([], delta=0.25) == 2
    assert w.frame([deleted], delta=0.125) == 3
    w.close()
    event_del = struct.pack("<BIHI", 3, 6, 1, 7)
    assert w.elapsed == 0.375
    assert f.getvalue() == (HEADER_BYTES
                            + _frame_start(1, 0.25, 0.0) + event_del + FRAME_END
                            + _frame_start(2, 0.125, 0.25) + FRAME_END
                            + _frame_start(3, -1.0, 0.375) + event_del + FRAME_END)


def test_a_single_frame_keeps_its_placeholder_duration() -> None:
    f = io.BytesIO()
    w = RecorderWriter(f, HEADER, V15)
    w.frame([], delta=0.5)
    assert f.getvalue() == HEADER_BYTES + _frame_start(1, -1.0, 0.0) + FRAME_END


def test_a_frame_end_packet_is_its_5_header_bytes() -> None:
    assert encode_body(K.FRAME_END, None, V15) == b""
    assert encode_packet(Packet(K.FRAME_END, None), V15) == FRAME_END


def test_a_whole_log_is_its_header_then_its_packets() -> None:
    rec = Recording(HEADER, (Packet(K.EVENT_DEL, (EventDel(1), EventDel(2))), Packet(K.FRAME_END, None)))
    assert encode(rec, V15) == HEADER_BYTES + struct.pack("<BIH2I", 3, 10, 2, 1, 2) + FRAME_END
    assert encode_header(HEADER) == HEADER_BYTES


def test_a_scene_light_record() -> None:
    # i32 light id, f32 intensity, f32 R, G, B, A, u8 on, u8 light group
    light = SceneLight(-3, 2.5, Color(0.5, 0.25, 0.125, 0.75), 1, 2)
    assert encode_body(K.SCENE_LIGHT, (light,), V15) == struct.pack("<H", 1) + struct.pack(
        "<ifffffBB", -3, 2.5, 0.5, 0.25, 0.125, 0.75, 1, 2)


def _wheel(stiffness: tuple[float, float, float] | tuple[None, None, None]) -> WheelPhysics:
    return WheelPhysics(3.5, 0.25, 70.0, 37.0, 1500.0, 3000.0, *stiffness, Vec3(1.0, 2.0, 3.0))


def _physics(wheel: WheelPhysics) -> PhysicsControl:
    return PhysicsControl(9, 5000.0, 1.0, 0.15, 2.0, 0.35, 1, 10.0, 4.0, 1500.0, 0.3, Vec3(0.5, 0.0, -0.25),
                          (CurvePoint(0.0, 500.0), CurvePoint(5000.0, 400.0)), (GearPhysics(3.5, 0.25, 0.75),),
                          (CurvePoint(0.0, 1.0),), (wheel,))


def _physics_bytes(wheel: bytes) -> bytes:
    # u16 count; u32 id, 5 x f32, u8 autobox, 4 x f32; centre of mass (3 x f32); u32-counted torque
    # curve (x, y), forward gears (ratio, down, up), steering curve (x, y) and wheels
    return (struct.pack("<H", 1) + struct.pack("<I5fB4f", 9, 5000.0, 1.0, 0.15, 2.0, 0.35, 1, 10.0, 4.0, 1500.0, 0.3)
            + struct.pack("<3f", 0.5, 0.0, -0.25)
            + struct.pack("<I4f", 2, 0.0, 500.0, 5000.0, 400.0) + struct.pack("<I3f", 1, 3.5, 0.25, 0.75)
            + struct.pack("<I2f", 1, 0.0, 1.0) + struct.pack("<I", 1) + wheel)


def test_a_physics_control_record_with_a_48_byte_wheel() -> None:
    # 0.9.12 on: the six wheel floats, lat_stiff_max_load, lat_stiff_value, long_stiff_value, position
    wheel = struct.pack("<12f", 3.5, 0.25, 70.0, 37.0, 1500.0, 3000.0, 2.0, 17.0, 1000.0, 1.0, 2.0, 3.0)
    assert encode_body(K.PHYSICS_CONTROL, (_physics(_wheel((2.0, 17.0, 1000.0))),), V15) == _physics_bytes(wheel)


def test_a_physics_control_record_with_a_36_byte_wheel() -> None:
    # 0.9.10-0.9.11: no stiffness fields
    wheel = struct.pack("<9f", 3.5, 0.25, 70.0, 37.0, 1500.0, 3000.0, 1.0, 2.0, 3.0)
    got = encode_body(K.PHYSICS_CONTROL, (_physics(_wheel((None, None, None))),), VARIANTS["0.9.10-0.9.11"])
    assert got == _physics_bytes(wheel)


def test_a_string_of_at_most_65535_bytes() -> None:
    # u16 byte length, then the UTF-8 bytes
    assert encode_string("é" * 0x7FFF + "a") == struct.pack("<H", 0xFFFF) + "é".encode() * 0x7FFF + b"a"
    with pytest.raises(EncodeError):
        encode_string("a" * 0x10000)


def test_a_packet_of_at_most_65535_records() -> None:
    # the record count is a u16
    assert len(encode_body(K.EVENT_DEL, (EventDel(1),) * 0xFFFF, V15)) == 2 + 4 * 0xFFFF
    with pytest.raises(EncodeError):
        encode_body(K.EVENT_DEL, (EventDel(1),) * 0x10000, V15)


def test_a_packet_kind_its_variant_has_no_id_for() -> None:
    # VisualTime came with 0.9.14 (id 20): a 0.9.4-0.9.5 log has no id to write it with
    visual_time = Packet(K.VISUAL_TIME, VisualTime(737.78))
    with pytest.raises(EncodeError, match="VisualTime"):
        encode_packet(visual_time, VARIANTS["0.9.4-0.9.5"])
    assert encode_packet(visual_time, VARIANTS["0.9.14"]) == struct.pack("<BId", 20, 8, 737.78)
