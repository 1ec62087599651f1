"""Matrix-SMT's case codec against facts of the format (docs/formats/matrix-smt.md), not its own output.

Each case is written by hand from the case schema's documented fields; the file it must encode to is the
BSON document pymongo's ``bson`` writes from the document's keys: spec form with each document's keys in
the writer's order (an object's ``id name color static type`` and its geometry's fields, a state's ``id i m
p r``, a command's ``t ox oy oz``, its kind's keys, ``r g b o``, a frame's ``states cmd t``), every number a
double; compat form with sorted keys, ``time``, ``destroyed``, an empty ``cmd`` as "" and whole numbers as
int32.
"""

from __future__ import annotations

import copy
from typing import Any

import bson
import jsonschema
import pytest
from bson.int64 import Int64

from recspec._case_json import CaseError
from recspec.reference.matrix_smt import case_schema, decode, encode, from_case, to_case

_HEAD = {"recspec_case": 2, "format": "matrix-smt", "variant": None}


def _case() -> dict[str, Any]:
    return {**_HEAD,
            "objects": [
                {"id": 0, "name": "floor", "type": "box", "color": [0.5, 0.5, 0.5], "static": True,
                 "half_dimentions": [10.0, 0.1, 10.0]},
                {"id": 12, "name": "ball", "type": "sphere", "color": [1.0, 0.0, 0.0], "static": False,
                 "radius": 0.5},
                {"id": -3, "name": "pill", "type": "capsule", "color": [0.0, 1.0, 0.0], "static": False,
                 "radius": 0.25, "half_height": 0.75},
                {"id": 2**40, "name": "rock", "type": "convex", "color": [0.2, 0.2, 0.2], "static": True,
                 "vertices": [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]}],
            "frames": [
                {"time": 0.0166,
                 "states": [{"id": 12, "presence": "i", "metadata": "", "position": [0.0, 2.0, 0.0],
                             "rotation": [0.0, 0.0, 0.0, 1.0]},
                            {"id": -3, "presence": "d", "metadata": "gone", "position": [1.5, 0.0, -2.0],
                             "rotation": [0.5, 0.5, 0.5, 0.5]}],
                 "commands": [
                     {"kind": "v", "origin": [1.0, 2.0, 3.0], "vector": [4.0, 5.0, 6.0]},
                     {"kind": "r", "origin": [0.0, 0.0, 0.0], "end": [7.0, 8.0, 9.0], "color": [0.1, 0.2, 0.3],
                      "opacity": 0.4},
                     {"kind": "s", "origin": [0.5, 0.5, 0.5], "radius": 2.5},
                     {"kind": "c", "origin": [0.0, 1.0, 0.0], "half_size": [1.5, 2.5, 3.5],
                      "rotation": [0.1, 0.2, 0.3, 0.9]}]},
                {"time": 2.0, "states": [], "commands": []}]}


def _spec_document() -> dict[str, Any]:
    return {
        "objects": [
            {"id": 0, "name": "floor", "color": [0.5, 0.5, 0.5], "static": True, "type": "box",
             "half_dimentions": [10.0, 0.1, 10.0]},
            {"id": 12, "name": "ball", "color": [1.0, 0.0, 0.0], "static": False, "type": "sphere", "radius": 0.5},
            {"id": -3, "name": "pill", "color": [0.0, 1.0, 0.0], "static": False, "type": "capsule",
             "radius": 0.25, "half_height": 0.75},
            {"id": Int64(2**40), "name": "rock", "color": [0.2, 0.2, 0.2], "static": True, "type": "convex",
             "vertices": [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]}],
        "frames": [
            {"states": [{"id": 12, "i": "i", "m": "", "p": [0.0, 2.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0]},
                        {"id": -3, "i": "d", "m": "gone", "p": [1.5, 0.0, -2.0], "r": [0.5, 0.5, 0.5, 0.5]}],
             "cmd": [
                 {"t": "v", "ox": 1.0, "oy": 2.0, "oz": 3.0, "vx": 4.0, "vy": 5.0, "vz": 6.0},
                 {"t": "r", "ox": 0.0, "oy": 0.0, "oz": 0.0, "ex": 7.0, "ey": 8.0, "ez": 9.0,
                  "r": 0.1, "g": 0.2, "b": 0.3, "o": 0.4},
                 {"t": "s", "ox": 0.5, "oy": 0.5, "oz": 0.5, "sr": 2.5},
                 {"t": "c", "ox": 0.0, "oy": 1.0, "oz": 0.0, "rx": 0.1, "ry": 0.2, "rz": 0.3, "rw": 0.9,
                  "sx": 1.5, "sy": 2.5, "sz": 3.5}],
             "t": 0.0166},
            {"states": [], "cmd": [], "t": 2.0}]}


