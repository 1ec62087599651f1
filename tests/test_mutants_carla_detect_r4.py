"""CARLA variant detection's reading of a log's first packets (conformance/carla/_detect.py, ``_read_prefix``),
on logs put together byte by byte (tests/build_carla.py): the prefix is framed as ``PacketReader`` frames the
log, whose packet size limit is ``MAX_PACKET_SIZE`` (4 MiB, README's limits table) payload bytes: a packet of
exactly that many is read, one byte more ends the prefix there. Written against the survivors of a fresh
sample of tools/mutate.py's mutants of the module (seed 3)."""

from __future__ import annotations

import io

import pytest
from build_carla import HEADER_SIZE, frame, log, packet

from helpers import carla_packets
from recspec.conformance.carla import _detect
from recspec.reference.carla import MAX_PACKET_SIZE

USER = 100  # "user-defined packets should use ids >= 100"


@pytest.mark.parametrize("over", [0, 1])
def test_a_packet_at_the_size_limit_is_in_the_prefix(over: int) -> None:
    assert MAX_PACKET_SIZE == 4 * 1024 * 1024
    big = packet(USER, bytes(MAX_PACKET_SIZE + over))
    data = log(frame(1), frame(2), frame(3, big), frame(4))
    framed = carla_packets(data)
    at = next(j for j, (_, pid, _) in enumerate(framed) if pid == USER)  # FrameStart, FrameEnd twice, FrameStart
    assert at == 5
    f = io.BytesIO(data)
    f.seek(HEADER_SIZE)
    prefix = _detect._read_prefix(f, HEADER_SIZE, len(data), bulk=True)
    assert prefix.packets == (at if over else len(framed))
