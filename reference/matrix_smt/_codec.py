"""The typed recording <-> BSON, under the two profiles.

``spec`` writes the document (``spec/matrix_smt_record.ru.md``): ``objects``
then ``frames``; keys in the document's order; the frame time as ``t``; the
instance flag ``"i"``/``"d"``; ``cmd`` always an array; every number a double
except ids (int32).

``compat`` writes what the producer's one public file does (research notes
B.3): keys sorted bytewise (``frames`` before ``objects``; ``cmd, states,
time``; ``color, ..., type``), except a state's, which keep the file's
``id, i, m, p, r`` (a sorted map would put ``i`` first); the
time as ``time``; ``"destroyed"`` for a removed object; ``cmd`` the empty
string when a frame has no command; every whole number that fits as int32
(except -0.0, kept a double so the sign survives), other numbers as doubles.

The reader (:func:`from_document`) accepts both, and each of the variants the
notes list: ``t`` or ``time`` (``t`` wins), ``"i"``/``"instantiated"`` and
``"d"``/``"destroyed"``, a missing, ``""`` or null ``cmd``, any of int32, int64
and double for a number. What it cannot map raises :class:`ModelError`
(located); judging a file is the checker's job, not this module's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

from recspec.errors import DecodeError, EncodeError

from ._bson import Array, Document, Int64, decode_document, encode_document
from ._model import (
    CommandKind,
    DebugCommand,
    Frame,
    Geometry,
    Presence,
    Recording,
    SceneObject,
    State,
)

__all__ = ["PROFILES", "ModelError", "decode", "encode", "frame_document", "from_document", "object_document",
           "to_document"]

PROFILES = ("spec", "compat")

#: Command fields per kind, in the document's order: (key, model field, component index or None).
_CMD_FIELDS: dict[CommandKind, tuple[tuple[str, str, int | None], ...]] = {
    CommandKind.VECTOR: (("vx", "vector", 0), ("vy", "vector", 1), ("vz", "vector", 2)),
    CommandKind.RAY: (("ex", "end", 0), ("ey", "end", 1), ("ez", "end", 2)),
    CommandKind.SPHERE: (("sr", "radius", None),),
    CommandKind.CUBE: (("rx", "rotation", 0), ("ry", "rotation", 1), ("rz", "rotation", 2), ("rw", "rotation", 3),
                       ("sx", "half_size", 0), ("sy", "half_size", 1), ("sz", "half_size", 2)),
}
#: The viewer's defaults for command keys it finds missing (research notes B.4).
CMD_DEFAULTS = {"ox": 0.0, "oy": 0.0, "oz": 0.0, "vx": 0.0, "vy": 1.0, "vz": 0.0, "ex": 0.0, "ey": 1.0, "ez": 0.0,
                "sr": 0.0, "sx": 0.0, "sy": 0.0, "sz": 0.0, "rx": 0.0, "ry": 0.0, "rz": 0.0, "rw": 1.0, "o": 1.0}


class ModelError(DecodeError):
    """Well-formed BSON that does not map onto the typed recording."""

    rule = "MATRIX-MODEL"


# --- writing -----------------------------------------------------------------------------


def _num(x: float, profile: str) -> Any:
    x = float(x)
    if (profile == "compat" and x.is_integer() and -(1 << 31) <= x < (1 << 31)
            and not (x == 0 and math.copysign(1.0, x) < 0)):
        return int(x)
    return x


def _vec(values: Any, profile: str) -> Array:
    return Array.of_values([_num(v, profile) for v in values])


def _doc(pairs: list[tuple[str, Any]], profile: str, sort: bool = True) -> Document:
    if profile == "compat" and sort:
        pairs = sorted(pairs, key=lambda kv: kv[0].encode("utf-8"))
    return Document([k for k, _ in pairs], [v for _, v in pairs])


def _object(o: SceneObject, profile: str) -> Document:
    pairs: list[tuple[str, Any]] = [("id", int(o.id)), ("name", o.name), ("color", _vec(o.color, profile)),
                                    ("static", bool(o.static)), ("type", Geometry(o.geometry).value)]
    if o.half_dimentions is not None:
        pairs.append(("half_dimentions", _vec(o.half_dimentions, profile)))
    if o.radius is not None:
        pairs.append(("radius", _num(o.radius, profile)))
    if o.half_height is not None:
        pairs.append(("half_height", _num(o.half_height, profile)))
    if o.vertices is not None:
        pairs.append(("vertices", Array.of_values([_vec(v, profile) for v in o.vertices])))
    return _doc(pairs, profile)


def _state(s: State, profile: str) -> Document:
    flag = "destroyed" if profile == "compat" and s.presence is Presence.DESTROYED else s.presence.value
    return _doc([("id", int(s.id)), ("i", flag), ("m", s.metadata), ("p", _vec(s.position, profile)),
                 ("r", _vec(s.rotation, profile))], profile, sort=False)


def _command(c: DebugCommand, profile: str) -> Document:
    kind = CommandKind(c.kind)
    pairs: list[tuple[str, Any]] = [("t", kind.value)]
    pairs += [(k, _num(x, profile)) for k, x in zip(("ox", "oy", "oz"), c.origin)]
    for key, field, index in _CMD_FIELDS[kind]:
        value = getattr(c, field)
        if value is None:
            raise EncodeError(f"a {kind.name.lower()} command needs {field}")
        pairs.append((key, _num(value if index is None else value[index], profile)))
    if c.color is not None:
        pairs += [(k, _num(x, profile)) for k, x in zip(("r", "g", "b"), c.color)]
    if c.opacity is not None:
        pairs.append(("o", _num(c.opacity, profile)))
    return _doc(pairs, profile)


def _frame(fr: Frame, profile: str) -> Document:
    if profile == "compat" and not fr.commands:
        cmd: Any = ""
    else:
        cmd = Array.of_values([_command(c, profile) for c in fr.commands])
    states = Array.of_values([_state(s, profile) for s in fr.states])
    return _doc([("states", states), ("cmd", cmd), ("time" if profile == "compat" else "t", _num(fr.time, profile))],
                profile)


def frame_document(fr: Frame, profile: str = "spec") -> Document:
    """One frame's document as ``profile`` writes it (for writers that stream frames)."""
    return _frame(fr, profile)


