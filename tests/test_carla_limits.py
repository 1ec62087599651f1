"""Explicit limits: a huge declared packet is refused before any allocation."""

from __future__ import annotations

import io
import struct

import pytest

from recspec.conformance.carla import check_stream
from recspec.errors import Truncated
from recspec.reference.carla import MAX_PACKET_SIZE, VARIANTS, PacketReader
from recspec.reference.carla._decode import READ_BLOCK

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
            assert 0 <= n <= READ_BLOCK, f"read({n}) of a payload that cannot be there"
            return super().read(n)

    f = NoBigReads(data)
    f.seek(len(HEADER))
    with pytest.raises(Truncated) as info:
        list(PacketReader(f, VARIANTS["0.9.15"], len(HEADER), len(data), max_packet_size=2**32))
    assert info.value.offset == len(HEADER) and info.value.needed == 4_000_000_000


# --- the largest packet: memory, and the cross-check's budget ------------------------------

def _event_add_packet(payload_bytes: int, *, distinct: bool) -> bytes:
    """An EventAdd packet of about ``payload_bytes``: actors of 65,535 attributes each, 7-byte
    attributes with distinct 2-character ids, or 5-byte empty ones all alike."""
    if distinct:
        attrs = b"".join(struct.pack("<BH", 0, 2) + bytes((33 + i % 94, 33 + i // 94 % 94)) + struct.pack("<H", 0)
                         for i in range(0xFFFF))
    else:
        attrs = struct.pack("<BHH", 0, 0, 0) * 0xFFFF
    record = struct.pack("<IB6fI", 1, 1, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<HH", 0, 0xFFFF) + attrs
    n = max(1, (payload_bytes - 2) // len(record))
    body = b"".join(struct.pack("<I", i + 1) + record[4:] for i in range(n))
    return struct.pack("<BIH", 2, 2 + len(body), n) + body


FRAME = struct.pack("<BIQdd", 0, 24, 1, -1.0, 0.0)
FRAME_END = struct.pack("<BI", 1, 0)


def test_the_largest_packet_checks_within_the_memory_bound():
    # decoded whole, an EventAdd of distinct attributes takes the most memory per payload byte;
    # MAX_PACKET_SIZE times that must stay well under the README's 256 MiB (the bench case
    # carla-max-packet measures it at full size, RSS included)
    import tracemalloc

    data = HEADER + FRAME + _event_add_packet(1 << 20, distinct=True) + FRAME_END
    tracemalloc.start()
    try:
        check_stream(io.BytesIO(data), path="big", variant=None, profile="spec")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    per_byte = peak / len(data)
    assert per_byte * MAX_PACKET_SIZE < 200 * 1024 * 1024, f"{per_byte:.1f} bytes per payload byte"


def test_a_run_of_one_attribute_is_one_object():
    from recspec.reference.carla import PacketKind, decode_body

    packet = _event_add_packet(400_000, distinct=False)
    body = decode_body(PacketKind.EVENT_ADD, packet[5:], VARIANTS["0.9.15"])
    attributes = [a for r in body for a in r.attributes]
    assert len(attributes) == 0xFFFF * len(body)
    assert len({id(a) for a in attributes}) == 1  # not 65,535 objects per actor


def test_a_packet_over_the_cross_check_budget_is_left_out_of_it():
    from recspec.conformance.carla._xcheck import XCHECK_MAX_PACKET, cross_check_report

    packet = _event_add_packet(XCHECK_MAX_PACKET + 400_000, distinct=False)
    assert len(packet) - 5 > XCHECK_MAX_PACKET
    data = HEADER + packet + FRAME + FRAME_END  # the big packet first: a sample always holds the first packet
    for full in (False, True):
        f = io.BytesIO(data)
        report = check_stream(f, path="big", variant=VARIANTS["0.9.15"], profile="spec")
        cross_check_report(f, report, VARIANTS["0.9.15"], len(data), full=full)
        assert "1 packet(s) left out" in report.evidence["cross_check"] or \
            "every packet but 1," in report.evidence["cross_check"], report.evidence["cross_check"]
        assert not any(f.rule == "CARLA-XCHECK-001" for f in report.findings)
