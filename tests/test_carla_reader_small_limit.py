"""``PacketReader`` reads a packet whole in its buffer in one comparison: no packet ending within the
first ``max_packet_size + 5`` bytes of a buffer can be above the limit, and a packet past them takes the
long way, which tests the limit. With a limit far below the buffer's size, every packet is read as the
framing of the layout has it (u8 id, u32 size, the payload), and the first above the limit raises
CARLA-LIMIT-001 at its size field."""

from __future__ import annotations

import io

import pytest
from build_carla import POSITION, counted, header, log, packet, position

from helpers import carla_packets
from recspec.errors import LimitExceeded
from recspec.reference.carla import VARIANTS, PacketReader

V = VARIANTS["0.9.4-0.9.5"]


def _read(data: bytes, limit: int) -> list[tuple[int, int, int]]:
    at = len(header())
    return [(raw.offset, raw.packet_id, len(raw.payload))
            for raw in PacketReader(io.BytesIO(data[at:]), V, 0, len(data) - at, max_packet_size=limit)]


def test_packets_past_the_limits_bytes_of_a_buffer_are_read_as_framed() -> None:
    data = log(*[counted(POSITION, [position(i)] * (i % 3)) for i in range(200)])  # 2 to 58 bytes a payload
    at = len(header())
    framed = [(offset - at, pid, size) for offset, pid, size in carla_packets(data)]
    assert len(framed) == 200
    assert _read(data, 58) == framed  # the buffer (the whole log) is far larger than 58 + 5 bytes


def test_the_first_packet_above_the_limit_raises_at_its_size_field() -> None:
    data = log(*[counted(POSITION, [position(1)]) for _ in range(50)], packet(POSITION, b"\0" * 40))
    at = len(header())
    big = carla_packets(data)[-1][0] - at
    with pytest.raises(LimitExceeded) as e:
        _read(data, 39)
    assert e.value.rule == "CARLA-LIMIT-001"
    assert e.value.offset == big + 1
    assert len(_read(data, 40)) == 51
