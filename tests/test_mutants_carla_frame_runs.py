"""The CARLA checker's frame runs and cycle templates (conformance/carla/_check.py, _frames.py) held to
what their design requires at its edges: the frames that follow one a template proved are compared with
it (``Reference``), whichever template proved it, so a log whose frames change shape half way is proved
by the reference on both sides of the change; a cycle template reads at most ``MAX_FIELDS`` (65,536)
fields, so a cycle of exactly that many is made. Every log is checked with the fast paths on and off
(``_same``). Written against the survivors of tools/mutate.py's samples of the frame-run and cycle code
(docs/MUTATION.md)."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest
from test_carla_bulk_frames import DELTA, _log, _ReferenceCount, _same
from test_carla_frame_cycles import SHAPES, V, _cycle_log, _frame_starts
from test_carla_frame_timing_runs import timings
from test_carla_limits_runs import CARLA_HEADER, FRAME_END
from test_carla_limits_runs import _packet as _raw_packet
from test_limits_runs import _Counting

from recspec.conformance.carla import _check as carla_check
from recspec.conformance.carla import _frames
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS
from recspec.reference.carla import PacketKind as K


class _ReferenceFrames(_ReferenceCount):
    """``_ReferenceCount``, and the frames ``Reference.run`` proves by the size of its template's frame."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__(monkeypatch)
        self.by_size: dict[int, int] = {}
        checked = _frames.Reference.run

        def sized(ref: Any, *args: Any) -> Any:
            n, last = out = checked(ref, *args)
            if last is not None:
                self.by_size[ref.template.size] = self.by_size.get(ref.template.size, 0) + n
            return out

        monkeypatch.setattr(_frames.Reference, "run", sized)


@pytest.mark.parametrize("back", [False, True])
def test_frames_of_a_new_shape_are_proved_by_a_reference_of_their_own(monkeypatch: pytest.MonkeyPatch,
                                                                      back: bool) -> None:
    """A clean log of one frame shape (one Position record, the VehicleLight record: ``SHAPES[0]``) whose frames
    take another shape half way (two Position records, no VehicleLight record: ``SHAPES[3]``), and maybe the
    first one back for its last third: after the first frames of each run that its template proves field by
    field, the frames are compared with the last of them (the module docstring of _frames.py), so the reference
    proves most frames of every run, not only of the first."""
    n = 360
    second = range(120, 240 if back else n)
    data = _cycle_log([SHAPES[0]], n, **{f"shape{i}": SHAPES[3] for i in second})
    starts = _frame_starts(data)
    one, two = starts[2] - starts[1], starts[121] - starts[120]
    # a Position record is 28 bytes (u32 id, 3 x f32 location, 3 x f32 rotation), a VehicleLight one 8 (u32 id,
    # u32 light-state bitmask)
    assert two - one == 28 - 8
    ref = _ReferenceFrames(monkeypatch)
    report = _same(data, V)
    assert report.findings == [] and report.stats["frames"] == n
    assert report.stats["position_records"] == n + len(second)
    # each run loses a few frames to its template's first proofs (batches of 16, 4, 1) before the reference
    assert ref.by_size.get(two, 0) > len(second) - 40
    assert ref.by_size.get(one, 0) > n - len(second) - 80


#: 0.9.16 numbers VehicleDoor 23: records of u32 id, u8 door (an enum of 7 values), u8 is_open (a flag)
DOOR_VARIANT = VARIANTS["0.9.16"]


def _door_frame(doors: int) -> bytes:
    """A frame of a FrameStart, a VehicleDoor packet of ``doors`` records of actor 7 and a FrameEnd."""
    records = struct.pack("<IBB", 7, 1, 0) * doors
    return (_raw_packet(0, struct.pack("<Qdd", 1, 0.05, 0.0))
            + _raw_packet(DOOR_VARIANT.id_of[K.VEHICLE_DOOR], struct.pack("<H", doors) + records) + FRAME_END)


def _door_template(doors: int) -> _frames.FrameTemplate:
    data = _door_frame(doors)
    walk = carla_check._Walk(DOOR_VARIANT, None)  # type: ignore[arg-type]  # the sink is not used here
    t = _frames.build_template(lambda n: (data, 0), None, DOOR_VARIANT, walk.order, walk.required,
                               m.MAX_PACKET_SIZE, lacking=True)
    assert t is not None
    return t


def test_a_cycle_of_exactly_max_fields_fields_is_made() -> None:
    """A template reads of a frame the FrameStart's header and fields (id, size, frame id, durationThis,
    elapsed: 5), each packet's id and size, a fixed-record packet's count, and the judged fields of each
    record (a VehicleDoor's id, door and is_open: 3): 10 + 3 x doors here. Four frames of 5,458 doors on
    average read 4 x 16,384 = 65,536 fields, ``MAX_FIELDS``: a cycle of them is made (the module docstring:
    at most ``MAX_FIELDS`` fields); one door more in the last frame makes it read 65,539, and it is not."""
    assert _frames.MAX_FIELDS == 65_536
    doors = [5_457, 5_458, 5_458, 5_459]
    parts = [_door_template(d) for d in doors]
    assert [p.fields for p in parts] == [10 + 3 * d for d in doors]
    assert sum(p.fields for p in parts) == 65_536
    cycle = _frames.cycle_template(parts)
    assert cycle is not None
    assert cycle.fields == 65_536 and cycle.frames == 4
    assert cycle.size == sum(len(_door_frame(d)) for d in doors)
    over = [*parts[:3], _door_template(doors[3] + 1)]
    assert sum(p.fields for p in over) == 65_539
    assert _frames.cycle_template(over) is None


