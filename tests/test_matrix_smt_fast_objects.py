"""The fast path's objects array (``_fastpath.objects``): an array of objects in the spec encoder's shape is
read from its bytes without decoding it, where no rule has anything to say about them; on generated
recordings one edit or one byte away from an object's rules, the report (findings with their offsets,
lengths and paths, both profiles' verdicts, the counts) is the full walk's (generated recordings, mutated:
``test_matrix_smt_fast_commands.py``)."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from build_matrix_smt import checked_both_ways
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import _fastpath, check_stream
from recspec.conformance.matrix_smt._seeds import BASE
from recspec.reference import matrix_smt as b

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _taken(data: bytes, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """What ``_fastpath.objects`` returned while ``data`` was checked (-1: declined)."""
    returned: list[int] = []
    real = _fastpath.objects

    def spy(*args: Any) -> int:
        returned.append(real(*args))
        return returned[-1]

    monkeypatch.setattr(_fastpath, "objects", spy)
    check_stream(io.BytesIO(data), path="x", profile="spec")
    monkeypatch.undo()
    return returned


def _objects() -> list[b.Document]:
    """One object of each geometry, in the encoder's shape, breaking no rule."""
    def head(oid: int, gtype: str) -> list[tuple[str, Any]]:
        return [("id", oid), ("name", f"n{oid}"), ("color", b.Array.of_values([0.0, 0.5, 1.0])), ("static", False),
                ("type", gtype)]
    tetra = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    return [b.Document.of(*head(0, "box"), ("half_dimentions", b.Array.of_values([0.5, 1.0, 2.0]))),
            b.Document.of(*head(1, "sphere"), ("radius", 0.25)),
            b.Document.of(*head(2, "capsule"), ("radius", 0.5), ("half_height", 1.5)),
            b.Document.of(*head(7, "convex"), ("vertices", b.Array.of_values([b.Array.of_values(p) for p in tetra])))]


def _recording(objects: list[b.Document]) -> bytes:
    states = [b.Document.of(("id", 0), ("i", "i"), ("m", ""), ("p", b.Array.of_values([1.0, 2.0, 3.0])),
                            ("r", b.Array.of_values([0.0, 0.0, 0.0, 1.0])))]
    frame = b.Document.of(("states", b.Array.of_values(states)), ("cmd", b.Array()), ("t", 0.5))
    return b.encode_document(b.Document.of(("objects", b.Array.of_values(objects)),
                                           ("frames", b.Array.of_values([frame]))))


def test_objects_in_the_encoders_shape_are_read_from_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _recording(_objects())
    assert _taken(data, monkeypatch) == [4]
    report = check_stream(io.BytesIO(data), path="x", profile="spec")
    assert report.findings == [] and report.stats["objects"] == 4
    assert _taken(b.encode(BASE, profile="spec"), monkeypatch) == [4]  # the seed's four objects
    assert _taken(_recording([]), monkeypatch) == [0]


def test_the_ids_it_records_are_the_ones_states_are_judged_against(monkeypatch: pytest.MonkeyPatch) -> None:
    objects = _objects()
    data = _recording(objects[1:])  # no object 0, which the state names
    assert _taken(data, monkeypatch) == [3]
    findings = check_stream(io.BytesIO(data), path="x", profile="spec").findings
    assert [(f.rule, f.path) for f in findings] == [("MATRIX-STATE-002", "frames[0].states[0].id")]


def _edited(index: int, key: str, value: Any) -> list[b.Document]:
    objects = _objects()
    o = objects[index]
    if value is _DELETE:
        i = o.keys.index(key)
        del o.keys[i], o.values[i]
    elif key in o.keys:
        o.values[o.keys.index(key)] = value
    else:
        o.keys.append(key)
        o.values.append(value)
    o._map = None
    return objects


_DELETE = object()


