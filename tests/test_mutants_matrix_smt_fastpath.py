"""The Matrix-SMT fast paths (conformance/matrix_smt/_fastpath.py, one frame of a known shape;
_runs.py, runs of frames of one layout) against the full walk, on long recordings of each shape
the fast paths know, with one frame broken in the middle of a run.

The shapes (docs/formats/matrix-smt.md, "Frames"; the producer's habits): the spec encoder's
``{states, cmd: [], t}``, the same keys time first ``{t, states, cmd: []}``, and the producer's
``{cmd: "", states, time}``, its numbers doubles or, where whole, int32 (every frame, or two frames in four:
then the layouts alternate). The recordings are
pymongo's ``bson.encode`` of dicts in those key orders; offsets come from the walk over the bytes
in tests/build_matrix_smt.py (each element's type byte, by path). Each file is
checked with the fast paths on and off, and the reports must be the same; besides, a frame no
rule reports is the fast path's (``evidence["fast_path_frames"]``: a fast path that declines
what it should take costs time, not findings, and is seen only there), and the broken frame is
reported at the broken element.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable
from typing import Any

import bson
import pytest
from build_matrix_smt import checked_both_ways, element_offsets, located_report, runs_taken

from recspec.report import FileReport
from recspec.trace import collecting

SHAPES = ("spec", "time-first", "producer", "producer-int", "producer-mixed")
OBJECTS = [{"id": i, "name": f"o{i}", "type": "sphere", "color": [0.0, 0.5, 1.0], "radius": 1.0}
           for i in (3, 0, 7, 12)]
IDS = [o["id"] for o in OBJECTS]


def _time_key(shape: str) -> str:
    return "time" if shape.startswith("producer") else "t"


def _frame(shape: str, f: int, states: list[dict[str, Any]]) -> dict[str, Any]:
    t: Any = 0.25 + f // 2 / 30  # every other frame repeats the time before it (non-decreasing is enough)
    if shape == "producer-int":
        t = 1 + f // 3  # whole seconds: int32
    if shape == "spec":
        return {"states": states, "cmd": [], "t": t}
    if shape == "time-first":
        return {"t": t, "states": states, "cmd": []}
    return {"cmd": "", "states": states, "time": t}


def _recording(shape: str, frames: int) -> dict[str, Any]:
    out = []
    for f in range(frames):
        states = []
        for k, oid in enumerate(IDS):
            a = 0.05 * (f + k)
            if shape == "producer-int" or (shape == "producer-mixed" and f // 2 % 2 == 0):
                p: list[Any] = [f, -k, 2]  # whole numbers, int32
                r: list[Any] = [0.0, 0, math.sin(a), math.cos(a)] if k % 2 else [0, 0, 0, 1]
            else:
                p = [f * 0.5 + 0.125, k - 0.5, 2.5]
                r = [0.0, math.sin(a), 0.0, math.cos(a)]
            states.append({"id": oid, "i": "i", "m": "meta" if k == 1 else "", "p": p, "r": r})
        out.append(_frame(shape, f, states))
    return {"objects": copy.deepcopy(OBJECTS), "frames": out}


def _fast_path_alone(shape: str, frames: int) -> int:
    """The frames of a clean recording the fast path takes before runs take the rest (_runs' docstring):
    the first frame of each layout (the producer-mixed recording has two: whole numbers or not)."""
    return 2 if shape == "producer-mixed" and frames > 2 else 1


@pytest.mark.parametrize("frames", [1, 2, 9, 150])
@pytest.mark.parametrize("shape", SHAPES)
def test_every_frame_of_a_clean_recording_is_the_fast_paths(monkeypatch: pytest.MonkeyPatch, shape: str,
                                                            frames: int) -> None:
    taken = runs_taken(monkeypatch)
    doc = _recording(shape, frames)
    data = bson.encode(doc)
    report = checked_both_ways(data, "compat")
    # the producer's time key: the viewer's warning, at each frame's time element; nothing else
    assert [(f.rule, f.path) for f in report.findings] == (
        [("MATRIX-FRAME-005", f"frames[{j}].time") for j in range(frames)][:100] if shape.startswith("producer")
        else [])
    assert report.evidence["fast_path_frames"] == frames
    assert sum(taken) == max(0, frames - _fast_path_alone(shape, frames))  # every other frame is taken in a run
    assert report.stats["frames"] == frames and report.stats["states"] == 4 * frames
    assert report.stats["duration_s"] == float(doc["frames"][-1][_time_key(shape)])


@pytest.mark.parametrize("shape", ["producer", "producer-int"])
def test_the_producers_keys_are_reported_at_each_frames_elements(shape: str) -> None:
    """Under spec, each producer frame's ``time`` is MATRIX-FRAME-001 and its ``cmd: ""`` MATRIX-FRAME-003;
    under compat, the time is the viewer's MATRIX-FRAME-005: the first 100 of each stored (the cap), at the
    frame's elements with their lengths (a time element of 1 + 5 + 8 bytes as a double, 1 + 5 + 4 as int32;
    cmd's 1 + 4 + 4 + 1), and every one counted."""
    frames = 130
    data = bson.encode(_recording(shape, frames))
    offsets = element_offsets(data)
    time_len = 10 if shape == "producer-int" else 14
    for profile, rule, key, length in (("spec", "MATRIX-FRAME-001", "time", time_len),
                                       ("spec", "MATRIX-FRAME-003", "cmd", 10),
                                       ("compat", "MATRIX-FRAME-005", "time", time_len)):
        report = checked_both_ways(data, profile)
        assert report.evidence["fast_path_frames"] == frames
        stored = [f for f in report.findings if f.rule == rule]
        assert [(f.path, f.offset, f.length) for f in stored] == [
            (f"frames[{j}].{key}", offsets[f"frames[{j}].{key}"], length) for j in range(100)]
        assert report.verdicts[profile].rules[rule] == frames
        assert report.capped[rule] == frames
    assert report.verdicts["spec"].rules == {"MATRIX-FRAME-001": frames, "MATRIX-FRAME-003": frames}
    assert report.verdicts["compat"].rules == {"MATRIX-FRAME-005": frames}


Edit = Callable[[dict[str, Any], str], None]


def _state(j: int, k: int, key: str, value: Any) -> Edit:
    def edit(d: dict[str, Any], shape: str) -> None:
        d["frames"][j]["states"][k][key] = value
    return edit


def _time(j: int, value: float) -> Edit:
    def edit(d: dict[str, Any], shape: str) -> None:
        d["frames"][j][_time_key(shape)] = value
    return edit


# (name, edit, profile, rule, path (TIME: the frame's time key), frames the fast paths decline)
BREAKS: list[tuple[str, Edit, str, str, str, int]] = [
    ("position NaN", _state(77, 2, "p", [0.5, float("nan"), 1.0]), "spec", "MATRIX-NUM-002",
     "frames[77].states[2].p[1]", 1),
    ("rotation infinite", _state(77, 3, "r", [float("-inf"), 0.0, 0.0, 1.0]), "compat", "MATRIX-NUM-002",
     "frames[77].states[3].r[0]", 1),
    ("huge position", _state(60, 0, "p", [1e308, 1e308, 0.5]), "compat", None, "frames[60]", 1),
    ("rotation too long", _state(101, 1, "r", [0.0, 0.0, 0.0, 1.0015]), "spec", "MATRIX-QUAT-001",
     "frames[101].states[1].r", 1),
    ("rotation too short", _state(140, 0, "r", [0.0, 0.0, 0.0, 0.998]), "compat", "MATRIX-QUAT-001",
     "frames[140].states[0].r", 1),
    ("rotation just inside", _state(33, 2, "r", [0.0, 0.0, 0.0, 1.0009]), "compat", None, "", 0),
    ("time going back at a run's start", _time(1, 0.125), "spec", "MATRIX-FRAME-002", "frames[1].TIME", 1),
    ("another layout (a longer meta)", _state(60, 0, "m", "longer"), "spec", None, "frames[60]", 0),
    ("time going back", _time(88, 0.0), "compat", "MATRIX-FRAME-002", "frames[88].TIME", 1),
    ("time going back a little", _time(131, 2.0), "compat", "MATRIX-FRAME-002", "frames[131].TIME", 1),
    ("first time negative", _time(0, -1.0), "compat", "MATRIX-FRAME-002", "frames[0].TIME", 1),
    ("time infinite", _time(149, float("inf")), "compat", "MATRIX-NUM-002", "frames[149].TIME", 1),
    ("no such object", _state(120, 3, "id", 5), "compat", "MATRIX-STATE-002", "frames[120].states[3].id", 1),
    ("two states of one object", _state(45, 2, "id", 0), "compat", "MATRIX-STATE-005",
     "frames[45].states[2].id", 1),
    ("unknown flag", _state(46, 0, "i", "x"), "compat", "MATRIX-STATE-003", "frames[46].states[0].i", 1),
]


def _located(path: str, shape: str) -> str:
    return path.replace("TIME", _time_key(shape))


@pytest.mark.parametrize(("name", "edit", "profile", "rule", "path", "declined"), BREAKS, ids=[b[0] for b in BREAKS])
@pytest.mark.parametrize("shape", SHAPES)
def test_a_broken_frame_in_a_run_is_reported_at_its_element(monkeypatch: pytest.MonkeyPatch, shape: str, name: str,
                                                            edit: Edit, profile: str, rule: str | None, path: str,
                                                            declined: int) -> None:
    taken = runs_taken(monkeypatch)
    doc = _recording(shape, 150)
    edit(doc, shape)
    data = bson.encode(doc)
    report = checked_both_ways(data, profile)
    assert report.stats["frames"] == 150
    producer = {"MATRIX-FRAME-001", "MATRIX-FRAME-003", "MATRIX-FRAME-005"}
    if rule is None:
        assert [f for f in report.findings if f.rule not in producer] == []
    else:
        path = _located(path, shape)
        found = [f for f in report.findings if f.rule == rule]
        assert [(f.path, f.offset) for f in found if f.path.startswith(path)] == [(path, element_offsets(data)[path])]
    assert report.evidence["fast_path_frames"] == 150 - declined
    if shape in ("spec", "time-first", "producer"):  # numbers all doubles: an edited number keeps the layout
        # a run stops before the declined frame (or one of another layout), the full walk (or the fast path)
        # takes it, the fast path the frame after it (when there is one), and a run the rest (_runs' docstring)
        broken = int(re.match(r"frames\[(\d+)\]", path).group(1)) if path else -1  # type: ignore[union-attr]
        alone = 1 + (0 < broken < 149)
        assert sum(taken) == 150 - declined - alone


@pytest.mark.parametrize("shape", SHAPES)
def test_a_destroyed_object_named_again(shape: str) -> None:
    """A state with the destroying flag ("d", and the producer's "destroyed" under compat), then the
    object named in the next frame: MATRIX-STATE-004 there, under both profiles for "d"."""
    doc = _recording(shape, 150)
    doc["frames"][70]["states"][2]["i"] = "destroyed" if shape.startswith("producer") else "d"
    data = bson.encode(doc)
    offsets = element_offsets(data)
    report = checked_both_ways(data, "compat")
    named = [(f.path, f.offset) for f in report.findings if f.rule == "MATRIX-STATE-004"]
    assert named[0] == ("frames[71].states[2].id", offsets["frames[71].states[2].id"])
    assert len(named) == 79 and report.verdicts["compat"].rules["MATRIX-STATE-004"] == 79
    spec = checked_both_ways(data, "spec")
    if shape.startswith("producer"):  # "destroyed" is no flag of spec's: it destroys nothing there
        assert "MATRIX-STATE-004" not in spec.verdicts["spec"].rules
        assert [(f.path, f.offset) for f in spec.findings if f.rule == "MATRIX-STATE-003"] == [
            ("frames[70].states[2].i", offsets["frames[70].states[2].i"])]
    else:
        assert spec.verdicts["spec"].rules["MATRIX-STATE-004"] == 79


@pytest.mark.parametrize("states", [0, 1])
def test_a_thousand_frames_and_more(states: int) -> None:
    """Keys of four digits (frames 1000 on), in runs; a time going back at frame 1057 is reported there."""
    frames = 1100
    doc = {"objects": copy.deepcopy(OBJECTS[:1]),
           "frames": [{"states": [{"id": 3, "i": "i", "m": "", "p": [0.5, 1.5, float(f)], "r": [0.0, 0.0, 0.0, 1.0]}
                                  for _ in range(states)], "cmd": [], "t": 0.5 + f / 8} for f in range(frames)]}
    clean = bson.encode(doc)
    report = checked_both_ways(clean, "spec")
    assert report.findings == [] and report.evidence["fast_path_frames"] == frames
    assert report.stats["frames"] == frames and report.stats["states"] == states * frames
    doc["frames"][1057]["t"] = 1.0
    data = bson.encode(doc)
    report = checked_both_ways(data, "spec")
    assert [(f.rule, f.path, f.offset) for f in report.findings] == [
        ("MATRIX-FRAME-002", "frames[1057].t", element_offsets(data)["frames[1057].t"])]
    assert report.evidence["fast_path_frames"] == frames - 1


def _picture(report: FileReport) -> tuple[Any, ...]:
    """What the HTML report would draw (recspec.trace): per frame times and state counts, sampled positions."""
    t = report.trace
    return (list(t.times.buckets()), list(t.states.buckets()), t.positions.tracks(), t.names)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_fast_path_collects_the_full_walks_picture(shape: str) -> None:
    """With the pictures collected (runs are off then), a frame the fast path takes adds what the full
    walk adds for it: its time, its states, the positions of a sampled frame; on a clean recording and on
    one with a broken frame."""
    doc = _recording(shape, 40)
    broken = copy.deepcopy(doc)
    broken["frames"][20]["states"][1]["r"] = [0.0, 0.0, 0.0, 2.0]
    for d in (doc, broken):
        data = bson.encode(d)
        with collecting():
            fast, full = (located_report(data, "compat", on) for on in (True, False))
        assert _picture(fast) == _picture(full)
        tracks = fast.trace.positions.tracks()
        assert sorted(tracks) == sorted(IDS)  # every object's positions, frame by frame
        assert tracks[IDS[0]][0][1:] == tuple(float(x) for x in d["frames"][0]["states"][0]["p"])
        assert fast.evidence["fast_path_frames"] == (40 if d is doc else 39)


@pytest.mark.parametrize(("index", "key"), [(7, "8"), (57, "75"), (104, "140"), (130, "1300"), (66, "6")])
def test_a_frame_key_out_of_place_in_a_run(monkeypatch: pytest.MonkeyPatch, index: int, key: str) -> None:
    """Frame ``index`` of a run stored under another key (of the same number of digits or not): the run
    stops before it, and MATRIX-BSON-008 names it at its element."""
    taken = runs_taken(monkeypatch)
    doc = _recording("spec", 150)
    frames = b"".join(b"\x03" + (key if i == index else str(i)).encode() + b"\x00" + bson.encode(f)
                      for i, f in enumerate(doc["frames"]))
    elements = (bson.encode({"objects": doc["objects"]})[4:-1] + b"\x04frames\x00"
                + (len(frames) + 5).to_bytes(4, "little") + frames + b"\x00")
    data = (len(elements) + 5).to_bytes(4, "little") + elements + b"\x00"
    before = index - 1  # the element before it ends where it starts: type byte, key, NUL, document
    at = element_offsets(data)[f"frames[{before}]"] + 2 + len(str(before)) + len(bson.encode(doc["frames"][before]))
    assert data[at:at + 2 + len(key)] == b"\x03" + key.encode() + b"\x00"
    report = checked_both_ways(data, "spec")
    assert [(f.rule, f.path, f.offset, f.expected, f.actual) for f in report.findings] == [
        ("MATRIX-BSON-008", "frames", at, str(index), key)]
    assert report.stats["frames"] == 150 and report.evidence["fast_path_frames"] == 149
    assert sum(taken) == 150 - 3


@pytest.mark.parametrize("flag", ["d", "destroyed"])
def test_a_layout_seen_before_that_names_a_destroyed_object(flag: str) -> None:
    """Frames naming all four objects (one layout), one that destroys object 7, frames without it (another
    layout), then a frame with the first layout's bytes again: it names the destroyed object, so no run
    may take it however its bytes match (MATRIX-STATE-004 at its state's id, under compat)."""
    doc = _recording("spec", 40)
    frames = doc["frames"]
    frames[10]["states"][2]["i"] = flag
    for f in range(11, 20):
        del frames[f]["states"][2]
    data = bson.encode(doc)
    offsets = element_offsets(data)
    report = checked_both_ways(data, "compat")
    found = [(f.path, f.offset) for f in report.findings if f.rule == "MATRIX-STATE-004"]
    assert found[0] == ("frames[20].states[2].id", offsets["frames[20].states[2].id"])
    assert len(found) == 20  # frames 20 to 39 name it


@pytest.mark.parametrize("shape", ["spec", "producer"])
def test_meta_strings_beyond_ascii(monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    """A state's meta string in UTF-8 beyond ASCII ("é": c3 a9) is the fast path's; the same two bytes
    made ff ff (no UTF-8) are not: the full walk reports the string there."""
    doc = _recording(shape, 60)
    for f in doc["frames"]:
        f["states"][3]["m"] = "caf\u00e9"
    clean = bson.encode(doc)
    report = checked_both_ways(clean, "compat")
    assert [f.rule for f in report.findings if f.rule != "MATRIX-FRAME-005"] == []
    assert report.evidence["fast_path_frames"] == 60
    offsets = element_offsets(clean)
    at = offsets["frames[33].states[3].m"]
    i = clean.index(b"caf\xc3\xa9", at)
    data = clean[:i + 3] + b"\xff\xff" + clean[i + 5:]
    report = checked_both_ways(data, "compat")
    # MATRIX-BSON-005 at the first byte that is no UTF-8; a structural fault: the walk ends there
    assert [(f.rule, f.path, f.offset) for f in report.findings if f.rule != "MATRIX-FRAME-005"] == [
        ("MATRIX-BSON-005", "frames[33].states[3].m", i + 3)]
    assert report.evidence["fast_path_frames"] == 33 and report.stats["frames"] == 33
