"""Every finding of the Matrix-SMT checker (conformance/matrix_smt/_check.py), each from a
recording that breaks one clause of docs/formats/matrix-smt.md, found by its rule id, path and
offset; and the fast paths (_fastpath.py, _runs.py) held to the full walk on the same files.

The recordings are pymongo's ``bson.encode`` of the document's shape (``{objects, frames}``);
where BSON allows what a dict cannot hold (a repeated key, an array key out of order, bytes after
the document), elements are spliced from pymongo's bytes. The offsets are found by the tests' own
walk over the bytes (``element_offsets`` in tests/build_matrix_smt.py: each element's type byte, by
its structural path), not by the code under test. Each file is checked with the fast paths on
and off: the reports must be the same, so a fast path that takes a frame the full walk reports is
seen too.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import bson
import pytest
from build_matrix_smt import checked_both_ways, document, element, element_offsets, pymongo_elements

from recspec.report import FileReport


def _vec(*xs: float) -> list[float]:
    return [float(x) for x in xs]


def _quat(i: int) -> list[float]:
    a = 0.1 * i
    return [0.0, math.sin(a), 0.0, math.cos(a)]


def _recording(frames: int = 6) -> dict[str, Any]:
    """Four objects (box, sphere, capsule, convex) and ``frames`` frames in the spec encoder's shape,
    each with a state of every object: valid under both profiles."""
    objects = [
        {"id": 0, "name": "box", "type": "box", "color": _vec(0.1, 0.2, 0.3), "half_dimentions": _vec(1, 2, 3)},
        {"id": 1, "name": "ball", "type": "sphere", "color": _vec(1, 0, 0), "radius": 0.5},
        {"id": 2, "name": "pill", "type": "capsule", "color": _vec(0, 1, 0), "radius": 0.5, "half_height": 1.0},
        {"id": 3, "name": "hull", "type": "convex", "color": _vec(0, 0, 1),
         "vertices": [_vec(0, 0, 0), _vec(1, 0, 0), _vec(0, 1, 0), _vec(0, 0, 1)]},
    ]
    out = []
    for f in range(frames):
        states = [{"id": i, "i": "i", "m": "", "p": _vec(f + 0.25, i + 0.5, -1.5), "r": _quat(f + i)}
                  for i in range(4)]
        out.append({"states": states, "cmd": [], "t": f / 60 + 0.5})
    return {"objects": objects, "frames": out}


def _one(report: FileReport, rule: str, path: str) -> Any:
    found = [f for f in report.findings if f.rule == rule and f.path == path]
    assert found, f"{rule} at {path} not among {[(f.rule, f.path) for f in report.findings]}"
    return found[0]


Edit = Callable[[dict[str, Any]], None]


def _obj(i: int, key: str, value: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        d["objects"][i][key] = value
    return edit


def _obj_drop(i: int, key: str) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        del d["objects"][i][key]
    return edit


def _state(f: int, s: int, key: str, value: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        d["frames"][f]["states"][s][key] = value
    return edit


def _state_drop(f: int, s: int, key: str) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        del d["frames"][f]["states"][s][key]
    return edit


def _frame(f: int, key: str, value: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        d["frames"][f][key] = value
    return edit


def _frame_drop(f: int, key: str) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        del d["frames"][f][key]
    return edit


def _frame_time(f: int) -> Edit:
    """The producer's time key: ``time`` in place of ``t`` (same value)."""
    def edit(d: dict[str, Any]) -> None:
        frame = d["frames"][f]
        frame["time"] = frame.pop("t")
    return edit


