"""Frames whose shapes come back every 2 to 4 frames, each unlike the one before (hostile.py's
carla-two-shape-frames: empty frames in turn with frames holding an empty EventDel): a template of one frame
proves one frame a step, so the checker makes a template of the whole cycle (``_frames.cycle_template``,
found by ``_check._frame_cycle`` from the frames' sizes) and proves the cycles in bulk. Every test holds the
fast path to the packet-by-packet walk (``fast_path=False``): the same findings, counts, verdicts and stats."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_bulk_frames import DELTA, V, _added, _body, _BulkCount, _packet, _ReferenceCount, _same
from test_carla_frame_timing_runs import TIMINGS, timings
from test_carla_limits_runs import CARLA_HEADER, FRAME_END, _add
from test_carla_limits_runs import _packet as _raw_packet
from test_carla_template_gate import _Builds, _offsets
from test_limits_runs import _Counting

from recspec.conformance.carla import _check as carla_check
from recspec.conformance.carla import _frames
from recspec.reference import carla as m
from recspec.reference.carla import PacketKind as K
from recspec.reference.carla import encode

HEADER = m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD")

#: Clean frame shapes of a steady 0.9.15 log (``_body``'s every packet): how many of the ACTORS have a Position
#: record (28 bytes each) and whether the VehicleLight packet holds its record (5 bytes): six sizes, all
#: different.
SHAPES = [(p, light) for p in (1, 2, 3) for light in (True, False)]


def _cycle_log(shapes: list[tuple[int, bool]], frames: int, **changes: Any) -> bytes:
    """A 0.9.15 log of ``frames`` frames whose shapes are ``shapes`` in turn (frame ``i`` of ``SHAPES``'s
    kind ``shapes[i % len(shapes)]``, or ``changes["shape<i>"]``); ``changes`` as ``_log``'s: keyword arguments
    of ``_body`` (``body<i>``), a (duration, elapsed) (``time<i>``), an id (``id<i>``)."""
    packets: list[m.Packet] = []
    at = 0.0
    for i in range(frames):
        body = _body(i, **changes.get(f"body{i}", {}))
        positions, light = changes.get(f"shape{i}", shapes[i % len(shapes)])
        if i == 0:
            body[1] = _packet(K.EVENT_ADD, _added())
        body[5] = _packet(K.POSITION, body[5].body[:positions])
        if not light:
            body[9] = _packet(K.VEHICLE_LIGHT, ())
        duration, elapsed = changes.get(f"time{i}", (DELTA if i < frames - 1 else -1.0, at))
        at += DELTA
        packets += [_packet(K.FRAME_START, m.FrameStart(changes.get(f"id{i}", i + 1), duration, elapsed)), *body,
                    _packet(K.FRAME_END, m.FrameEnd())]
    return encode(m.Recording(HEADER, tuple(packets)), variant=V)


def _frame_starts(data: bytes) -> list[int]:
    """The offsets of the log's FrameStart packets, by framing it (not by the search ``_frame_cycle`` makes)."""
    return _offsets(data, K.FRAME_START)


def _two_shape_flood(n: int) -> bytes:
    """hostile.py's carla-two-shape-frames at ``n`` frames: timed as CARLA writes them, in turn FrameStart and
    FrameEnd only (34 bytes) and with an empty EventDel between them (41 bytes); each lacks the packets of every
    frame (CARLA-FRAME-011)."""
    empty_del = _raw_packet(3, struct.pack("<H", 0))
    elapsed = [0.0]
    for _ in range(n - 1):
        elapsed.append(elapsed[-1] + DELTA)  # the writer's arithmetic (``i * DELTA`` would differ in places)
    return CARLA_HEADER + b"".join(
        _raw_packet(0, struct.pack("<Qdd", i + 1, DELTA if i + 1 < n else -1.0, elapsed[i]))
        + (empty_del if i % 2 else b"") + FRAME_END for i in range(n))


