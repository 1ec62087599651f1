"""The CARLA decoder (reference/carla/_decode.py), held to the record layouts of docs/formats/carla.md and
the research notes' format table, with payloads packed by ``struct``: a fixed-record packet is a u16 count
and that many records; a BoundingBox record (13, AD) is 28 bytes: u32 id, V3 origin, V3 extent (3 x f32
each before UE5). Written against the survivors of a fresh sample of tools/mutate.py's mutants of the
module (seed 3)."""

from __future__ import annotations

import struct

from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS, PacketKind
from recspec.reference.carla._decode import decode_body, frames

AT = 1000  # the payload's offset in its file


def test_bounding_box_records_are_id_origin_extent() -> None:
    v = VARIANTS["0.9.15"]
    records = [(7, (1.0, 2.0, 3.0), (0.5, 0.25, 2.0)), (300, (-4.0, 0.0, 8.5), (1.5, 1.0, 0.75))]
    payload = struct.pack("<H", len(records)) + b"".join(struct.pack("<I3f3f", ident, *origin, *extent)
                                                         for ident, origin, extent in records)
    assert len(payload) == 2 + 28 * len(records)
    got = decode_body(PacketKind.BOUNDING_BOX, payload, v, AT, "p")
    assert [(r.database_id, (r.origin.x, r.origin.y, r.origin.z), (r.extent.x, r.extent.y, r.extent.z))
            for r in got] == records


def test_a_frame_left_open_by_the_next_frame_start_is_still_a_frame() -> None:
    """``frames`` groups each FrameStart with the packets after it: a frame whose FrameEnd is missing ends where
    the next FrameStart begins one (as a frame left open at the end of the log ends there); packets outside
    any frame are left out."""
    def start(i: int) -> m.Packet:
        return m.Packet(PacketKind.FRAME_START, m.FrameStart(i, 0.05, 0.05 * (i - 1)), 0)

    def walker(actor: int) -> m.Packet:
        return m.Packet(PacketKind.ANIM_WALKER, (m.AnimWalker(actor, 1.0),), 9)

    end = m.Packet(PacketKind.FRAME_END, m.FrameEnd(), 1)
    packets = (walker(1), start(1), walker(2), start(2), walker(3), walker(4), end, walker(5), start(3), walker(6))
    got = [(s.frame_id, [p.body[0].database_id for p in body]) for s, body in frames(packets)]
    assert got == [(1, [2]), (2, [3, 4]), (3, [6])]
