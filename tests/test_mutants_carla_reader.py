"""Facts of the CARLA framing and of an EventAdd's attributes that mutants of
reference/carla/_decode.py survived: a packet is ``u8 id, u32 size, payload`` (5 header
bytes), a packet whose last byte lies past the reader's first block, a file that ends right
after a packet header, runs of equal packets and of equal attributes, an attribute cut two
bytes into its head, and frames (FrameStart, packets, FrameEnd; research notes section 3).
Expected values come from the layout, never from the decoder's output."""

from __future__ import annotations

import io
import struct

import pytest
from build_carla import after_first, header, packet, packet_reader

from recspec.errors import LimitExceeded, Malformed, Truncated
from recspec.reference.carla import VARIANTS, Packet, PacketReader, decode, decode_body, frames
from recspec.reference.carla import PacketKind as K
from recspec.reference.carla._decode import READ_BLOCK, count_repeats

HEADER = header(map_name=b"Town01")
V = VARIANTS["0.9.15"]


# --- the packet reader -------------------------------------------------------------------------


def test_the_reader_knows_the_file_size_it_was_given() -> None:
    data = packet(1, b"") * 3
    assert packet_reader(data, len(data)).size == 15
    assert packet_reader(data, None).size is None


@pytest.mark.parametrize("known", [True, False])
def test_a_packet_ending_one_byte_past_the_first_block(known: bool) -> None:
    # the reader reads READ_BLOCK bytes first: this packet's last payload byte is the block's first
    # byte past it, so the packet is only whole after a second read; a FrameEnd (id 1, 0 bytes) follows
    size = READ_BLOCK + 1 - 5
    payload = bytes(range(256)) * (size // 256) + b"\xaa" * (size % 256)
    data = packet(200, payload) + packet(1, b"")
    got = [(p.offset, p.packet_id, p.payload) for p in packet_reader(data, len(data) if known else None)]
    assert got == [(0, 200, payload), (5 + size, 1, b"")]


@pytest.mark.parametrize("known", [True, False])
def test_a_file_ending_right_after_a_packet_header(known: bool) -> None:
    # the last packet's 5 header bytes are there (id 6, size 3), none of its payload: a truncated
    # payload (3 bytes needed, 0 there) at that packet's offset, not a truncated header
    data = packet(1, b"") + struct.pack("<BI", 6, 3)
    with pytest.raises(Truncated) as e:
        list(packet_reader(data, len(data) if known else None))
    assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == ("CARLA-STREAM-001", 5, 3, 0)


def test_a_log_ending_right_after_a_packet_header() -> None:
    with pytest.raises(Truncated) as e:
        decode(HEADER + struct.pack("<BI", 6, 3), variant=V)
    assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == (
        "CARLA-STREAM-001", len(HEADER), 3, 0)


@pytest.mark.parametrize("known", [True, False])
def test_a_whole_packet_above_the_limit(known: bool) -> None:
    # 11 payload bytes, all in the file, read with a limit of 10: the limit's rule, at the size field
    # (the packet's offset + 1: after its u8 id)
    data = packet(1, b"") + packet(6, bytes(11)) + packet(1, b"")
    reader = PacketReader(io.BytesIO(data), V, 0, len(data) if known else None, max_packet_size=10)
    with pytest.raises(LimitExceeded) as e:
        list(reader)
    assert (e.value.rule, e.value.offset, e.value.value, e.value.maximum) == ("CARLA-LIMIT-001", 6, 11, 10)


@pytest.mark.parametrize("known", [True, False])
def test_skip_repeats_steps_past_the_copies_of_the_last_packet(known: bool) -> None:
    unit = packet(6, struct.pack("<H", 0))  # an empty Position packet: 7 bytes
    other = packet(1, b"")
    data = unit * 4 + other
    reader, end = after_first(data, len(data) if known else None)
    assert end == 7
    assert reader.skip_repeats(unit) == 3
    assert reader.tell() == 28
    assert [(p.offset, p.packet_id) for p in reader] == [(28, 1)]


def test_skip_repeats_of_a_single_copy() -> None:
    unit = packet(6, struct.pack("<H", 0))
    data = unit * 2
    reader, _ = after_first(data, len(data))
    assert reader.skip_repeats(unit) == 1
    assert reader.tell() == 14


def test_skip_repeats_stops_at_the_file_size() -> None:
    # only whole packets within the size the reader was given count, whatever the stream holds after it
    unit = packet(6, struct.pack("<H", 0))
    data = unit * 6
    reader, _ = after_first(data, 7 * 3 + 4)
    assert reader.skip_repeats(unit) == 2
    assert reader.tell() == 21


# --- runs of equal bytes ------------------------------------------------------------------------


def test_count_repeats_of_a_unit_wider_than_its_comparison_block() -> None:
    # the widest attribute: u8 type and two u16-length strings, more than 64 KiB in all
    unit = b"\x03" + struct.pack("<H", 0xFFFF) + b"i" * 0xFFFF + struct.pack("<H", 4) + b"hero"
    assert len(unit) > 1 << 16
    assert count_repeats(unit * 3, 0, unit, 5) == 3
    assert count_repeats(unit * 3, 0, unit, 2) == 2


def test_count_repeats_when_a_later_block_starts_with_another_unit() -> None:
    # units of 40,000 bytes are compared one at a time: two copies, then a unit of the same
    # width that differs in its first byte
    unit = b"u" * 40_000
    buf = unit * 2 + b"v" + unit[1:]
    assert count_repeats(buf, 0, unit, 3) == 2
    # two-byte units are compared 32,768 at a time: a first block of copies, then a differing unit
    small = b"ab"
    buf = small * 32_768 + b"xx" + small * 10
    assert count_repeats(buf, 0, small, 40_000) == 32_768


# --- an EventAdd's attributes ---------------------------------------------------------------------


def _event_add(attributes: bytes, n: int) -> bytes:
    """One EventAdd record of f32 vectors: u32 id, u8 type, location, rotation, u32 uid, the
    description (u16 length, bytes), u16 attribute count, then the attributes."""
    return (struct.pack("<H", 1) + struct.pack("<IB", 7, 1) + bytes(24) + struct.pack("<I", 3)
            + struct.pack("<H", 9) + b"vehicle.x" + struct.pack("<H", n) + attributes)


def test_an_event_add_ending_two_bytes_into_an_attribute() -> None:
    # the attribute's u8 type and one byte of its id's u16 length: the id's length field is cut
    payload = _event_add(b"\x03\x04", 1)
    at_id_length = 2 + 4 + 1 + 24 + 4 + 2 + 9 + 2 + 1
    with pytest.raises(Malformed) as e:
        decode_body(K.EVENT_ADD, payload, V, 100, "p")
    assert (e.value.rule, e.value.offset, e.value.path) == (
        "CARLA-PACKET-001", 100 + at_id_length, "p/record[0].attributes[0].id")


def test_equal_attributes_wider_than_the_comparison_block() -> None:
    attribute = b"\x03" + struct.pack("<H", 0xFFFF) + b"i" * 0xFFFF + struct.pack("<H", 4) + b"hero"
    (record,) = decode_body(K.EVENT_ADD, _event_add(attribute * 2, 2), V)  # type: ignore[misc]
    assert [(a.type, len(a.id), a.value) for a in record.attributes] == [(3, 0xFFFF, "hero")] * 2


# --- frames ---------------------------------------------------------------------------------------


def _start(frame_id: int) -> Packet:
    body = decode_body(K.FRAME_START, struct.pack("<Qdd", frame_id, 0.05, 0.0), V)
    return Packet(K.FRAME_START, body, 0)


END = Packet(K.FRAME_END, decode_body(K.FRAME_END, b"", V), 1)
POSITIONS = Packet(K.POSITION, (), 6)


def test_frames_group_packets_between_a_frame_start_and_its_frame_end() -> None:
    packets = [POSITIONS, _start(1), POSITIONS, END, POSITIONS, _start(2), END]
    got = [(start.frame_id, len(inside)) for start, inside in frames(packets)]
    assert got == [(1, 1), (2, 0)]


def test_a_log_cut_inside_its_last_frame_still_yields_that_frame() -> None:
    packets = [_start(1), END, _start(2), POSITIONS, POSITIONS]
    got = [(start.frame_id, len(inside)) for start, inside in frames(packets)]
    assert got == [(1, 0), (2, 2)]