def test_the_two_shape_flood_is_proved_in_bulk_by_few_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before cycles, the flood's frames were walked or proved one a step, a template built every few frames
    (thousands of builds, most frames walked); now the frames until CARLA-FRAME-011 only counts are walked,
    then the two shapes make one cycle template that proves the rest."""
    n = 6_000
    data = _two_shape_flood(n)
    assert [b - a for a, b in zip(_frame_starts(data)[:3], _frame_starts(data)[1:4])] == [34, 41, 34]
    builds, bulk = _Builds(monkeypatch), _BulkCount(monkeypatch)
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    fast = carla_check.check_stream(io.BytesIO(data), path="x", variant=V, profile="spec")
    # the tries while CARLA-FRAME-011 is stored (a frame lacking packets makes no template then; the back-off
    # spaces them), the cycle's two frames, a few tries at the file's end
    assert builds.calls <= 16
    assert bulk.frames > n - 200
    assert calls.calls < 3 * 200  # the first 100 frames' packets (FRAME-011 stored), and a few at the end
    assert fast.stats["frames"] == n and fast.stats["packets"] == 2 * n + n // 2
    assert fast.capped == {"CARLA-FRAME-011": n}
    assert fast.stats["duration_s"] == pytest.approx((n - 1) * DELTA)
    monkeypatch.undo()
    assert fast.to_json() == _same(data, V).to_json()


@pytest.mark.parametrize("cycle", [[0, 3], [1, 4, 2], [5, 0, 3, 1], [2, 2, 0]])
def test_clean_frames_in_cycles_are_proved_by_their_reference(monkeypatch: pytest.MonkeyPatch,
                                                              cycle: list[int]) -> None:
    """Clean frames with every packet, whose shapes come back every 2, 3 or 4 frames (``[2, 2, 0]``: a
    frame of one shape twice, then another: a cycle of three)."""
    n = 240
    data = _cycle_log([SHAPES[j] for j in cycle], n)
    builds, bulk, ref = _Builds(monkeypatch), _BulkCount(monkeypatch), _ReferenceCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == [] and report.stats["frames"] == n
    assert report.stats["position_records"] == sum(SHAPES[cycle[i % len(cycle)]][0] for i in range(n))
    assert bulk.frames > n - 3 * len(cycle) - 2  # frame 0 (the actors added), the cycle's own first unit
    assert ref.frames * len(cycle) > n - 8 * len(cycle)  # most units proved by the reference
    assert builds.calls <= 2 * len(cycle) + 2


def test_short_cycles_make_no_template(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer than ``CYCLE_REPEATS`` cycles (a fuzzer's inputs of a few frames) are walked packet by packet: a
    template of the cycle could not repay its making."""
    n = 2 * carla_check.CYCLE_REPEATS  # frame 0, then one frame short of the repeats
    data = _cycle_log([SHAPES[0], SHAPES[3]], n)
    builds, bulk = _Builds(monkeypatch), _BulkCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == [] and report.stats["frames"] == n
    assert builds.calls == 0 and bulk.frames == 0


#: A fault in one frame of a cycling log (``_cycle_log``'s changes) and the rule that reports it; a frame of
#: another shape breaks the cycle without a finding.
FAULTS = [
    ({"body150": {"state": 9}}, "CARLA-ENUM-002"),
    ({"body77": {"handbrake": 2}}, "CARLA-VALUE-001"),
    ({"body101": {"actor": 12}}, "CARLA-ACTOR-001"),
    ({"id120": 500}, "CARLA-FRAME-003"),
    ({"time50": (DELTA, 99.0)}, "CARLA-FRAME-004"),
    ({"time31": (-0.5, 0.0)}, "CARLA-FRAME-008"),
    ({"shape90": SHAPES[5]}, None),
]


@pytest.mark.parametrize(("changes", "rule"), FAULTS)
def test_a_fault_inside_cycles_is_located_by_the_walk(monkeypatch: pytest.MonkeyPatch, changes: dict[str, Any],
                                                      rule: str | None) -> None:
    data = _cycle_log([SHAPES[1], SHAPES[4]], 200, **changes)  # odd frames hold all three Position records
    bulk = _BulkCount(monkeypatch)
    report = _same(data, V)
    assert (rule in {f.rule for f in report.findings}) if rule else report.findings == []
    assert 140 < bulk.frames < 199  # the frames around the fault were walked packet by packet


# --- generated: cycles of 2 to 4 shapes, breaks, timing faults, bytes changed ----------------------------


