"""Frames proved clean in bulk (conformance/carla/_frames.py): a log in its steady state, the same
frame shape again and again, with one frame broken somewhere in the run (the first frames a template
reads, inside a batch of 16 or 4, the last). The template and the reference frame must leave that
frame to the packet-by-packet walk, which reports it at the offset the layout gives
(docs/formats/carla.md: Position records of 28 bytes, State of 10 with the frozen flag at 4 and the
light state at 9, AnimVehicleWheels records of 8 + 9n bytes); the counts of frames, packets and
Position records are the layout's. Logs are put together byte by byte
(tests/build_carla.py), and each is checked with the fast paths on and off."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable

import pytest
from build_carla import (
    ADD,
    DEL,
    FRAMES,
    POSITION,
    POSITION_SIZE,
    STATE,
    STATE_SIZE,
    STEP,
    actor,
    both,
    counted,
    end,
    found,
    frame_starts,
    header,
    packet,
    position,
    start,
    steady,
)


@pytest.mark.parametrize("rotate", [False, True])
def test_a_steady_log_is_clean_and_counted(rotate: bool) -> None:
    report = both(steady(rotate=rotate))
    assert report.findings == []
    assert report.stats["frames"] == FRAMES and report.stats["packets"] == 5 + 4 * (FRAMES - 1)
    assert report.stats["position_records"] == 3 * FRAMES and report.stats["actors_added"] == 3


# frames of one batch of 16 or 4 and the ones a template or the reference reads first
BROKEN = (2, 3, 4, 6, 7, 18, 19, 22, 37, 50, 79, 80)


def _position_at(data: bytes, j: int) -> int:
    """The offset of frame j's Position payload (j from 1; frame 1 holds an EventAdd first)."""
    fs = frame_starts(data)[j - 1] + 5 + 24
    if j == 1:
        fs += 5 + struct.unpack_from("<I", data, fs + 1)[0]
    return fs + 5


