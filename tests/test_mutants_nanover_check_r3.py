"""The NanoVer checker (conformance/nanover/_check.py) where its fast paths meet an edge value: a gap of
exactly 120 s (NANOVER-TIME-003, docs/formats/nanover.md: "jumps by 120 s or more") under a frame its
template proves and inside a run of empty records, a timestamp's upper half (NANOVER-TIME-001: the upper
8 bytes are zero), the trace of a run of empty frames (an empty GetFrameResponse is frame index 0, a
reset), and the aggregate frame's shapes (NANOVER-FRAME-001 and -004: three position floats per particle,
box vectors of nine floats, three user-force floats per index) changed by a frame after the first, each
with the inline judging of common entries on and off (the general code must find the same). Files are put
together with tests/witness_nanover.py's helpers (the protobuf runtime). Written against the survivors
tools/mutate.py found in a fresh sample of the module."""

from __future__ import annotations

import io

import pytest
from witness_nanover import MAX_GAP, File, frame, update

from recspec.conformance.nanover import check_stream
from recspec.conformance.nanover._check import _Walk
from recspec.trace import collecting


def _check(f: File, name: str):  # type: ignore[no-untyped-def]
    data = f.bytes()
    return check_stream(io.BytesIO(data), path=name, size=len(data))


def _time(report) -> list[tuple[str, int | None, int | None, str]]:  # type: ignore[no-untyped-def]
    return [(x.rule, x.offset, x.length, x.path) for x in report.findings if x.rule.startswith("NANOVER-TIME")]


@pytest.mark.parametrize("step", [MAX_GAP - 1, MAX_GAP])
def test_a_gap_of_120_s_before_a_frame_of_the_same_shape(step: int) -> None:
    # four frames of one shape: the third and fourth are proved by the template of the ones before; a
    # step of 120 s is NANOVER-TIME-003 (at the record, over its 16-byte timestamp), one below it is not
    payloads = [frame(i, {"particle.count": 1}) for i in range(4)]
    f = File("traj", payloads, [10, 20, 30, 30 + step])
    want = [("NANOVER-TIME-003", f.record_at(3), 16, "record[3].timestamp")] if step >= MAX_GAP else []
    assert _time(_check(f, "x.traj")) == want


@pytest.mark.parametrize("kind", ["traj", "state"])
@pytest.mark.parametrize("step", [MAX_GAP - 1, MAX_GAP])
def test_a_gap_of_120_s_inside_a_run_of_empty_records(kind: str, step: int) -> None:
    # an empty payload is a frame of index 0 holding nothing, or a StateUpdate changing nothing: the
    # records after the second are a run of empty records
    f = File(kind, [b"", b"", b"", b""], [10, 20, 30, 30 + step])
    want = [("NANOVER-TIME-003", f.record_at(3), 16, "record[3].timestamp")] if step >= MAX_GAP else []
    assert _time(_check(f, f"x.{kind}")) == want


def test_a_gap_of_120_s_after_a_state_update_then_empty_records() -> None:
    f = File("state", [update({"a": 1.0}), b"", b""], [10, 20, 20 + MAX_GAP])
    assert _time(_check(f, "x.state")) == [("NANOVER-TIME-003", f.record_at(2), 16, "record[2].timestamp")]


def test_a_timestamp_upper_half_is_reported_against_zero() -> None:
    # the rule: the upper 8 bytes of the u128 timestamp are zero; here they hold 3
    f = File("traj", [frame(0, {"particle.count": 1}), frame(1)], [100, (3 << 64) + 200])
    (x,) = [x for x in _check(f, "x.traj").findings if x.rule == "NANOVER-TIME-001"]
    assert (x.offset, x.length, x.expected, x.actual) == (f.record_at(1) + 8, 8, 0, 3)


def test_the_trace_of_a_run_of_empty_frames_has_every_record_and_reset() -> None:
    # each empty GetFrameResponse is frame index 0: five records, five resets, each drawn
    f = File("traj", [b""] * 5, [10, 20, 30, 40, 50])
    data = f.bytes()
    with collecting():
        report = check_stream(io.BytesIO(data), path="x.traj", size=len(data))
    assert report.findings == []
    assert report.stats["records"] == 5 and report.stats["resets"] == 5
    assert report.trace.records == 5
    assert report.trace.resets == [0, 1, 2, 3, 4]
    assert report.trace.timestamps.n == 5


