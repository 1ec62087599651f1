"""Facts of the CARLA layout that mutants of reference/carla/_decode.py survived: the field
order of a Kinematics record, the 36-byte wheel of 0.9.10-0.9.11, the 5-byte packet header
(u8 id, u32 size) that frames a log. Expected values come from the research notes' layout
(docs/formats/carla.md), never from the decoder's output."""

from __future__ import annotations

import io
import struct

import pytest

from recspec.errors import Malformed, Truncated
from recspec.reference.carla import (
    VARIANTS,
    PacketReader,
    decode,
    decode_body,
    frame_packets,
    layout_misfit,
    read_header,
    record_chain_misfit,
    scan_event_add,
)
from recspec.reference.carla import PacketKind as K

HEADER = (struct.pack("<HH", 1, 14) + b"CARLA_RECORDER" + struct.pack("<q", 1_700_000_000)
          + struct.pack("<H", 6) + b"Town01")
V = VARIANTS["0.9.15"]


def test_a_kinematics_record_starts_with_its_actor_id() -> None:
    # Kinematics: u32 database id, then linear and angular velocity (3 floats each)
    payload = struct.pack("<H", 1) + struct.pack("<I6f", 42, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5)
    (record,) = decode_body(K.KINEMATICS, payload, V)  # type: ignore[misc]
    assert record.database_id == 42
    assert (record.linear_velocity.x, record.angular_velocity.z) == (1.5, 6.5)


def _physics_control(wheel: bytes, wheels: int = 1) -> bytes:
    """One PhysicsControl record: u32 id, 5 floats, u8 autobox flag, 4 floats, the centre of mass,
    empty torque, gear and steering curves (u32 counts 0), then ``wheels`` copies of ``wheel``."""
    head = struct.pack("<I5fB4f", 9, 1.0, 2.0, 3.0, 4.0, 5.0, 1, 6.0, 7.0, 8.0, 9.0)
    return (struct.pack("<H", 1) + head + struct.pack("<3f", 0.0, 0.0, 0.0)
            + struct.pack("<III", 0, 0, 0) + struct.pack("<I", wheels) + wheel * wheels)


def test_a_0_9_10_wheel_is_36_bytes() -> None:
    # 0.9.10-0.9.11: tire friction, damping, max steer, radius, max brake, max handbrake torque,
    # position (3 floats); no stiffness fields
    wheel = struct.pack("<9f", 3.5, 0.25, 70.0, 37.0, 1500.0, 3000.0, 1.0, 2.0, 3.0)
    (record,) = decode_body(K.PHYSICS_CONTROL, _physics_control(wheel, 2), VARIANTS["0.9.10-0.9.11"])  # type: ignore[misc]
    assert len(record.wheels) == 2
    w = record.wheels[1]
    assert (w.tire_friction, w.radius) == (3.5, 37.0)
    assert (w.position.x, w.position.y, w.position.z) == (1.0, 2.0, 3.0)


def test_frame_packets_steps_over_the_5_byte_header_and_the_payload() -> None:
    # packet = u8 id, u32 payload size, payload: the second starts 5 + 3 bytes after the first
    buf = struct.pack("<BI", 0, 3) + b"abc" + struct.pack("<BI", 1, 2) + b"de" + struct.pack("<BI", 7, 0)
    starts, ids, sizes = frame_packets(buf, 0, len(buf), 1000)
    assert (starts, ids, sizes) == ([0, 8, 15], bytes([0, 1, 7]), [3, 2, 0])


@pytest.mark.parametrize("tail", [1, 4])
def test_a_log_ending_inside_a_packet_header(tail: int) -> None:
    # after the header, fewer than the 5 bytes of a packet header: a truncation at that offset
    with pytest.raises(Truncated) as e:
        decode(HEADER + bytes(tail), variant=V)
    assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == (
        "CARLA-STREAM-001", len(HEADER), 5, tail)


UE5 = VARIANTS["ue5"]


def test_the_smallest_event_add_record_of_f64_vectors() -> None:
    # u32 id, u8 type, two vectors of 3 f64 (48), u32 uid, u16 description length, u16 attribute count
    smallest = 4 + 1 + 48 + 4 + 2 + 2
    assert layout_misfit(K.EVENT_ADD, struct.pack("<H", 1) + bytes(smallest), UE5) is None
    assert layout_misfit(K.EVENT_ADD, struct.pack("<H", 1) + bytes(smallest - 1), UE5) is not None