def test_cycles_whose_timing_breaks_rules_are_proved_once_those_rules_only_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """hostile.py's carla-two-shape-frames with every frame at elapsed 0 (carla-elapsed-frames' timing): frames
    of two sizes in turn (FrameStart and FrameEnd only, 34 bytes; with an empty EventDel between them, 41),
    each from the second on breaking CARLA-FRAME-004 (0 is not the frame before's elapsed 0 plus its
    durationThis 0.05) and each lacking the packets of every frame (CARLA-FRAME-011). Once both rules only
    count, the cycle templates judge the frames' timing as the checker's counting judge does (``_frames.Follow``)
    and prove them: the frames are not walked packet by packet (a run of repeated frames cannot take them:
    no frame has the size of the one before)."""
    n = 4_000
    empty_del = _raw_packet(3, struct.pack("<H", 0))
    data = CARLA_HEADER + b"".join(_raw_packet(0, struct.pack("<Qdd", i + 1, DELTA if i + 1 < n else -1.0, 0.0))
                                   + (empty_del if i % 2 else b"") + FRAME_END for i in range(n))
    starts = _frame_starts(data)
    assert [starts[j + 1] - starts[j] for j in range(3)] == [34, 41, 34]
    calls = _Counting(monkeypatch, carla_check._Walk, "packet")
    fast = carla_check.check_stream(io.BytesIO(data), path="x", variant=V, profile="spec")
    assert calls.calls < 3 * 300  # the frames until both rules have their 100 stored findings, and a few
    assert fast.stats["frames"] == n and fast.stats["packets"] == 2 * n + n // 2
    assert fast.capped == {"CARLA-FRAME-004": n - 1, "CARLA-FRAME-011": n}
    assert fast.stats["duration_s"] == 0.0
    monkeypatch.undo()
    assert fast.to_json() == _same(data, V).to_json()




@pytest.mark.parametrize("fault", ["still", "back", "skip"])
def test_frames_whose_timing_breaks_rules_are_proved_by_the_reference(monkeypatch: pytest.MonkeyPatch,
                                                                      fault: str) -> None:
    """A steady log (every packet of a 0.9.15 frame, the Position records moving) whose timing first breaks a
    rule (elapsed standing still or going back: CARLA-FRAME-004; ids that skip one: CARLA-FRAME-003) until the
    rule only counts, then follows on, then breaks it again in every frame. The frames that follow one the
    template proved are compared with it (``Reference.run``), their timing judged by the checker's counting
    judge (``_frames.Follow``) as the template's own reading judges it: the reference proves the frames of
    the last run too, not only those that follow on."""
    first, steady, last = 120, 300, 900
    modes = [fault] * first + ["on"] * steady + [fault] * last
    changes = {}
    for i, (frame_id, duration, elapsed) in enumerate(timings(modes)):
        changes[f"id{i}"], changes[f"time{i}"] = frame_id, (duration, elapsed)
    data = _log(len(modes), **changes)
    # ids are consecutive from 1 (docs/formats/carla.md): the first frame's id 2 breaks CARLA-FRAME-003 too;
    # elapsed is judged against the frame before, from the second frame on
    broken = {"skip": ("CARLA-FRAME-003", first + last)}.get(fault, ("CARLA-FRAME-004", first - 1 + last))
    ref = _ReferenceCount(monkeypatch)
    report = _same(data, V)
    assert report.capped == dict([broken])
    assert ref.frames > steady + last - 100


class _Cycles:
    """The number of frames of each cycle template the checker makes (``cycle_template``'s parts) while a test
    runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.frames: list[int] = []
        inner = carla_check.cycle_template

        def counted(parts: Any) -> Any:
            self.frames.append(len(parts))
            return inner(parts)

        monkeypatch.setattr(carla_check, "cycle_template", counted)


@pytest.mark.parametrize("cycle", [2, 3])
def test_shapes_of_one_size_in_turn_make_a_cycle_of_as_many_frames(monkeypatch: pytest.MonkeyPatch,
                                                                    cycle: int) -> None:
    """Frames of 2 or 3 shapes in turn, all of one size (an empty EventDel, EventParent or Collision between
    FrameStart and FrameEnd, 41 bytes): once the next frame's shape is that of the frame ``cycle`` back, the
    templates just made are the cycle (``_Walk._lone_cycle``), a cycle of ``cycle`` frames (of 2 to 4: the
    module docstring of _frames.py), not of a multiple of them."""
    n = 1_000
    elapsed = [0.0]
    for _ in range(n - 1):
        elapsed.append(elapsed[-1] + DELTA)  # the writer's arithmetic
    events = [_raw_packet(pid, struct.pack("<H", 0)) for pid in (3, 4, 5)]  # EventDel, EventParent, Collision
    data = CARLA_HEADER + b"".join(
        _raw_packet(0, struct.pack("<Qdd", i + 1, DELTA if i + 1 < n else -1.0, elapsed[i]))
        + events[i % cycle] + FRAME_END for i in range(n))
    cycles = _Cycles(monkeypatch)
    report = _same(data, V)
    assert report.capped == {"CARLA-FRAME-011": n}
    assert cycles.frames and set(cycles.frames) == {cycle}


def test_a_frame_the_template_cannot_prove_makes_no_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    """A steady log of one frame shape whose third frame refers to an actor never added (CARLA-ACTOR-001): the
    template made of the second frame proves it alone, and cannot prove the third, which has its shape; frames
    of one shape are no cycle (a cycle is 2 to 4 frames each unlike the one before), so none is made."""
    data = _log(60, body2={"actor": 12})
    cycles = _Cycles(monkeypatch)
    report = _same(data, V)
    assert {f.rule for f in report.findings} == {"CARLA-ACTOR-001"}
    assert cycles.frames == []
