"""The typed-recording codec (reference/matrix_smt/_codec.py): every refusal it makes, on documents
written by pymongo's own ``bson`` package. A recording document holds ``objects`` and ``frames``
arrays (docs/formats/matrix-smt.md); an object needs an integer ``id``, a string ``name``, a ``type``
of box, sphere, capsule or convex and a ``color`` of three numbers; a state an integer ``id``, an
instance flag ``i``, a string ``m``, ``p`` of three numbers and ``r`` of four; a command a ``t`` of
v, r, s or c. What does not map raises ModelError (rule MATRIX-MODEL) naming the BSON path of the
unit at fault; the writer refuses what it cannot write with EncodeError. Written against the
survivors tools/mutate.py found in the module."""

from __future__ import annotations

from typing import Any

import bson
import pytest

from recspec.errors import EncodeError
from recspec.reference.matrix_smt import _codec
from recspec.reference.matrix_smt._model import (
    CommandKind,
    DebugCommand,
    Frame,
    Geometry,
    Presence,
    Recording,
    SceneObject,
    State,
)

BOX = {"id": 1, "name": "box", "color": [1.0, 0.0, 0.0], "static": False, "type": "box",
       "half_dimentions": [0.5, 0.5, 0.5]}
STATE = {"id": 1, "i": "i", "m": "", "p": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0]}


def _frame(**changes: Any) -> dict[str, Any]:
    frame: dict[str, Any] = {"states": [dict(STATE)], "cmd": [], "t": 0.0}
    frame.update(changes)
    return frame


def _document(objects: Any = None, frames: Any = None) -> bytes:
    doc = {"objects": [dict(BOX)] if objects is None else objects, "frames": [_frame()] if frames is None else frames}
    return bson.encode(doc)


def _decode(objects: Any = None, frames: Any = None) -> Recording:
    return _codec.decode(_document(objects, frames))


def _refused(path: str, objects: Any = None, frames: Any = None) -> _codec.ModelError:
    data = _document(objects, frames)
    with pytest.raises(_codec.ModelError) as e:
        _codec.decode(data)
    assert e.value.rule == "MATRIX-MODEL"
    assert e.value.path == path
    # a located error points into the file, at the top-level document (0) or at an element after its
    # int32 length (bytes 0 to 3), where no unit starts
    assert e.value.offset == 0 or 4 <= e.value.offset < len(data)
    return e.value


def test_the_valid_document_decodes() -> None:
    rec = _decode()
    assert rec.objects == (SceneObject(1, "box", Geometry.BOX, (1.0, 0.0, 0.0), False, (0.5, 0.5, 0.5)),)
    assert rec.frames == (Frame(0.0, (State(1, Presence.INSTANTIATED, "", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),)),)


# --- objects ---------------------------------------------------------------------------------


def test_an_object_that_is_not_a_document() -> None:
    _refused("objects[0]", objects=[5])


def test_an_object_without_an_id() -> None:
    obj = dict(BOX)
    del obj["id"]
    assert "'id'" in _refused("objects[0]", objects=[obj]).message


def test_an_object_id_that_is_a_double() -> None:
    _refused("objects[0]", objects=[dict(BOX, id=1.5)])


def test_an_object_name_that_is_not_a_string() -> None:
    _refused("objects[0]", objects=[dict(BOX, name=5)])


def test_an_object_type_outside_the_four_geometries() -> None:
    _refused("objects[0]", objects=[dict(BOX, type="cone")])


def test_a_color_component_that_is_not_a_number() -> None:
    _refused("objects[0].color[0]", objects=[dict(BOX, color=["red", 0.0, 0.0])])


def test_a_color_of_two_numbers() -> None:
    _refused("objects[0].color", objects=[dict(BOX, color=[1.0, 0.0])])


def test_vertices_that_are_not_an_array() -> None:
    _refused("objects[0]", objects=[dict(BOX, type="convex", vertices=5)])


# --- frames, states, commands ------------------------------------------------------------------


def test_objects_or_frames_that_are_not_arrays() -> None:
    _refused("", objects=5)
    _refused("", frames={"0": _frame()})


def test_a_frame_that_is_not_a_document() -> None:
    _refused("frames[0]", frames=[5])


def test_a_frame_without_a_time() -> None:
    frame = _frame()
    del frame["t"]
    _refused("frames[0]", frames=[frame])


def test_a_frame_whose_states_are_not_an_array() -> None:
    _refused("frames[0]", frames=[_frame(states=5)])
    frame = _frame()
    del frame["states"]
    _refused("frames[0]", frames=[frame])


