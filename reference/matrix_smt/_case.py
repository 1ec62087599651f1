"""The Matrix-SMT case: a recording in a writer's terms (``recspec_case`` 2).

::

    {"recspec_case": 2, "format": "matrix-smt", "variant": null,
     "objects": [{"id": 0, "name": "floor", "type": "box", "color": [0.5, 0.5, 0.5], "static": true,
                  "half_dimentions": [10.0, 0.1, 10.0]},
                 {"id": 12, "name": "ball", "type": "sphere", "color": [1.0, 0.0, 0.0], "static": false,
                  "radius": 0.5}],
     "frames": [{"time": 0.0166,
                 "states": [{"id": 12, "presence": "i", "metadata": "", "position": [0.0, 2.0, 0.0],
                             "rotation": [0.0, 0.0, 0.0, 1.0]}],
                 "commands": [{"kind": "r", "origin": [0.0, 0.0, 0.0], "end": [0.0, 1.0, 0.0]}]}]}

Field names are the typed model's (``recspec.reference.matrix_smt``), not the
BSON keys: an object's ``type`` is its geometry (``box``, ``sphere``,
``capsule``, ``convex``) with the fields that geometry needs
(``half_dimentions``, the document's spelling; ``radius``; ``half_height``;
``vertices``); a state's ``presence`` is ``"i"`` (instantiated) or ``"d"``
(destroyed); a debug command's ``kind`` is ``v``, ``r``, ``s`` or ``c`` with
its fields (``vector``, ``end`` an absolute point, ``radius``, ``half_size``
and ``rotation``), ``color`` and ``opacity`` optional. Quaternions are ``[x, y,
z, w]``. Every number is a float (ids are integers); how it is stored (double,
or int32 for whole numbers under ``compat``) is the profile's business, not
the case's, so ``-0.0`` is a value of its own. There is no variant.

The lossless case adds ``"form": "compat"`` when the file is exactly the
producer's form (sorted keys, ``time``, ``destroyed``, whole numbers as int32:
the encoder's ``compat`` profile), as Scene1.bson is; left out, the form is the
document's (``spec``), or the one the encoder is asked for. ``numbers`` names
each number stored as another BSON type than the form's, by its BSON path:
``{"frames[3].t": "int32"}`` for a whole number a spec writer stored as an
int32 (``double``, ``int32``, ``int64``). A NaN with a sign or payload is
``{"nan": "0x..."}``. The canonical case (``canonical=True``) has none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from recspec._case_json import (
    CaseError,
    check_envelope,
    envelope,
    expect_bool,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    float_in,
    float_out,
    float_schema,
)

from ._codec import NUMBER_TYPES, PROFILES
from ._model import CommandKind, DebugCommand, Frame, Geometry, Presence, Recording, SceneObject, State

__all__ = ["CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "case_schema", "from_case", "to_case"]

CASE_TOLERANCES = {
    "float32": "a number may come back as the nearest float32 widened to a double, as in the producer's files",
}
#: The tolerances that are not about float widths: none here.
CASE_TOLERANCE_CHECKS: dict[str, Any] = {}

_OBJECT_OPTIONAL = ("half_dimentions", "radius", "half_height", "vertices")
_COMMAND_OPTIONAL = ("vector", "end", "radius", "half_size", "rotation", "color", "opacity")


def _num_out(x: Any, canonical: bool) -> Any:
    if x is None:
        return None
    if isinstance(x, (tuple, list)):
        return [_num_out(v, canonical) for v in x]
    return float_out(float(x), canonical)


def _vec_in(v: Any, path: str, n: int) -> tuple[float, ...]:
    return tuple(float_in(x, f"{path}[{i}]") for i, x in enumerate(expect_list(v, path, n)))


def _optional(obj: Any, names: tuple[str, ...], canonical: bool) -> dict[str, Any]:
    return {n: _num_out(getattr(obj, n), canonical) for n in names if getattr(obj, n) is not None}


def to_case(model: Recording, *, variant: str | None = None, canonical: bool = False) -> dict[str, Any]:
    """The case of a decoded recording: lossless (with its ``form`` and NaN bits), or with ``canonical``
    the content alone."""
    c = canonical
    objects = [{"id": o.id, "name": o.name, "type": Geometry(o.geometry).value, "color": _num_out(o.color, c),
                "static": bool(o.static), **_optional(o, _OBJECT_OPTIONAL, c)} for o in model.objects]
    frames = [{"time": float_out(float(f.time), c),
               "states": [{"id": s.id, "presence": s.presence.value, "metadata": s.metadata,
                           "position": _num_out(s.position, c), "rotation": _num_out(s.rotation, c)}
                          for s in f.states],
               "commands": [{"kind": CommandKind(cmd.kind).value, "origin": _num_out(cmd.origin, c),
                             **_optional(cmd, _COMMAND_OPTIONAL, c)} for cmd in f.commands]}
              for f in model.frames]
    details: dict[str, Any] = {}
    if not canonical and model.form not in (None, "spec"):
        details["form"] = model.form
    if not canonical and model.numbers:
        details["numbers"] = dict(model.numbers)
    return {**envelope("matrix-smt", None), **details, "objects": objects, "frames": frames}


def _object_in(v: Any, path: str) -> SceneObject:
    o = expect_object(v, path, ("id", "name", "type", "color", "static"), _OBJECT_OPTIONAL)
    try:
        geometry = Geometry(o["type"])
    except ValueError:
        raise CaseError(f"type is one of {', '.join(g.value for g in Geometry)}", f"{path}.type") from None
    return SceneObject(
        expect_int(o["id"], f"{path}.id", -(2**63), 2**63 - 1), expect_str(o["name"], f"{path}.name"), geometry,
        _vec_in(o["color"], f"{path}.color", 3), expect_bool(o["static"], f"{path}.static"),  # type: ignore[arg-type]
        half_dimentions=_vec_in(o["half_dimentions"], f"{path}.half_dimentions", 3) if "half_dimentions" in o else None,  # type: ignore[arg-type]
        radius=float_in(o["radius"], f"{path}.radius") if "radius" in o else None,
        half_height=float_in(o["half_height"], f"{path}.half_height") if "half_height" in o else None,
        vertices=tuple(_vec_in(x, f"{path}.vertices[{i}]", 3) for i, x in  # type: ignore[misc]
                       enumerate(expect_list(o["vertices"], f"{path}.vertices"))) if "vertices" in o else None)


def _state_in(v: Any, path: str) -> State:
    s = expect_object(v, path, ("id", "presence", "metadata", "position", "rotation"))
    try:
        presence = Presence(s["presence"])
    except ValueError:
        raise CaseError("presence is \"i\" (instantiated) or \"d\" (destroyed)", f"{path}.presence") from None
    return State(expect_int(s["id"], f"{path}.id", -(2**63), 2**63 - 1), presence,
                 expect_str(s["metadata"], f"{path}.metadata"),
                 _vec_in(s["position"], f"{path}.position", 3), _vec_in(s["rotation"], f"{path}.rotation", 4))  # type: ignore[arg-type]


def _command_in(v: Any, path: str) -> DebugCommand:
    c = expect_object(v, path, ("kind", "origin"), _COMMAND_OPTIONAL)
    try:
        kind = CommandKind(c["kind"])
    except ValueError:
        raise CaseError(f"kind is one of {', '.join(k.value for k in CommandKind)}", f"{path}.kind") from None
    sizes = {"vector": 3, "end": 3, "half_size": 3, "rotation": 4, "color": 3}
    extra: dict[str, Any] = {}
    for name in _COMMAND_OPTIONAL:
        if name in c:
            extra[name] = (_vec_in(c[name], f"{path}.{name}", sizes[name]) if name in sizes
                           else float_in(c[name], f"{path}.{name}"))
    return DebugCommand(kind, _vec_in(c["origin"], f"{path}.origin", 3), **extra)  # type: ignore[arg-type]


def from_case(case: Mapping[str, Any]) -> Recording:
    """The recording a case describes (encode it with ``encode(model, profile=...)``)."""
    check_envelope(case, "matrix-smt", ())
    expect_object(case, "", ("recspec_case", "format", "variant", "objects", "frames"), ("form", "numbers"))
    numbers = None
    if "numbers" in case:
        numbers = tuple((path, expect_str(t, f"numbers.{path}"))
                        for path, t in expect_object(case["numbers"], "numbers").items())
        for path, t in numbers:
            if t not in NUMBER_TYPES:
                raise CaseError(f"a number's type is one of {', '.join(NUMBER_TYPES)}, not {t!r}", f"numbers.{path}")
    form = case.get("form", "spec")
    if form not in PROFILES:
        raise CaseError(f"form is one of {', '.join(PROFILES)}, not {form!r}", "form")
    objects = tuple(_object_in(o, f"objects[{i}]") for i, o in enumerate(expect_list(case["objects"], "objects")))
    frames = []
    for i, f in enumerate(expect_list(case["frames"], "frames")):
        path = f"frames[{i}]"
        fr = expect_object(f, path, ("time", "states", "commands"))
        frames.append(Frame(float_in(fr["time"], f"{path}.time"),
                            tuple(_state_in(s, f"{path}.states[{j}]")
                                  for j, s in enumerate(expect_list(fr["states"], f"{path}.states"))),
                            tuple(_command_in(c, f"{path}.commands[{j}]")
                                  for j, c in enumerate(expect_list(fr["commands"], f"{path}.commands")))))
    return Recording(objects, tuple(frames), None if form == "spec" else form, numbers or None)


def case_schema() -> dict[str, Any]:
    """The JSON Schema of a Matrix-SMT case (its clause of ``recspec/schemas/case-2.schema.json``)."""
    num = float_schema()

    def vec(n: int) -> dict[str, Any]:
        return {"type": "array", "items": num, "minItems": n, "maxItems": n}

    obj = {"type": "object", "additionalProperties": False, "required": ["id", "name", "type", "color", "static"],
           "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                          "type": {"enum": [g.value for g in Geometry]}, "color": vec(3), "static": {"type": "boolean"},
                          "half_dimentions": vec(3), "radius": num, "half_height": num,
                          "vertices": {"type": "array", "items": vec(3)}}}
    state = {"type": "object", "additionalProperties": False,
             "required": ["id", "presence", "metadata", "position", "rotation"],
             "properties": {"id": {"type": "integer"}, "presence": {"enum": ["i", "d"]}, "metadata": {"type": "string"},
                            "position": vec(3), "rotation": vec(4)}}
    command = {"type": "object", "additionalProperties": False, "required": ["kind", "origin"],
               "properties": {"kind": {"enum": [k.value for k in CommandKind]}, "origin": vec(3), "vector": vec(3),
                              "end": vec(3), "radius": num, "half_size": vec(3), "rotation": vec(4), "color": vec(3),
                              "opacity": num}}
    frame = {"type": "object", "additionalProperties": False, "required": ["time", "states", "commands"],
             "properties": {"time": num, "states": {"type": "array", "items": state},
                            "commands": {"type": "array", "items": command}}}
    form = {"enum": list(PROFILES), "description": "how the file is written: compat, the producer's form (sorted "
                                                 "keys, time, destroyed, whole numbers as int32); left out: spec"}
    numbers = {"type": "object", "additionalProperties": {"enum": list(NUMBER_TYPES)},
               "description": "numbers stored as another BSON type than the form's, by BSON path (frames[3].t, "
                              "objects[0].color[1]): double, int32 or int64"}
    return {"type": "object", "required": ["objects", "frames"],
            "properties": {"variant": {"type": "null"}, "form": form, "numbers": numbers,
                           "objects": {"type": "array", "items": obj},
                           "frames": {"type": "array", "items": frame}}}
