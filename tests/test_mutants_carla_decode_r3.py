"""The CARLA decoder (reference/carla/_decode.py), held to the layout of docs/formats/carla.md with
payloads packed by ``struct``: a string is a u16 byte length and that many bytes (a cut one is located
at its length field, or at the bytes it lacks); an EventAdd record is u32 id, u8 type, location and
rotation (3 x f32 each before UE5), u32 description uid, the description string, a u16 attribute count;
a PhysicsControl record's torque and steering curves are u32 n and n x (f32, f32) points, its forward
gears n x 3 x f32, a wheel 36 bytes up to 0.9.11; a packet is a u8 id, a u32 size and the payload.
Written against the survivors of a fresh sample of
tools/mutate.py's mutants of the module (seed 7)."""

from __future__ import annotations

import signal
import struct
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from build_carla import after_first, packet

from recspec.errors import Malformed, Truncated
from recspec.reference.carla import VARIANTS, PacketKind
from recspec.reference.carla._decode import count_repeats, decode_body, decode_string

OLD = VARIANTS["0.9.4-0.9.5"]
AT = 1000  # the payload's offset in its file: errors are located from it
ADD_HEAD = struct.pack("<IB6fI", 7, 1, 0, 0, 0, 0, 0, 0, 42)  # id, type, location, rotation, uid: 33 bytes


def test_a_cut_string_is_located_in_its_own_buffer_by_default() -> None:
    # 5 bytes declared, 2 present: the text starts at byte 2 of the buffer (no base given: the buffer is the file)
    with pytest.raises(Truncated) as e:
        decode_string(b"\x05\x00ab", 0)
    assert (e.value.offset, e.value.needed, e.value.available, e.value.rule) == (2, 5, 2, "CARLA-STREAM-001")
    assert decode_string(b"\x00\x03\x00abc", 1) == ("abc", 6)


@pytest.mark.parametrize("declared", [0, 5])
def test_an_event_add_that_ends_right_after_its_description_length(declared: int) -> None:
    payload = struct.pack("<H", 1) + ADD_HEAD + struct.pack("<H", declared)  # the payload's last two bytes
    with pytest.raises(Malformed) as e:
        decode_body(PacketKind.EVENT_ADD, payload, OLD, AT, "p")
    assert e.value.rule == "CARLA-PACKET-001"
    if declared:  # 5 bytes declared, none left: the string's length field, at 2 + 33
        assert (e.value.offset, e.value.path) == (AT + 35, "p/record[0].description_id")
    else:  # an empty description; the u16 attribute count that follows it is missing, at 2 + 33 + 2
        assert (e.value.offset, e.value.path) == (AT + 37, "p/record[0].num_attributes")


def test_physics_control_curves_are_little_endian_points() -> None:
    v = VARIANTS["0.9.10-0.9.11"]  # 36-byte wheels
    head = struct.pack("<I5fB4f", 9, 6000.0, 1.0, 0.15, 2.0, 0.35, 1, 10.0, 4.0, 1500.0, 0.3)
    com = struct.pack("<3f", 0.5, 0.0, -0.25)
    torque = struct.pack("<I4f", 2, 0.0, 400.0, 1890.5, 500.0)
    gears = struct.pack("<I3f", 1, 3.5, 0.25, 0.75)
    steering = struct.pack("<I2f", 1, 120.0, 0.5)
    wheel = struct.pack("<6f3f", 3.5, 0.25, 70.0, 37.0, 700.0, 1400.0, 1.0, 2.0, 3.0)
    payload = struct.pack("<H", 1) + head + com + torque + gears + steering + struct.pack("<I", 1) + wheel
    (rec,) = decode_body(PacketKind.PHYSICS_CONTROL, payload, v, AT, "p")
    assert [(p.x, p.y) for p in rec.torque_curve] == [(0.0, 400.0), (1890.5, 500.0)]
    assert [(p.x, p.y) for p in rec.steering_curve] == [(120.0, 0.5)]
    assert [(g.ratio, g.down_ratio, g.up_ratio) for g in rec.forward_gears] == [(3.5, 0.25, 0.75)]


def test_an_empty_unit_has_no_copies() -> None:
    # no bytes to repeat: no copy follows, whatever follows (the early answer, not a division by the width)
    assert count_repeats(b"abcabc", 0, b"", 4) == 0
    assert count_repeats(b"abcabc", 0, b"abc", 4) == 2
    assert count_repeats(b"abcabc", 0, b"abd", 4) == 0


@contextmanager
def at_most(seconds: float) -> Iterator[None]:
    """Fail, rather than hang, where a run of copies makes no progress (a correct reading takes milliseconds)."""
    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# the widest packet a run may repeat: a user packet (id 200, kept as its bytes) of 70,000 bytes, wider than
# the 64 KiB compared at a time
WIDE = packet(200, bytes(range(256)) * 273 + b"w" * 112)


@pytest.mark.parametrize("known", [True, False])
def test_skip_repeats_of_a_packet_wider_than_a_comparison_block(known: bool) -> None:
    assert len(WIDE) == 5 + 70_000
    data = WIDE * 3 + packet(1, b"")
    reader, end = after_first(data, len(data) if known else None)
    assert end == len(WIDE)
    with at_most(20):
        assert reader.skip_repeats(WIDE) == 2
    assert reader.tell() == 3 * len(WIDE)
    assert [(p.offset, p.packet_id) for p in reader] == [(3 * len(WIDE), 1)]


def test_count_repeats_of_a_unit_wider_than_a_comparison_block() -> None:
    with at_most(20):
        assert count_repeats(WIDE * 3, 0, WIDE, 5) == 3
        assert count_repeats(WIDE * 3 + WIDE[:-1], 0, WIDE, 5) == 3  # a cut fourth copy is no copy
