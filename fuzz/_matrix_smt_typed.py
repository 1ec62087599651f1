"""The Matrix-SMT ``ref`` harness's reading of the typed recording: the reference codec's ``from_document``
(the BSON document to ``SceneObject``, ``Frame``, ``State``, ``DebugCommand``) against pymongo's reading of
the same bytes, mapped field by field with the layout of docs/formats/matrix-smt.md by this module's own lines.

The model view (``_matrix_smt_facts.model_view``) holds the reference BSON decoder to pymongo; the second
opinion judges the rules on that document. Neither reads the typed recording, which every user of the
reference codec gets (``recspec.reference.matrix_smt.decode``): a typed reader that takes the wrong key, a
wrong default, a wrong flag or a component out of order is seen here only. What the document's layout says:

* an object: ``id`` (an integer), ``name``, ``type`` (the geometry), ``color`` (3 numbers), ``static``
  (false when missing), and by its type ``half_dimentions`` (3), ``radius``, ``half_height``, ``vertices``
  (points of 3): each None where the key is missing;
* a frame: its time under ``t``, else ``time`` (``t`` wins); ``states``; ``cmd`` an array, or missing, empty
  string or null for no command;
* a state: ``id``, the flag ``i`` (``"i"``/``"instantiated"`` instantiated, ``"d"``/``"destroyed"``
  destroyed), ``m``, ``p`` (x, y, z), ``r`` (x, y, z, w);
* a command: ``t`` (v, r, s, c), the origin ``ox oy oz`` and its kind's fields, each missing one the viewer's
  default (origin 0, vector (0, 1, 0), ray end (0, 1, 0), radius and sizes 0, quaternion (0, 0, 0, 1)); the
  colour ``r g b`` where all three are given, the opacity ``o`` where given (else none).

Numbers are compared as the model holds them (floats, by ``repr``: a NaN equals itself, ``-0.0`` is not
``0.0``); ids as integers. :func:`typed_view` names the first difference by the field without indices
(``frames[].states[].rotation``), one crash signature per field.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

__all__ = ["typed_view"]

#: The instance flags of both profiles, by the model's value (``Presence``: ``"i"``, ``"d"``).
_FLAGS = {"i": "i", "instantiated": "i", "d": "d", "destroyed": "d"}
#: A command's fields by kind: (model field, the document's keys; one key: a number, else a vector).
_KIND_FIELDS = {"v": (("vector", ("vx", "vy", "vz")),), "r": (("end", ("ex", "ey", "ez")),),
                "s": (("radius", ("sr",)),),
                "c": (("half_size", ("sx", "sy", "sz")), ("rotation", ("rx", "ry", "rz", "rw")))}
#: The viewer's default for a missing command field (the document: "When a field is missing").
_DEFAULTS = {"ox": 0.0, "oy": 0.0, "oz": 0.0, "vx": 0.0, "vy": 1.0, "vz": 0.0, "ex": 0.0, "ey": 1.0, "ez": 0.0,
             "sr": 0.0, "sx": 0.0, "sy": 0.0, "sz": 0.0, "rx": 0.0, "ry": 0.0, "rz": 0.0, "rw": 1.0}
_COMMAND_FIELDS = ("origin", "vector", "end", "radius", "half_size", "rotation", "color", "opacity")


def typed_view(rec: Any, other: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]] | None:
    """The first field where the typed recording ``rec`` and pymongo's document ``other`` (of the same bytes)
    differ, as ``check_model_view``'s pair (the typed value, the document's), or ``None``."""
    for at, mine, theirs in _pairs(rec, other):
        if repr(mine) != repr(theirs):
            name = _field(at)
            return {name: f"{mine!r} (at {at})"[:200]}, {name: f"{theirs!r} (at {at})"[:200]}
    return None


def _field(at: str) -> str:
    """A path without its indices: ``frames[3].states[0].p`` -> ``frames[].states[].p``."""
    out, depth = [], 0
    for c in at:
        if c == "[":
            depth += 1
            out.append("[]")
        elif c == "]":
            depth -= 1
        elif not depth:
            out.append(c)
    return "".join(out)


def _pairs(rec: Any, doc: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    """(path, the typed value, the document's) for every field of the layout, in order."""
    objects, frames = doc["objects"], doc["frames"]
    yield "objects", len(rec.objects), len(objects)
    yield "frames", len(rec.frames), len(frames)
    for i, (o, d) in enumerate(zip(rec.objects, objects, strict=False)):
        yield from _object(f"objects[{i}]", o, d)
    for i, (fr, d) in enumerate(zip(rec.frames, frames, strict=False)):
        at = f"frames[{i}]"
        yield f"{at}.time", fr.time, _number(d["t"] if "t" in d else d["time"])
        states = d["states"]
        yield f"{at}.states", len(fr.states), len(states)
        for j, (s, sd) in enumerate(zip(fr.states, states, strict=False)):
            yield from _state(f"{at}.states[{j}]", s, sd)
        cmd = d.get("cmd")
        commands = [] if cmd is None or cmd == "" else cmd
        yield f"{at}.cmd", len(fr.commands), len(commands)
        for j, (c, cd) in enumerate(zip(fr.commands, commands, strict=False)):
            yield from _command(f"{at}.cmd[{j}]", c, cd)


def _number(x: Any) -> float:
    return float(x)


def _numbers(xs: Sequence[Any]) -> tuple[float, ...]:
    return tuple(float(x) for x in xs)


def _object(at: str, o: Any, d: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    yield f"{at}.id", o.id, int(d["id"])
    yield f"{at}.name", o.name, d["name"]
    yield f"{at}.type", o.geometry.value, d["type"]
    yield f"{at}.color", o.color, _numbers(d["color"])
    static = d.get("static", False)
    # a value of another type (BSON undefined, a number) is MATRIX-OBJ-006's finding; its typed reading is not
    # documented (the reference model's undefined is truthy, pymongo's None is not), so only booleans are compared
    if type(static) is bool:
        yield f"{at}.static", o.static, static
    yield f"{at}.half_dimentions", o.half_dimentions, _numbers(d["half_dimentions"]) if "half_dimentions" in d \
        else None
    yield f"{at}.radius", o.radius, _number(d["radius"]) if "radius" in d else None
    yield f"{at}.half_height", o.half_height, _number(d["half_height"]) if "half_height" in d else None
    yield f"{at}.vertices", o.vertices, tuple(_numbers(v) for v in d["vertices"]) if "vertices" in d else None


def _state(at: str, s: Any, d: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    yield f"{at}.id", s.id, int(d["id"])
    yield f"{at}.i", s.presence.value, _FLAGS.get(d["i"], d["i"])
    yield f"{at}.m", s.metadata, d["m"]
    yield f"{at}.p", s.position, _numbers(d["p"])
    yield f"{at}.r", s.rotation, _numbers(d["r"])


def _command(at: str, c: Any, d: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    kind = d["t"]
    yield f"{at}.t", c.kind.value, kind
    read: dict[str, Any] = dict.fromkeys(_COMMAND_FIELDS)
    read["origin"] = tuple(_number(d[k]) if k in d else _DEFAULTS[k] for k in ("ox", "oy", "oz"))
    for field, keys in _KIND_FIELDS.get(kind, ()):
        values = tuple(_number(d[k]) if k in d else _DEFAULTS[k] for k in keys)
        read[field] = values[0] if len(keys) == 1 else values
    if all(k in d for k in ("r", "g", "b")):
        read["color"] = _numbers([d["r"], d["g"], d["b"]])
    if "o" in d:
        read["opacity"] = _number(d["o"])
    for field in _COMMAND_FIELDS:
        yield f"{at}.{field}", getattr(c, field), read[field]
