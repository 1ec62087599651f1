"""The Matrix-SMT checker (conformance/matrix_smt/_check.py) on what the earlier tests' recordings
did not hold: whole numbers stored as int32 and int64 where the document asks for a number (decision
2 of docs/formats/matrix-smt.md: "int32, int64 and double are all accepted", and the producer writes
whole numbers so), the count of debug commands, the document a repeated key is repeated in, and the
two reports of ``check_stream_and_full_walk`` where the walk collects a picture or cannot open the
file.

The recordings are pymongo's ``bson.encode``; offsets come from the tests' own walk over the bytes
(``element_offsets``), and each file is checked with the fast paths on and off (``checked_both_ways``).
"""

from __future__ import annotations

import copy
import io
import math
from typing import Any

import bson
import pytest
from bson.int64 import Int64
from build_matrix_smt import checked_both_ways, document, element, element_offsets, pymongo_elements

from recspec.conformance.matrix_smt import check_stream
from recspec.conformance.matrix_smt._check import check_stream_and_full_walk
from recspec.trace import collecting


def _recording(frames: int = 5) -> dict[str, Any]:
    """Two objects and ``frames`` frames of the document's shape, every number a double: valid."""
    objects = [
        {"id": 0, "name": "box", "type": "box", "color": [0.5, 0.5, 0.5], "half_dimentions": [1.0, 1.0, 1.0]},
        {"id": 1, "name": "ball", "type": "sphere", "color": [1.0, 0.0, 0.0], "radius": 0.5},
    ]
    out = [{"states": [{"id": i, "i": "i", "m": "", "p": [float(f), float(i), 0.0],
                        "r": [0.0, 0.0, math.sin(0.1 * f), math.cos(0.1 * f)]} for i in range(2)],
            "cmd": [], "t": f * 0.5} for f in range(frames)]
    return {"objects": objects, "frames": out}


def _findings(report: Any, rule: str) -> list[tuple[str, int | None]]:
    return [(f.path, f.offset) for f in report.findings if f.rule == rule]


# -- whole numbers as int32 and int64 (decision 2): read as numbers, and judged

@pytest.mark.parametrize("whole", [int, Int64], ids=["int32", "int64"])
def test_whole_numbers_are_judged_like_doubles(whole: type) -> None:
    doc = copy.deepcopy(_recording())
    doc["objects"][0]["color"] = [whole(2), whole(0), whole(0)]  # a colour component above 1
    doc["objects"][1]["radius"] = whole(0)  # a sphere of radius 0
    doc["frames"][2]["t"] = whole(-1)  # before 0 (and before frame 1's 0.5)
    doc["frames"][3]["states"][1]["r"] = [whole(0), whole(0), whole(0), whole(2)]  # a rotation of length 2
    data = bson.encode(doc)
    at = element_offsets(data)
    assert data[at["objects[0].color[0]"]] == (0x10 if whole is int else 0x12)  # stored as asked
    report = checked_both_ways(data, "spec")
    assert _findings(report, "MATRIX-OBJ-005") == [("objects[0].color[0]", at["objects[0].color"])]
    assert _findings(report, "MATRIX-OBJ-002") == [("objects[1].radius", at["objects[1].radius"])]
    assert sorted(_findings(report, "MATRIX-FRAME-002")) == [("frames[2].t", at["frames[2].t"])] * 2  # < 0, < 0.5
    assert _findings(report, "MATRIX-QUAT-001") == [("frames[3].states[1].r", at["frames[3].states[1].r"])]
    assert not _findings(report, "MATRIX-NUM-001")


def test_a_recording_of_whole_numbers_is_valid_and_its_times_are_numbers() -> None:
    doc = copy.deepcopy(_recording())
    for f, frame in enumerate(doc["frames"]):
        frame["t"] = f * 2  # int32 seconds
        for s in frame["states"]:
            s["p"] = [f, s["id"], Int64(-3)]
            s["r"] = [0, 0, 0, 1]
    doc["objects"][0]["color"] = [1, 0, 1]
    report = checked_both_ways(bson.encode(doc), "spec")
    assert report.findings == []
    assert report.stats["duration_s"] == 8.0  # the last frame's t


# -- the count of debug commands

def test_the_commands_are_counted() -> None:
    doc = copy.deepcopy(_recording())
    sphere = {"t": "s", "ox": 0.0, "oy": 0.0, "oz": 0.0, "sr": 1.0}
    vector = {"t": "v", "ox": 0, "oy": 0, "oz": 0, "vx": 1, "vy": 0, "vz": 0}  # int32 numbers
    doc["frames"][1]["cmd"] = [sphere, vector, sphere]
    doc["frames"][3]["cmd"] = [{**sphere, "r": 0.5}]
    report = checked_both_ways(bson.encode(doc), "spec")
    assert report.findings == []
    assert report.stats["commands"] == 4 and report.stats["frames"] == 5 and report.stats["states"] == 10


# -- a repeated key names the document it is repeated in

def test_a_key_repeated_in_a_state_names_that_state() -> None:
    rec = _recording()
    state = rec["frames"][1]["states"][0]
    states = document(element(0x03, b"0", document(pymongo_elements(state) + pymongo_elements({"m": "again"}))),
                      element(0x03, b"1", bson.encode(rec["frames"][1]["states"][1])))
    frame = document(element(0x04, b"states", states), pymongo_elements({"cmd": [], "t": 0.5}))
    frames = document(*(element(0x03, str(i).encode(), frame if i == 1 else bson.encode(f))
                        for i, f in enumerate(rec["frames"])))
    data = document(pymongo_elements({"objects": rec["objects"]}), element(0x04, b"frames", frames))
    at = element_offsets(data)
    second_m = data.index(b"\x02m\x00", at["frames[1].states[0].m"] + 1)
    report = checked_both_ways(data, "spec")
    found = [f for f in report.findings if f.rule == "MATRIX-BSON-009"]
    assert [(f.path, f.offset) for f in found] == [("frames[1].states[0].m", second_m)]
    assert "frames[1].states[0]" in found[0].message and "top-level" not in found[0].message


# -- check_stream_and_full_walk's two reports

def _shape(r: Any) -> Any:
    return ([(f.rule, f.offset, f.path) for f in r.findings], r.verdict, repr(r.stats))


def test_both_walks_are_made_while_a_picture_is_collected() -> None:
    doc = copy.deepcopy(_recording())
    doc["frames"][3]["t"] = 0.25  # before frame 2's 1.0
    data = bson.encode(doc)
    at = element_offsets(data)
    with collecting():
        full = check_stream(io.BytesIO(data), path="x", profile="spec", fast_path=False)
        one, two = check_stream_and_full_walk(io.BytesIO(data), path="x", profile="spec", decoded=None,
                                              walk_too=lambda r: True)
    assert two is not None
    assert _shape(two) == _shape(full) == _shape(one)
    assert [(f.rule, f.path, f.offset) for f in two.findings] == [
        ("MATRIX-FRAME-002", "frames[3].t", at["frames[3].t"])]
    assert two.trace is not None


def test_both_walks_of_a_file_too_short_for_a_document() -> None:
    # a declared length of 4: below the smallest document (5 bytes: the length and the final NUL)
    one, two = check_stream_and_full_walk(io.BytesIO(b"\x04\x00\x00\x00\x00"), path="x", profile="compat",
                                          decoded=None, walk_too=lambda r: True)
    assert two is not None and _shape(one) == _shape(two)
    assert [f.offset for f in two.findings] == [0] and two.findings[0].rule.startswith("MATRIX-BSON-")