def _cmd(f: int, command: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        d["frames"][f]["cmd"] = [command]
    return edit


def _top(key: str, value: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        d[key] = value
    return edit


def _top_drop(key: str) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        del d[key]
    return edit


def _both(*edits: Edit) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        for e in edits:
            e(d)
    return edit


_RAY = {"t": "r", "ox": 1.0, "oy": 2.0, "oz": 3.0, "ex": 1.0, "ey": 2.0, "ez": 3.0}
_SPHERE = {"t": "s", "ox": 0.0, "oy": 0.0, "oz": 0.0, "sr": 1.0}
_CUBE = {"t": "c", "ox": 0.0, "oy": 0.0, "oz": 0.0, "sx": 1.0, "sy": 1.0, "sz": 1.0,
         "rx": 0.0, "ry": 0.0, "rz": 0.0, "rw": 1.0}
_FLAT = [_vec(0, 0, 0), _vec(1, 0, 0), _vec(0, 1, 0), _vec(1, 1, 0)]

# (edit, profile, rule, path of the finding, path of the element it must be at)
CASES: list[tuple[str, Edit, str, str, str, str]] = [
    ("not finite", _state(4, 2, "p", [float("nan"), 0.0, 0.0]), "spec", "MATRIX-NUM-002",
     "frames[4].states[2].p[0]", "frames[4].states[2].p[0]"),
    ("infinite rotation", _state(3, 0, "r", [0.0, float("inf"), 0.0, 1.0]), "compat", "MATRIX-NUM-002",
     "frames[3].states[0].r[1]", "frames[3].states[0].r[1]"),
    ("not a number", _state(4, 1, "p", [0.0, "one", 0.0]), "spec", "MATRIX-NUM-001",
     "frames[4].states[1].p[1]", "frames[4].states[1].p[1]"),
    ("unknown state key", _state(2, 3, "zz", 1), "spec", "MATRIX-DOC-002", "frames[2].states[3].zz",
     "frames[2].states[3].zz"),
    ("unknown top key", _top("extra", 1), "spec", "MATRIX-DOC-002", "extra", "extra"),
    ("objects not an array", _top("objects", "none"), "spec", "MATRIX-DOC-001", "objects", "objects"),
    ("frames not an array", _top("frames", 7), "compat", "MATRIX-DOC-001", "frames", "frames"),
    ("no objects", _top_drop("objects"), "spec", "MATRIX-DOC-001", "", ""),
    ("no frames", _top_drop("frames"), "spec", "MATRIX-DOC-001", "", ""),
    ("object not a document", lambda d: d["objects"].__setitem__(1, 5), "spec", "MATRIX-OBJ-001", "objects[1]",
     "objects[1]"),
    ("object without name", _obj_drop(1, "name"), "spec", "MATRIX-OBJ-001", "objects[1]", "objects[1]"),
    ("object without color", _obj_drop(2, "color"), "compat", "MATRIX-OBJ-001", "objects[2]", "objects[2]"),
    ("id not an integer", _obj(1, "id", "one"), "spec", "MATRIX-OBJ-003", "objects[1].id", "objects[1].id"),
    ("id a fraction", _obj(2, "id", 1.5), "spec", "MATRIX-OBJ-003", "objects[2].id", "objects[2].id"),
    ("id negative", _obj(1, "id", -1), "spec", "MATRIX-OBJ-003", "objects[1].id", "objects[1].id"),
    ("id repeated", _obj(2, "id", 1), "spec", "MATRIX-OBJ-003", "objects[2].id", "objects[2].id"),
    ("name not a string", _obj(1, "name", 5), "spec", "MATRIX-OBJ-001", "objects[1].name", "objects[1].name"),
    ("type not a string", _obj(1, "type", 5), "spec", "MATRIX-OBJ-001", "objects[1].type", "objects[1].type"),
    ("unknown type", _obj(1, "type", "cone"), "spec", "MATRIX-OBJ-002", "objects[1].type", "objects[1].type"),
    ("color not 3 numbers", _obj(0, "color", _vec(1, 1)), "spec", "MATRIX-OBJ-001", "objects[0].color",
     "objects[0].color"),
    ("color above 1", _obj(0, "color", _vec(0.5, 1.5, 0.5)), "spec", "MATRIX-OBJ-005", "objects[0].color[1]",
     "objects[0].color"),
    ("color below 0", _obj(3, "color", _vec(0.5, 0.5, -0.25)), "compat", "MATRIX-OBJ-005", "objects[3].color[2]",
     "objects[3].color"),
    ("static not a boolean", _obj(0, "static", 1), "spec", "MATRIX-OBJ-006", "objects[0].static",
     "objects[0].static"),
    ("sphere without radius", _obj_drop(1, "radius"), "spec", "MATRIX-OBJ-002", "objects[1]", "objects[1]"),
    ("capsule without half_height", _obj_drop(2, "half_height"), "spec", "MATRIX-OBJ-002", "objects[2]",
     "objects[2]"),
    ("box size 0", _obj(0, "half_dimentions", _vec(1, 0, 1)), "spec", "MATRIX-OBJ-002",
     "objects[0].half_dimentions", "objects[0].half_dimentions"),
    ("box of 2 sizes", _obj(0, "half_dimentions", _vec(1, 1)), "spec", "MATRIX-OBJ-002",
     "objects[0].half_dimentions", "objects[0].half_dimentions"),
    ("radius 0", _obj(1, "radius", 0.0), "spec", "MATRIX-OBJ-002", "objects[1].radius", "objects[1].radius"),
    ("half_height negative", _obj(2, "half_height", -1.0), "spec", "MATRIX-OBJ-002", "objects[2].half_height",
     "objects[2].half_height"),
    ("another type's field", _obj(0, "radius", 1.0), "spec", "MATRIX-DOC-002", "objects[0].radius",
     "objects[0].radius"),
    ("unknown object key", _obj(1, "mass", 1.0), "spec", "MATRIX-DOC-002", "objects[1].mass", "objects[1].mass"),
    ("vertices not an array", _obj(3, "vertices", 5), "spec", "MATRIX-OBJ-004", "objects[3].vertices",
     "objects[3].vertices"),
    ("3 vertices", _obj(3, "vertices", _FLAT[:3]), "spec", "MATRIX-OBJ-004", "objects[3].vertices",
     "objects[3].vertices"),
    ("flat hull", _obj(3, "vertices", _FLAT), "spec", "MATRIX-OBJ-004", "objects[3].vertices",
     "objects[3].vertices"),
    ("a vertex of 2", _obj(3, "vertices", [*_FLAT[:3], _vec(1, 1)]), "spec", "MATRIX-OBJ-004",
     "objects[3].vertices[3]", "objects[3].vertices[3]"),
    ("frame not a document", lambda d: d["frames"].__setitem__(2, 5), "spec", "MATRIX-FRAME-004", "frames[2]",
     "frames[2]"),
    ("time under 'time'", _frame_time(3), "spec", "MATRIX-FRAME-001", "frames[3].time", "frames[3].time"),
    ("time under 'time' (viewer)", _frame_time(3), "compat", "MATRIX-FRAME-005", "frames[3].time",
     "frames[3].time"),
    ("no time", _frame_drop(3, "t"), "compat", "MATRIX-FRAME-001", "frames[3]", "frames[3]"),
    ("time before 0", _frame(0, "t", -0.5), "spec", "MATRIX-FRAME-002", "frames[0].t", "frames[0].t"),
    ("time going back", _frame(4, "t", 0.0), "spec", "MATRIX-FRAME-002", "frames[4].t", "frames[4].t"),
    ("time going back (compat)", _frame(3, "t", 0.25), "compat", "MATRIX-FRAME-002", "frames[3].t", "frames[3].t"),
    ("states missing", _frame_drop(2, "states"), "spec", "MATRIX-FRAME-004", "frames[2].states", "frames[2]"),
    ("states not an array", _frame(2, "states", 1), "spec", "MATRIX-FRAME-004", "frames[2].states",
     "frames[2].states"),
    ("cmd the empty string", _frame(2, "cmd", ""), "spec", "MATRIX-FRAME-003", "frames[2].cmd", "frames[2].cmd"),
    ("cmd null", _frame(2, "cmd", None), "spec", "MATRIX-FRAME-003", "frames[2].cmd", "frames[2].cmd"),
    ("cmd missing", _frame_drop(2, "cmd"), "spec", "MATRIX-FRAME-003", "frames[2].cmd", "frames[2]"),
    ("cmd a number", _frame(2, "cmd", 3), "compat", "MATRIX-FRAME-003", "frames[2].cmd", "frames[2].cmd"),
    ("unknown frame key", _frame(2, "dt", 0.1), "spec", "MATRIX-DOC-002", "frames[2].dt", "frames[2].dt"),
    ("state not a document", lambda d: d["frames"][2]["states"].__setitem__(1, "s"), "spec", "MATRIX-STATE-001",
     "frames[2].states[1]", "frames[2].states[1]"),
    ("state without m", _state_drop(2, 1, "m"), "spec", "MATRIX-STATE-001", "frames[2].states[1]",
     "frames[2].states[1]"),
    ("state id not an integer", _state(2, 1, "id", "one"), "spec", "MATRIX-STATE-001", "frames[2].states[1].id",
     "frames[2].states[1].id"),
    ("flag not a string", _state(2, 1, "i", 1), "spec", "MATRIX-STATE-001", "frames[2].states[1].i",
     "frames[2].states[1].i"),
    ("meta not a string", _state(2, 1, "m", 1), "spec", "MATRIX-STATE-001", "frames[2].states[1].m",
     "frames[2].states[1].m"),
    ("position of 2", _state(2, 1, "p", _vec(1, 2)), "spec", "MATRIX-STATE-001", "frames[2].states[1].p",
     "frames[2].states[1].p"),
    ("rotation not an array", _state(2, 1, "r", 1.0), "spec", "MATRIX-STATE-001", "frames[2].states[1].r",
     "frames[2].states[1].r"),
    ("no such object", _state(2, 1, "id", 9), "spec", "MATRIX-STATE-002", "frames[2].states[1].id",
     "frames[2].states[1].id"),
    ("unknown flag", _state(2, 1, "i", "x"), "compat", "MATRIX-STATE-003", "frames[2].states[1].i",
     "frames[2].states[1].i"),
    ("the producer's flag", _state(2, 1, "i", "instantiated"), "spec", "MATRIX-STATE-003",
     "frames[2].states[1].i", "frames[2].states[1].i"),
    ("destroyed, then named", _state(1, 2, "i", "d"), "spec", "MATRIX-STATE-004", "frames[2].states[2].id",
     "frames[2].states[2].id"),
    ("destroyed by the producer's flag, then named", _state(1, 2, "i", "destroyed"), "compat", "MATRIX-STATE-004",
     "frames[2].states[2].id", "frames[2].states[2].id"),
    ("two states of one object", _state(3, 2, "id", 1), "spec", "MATRIX-STATE-005", "frames[3].states[2].id",
     "frames[3].states[2].id"),
    ("rotation of length 2", _state(4, 3, "r", _vec(0, 0, 0, 2)), "spec", "MATRIX-QUAT-001",
     "frames[4].states[3].r", "frames[4].states[3].r"),
    ("rotation of length 0.5", _state(2, 0, "r", _vec(0.5, 0, 0, 0)), "compat", "MATRIX-QUAT-001",
     "frames[2].states[0].r", "frames[2].states[0].r"),
    ("command not a document", _cmd(2, 4), "spec", "MATRIX-CMD-001", "frames[2].cmd[0]", "frames[2].cmd[0]"),
    ("command of unknown kind", _cmd(2, {**_SPHERE, "t": "x"}), "spec", "MATRIX-CMD-001", "frames[2].cmd[0].t",
     "frames[2].cmd[0].t"),
    ("command without a kind", _cmd(2, {"ox": 0.0}), "spec", "MATRIX-CMD-001", "frames[2].cmd[0].t",
     "frames[2].cmd[0]"),
    ("sphere command without radius", _cmd(2, {k: v for k, v in _SPHERE.items() if k != "sr"}), "spec",
     "MATRIX-CMD-002", "frames[2].cmd[0]", "frames[2].cmd[0]"),
    ("sphere command of radius 0", _cmd(2, {**_SPHERE, "sr": 0.0}), "compat", "MATRIX-CMD-002",
     "frames[2].cmd[0].sr", "frames[2].cmd[0].sr"),
    ("cube of size -1", _cmd(2, {**_CUBE, "sy": -1.0}), "spec", "MATRIX-CMD-002", "frames[2].cmd[0].sy",
     "frames[2].cmd[0].sy"),
    ("command colour above 1", _cmd(2, {**_SPHERE, "g": 2.0}), "spec", "MATRIX-CMD-003", "frames[2].cmd[0].g",
     "frames[2].cmd[0].g"),
    ("command opacity below 0", _cmd(2, {**_SPHERE, "o": -0.5}), "compat", "MATRIX-CMD-003",
     "frames[2].cmd[0].o", "frames[2].cmd[0].o"),
    ("ray ending where it starts", _cmd(2, _RAY), "spec", "MATRIX-CMD-004", "frames[2].cmd[0]",
     "frames[2].cmd[0]"),
    ("cube of rotation length 2", _cmd(2, {**_CUBE, "rw": 2.0}), "spec", "MATRIX-QUAT-001", "frames[2].cmd[0].r*",
     "frames[2].cmd[0]"),
    ("command number not a number", _cmd(2, {**_SPHERE, "oy": "up"}), "spec", "MATRIX-NUM-001",
     "frames[2].cmd[0].oy", "frames[2].cmd[0].oy"),
]


@pytest.mark.parametrize(("name", "edit", "profile", "rule", "path", "at"), CASES, ids=[c[0] for c in CASES])
def test_each_finding_is_at_the_break(name: str, edit: Edit, profile: str, rule: str, path: str, at: str) -> None:
    doc = copy.deepcopy(_recording())
    edit(doc)
    data = bson.encode(doc)
    offsets = element_offsets(data)
    finding = _one(checked_both_ways(data, profile), rule, path)
    assert finding.offset == (0 if at == "" else offsets[at])


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_the_unbroken_recording_is_valid(profile: str) -> None:
    report = checked_both_ways(bson.encode(_recording()), profile)
    assert report.findings == []
    assert report.stats["frames"] == 6 and report.stats["states"] == 24 and report.stats["objects"] == 4
    assert report.stats["duration_s"] == 5 / 60 + 0.5


# -- what a dict cannot hold: elements spliced from pymongo's bytes

def _array(key: str, keyed: list[tuple[str, dict[str, Any]]]) -> bytes:
    """An array element ``key`` of documents under the given keys (in any order)."""
    return element(0x04, key.encode(), document(*(element(0x03, k.encode(), bson.encode(v)) for k, v in keyed)))


def test_a_repeated_top_level_key_is_reported_at_its_second_place() -> None:
    rec = _recording()
    data = document(pymongo_elements({"objects": rec["objects"]}) + pymongo_elements(rec))
    second = data.rindex(b"\x04objects\x00")
    assert second > data.index(b"\x04objects\x00")
    report = checked_both_ways(data, "spec")
    assert [(f.offset, f.path, f.actual) for f in report.findings if f.rule == "MATRIX-BSON-009"] == [
        (second, "objects", "objects")]
    assert report.stats["objects"] == 4  # the last objects array is the one counted


def test_a_frames_key_out_of_order_is_reported_at_its_element() -> None:
    rec = _recording()
    keyed = [(str(i), f) for i, f in enumerate(rec["frames"])]
    keyed[3] = ("7", keyed[3][1])
    data = document(pymongo_elements({"objects": rec["objects"]}) + _array("frames", keyed))
    offsets = element_offsets(data)
    report = checked_both_ways(data, "spec")
    found = [(f.offset, f.path, f.expected, f.actual) for f in report.findings if f.rule == "MATRIX-BSON-008"]
    assert found == [(offsets["frames[7]"], "frames", "3", "7")]
    assert report.stats["frames"] == 6


def test_a_states_key_out_of_order_and_a_repeated_state_key() -> None:
    rec = _recording()
    frame = rec["frames"][1]
    states = [(str(i), s) for i, s in enumerate(frame["states"])]
    states[1], states[2] = (states[2][0], states[1][1]), (states[1][0], states[2][1])  # keys 0, 2, 1, 3
    state0 = document(pymongo_elements(frame["states"][0]) + pymongo_elements({"m": "again"}))
    keyed = [(states[0][0], None)] + states[1:]
    states_element = element(0x04, b"states", document(
        element(0x03, b"0", state0), *(element(0x03, k.encode(), bson.encode(v)) for k, v in keyed[1:])))
    frame_doc = document(states_element, pymongo_elements({"cmd": [], "t": frame["t"]}))
    frames = document(*(element(0x03, str(i).encode(), frame_doc if i == 1 else bson.encode(f))
                        for i, f in enumerate(rec["frames"])))
    data = document(pymongo_elements({"objects": rec["objects"]}), element(0x04, b"frames", frames))
    offsets = element_offsets(data)
    report = checked_both_ways(data, "spec")
    assert [(f.offset, f.path, f.expected, f.actual) for f in report.findings if f.rule == "MATRIX-BSON-008"] == [
        (offsets["frames[1].states[2]"], "frames[1].states", "1", "2")]
    second_m = data.index(b"\x02m\x00", offsets["frames[1].states[0].m"] + 1)
    assert [(f.offset, f.path) for f in report.findings if f.rule == "MATRIX-BSON-009"] == [
        (second_m, "frames[1].states[0].m")]


def test_bytes_after_the_document() -> None:
    data = bson.encode(_recording())
    report = checked_both_ways(data + b"\x00\x07", "compat")
    assert [(f.rule, f.offset, f.length, f.expected, f.actual) for f in report.findings] == [
        ("MATRIX-BSON-006", len(data), 2, len(data), len(data) + 2)]


def test_a_file_cut_inside_a_frame() -> None:
    data = bson.encode(_recording())
    offsets = element_offsets(data)
    cut = offsets["frames[5]"] + 40
    report = checked_both_ways(data[:cut], "spec")
    # at the frame's document, whose length runs past the end: after its type byte, key "5" and NUL
    assert [(f.rule, f.offset, f.path, f.expected, f.actual) for f in report.findings] == [
        ("MATRIX-BSON-007", offsets["frames[5]"] + 3, "frames[5]", len(data), cut)]
    assert report.stats["frames"] == 5