def object_document(o: SceneObject, profile: str = "spec") -> Document:
    """One object's document as ``profile`` writes it."""
    return _object(o, profile)


def to_document(rec: Recording, profile: str = "spec") -> Document:
    """The BSON document of ``rec`` as ``profile`` writes it."""
    if profile not in PROFILES:
        raise EncodeError(f"profile must be one of {PROFILES}, not {profile!r}")
    objects = Array.of_values([_object(o, profile) for o in rec.objects])
    frames = Array.of_values([_frame(f, profile) for f in rec.frames])
    return _doc([("objects", objects), ("frames", frames)], profile)


def encode(rec: Recording, profile: str = "spec") -> bytes:
    """The canonical bytes of ``rec`` under ``profile`` (``spec`` or ``compat``), each number in
    ``rec.numbers`` stored as that BSON type instead of the profile's."""
    doc = to_document(rec, profile)
    if rec.numbers:
        doc = _retyped(doc, "", dict(rec.numbers))
    return encode_document(doc)


# --- numbers stored as another BSON type than a profile's ----------------------------------------

#: The BSON number types a number of the model is read from, by the name a case gives them.
NUMBER_TYPES = {"double": float, "int32": int, "int64": Int64}
_TYPE_NAMES = {float: "double", int: "int32", Int64: "int64"}


def _sub(path: str, key: str, in_array: bool) -> str:
    return f"{path}[{key}]" if in_array else (f"{path}.{key}" if path else key)


def number_types(stored: Any, canonical: Any, path: str = "") -> list[tuple[str, str]] | None:
    """The BSON paths (``frames[3].t``, ``objects[0].color[1]``) where a decoded document ``stored`` holds a
    number of another type than ``canonical`` (a profile's document of the same recording), with the
    stored type; None when the two differ in anything else (a key, an order, a value)."""
    out: list[tuple[str, str]] = []
    return out if _same_but_numbers(stored, canonical, path, out) else None


