"""Hypothesis strategies for Matrix-SMT recordings and for BSON itself.

Public through ``recspec.strategies``:

* ``bson_values(*, max_depth=3)``: any BSON value of any type, as the reference
  decoder returns it (int32 ``int``, ``Int64``, ``Document``, ``Array``, ...);
* ``bson_documents(*, max_depth=3)``: top-level documents of such values;
* ``matrix_recordings(*, min_frames=0, max_frames=6, valid=True)``: typed
  recordings; valid ones satisfy every rule (unique ids, positive sizes, unit
  quaternions, non-decreasing times, destroyed objects never mentioned again);
  ``valid=False`` draws one that still encodes but breaks a rule;
* ``matrix_files(profile=None, *, min_frames=0, max_frames=6, valid=True)``:
  ``(bytes, profile)`` pairs, encoded by the reference encoder;
* ``matrix_cases(*, min_frames=0, max_frames=6)``: the case (``recspec case`` JSON, as a dict) of a
  valid recording.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import (
    PROFILES,
    CommandKind,
    DebugCommand,
    Frame,
    Geometry,
    Presence,
    Recording,
    SceneObject,
    State,
    encode,
    to_case,
)

__all__ = ["bson_documents", "bson_values", "matrix_cases", "matrix_files", "matrix_recordings"]

_KEY = st.text(st.characters(exclude_characters="\x00", codec="utf-8"), max_size=6)
_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)
_I32 = st.integers(-(2**31), 2**31 - 1)
_I64 = st.integers(-(2**63), 2**63 - 1)


def _scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        _TEXT,
        _I32,
        _I64.map(b.Int64),
        st.booleans(),
        st.none(),
        st.builds(b.Binary, st.integers(0, 255).filter(lambda s: s != 2), st.binary(max_size=8)),
        st.binary(max_size=8).map(lambda d: b.Binary(2, len(d).to_bytes(4, "little") + d)),
        st.binary(min_size=12, max_size=12).map(b.ObjectId),
        _I64.map(b.DateTime),
        st.builds(b.Regex, _KEY, st.sampled_from(["", "i", "ms", "ilmsux"])),
        st.builds(b.DBPointer, _TEXT, st.binary(min_size=12, max_size=12)),
        _TEXT.map(b.Code),
        _TEXT.map(b.Symbol),
        st.integers(0, 2**64 - 1).map(b.Timestamp),
        st.binary(min_size=16, max_size=16).map(b.Decimal128),
        st.just(b.Undefined()),
        st.just(b.MinKey()),
        st.just(b.MaxKey()),
    )


def _document_of(values: st.SearchStrategy[Any]) -> st.SearchStrategy[b.Document]:
    return st.lists(st.tuples(_KEY, values), max_size=5).map(
        lambda items: b.Document([k for k, _ in items], [v for _, v in items]))


def _array_of(values: st.SearchStrategy[Any]) -> st.SearchStrategy[b.Array]:
    return st.lists(values, max_size=5).map(b.Array.of_values)


@st.composite
def bson_values(draw: st.DrawFn, *, max_depth: int = 3) -> Any:
    """Any BSON value, nested at most ``max_depth`` documents deep."""
    if not isinstance(max_depth, int) or max_depth < 0:
        raise InvalidArgument(f"max_depth={max_depth!r} must be an int >= 0")
    if max_depth == 0:
        return draw(_scalars())
    inner = bson_values(max_depth=max_depth - 1)
    return draw(st.one_of(
        _scalars(), _document_of(inner), _array_of(inner),
        st.builds(b.CodeWithScope, _TEXT, _document_of(bson_values(max_depth=max_depth - 1))),
    ))


@st.composite
def bson_documents(draw: st.DrawFn, *, max_depth: int = 3) -> b.Document:
    """A top-level document of :func:`bson_values`."""
    if not isinstance(max_depth, int) or max_depth < 1:
        raise InvalidArgument(f"max_depth={max_depth!r} must be an int >= 1")
    return draw(_document_of(bson_values(max_depth=max_depth - 1)))


# --- recordings -----------------------------------------------------------------------------

# signed zeros on purpose: -0.0 is a value of its own (the compat encoder keeps it a double so the sign survives),
# and a writer that stores whole numbers as integers loses it
_COORD = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False) | st.sampled_from((0.0, -0.0))
_SIZE = st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False)
_UNIT = st.floats(0.0, 1.0, allow_nan=False)


@functools.cache
def _vec3(elements: st.SearchStrategy[float] = _COORD) -> st.SearchStrategy[tuple[float, float, float]]:
    """Three of ``elements``; made once per element strategy (a strategy made for every draw is validated for
    every draw, which cost more than the drawing)."""
    return st.tuples(elements, elements, elements)


_QUARTER = st.floats(-1.0, 1.0, allow_nan=False)
_NOT_TINY = st.tuples(_QUARTER, _QUARTER, _QUARTER, _QUARTER).filter(lambda q: math.hypot(*q) > 0.1)
_CONVEX_OFFSET = st.floats(-100, 100)
_CONVEX_EXTRA = st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)), max_size=3)
_GEOMETRIES = st.sampled_from(list(Geometry))
_COMMAND_KINDS = st.sampled_from(list(CommandKind))
_MAYBE_COLOR = st.none() | st.tuples(_UNIT, _UNIT, _UNIT)
_MAYBE_OPACITY = st.none() | _UNIT
_DESTROYED = st.integers(0, 9)
_STEP = st.sampled_from([0.0, 1 / 60, 0.05, 1.0])
_START = st.floats(0.0, 100.0)


@st.composite
def _quaternions(draw: st.DrawFn) -> tuple[float, float, float, float]:
    q = draw(_NOT_TINY)
    n = math.hypot(*q)
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


@st.composite
def _objects(draw: st.DrawFn, oid: int) -> SceneObject:
    g = draw(_GEOMETRIES)
    name = draw(_TEXT)
    color = draw(_vec3(_UNIT))
    static = draw(st.booleans())
    if g is Geometry.BOX:
        return SceneObject(oid, name, g, color, static, half_dimentions=draw(_vec3(_SIZE)))
    if g is Geometry.SPHERE:
        return SceneObject(oid, name, g, color, static, radius=draw(_SIZE))
    if g is Geometry.CAPSULE:
        return SceneObject(oid, name, g, color, static, radius=draw(_SIZE), half_height=draw(_SIZE))
    # a tetrahedron, scaled and moved, plus extra points: never coplanar
    s = draw(_SIZE)
    o = draw(_vec3(_CONVEX_OFFSET))
    tetra = ((0.0, 0.0, 0.0), (s, 0.0, 0.0), (0.0, s, 0.0), (0.0, 0.0, s))
    extra = draw(_CONVEX_EXTRA)
    vs = tuple((o[0] + x, o[1] + y, o[2] + z) for x, y, z in (*tetra, *((e[0] * s, e[1] * s, e[2] * s) for e in extra)))
    return SceneObject(oid, name, g, color, static, vertices=vs)


@st.composite
def _commands(draw: st.DrawFn) -> DebugCommand:
    kind = draw(_COMMAND_KINDS)
    origin = draw(_vec3())
    color = draw(_MAYBE_COLOR)
    opacity = draw(_MAYBE_OPACITY)
    if kind is CommandKind.VECTOR:
        return DebugCommand(kind, origin, vector=draw(_vec3()), color=color, opacity=opacity)
    if kind is CommandKind.RAY:
        end = draw(_vec3().filter(lambda e: e != origin))
        return DebugCommand(kind, origin, end=end, color=color, opacity=opacity)
    if kind is CommandKind.SPHERE:
        return DebugCommand(kind, origin, radius=draw(_SIZE), color=color, opacity=opacity)
    return DebugCommand(kind, origin, half_size=draw(_vec3(_SIZE)), rotation=draw(_QUATERNIONS), color=color,
                        opacity=opacity)


_OBJECT_IDS = st.integers(0, 2**31 - 1)
_QUATERNIONS = _quaternions()
_COMMAND_LISTS = st.lists(_commands(), max_size=2)
_OBJECT_LISTS = st.lists(_OBJECT_IDS.flatmap(_objects), max_size=5, unique_by=lambda o: o.id)


@functools.lru_cache(maxsize=64)
def _frame_counts(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.integers(lo, hi)


@st.composite
def _valid_recordings(draw: st.DrawFn, min_frames: int, max_frames: int) -> Recording:
    # each object is drawn with its id, as one list element: the shrinker deletes an object whole
    objects = tuple(draw(_OBJECT_LISTS))
    ids = [o.id for o in objects]
    n = draw(_frame_counts(min_frames, max_frames))
    alive = list(ids)
    t = draw(_START)
    frames = []
    for _ in range(n):
        t += draw(_STEP)
        # the commands before the states: the states' draws depend on which objects exist, so an object
        # the shrinker deletes changes them; drawn last, they cannot shift the commands' draws
        commands = tuple(draw(_COMMAND_LISTS))
        listed = draw(st.lists(st.sampled_from(alive), unique=True)) if alive else []
        states = []
        for oid in listed:
            destroyed = draw(_DESTROYED) == 0
            states.append(State(oid, Presence.DESTROYED if destroyed else Presence.INSTANTIATED, draw(_TEXT),
                                draw(_vec3()), draw(_QUATERNIONS)))
            if destroyed:
                alive.remove(oid)
        frames.append(Frame(t, tuple(states), commands))
    return Recording(objects, tuple(frames))


_BREAKS = ("negative-size", "unit-quaternion", "time-back", "unknown-id", "coplanar", "colour")


@st.composite
def _invalid_recordings(draw: st.DrawFn, min_frames: int, max_frames: int) -> Recording:
    rec = draw(_valid_recordings(max(min_frames, 2), max(max_frames, 2)))
    how = draw(st.sampled_from(_BREAKS))
    objects, frames = list(rec.objects), list(rec.frames)
    if how == "negative-size":
        objects.append(SceneObject(max((o.id for o in objects), default=0) + 1 if objects else 0, "bad",
                                   Geometry.SPHERE, (0.0, 0.0, 0.0), radius=-draw(_SIZE)))
    elif how == "unit-quaternion":
        frames.append(Frame(frames[-1].time, (), (DebugCommand(
            CommandKind.CUBE, (0.0, 0.0, 0.0), half_size=(1.0, 1.0, 1.0), rotation=(0.0, 0.0, 0.0, 0.5)),)))
    elif how == "time-back":
        frames.append(Frame(frames[-1].time - 1.0))
    elif how == "unknown-id":
        unused = max((o.id for o in objects), default=-1) + 1
        frames.append(Frame(frames[-1].time, (State(unused, Presence.INSTANTIATED, "", (0.0, 0.0, 0.0),
                                                    (0.0, 0.0, 0.0, 1.0)),)))
    elif how == "coplanar":
        objects.append(SceneObject(max((o.id for o in objects), default=-1) + 1, "flat", Geometry.CONVEX,
                                   (0.0, 0.0, 0.0), vertices=((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0),
                                                              (1.0, 0.0, 1.0))))
    else:
        objects.append(SceneObject(max((o.id for o in objects), default=-1) + 1, "loud", Geometry.SPHERE,
                                   (2.0, 0.0, 0.0), radius=1.0))
    return Recording(tuple(objects), tuple(frames))


def matrix_recordings(*, min_frames: int = 0, max_frames: int = 6, valid: bool = True) -> st.SearchStrategy[Recording]:
    """Typed recordings; ``valid=False`` breaks one rule (and keeps them encodable)."""
    if not isinstance(min_frames, int) or not isinstance(max_frames, int) or not 0 <= min_frames <= max_frames:
        raise InvalidArgument(f"need 0 <= min_frames <= max_frames, got {min_frames!r}, {max_frames!r}")
    if valid:
        return _valid_recordings(min_frames, max_frames)
    return _invalid_recordings(min_frames, max_frames)


@st.composite
def matrix_files(draw: st.DrawFn, profile: str | None = None, *, min_frames: int = 0, max_frames: int = 6,
                 valid: bool = True) -> tuple[bytes, str]:
    """``(bytes, profile)``: a recording encoded under ``profile`` (drawn if None)."""
    if profile is not None and profile not in PROFILES:
        raise InvalidArgument(f"profile={profile!r} must be one of {PROFILES}")
    prof = profile if profile is not None else draw(st.sampled_from(PROFILES))
    rec = draw(matrix_recordings(min_frames=min_frames, max_frames=max_frames, valid=valid))
    return encode(rec, profile=prof), prof


def matrix_cases(*, min_frames: int = 0, max_frames: int = 6) -> st.SearchStrategy[dict[str, Any]]:
    """The case of a valid recording from ``matrix_recordings`` (what a writer is asked to write)."""
    return matrix_recordings(min_frames=min_frames, max_frames=max_frames).map(lambda rec: to_case(rec, canonical=True))