@pytest.mark.parametrize(("objects", "rule", "path"), [
    (_edited(0, "id", -1), "MATRIX-OBJ-003", "objects[0].id"),
    (_edited(1, "id", 0), "MATRIX-OBJ-003", "objects[1].id"),
    (_edited(0, "color", b.Array.of_values([0.0, 1.5, 0.0])), "MATRIX-OBJ-005", "objects[0].color[1]"),
    (_edited(0, "color", b.Array.of_values([0.0, math.nan, 0.0])), "MATRIX-NUM-002", "objects[0].color[1]"),
    (_edited(0, "half_dimentions", b.Array.of_values([0.5, 0.0, 2.0])), "MATRIX-OBJ-002",
     "objects[0].half_dimentions"),
    (_edited(1, "radius", 0.0), "MATRIX-OBJ-002", "objects[1].radius"),
    (_edited(1, "radius", math.inf), "MATRIX-NUM-002", "objects[1].radius"),
    (_edited(1, "half_height", 1.0), "MATRIX-DOC-002", "objects[1].half_height"),
    (_edited(2, "half_height", _DELETE), "MATRIX-OBJ-002", "objects[2]"),
    (_edited(2, "half_height", -1.0), "MATRIX-OBJ-002", "objects[2].half_height"),
    (_edited(3, "vertices", b.Array.of_values([b.Array.of_values([float(i), 0.0, 0.0]) for i in range(4)])),
     "MATRIX-OBJ-004", "objects[3].vertices"),
    (_edited(3, "vertices", b.Array.of_values([b.Array.of_values([float(i), float(i == 1), float(i == 2)])
                                               for i in range(3)])), "MATRIX-OBJ-004", "objects[3].vertices"),
    (_edited(3, "type", "cone"), "MATRIX-OBJ-002", "objects[3].type"),
    (_edited(0, "static", 1), "MATRIX-OBJ-006", "objects[0].static"),
])
def test_each_object_rule_is_left_to_the_full_walk(objects: list[b.Document], rule: str, path: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    data = _recording(objects)
    assert _taken(data, monkeypatch) == [-1]
    fast = checked_both_ways(data, "spec")
    assert (rule, path) in [(f.rule, f.path) for f in fast.findings]


def test_an_element_between_two_objects_is_left_to_the_full_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # a null under the key "x" between objects 0 and 1: an array element no object pattern matches,
    # between objects whose keys, read alone, are "0".."3" in order
    clean = _recording(_objects())
    second = clean.index(b"\x031\x00", clean.index(b"\x04objects\x00"))
    arr = clean.index(b"\x04objects\x00") + len(b"\x04objects\x00")
    frames = clean.index(b"\x04frames\x00")
    body = clean[arr + 4:second] + b"\x0ax\x00" + clean[second:frames - 1]
    array = (len(body) + 5).to_bytes(4, "little") + body + b"\x00"
    rest = clean[4:arr] + array + clean[frames:]
    data = (len(rest) + 4).to_bytes(4, "little") + rest
    assert _taken(data, monkeypatch) == [-1]
    fast = checked_both_ways(data, "spec")
    assert ("MATRIX-OBJ-001", "objects[1]") in [(f.rule, f.path) for f in fast.findings]  # a null, not a document


def test_every_byte_of_the_objects_edited_gets_the_full_walks_report() -> None:
    clean = _recording(_objects())
    first = clean.index(b"\x04objects\x00")
    last = clean.index(b"\x04frames\x00")
    for at in range(first, last):
        for delta in (1, 0x80):
            data = bytearray(clean)
            data[at] = (data[at] + delta) % 256
            checked_both_ways(bytes(data), "spec")


_VALUES = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.0, 1.5, math.nan, math.inf, 5e-324, 0, 3, b.Int64(1), "x",
                                     True, None, _DELETE]), st.floats(-2.0, 2.0))
_KEYS = ("id", "name", "color", "static", "type", "half_dimentions", "radius", "half_height", "vertices", "zz")


@SLOW
@given(st.integers(0, 3), st.sampled_from(_KEYS), _VALUES, st.sampled_from(["spec", "compat"]))
def test_an_object_one_edit_away_gets_the_full_walks_report(index, key, value, profile) -> None:  # type: ignore[no-untyped-def]
    if value is _DELETE and key not in _objects()[index].keys:
        value = 1.0
    data = _recording(_edited(index, key, value))
    checked_both_ways(data, profile)


def test_frames_after_an_unreadable_objects_array_take_the_fast_path() -> None:
    # the objects array breaks (a name that is not UTF-8): ids are then not judged, by either path; the
    # frames still take the fast path, a destroyed id named again and an id of no object included
    def state(oid: int, flag: str) -> b.Document:
        return b.Document.of(("id", oid), ("i", flag), ("m", ""), ("p", b.Array.of_values([1.0, 2.0, 3.0])),
                             ("r", b.Array.of_values([0.0, 0.0, 0.0, 1.0])))
    frames = [b.Document.of(("states", b.Array.of_values(states)), ("cmd", b.Array()), ("t", float(i)))
              for i, states in enumerate([[state(0, "d")], [state(0, "i"), state(99, "i")], [state(1, "i")]])]
    data = bytearray(b.encode_document(b.Document.of(("objects", b.Array.of_values(_objects())),
                                                     ("frames", b.Array.of_values(frames)))))
    name = data.index(b"n1\x00")
    data[name] = 0xFF
    report = check_stream(io.BytesIO(bytes(data)), path="x", profile="spec")
    assert [(f.rule, f.offset) for f in report.findings] == [("MATRIX-BSON-005", name)]
    assert report.evidence["fast_path_frames"] == 3 and report.stats["states"] == 4
    for profile in ("spec", "compat"):
        checked_both_ways(bytes(data), profile)
