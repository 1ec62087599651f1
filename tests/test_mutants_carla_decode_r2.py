"""The CARLA decoder (reference/carla/_decode.py) after ``decode`` framed a whole log's packets in one
loop: a log whose last packet is longer than its first (a packet is ``u8 id, u32 size, payload``: 5
header bytes, research notes section 3) decodes to exactly its packets, in order. Written against the
survivors tools/mutate.py found in the module when it was measured again."""

from __future__ import annotations

import struct

import pytest
from build_carla import header, packet

from recspec.reference.carla import VARIANTS, decode

HEADER = header(map_name=b"Town01")
V = VARIANTS["0.9.15"]


@pytest.mark.parametrize("sizes", [(0, 7), (1, 30), (3, 4, 50), (0, 0, 9)])
def test_each_packet_of_a_log_whose_sizes_grow_is_decoded_once(sizes: tuple[int, ...]) -> None:
    # user packets (id 200 and up: kept as their bytes) of growing sizes, each payload its own bytes
    payloads = [bytes((i + 1,)) * n for i, n in enumerate(sizes)]
    data = HEADER + b"".join(packet(200 + i, p) for i, p in enumerate(payloads))
    rec = decode(data, variant=V)
    assert [p.packet_id for p in rec.packets] == [200 + i for i in range(len(sizes))]
    assert [p.body for p in rec.packets] == payloads  # a user packet's body is its bytes
    assert struct.unpack_from("<BI", data, len(HEADER)) == (200, sizes[0])