def test_the_smallest_physics_control_record() -> None:
    # u32 id, 5 floats, u8 flag, 4 floats, the centre of mass (3 floats), four u32 counts
    smallest = 4 + 20 + 1 + 16 + 12 + 16
    assert layout_misfit(K.PHYSICS_CONTROL, struct.pack("<H", 1) + bytes(smallest), V) is None
    assert layout_misfit(K.PHYSICS_CONTROL, struct.pack("<H", 1) + bytes(smallest - 1), V) is not None


@pytest.mark.parametrize("kind", [K.POSITION, K.EVENT_ADD, K.ANIM_VEHICLE_WHEELS])
def test_a_counted_payload_shorter_than_its_count_misfits(kind: K) -> None:
    assert layout_misfit(kind, b"", V) is not None
    assert layout_misfit(kind, b"\x01", V) is not None


def test_wheels_records_chain_by_their_u32_wheel_count() -> None:
    # AnimVehicleWheels record: u32 vehicle id, u32 wheel count, 9 bytes a wheel
    payload = struct.pack("<H", 2) + struct.pack("<II", 5, 2) + bytes(18) + struct.pack("<II", 6, 0)
    assert record_chain_misfit(K.ANIM_VEHICLE_WHEELS, payload, V) is None
    assert record_chain_misfit(K.ANIM_VEHICLE_WHEELS, payload[:-1], V) is not None


def test_a_physics_control_record_chain() -> None:
    # 48-byte wheels (0.9.12 on): the record adds up; the same bytes read as 36-byte wheels do not
    wheel = struct.pack("<12f", *range(12))
    payload = _physics_control(wheel, 2)
    assert record_chain_misfit(K.PHYSICS_CONTROL, payload, V) is None
    assert record_chain_misfit(K.PHYSICS_CONTROL, payload, VARIANTS["0.9.10-0.9.11"]) is not None


def test_a_physics_control_curve_past_the_end_says_where_its_records_end() -> None:
    # a torque curve of 1000 points (8 bytes each) in a record of no points: the records would end
    # after the count (2), the fixed part (41 + 12), the count of points (4) and the points
    payload = bytearray(_physics_control(b"", 0))
    struct.pack_into("<I", payload, 2 + 41 + 12, 1000)
    assert record_chain_misfit(K.PHYSICS_CONTROL, bytes(payload), V) == (
        f"records past the end ({2 + 41 + 12 + 4 + 8 * 1000} > {len(payload)})")


def _attribute(atype: int, aid: bytes, value: bytes) -> bytes:
    """An actor attribute: u8 type, u16-length id, u16-length value."""
    return struct.pack("<BH", atype, len(aid)) + aid + struct.pack("<H", len(value)) + value


def _event_add_with(attributes: list[bytes], actor: int = 7) -> bytes:
    """One EventAdd record (f32 vectors): u32 id, u8 type, location, rotation, u32 uid, the
    description, u16 attribute count, then the attributes."""
    return (struct.pack("<IB", actor, 1) + bytes(24) + struct.pack("<I", 3) + struct.pack("<H", 9) + b"vehicle.x"
            + struct.pack("<H", len(attributes)) + b"".join(attributes))


def test_value_texts_of_one_record() -> None:
    payload = struct.pack("<H", 1) + _event_add_with([_attribute(1, b"color", b"red"), _attribute(2, b"role", b"hero")])
    scan = scan_event_add(payload, False)
    assert scan is not None
    assert scan.value_texts(0, 1) == [b"red", b"hero"]


def test_many_attributes_of_one_shape_are_scanned() -> None:
    # more than sixteen attributes of equal id and value lengths: the strided reading
    attributes = [_attribute(1, b"a%02d" % i, b"v%02d" % i) for i in range(40)]
    payload = struct.pack("<H", 1) + _event_add_with(attributes)
    scan = scan_event_add(payload, False)
    assert scan is not None
    assert scan.ids(0, 40) == [b"a%02d" % i for i in range(40)]
    assert scan.value_texts(0, 1) == [b"v%02d" % i for i in range(40)]


def test_a_run_of_equal_attributes_broken_by_another() -> None:
    # five copies of one attribute, another, then two more copies: decoded in order
    a, b = _attribute(1, b"x", b"1"), _attribute(1, b"y", b"2")
    order = [a] * 5 + [b] + [a] * 2
    payload = struct.pack("<H", 1) + _event_add_with(order)
    (record,) = decode_body(K.EVENT_ADD, payload, V)  # type: ignore[misc]
    assert [(x.id, x.value) for x in record.attributes] == [("x", "1")] * 5 + [("y", "2")] + [("x", "1")] * 2


