"""The NanoVer strategies of recspec.strategies: reprs read like the call, bad
arguments fail when drawn, and the strategies reach what they promise."""

from __future__ import annotations

import pytest
from hypothesis import find, given
from hypothesis.errors import InvalidArgument, NoSuchExample

from recspec.reference.nanover import ArrayKind, Frame, Kind
from recspec.strategies import (
    nanover_files,
    nanover_frames,
    nanover_recordings,
    nanover_state_updates,
    nanover_values,
)


def test_reprs_read_like_the_call() -> None:
    assert repr(nanover_recordings("traj", max_records=2)) == "nanover_recordings(kind='traj', max_records=2)"
    assert repr(nanover_frames(reset=True)) == "nanover_frames(reset=True)"
    assert repr(nanover_state_updates(max_keys=1)) == "nanover_state_updates(max_keys=1)"


@pytest.mark.parametrize("strategy", [
    nanover_recordings(kind="bin"), nanover_recordings(min_records=3, max_records=1),
    nanover_frames(min_particles=-1), nanover_state_updates(max_keys=-1), nanover_files(kind=3),  # type: ignore[arg-type]
], ids=repr)
def test_bad_arguments_fail_when_drawn(strategy) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidArgument):
        find(strategy, lambda _: True)


def test_bad_argument_of_values_fails_at_once() -> None:
    with pytest.raises(InvalidArgument):
        nanover_values(max_depth=-1)


def _reaches(strategy, condition, what: str) -> None:  # type: ignore[no-untyped-def]
    try:
        find(strategy, condition)
    except NoSuchExample:
        pytest.fail(f"{strategy!r} never draws {what}")


def test_reach() -> None:
    _reaches(nanover_values(), lambda v: isinstance(v, dict) and any(isinstance(x, list) for x in v.values()),
             "a struct holding a list")
    _reaches(nanover_frames(min_particles=2),
             lambda f: f.frame_index != 0 and len(f.arrays["particle.positions"].values) == 6,
             "a non-reset frame of two particles (six position floats)")
    _reaches(nanover_frames(reset=True), lambda f: any(a.kind is ArrayKind.STRING for k, a in f.arrays.items()
                                                       if k not in ("particle.names", "residue.names",
                                                                    "residue.ids", "chain.names")),
             "a string array under a key of its own")
    _reaches(nanover_recordings(), lambda r: r.kind is Kind.STATE and len(r.records) >= 2,
             "a state recording of two records or more")


@given(nanover_recordings("traj", min_records=1, max_records=3))
def test_recordings_are_what_they_say(rec) -> None:  # type: ignore[no-untyped-def]
    assert rec.kind is Kind.TRAJ and 1 <= len(rec.records) <= 3
    ts = [r.timestamp_us for r in rec.records]
    assert ts == sorted(ts) and len(set(ts)) == len(ts)
    for r in rec.records:
        assert isinstance(r.message, Frame) and r.message.frame_index == 0
        n = r.message.values["particle.count"]
        assert len(r.message.arrays["particle.positions"].values) == 3 * n