def _same_but_numbers(a: Any, b: Any, path: str, out: list[tuple[str, str]]) -> bool:
    ta, tb = type(a), type(b)
    if tb is int and not -(1 << 31) <= b < 1 << 31:
        tb = Int64  # the encoder writes an int past int32's range as an int64: that is the form's own type
    if ta in _TYPE_NAMES and tb in _TYPE_NAMES:
        same = float(a) == float(b) or (float(a) != float(a) and float(b) != float(b))
        if not same or (ta is not float and int(float(a)) != a):
            return False
        if ta is not tb:
            out.append((path, _TYPE_NAMES[ta]))
        return True
    if isinstance(a, Document) and isinstance(b, Document):
        if ta is not tb or a.keys != b.keys:
            return False
        return all(_same_but_numbers(x, y, _sub(path, k, ta is Array), out)
                   for k, x, y in zip(a.keys, a.values, b.values))
    return ta is tb and bool(a == b)


def _retyped(v: Any, path: str, types: dict[str, str]) -> Any:
    if isinstance(v, Document):
        return type(v)(v.keys, [_retyped(x, _sub(path, k, type(v) is Array), types) for k, x in zip(v.keys, v.values)])
    name = types.get(path)
    if name is None:
        return v
    if type(v) not in _TYPE_NAMES:
        raise EncodeError(f"{path} holds {v!r}, not a number to store as {name}")
    if name == "double":
        return float(v)
    whole = float(v)
    bits = 32 if name == "int32" else 64
    if not whole.is_integer() or not -(1 << (bits - 1)) <= whole < 1 << (bits - 1) or (
            whole == 0 and math.copysign(1.0, whole) < 0):
        raise EncodeError(f"{path} is {v!r}: an {name} holds whole numbers from -2^{bits - 1} to 2^{bits - 1} - 1 "
                          "(and no -0.0)")
    return int(whole) if name == "int32" else Int64(int(whole))


# --- reading -----------------------------------------------------------------------------


def _need(doc: Any, key: str, path: str, at: int = 0) -> Any:
    if not isinstance(doc, Document) or isinstance(doc, Array):
        raise ModelError(f"{path} is not a document", at, path)
    m = doc.map()
    if key not in m:
        raise ModelError(f"{path} has no {key!r}", at, path)
    return m[key]


def _fields(d: Any, path: str, keys: frozenset[str]) -> Callable[[str], Any]:
    """The reader of ``d``'s fields: where ``d`` is a document holding every one of ``keys``, its map's
    lookup (no check is left for ``_need`` to make); else ``_need``, which raises for the first one
    asked that is missing, after the checks of the fields asked before it."""
    if type(d) is Document and d.map().keys() >= keys:
        return d.map().__getitem__
    return partial(_need, d, path=path)


_NUMBERS = frozenset((float, int, Int64))


def _number(v: Any, path: str, at: int) -> float:
    if type(v) in _NUMBERS:
        return float(v)
    raise ModelError(f"{path} is not a number", at, path)


def _vector(v: Any, n: int, path: str, at: int) -> tuple[float, ...]:
    if not isinstance(v, Array) or len(v.keys) != n:
        raise ModelError(f"{path} is not an array of {n} numbers", at, path)
    if {*map(type, v.values)} <= _NUMBERS:  # every element a number: each made a float in C, as _number makes it
        return tuple(map(float, v.values))
    return tuple(_number(x, f"{path}[{i}]", at) for i, x in enumerate(v))


_OBJECT_FIELDS = frozenset(("id", "name", "type", "color"))


def _read_object(d: Any, path: str) -> SceneObject:
    at = 0
    need = _fields(d, path, _OBJECT_FIELDS)
    oid = need("id")
    if type(oid) not in (int, Int64):
        raise ModelError(f"{path}.id is not an integer", at, path)
    name = need("name")
    if not isinstance(name, str):
        raise ModelError(f"{path}.name is not a string", at, path)
    try:
        geometry = Geometry(need("type"))
    except ValueError:
        raise ModelError(f"{path}.type is not one of box, sphere, capsule, convex", at, path) from None
    color = _vector(need("color"), 3, path + ".color", at)
    static = d.get("static", False)
    m = d.map()
    hd = _vector(m["half_dimentions"], 3, path + ".half_dimentions", at) if "half_dimentions" in m else None
    radius = _number(m["radius"], path + ".radius", at) if "radius" in m else None
    hh = _number(m["half_height"], path + ".half_height", at) if "half_height" in m else None
    vertices = None
    if "vertices" in m:
        vs = m["vertices"]
        if not isinstance(vs, Array):
            raise ModelError(f"{path}.vertices is not an array", at, path)
        vertices = tuple(_vector(v, 3, f"{path}.vertices[{i}]", at) for i, v in enumerate(vs))
    return SceneObject(int(oid), name, geometry, color, bool(static), hd, radius, hh, vertices)  # type: ignore[arg-type]


