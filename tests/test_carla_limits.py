"""Explicit limits: a huge declared packet is refused before any allocation."""

from __future__ import annotations

import io
import struct

import pytest

from recspec.conformance.carla import check_stream
from recspec.errors import Truncated
from recspec.reference.carla import MAX_PACKET_SIZE, VARIANTS, PacketReader

HEADER = struct.pack("<H", 1) + b"\x0e\x00CARLA_RECORDER" + struct.pack("<q", 1700000000) + b"\x06\x00Town01"


def test_huge_packet_is_a_limit_finding_not_an_allocation():
    data = HEADER + struct.pack("<BI", 6, MAX_PACKET_SIZE + 1) + b"\x00" * 16
    report = check_stream(io.BytesIO(data), path="big", variant=VARIANTS["0.9.15"], profile="spec",
                          size=MAX_PACKET_SIZE * 4)  # pretend the file is that large
    assert report.verdict.value == "malformed"
    assert [f.rule for f in report.findings] == ["CARLA-LIMIT-001"]
    assert report.findings[0].offset == len(HEADER) + 1


def test_declared_size_past_end_is_truncation_without_reading():
    data = HEADER + struct.pack("<BI", 6, 4_000_000_000)

    class NoBigReads(io.BytesIO):
        def read(self, n=-1):
            assert 0 <= n <= 5, f"read({n}) of a payload that cannot be there"
            return super().read(n)

    f = NoBigReads(data)
    f.seek(len(HEADER))
    with pytest.raises(Truncated) as info:
        list(PacketReader(f, VARIANTS["0.9.15"], len(HEADER), len(data), max_packet_size=2**32))
    assert info.value.offset == len(HEADER) and info.value.needed == 4_000_000_000
