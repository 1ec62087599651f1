"""Rule witnesses for Matrix-SMT recordings (see tests/witness_common.py).

The files are written by a small BSON encoder of this module (bsonspec.org's
layout: int32 length, elements of type byte, cstring key and value, NUL), which
records every element's offset and structural path as it writes. A drawn valid
recording (the document's shape: ``{objects: [...], frames: [...]}``, docs/formats/
matrix-smt.md) is edited at one place, and the finding must name that element: its
offset is where the element's type byte is.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st
from witness_common import Witness, Witnesses


class D(list):  # type: ignore[type-arg]
    """A BSON document: a list of [key, value] pairs (duplicates allowed, order kept)."""

    def get(self, key: str) -> Any:
        return next(v for k, v in self if k == key)

    def put(self, key: str, value: Any) -> None:
        for pair in self:
            if pair[0] == key:
                pair[1] = value
                return
        self.append([key, value])

    def drop(self, key: str) -> None:
        self[:] = [p for p in self if p[0] != key]


@dataclass
class A:
    """A BSON array; ``keys`` replaces the indexes "0", "1", ... when given."""

    values: list[Any]
    keys: list[str] | None = None


@dataclass(frozen=True)
class I64:
    value: int


@dataclass(frozen=True)
class Raw:
    """An element of any type byte with the given value bytes."""

    type: int
    payload: bytes


@dataclass
class Encoded:
    data: bytes
    #: structural path -> (offset of the element's type byte, element length); "" is the top document
    at: dict[str, tuple[int, int]] = field(default_factory=dict)


def _value(v: Any, pos: int, path: str, marks: dict[str, tuple[int, int]]) -> tuple[int, bytes]:
    if isinstance(v, Raw):
        return v.type, v.payload
    if v is None:
        return 0x0A, b""
    if isinstance(v, bool):
        return 0x08, b"\x01" if v else b"\x00"
    if isinstance(v, I64):
        return 0x12, struct.pack("<q", v.value)
    if isinstance(v, int):
        return 0x10, struct.pack("<i", v)
    if isinstance(v, float):
        return 0x01, struct.pack("<d", v)
    if isinstance(v, str):
        s = v.encode("utf-8", "surrogateescape")
        return 0x02, struct.pack("<i", len(s) + 1) + s + b"\x00"
    if isinstance(v, D):
        return 0x03, _document(list(v), pos, path, marks)
    if isinstance(v, A):
        keys = v.keys if v.keys is not None else [str(i) for i in range(len(v.values))]
        items = [[k, x] for k, x in zip(keys, v.values)]
        return 0x04, _document(items, pos, path, marks, array=True)
    raise TypeError(v)


def _document(items: list[Any], pos: int, path: str, marks: dict[str, tuple[int, int]], *,
              array: bool = False) -> bytes:
    body = bytearray()
    for i, (key, value) in enumerate(items):
        at = pos + 4 + len(body)
        k = key.encode("utf-8", "surrogateescape")
        child = f"{path}[{i}]" if array else (f"{path}.{key}" if path else key)
        start = at + 1 + len(k) + 1
        code, payload = _value(value, start, child, marks)
        element = bytes([code]) + k + b"\x00" + payload
        marks.setdefault(child, (at, len(element)))
        body += element
    return struct.pack("<i", len(body) + 5) + bytes(body) + b"\x00"


def encode(doc: D) -> Encoded:
    marks: dict[str, tuple[int, int]] = {}
    data = _document(list(doc), 0, "", marks)
    marks[""] = (0, len(data))
    return Encoded(data, marks)


# --- a valid recording ----------------------------------------------------------------

_UNIT = st.floats(0.0, 1.0)
_REAL = st.floats(-1000.0, 1000.0)
_SIZE = st.floats(0.01, 100.0)
_QUATERNIONS = st.sampled_from(((0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0), (0.0, 0.6, 0.0, 0.8),
                                (-0.5, 0.5, -0.5, 0.5), (0.0, 0.3826834323650898, 0.0, 0.9238795325112867)))
TETRAHEDRON = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def vec(xs: Any) -> A:
    return A(list(xs))


@st.composite
def objects(draw: st.DrawFn, kind: str | None = None, object_id: int | None = None) -> D:
    kind = kind or draw(st.sampled_from(("box", "sphere", "capsule", "convex")))
    obj = D([["id", object_id if object_id is not None else draw(st.integers(0, 1000))],
             ["name", draw(st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=8))],
             ["color", vec(draw(st.tuples(_UNIT, _UNIT, _UNIT)))], ["static", draw(st.booleans())],
             ["type", kind]])
    if kind == "box":
        obj.append(["half_dimentions", vec(draw(st.tuples(_SIZE, _SIZE, _SIZE)))])
    elif kind == "sphere":
        obj.append(["radius", draw(_SIZE)])
    elif kind == "capsule":
        obj += [["radius", draw(_SIZE)], ["half_height", draw(_SIZE)]]
    else:
        scale = draw(_SIZE)
        extra = draw(st.lists(st.tuples(_REAL, _REAL, _REAL), max_size=2))
        obj.append(["vertices", A([vec(c * scale for c in p) for p in TETRAHEDRON] + [vec(p) for p in extra])])
    return obj


def state(object_id: int, draw: st.DrawFn, flag: str = "i") -> D:
    return D([["id", object_id], ["i", flag], ["m", draw(st.sampled_from(("md", "static_md", "")))],
              ["p", vec(draw(st.tuples(_REAL, _REAL, _REAL)))], ["r", vec(draw(_QUATERNIONS))]])


@st.composite
def command(draw: st.DrawFn, kind: str | None = None) -> D:
    kind = kind or draw(st.sampled_from("vrsc"))
    origin = draw(st.tuples(_REAL, _REAL, _REAL))
    cmd = D([["t", kind], ["ox", origin[0]], ["oy", origin[1]], ["oz", origin[2]]])
    if kind == "v":
        cmd += [[k, draw(_REAL)] for k in ("vx", "vy", "vz")]
    elif kind == "r":
        end = draw(st.tuples(_REAL, _REAL, _REAL).filter(lambda e: e != origin))
        cmd += [["ex", end[0]], ["ey", end[1]], ["ez", end[2]]]
    elif kind == "s":
        cmd.append(["sr", draw(_SIZE)])
    else:
        cmd += [[k, draw(_SIZE)] for k in ("sx", "sy", "sz")]
        cmd += [[k, x] for k, x in zip(("rx", "ry", "rz", "rw"), draw(_QUATERNIONS))]
    if draw(st.booleans()):
        cmd += [[k, draw(_UNIT)] for k in ("r", "g", "b", "o")]
    return cmd


@st.composite
def recordings(draw: st.DrawFn, min_frames: int = 1, min_objects: int = 1) -> D:
    """A recording every rule accepts under both profiles (the spec's keys: t, cmd an array, "i")."""
    ids = draw(st.lists(st.integers(0, 1000), min_size=min_objects, max_size=4, unique=True))
    objs = [draw(objects(object_id=i)) for i in ids]
    frames = []
    t = draw(st.floats(0.0, 10.0))
    for _ in range(draw(st.integers(min_frames, 3))):
        shown = draw(st.lists(st.sampled_from(ids), unique=True, min_size=1)) if ids else []
        frames.append(D([["states", A([state(i, draw) for i in shown])],
                         ["cmd", A(draw(st.lists(command(), max_size=2)))], ["t", t]]))
        t += draw(st.floats(0.0, 1.0))
    return D([["objects", A(objs)], ["frames", A(frames)]])


def frames_of(rec: D) -> list[D]:
    return rec.get("frames").values  # type: ignore[no-any-return]


def objects_of(rec: D) -> list[D]:
    return rec.get("objects").values  # type: ignore[no-any-return]


def witness(rule: str, rec: D, path: str, *, profile: str = "spec", offset: int | None = None,
            **kw: Any) -> Witness:
    """The finding must name ``path`` at its element's offset (or ``offset``)."""
    enc = encode(rec)
    return Witness(rule, enc.data, profile, enc.at[path][0] if offset is None else offset, path, **kw)


@st.composite
def some_state(draw: st.DrawFn, rec: D) -> tuple[int, int]:
    """(frame, state) indexes of a state of ``rec`` (every drawn frame has one)."""
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    return k, draw(st.integers(0, len(frames_of(rec)[k].get("states").values) - 1))


def _state_edit(rule: str, edit: Any, *, profile: str = "spec", leaf: str = "") -> st.SearchStrategy[Witness]:
    """A drawn state edited by ``edit(draw, state) -> path suffix`` (None: the state itself)."""
    @st.composite
    def make(draw: st.DrawFn) -> Witness:
        rec = draw(recordings())
        k, j = draw(some_state(rec))
        suffix = edit(draw, frames_of(rec)[k].get("states").values[j])
        return witness(rule, rec, f"frames[{k}].states[{j}]{suffix}", profile=profile)
    return make()


# --- the witnesses ----------------------------------------------------------------------

@st.composite
def _length(draw: st.DrawFn) -> Witness:
    # a vector declaring a length below a document's minimum (5: the length and the closing NUL)
    rec = draw(recordings())
    k, j = draw(some_state(rec))
    path = f"frames[{k}].states[{j}].p"
    enc = encode(rec)
    value = enc.at[path][0] + len(b"\x04p\x00")
    data = bytearray(enc.data)
    struct.pack_into("<i", data, value, draw(st.integers(-2**31, 4)))
    # reported at the length itself
    return Witness("MATRIX-BSON-001", bytes(data), "spec", value, path)


@st.composite
def _type_byte(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    enc = encode(rec)
    path = draw(st.sampled_from(sorted(p for p in enc.at if p)))
    at = enc.at[path][0]
    data = bytearray(enc.data)
    data[at] = draw(st.one_of(st.integers(0x14, 0x7E), st.integers(0x80, 0xFE)))
    return Witness("MATRIX-BSON-002", bytes(data), "spec", at, path)


@st.composite
def _boolean(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    o = draw(st.integers(0, len(objects_of(rec)) - 1))
    objects_of(rec)[o].put("static", Raw(0x08, bytes([draw(st.integers(2, 255))])))
    enc = encode(rec)
    # located at the byte itself
    return Witness("MATRIX-BSON-003", enc.data, "spec", enc.at[f"objects[{o}].static"][0] + len(b"\x08static\x00"),
                   f"objects[{o}].static")


@st.composite
def _string_end(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    o = draw(st.integers(0, len(objects_of(rec)) - 1))
    name = objects_of(rec)[o].get("name").encode()
    # the declared length still counts the NUL, whose byte is now something else
    last = bytes([draw(st.integers(1, 255))])
    objects_of(rec)[o].put("name", Raw(0x02, struct.pack("<i", len(name) + 1) + name + last))
    enc = encode(rec)
    at = enc.at[f"objects[{o}].name"][0]
    return Witness("MATRIX-BSON-004", enc.data, "spec", at + len(b"\x02name\x00") + 4 + len(name), f"objects[{o}].name")


@st.composite
def _utf8(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    o = draw(st.integers(0, len(objects_of(rec)) - 1))
    name = objects_of(rec)[o].get("name").encode()
    j = draw(st.integers(0, len(name)))
    j = len(name[:j].decode("utf-8", "ignore").encode())  # at a character boundary
    bad = name[:j] + bytes([draw(st.sampled_from((0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF)))]) + name[j:]
    objects_of(rec)[o].put("name", Raw(0x02, struct.pack("<i", len(bad) + 1) + bad + b"\x00"))
    enc = encode(rec)
    at = enc.at[f"objects[{o}].name"][0]
    return Witness("MATRIX-BSON-005", enc.data, "spec", at + len(b"\x02name\x00") + 4 + j, f"objects[{o}].name")


@st.composite
def _trailing(draw: st.DrawFn) -> Witness:
    data = encode(draw(recordings())).data
    return Witness("MATRIX-BSON-006", data + draw(st.binary(min_size=1, max_size=16)), "spec", len(data), "")


@st.composite
def _cut(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    enc = encode(rec)
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    at, size = enc.at[f"frames[{k}]"]
    value = at + len(f"\x03{k}\x00")
    # cut inside frame k's document: the finding names the frame the file ends in, at the document's start
    return Witness("MATRIX-BSON-007", enc.data[:draw(st.integers(value + 1, at + size - 1))], "spec", value,
                   f"frames[{k}]")


@st.composite
def _array_keys(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    states = frames_of(rec)[k].get("states")
    n = len(states.values)
    keys = draw(st.lists(st.text("0123456789ab", min_size=1, max_size=3), min_size=n, max_size=n, unique=True)
                .filter(lambda ks: ks != [str(i) for i in range(n)]))
    states.keys = keys
    enc = encode(rec)
    # the array is named, at its first element whose key is not its index
    first = next(i for i, key in enumerate(keys) if key != str(i))
    return Witness("MATRIX-BSON-008", enc.data, "spec", enc.at[f"frames[{k}].states[{first}]"][0],
                   f"frames[{k}].states")


def _duplicate() -> st.SearchStrategy[Witness]:
    def edit(draw: st.DrawFn, s: D) -> str:
        s.append(["m", s.get("m")])  # the same key again, with the same value
        return ".m"

    @st.composite
    def make(draw: st.DrawFn) -> Witness:
        rec = draw(recordings())
        k, j = draw(some_state(rec))
        s = frames_of(rec)[k].get("states").values[j]
        edit(draw, s)
        enc = encode(rec)
        # the second "m" is the last element of the state: the one before its closing NUL
        start, size = enc.at[f"frames[{k}].states[{j}]"]
        m = s.get("m").encode()
        second = start + size - 1 - (1 + 2 + 4 + len(m) + 1)
        return Witness("MATRIX-BSON-009", enc.data, "spec", second, f"frames[{k}].states[{j}].m")
    return make()


@st.composite
def _depth(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    depth = draw(st.integers(101, 130))
    nested: Any = D()
    for _ in range(depth):
        nested = D([["d", nested]])
    rec.append(["extra", nested])
    enc = encode(rec)
    # "extra" is depth 1; the document 101 levels below the top is the first one not read
    path = "extra" + ".d" * 100
    # at the start of that document (after its element's type byte and key)
    return Witness("MATRIX-LIMIT-001", enc.data, "spec", enc.at[path][0] + len(b"\x03d\x00"), path)


_WALKER = "recspec.reference.matrix_smt._walker"
_BSON = "recspec.reference.matrix_smt._bson"


@st.composite
def _buffered(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    enc = encode(rec)
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    at, size = enc.at[f"frames[{k}]"]
    limit = draw(st.integers(5, size - len(f"\x03{k}\x00") - 1))
    # frames before k must fit the limit, so the lowered limit is below frame k's size only
    if any(encode(rec).at[f"frames[{i}]"][1] - len(f"\x03{i}\x00") > limit for i in range(k)):
        limit = max(enc.at[f"frames[{i}]"][1] - len(f"\x03{i}\x00") for i in range(k + 1)) - 1
        k = next(i for i in range(k + 1) if enc.at[f"frames[{i}]"][1] - len(f"\x03{i}\x00") > limit)
        at = enc.at[f"frames[{k}]"][0]
    # reported at the start of the unit's document (after its element's type byte and key)
    objs = enc.at["objects"][1] - len(b"\x04objects\x00")
    if objs > limit:
        return Witness("MATRIX-LIMIT-002", enc.data, "spec", enc.at["objects"][0] + len(b"\x04objects\x00"),
                       "objects", limits=((_WALKER, "MAX_BUFFERED_SIZE", limit),))
    return Witness("MATRIX-LIMIT-002", enc.data, "spec", at + len(f"\x03{k}\x00"), f"frames[{k}]",
                   limits=((_WALKER, "MAX_BUFFERED_SIZE", limit),))


@st.composite
def _elements(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    enc = encode(rec)
    objs = enc.at["objects"]
    count = sum(1 for p in enc.at if p.startswith("objects["))
    # every element of the objects array, at any depth, costs one: one fewer allowed than it holds
    return Witness("MATRIX-LIMIT-003", enc.data, "spec", objs[0] + len(b"\x04objects\x00"), "objects",
                   limits=((_BSON, "MAX_ELEMENTS", count - 1),))


@st.composite
def _top(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    missing = draw(st.sampled_from(("objects", "frames")))
    if missing == "objects":  # no states either, which would name objects that do not exist
        for frame in frames_of(rec):
            frame.put("states", A([]))
    rec.drop(missing)
    return witness("MATRIX-DOC-001", rec, "")


@st.composite
def _unknown_key(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    where = draw(st.sampled_from(("top", "object", "state", "frame")))
    key = draw(st.sampled_from(("mass", "extra", "colour", "velocity")))
    if where == "top":
        rec.append([key, 1.0])
        return witness("MATRIX-DOC-002", rec, key)
    if where == "object":
        o = draw(st.integers(0, len(objects_of(rec)) - 1))
        objects_of(rec)[o].append([key, 1.0])
        return witness("MATRIX-DOC-002", rec, f"objects[{o}].{key}")
    if where == "frame":
        k = draw(st.integers(0, len(frames_of(rec)) - 1))
        frames_of(rec)[k].append([key, 1.0])
        return witness("MATRIX-DOC-002", rec, f"frames[{k}].{key}")
    k, j = draw(some_state(rec))
    frames_of(rec)[k].get("states").values[j].append([key, 1.0])
    return witness("MATRIX-DOC-002", rec, f"frames[{k}].states[{j}].{key}")


_NOT_NUMBERS = st.sampled_from(("1.0", True, None, Raw(0x05, b"\x01\x00\x00\x00\x00x"), Raw(0x09, bytes(8))))


def _not_a_number() -> st.SearchStrategy[Witness]:
    def edit(draw: st.DrawFn, s: D) -> str:
        c = draw(st.integers(0, 2))
        s.get("p").values[c] = draw(_NOT_NUMBERS)
        return f".p[{c}]"
    return _state_edit("MATRIX-NUM-001", edit)


def _not_finite() -> st.SearchStrategy[Witness]:
    def edit(draw: st.DrawFn, s: D) -> str:
        c = draw(st.integers(0, 2))
        s.get("p").values[c] = draw(st.sampled_from((math.inf, -math.inf, math.nan)))
        return f".p[{c}]"
    return _state_edit("MATRIX-NUM-002", edit)


@st.composite
def _object_key(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    o = draw(st.integers(0, len(objects_of(rec)) - 1))
    objects_of(rec)[o].drop(draw(st.sampled_from(("name", "color"))))
    return witness("MATRIX-OBJ-001", rec, f"objects[{o}]")


@st.composite
def _geometry(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    o = draw(st.integers(0, len(objects_of(rec)) - 1))
    obj = objects_of(rec)[o]
    kind = obj.get("type")
    bad = draw(st.one_of(st.floats(-1e6, 0.0), st.integers(-10, 0)))
    if kind in ("sphere", "capsule"):
        key = draw(st.sampled_from(("radius", "half_height") if kind == "capsule" else ("radius",)))
        obj.put(key, bad)
        return witness("MATRIX-OBJ-002", rec, f"objects[{o}].{key}")
    if kind == "box":
        c = draw(st.integers(0, 2))
        obj.get("half_dimentions").values[c] = bad
        return witness("MATRIX-OBJ-002", rec, f"objects[{o}].half_dimentions")
    obj.put("type", draw(st.sampled_from(("cube", "mesh", "Box", ""))))
    return witness("MATRIX-OBJ-002", rec, f"objects[{o}].type")


@st.composite
def _object_id(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    objs = objects_of(rec)
    if draw(st.booleans()):
        taken = draw(st.sampled_from([o.get("id") for o in objs]))
        objs.append(draw(objects(object_id=taken)))
    else:
        objs.append(draw(objects(object_id=draw(st.integers(-1000, -1)))))
    return witness("MATRIX-OBJ-003", rec, f"objects[{len(objs) - 1}].id")


@st.composite
def _hull(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    objs = objects_of(rec)
    obj = draw(objects(kind="convex", object_id=max(o.get("id") for o in objs) + 1))
    if draw(st.booleans()):
        points = draw(st.lists(st.tuples(_REAL, _REAL, _REAL), max_size=3))
    else:  # any number of points, all in one plane (z = c)
        z = draw(_REAL)
        points = [(x, y, z) for x, y in draw(st.lists(st.tuples(_REAL, _REAL), min_size=4, max_size=6))]
    obj.put("vertices", A([vec(p) for p in points]))
    objs.append(obj)
    return witness("MATRIX-OBJ-004", rec, f"objects[{len(objs) - 1}].vertices")


@st.composite
def _colour(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    o = draw(st.integers(0, len(objects_of(rec)) - 1))
    c = draw(st.integers(0, 2))
    objects_of(rec)[o].get("color").values[c] = draw(st.one_of(st.floats(1.0, 1e6, exclude_min=True),
                                                               st.floats(-1e6, 0.0, exclude_max=True),
                                                               st.integers(2, 255), st.integers(-255, -1)))
    enc = encode(rec)
    # the finding names the channel and spans the whole colour array
    return Witness("MATRIX-OBJ-005", enc.data, "spec", enc.at[f"objects[{o}].color"][0], f"objects[{o}].color[{c}]")


@st.composite
def _static(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    o = draw(st.integers(0, len(objects_of(rec)) - 1))
    objects_of(rec)[o].put("static", draw(st.sampled_from((0, 1, "true", None, 1.0))))
    return witness("MATRIX-OBJ-006", rec, f"objects[{o}].static")


@st.composite
def _no_t(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    frames_of(rec)[k].drop("t")
    return witness("MATRIX-FRAME-001", rec, f"frames[{k}]")


@st.composite
def _time_order(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    before = frames_of(rec)[k - 1].get("t") if k else 0.0
    bad = draw(st.one_of(st.floats(max_value=before, exclude_max=True).filter(lambda t: not math.isinf(t)),
                         st.just(-1.0)) if k else st.floats(-1e6, 0.0, exclude_max=True))
    # the frames after k keep their times, which are still >= the frame before k's
    frames_of(rec)[k].put("t", bad)
    return witness("MATRIX-FRAME-002", rec, f"frames[{k}].t")


@st.composite
def _cmd_type(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    frames_of(rec)[k].put("cmd", draw(st.sampled_from(("", None, 0, 1.5, D(), "v"))))
    return witness("MATRIX-FRAME-003", rec, f"frames[{k}].cmd")


@st.composite
def _states_type(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    if draw(st.booleans()):
        frames_of(rec)[k].drop("states")
        enc = encode(rec)  # the missing key is named, at its frame
        return Witness("MATRIX-FRAME-004", enc.data, "spec", enc.at[f"frames[{k}]"][0], f"frames[{k}].states")
    frames_of(rec)[k].put("states", draw(st.sampled_from(("", None, 0, D()))))
    return witness("MATRIX-FRAME-004", rec, f"frames[{k}].states")


@st.composite
def _time_key(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    frame = frames_of(rec)[k]
    frame.put("time", frame.get("t"))
    frame.drop("t")
    return witness("MATRIX-FRAME-005", rec, f"frames[{k}].time", profile="compat")


def _state_key() -> st.SearchStrategy[Witness]:
    def edit(draw: st.DrawFn, s: D) -> str:
        s.drop(draw(st.sampled_from(("i", "m", "p", "r"))))
        return ""
    return _state_edit("MATRIX-STATE-001", edit)


@st.composite
def _stranger(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k, j = draw(some_state(rec))
    ids = {o.get("id") for o in objects_of(rec)}
    frames_of(rec)[k].get("states").values[j].put("id", draw(st.integers(-1000, 2000).filter(lambda i: i not in ids)))
    return witness("MATRIX-STATE-002", rec, f"frames[{k}].states[{j}].id")


def _flag() -> st.SearchStrategy[Witness]:
    def edit(draw: st.DrawFn, s: D) -> str:
        s.put("i", draw(st.sampled_from(("x", "I", "", "instantiated", "destroyed", "id"))))
        return ".i"
    return _state_edit("MATRIX-STATE-003", edit)


@st.composite
def _destroyed(draw: st.DrawFn) -> Witness:
    rec = draw(recordings(min_frames=2))
    frames = frames_of(rec)
    k = draw(st.integers(0, len(frames) - 2))
    j = draw(st.integers(0, len(frames[k].get("states").values) - 1))
    gone = frames[k].get("states").values[j]
    gone.put("i", "d")
    later = draw(st.integers(k + 1, len(frames) - 1))
    states = frames[later].get("states").values
    # the first mention after the removal: drop any other mention before it in frames k+1 .. later
    for f in frames[k + 1:later]:
        f.get("states").values[:] = [s for s in f.get("states").values if s.get("id") != gone.get("id")]
    states[:] = [s for s in states if s.get("id") != gone.get("id")]
    states.insert(0, state(gone.get("id"), draw, draw(st.sampled_from(("i", "d")))))
    return witness("MATRIX-STATE-004", rec, f"frames[{later}].states[0].id")


@st.composite
def _twice(draw: st.DrawFn) -> Witness:
    rec = draw(recordings())
    k, j = draw(some_state(rec))
    states = frames_of(rec)[k].get("states").values
    states.append(state(states[j].get("id"), draw))
    return witness("MATRIX-STATE-005", rec, f"frames[{k}].states[{len(states) - 1}].id")


def _quaternion() -> st.SearchStrategy[Witness]:
    def edit(draw: st.DrawFn, s: D) -> str:
        q = draw(st.tuples(_REAL, _REAL, _REAL, _REAL).filter(
            lambda q: abs(math.sqrt(sum(x * x for x in q)) - 1.0) > 0.01))
        s.put("r", vec(q))
        return ".r"
    return _state_edit("MATRIX-QUAT-001", edit)


@st.composite
def _some_command(draw: st.DrawFn, kind: str | None = None) -> tuple[D, int, int, D]:
    rec = draw(recordings())
    k = draw(st.integers(0, len(frames_of(rec)) - 1))
    cmds = frames_of(rec)[k].get("cmd").values
    cmd = draw(command(kind))
    j = draw(st.integers(0, len(cmds)))
    cmds.insert(j, cmd)
    return rec, k, j, cmd


@st.composite
def _command_type(draw: st.DrawFn) -> Witness:
    rec, k, j, cmd = draw(_some_command())
    cmd.put("t", draw(st.sampled_from(("x", "V", "", "vector", "ray"))))
    return witness("MATRIX-CMD-001", rec, f"frames[{k}].cmd[{j}].t")


@st.composite
def _command_size(draw: st.DrawFn) -> Witness:
    rec, k, j, cmd = draw(_some_command(draw(st.sampled_from("sc"))))
    key = "sr" if cmd.get("t") == "s" else draw(st.sampled_from(("sx", "sy", "sz")))
    cmd.put(key, draw(st.floats(-1e6, 0.0)))
    return witness("MATRIX-CMD-002", rec, f"frames[{k}].cmd[{j}].{key}")


@st.composite
def _command_colour(draw: st.DrawFn) -> Witness:
    rec, k, j, cmd = draw(_some_command())
    key = draw(st.sampled_from("rgbo"))
    cmd.put(key, draw(st.one_of(st.floats(1.0, 1e6, exclude_min=True), st.floats(-1e6, 0.0, exclude_max=True))))
    return witness("MATRIX-CMD-003", rec, f"frames[{k}].cmd[{j}].{key}")


@st.composite
def _ray(draw: st.DrawFn) -> Witness:
    rec, k, j, cmd = draw(_some_command("r"))
    for axis in "xyz":
        cmd.put(f"e{axis}", cmd.get(f"o{axis}"))
    return witness("MATRIX-CMD-004", rec, f"frames[{k}].cmd[{j}]")


WITNESSES: Witnesses = {
    "MATRIX-BSON-001": _length,
    "MATRIX-BSON-002": _type_byte,
    "MATRIX-BSON-003": _boolean,
    "MATRIX-BSON-004": _string_end,
    "MATRIX-BSON-005": _utf8,
    "MATRIX-BSON-006": _trailing,
    "MATRIX-BSON-007": _cut,
    "MATRIX-BSON-008": _array_keys,
    "MATRIX-BSON-009": _duplicate,
    "MATRIX-LIMIT-001": _depth,
    "MATRIX-LIMIT-002": _buffered,
    "MATRIX-LIMIT-003": _elements,
    "MATRIX-DOC-001": _top,
    "MATRIX-DOC-002": _unknown_key,
    "MATRIX-NUM-001": _not_a_number,
    "MATRIX-NUM-002": _not_finite,
    "MATRIX-OBJ-001": _object_key,
    "MATRIX-OBJ-002": _geometry,
    "MATRIX-OBJ-003": _object_id,
    "MATRIX-OBJ-004": _hull,
    "MATRIX-OBJ-005": _colour,
    "MATRIX-OBJ-006": _static,
    "MATRIX-FRAME-001": _no_t,
    "MATRIX-FRAME-002": _time_order,
    "MATRIX-FRAME-003": _cmd_type,
    "MATRIX-FRAME-004": _states_type,
    "MATRIX-FRAME-005": _time_key,
    "MATRIX-STATE-001": _state_key,
    "MATRIX-STATE-002": _stranger,
    "MATRIX-STATE-003": _flag,
    "MATRIX-STATE-004": _destroyed,
    "MATRIX-STATE-005": _twice,
    "MATRIX-QUAT-001": _quaternion,
    "MATRIX-CMD-001": _command_type,
    "MATRIX-CMD-002": _command_size,
    "MATRIX-CMD-003": _command_colour,
    "MATRIX-CMD-004": _ray,
}

UNWITNESSABLE = {
    "MATRIX-XCHECK-001": "fires when recspec's readers (its walker, Kaitai, pymongo) disagree: a bug in recspec or "
                         "a difference between the readers, not a property of a file",
}


def valid_files() -> st.SearchStrategy[Witness]:
    """The unbroken recordings the witnesses start from (rule ""; nothing may fire)."""
    return st.tuples(recordings(), st.sampled_from(("spec", "compat"))).map(
        lambda r: Witness("", encode(r[0]).data, r[1], None, ""))