_PRESENCE = {"i": Presence.INSTANTIATED, "instantiated": Presence.INSTANTIATED,
             "d": Presence.DESTROYED, "destroyed": Presence.DESTROYED}


_STATE_FIELDS = frozenset(("id", "i", "m", "p", "r"))


def _read_state(d: Any, path: str) -> State:
    need = _fields(d, path, _STATE_FIELDS)
    sid = need("id")
    if type(sid) not in (int, Int64):
        raise ModelError(f"{path}.id is not an integer", 0, path)
    flag = need("i")
    if not isinstance(flag, str) or flag not in _PRESENCE:
        raise ModelError(f"{path}.i is {flag!r}, not an instance flag", 0, path)
    meta = need("m")
    if not isinstance(meta, str):
        raise ModelError(f"{path}.m is not a string", 0, path)
    return State(int(sid), _PRESENCE[flag], meta, _vector(need("p"), 3, path + ".p", 0),  # type: ignore[arg-type]
                 _vector(need("r"), 4, path + ".r", 0))  # type: ignore[arg-type]


def _read_command(d: Any, path: str) -> DebugCommand:
    try:
        kind = CommandKind(_need(d, "t", path))
    except ValueError:
        raise ModelError(f"{path}.t is not one of v, r, s, c", 0, path) from None
    m = d.map()

    def get(key: str) -> float:
        return _number(m[key], f"{path}.{key}", 0) if key in m else CMD_DEFAULTS[key]

    fields: dict[str, Any] = {}
    for key, field, index in _CMD_FIELDS[kind]:
        if index is None:
            fields[field] = get(key)
        else:
            fields.setdefault(field, []).append(get(key))
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    color = tuple(_number(m[k], f"{path}.{k}", 0) for k in ("r", "g", "b")) if all(k in m for k in "rgb") else None
    opacity = _number(m["o"], path + ".o", 0) if "o" in m else None
    return DebugCommand(kind, (get("ox"), get("oy"), get("oz")), color=color, opacity=opacity, **fields)  # type: ignore[arg-type]


def read_frame(d: Any, path: str) -> Frame:
    """One frame document as the typed model."""
    m = d.map() if isinstance(d, Document) else None
    if m is None or isinstance(d, Array):
        raise ModelError(f"{path} is not a document", 0, path)
    if "t" in m:
        time = _number(m["t"], path + ".t", 0)
    elif "time" in m:
        time = _number(m["time"], path + ".time", 0)
    else:
        raise ModelError(f"{path} has no time ('t')", 0, path)
    states = m.get("states")
    if not isinstance(states, Array):
        raise ModelError(f"{path}.states is not an array", 0, path)
    cmd = m.get("cmd")
    if cmd is None or cmd == "":
        commands: tuple[DebugCommand, ...] = ()
    elif isinstance(cmd, Array):
        commands = tuple(_read_command(c, f"{path}.cmd[{i}]") for i, c in enumerate(cmd))
    else:
        raise ModelError(f"{path}.cmd is neither an array nor empty", 0, path)
    return Frame(time, tuple(_read_state(s, f"{path}.states[{i}]") for i, s in enumerate(states)), commands)


def from_document(doc: Document) -> Recording:
    """The typed recording in a decoded top-level document (either profile)."""
    objects = _need(doc, "objects", "")
    frames = _need(doc, "frames", "")
    if not isinstance(objects, Array) or not isinstance(frames, Array):
        raise ModelError("objects and frames must be arrays", 0, "")
    return Recording(tuple(_read_object(o, f"objects[{i}]") for i, o in enumerate(objects)),
                     tuple(read_frame(f, f"frames[{i}]") for i, f in enumerate(frames)))


def decode(data: bytes) -> Recording:
    """The typed recording in ``data`` (strict BSON; lenient recording)."""
    return from_document(decode_document(data))