def _state_at(data: bytes, j: int) -> int:
    pos = _position_at(data, j)
    count = struct.unpack_from("<H", data, pos)[0]
    return pos + 2 + count * POSITION_SIZE + 5


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize("rotate", [False, True])
def test_an_actor_that_is_not_alive_in_one_frame(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["positions"][1] = 9
    data = steady(edit, rotate=rotate)
    report = both(data)
    at = _position_at(data, j) + 2 + POSITION_SIZE  # record 1
    assert found(report, "CARLA-ACTOR-001") == [(at, 28, f"frame[{j - 1}]/packet[1]:Position/record[1].database_id")]
    assert [f.rule for f in report.findings] == ["CARLA-ACTOR-001"]


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize("rotate", [False, True])
def test_a_flag_of_two_in_one_frame(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["states"] = [(1, 0, 0), (2, 2, 1)]
    data = steady(edit, rotate=rotate)
    report = both(data)
    at = _state_at(data, j) + 2 + STATE_SIZE
    assert found(report, "CARLA-VALUE-001") == [(at, 10, f"frame[{j - 1}]/packet[2]:State/record[1].is_frozen")]
    assert [f.rule for f in report.findings] == ["CARLA-VALUE-001"]


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize(("light", "fires"), [(2, False), (3, True), (255, True)])
@pytest.mark.parametrize("rotate", [False, True])
def test_a_light_state_in_one_frame(j: int, light: int, fires: bool, rotate: bool) -> None:
    # 0.9.4-0.9.5 has three traffic-light states, 0..2
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["states"] = [(1, 0, light), (2, 1, 1)]
    data = steady(edit, rotate=rotate)
    report = both(data)
    at = _state_at(data, j) + 2
    assert found(report, "CARLA-ENUM-002") == ([(at, 10, f"frame[{j - 1}]/packet[2]:State/record[0].state")]
                                               if fires else [])
    assert len(report.findings) == fires


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize("rotate", [False, True])
def test_a_frame_id_that_skips(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i >= j:
            parts["id"] = i + 1  # every id from frame j on is one up: only frame j breaks the count
    data = steady(edit, rotate=rotate)
    report = both(data)
    fs = frame_starts(data)[j - 1] + 5
    rule = "CARLA-FRAME-003"
    assert found(report, rule) == [(fs, 8, f"frame[{j - 1}]/packet[0]:FrameStart.frame_id")]
    assert [(f.expected, f.actual) for f in report.findings if f.rule == rule] == [(1 if j == 1 else j, j + 1)]
    assert [f.rule for f in report.findings] == [rule]


@pytest.mark.parametrize("j", [b for b in BROKEN if b < FRAMES])
@pytest.mark.parametrize("rotate", [False, True])
def test_a_step_that_does_not_add_up(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["duration"] = 0.25
    data = steady(edit, rotate=rotate)
    report = both(data)
    fs = frame_starts(data)[j] + 5  # frame j + 1's elapsed is not frame j's + 0.25
    assert found(report, "CARLA-FRAME-004") == [(fs + 16, 8, f"frame[{j}]/packet[0]:FrameStart.elapsed")]
    assert [(f.expected, f.actual) for f in report.findings if f.rule == "CARLA-FRAME-004"] == \
        [((j - 1) * STEP + 0.25, j * STEP)]
    assert [f.rule for f in report.findings] == ["CARLA-FRAME-004"]


@pytest.mark.parametrize("j", [b for b in BROKEN if b < FRAMES])
@pytest.mark.parametrize("rotate", [False, True])
def test_a_negative_step_before_the_last_frame(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["duration"] = -STEP
        if i > j:
            parts["elapsed"] = (i - 2) * STEP  # elapsed follows the negative step, bit for bit
    data = steady(edit, rotate=rotate)
    report = both(data)
    fs = frame_starts(data)[j - 1] + 5
    assert found(report, "CARLA-FRAME-008") == [(fs + 8, 8, f"frame[{j - 1}]/packet[0]:FrameStart.duration_this")]
    assert [f.rule for f in report.findings] == ["CARLA-FRAME-008"]


@pytest.mark.parametrize("j", [b for b in BROKEN if b < FRAMES])
@pytest.mark.parametrize("rotate", [False, True])
def test_a_zero_step_is_not_negative(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["duration"] = 0.0
        if i > j:
            parts["elapsed"] = (i - 2) * STEP
    assert both(steady(edit, rotate=rotate)).findings == []


@pytest.mark.parametrize("j", [b for b in BROKEN if b < FRAMES])
@pytest.mark.parametrize("which", ["duration", "elapsed"])
@pytest.mark.parametrize("rotate", [False, True])
def test_timing_that_is_not_finite_in_one_frame(j: int, which: str, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts[which] = math.inf
    data = steady(edit, rotate=rotate)
    report = both(data)
    fs = frame_starts(data)[j - 1] + 5
    assert found(report, "CARLA-FRAME-010") == [(fs + 8, 16, f"frame[{j - 1}]/packet[0]:FrameStart")]


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize("rotate", [False, True])
def test_a_frame_of_another_shape_is_walked(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["positions"] = parts["positions"][:2]  # 28 bytes less: no finding, the record counted
    report = both(steady(edit, rotate=rotate))
    assert report.findings == []
    assert report.stats["position_records"] == 3 * FRAMES - 1 and report.stats["frames"] == FRAMES


def test_frames_with_no_record_judged_are_proved_too() -> None:
    def edit(i: int, parts: dict) -> None:
        parts["positions"], parts["states"] = [], []
    data = steady(edit)
    report = both(data)
    assert report.findings == [] and report.stats["position_records"] == 0
    assert report.stats["packets"] == 5 + 4 * (FRAMES - 1)


# --- AnimVehicleWheels, 0.9.15: ids 21 (wheels) and 22 (bikers); VisualTime 20 -------------------

WHEELS, BIKER, VISUAL_TIME = 21, 22, 20
ANIM_VEHICLE, ANIM_WALKER, VEHICLE_LIGHT = 8, 9, 10


def wheels_log(vehicle: Callable[[int], tuple[int, int]], frames: int = 40) -> bytes:
    """0.9.15 frames in the writer's order with every packet it always writes; vehicle(i): frame i's
    AnimVehicleWheels record's vehicle id and wheel count."""
    out = [header()]
    for i in range(1, frames + 1):
        body = start(i, -1.0 if i == frames else STEP, (i - 1) * STEP)
        body += packet(VISUAL_TIME, struct.pack("<d", 100.0 + i))
        if i == 1:
            body += counted(ADD, [actor(4), actor(5)])
        ident, n = vehicle(i)
        record = struct.pack("<II", ident, n) + struct.pack("<Bff", 0, 1.0, 2.0) * n
        body += counted(POSITION, [position(4)]) + counted(STATE, []) + counted(ANIM_VEHICLE, [])
        body += counted(ANIM_WALKER, []) + counted(VEHICLE_LIGHT, [])
        body += counted(WHEELS, [struct.pack("<II", 5, 1) + struct.pack("<Bff", 1, 0.0, 0.0), record])
        body += counted(BIKER, []) + end()
        out.append(body)
    return b"".join(out)


def test_wheels_in_the_steady_state_are_clean() -> None:
    report = both(wheels_log(lambda i: (4, 4)), "0.9.15")
    assert report.findings == [] and report.stats["frames"] == 40 and report.stats["packets"] == 11 + 10 * 39


@pytest.mark.parametrize("j", [2, 3, 7, 19, 22, 40])
def test_wheels_of_a_vehicle_that_is_not_alive_in_one_frame(j: int) -> None:
    data = wheels_log(lambda i: (6 if i == j else 4, 4))
    report = both(data, "0.9.15")
    fs = frame_starts(data)[j - 1]
    wheels = fs + 29
    # VisualTime, (EventAdd,) Position, State, AnimVehicle, AnimWalker, VehicleLight
    for _ in range(7 if j == 1 else 6):
        wheels += 5 + struct.unpack_from("<I", data, wheels + 1)[0]
    assert data[wheels] == WHEELS
    record1 = wheels + 5 + 2 + 8 + 9  # after the first record: 8 bytes and one 9-byte wheel
    index = 8 if j == 1 else 7
    assert found(report, "CARLA-ACTOR-001") == [
        (record1, 4, f"frame[{j - 1}]/packet[{index}]:AnimVehicleWheels/record[1].database_id")]


@pytest.mark.parametrize("j", [2, 7, 22, 40])
def test_a_wheel_count_that_changes_is_walked(j: int) -> None:
    report = both(wheels_log(lambda i: (4, 3 if i == j else 4)), "0.9.15")
    assert report.findings == [] and report.stats["frames"] == 40


# --- how the steady state is proved ----------------------------------------------------------

STEADY_LOGS = {  # name: the log, its variant, frame 1's packets, frames the reference proves, the template
    "same": (lambda: steady(), "0.9.4-0.9.5", 5, FRAMES - 2, 1),
    "rotate": (lambda: steady(rotate=True), "0.9.4-0.9.5", 5, 0, FRAMES - 1),
    # a template is built where the rest of the file holds two frames of the size of the one walked last: here
    # the last frame, with its Positions ten times over
    "two frames": (lambda: steady(lambda i, parts: parts.update(positions=[1, 2, 3] * 10) if i == 2 else None,
                                  frames=2), "0.9.4-0.9.5", 5, 0, 1),
    "one record each": (lambda: steady(lambda i, parts: parts.update(positions=[2], states=[(1, 0, 1)])),
                        "0.9.4-0.9.5", 5, FRAMES - 2, 1),
    "wheels": (lambda: wheels_log(lambda i: (4, 4)), "0.9.15", 11, 38, 1),
    "empty events": (lambda: steady(events=True), "0.9.4-0.9.5", 8, FRAMES - 2, 1),
}


@pytest.mark.parametrize("name", list(STEADY_LOGS))
def test_the_steady_state_is_proved_without_walking_its_packets(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    # the module's promise: a template proves the first frame of a shape, and the frames after it
    # are proved by the reference frame (the same bytes where judged), or, where their actor ids
    # move ("rotate"), by the template in batches of 16, 4 and 1; only frame 1 (its EventAdd
    # makes it another shape) is walked packet by packet
    from recspec.conformance.carla import _frames
    from recspec.conformance.carla._check import _Walk
    make, variant, first, expect_reference, expect_template = STEADY_LOGS[name]
    walked, by_reference, by_template = [0], [0], [0]
    walk_packet, run, match = _Walk.packet, _frames.Reference.run, _frames.FrameTemplate.match

    def counting_walk(self, raw):  # type: ignore[no-untyped-def]
        walked[0] += 1
        return walk_packet(self, raw)

    def counting_run(self, *args):  # type: ignore[no-untyped-def]
        n, last = run(self, *args)
        by_reference[0] += n if last is not None else 0
        return n, last

    def counting_match(self, buf, i, k, *args):  # type: ignore[no-untyped-def]
        last = match(self, buf, i, k, *args)
        by_template[0] += k if last is not None else 0
        return last
    monkeypatch.setattr(_Walk, "packet", counting_walk)
    monkeypatch.setattr(_frames.Reference, "run", counting_run)
    monkeypatch.setattr(_frames.FrameTemplate, "match", counting_match)
    data = make()
    report = both(data, variant)
    frames = report.stats["frames"]
    assert report.findings == [] and frames == 1 + expect_reference + expect_template
    # both() checks twice: with the fast paths, frame 1's packets; without, every packet
    assert walked[0] == first + report.stats["packets"]
    assert (by_reference[0], by_template[0]) == (expect_reference, expect_template)


def test_a_cut_after_proved_frames_names_the_last_complete_one() -> None:
    data = steady()
    cut = frame_starts(data)[FRAMES - 1] + 10  # inside frame 80's FrameStart
    report = both(data[:cut])
    (f,) = report.findings
    assert f.rule == "CARLA-STREAM-001" and f.offset == cut - 10 and f.length == 10
    assert f"last complete frame: frame[{FRAMES - 2}] (id {FRAMES - 1})" in f.message
    assert report.stats["frames"] == FRAMES - 1 and report.stats["duration_s"] == (FRAMES - 2) * STEP


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize("rotate", [False, True])
def test_a_packet_twice_in_one_frame(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        parts["twice"] = i == j
    data = steady(edit, rotate=rotate)
    report = both(data)
    second = _state_at(data, j) + 2 + 2 * STATE_SIZE  # the first State's two records end there
    assert found(report, "CARLA-ORDER-002") == [(second, 5 + 2 + 2 * STATE_SIZE, f"frame[{j - 1}]/packet[3]:State")]
    assert [f.rule for f in report.findings] == ["CARLA-ORDER-002"]


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize("rotate", [False, True])
def test_a_deletion_in_one_frame(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        if i == j:
            parts["deleted"] = [7]  # never added
    data = steady(edit, rotate=rotate)
    report = both(data)
    record = frame_starts(data)[j - 1] + 29 + (0 if j > 1 else 5 + struct.unpack_from("<I", data,
                                                                                       frame_starts(data)[0] + 30)[0])
    assert data[record] == DEL
    assert found(report, "CARLA-ACTOR-003") == [(record + 7, 4, f"frame[{j - 1}]/packet[{1 if j > 1 else 2}]:EventDel"
                                                                "/record[0].database_id")]
    assert [f.rule for f in report.findings] == ["CARLA-ACTOR-003"]


@pytest.mark.parametrize("j", BROKEN)
@pytest.mark.parametrize("rotate", [False, True])
def test_a_short_frame_start_in_one_frame(j: int, rotate: bool) -> None:
    def edit(i: int, parts: dict) -> None:
        parts["short"] = i == j
    data = steady(edit, rotate=rotate)
    report = both(data)
    at = frame_starts(data)[j - 1]
    assert found(report, "CARLA-PACKET-001") == [(at, 21, f"frame[{j - 1}]/packet[0]:FrameStart")]
    assert [f.rule for f in report.findings] == ["CARLA-PACKET-001"]