def _compat_document() -> dict[str, Any]:
    """Scene1.bson's form: sorted keys, ``time``, ``destroyed``, "" for no commands, whole numbers as int32."""
    return {
        "frames": [
            {"cmd": [
                {"ox": 1, "oy": 2, "oz": 3, "t": "v", "vx": 4, "vy": 5, "vz": 6},
                {"b": 0.3, "ex": 7, "ey": 8, "ez": 9, "g": 0.2, "o": 0.4, "ox": 0, "oy": 0, "oz": 0, "r": 0.1,
                 "t": "r"},
                {"ox": 0.5, "oy": 0.5, "oz": 0.5, "sr": 2.5, "t": "s"},
                {"ox": 0, "oy": 1, "oz": 0, "rw": 0.9, "rx": 0.1, "ry": 0.2, "rz": 0.3, "sx": 1.5, "sy": 2.5,
                 "sz": 3.5, "t": "c"}],
             "states": [{"id": 12, "i": "i", "m": "", "p": [0, 2, 0], "r": [0, 0, 0, 1]},
                        {"id": -3, "i": "destroyed", "m": "gone", "p": [1.5, 0, -2], "r": [0.5, 0.5, 0.5, 0.5]}],
             "time": 0.0166},
            {"cmd": "", "states": [], "time": 2}],
        "objects": [
            {"color": [0.5, 0.5, 0.5], "half_dimentions": [10, 0.1, 10], "id": 0, "name": "floor", "static": True,
             "type": "box"},
            {"color": [1, 0, 0], "id": 12, "name": "ball", "radius": 0.5, "static": False, "type": "sphere"},
            {"color": [0, 1, 0], "half_height": 0.75, "id": -3, "name": "pill", "radius": 0.25, "static": False,
             "type": "capsule"},
            {"color": [0.2, 0.2, 0.2], "id": Int64(2**40), "name": "rock", "static": True, "type": "convex",
             "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}


def test_a_case_encodes_to_the_spec_document_and_back() -> None:
    case = _case()
    data = bson.encode(_spec_document())
    assert encode(from_case(case), profile="spec") == data
    assert to_case(decode(data)) == case
    assert to_case(decode(data), canonical=True) == case


def test_a_compat_file_is_a_case_with_its_form() -> None:
    data = bson.encode(_compat_document())
    case = to_case(decode(data))
    assert case["form"] == "compat"
    assert {k: v for k, v in case.items() if k != "form"} == _case()
    assert "form" not in to_case(decode(data), canonical=True)
    rec = from_case(case)
    assert rec.form == "compat"
    assert encode(rec) == data
    assert from_case({**case, "form": "spec"}).form is None


def test_numbers_stored_as_another_type_are_named_by_bson_path() -> None:
    doc = _spec_document()
    doc["frames"][1]["t"] = 2  # a whole number a writer stored as an int32
    doc["objects"][0]["color"] = [0.5, Int64(1), 0.5]  # ... and a whole colour component as an int64
    data = bson.encode(doc)
    case = to_case(decode(data))
    assert case["numbers"] == {"frames[1].t": "int32", "objects[0].color[1]": "int64"}
    assert case["objects"][0]["color"] == [0.5, 1.0, 0.5]
    assert "numbers" not in to_case(decode(data), canonical=True)
    assert encode(from_case(case)) == data
    assert dict(from_case(case).numbers) == {"frames[1].t": "int32", "objects[0].color[1]": "int64"}
    assert from_case({**case, "numbers": {}}).numbers is None
    assert "numbers" not in to_case(decode(bson.encode(_spec_document())))


def test_a_numbers_type_is_double_int32_or_int64() -> None:
    for t in ("double", "int32", "int64"):
        from_case({**_case(), "numbers": {"frames[1].t": t}})
    with pytest.raises(CaseError, match="a number's type is one of double, int32, int64, not 'float'") as e:
        from_case({**_case(), "numbers": {"frames[1].t": "float"}})
    assert e.value.path == "numbers.frames[1].t"  # type: ignore[attr-defined]
    with pytest.raises(CaseError) as e:
        from_case({**_case(), "numbers": {"frames[1].t": 32}})
    assert e.value.path == "numbers.frames[1].t"  # type: ignore[attr-defined]


def test_the_form_is_spec_or_compat() -> None:
    assert from_case({**_case(), "form": "spec"}).form is None
    assert from_case(_case()).form is None
    with pytest.raises(CaseError, match="form is one of spec, compat, not 'bson'") as e:
        from_case({**_case(), "form": "bson"})
    assert e.value.path == "form"  # type: ignore[attr-defined]


def _refusal_with(where: tuple[Any, ...], value: Any) -> CaseError:
    """What ``from_case`` raises for the case with the field at the keys ``where`` set to ``value``."""
    case = copy.deepcopy(_case())
    node: Any = case
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(CaseError) as e:
        from_case(case)
    return e.value


@pytest.mark.parametrize(("where", "value", "path"), [
    (("objects", 0, "type"), "cone", "objects[0].type"),
    (("frames", 0, "states", 1, "presence"), "destroyed", "frames[0].states[1].presence"),
    (("frames", 0, "commands", 2, "kind"), "x", "frames[0].commands[2].kind"),
])
def test_an_enumerated_field_outside_its_values_is_refused_at_its_path(where: tuple[Any, ...], value: str,
                                                                       path: str) -> None:
    assert _refusal_with(where, value).path == path  # type: ignore[attr-defined]


@pytest.mark.parametrize(("where", "value", "path"), [
    (("objects", 0, "color"), [0.5, 0.5], "objects[0].color"),
    (("objects", 0, "half_dimentions"), [1.0, 1.0, 1.0, 1.0], "objects[0].half_dimentions"),
    (("objects", 3, "vertices"), [[0.0, 0.0]], "objects[3].vertices[0]"),
    (("objects", 1, "radius"), "big", "objects[1].radius"),
    (("objects", 2, "half_height"), [1.0], "objects[2].half_height"),
    (("objects", 0, "id"), 1.0, "objects[0].id"),
    (("objects", 0, "id"), 2**63, "objects[0].id"),
    (("objects", 0, "name"), 5, "objects[0].name"),
    (("objects", 0, "static"), 1, "objects[0].static"),
    (("frames", 0, "states", 0, "position"), [0.0, 0.0, 0.0, 0.0], "frames[0].states[0].position"),
    (("frames", 0, "states", 0, "rotation"), [0.0, 0.0, 1.0], "frames[0].states[0].rotation"),
    (("frames", 0, "states", 0, "id"), -(2**63) - 1, "frames[0].states[0].id"),
    (("frames", 0, "states", 0, "metadata"), None, "frames[0].states[0].metadata"),
    (("frames", 0, "commands", 0, "vector"), [1.0, 2.0], "frames[0].commands[0].vector"),
    (("frames", 0, "commands", 1, "end"), [1.0, 2.0, 3.0, 4.0], "frames[0].commands[1].end"),
    (("frames", 0, "commands", 1, "color"), [1.0, 2.0, 3.0, 4.0], "frames[0].commands[1].color"),
    (("frames", 0, "commands", 1, "opacity"), [1.0], "frames[0].commands[1].opacity"),
    (("frames", 0, "commands", 2, "radius"), [1.0], "frames[0].commands[2].radius"),
    (("frames", 0, "commands", 3, "half_size"), [1.0, 2.0], "frames[0].commands[3].half_size"),
    (("frames", 0, "commands", 3, "rotation"), [1.0, 2.0, 3.0], "frames[0].commands[3].rotation"),
    (("frames", 0, "commands", 3, "origin"), [1.0, 2.0], "frames[0].commands[3].origin"),
    (("frames", 0, "time"), "soon", "frames[0].time"),
])
def test_a_field_of_the_wrong_shape_is_refused_at_its_path(where: tuple[Any, ...], value: Any, path: str) -> None:
    assert _refusal_with(where, value).path.startswith(path)  # type: ignore[attr-defined]


def test_ids_take_the_int64_range() -> None:
    case = copy.deepcopy(_case())
    case["objects"][0]["id"] = 2**63 - 1
    case["frames"][0]["states"][0]["id"] = -(2**63)
    rec = from_case(case)
    assert (rec.objects[0].id, rec.frames[0].states[0].id) == (2**63 - 1, -(2**63))
    case["objects"][0]["id"] = -(2**63)
    case["frames"][0]["states"][0]["id"] = 2**63 - 1
    rec = from_case(case)
    assert (rec.objects[0].id, rec.frames[0].states[0].id) == (-(2**63), 2**63 - 1)
    for where in (("objects", 0, "id"), ("frames", 0, "states", 0, "id")):
        for past in (2**63, -(2**63) - 1):
            bad = copy.deepcopy(case)
            node: Any = bad
            for key in where[:-1]:
                node = node[key]
            node[where[-1]] = past
            with pytest.raises(CaseError):
                from_case(bad)


def test_unknown_and_missing_keys_are_refused() -> None:
    with pytest.raises(CaseError):
        from_case({**_case(), "scene": 1})
    with pytest.raises(CaseError):
        from_case({k: v for k, v in _case().items() if k != "frames"})
    with pytest.raises(CaseError):
        from_case({**_case(), "variant": "v1"})
    case = copy.deepcopy(_case())
    case["frames"][0]["commands"][0]["half_height"] = 1.0
    with pytest.raises(CaseError):
        from_case(case)


def test_non_finite_numbers_come_back_as_the_case_names_them() -> None:
    case = copy.deepcopy(_case())
    case["frames"][1]["time"] = "Infinity"
    case["objects"][1]["radius"] = {"nan": "0x7ff8000000000001"}
    case["objects"][0]["color"] = ["NaN", "-Infinity", 0.5]
    data = encode(from_case(case))
    assert b"\x7f\xf8\x00\x00\x00\x00\x00\x01"[::-1] in data  # BSON doubles are little-endian
    back = to_case(decode(data))
    assert back == case
    canonical = to_case(decode(data), canonical=True)
    assert canonical["objects"][1]["radius"] == "NaN"


def test_the_schema_takes_the_case_and_refuses_what_from_case_refuses() -> None:
    schema = case_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)  # checked once, not per document
    body = {k: v for k, v in _case().items() if k not in ("recspec_case", "format")}
    validator.validate(body)
    validator.validate({**body, "form": "compat", "numbers": {"frames[1].t": "int64"}})
    bads = []
    for where, value in ((("objects", 0, "type"), "cone"), (("objects", 0, "color"), [0.5, 0.5]),
                         (("objects", 0, "color"), [0.5, 0.5, 0.5, 0.5]), (("objects", 0, "static"), 1),
                         (("objects", 0, "id"), 1.5), (("objects", 0, "name"), 1),
                         (("objects", 0, "half_dimentions"), [1.0, 1.0]), (("objects", 1, "radius"), "big"),
                         (("objects", 2, "half_height"), "long"), (("objects", 3, "vertices"), [[0.0, 0.0]]),
                         (("objects", 0, "extra"), 1),
                         (("frames", 0, "time"), "soon"), (("frames", 0, "extra"), 1),
                         (("frames", 0, "states", 0, "presence"), "x"), (("frames", 0, "states", 0, "id"), "12"),
                         (("frames", 0, "states", 0, "metadata"), 1),
                         (("frames", 0, "states", 0, "position"), [0.0, 0.0]),
                         (("frames", 0, "states", 0, "rotation"), [0.0, 0.0, 0.0]),
                         (("frames", 0, "states", 0, "extra"), 1),
                         (("frames", 0, "commands", 0, "kind"), "x"),
                         (("frames", 0, "commands", 0, "origin"), [0.0]),
                         (("frames", 0, "commands", 0, "vector"), [0.0]),
                         (("frames", 0, "commands", 1, "end"), [0.0]),
                         (("frames", 0, "commands", 1, "color"), [0.0]),
                         (("frames", 0, "commands", 1, "opacity"), "o"),
                         (("frames", 0, "commands", 2, "radius"), "r"),
                         (("frames", 0, "commands", 3, "half_size"), [0.0]),
                         (("frames", 0, "commands", 3, "rotation"), [0.0, 0.0, 0.0]),
                         (("frames", 0, "commands", 3, "extra"), 1),
                         (("form",), "bson"), (("numbers",), {"frames[1].t": "float"}), (("variant",), "v1")):
        bad = copy.deepcopy(body)
        node: Any = bad
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = value
        bads.append(bad)
    bads += [{k: v for k, v in body.items() if k != "objects"}, {k: v for k, v in body.items() if k != "frames"}]
    for name in ("states", "commands", "time"):
        bad = copy.deepcopy(body)
        del bad["frames"][0][name]
        bads.append(bad)
    for name in ("id", "name", "type", "color", "static"):
        bad = copy.deepcopy(body)
        del bad["objects"][0][name]
        bads.append(bad)
    for name in ("id", "presence", "metadata", "position", "rotation"):
        bad = copy.deepcopy(body)
        del bad["frames"][0]["states"][0][name]
        bads.append(bad)
    for name in ("kind", "origin"):
        bad = copy.deepcopy(body)
        del bad["frames"][0]["commands"][0][name]
        bads.append(bad)
    for bad in bads:
        assert not validator.is_valid(bad), bad


def test_an_id_past_int32_stored_as_int64_is_the_forms_own_type() -> None:
    """The encoder writes an integer outside int32's range as an int64 (BSON has no wider integer), so a file
    that differs from the canonical one elsewhere (a whole time stored as an int32) names only that time in
    ``numbers``, not the id 2^40 that it stores as the form does."""
    doc = _spec_document()
    doc["frames"][1]["t"] = 2
    case = to_case(decode(bson.encode(doc)))
    assert case["numbers"] == {"frames[1].t": "int32"}
