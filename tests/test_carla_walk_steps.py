"""The CARLA walk's common packet in few tests: a fuzz campaign runs the walk on every input under coverage
instrumentation, which hooks every comparison and every conditional jump.

The common packet is a fixed-record packet inside a frame, the first of its kind there and in the writer's
order (``_check.WRITER_ORDER``). Its steps in ``check_stream``'s loop and ``_Walk.packet`` are counted here by
tracing their bytecode, the difference between a frame with many such packets and one with few: four
comparisons and five conditional jumps a packet (the repeat test, the fixed-record test, the order test and the
payload test, and a jump on whether the loop has more to do). The reports of the walk are held to the slow path's by the
walk's other tests (tests/test_carla_small_logs.py, tests/test_carla_bulk_frames.py); here, a frame whose kinds
come twice or late still gives CARLA-ORDER-002 and CARLA-ORDER-001 at those packets.
"""

from __future__ import annotations

import io
import struct

from helpers import count_steps
from recspec.conformance.carla import _check
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS
from recspec.reference.carla import PacketKind as K

VARIANT = VARIANTS["0.9.15"]
HEADER = m.encode_header(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD"))
FRAME_START = struct.pack("<BIQdd", VARIANT.id_of[K.FRAME_START], 24, 1, 0.0, 0.0)
FRAME_END = struct.pack("<BI", VARIANT.id_of[K.FRAME_END], 0)
#: fixed-record kinds of the writer's order, EventDel and EventParent aside (their runs are the loop's business)
COMMON = [k for k in _check.WRITER_ORDER["0.9.15"]
          if m.is_fixed_record(k) and k not in (K.EVENT_DEL, K.EVENT_PARENT)]

def _empty(kind: K) -> bytes:
    """A packet of ``kind`` with no record: a u16 count of 0."""
    return struct.pack("<BIH", VARIANT.id_of[kind], 2, 0)


def _frame(kinds: list[K]) -> bytes:
    return FRAME_START + b"".join(map(_empty, kinds)) + FRAME_END


def _steps(data: bytes) -> tuple[int, int]:
    """The comparisons and conditional jumps ``check_stream`` and ``_Walk.packet`` execute checking ``data``."""
    return count_steps({_check.check_stream.__code__, _check._Walk.packet.__code__},
                       lambda: _check.check_stream(io.BytesIO(data), path="x", variant=VARIANT, profile="spec"))


def test_the_common_packet_costs_four_comparisons_and_five_jumps() -> None:
    assert len(COMMON) >= 12
    few = HEADER + _frame(COMMON[:2])
    many = HEADER + _frame(COMMON)
    compares_few, branches_few = _steps(few)
    compares_many, branches_many = _steps(many)
    extra = len(COMMON) - 2
    assert (compares_many - compares_few, branches_many - branches_few) == (4 * extra, 5 * extra)


def test_a_time_in_a_frame_costs_four_comparisons_and_six_jumps() -> None:
    """PlatformTime and VisualTime of 8 bytes, the next common packets: no run and no frame boundary to look for."""
    def time(kind: K) -> bytes:
        return struct.pack("<BI", VARIANT.id_of[kind], 8) + bytes(8)

    few = HEADER + _frame(COMMON[:2])
    many = HEADER + FRAME_START + time(K.VISUAL_TIME) + b"".join(map(_empty, COMMON[:2])) + \
        time(K.PLATFORM_TIME) + FRAME_END
    compares_few, branches_few = _steps(few)
    compares_many, branches_many = _steps(many)
    assert (compares_many - compares_few, branches_many - branches_few) == (2 * 4, 2 * 6)


def _rules_at(data: bytes) -> list[tuple[str, int]]:
    report = _check.check_stream(io.BytesIO(data), path="x", variant=VARIANT, profile="spec")
    return sorted((f.rule, f.offset) for f in report.findings if f.rule.startswith("CARLA-ORDER"))


def test_a_kind_twice_or_late_is_still_found() -> None:
    start = len(HEADER) + len(FRAME_START)
    packet = len(_empty(COMMON[0]))
    twice = HEADER + _frame([COMMON[0], COMMON[1], COMMON[1], COMMON[2]])  # the third packet repeats a kind
    assert _rules_at(twice) == [("CARLA-ORDER-002", start + 2 * packet)]
    late = HEADER + _frame([COMMON[0], COMMON[2], COMMON[1], COMMON[3]])  # the third comes before the second
    assert _rules_at(late) == [("CARLA-ORDER-001", start + 2 * packet)]
    # the frame after a late kind starts the order again: its kinds in order are no finding
    assert _rules_at(late + _frame(COMMON[:4]).replace(struct.pack("<Q", 1), struct.pack("<Q", 2), 1)) == \
        [("CARLA-ORDER-001", start + 2 * packet)]


def test_progress_is_still_called_in_a_long_log() -> None:
    """The loop asks for progress after the packets that are not the common one (every frame's start and end):
    a log of 600 frames of 14 packets (8,400 packets, more than the 8,192 between two calls) reports once."""
    frames = b"".join(_frame(COMMON).replace(struct.pack("<Q", 1), struct.pack("<Q", i + 1), 1) for i in range(600))
    data = HEADER + frames
    calls: list[tuple[int, int]] = []
    _check.check_stream(io.BytesIO(data), path="x", variant=VARIANT, profile="spec",
                        progress=lambda done, total: calls.append((done, total)))
    assert len(COMMON) + 2 == 14
    assert calls and all(0 < done <= total == len(data) for done, total in calls)


def test_progress_is_called_inside_one_frame_of_many_packets() -> None:
    """A progress bar moves inside a frame too: one frame of 1,500 rounds of the 12 common kinds (18,000
    packets, over two of the 8,192-packet steps between calls) reports before its FrameEnd is read."""
    data = HEADER + FRAME_START + b"".join(map(_empty, COMMON)) * 1500 + FRAME_END
    calls: list[tuple[int, int]] = []
    _check.check_stream(io.BytesIO(data), path="x", variant=VARIANT, profile="spec",
                        progress=lambda done, total: calls.append((done, total)))
    assert len(COMMON) == 12
    inside = [done for done, total in calls if done < len(data) - len(FRAME_END)]
    assert len(inside) >= 2 and all(len(HEADER) < done for done in inside)
