"""The reference codec from one table of cases, fed three ways (whole, one byte
per read, with trailing junk), in the spirit of h11's SIMPLE_CASES.

Each case is a packet written out by hand with struct.pack from the layouts in
the research notes, and the model value it must decode to."""

from __future__ import annotations

import io
import struct

import pytest

from recspec.errors import Truncated
from recspec.reference.carla import (
    VARIANTS,
    ActorAttribute,
    AnimVehicleWheels,
    EventAdd,
    EventDel,
    FrameStart,
    Header,
    Packet,
    PacketReader,
    Position,
    Rotator,
    TrafficLightState,
    Vec3,
    VehicleDoor,
    WheelAnim,
    decode_body,
    decode_header,
    encode_header,
    encode_packet,
)
from recspec.reference.carla import (
    PacketKind as K,
)

V15, V16, UE5 = VARIANTS["0.9.15"], VARIANTS["0.9.16"], VARIANTS["ue5"]


def s(text: bytes) -> bytes:
    return struct.pack("<H", len(text)) + text


CASES = [
    ("frame-start", V15, Packet(K.FRAME_START, FrameStart(3, -1.0, 0.1)),
     struct.pack("<BI", 0, 24) + struct.pack("<Qdd", 3, -1.0, 0.1)),
    ("event-del-size-14", V15, Packet(K.EVENT_DEL, (EventDel(100), EventDel(101), EventDel(120))),
     struct.pack("<BIH3I", 3, 14, 3, 100, 101, 120)),  # the document's example says 16: it is wrong
    ("position-roll-pitch-yaw", V15,
     Packet(K.POSITION, (Position(7, Vec3(1.0, 2.0, 3.0), Rotator(0.5, -8.0, -131.75)),)),
     struct.pack("<BIHI6f", 6, 30, 1, 7, 1.0, 2.0, 3.0, 0.5, -8.0, -131.75)),
    ("position-ue5-f64", UE5, Packet(K.POSITION, (Position(7, Vec3(1.0, 2.0, 3.0), Rotator(0.1, 0.2, 0.3)),)),
     struct.pack("<BIHI6d", 6, 54, 1, 7, 1.0, 2.0, 3.0, 0.1, 0.2, 0.3)),
    ("state", V15, Packet(K.STATE, (TrafficLightState(10, 1, 2.5, 3),)),
     struct.pack("<BIHIBfB", 7, 12, 1, 10, 1, 2.5, 3)),
    ("event-add", V15, Packet(K.EVENT_ADD, (EventAdd(20, 1, Vec3(0.0, 0.0, 0.0), Rotator(0.0, 0.0, 90.0), 17,
                                                     "vehicle.a", (ActorAttribute(3, "role_name", "hero"),)),)),
     struct.pack("<BIH", 2, 2 + 4 + 1 + 24 + 4 + 11 + 2 + 1 + 11 + 6, 1)
     + struct.pack("<IB6fI", 20, 1, 0, 0, 0, 0, 0, 90, 17) + s(b"vehicle.a") + struct.pack("<HB", 1, 3)
     + s(b"role_name") + s(b"hero")),
    ("wheels-at-21-in-0.9.15", V15, Packet(K.ANIM_VEHICLE_WHEELS, (AnimVehicleWheels(5, (WheelAnim(0, 1.5, 2.0),)),)),
     struct.pack("<BIHII", 21, 2 + 8 + 9, 1, 5, 1) + struct.pack("<Bff", 0, 1.5, 2.0)),
    ("door-at-23-in-0.9.16", V16, Packet(K.VEHICLE_DOOR, (VehicleDoor(5, 4, 1),)),
     struct.pack("<BIHIBB", 23, 8, 1, 5, 4, 1)),
    ("user-packet", V15, Packet(K.RAW, b"abc", 120), struct.pack("<BI", 120, 3) + b"abc"),
]

HEADER = Header(1, "CARLA_RECORDER", 1637676528, "Town06")
HEADER_BYTES = struct.pack("<H", 1) + s(b"CARLA_RECORDER") + bytes.fromhex("F0F59C6100000000") + s(b"Town06")


class OneByteReads(io.RawIOBase):
    """A stream that returns at most one byte per read, like a slow pipe."""

    def __init__(self, data: bytes) -> None:
        self._data, self._pos = data, 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        chunk = self._data[self._pos:self._pos + min(1, n if n >= 0 else 1)]
        self._pos += len(chunk)
        return chunk


def test_header_matches_the_documents_sample():
    # "Town06" is 06 00 54 6f 77 6e 30 36; the sample date is 2021-11-23 14:08:48 UTC in Unix time.
    assert s(b"Town06").hex(" ") == "06 00 54 6f 77 6e 30 36"
    assert encode_header(HEADER) == HEADER_BYTES
    assert decode_header(HEADER_BYTES) == (HEADER, len(HEADER_BYTES))
    assert len(HEADER_BYTES) == 34


@pytest.mark.parametrize("name, variant, packet, wire", CASES, ids=[c[0] for c in CASES])
def test_encode(name, variant, packet, wire):
    assert encode_packet(packet, variant) == wire


@pytest.mark.parametrize("how", ["whole", "one-byte-reads", "trailing-junk"])
@pytest.mark.parametrize("name, variant, packet, wire", CASES, ids=[c[0] for c in CASES])
def test_decode(name, variant, packet, wire, how):
    data = wire + (b"\x07\xff" if how == "trailing-junk" else b"")
    f = OneByteReads(data) if how == "one-byte-reads" else io.BytesIO(data)
    reader = iter(PacketReader(f, variant, 0, None))
    raw = next(reader)
    assert (raw.offset, raw.packet_id, raw.kind, raw.end) == (0, wire[0], packet.kind, len(wire))
    assert decode_body(raw.kind, raw.payload, variant, raw.payload_offset) == packet.body
    if how == "trailing-junk":
        with pytest.raises(Truncated) as info:  # two bytes cannot be a packet header
            next(reader)
        assert (info.value.offset, info.value.available) == (len(wire), 2)
    else:
        assert next(reader, None) is None


def test_streaming_frame_by_frame_from_a_file():
    from pathlib import Path

    from recspec.reference.carla import frames, iter_packets

    path = Path(__file__).resolve().parents[1] / "corpus" / "carla" / "valid" / "0.9.15.log"
    with open(path, "rb") as f:
        got = [(start.frame_id, [p.kind for p in packets][:3])
               for start, packets in frames(iter_packets(f, variant=V15))]
    assert [fid for fid, _ in got] == [1, 2, 3, 4]
    assert got[0][1] == [K.VISUAL_TIME, K.EVENT_ADD, K.EVENT_DEL]  # the 0.9.15 writer order
