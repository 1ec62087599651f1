"""The Matrix-SMT seed corpus, built by the reference encoder.

``seeds()`` yields every corpus file with what a correct checker must say about
it under each profile. The expectations are written here by hand, from what
each file was built to break (and the profile decisions in ``_rules``), not
computed by the checker: ``tools/make_corpus.py`` writes the files and
``corpus/matrix-smt/manifest.json``, and the test suite checks the checker
against them.

Valid files: the base recording in each profile's encoding. Invalid files: each
named after the one rule it breaks (warning- and info-level rules included;
their expected verdict is then ``valid``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from recspec.formats import HeaderDamage, Seed
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import (
    CommandKind,
    DebugCommand,
    Frame,
    Geometry,
    Presence,
    Recording,
    SceneObject,
    State,
    encode,
    to_document,
)

__all__ = ["BASE", "DAMAGED_HEADERS", "Seed", "seeds"]

VALID = "valid"
INVALID = "invalid"
MALFORMED = "malformed"


_Q0 = (0.0, 0.0, 0.0, 1.0)
_Q45 = (0.0, 0.3826834323650898, 0.0, 0.9238795325112867)  # 45 degrees about Y

BASE = Recording(
    objects=(
        SceneObject(0, "UAV-With-Lidar", Geometry.BOX, (0.0, 1.0, 0.0), False, half_dimentions=(0.15, 0.075, 0.15)),
        SceneObject(1, "ball", Geometry.SPHERE, (0.0, 0.5, 1.0), False, radius=0.4),
        SceneObject(2, "pill", Geometry.CAPSULE, (1.0, 0.5, 0.0), False, radius=0.5, half_height=0.5),
        SceneObject(12, "Convex", Geometry.CONVEX, (1.0, 0.0, 0.0), True,
                    vertices=((0.0, 1.0, 0.0), (-1.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (0.0, 0.0, 1.0))),
    ),
    frames=(
        Frame(0.05, (
            State(0, Presence.INSTANTIATED, "md", (-4.9, 0.43, 0.24), _Q0),
            State(1, Presence.INSTANTIATED, "md", (1.0, 1.5, 0.0), _Q0),
            State(2, Presence.INSTANTIATED, "md", (0.5, 1.5, 0.5), _Q45),
            State(12, Presence.INSTANTIATED, "static_md", (87.1, 1.0, 115.5), _Q45),
        )),
        Frame(0.1, (
            State(0, Presence.INSTANTIATED, "md", (-4.8, 0.45, 0.25), _Q45),
            State(1, Presence.INSTANTIATED, "md", (1.0, 1.4, 0.0), _Q0),
            State(2, Presence.INSTANTIATED, "md", (0.5, 1.5, 0.6), _Q45),
            State(12, Presence.DESTROYED, "", (0.0, 0.0, 0.0), _Q0),
        ), (
            DebugCommand(CommandKind.VECTOR, (0.0, 1.0, 0.0), vector=(0.0, 2.0, 0.0), color=(1.0, 0.0, 0.0),
                         opacity=1.0),
            DebugCommand(CommandKind.RAY, (0.0, 1.0, 0.0), end=(3.0, 1.0, 0.0)),
            DebugCommand(CommandKind.SPHERE, (1.0, 1.0, 1.0), radius=0.25, opacity=0.5),
            DebugCommand(CommandKind.CUBE, (0.0, 16.5, 0.0), half_size=(100.0, 16.5, 150.5),
                         rotation=(1.0, 0.0, 0.0, 0.0), color=(1.0, 0.0, 0.0), opacity=0.05),
        )),
        Frame(0.15, (
            State(0, Presence.INSTANTIATED, "md", (-4.7, 0.47, 0.26), _Q0),
            State(1, Presence.INSTANTIATED, "md", (1.0, 1.3, 0.0), _Q45),
            State(2, Presence.INSTANTIATED, "md", (0.5, 1.5, 0.7), _Q0),
        )),
    ),
)


def _both(verdict: str, *rules: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {"spec": (verdict, rules), "compat": (verdict, rules)}


def _edit(path: tuple[Any, ...], change: Callable[[Any], Any], profile: str = "spec",
          rec: Recording = BASE) -> bytes:
    """Encode ``rec``, replace the value at ``path`` (keys and indexes) with
    ``change(old)``, and return the bytes. ``change`` returning ``_DELETE`` drops it."""
    doc = to_document(rec, profile)
    _replace(doc, path, change)
    return b.encode_document(doc)


_DELETE = object()


def _replace(node: Any, path: tuple[Any, ...], change: Callable[[Any], Any]) -> None:
    key, rest = path[0], path[1:]
    i = key if isinstance(key, int) else len(node.keys) - 1 - node.keys[::-1].index(key)
    if rest:
        _replace(node.values[i], rest, change)
        return
    new = change(node.values[i])
    if new is _DELETE:
        del node.keys[i], node.values[i]
    else:
        node.values[i] = new
    node._map = None


def _renamed(node_path: tuple[Any, ...], old: str, new: str, rec: Recording = BASE) -> bytes:
    """Encode ``rec`` (spec) with the key ``old`` of the document at ``node_path`` renamed ``new``."""
    doc = to_document(rec, "spec")
    node: Any = doc
    for k in node_path:
        node = node.values[k] if isinstance(k, int) else node.get(k)
    node.keys[node.keys.index(old)] = new
    node._map = None
    return b.encode_document(doc)


def _put(node_path: tuple[Any, ...], key: str, value: Any, rec: Recording = BASE) -> bytes:
    """Encode ``rec`` with ``key: value`` appended to the document at ``node_path``."""
    doc = to_document(rec, "spec")
    node: Any = doc
    for k in node_path:
        node = node.values[k] if isinstance(k, int) else node.get(k)
    node.keys.append(key)
    node.values.append(value)
    node._map = None
    return b.encode_document(doc)


def _patch(data: bytes, find: bytes, replace: bytes, *, occurrence: int = 0) -> bytes:
    at = -1
    for _ in range(occurrence + 1):
        at = data.index(find, at + 1)
    return data[:at] + replace + data[at + len(find):]


def _frames(path: int, *rest: Any) -> tuple[Any, ...]:
    return ("frames", path, *rest)


def _nested(depth: int) -> b.Document:
    doc = b.Document.of(("leaf", 1))
    for _ in range(depth - 1):
        doc = b.Document.of(("d", doc))
    return doc


def seeds() -> Iterator[Seed]:
    spec = encode(BASE, profile="spec")
    compat = encode(BASE, profile="compat")
    yield Seed("valid/spec.bson", spec, expect=_both(VALID),
               description="every geometry, a destroyed object, one debug command of each kind; the spec encoding")
    yield Seed("valid/compat.bson", compat, expect={
        "spec": (INVALID, ("MATRIX-FRAME-001", "MATRIX-FRAME-003", "MATRIX-STATE-003")),
        "compat": (VALID, ("MATRIX-FRAME-005",))},
        description="the same recording as the producer writes it: sorted keys, 'time', 'destroyed', cmd '' "
                    "in the frames without commands, whole numbers as int32")
    empty = Recording(BASE.objects, ())
    yield Seed("valid/no-frames.bson", encode(empty, profile="spec"), expect=_both(VALID),
               description="objects and an empty frames array")

    # --- BSON, structural ----------------------------------------------------------------
    yield Seed("invalid/MATRIX-BSON-001.bson", _patch(spec, b"\x04p\x00\x26\x00\x00\x00", b"\x04p\x00\x25\x00\x00\x00"),
               expect=_both(MALFORMED, "MATRIX-BSON-001"),
               description="frames[0].states[0].p declares 37 bytes for its 38: the third double runs past the end")
    yield Seed("invalid/MATRIX-BSON-002.bson", _patch(spec, b"\x02name\x00", b"\x14name\x00"),
               expect=_both(MALFORMED, "MATRIX-BSON-002"), description="objects[0].name has element type 0x14")
    yield Seed("invalid/MATRIX-BSON-003.bson", _patch(spec, b"\x08static\x00\x00", b"\x08static\x00\x02"),
               expect=_both(MALFORMED, "MATRIX-BSON-003"), description="objects[0].static is the byte 0x02")
    yield Seed("invalid/MATRIX-BSON-004.bson", _patch(spec, b"UAV-With-Lidar\x00", b"UAV-With-LidarX"),
               expect=_both(MALFORMED, "MATRIX-BSON-004"), description="objects[0].name does not end with NUL")
    yield Seed("invalid/MATRIX-BSON-005.bson", _patch(spec, b"UAV-With-Lidar\x00", b"UAV-With-Lida\xff\x00"),
               expect=_both(MALFORMED, "MATRIX-BSON-005"), description="objects[0].name holds the byte 0xFF")
    yield Seed("invalid/MATRIX-BSON-006.bson", spec + b"\x05\x00\x00\x00\x00",
               expect=_both(MALFORMED, "MATRIX-BSON-006"), description="an empty second document after the first")
    yield Seed("invalid/MATRIX-BSON-007.bson", spec[:len(spec) * 2 // 3],
               expect=_both(MALFORMED, "MATRIX-BSON-007"), description="the file cut at two thirds, inside frames[1]")
    degenerate = b.Array(["0", "1", "3", "2"], list(to_document(BASE, "spec").get("frames").values[0].get("states")))
    yield Seed("invalid/MATRIX-BSON-008.bson", _edit(_frames(0, "states"), lambda old: degenerate),
               expect=_both(VALID, "MATRIX-BSON-008"), description="frames[0].states has the keys 0, 1, 3, 2")
    yield Seed("invalid/MATRIX-BSON-009.bson", _put(("frames", 0, "states", 1), "m", "again"),
               expect={"spec": (INVALID, ("MATRIX-BSON-009",)), "compat": (VALID, ("MATRIX-BSON-009",))},
               description="frames[0].states[1] has the key m twice")
    yield Seed("invalid/MATRIX-LIMIT-001.bson", _put((), "extra", _nested(101)),
               expect=_both(MALFORMED, "MATRIX-LIMIT-001"),
               description="a top-level value nested 101 documents deep (recspec reads 100)")
    # --- the document ---------------------------------------------------------------------
    yield Seed("invalid/MATRIX-DOC-001.bson", b.encode_document(b.Document.of(
        ("objects", to_document(BASE).get("objects")))), expect=_both(INVALID, "MATRIX-DOC-001"),
               description="no frames array")
    yield Seed("invalid/MATRIX-DOC-002.bson", _put(("objects", 0), "mass", 1.5), expect=_both(VALID),
               description="objects[0] has a key the document does not define (an info finding)")
    yield Seed("invalid/MATRIX-NUM-001.bson", _edit(_frames(0, "states", 0, "p", 1), lambda old: "0.43"),
               expect=_both(INVALID, "MATRIX-NUM-001"), description="frames[0].states[0].p[1] is a string")
    yield Seed("invalid/MATRIX-NUM-002.bson", _edit(_frames(2, "states", 2, "p", 0), lambda old: float("nan")),
               expect=_both(INVALID, "MATRIX-NUM-002"), description="frames[2].states[2].p[0] is NaN")
    # --- objects ---------------------------------------------------------------------------
    yield Seed("invalid/MATRIX-OBJ-001.bson", _edit(("objects", 1, "name"), lambda old: _DELETE),
               expect=_both(INVALID, "MATRIX-OBJ-001"), description="objects[1] has no name")
    yield Seed("invalid/MATRIX-OBJ-002.bson", _edit(("objects", 1, "radius"), lambda old: 0.0),
               expect=_both(INVALID, "MATRIX-OBJ-002"), description="the sphere objects[1] has radius 0")
    twin = b.Document.of(("id", 1), ("name", "twin"), ("color", b.Array.of_values([0.0, 0.0, 1.0])),
                         ("static", False), ("type", "sphere"), ("radius", 1.0))
    yield Seed("invalid/MATRIX-OBJ-003.bson",
               _edit(("objects",), lambda arr: b.Array.of_values([*arr.values, twin])),
               expect=_both(INVALID, "MATRIX-OBJ-003"), description="objects[4] repeats the id 1 of objects[1]")
    flat = b.Array.of_values([b.Array.of_values([x, 0.0, z]) for x, z in ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0),
                                                                          (1.0, 1.0))])
    yield Seed("invalid/MATRIX-OBJ-004.bson", _edit(("objects", 3, "vertices"), lambda old: flat),
               expect=_both(INVALID, "MATRIX-OBJ-004"), description="the convex objects[3] is four points in y = 0")
    yield Seed("invalid/MATRIX-OBJ-005.bson", _edit(("objects", 0, "color", 1), lambda old: 1.5),
               expect=_both(INVALID, "MATRIX-OBJ-005"), description="objects[0].color[1] is 1.5")
    yield Seed("invalid/MATRIX-OBJ-006.bson", _edit(("objects", 3, "static"), lambda old: 1),
               expect=_both(VALID, "MATRIX-OBJ-006"), description="objects[3].static is the int32 1")
    # --- frames -----------------------------------------------------------------------------
    yield Seed("invalid/MATRIX-FRAME-001.bson", _edit(_frames(1, "t"), lambda old: _DELETE),
               expect=_both(INVALID, "MATRIX-FRAME-001"), description="frames[1] has no time")
    yield Seed("invalid/MATRIX-FRAME-005.bson", _renamed(("frames", 1), "t", "time"),
               expect={"spec": (INVALID, ("MATRIX-FRAME-001",)), "compat": (VALID, ("MATRIX-FRAME-005",))},
               description="frames[1] stores its time under 'time', which the viewer does not read")
    yield Seed("invalid/MATRIX-FRAME-002.bson", _edit(_frames(2, "t"), lambda old: 0.075),
               expect=_both(INVALID, "MATRIX-FRAME-002"), description="frames[2].t 0.075 is before frames[1].t 0.1")
    # the rule's state after its first finding: a later frame is judged against the latest time so far (0.1),
    # not the frame before it (0.075)
    third = BASE.frames[2]
    behind = Recording(BASE.objects, (*BASE.frames[:2], Frame(0.075, third.states), Frame(0.09, third.states)))
    yield Seed("invalid/MATRIX-FRAME-002-twice.bson", encode(behind, profile="spec"),
               expect=_both(INVALID, "MATRIX-FRAME-002"),
               description="frames[2].t 0.075 and frames[3].t 0.09 are both before frames[1].t 0.1 (frames[3] is "
                           "after frames[2])")
    yield Seed("invalid/MATRIX-FRAME-003.bson", _edit(_frames(0, "cmd"), lambda old: 0),
               expect=_both(INVALID, "MATRIX-FRAME-003"), description="frames[0].cmd is the int32 0")
    yield Seed("invalid/MATRIX-FRAME-004.bson", _edit(_frames(2, "states"), lambda old: _DELETE),
               expect=_both(INVALID, "MATRIX-FRAME-004"), description="frames[2] has no states")
    # --- states -----------------------------------------------------------------------------
    yield Seed("invalid/MATRIX-STATE-001.bson", _edit(_frames(0, "states", 1, "m"), lambda old: _DELETE),
               expect=_both(INVALID, "MATRIX-STATE-001"), description="frames[0].states[1] has no m")
    yield Seed("invalid/MATRIX-STATE-002.bson", _edit(_frames(0, "states", 1, "id"), lambda old: 7),
               expect=_both(INVALID, "MATRIX-STATE-002"), description="frames[0].states[1].id 7 names no object")
    yield Seed("invalid/MATRIX-STATE-003.bson", _edit(_frames(0, "states", 1, "i"), lambda old: "x"),
               expect=_both(INVALID, "MATRIX-STATE-003"), description="frames[0].states[1].i is 'x'")
    yield Seed("invalid/MATRIX-STATE-004.bson", _edit(_frames(2, "states", 2, "id"), lambda old: 12),
               expect=_both(INVALID, "MATRIX-STATE-004"),
               description="frames[2].states[2] moves object 12, destroyed in frames[1]")
    yield Seed("invalid/MATRIX-STATE-005.bson", _edit(_frames(2, "states", 2, "id"), lambda old: 1),
               expect=_both(VALID, "MATRIX-STATE-005"), description="frames[2] has two states for object 1")
    yield Seed("invalid/MATRIX-QUAT-001.bson", _edit(_frames(1, "states", 1, "r", 3), lambda old: 2.0),
               expect=_both(INVALID, "MATRIX-QUAT-001"), description="frames[1].states[1].r is (0, 0, 0, 2)")
    # --- debug commands ---------------------------------------------------------------------
    yield Seed("invalid/MATRIX-CMD-001.bson", _edit(_frames(1, "cmd", 2, "t"), lambda old: "q"),
               expect=_both(INVALID, "MATRIX-CMD-001"), description="frames[1].cmd[2].t is 'q'")
    yield Seed("invalid/MATRIX-CMD-002.bson", _edit(_frames(1, "cmd", 2, "sr"), lambda old: -1.0),
               expect=_both(INVALID, "MATRIX-CMD-002"), description="the sphere frames[1].cmd[2] has sr -1")
    yield Seed("invalid/MATRIX-CMD-003.bson", _edit(_frames(1, "cmd", 0, "o"), lambda old: 2.0),
               expect={"spec": (INVALID, ("MATRIX-CMD-003",)), "compat": (VALID, ("MATRIX-CMD-003",))},
               description="frames[1].cmd[0].o is 2 (opacity outside [0, 1])")
    yield Seed("invalid/MATRIX-CMD-004.bson", _edit(_frames(1, "cmd", 1, "ex"), lambda old: 0.0),
               expect=_both(VALID, "MATRIX-CMD-004"),
               description="the ray frames[1].cmd[1] ends at its origin (0, 1, 0): e is an absolute end point")


#: Valid seeds with a damaged header: no sniffer recognises the first bytes, and the extension names the
#: format, whose header rule reports the bytes found (``corpus/matrix-smt/damaged/``).
DAMAGED_HEADERS: tuple[HeaderDamage, ...] = (
    HeaderDamage("damaged/type-damaged.bson", "valid/spec.bson", 4, b"\xcb",
                 {"spec": ("malformed", ("MATRIX-BSON-002",)), "compat": ("malformed", ("MATRIX-BSON-002",))},
                 "the first element's type code 0x04 (array) made 0xcb, no BSON type"),
)