def test_the_largest_header_is_read_whole() -> None:
    # u16 version, then magic and map name of 65535 bytes each (u16 lengths) around the i64 date
    magic, town = b"M" * 0xFFFF, b"T" * 0xFFFF
    data = (struct.pack("<HH", 1, len(magic)) + magic + struct.pack("<q", 5) + struct.pack("<H", len(town)) + town
            + b"after")
    f = io.BytesIO(data)
    header, end = read_header(f)
    assert (header.magic, header.map_name, header.date) == (magic.decode(), town.decode(), 5)
    assert end == 2 + 2 + 0xFFFF + 8 + 2 + 0xFFFF == f.tell()


def test_a_scene_light_record() -> None:
    # i32 light id, f32 intensity, FLinearColor (4 x f32), u8 on, u8 light group
    payload = struct.pack("<H", 1) + struct.pack("<ifffffBB", -3, 2.5, 0.5, 0.25, 0.125, 0.75, 1, 2)
    (light,) = decode_body(K.SCENE_LIGHT, payload, V)  # type: ignore[misc]
    assert (light.light_id, light.intensity, light.is_on, light.light_group) == (-3, 2.5, 1, 2)
    assert (light.color.r, light.color.g, light.color.b, light.color.a) == (0.5, 0.25, 0.125, 0.75)


def test_a_trigger_volume_record() -> None:
    # u32 id, origin (3 floats), extent (3 floats)
    payload = struct.pack("<H", 1) + struct.pack("<I6f", 11, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    (volume,) = decode_body(K.TRIGGER_VOLUME, payload, V)  # type: ignore[misc]
    assert volume.database_id == 11
    assert (volume.origin.x, volume.origin.z, volume.extent.x, volume.extent.z) == (1.0, 3.0, 4.0, 6.0)


def _id_of(kind: K) -> int:
    return next(i for i, k in V.ids.items() if k is kind)


def test_a_payload_starts_5_bytes_after_its_packet() -> None:
    packets = struct.pack("<BI", _id_of(K.FRAME_END), 0) + struct.pack("<BI", _id_of(K.POSITION), 2) + b"\x00\x00"
    data = HEADER + packets
    f = io.BytesIO(data)
    f.seek(len(HEADER))  # the reader starts where the header ends
    raws = list(PacketReader(f, V, len(HEADER), len(data)))
    assert [(r.offset, r.payload_offset) for r in raws] == [(len(HEADER), len(HEADER) + 5),
                                                             (len(HEADER) + 5, len(HEADER) + 10)]


def test_a_malformed_payload_is_located_at_the_payload() -> None:
    # a Position payload of count 1 and no record: the error is at the payload's offset (packet + 5)
    data = HEADER + struct.pack("<BI", _id_of(K.POSITION), 2) + struct.pack("<H", 1)
    with pytest.raises(Malformed) as e:
        decode(data, variant=V)
    assert (e.value.rule, e.value.offset) == ("CARLA-PACKET-001", len(HEADER) + 5)


def test_a_counted_payload_of_no_record_chains() -> None:
    # count 0 and nothing after it: the records (none) end at the payload's end
    assert record_chain_misfit(K.ANIM_VEHICLE_WHEELS, struct.pack("<H", 0), V) is None
    assert record_chain_misfit(K.WALKER_BONES, struct.pack("<H", 0), V) is None


def test_walker_bones_records_chain() -> None:
    # WalkerBones record: u32 walker id, u16 bone count; a bone: u16-length name, location, rotation
    bone = struct.pack("<H", 4) + b"head" + bytes(24)
    payload = struct.pack("<H", 2) + struct.pack("<IH", 8, 1) + bone + struct.pack("<IH", 9, 0)
    assert record_chain_misfit(K.WALKER_BONES, payload, V) is None
    assert record_chain_misfit(K.WALKER_BONES, payload + b"\x00", V) is not None


def test_an_event_add_with_a_byte_after_its_records_says_where_they_end() -> None:
    # the scan refuses it; the walk says the records end one byte before the payload does
    payload = struct.pack("<H", 1) + _event_add_with([_attribute(1, b"color", b"red")]) + b"\x00"
    assert scan_event_add(payload, False) is None
    assert record_chain_misfit(K.EVENT_ADD, payload, V) == f"{len(payload) - 1} bytes of records in {len(payload)}"


def test_a_fixed_record_payload_fits_only_at_its_exact_size() -> None:
    # Position: u16 count, then records of u32 id, location and rotation (3 floats each): 28 bytes
    payload = struct.pack("<H", 2) + bytes(2 * 28)
    assert layout_misfit(K.POSITION, payload, V) is None
    assert layout_misfit(K.POSITION, payload + b"\x00", V) is not None