def test_a_cmd_that_is_neither_an_array_nor_empty() -> None:
    _refused("frames[0]", frames=[_frame(cmd=5)])
    # the variants the research notes list: missing, "" or null mean no command
    for cmd in ("", None):
        assert _decode(frames=[_frame(cmd=cmd)]).frames[0].commands == ()


def test_a_state_id_that_is_a_double() -> None:
    _refused("frames[0].states[0]", frames=[_frame(states=[dict(STATE, id=1.5)])])


def test_a_state_with_an_unknown_instance_flag() -> None:
    _refused("frames[0].states[0]", frames=[_frame(states=[dict(STATE, i="x")])])
    _refused("frames[0].states[0]", frames=[_frame(states=[dict(STATE, i=1)])])


def test_a_state_whose_metadata_is_not_a_string() -> None:
    _refused("frames[0].states[0]", frames=[_frame(states=[dict(STATE, m=5)])])


def test_a_command_of_an_unknown_kind() -> None:
    _refused("frames[0].cmd[0]", frames=[_frame(cmd=[{"t": "q", "ox": 0.0, "oy": 0.0, "oz": 0.0}])])


# --- writing -----------------------------------------------------------------------------------


def test_a_profile_that_is_neither_spec_nor_compat() -> None:
    with pytest.raises(EncodeError):
        _codec.to_document(Recording(), "bogus")
    with pytest.raises(EncodeError):
        _codec.encode(Recording(), "bogus")


def test_a_vector_command_without_its_vector() -> None:
    rec = Recording((), (Frame(0.0, (), (DebugCommand(CommandKind.VECTOR, (0.0, 0.0, 0.0)),)),))
    with pytest.raises(EncodeError, match="vector"):
        _codec.encode(rec)


def test_a_number_type_for_a_string() -> None:
    obj = SceneObject(1, "box", Geometry.BOX, (1.0, 0.0, 0.0), False, (0.5, 0.5, 0.5))
    with pytest.raises(EncodeError):
        _codec.encode(Recording((obj,), (), numbers=(("objects[0].name", "int32"),)))


def test_a_fraction_or_minus_zero_stored_as_an_integer() -> None:
    obj = SceneObject(1, "box", Geometry.BOX, (1.5, -0.0, 2.0), False, (0.5, 0.5, 0.5))
    for path, name in (("objects[0].color[0]", "int32"), ("objects[0].color[1]", "int64"),
                       ("objects[0].color[0]", "int64")):
        with pytest.raises(EncodeError):
            _codec.encode(Recording((obj,), (), numbers=((path, name),)))
    # 2.0 is whole: stored as an int32, pymongo reads back the integer 2
    data = _codec.encode(Recording((obj,), (), numbers=(("objects[0].color[2]", "int32"),)))
    assert bson.decode(data)["objects"][0]["color"] == [1.5, -0.0, 2]
    assert type(bson.decode(data)["objects"][0]["color"][2]) is int


# --- the document's command keys and the compat profile's numbers --------------------------------


def _commands_written(*commands: DebugCommand, profile: str = "spec") -> list[dict[str, Any]]:
    rec = Recording((), (Frame(0.0, (), commands),))
    return bson.decode(_codec.encode(rec, profile))["frames"][0]["cmd"]


def test_each_command_kind_writes_its_keys_from_its_fields() -> None:
    # docs/formats/matrix-smt.md, cmd: vx vy vz a vector, ex ey ez a ray's end, sr a sphere's radius,
    # rx ry rz rw a cube's rotation and sx sy sz its half sizes; ox oy oz the origin of each
    written = _commands_written(
        DebugCommand(CommandKind.VECTOR, (1.0, 2.0, 3.0), vector=(4.0, 5.0, 6.0)),
        DebugCommand(CommandKind.RAY, (1.0, 2.0, 3.0), end=(7.0, 8.0, 9.0)),
        DebugCommand(CommandKind.SPHERE, (1.0, 2.0, 3.0), radius=0.25),
        DebugCommand(CommandKind.CUBE, (1.0, 2.0, 3.0), half_size=(0.1, 0.2, 0.3), rotation=(0.5, 0.6, 0.7, 0.8)))
    origin = {"ox": 1.0, "oy": 2.0, "oz": 3.0}
    assert written == [
        {"t": "v", **origin, "vx": 4.0, "vy": 5.0, "vz": 6.0},
        {"t": "r", **origin, "ex": 7.0, "ey": 8.0, "ez": 9.0},
        {"t": "s", **origin, "sr": 0.25},
        {"t": "c", **origin, "rx": 0.5, "ry": 0.6, "rz": 0.7, "rw": 0.8, "sx": 0.1, "sy": 0.2, "sz": 0.3},
    ]