@pytest.fixture(params=[True, False], ids=["fast_rules", "general"])
def fast_rules(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    # the inline judging of common entries and its general code must find the same
    monkeypatch.setattr(_Walk, "fast_rules", request.param)
    return bool(request.param)


def _frame_findings(report) -> list[tuple[str, int | None, int | None, str, object, object]]:  # type: ignore[no-untyped-def]
    return [(x.rule, x.offset, x.length, x.path, x.expected, x.actual) for x in report.findings]


def test_positions_shortened_in_a_later_frame(fast_rules: bool) -> None:
    # particle.count 2 needs 6 position floats (three per particle); frame 1 (no reset) sends 3
    p0 = frame(0, {"particle.count": 2}, {"particle.positions": ("float", [0.0] * 6)})
    p1 = frame(1, None, {"particle.positions": ("float", [0.0] * 3)})
    f = File("traj", [p0, p1], [10, 20])
    assert _frame_findings(_check(f, "x.traj")) == [
        ("NANOVER-FRAME-001", f.payload_at(1), len(p1), "record[1]/arrays['particle.positions']", 6, 3)]


def test_a_particle_count_changed_alone(fast_rules: bool) -> None:
    # frame 1 changes only particle.count (2 -> 3): the aggregate's 6 position floats no longer fit
    p0 = frame(0, {"particle.count": 2}, {"particle.positions": ("float", [0.0] * 6)})
    p1 = frame(1, {"particle.count": 3})
    f = File("traj", [p0, p1], [10, 20])
    assert _frame_findings(_check(f, "x.traj")) == [
        ("NANOVER-FRAME-001", f.payload_at(1), len(p1), "record[1]/arrays['particle.positions']", 9, 6)]


def test_a_standard_number_changed_alone_after_a_bad_frame(fast_rules: bool) -> None:
    # the aggregate stays inconsistent (2 particles, 3 position floats): each frame touching a standard
    # key is judged against it again
    p0 = frame(0, {"particle.count": 2}, {"particle.positions": ("float", [0.0] * 3)})
    p1 = frame(1, {"system.temperature": 300.0})
    f = File("traj", [p0, p1], [10, 20])
    where = "/arrays['particle.positions']"
    assert _frame_findings(_check(f, "x.traj")) == [
        ("NANOVER-FRAME-001", f.payload_at(0), len(p0), f"record[0]{where}", 6, 3),
        ("NANOVER-FRAME-001", f.payload_at(1), len(p1), f"record[1]{where}", 6, 3)]


@pytest.mark.parametrize("n", [8, 9, 10])
def test_box_vectors_are_nine_floats(fast_rules: bool, n: int) -> None:
    # system.box.vectors: three 3-vectors (docs/formats/nanover.md, NANOVER-FRAME-004)
    p0 = frame(0, {"particle.count": 0}, {"system.box.vectors": ("float", [1.0] * n)})
    f = File("traj", [p0], [10])
    want = [] if n == 9 else [("NANOVER-FRAME-004", f.payload_at(0), len(p0),
                               "record[0]/arrays['system.box.vectors']", 9, n)]
    assert _frame_findings(_check(f, "x.traj")) == want


def test_a_frame_without_particle_count_or_per_particle_arrays(fast_rules: bool) -> None:
    # NANOVER-FRAME-001 asks for particle.count only where a per-particle array is present
    f = File("traj", [frame(0, {"system.temperature": 300.0}, {"bond.pairs": ("index", [])})], [10])
    assert _check(f, "x.traj").findings == []


def test_positions_without_particle_count(fast_rules: bool) -> None:
    p0 = frame(0, {"system.temperature": 300.0}, {"particle.positions": ("float", [0.0] * 3)})
    f = File("traj", [p0], [10])
    (x,) = _check(f, "x.traj").findings
    assert (x.rule, x.offset, x.length, x.path) == ("NANOVER-FRAME-001", f.payload_at(0), len(p0), "record[0]")
    assert "particle.positions" in x.message and "particle.velocities" not in x.message


@pytest.mark.parametrize("sparse", [0, 2, 3, 4, 6])
def test_user_forces_hold_three_floats_per_index(fast_rules: bool, sparse: int) -> None:
    # forces.user.sparse holds 3n floats for n forces.user.index entries (docs/formats/nanover.md, Frames)
    p0 = frame(0, {"particle.count": 2},
               {"forces.user.index": ("index", [1]), "forces.user.sparse": ("float", [0.5] * sparse)})
    f = File("traj", [p0], [10])
    want = [] if sparse == 3 else [("NANOVER-FRAME-001", f.payload_at(0), len(p0),
                                    "record[0]/arrays['forces.user.sparse']", 3, sparse)]
    assert _frame_findings(_check(f, "x.traj")) == want


def test_user_forces_of_two_indices_after_a_frame_of_one(fast_rules: bool) -> None:
    # frame 1 (no reset) adds an index: the aggregate's 3 floats no longer fit 2 indices
    p0 = frame(0, {"particle.count": 2},
               {"forces.user.index": ("index", [1]), "forces.user.sparse": ("float", [0.5] * 3)})
    p1 = frame(1, None, {"forces.user.index": ("index", [0, 1])})
    f = File("traj", [p0, p1], [10, 20])
    assert _frame_findings(_check(f, "x.traj")) == [
        ("NANOVER-FRAME-001", f.payload_at(1), len(p1), "record[1]/arrays['forces.user.sparse']", 6, 3)]
