"""CARLA detection's small-file reading (``_detect._read_small_prefix``) tests neither the size limit nor the
packet count of the packet-by-packet reading: neither stop can come within ``SMALL_PREFIX_BYTES``. It still
stops where that reading does: at a damaged size, a header or payload cut short."""

from __future__ import annotations

import io
import struct

from build_carla import POSITION, STATE, counted, frame, header

from recspec.conformance.carla import _detect
from recspec.reference.carla import MAX_PACKET_SIZE


def test_a_small_prefix_can_reach_neither_the_size_limit_nor_the_packet_count() -> None:
    assert _detect.SMALL_PREFIX_BYTES < MAX_PACKET_SIZE  # a payload above the limit runs past the bytes
    assert _detect.SMALL_PREFIX_BYTES // 5 < _detect.DETECTION_PREFIX_PACKETS  # a packet is 5 bytes at least


def test_a_small_prefix_stops_where_the_packet_by_packet_reading_does() -> None:
    head = header()
    frame_1 = frame(1, counted(POSITION, []), counted(STATE, []), last=True)
    cases = {
        "damaged size above the limit": frame_1 + struct.pack("<BI", POSITION, 5 * 1024 * 1024) + b"\0" * 8,
        "a header cut after 4 bytes": frame_1 + struct.pack("<BI", POSITION, 2)[:4],
        "a payload cut short": frame_1 + struct.pack("<BI", POSITION, 30) + b"\0" * 29,
        "a header of 5 bytes and nothing after": frame_1 + struct.pack("<BI", POSITION, 0),
    }
    for name, body in cases.items():
        data = head + body
        answers = []
        for bulk in (True, False):
            f = io.BytesIO(data)
            f.seek(len(head))
            answers.append(_detect.detect_variant(f, len(head), len(data), bulk=bulk))
        assert answers[0] == answers[1], name
        assert answers[0][1]["prefix_packets"] == 4 + (name == "a header of 5 bytes and nothing after"), name
