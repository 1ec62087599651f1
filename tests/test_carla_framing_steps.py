"""CARLA framing loops that a fuzz campaign runs on every input: few tests a packet, the same answers.

A campaign runs them under coverage instrumentation, which hooks every comparison and every
conditional jump, so their steps a packet are counted here by tracing their bytecode. Detection's
small-file reading (``_detect._read_small_prefix``) is held to three comparisons and four conditional
jumps for the common packet (an id that is neither FrameEnd nor a variable-record one); ``decode``'s
framing of a whole buffer (``frame_packets``) to no comparison and one jump. The prefix detection reads is held to the
packet-by-packet reading's on raw packet sequences that stress its edges: payloads of 0 and 1 bytes
(whose u16 is not read), ids without a record count, variable-record ids, undefined and user ids,
and files cut anywhere, the last packet's header or payload included.
"""

from __future__ import annotations

import io
import struct
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import count_steps
from recspec.conformance.carla import _detect
from recspec.reference import carla as m
from recspec.reference.carla._decode import frame_packets

HEADER = m.encode_header(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD"))
FRAME_START = struct.pack("<BIQdd", 0, 24, 1, 0.0, 0.0)  # id 0, 24 bytes: frame id, durationThis, elapsed
FRAME_END = b"\x01\0\0\0\0"  # id 1, no payload
# Position (id 6 in 0.9.4-0.9.5) with one record of 28 bytes: u16 count 1, then the record; State (id 7)
# of none: the common packets of a frame, neither FrameEnd nor of variable records
POSITION = struct.pack("<BIH", 6, 2 + 28, 1) + bytes(28)
STATE = struct.pack("<BIH", 7, 2, 0)

def _steps(data: bytes, offset: int, function: Any = _detect._read_small_prefix) -> tuple[int, int]:
    """The comparisons and conditional jumps ``function`` (``_read_small_prefix`` or ``frame_packets``)
    executes reading ``data``'s packets from ``offset``."""
    f = io.BytesIO(data)
    f.seek(offset)
    if function is _detect._read_small_prefix:
        return count_steps({function.__code__}, lambda: function(f, offset, len(data)))
    return count_steps({function.__code__}, lambda: function(data, offset, len(data), m.MAX_PACKET_SIZE))


def test_the_common_packet_costs_three_comparisons_and_four_jumps() -> None:
    frame = FRAME_START + POSITION + STATE * 8 + POSITION + FRAME_END
    short = HEADER + frame
    longer = HEADER + frame + POSITION * 20 + STATE * 10  # 30 more common packets
    assert len(longer) - len(HEADER) <= _detect.SMALL_PREFIX_BYTES  # read whole, by the loop counted here
    (compares, branches), (compares_short, branches_short) = _steps(longer, len(HEADER)), _steps(short, len(HEADER))
    assert compares - compares_short <= 3 * 30
    assert branches - branches_short <= 4 * 30


def test_decode_frames_a_whole_buffer_with_no_comparison_and_one_jump_a_packet() -> None:
    frame = FRAME_START + POSITION + STATE * 8 + POSITION + FRAME_END
    short = HEADER + frame
    longer = HEADER + frame + POSITION * 20 + STATE * 10  # 30 more packets
    (compares, branches) = _steps(longer, len(HEADER), frame_packets)
    (compares_short, branches_short) = _steps(short, len(HEADER), frame_packets)
    assert compares - compares_short == 0
    assert branches - branches_short <= 30
    starts, ids, sizes = frame_packets(longer, len(HEADER), len(longer), m.MAX_PACKET_SIZE)
    assert len(starts) == 12 + 30 and ids[:2] == bytes([0, 6]) and sizes[:2] == [24, 30]  # FrameStart, Position
    assert starts[-1] == len(longer) - len(STATE)  # the last packet, whole


def _prefix(data: bytes, size: int, small: bool) -> tuple[Any, ...]:
    f = io.BytesIO(data)
    f.seek(len(HEADER))
    p = (_detect._read_small_prefix(f, len(HEADER), size) if small
         else _detect._read_prefix(f, len(HEADER), size, bulk=False))
    return p.packets, list(p.shapes.items()), dict(p.frames), list(p.variable.items())


# ids: FrameStart 0, FrameEnd 1, ids of variable records in some variant (2, 15, 19, 21, 22), ids without a
# record count in every variant that defines them (14, 18, 20), ids of fixed records, ids undefined in some
# or every variant and user ids
_IDS = st.sampled_from([0, 1, 2, 3, 5, 6, 14, 15, 17, 18, 19, 20, 21, 22, 23, 40, 99, 100, 255])
_PACKETS = st.lists(st.tuples(_IDS, st.binary(max_size=6)), max_size=40)


@given(packets=_PACKETS, cut=st.integers(0, 12), overwrite=st.tuples(st.integers(0, 400), st.binary(max_size=3)))
@settings(max_examples=300, deadline=None)
def test_the_small_prefix_is_the_packet_by_packet_one_on_raw_packets(
        packets: list[tuple[int, bytes]], cut: int, overwrite: tuple[int, bytes]) -> None:
    """Any ids and payloads of 0 to 6 bytes, a few bytes overwritten anywhere after the header (an id, a
    size, a payload), and the file cut or its size given short: the same packets, shapes in the same
    order, frames and variable payloads."""
    body = bytearray(b"".join(struct.pack("<BI", pid, len(payload)) + payload for pid, payload in packets))
    at, new = overwrite
    if body:
        at %= len(body)
        body[at:at + len(new)] = new
    data = HEADER + bytes(body)
    for size in (len(data), len(data) - cut, len(data) + cut):
        if size < len(HEADER):
            continue
        cut_data = data[:max(len(HEADER), len(data) - cut)]
        assert _prefix(data, size, True) == _prefix(data, size, False)
        assert _prefix(cut_data, size, True) == _prefix(cut_data, size, False)
