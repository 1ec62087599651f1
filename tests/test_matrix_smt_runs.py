"""Runs of Matrix-SMT frames checked in bulk (``conformance/matrix_smt/_runs.py``) and
the fast path give the report the full walk gives: the same findings (rule, level,
message, offset, length, path, values), in the same order, the same counts and
verdicts under every profile, the same stats. Recordings here repeat one layout
over many frames, so that runs form, with now and then a frame any rule could
report, another layout (whole numbers are int32 under compat), a destroyed object
or a debug command; and then bytes are flipped, keys changed and lengths edited."""

from __future__ import annotations

import io
import math
import random
import struct

import pytest
from build_matrix_smt import checked_both_ways, runs_taken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import real_file
from recspec.conformance.matrix_smt._xcheck import _frame_spans
from recspec.errors import DecodeError
from recspec.fuzz.matrix_smt import mutate
from recspec.reference.matrix_smt import (
    T_ARRAY,
    CommandKind,
    DebugCommand,
    Frame,
    Geometry,
    Presence,
    Recording,
    RecordingWalker,
    SceneObject,
    State,
    encode,
    encode_document,
    to_document,
)

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)


def _quat(rng: random.Random) -> tuple[float, float, float, float]:
    q = [rng.uniform(-1, 1) for _ in range(4)]
    n = math.hypot(*q) or 1.0
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def _recording(rng: random.Random, frames: int, rare: float) -> Recording:
    """Objects 0.., every frame with a state for each in one order, values drawn; with probability
    ``rare`` a frame gets something else (see the module's docstring)."""
    ids = rng.sample(range(0, 50), rng.randint(1, 4))
    objects = tuple(SceneObject(i, f"o{i}", Geometry.SPHERE, (0.0, 0.5, 1.0), radius=1.0) for i in ids)
    meta = rng.choice(["", "md", "static_md", "é"])
    alive = list(ids)
    t = rng.choice([0.0, 0.5, 3.0])
    out = []
    for _ in range(frames):
        t += rng.choice([1 / 60, 1 / 60, 1 / 60, 0.0, 0.5])
        time = t
        states = []
        for oid in alive:
            p = (rng.uniform(-9, 9), rng.uniform(-9, 9), rng.uniform(-9, 9))
            q = _quat(rng)
            flag = Presence.INSTANTIATED
            if rng.random() < rare:  # one of the things a run must not take (or another layout)
                what = rng.randrange(8)
                if what == 0:
                    p = (1.0, 2.0, 3.0)  # whole numbers: int32 under compat
                elif what == 1:
                    p = (float("nan"), p[1], float("inf"))
                elif what == 2:
                    q = (q[0], q[1], q[2], q[3] + 0.01)
                elif what == 3:
                    flag = Presence.DESTROYED
                elif what == 4:
                    continue  # not mentioned this frame
                elif what == 5:
                    oid = rng.choice(ids)  # maybe twice, maybe destroyed
                elif what == 6:
                    time = t - 1.0  # back in time
                else:
                    oid = 99  # no such object
            states.append(State(oid, flag, meta, p, q))
            if flag is Presence.DESTROYED and oid in alive:
                alive.remove(oid)
        commands = ()
        if rng.random() < rare / 2:
            commands = (DebugCommand(CommandKind.SPHERE, (0.0, 0.0, 0.0), radius=1.0),)
        out.append(Frame(time, tuple(states), commands))
    return Recording(objects, tuple(out))


def _encode(rec: Recording, encoding: str) -> bytes:
    """``rec`` as the spec or compat encoder writes it, or ("time-first") the spec encoding with each frame's
    keys in the order t, states, cmd (hostile.py matrix-bare-frames)."""
    if encoding != "time-first":
        return encode(rec, profile=encoding)
    doc = to_document(rec)
    for frame in doc.get("frames"):
        order = sorted(range(len(frame.keys)), key=lambda i: frame.keys[i] != "t")
        frame.keys[:] = [frame.keys[i] for i in order]
        frame.values[:] = [frame.values[i] for i in order]
    return encode_document(doc)


def _edits(data: bytes, rng: random.Random) -> list[bytes]:
    """``data`` and a few edits of it: a flipped byte, a changed digit, a length edit, the fuzzer's mutation."""
    out = [data]
    frames_at = data.find(b"\x04frames\x00")
    lo = frames_at if frames_at > 0 else 4
    for _ in range(3):
        edited = bytearray(data)
        i = rng.randrange(lo, len(data))
        edited[i] ^= 1 << rng.randrange(8)
        out.append(bytes(edited))
    digits = [i for i in range(lo, len(data) - 1) if data[i - 1] == 3 and 0x30 <= data[i] <= 0x39]
    if digits:
        edited = bytearray(data)
        edited[rng.choice(digits)] = rng.choice(b"0123456789x")
        out.append(bytes(edited))
    docs = [i for i in range(lo, len(data) - 5) if data[i] == 0 and data[i - 1] in b"0123456789"]
    if docs:
        edited = bytearray(data)
        j = rng.choice(docs) + 1
        struct.pack_into("<i", edited, j, struct.unpack_from("<i", edited, j)[0] + rng.choice((-4, -1, 1, 4)))
        out.append(bytes(edited))
    out.append(mutate(data, 1 << 16, rng.randrange(2**32)))
    return out


@SLOW
@given(st.randoms(use_true_random=False), st.integers(2, 60), st.sampled_from([0.0, 0.02, 0.1, 0.3]),
       st.sampled_from(["spec", "compat", "time-first"]), st.sampled_from(["spec", "compat"]))
