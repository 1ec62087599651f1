"""Where the CARLA decoder says a header or a payload ends too soon: offsets, paths and byte
counts from the layout of the research notes (u16 version, u16-length strings, i64 date; a
counted payload is a u16 count then records). Written against deleted raises of
reference/carla/_decode.py that survived the other tests."""

from __future__ import annotations

import struct

import pytest

from recspec.errors import DecodeError, Malformed, Truncated
from recspec.reference.carla import VARIANTS, decode_body, decode_header, unpack_flat
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