@st.composite
def cycling_logs(draw: st.DrawFn) -> bytes:
    """A cycling log (``_cycle_log``) of 2 to 4 shapes, 8 to 14 cycles, with frames of another shape, faults in
    bodies and FrameStarts here and there; then, maybe, bytes overwritten, inserted or cut."""
    c = draw(st.integers(2, 4), label="cycle")
    cycle = draw(st.lists(st.sampled_from(SHAPES), min_size=c, max_size=c), label="shapes")
    n = 1 + c * draw(st.integers(carla_check.CYCLE_REPEATS, 14), label="cycles")
    changes: dict[str, Any] = {}
    frame = st.integers(1, n - 1)
    for i in draw(st.lists(frame, max_size=3), label="breaks"):
        changes[f"shape{i}"] = draw(st.sampled_from(SHAPES))
    for i in draw(st.lists(frame, max_size=2), label="bodies"):
        changes[f"body{i}"] = draw(st.sampled_from([{"state": 9}, {"handbrake": 2}, {"actor": 12}]))
    modes = ["on"] * n
    for i in draw(st.lists(frame, max_size=3), label="timings"):
        modes[i] = draw(st.sampled_from(TIMINGS))
    for i, (frame_id, duration, elapsed) in enumerate(timings(modes)):
        changes[f"id{i}"], changes[f"time{i}"] = frame_id, (duration, elapsed)
    data = bytearray(_cycle_log(cycle, n, **changes))
    how = draw(st.sampled_from(["none", "overwrite", "insert", "cut"]), label="bytes")
    at = draw(st.integers(len(CARLA_HEADER), len(data) - 1), label="at")
    junk = draw(st.binary(min_size=1, max_size=8), label="junk")
    if how == "overwrite":
        data[at:at + len(junk)] = junk[:len(data) - at]
    elif how == "insert":
        data[at:at] = junk
    elif how == "cut":
        del data[at:]
    return bytes(data)


@given(data=cycling_logs(), profile=st.sampled_from(("spec", "compat")))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cycles_change_no_report(data: bytes, profile: str) -> None:
    """Whatever breaks the cycles, the report is the walk's (a NaN time compared as JSON)."""
    _same(data, V, profile)


