"""Frames whose FrameStart timing breaks rules, in floods: once CARLA-FRAME-003/-004/-008/-010 only count,
the templates (``_Walk._counted_timing``) and the runs of frames that repeat but for their timing
(``_repeat_frames``) take them in bulk, judging each frame's timing against the frame before as
``frame_start`` does (``_check._timing_faults``). Every test holds the fast path to the packet-by-packet walk
(``fast_path=False``): the same findings, counts, verdicts and stats."""

from __future__ import annotations

import io
import math
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_bulk_frames import V, _log
from test_carla_bulk_frames import _same as _same_json
from test_carla_limits_runs import CARLA_HEADER, FRAME_END, _add, _carla, _packet
from test_limits_runs import _Counting, _same

from helpers import load_script
from recspec.conformance.carla import _check as carla_check
from recspec.conformance.carla import _frames

DELTA = 0.05


def _start(frame_id: int, duration: float, elapsed: float) -> bytes:
    return _packet(0, struct.pack("<Qdd", frame_id, duration, elapsed))


#: Frame bodies between FrameStart and FrameEnd (0.9.15): none (each frame lacks the packets the release
#: writes in every frame: CARLA-FRAME-011), an AnimVehicleWheels packet claiming 2^32-1 wheels (a malformed
#: packet, the same in every frame), and a Position record of actor 7 (alive) whose coordinates change from
#: frame to frame; then bodies whose bytes differ from frame to frame only where no rule reads them (a
#: location, a steering, a time) and break a rule each: a Position of actor 99 (never added: CARLA-ACTOR-001),
#: an AnimVehicle whose handbrake flag is 2 (CARLA-VALUE-001), a traffic light State of state 9 (an enum out
#: of range); bodies whose judged bytes change while the rules answer the same (a new actor never added in
#: each frame, a handbrake flag of 2 to 255); and bodies whose answers change (a handbrake 0, 1, 1, 2, 2, 2 in turn; an
#: actor alive or not in turn), so that a run of frames alike stops
BODIES = {
    "empty": lambda i: b"",
    "wheels": lambda i: _packet(21, struct.pack("<HII", 1, 7, 2**32 - 1)),
    "position": lambda i: _packet(6, struct.pack("<HI6f", 1, 7, float(i), 0, 0, 0, 0, 0)),
    "dead-position": lambda i: _packet(6, struct.pack("<HI6f", 1, 99, float(i), 0, 0, 0, 0, 0)),
    "handbrake": lambda i: _packet(8, struct.pack("<HIfffBi", 1, 7, 0.01 * i, 0.5, 0.0, 2, 3)),
    "light-state": lambda i: _packet(7, struct.pack("<HIBfB", 1, 7, 0, 0.5 * i, 9)),
    # judged bytes that differ in every frame while the rules answer the same: a new actor never added, a
    # handbrake flag from 2 to 255
    "new-dead": lambda i: _packet(6, struct.pack("<HI6f", 1, 1000 + i, 0, 0, 0, 0, 0, 0)),
    "handbrakes": lambda i: _packet(8, struct.pack("<HIfffBi", 1, 7, 0.5, 0.5, 0.0, 2 + i % 254, 3)),
    "handbrake-turns": lambda i: _packet(8, struct.pack("<HIfffBi", 1, 7, 0.01 * i, 0.5, 0.0, (0, 1, 1, 2, 2, 2)[i % 6],
                                                          3)),
    "dead-turns": lambda i: _packet(6, struct.pack("<HI6f", 1, 7 if i % 5 else 99, float(i), 0, 0, 0, 0, 0)),
}

#: How one frame's timing departs from the writer's (each frame: id one up, elapsed the frame before's
#: elapsed plus its durationThis, durationThis 0.05): elapsed reset to 0, standing still, going back; the id
#: repeated, skipped, the largest; durationThis -1 before the last frame; times not finite
TIMINGS = ("on", "zero", "still", "back", "dup", "skip", "max-id", "negative", "nan", "inf")


