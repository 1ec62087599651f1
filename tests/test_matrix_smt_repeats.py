"""Repeats of a frame the full walk judged, counted in bulk (``conformance/matrix_smt/_repeats.py``),
give the report the frame-by-frame walk gives: the same findings in the same order, counts, verdicts
and stats. Recordings here are runs of one frame body (most of them invalid: states that lack their
keys, unknown keys, ids of no object, a destroyed object, a command of no kind) under times that step
on, repeat, go back, are not finite or are stored as int32, int64, a string or under 'time', or are
missing; then bytes are flipped, keys changed and lengths edited. The documents are pymongo's
encoding of Python values (int: int32, float: double, Int64: int64), not the code under test's."""

from __future__ import annotations

import io
import random
from typing import Any

import bson
import pytest
from bson.int64 import Int64
from build_matrix_smt import checked_both_ways
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_limits_runs import _Counting
from test_matrix_smt_runs import _edits

from helpers import load_script
from recspec.conformance.matrix_smt import _check as matrix_check

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)

_POSE = {"p": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0]}


def _nested(depth: int) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    for _ in range(depth):
        inner = {"a": inner}
    return inner


#: Frame bodies (everything but the time), each repeated over a run: name -> body.
BODIES: dict[str, dict[str, Any]] = {
    "empty-state": {"states": [{}], "cmd": []},
    "keyed-state": {"states": [{"a": {}}], "cmd": []},
    "nested-state": {"states": [_nested(40)], "cmd": []},
    "no-object": {"states": [{"id": 7, "i": "i", "m": "", **_POSE}], "cmd": []},
    "clean": {"states": [{"id": 0, "i": "i", "m": "", **_POSE}], "cmd": []},
    "destroys": {"states": [{"id": 1, "i": "d", "m": "", **_POSE}], "cmd": []},
    "long-flag": {"states": [{"id": 0, "i": "destroyed", "m": "", **_POSE}], "cmd": []},
    "twice": {"states": [{"id": 0, "i": "i", "m": "", **_POSE}, {"id": 0, "i": "i", "m": "", **_POSE}], "cmd": []},
    "no-cmd": {"states": []},
    "bad-cmd": {"states": [], "cmd": [{"t": "x"}]},
    "unknown-key": {"states": [], "cmd": [], "zz": 1},
}

_OBJECTS = [{"id": i, "name": f"o{i}", "type": "sphere", "color": [0.0, 0.5, 1.0], "radius": 1.0} for i in (0, 1)]


def _time(form: str, t: float) -> tuple[str, Any] | None:
    """The frame's time element in ``form``: its key and value (None: no time)."""
    if form == "double":
        return "t", t
    if form == "int32":
        return "t", int(t * 50) if t - t == 0.0 else 0
    if form == "int64":
        return "t", Int64(int(t * 50) if t - t == 0.0 else 0)
    if form == "time-key":
        return "time", t
    if form == "string":
        return "t", "0.5"
    return None


@st.composite
def recordings(draw: st.DrawFn) -> bytes:
    """Runs of one body under a time form, the time placed first or last in the frame."""
    frames = []
    t = draw(st.sampled_from([0.0, 1.0]))
    for _ in range(draw(st.integers(1, 4))):
        body = BODIES[draw(st.sampled_from(sorted(BODIES)))]
        form = draw(st.sampled_from(["double", "double", "int32", "int64", "time-key", "string", "none"]))
        first = draw(st.booleans())
        odd = draw(st.sampled_from([0, 0, 3, 30]))  # one frame in this many (about) has a time a rule reports
        seed = draw(st.integers(0, 2**32 - 1))
        rng = random.Random(seed)
        for _ in range(draw(st.sampled_from([1, 2, 20, 130, 240]))):
            t += rng.choice([0.02, 0.02, 0.02, 0.0])
            shown = t
            if odd and rng.randrange(odd) == 0:
                shown = rng.choice([t - 0.5, -1.0, float("nan"), float("inf")])
            elem = _time(form, shown)
            frame = dict(body)
            if elem is not None:
                frame = {elem[0]: elem[1], **body} if first else {**body, elem[0]: elem[1]}
            frames.append(frame)
    return bson.encode({"objects": _OBJECTS, "frames": frames})