def test_each_command_kind_reads_its_keys_into_its_fields() -> None:
    cube = {"t": "c", "ox": 1.0, "oy": 2.0, "oz": 3.0, "rx": 0.5, "ry": 0.6, "rz": 0.7, "rw": 0.8,
            "sx": 0.1, "sy": 0.2, "sz": 0.3}
    ray = {"t": "r", "ox": 0.0, "oy": 0.0, "oz": 0.0, "ex": 7.0, "ey": 8.0, "ez": 9.0}
    vector = {"t": "v", "ox": 0.0, "oy": 0.0, "oz": 0.0, "vx": 4.0, "vy": 5.0, "vz": 6.0}
    commands = _decode(frames=[_frame(cmd=[cube, ray, vector])]).frames[0].commands
    assert commands[0].half_size == (0.1, 0.2, 0.3) and commands[0].rotation == (0.5, 0.6, 0.7, 0.8)
    assert commands[1].end == (7.0, 8.0, 9.0)
    assert commands[2].vector == (4.0, 5.0, 6.0)


def test_compat_keeps_minus_zero_a_double_and_writes_whole_numbers_as_int32() -> None:
    obj = SceneObject(1, "box", Geometry.BOX, (-0.0, -1.0, 0.5), False, (2.0, -2147483648.0, 2147483648.0))
    data = _codec.encode(Recording((obj,), ()), "compat")
    stored = bson.decode(data)["objects"][0]
    assert [type(x) for x in stored["color"]] == [float, int, float]
    assert str(stored["color"][0]) == "-0.0"
    # int32 holds -2^31 .. 2^31 - 1
    assert stored["half_dimentions"] == [2, -2147483648, 2147483648.0]
    assert [type(x) for x in stored["half_dimentions"]] == [int, int, float]


def test_number_types_names_the_numbers_stored_as_another_type() -> None:
    rec = Recording((SceneObject(1, "box", Geometry.BOX, (1.0, 0.0, 0.0), False, (0.5, 0.5, 0.5)),),
                    (Frame(3.0, (State(1, Presence.INSTANTIATED, "", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),)),))
    canonical = _codec.to_document(rec, "spec")
    doc = bson.decode(_codec.encode(rec, "spec"))
    assert _codec.number_types(_codec.decode_document(bson.encode(doc)), canonical) == []
    doc["frames"][0]["t"] = 3  # an int32, as pymongo writes a Python int
    doc["objects"][0]["color"][0] = bson.Int64(1)
    stored = _codec.decode_document(bson.encode(doc))
    assert _codec.number_types(stored, canonical) == [("objects[0].color[0]", "int64"), ("frames[0].t", "int32")]
    # another value, another key, another kind of value: not the same recording
    for change in (lambda d: d["frames"][0].update(t=4), lambda d: d["frames"][0].update(t=3.5),
                   lambda d: d["objects"][0].update(name="ball"),
                   lambda d: d["objects"][0]["color"].__setitem__(1, "0"),
                   lambda d: d["frames"][0].update(extra=1)):
        changed = bson.decode(_codec.encode(rec, "spec"))
        change(changed)
        assert _codec.number_types(_codec.decode_document(bson.encode(changed)), canonical) is None


def test_whole_negative_numbers_stored_as_integers() -> None:
    obj = SceneObject(1, "box", Geometry.BOX, (-1.0, 0.0, 0.0), False, (0.5, 0.5, 0.5))
    for name, kind in (("int32", int), ("int64", bson.Int64)):
        data = _codec.encode(Recording((obj,), (), numbers=(("objects[0].color[0]", name),)))
        value = bson.decode(data)["objects"][0]["color"][0]
        assert value == -1 and type(value) is kind


def test_a_command_number_that_is_not_a_number() -> None:
    for key in ("vx", "ox", "r", "o"):
        command = {"t": "v", "ox": 0.0, "oy": 0.0, "oz": 0.0, "vx": 0.0, "vy": 1.0, "vz": 0.0, "r": 1.0, "g": 1.0,
                   "b": 1.0, "o": 1.0}
        command[key] = "x"
        _refused(f"frames[0].cmd[0].{key}", frames=[_frame(cmd=[command])])


def test_a_frame_that_is_an_array_is_not_a_document() -> None:
    e = _refused("frames[0]", frames=[[1.0, 2.0]])
    assert "not a document" in e.message