def timings(modes: list[str]) -> list[tuple[int, float, float]]:
    """Each frame's (id, durationThis, elapsed) under ``modes``, one a frame; the last durationThis -1.0."""
    out: list[tuple[int, float, float]] = []
    frame_id, duration, elapsed = 0, DELTA, 0.0
    for n, mode in enumerate(modes):
        frame_id = 2**64 - 1 if mode == "max-id" else (frame_id + {"dup": 0, "skip": 2}.get(mode, 1)) % 2**64
        if n:
            elapsed = {"zero": 0.0, "still": elapsed, "back": elapsed - 0.5, "nan": math.nan}.get(mode,
                                                                                              elapsed + duration)
        duration = {"negative": -1.0, "inf": math.inf}.get(mode, DELTA)
        if n == len(modes) - 1:
            duration = -1.0
        out.append((frame_id, duration, elapsed))
    return out


def frames_log(runs: list[tuple[str, list[str], int]]) -> bytes:
    """A 0.9.15 log of runs of frames: ``(body, cycle of timing modes, times)``; the first frame adds actor 7."""
    bodies: list[str] = []
    modes: list[str] = []
    for body, cycle, times in runs:
        bodies += [body] * (len(cycle) * times)
        modes += cycle * times
    return CARLA_HEADER + b"".join(_start(*timing) + (_add(7) if i == 0 else b"") + BODIES[body](i) + FRAME_END
                                   for i, (body, timing) in enumerate(zip(bodies, timings(modes))))


def _both(data: bytes, profile: str = "spec") -> Any:
    """The report of the fast path, which must be the walk's (as JSON: a NaN time is not equal to itself)."""
    fast = _carla(data, fast_path=True, profile=profile, variant="0.9.15")
    assert fast.to_json() == _carla(data, fast_path=False, profile=profile, variant="0.9.15").to_json()
    return fast


def test_a_flood_of_frames_at_elapsed_0_is_walked_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """hostile.py's carla-elapsed-frames: empty frames all at elapsed 0, their ids one up. Each frame from the
    second on breaks CARLA-FRAME-004 (0 != previous elapsed 0 + 0.05) and each lacks the packets of every
    frame (CARLA-FRAME-011); once both only count, the frames are not walked packet by packet."""
    n = 20_000
    data = CARLA_HEADER + b"".join(_start(i + 1, DELTA if i + 1 < n else -1.0, 0.0) + FRAME_END for i in range(n))
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _carla(data, fast_path=True, variant="0.9.15")
    assert calls.calls < 2 * 400  # the frames until both rules have their 100 stored findings, and a few
    assert report.stats["frames"] == n and report.stats["packets"] == 2 * n
    assert report.capped == {"CARLA-FRAME-004": n - 1, "CARLA-FRAME-011": n}
    assert report.stats["duration_s"] == 0.0
    stored = [f for f in report.findings if f.rule == "CARLA-FRAME-004"]
    assert len(stored) == 100 and stored[0].offset == len(CARLA_HEADER) + 34 + 5 + 16  # frame[1]'s elapsed
    _same(report, _carla(data, fast_path=False, variant="0.9.15"))


@pytest.mark.parametrize("cycle", [["zero", "on"], ["on", "still", "back"], ["dup"], ["skip", "negative"],
                                   ["nan"], ["inf", "on"]])