def test_runs_and_the_full_walk_give_the_same_report(rng, frames, rare, encoding, profile) -> None:  # type: ignore[no-untyped-def]
    rec = _recording(rng, frames, rare)
    data = _encode(rec, encoding)
    if encoding == "compat" and rng.random() < 0.3:  # the producer's long flags here and there
        data = _with_flags(rec, rng.choices(["i", "i", "i", "d", "instantiated", "destroyed"], k=rng.randint(1, 9)))
    for edited in _edits(data, rng):
        checked_both_ways(edited, profile)


@pytest.mark.parametrize("encoding", ["spec", "compat", "time-first"])
@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_a_recording_of_one_layout_is_checked_in_runs(monkeypatch: pytest.MonkeyPatch, encoding: str,
                                                      profile: str) -> None:
    taken = runs_taken(monkeypatch)
    data = _encode(_recording(random.Random(7), 150, 0.0), encoding)
    assert encoding != "time-first" or (data.count(b"\x01t\x00") == 150 and b"\x03149\x00" in data)
    report = checked_both_ways(data, profile)
    assert report.stats["frames"] == 150
    assert sum(taken) >= 140  # all but the frames that start a run (and the keys of 10 and 100)
    assert report.evidence["fast_path_frames"] == 150


def test_a_bad_frame_in_a_run_is_located(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quaternion off unit length in frame 70 of 120 like it: the run stops, the frame is walked,
    the finding has the frame's path and the offset of its rotation."""
    rng = random.Random(3)
    rec = _recording(rng, 120, 0.0)
    frames = list(rec.frames)
    s = frames[70].states[0]
    frames[70] = Frame(frames[70].time, (State(s.id, s.presence, s.metadata, s.position, (0.0, 0.0, 0.0, 0.5)),
                                         *frames[70].states[1:]))
    taken = runs_taken(monkeypatch)
    report = checked_both_ways(encode(Recording(rec.objects, tuple(frames)), profile="spec"), "spec")
    assert [f.path for f in report.findings] == ["frames[70].states[0].r"]
    assert sum(taken) >= 100


@pytest.mark.parametrize("states", [0, 2])
def test_frames_that_start_with_their_time_are_checked_in_runs(monkeypatch: pytest.MonkeyPatch, states: int) -> None:
    """{t, states, cmd: []} frames (hostile.py matrix-bare-frames at 0 states) take the fast path and runs,
    with the full walk's report; a time going back in frame 90 is located."""
    rng = random.Random(5)
    rec = _recording(rng, 120, 0.0)
    frames = [Frame(f.time, f.states[:states], f.commands) for f in rec.frames]
    frames[90] = Frame(frames[89].time - 1.0, frames[90].states, ())
    taken = runs_taken(monkeypatch)
    for profile in ("spec", "compat"):
        report = checked_both_ways(_encode(Recording(rec.objects, tuple(frames)), "time-first"), profile)
        assert report.evidence["fast_path_frames"] >= 119
        assert "frames[90].t" in [f.path for f in report.findings]
    assert sum(taken) >= 2 * 100


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_scene1_gives_the_full_walks_report(profile: str) -> None:
    report = checked_both_ways(real_file("Scene1.bson").read_bytes(), profile)
    assert report.evidence["fast_path_frames"] == 500


def _walker_spans(data: bytes) -> tuple[int, list[tuple[int, int]]] | None:
    try:
        w = RecordingWalker(io.BytesIO(data), len(data))
        frames = next((s for s in w.sections() if s.key == "frames" and s.type_code == T_ARRAY), None)
        if frames is None:
            return None
        return frames.value_offset, [(e.offset, e.end) for e in w.entries(frames, raw=True)]
    except DecodeError:
        return None


@SLOW
@given(st.randoms(use_true_random=False), st.integers(0, 40), st.sampled_from([0.0, 0.1, 0.3]),
       st.sampled_from(["spec", "compat"]))
def test_the_cross_checks_quick_framing_is_the_walkers(rng, frames, rare, encoding) -> None:  # type: ignore[no-untyped-def]
    """The cross-check's sample is cut with ``_frame_spans`` (the lengths alone, a column of bytes at a
    time over elements like the one before): it gives the walker's spans, or None (the walker frames)."""
    data = encode(_recording(rng, frames, rare), profile=encoding)
    for edited in _edits(data, rng):
        walked = _walker_spans(edited)
        if walked is not None:
            quick = _frame_spans(edited, walked[0])
            assert quick is None or quick == walked[1]


def _with_flags(rec: Recording, flags: list[str]) -> bytes:
    """``rec`` as compat writes it, with the states' flags replaced, one after the other, from ``flags``
    (cycled): the producer's long ones ("instantiated", "destroyed") among them."""
    doc = to_document(rec, "compat")
    i = 0
    for frame in doc.map()["frames"].values:
        for state in frame.map()["states"].values:
            state.values[state.keys.index("i")] = flags[i % len(flags)]
            i += 1
    return encode_document(doc)


@pytest.mark.parametrize("flags", [["instantiated"], ["i", "instantiated", "i"], ["i"] * 40 + ["destroyed"]])
@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_the_producers_long_flags_are_judged_as_the_full_walk_judges_them(flags: list[str], profile: str) -> None:
    """A state flagged "instantiated" is MATRIX-STATE-003 under spec in every frame (its frame starts
    no run), and "destroyed" destroys under compat only."""
    data = _with_flags(_recording(random.Random(5), 60, 0.0), flags)
    report = checked_both_ways(data, profile)
    if profile == "spec":
        assert report.verdicts["spec"].rules.get("MATRIX-STATE-003", 0) > 0
