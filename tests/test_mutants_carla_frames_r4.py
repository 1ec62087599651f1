"""Frames proved clean in bulk (conformance/carla/_frames.py) at the edges of the module docstring's bounds and
of the walk's timing rules: ``follow_on`` over batches of frames (ids one up from the frame before, elapsed
the frame before's elapsed plus its durationThis, no durationThis below 0 before the last, times finite:
CARLA-FRAME-003, -004, -008, -010 of docs/formats/carla.md), and ``build_template``'s bounds (at most
``MAX_FRAME`` bytes and ``MAX_FIELDS`` fields; the packets in the writer's order, each once, no FrameCounter).
Frames are packed with ``struct`` from the layout: a packet is a u8 id, a u32 size and the payload; a
FrameStart holds a u64 id and two f64 times; a fixed-record packet a u16 count and its records (Position 28
bytes: u32 id, 6 x f32; VehicleLight 8: u32 id, u32 bitmask; VehicleDoor 6: u32 id, u8 door, u8 is_open).
Written against the survivors of a fresh sample of tools/mutate.py's mutants of the module (seed 3)."""

from __future__ import annotations

import math
import struct

import pytest
from test_carla_limits_runs import FRAME_END
from test_carla_limits_runs import _packet as _raw_packet

from recspec.conformance.carla import _check as carla_check
from recspec.conformance.carla import _frames
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS
from recspec.reference.carla import PacketKind as K

STEP = 0.5  # exact in binary: elapsed adds up bit for bit
PREV = (41, STEP, 20.0, 1234)  # the frame before: id, durationThis, elapsed, offset


def _fields(timing: list[tuple[int, float, float]], n: int) -> tuple[object, ...]:
    """A template's reading of frames whose FrameStarts hold ``timing`` (id, durationThis, elapsed), ``n``
    fields a frame: the FrameStart's packet id (0) and size (24), its three fields, then fields of the frame's
    other packets (here 7s)."""
    out: list[object] = []
    for frame_id, duration, elapsed in timing:
        out += [0, 24, frame_id, duration, elapsed] + [7] * (n - 5)
    return tuple(out)


def _on(k: int) -> list[tuple[int, float, float]]:
    """``k`` frames that follow on from ``PREV``."""
    return [(PREV[0] + j, STEP, PREV[2] + j * STEP) for j in range(1, k + 1)]


@pytest.mark.parametrize("n", [5, 9])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 16])
def test_frames_that_follow_on_give_the_last_ones_timing(k: int, n: int) -> None:
    timing = _on(k)
    assert _frames.follow_on(PREV, _fields(timing, n), n, k) == timing[-1]
    last = (*timing[-1][:1], -1.0, timing[-1][2])  # the last frame's durationThis -1.0, as the writer ends a log
    assert _frames.follow_on(PREV, _fields([*timing[:-1], last], n), n, k) == last


@pytest.mark.parametrize("k", [3, 4, 16])
@pytest.mark.parametrize("fault", ["id-repeated", "id-skipped", "elapsed", "negative", "nan"])
def test_a_frame_inside_a_batch_that_does_not_follow_on(k: int, fault: str) -> None:
    """The fault is in the second frame, so that the first and the last follow on from their neighbours' ids."""
    timing = _on(k)
    frame_id, duration, elapsed = timing[1]
    timing[1] = {"id-repeated": (frame_id - 1, duration, elapsed), "id-skipped": (frame_id + 1, duration, elapsed),
                 "elapsed": (frame_id, duration, elapsed + STEP), "negative": (frame_id, -STEP, elapsed),
                 "nan": (frame_id, duration, math.nan)}[fault]
    if fault == "negative":  # the frame after adds the negative step: only FRAME-008 is broken
        timing[2:] = [(i, d, e - 2 * STEP) for i, d, e in timing[2:]]
    assert _frames.follow_on(PREV, _fields(timing, 5), 5, k) is None


# --- build_template's bounds ------------------------------------------------------------------------------

V = VARIANTS["0.9.16"]  # Position 6, VehicleLight 10, FrameCounter 18, VehicleDoor 23


def _template(*middle: bytes) -> _frames.FrameTemplate | None:
    data = _raw_packet(0, struct.pack("<Qdd", 1, STEP, 0.0)) + b"".join(middle) + FRAME_END
    walk = carla_check._Walk(V, None)  # type: ignore[arg-type]  # the sink is not used here
    return _frames.build_template(lambda n: (data, 0), None, V, walk.order, walk.required, m.MAX_PACKET_SIZE,
                                  lacking=True)


def _counted(kind: K, fmt: str, records: list[tuple[object, ...]]) -> bytes:
    return _raw_packet(V.id_of[kind], struct.pack("<H", len(records)) + b"".join(struct.pack("<" + fmt, *r)
                                                                                 for r in records))


def _positions(count: int) -> bytes:
    return _counted(K.POSITION, "I6f", [(7, 0, 0, 0, 0, 0, 0)] * count)


def _lights(count: int) -> bytes:
    return _counted(K.VEHICLE_LIGHT, "II", [(7, 1)] * count)


def test_a_frame_of_max_frame_bytes_is_made_a_template_and_one_record_more_is_not() -> None:
    """FrameStart (29 bytes), 9,360 Position records (5 + 2 + 28 x 9,360), 2 VehicleLight records (5 + 2 + 16),
    FrameEnd (5): 262,144 bytes, ``MAX_FRAME``."""
    assert _frames.MAX_FRAME == 262_144 == 29 + 7 + 28 * 9_360 + 7 + 16 + 5
    t = _template(_positions(9_360), _lights(2))
    assert t is not None and t.size == 262_144 and t.position_records == 9_360
    assert _template(_positions(9_361), _lights(2)) is None


def test_a_frame_of_exactly_max_fields_fields_is_made_a_template() -> None:
    """A frame's reading: FrameStart's id, size and three fields, each packet's id and size, a count, and the
    judged fields of each record (a VehicleDoor's id, door and is_open): 10 + 3 x 21,842 = 65,536, ``MAX_FIELDS``."""
    assert _frames.MAX_FIELDS == 65_536 == 10 + 3 * 21_842
    t = _template(_counted(K.VEHICLE_DOOR, "IBB", [(7, 1, 0)] * 21_842))
    assert t is not None and t.fields == 65_536
    assert _template(_counted(K.VEHICLE_DOOR, "IBB", [(7, 1, 0)] * 21_843)) is None


def test_packets_out_of_the_writers_order_make_no_template() -> None:
    """The writer's order puts Position (6) before VehicleLight (10), each once a frame; FrameCounter (18) is
    not among the packets a template is made of."""
    assert _template(_positions(1), _lights(1)) is not None
    assert _template(_lights(1), _positions(1)) is None
    assert _template(_positions(1), _positions(1)) is None
    assert _template(_positions(1), _raw_packet(V.id_of[K.FRAME_COUNTER], struct.pack("<Q", 5))) is None
