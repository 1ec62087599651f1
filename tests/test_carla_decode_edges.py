"""Where the CARLA decoder says a header or a payload ends too soon: offsets, paths and byte
counts from the layout of the research notes (u16 version, u16-length strings, i64 date; a
counted payload is a u16 count then records). Written against deleted raises of
reference/carla/_decode.py that survived the other tests."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recspec.errors import DecodeError, Malformed, Truncated
from recspec.reference.carla import VARIANTS, anim_wheel_ids, decode_body, decode_header, unpack_flat
from recspec.reference.carla import PacketKind as K

HEADER = (struct.pack("<HH", 1, 14) + b"CARLA_RECORDER" + struct.pack("<q", 1_700_000_000)
          + struct.pack("<H", 6) + b"Town01")
V = VARIANTS["0.9.15"]


@pytest.mark.parametrize("n, offset, needed, path", [
    (0, 0, 2, "header.version"), (1, 0, 2, "header.version"),
    (3, 2, 2, "header.magic.len"),
    (10, 4, 14, "header.magic"),
    (20, 18, 8, "header.date"),
    (27, 26, 2, "header.map_name.len"),
    (30, 28, 6, "header.map_name"),
])
def test_a_header_cut_short(n: int, offset: int, needed: int, path: str) -> None:
    with pytest.raises(Truncated) as e:
        decode_header(HEADER[:n])
    got = e.value
    assert (got.rule, got.offset, got.needed, got.available, got.path) == (
        "CARLA-STREAM-001", offset, needed, n - offset, path)


def test_the_whole_header_decodes() -> None:
    header, end = decode_header(HEADER)
    assert (header.version, header.magic, header.date, header.map_name, end) == (
        1, "CARLA_RECORDER", 1_700_000_000, "Town01", len(HEADER))


@pytest.mark.parametrize("payload", [b"", b"\x01"])
def test_a_counted_payload_without_its_count(payload: bytes) -> None:
    with pytest.raises(Malformed) as e:
        unpack_flat(K.POSITION, payload, V, 500, "frame[0]/packet[6]:Position")
    assert (e.value.rule, e.value.offset, e.value.path) == ("CARLA-PACKET-001", 500, "frame[0]/packet[6]:Position")


@pytest.mark.parametrize("extra", [-1, 1, 28])
def test_a_counted_payload_of_another_size(extra: int) -> None:
    record = 4 + 12 + 12  # u32 id, location, rotation (UE4 floats)
    payload = struct.pack("<H", 2) + bytes(2 * record + extra)
    with pytest.raises(Malformed) as e:
        unpack_flat(K.POSITION, payload, V, 500, "p")
    assert (e.value.rule, e.value.offset) == ("CARLA-PACKET-001", 500)
    assert (e.value.expected, e.value.actual) == (2 + 2 * record, len(payload))  # type: ignore[attr-defined]
    assert len(unpack_flat(K.POSITION, struct.pack("<H", 2) + bytes(2 * record), V)) == 2


def test_an_event_add_cut_inside_a_record() -> None:
    # count 1, then 3 bytes where the record's u32 id and u8 type need 5: at the record's start
    with pytest.raises(DecodeError) as e:
        decode_body(K.EVENT_ADD, b"\x01\x00\x05\x00\x00", V, 1000, "p")
    assert (e.value.rule, e.value.offset, e.value.path) == ("CARLA-PACKET-001", 1002, "p/record[0].database_id")
    # the id and type there, the location (3 floats) missing: after them
    with pytest.raises(DecodeError) as e:
        decode_body(K.EVENT_ADD, b"\x01\x00\x05\x00\x00\x00\x01", V, 1000, "p")
    assert (e.value.rule, e.value.offset, e.value.path) == ("CARLA-PACKET-001", 1007, "p/record[0].location")


def _event_add(description: bytes, declared: int | None = None) -> bytes:
    """One EventAdd record (0.9.15: u32 id, u8 type, location, rotation, u32 uid, string, u16 attributes)."""
    n = len(description) if declared is None else declared
    return (struct.pack("<IB", 7, 1) + bytes(24) + struct.pack("<I", 3) + struct.pack("<H", n) + description
            + struct.pack("<H", 0))


def test_an_event_add_string_past_the_payload() -> None:
    record = _event_add(b"vehicle.x", declared=200)
    payload = struct.pack("<H", 1) + record
    with pytest.raises(DecodeError) as e:
        decode_body(K.EVENT_ADD, payload, V, 1000, "p")
    # the string's length field: after the count (2), id and type (5), two vectors (24) and the uid (4)
    assert (e.value.rule, e.value.offset, e.value.path) == ("CARLA-PACKET-001", 1000 + 2 + 5 + 24 + 4,
                                                            "p/record[0].description_id")


def test_bytes_after_the_last_record() -> None:
    payload = struct.pack("<H", 1) + _event_add(b"vehicle.x")
    assert len(decode_body(K.EVENT_ADD, payload, V)) == 1  # type: ignore[arg-type]
    with pytest.raises(Malformed) as e:
        decode_body(K.EVENT_ADD, payload + b"\x00", V, 1000, "p")
    assert (e.value.rule, e.value.offset) == ("CARLA-PACKET-001", 1000)
    assert (e.value.expected, e.value.actual) == (len(payload), len(payload) + 1)  # type: ignore[attr-defined]


def _wheels_payload(records: list[tuple[int, int, int]]) -> bytes:
    """(vehicle id, declared wheels, wheels present) per record; 9 bytes a wheel."""
    out = struct.pack("<H", len(records))
    for vehicle, declared, present in records:
        out += struct.pack("<II", vehicle, declared) + bytes(9 * present)
    return out


_RECORDS = st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 6), st.integers(0, 6)), max_size=4)


@given(payload=st.one_of(_RECORDS.map(_wheels_payload), st.binary(max_size=64)),
       cut=st.integers(0, 3), extra=st.binary(max_size=2))
def test_anim_wheel_ids_refuses_where_decode_body_does(payload: bytes, cut: int, extra: bytes) -> None:
    # the checker's shortcut for AnimVehicleWheels: the same error, at the same place, or the same vehicles
    payload = (payload[:-cut] if cut else payload) + extra
    try:
        records = decode_body(K.ANIM_VEHICLE_WHEELS, payload, V, 100, "p")
    except DecodeError as e:
        with pytest.raises(DecodeError) as fast:
            anim_wheel_ids(payload, 100, "p")
        assert (fast.value.rule, fast.value.offset, fast.value.path) == (e.rule, e.offset, e.path)
        return
    assert isinstance(records, tuple)
    assert [vehicle for _, vehicle in anim_wheel_ids(payload, 100, "p")] == [r.database_id for r in records]


@pytest.mark.parametrize("size", [0, 23, 25])
def test_a_frame_start_of_another_size(size: int) -> None:
    # FrameStart has no record count: exactly u64 frame id, f64 durationThis, f64 elapsed
    with pytest.raises(Malformed) as e:
        decode_body(K.FRAME_START, bytes(size), V, 40, "frame[0]/packet[0]:FrameStart")
    assert (e.value.rule, e.value.offset) == ("CARLA-PACKET-001", 40)
    assert (e.value.expected, e.value.actual) == (24, size)  # type: ignore[attr-defined]


def _packets(data: bytes, size: int | None) -> list[tuple[int, int]]:
    from recspec.reference.carla import PacketReader

    return [(p.offset, len(p.payload)) for p in PacketReader(io.BytesIO(data), V, 0, size)]


@pytest.mark.parametrize("known", [True, False])
def test_a_file_cut_inside_a_payload(known: bool) -> None:
    # two packets (id 0: 3 bytes, id 1: 0 bytes), then one declaring 10 bytes with 4 there
    data = b"\x05" + struct.pack("<I", 3) + b"abc" + b"\x06" + struct.pack("<I", 0) + b"\x07" + struct.pack("<I", 10)
    data += b"wxyz"
    with pytest.raises(Truncated) as e:
        _packets(data, len(data) if known else None)
    assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == ("CARLA-STREAM-001", 13, 10, 4)


def test_a_huge_packet_cut_short_is_a_truncation_not_a_limit() -> None:
    # declared past MAX_PACKET_SIZE (4 MiB), but the file ends first: the file is cut, whatever it declares
    data = b"\x07" + struct.pack("<I", 5 * 1024 * 1024) + b"wxyz"
    with pytest.raises(Truncated) as e:
        _packets(data, len(data))
    assert (e.value.rule, e.value.offset, e.value.available) == ("CARLA-STREAM-001", 0, 4)