def test_generated_cycles_do_take_the_cycle_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    """The property above is not vacuous: its logs make cycle templates that prove frames."""
    proved = 0
    inner = _frames.FrameTemplate.match

    def counted(t: Any, buf: bytes, i: int, k: int, *args: Any) -> Any:
        nonlocal proved
        last = inner(t, buf, i, k, *args)
        if last is not None and t.frames > 1:
            proved += k * t.frames
        return last

    monkeypatch.setattr(_frames.FrameTemplate, "match", counted)

    @given(data=cycling_logs())
    @settings(max_examples=30, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    def run(data: bytes) -> None:
        _same(data, V)

    run()
    assert proved > 0


def test_a_cycle_template_reads_as_its_frames_templates() -> None:
    """``cycle_template`` of two shapes: its one-unit format spans both frames, its reading is the two
    frames' readings one after the other, and its counts are theirs added."""
    data = _cycle_log([SHAPES[0], SHAPES[5]], 4)
    starts = _frame_starts(data)
    walk = carla_check._Walk(V, None)  # type: ignore[arg-type]  # the sink is not used here
    parts = [_frames.build_template(lambda n, at=at: (data, at), None, V, walk.order, walk.required,
                                    m.MAX_PACKET_SIZE) for at in starts[1:3]]
    assert all(p is not None for p in parts)
    a, b = parts
    assert a is not None and b is not None
    t = _frames.cycle_template([a, b])
    assert t is not None
    assert t.size == starts[3] - starts[1] and struct.calcsize("<" + t._format) == t.size
    assert t.frames == 2 and t.tail is b and t.sizes == (a.size, b.size)
    assert t.packets == 28 and t.position_records == 1 + 3
    assert t.batch(1).unpack(data, starts[1]) == a.batch(1).unpack(data, starts[1]) + b.batch(1).unpack(data,
                                                                                                       starts[2])
    timing = t.batch(1).timing
    assert timing is not None
    assert timing(t.batch(1).unpack(data, starts[1])) == (0, 24, 2, DELTA, DELTA, 0, 24, 3, DELTA, 2 * DELTA)


def _lacking_cycle_flood(n: int, cycle: int) -> bytes:
    """``n`` frames timed as CARLA writes them, lacking the packets of every frame (CARLA-FRAME-011), whose
    bodies come back every ``cycle`` frames: none, an empty EventDel, a Position record of actor 7 (added in
    frame 0), both (in that order, of ``cycle`` of them)."""
    empty_del = _raw_packet(3, struct.pack("<H", 0))
    bodies = [b"", empty_del, b"P", empty_del + b"P"][:cycle]
    elapsed = [0.0]
    for _ in range(n - 1):
        elapsed.append(elapsed[-1] + DELTA)
    return CARLA_HEADER + b"".join(
        _raw_packet(0, struct.pack("<Qdd", i + 1, DELTA if i + 1 < n else -1.0, elapsed[i]))
        + (_add(7) if i == 0 else b"")
        + bodies[i % cycle].replace(b"P", _raw_packet(6, struct.pack("<HI6f", 1, 7, float(i), 0, 0, 0, 0, 0)))
        + FRAME_END for i in range(n))


@pytest.mark.parametrize(("cycle", "change"), [(c, change) for c in (2, 3, 4)
                                               for change in ("none", "overwrite", "insert", "cut", "dead-actor",
                                                              "elapsed")
                                               if c > 2 or change != "dead-actor"])  # no Position in a 2-cycle
def test_cycles_of_frames_lacking_packets_give_the_walks_report(monkeypatch: pytest.MonkeyPatch, cycle: int,
                                                                change: str) -> None:
    """Past the first 100 frames (CARLA-FRAME-011 then only counts), frames lacking packets make cycle
    templates too; a change three quarters in (bytes overwritten, inserted or cut, a Position record of an
    actor never added, an elapsed time reset) is walked where it is, the cycles before and after proved."""
    n = 600
    data = bytearray(_lacking_cycle_flood(n, cycle))
    starts = _frame_starts(bytes(data))
    at = starts[450] + 7  # inside frame 450's FrameStart (its id)
    if change == "overwrite":
        data[at:at + 3] = b"\xff\x00\x7f"
    elif change == "insert":
        data[at:at] = b"\x01\x02"
    elif change == "cut":
        del data[at + 10:]
    elif change == "dead-actor":
        frame = next(i for i in range(450, 460) if i % cycle >= 2)  # a frame holding a Position record
        record = data.index(struct.pack("<BIHI", 6, 30, 1, 7), starts[frame])
        data[record + 7:record + 11] = struct.pack("<I", 99)
    elif change == "elapsed":
        data[starts[450] + 5 + 16:starts[450] + 5 + 24] = struct.pack("<d", 0.0)
    bulk = _BulkCount(monkeypatch)
    report = _same(bytes(data), V)
    assert bulk.frames > 300  # the cycles between frame 100 and the change at least
    assert report.capped.get("CARLA-FRAME-011", 0) > 400
    rules = {f.rule for f in report.findings}
    assert {"dead-actor": "CARLA-ACTOR-001", "elapsed": "CARLA-FRAME-004"}.get(change, "CARLA-FRAME-011") in rules


#: Empty event packets of one size (7 bytes): frames holding one of them in turn have one size and differ in
#: shape (a packet id), so the frames' ends do not tell them apart
_EMPTY_EVENTS = [_raw_packet(pid, struct.pack("<H", 0)) for pid in (3, 4, 5)]  # EventDel, EventParent, Collision


@pytest.mark.parametrize("cycle", [2, 3])
def test_shapes_of_one_size_in_turn_are_proved_in_bulk(monkeypatch: pytest.MonkeyPatch, cycle: int) -> None:
    """Frames of 2 or 3 shapes in turn, all of one size: the search by sizes lets a template of one frame be
    made at each frame (a frame of the next one's size follows it), which proves that frame alone; once the
    next frame's shape is that of the frame ``cycle`` back, the templates just made are the cycle
    (``_Walk._lone_cycle``). Before: a template made for every frame past the first 100, no frame proved more
    than one a step."""
    n = 3_000
    elapsed = [0.0]
    for _ in range(n - 1):
        elapsed.append(elapsed[-1] + DELTA)
    data = CARLA_HEADER + b"".join(
        _raw_packet(0, struct.pack("<Qdd", i + 1, DELTA if i + 1 < n else -1.0, elapsed[i]))
        + _EMPTY_EVENTS[i % cycle] + FRAME_END for i in range(n))
    assert {b - a for a, b in zip(_frame_starts(data), _frame_starts(data)[1:])} == {41}
    builds, bulk = _Builds(monkeypatch), _BulkCount(monkeypatch)
    fast = carla_check.check_stream(io.BytesIO(data), path="x", variant=V, profile="spec")
    # the tries while CARLA-FRAME-011 is stored, one per shape, the frames at the end walked (where the runs of
    # frames alike make templates of their own, ``_judged_alike``): a few tens, not one a frame
    assert builds.calls <= 40
    assert bulk.frames > n - 200
    assert fast.capped == {"CARLA-FRAME-011": n}
    monkeypatch.undo()
    assert fast.to_json() == _same(data, V).to_json()