@pytest.mark.parametrize("body", ["empty", "wheels", "position", "dead-position", "handbrake", "light-state"])
def test_floods_of_timing_faults_are_walked_in_bulk(monkeypatch: pytest.MonkeyPatch, cycle: list[str],
                                                    body: str) -> None:
    """Timing faults of every kind, alone and alternating with frames that follow on, in frames that are all
    alike (empty, or with the same malformed packet: the runs of repeated frames), clean frames that differ in
    a payload (Position: the templates), and frames with a finding that differ where no rule reads (the runs
    of frames alike where judged): the same report as the walk, and most frames not walked."""
    data = frames_log([(body, cycle, 3000 // len(cycle))])
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _both(data)
    walked = calls.calls - report.stats["packets"]  # _both walks every packet once more without the fast path
    assert walked < report.stats["packets"] // 4
    assert report.stats["frames"] == 3000 // len(cycle) * len(cycle)


_RUN = st.tuples(st.sampled_from(sorted(BODIES)), st.lists(st.sampled_from(TIMINGS), min_size=1, max_size=3),
                 st.integers(1, 200))


@given(runs=st.lists(_RUN, min_size=1, max_size=5), profile=st.sampled_from(["spec", "compat"]))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_frames_with_timing_faults_give_the_same_report(runs: list[tuple[str, list[str], int]], profile: str) -> None:
    _both(frames_log(runs), profile)


@given(runs=st.lists(_RUN, min_size=1, max_size=3),
       edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4),
       insert=st.one_of(st.none(), st.tuples(st.floats(0, 1), st.binary(max_size=40))),
       remove=st.one_of(st.none(), st.tuples(st.floats(0, 1), st.integers(1, 40))), cut=st.integers(0, 40))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_edited_floods_of_timing_faults_give_the_same_report(runs: list[tuple[str, list[str], int]],
                                                             edits: list[tuple[float, int]],
                                                             insert: tuple[float, bytes] | None,
                                                             remove: tuple[float, int] | None, cut: int) -> None:
    """The same logs with bytes overwritten (a FrameStart's time or id among them), some inserted, some
    removed and the end cut: a run stops at the first frame that differs, and the report is the walk's."""
    data = bytearray(frames_log(runs + [("empty", ["zero"], 150)]))
    start = len(CARLA_HEADER)
    for at, value in edits:
        data[start + int(at * (len(data) - start - 1))] = value
    if insert is not None:
        at = start + int(insert[0] * (len(data) - start))
        data[at:at] = insert[1]
    if remove is not None:
        at = start + int(remove[0] * (len(data) - start))
        del data[at:at + remove[1]]
    _both(bytes(data[:len(data) - cut]))


_STEADY_TIMINGS = st.lists(st.tuples(st.lists(st.sampled_from(TIMINGS), min_size=1, max_size=3),
                                     st.integers(1, 120)), min_size=1, max_size=4)


@given(runs=_STEADY_TIMINGS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_steady_frames_with_timing_faults_give_the_same_report(runs: list[tuple[list[str], int]]) -> None:
    """Clean 0.9.15 frames of every packet the release writes (the templates and the reference frame prove
    them), with timing faults in runs: the same JSON report as the walk."""
    modes = [mode for cycle, times in runs for mode in cycle * times]
    changes = {f"time{i}": (duration, elapsed) for i, (_, duration, elapsed) in enumerate(timings(modes))}
    changes.update({f"id{i}": frame_id for i, (frame_id, _, _) in enumerate(timings(modes))})
    _same_json(_log(len(modes), **changes), V)


def test_steady_frames_at_elapsed_0_are_taken_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clean frames that all say elapsed 0: past the first 100 CARLA-FRAME-004 findings, they are not walked."""
    n = 600
    changes = {f"time{i}": (DELTA if i < n - 1 else -1.0, 0.0) for i in range(n)}
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _same_json(_log(n, **changes), V)
    assert report.capped == {"CARLA-FRAME-004": n - 1}
    per_frame = report.stats["packets"] // n
    assert calls.calls - report.stats["packets"] < 200 * per_frame  # the slow path walks every packet once


@pytest.mark.parametrize("body", ["dead-position", "handbrake", "light-state", "new-dead", "handbrakes"])
def test_frames_alike_where_judged_are_walked_in_bulk(monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """hostile.py's carla-moving-frames and carla-distinct-actor-frames: frames timed as CARLA writes them,
    each with the same finding, their bytes different from frame to frame where no rule reads them or where
    the rules answer the same (another actor not alive, another flag above 1): walked until their rules have
    their stored findings, then taken in bulk, with every finding counted."""
    n = 3_000
    data = frames_log([(body, ["on"], n)])
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    report = _both(data)
    assert calls.calls - report.stats["packets"] < 3 * 400
    rule = {"dead-position": "CARLA-ACTOR-001", "handbrake": "CARLA-VALUE-001", "light-state": "CARLA-ENUM-002",
            "new-dead": "CARLA-ACTOR-001", "handbrakes": "CARLA-VALUE-001"}[body]
    assert report.capped == {rule: n, "CARLA-FRAME-011": n}


@pytest.mark.parametrize("body", ["handbrake-turns", "dead-turns"])
def test_a_run_of_frames_alike_stops_where_a_judged_byte_changes(body: str) -> None:
    """Frames whose handbrake flag (0, 1, 1, 2, 2, 2 in turn) or actor (alive but every fifth frame) changes: a
    run stops at the first frame the rules answer otherwise, and the findings are counted as the walk counts
    them."""
    n = 3_000
    report = _both(frames_log([(body, ["on"], n)]))
    rule, broken = {"handbrake-turns": ("CARLA-VALUE-001", n // 2), "dead-turns": ("CARLA-ACTOR-001", n // 5)}[body]
    assert report.verdicts["spec"].rules[rule] == broken


def test_alike_frames_are_read_many_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """hostile.py's carla-moving-frames (one Position record of an actor never added in every frame, its location
    moving): once the rules only count, the frames are read by the template up to ALIKE_BATCHES[0] (64) at a
    time, not one by one: 3,000 frames take well under one read for 8 frames (about 150 here: the first
    frames, walked while the rules still store findings, and the batches after them), and the report is the
    walk's."""
    hostile = load_script("benchmarks/hostile.py", "recspec_hostile")
    buf = io.BytesIO()
    hostile.carla_moving_frames(buf, 3000)
    calls = [0]
    inner = _frames.FrameTemplate.breaks

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return inner(self, *args, **kwargs)

    monkeypatch.setattr(_frames.FrameTemplate, "breaks", counted)
    report = _same_json(buf.getvalue(), V)
    assert report.stats["frames"] == 3000
    assert calls[0] <= 3000 // 8, calls[0]


def test_alike_frames_after_failed_tries_are_still_taken_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frames' tries at reading the next frame alike (``_judged_alike``) wait longer after each failure, and
    the wait runs out: frames whose Position record's actor is alive in one and not in the next (the rules read
    them differently) make the first tries fail; the 3,000 frames after them, of one actor never added moving
    from frame to frame, are still read in bulk once CARLA-ACTOR-001 only counts. The walk's packets: the first
    frames and about a hundred after them, not the 3,000."""
    position = struct.Struct("<HI6f")
    times = [0.0]
    for _ in range(3_009):  # the writer's arithmetic: each elapsed the one before plus its durationThis
        times.append(times[-1] + DELTA)

    def frame(i: int, actor: int) -> bytes:
        return (_start(i + 1, DELTA, times[i]) + _packet(6, position.pack(1, actor, float(i), 2.0, 0, 0, 0, 0))
                + FRAME_END)

    first = [frame(0, 5)[:-len(FRAME_END)] + _add(5) + FRAME_END]  # actor 5 added in frame 0
    turns = [frame(i, 5 if i % 2 else 7) for i in range(1, 10)]  # alive, not alive, ...
    steady = [frame(i, 7) for i in range(10, 3_010)]
    data = CARLA_HEADER + b"".join(first + turns + steady)
    walked = [0]
    inner = carla_check._Walk.packet

    def counted(self: Any, raw: Any) -> bool:
        walked[0] += 1
        return inner(self, raw)  # whether the loop has more to do after the packet

    report = _same_json(data, V)  # the fast path's report is the walk's
    assert report.stats["frames"] == 3_010
    monkeypatch.setattr(carla_check._Walk, "packet", counted)
    carla_check.check_stream(io.BytesIO(data), path="x", variant=V, profile="spec")
    assert walked[0] < 3 * 400, walked[0]  # three packets a frame