@SLOW
@given(recordings(), st.sampled_from(["spec", "compat"]), st.randoms(use_true_random=False))
def test_repeats_and_the_full_walk_give_the_same_report(data: bytes, profile: str, rng: random.Random) -> None:
    for edited in _edits(data, rng):
        checked_both_ways(edited, profile)


def _flood(frames: int, body: dict[str, Any], times: list[float] | None = None) -> bytes:
    times = times or [i * 0.02 for i in range(frames)]
    return bson.encode({"objects": _OBJECTS, "frames": [{"t": times[i], **body} for i in range(frames)]})


def test_a_flood_of_invalid_frames_that_differ_in_their_time_is_judged_a_few_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """20,000 frames whose one state has no key (hostile.py matrix-empty-states): the full walk judges
    them until MATRIX-STATE-001 has its 100 stored findings (20 frames of 5); the rest are counted."""
    n = 20_000
    data = _flood(n, BODIES["empty-state"])
    calls = _Counting(monkeypatch, matrix_check._Walk, "frame")
    report = checked_both_ways(data, "spec")
    judged = calls.calls - n  # (checked_both_ways walks every frame once without the fast paths)
    assert judged < 100, judged
    assert report.stats["frames"] == n and report.stats["states"] == n
    assert report.stats["duration_s"] == (n - 1) * 0.02
    assert report.capped == {"MATRIX-STATE-001": 5 * n}


def test_a_time_that_goes_back_in_a_flood_is_located() -> None:
    """Frame 15,000 of 20,000 invalid frames is 1 s before the one before: the run stops there, the
    frame is walked, and its MATRIX-FRAME-002 names it and the offset of its time."""
    n = 20_000
    times = [i * 0.02 for i in range(n)]
    times[15_000] -= 1.0
    data = _flood(n, BODIES["keyed-state"], times)
    report = checked_both_ways(data, "spec")
    late = [f for f in report.findings if f.rule == "MATRIX-FRAME-002"]
    assert [f.path for f in late] == ["frames[15000].t"]
    key = b"\x0315000\x00"
    assert late[0].offset == data.index(key) + len(key) + 4  # the time element, first in the frame
    assert report.verdicts["spec"].rules["MATRIX-DOC-002"] == n


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_a_frame_that_destroys_starts_no_run(profile: str) -> None:
    """Frame 0 destroys object 1 ("d": under both profiles; "destroyed": under compat only) and starts no
    run; every later frame finds it destroyed, a MATRIX-STATE-004 each, the same again in each repeat."""
    for body in ("destroys", "long-flag"):
        report = checked_both_ways(_flood(300, BODIES[body]), profile)
        assert report.stats["frames"] == 300
        assert report.verdicts["compat"].rules["MATRIX-STATE-004"] == 299
        assert report.verdicts["spec"].rules.get("MATRIX-STATE-004", 0) == (299 if body == "destroys" else 0)


def test_the_hostile_floods_give_the_full_walks_report() -> None:
    """The three cases of benchmarks/hostile.py this path is for, at a small size."""
    hostile = load_script("benchmarks/hostile.py", "recspec_hostile")
    for name in ("matrix-empty-states", "matrix-nested-states", "matrix-keyed-states"):
        case = next(c for c in hostile.CASES if c.name == name)
        buf = io.BytesIO()
        case.write(buf, 1_500)
        report = checked_both_ways(buf.getvalue(), "spec")
        assert report.stats["frames"] == 1_500 and report.stats["states"] == 1_500
        assert report.verdicts["spec"].rules["MATRIX-STATE-001"] == 5 * 1_500
