"""What a NanoVer reader makes of a stream of deltas (reference/nanover/_aggregate.py), against the
research notes (section 3): a frame's entries replace their keys, frame_index 0 resets the aggregate,
a null deletes a state key, and a .traj and a .state of one session are interleaved by timestamp with a
frame and an update of the same timestamp paired. Each expected sequence is written out by hand.
Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

from recspec.reference.nanover import (
    Array,
    ArrayKind,
    Frame,
    FrameAggregate,
    Record,
    StateAggregate,
    StateUpdate,
    merged,
)


def test_a_new_aggregate_holds_nothing_and_counts_no_reset() -> None:
    agg = FrameAggregate()
    assert agg.values == {} and agg.arrays == {} and agg.frame_index is None and agg.resets == 0


def test_frame_zero_resets_and_others_overlay() -> None:
    agg = FrameAggregate()
    agg.apply(Frame(1, {"a": 1.0, "b": 2.0}, {"p": Array(ArrayKind.FLOAT, (1.0,))}))
    assert agg.resets == 0 and agg.frame_index == 1
    agg.apply(Frame(2, {"a": 5.0}))  # overlays: b and p stay
    assert agg.values == {"a": 5.0, "b": 2.0} and agg.arrays == {"p": Array(ArrayKind.FLOAT, (1.0,))}
    assert agg.resets == 0 and agg.frame_index == 2
    agg.apply(Frame(0, {"c": 3.0}))  # a reset: only c is left
    assert agg.values == {"c": 3.0} and agg.arrays == {} and agg.resets == 1 and agg.frame_index == 0
    agg.apply(Frame(0))
    assert agg.values == {} and agg.resets == 2


def test_deleting_a_missing_key_is_reported_and_a_held_one_is_not() -> None:
    agg = StateAggregate()
    assert agg.apply(StateUpdate({"a": 1.0, "b": "x"})) == []
    assert agg.apply(StateUpdate({"a": None, "zz": None, "b": "y"})) == ["zz"]
    assert agg.state == {"b": "y"}
    assert agg.apply(StateUpdate({"a": None})) == ["a"]  # deleted before: missing now
    assert agg.state == {"b": "y"}


def _f(i: int) -> Frame:
    return Frame(i, {"i": float(i)})


def _u(i: int) -> StateUpdate:
    return StateUpdate({"u": float(i)})


def test_merged_interleaves_by_time_and_pairs_a_frame_with_its_update() -> None:
    traj = [Record(10, _f(1)), Record(20, _f(2)), Record(20, _f(3)), Record(40, _f(4))]
    state = [Record(5, _u(0)), Record(20, _u(1)), Record(20, _u(2)), Record(30, _u(3)), Record(50, _u(4))]
    assert list(merged(traj, state)) == [
        (5, None, _u(0)),
        (10, _f(1), None),
        (20, _f(2), None),     # two frames at 20: the later one takes the update
        (20, _f(3), _u(1)),
        (20, None, _u(2)),     # a second update at 20 has no frame left
        (30, None, _u(3)),
        (40, _f(4), None),
        (50, None, _u(4)),
    ]


def test_merged_pairs_only_equal_timestamps_and_a_frame_first() -> None:
    # an update before a frame of the same time: the frame stream goes first, so they pair
    assert list(merged([Record(7, _f(1))], [Record(7, _u(1))])) == [(7, _f(1), _u(1))]
    # an update does not take an earlier frame, nor a frame an earlier update
    assert list(merged([Record(7, _f(1))], [Record(8, _u(1))])) == [(7, _f(1), None), (8, None, _u(1))]
    assert list(merged([Record(8, _f(1))], [Record(7, _u(1))])) == [(7, None, _u(1)), (8, _f(1), None)]
    # updates alone, frames alone, neither
    assert list(merged([], [Record(1, _u(1)), Record(1, _u(2))])) == [(1, None, _u(1)), (1, None, _u(2))]
    assert list(merged([Record(1, _f(1)), Record(1, _f(2))], [])) == [(1, _f(1), None), (1, _f(2), None)]
    assert list(merged([], [])) == []


def test_merged_runs_until_both_streams_end() -> None:
    traj = [Record(t, _f(t)) for t in (1, 2, 3)]
    assert [e[0] for e in merged(traj, [Record(0, _u(0))])] == [0, 1, 2, 3]
    assert [e[0] for e in merged([Record(0, _f(0))], [Record(t, _u(t)) for t in (1, 2, 3)])] == [0, 1, 2, 3]
