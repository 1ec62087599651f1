"""Checking one Matrix-SMT recording: the streaming walk and the rules.

The walk never holds the whole document. ``RecordingWalker.sections`` skims the
top level (seeking past the frames array by its length), every top-level value
except the frames array is decoded and checked first (so ``objects`` is known
whatever the key order; the producer writes ``frames`` first), then the frames
are streamed one at a time. The state kept across frames is the object table,
the set of destroyed ids and the previous frame's time.

Frames in the document's canonical shape (spec key order, doubles, ``"i"`` /
``"d"``, debug commands of doubles), and under compat frames in the producer's
layout, go through ``_fastpath``, which matches a whole state (and a whole
command) with one regular expression; anything else, and any frame where the
fast path sees something a rule could report, is decoded and checked in full.
The objects array in the spec encoder's shape is read the same way
(``_fastpath.objects``), unless the caller has it decoded already. After a frame
the full walk judged, the frames that repeat its bytes but for their time are
counted in bulk once its findings would only be counted (``_repeats``). Both paths
give the same findings (property tests hold them to it; ``fast_path=False``
turns every fast path off).
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from itertools import compress, repeat
from typing import Any, BinaryIO, cast

from recspec.errors import DecodeError, Truncated
from recspec.reference.matrix_smt import (
    CMD_DEFAULTS,
    MAX_BUFFERED_SIZE,
    T_ARRAY,
    T_DOCUMENT,
    Array,
    Document,
    Entry,
    Int64,
    RecordingWalker,
    Section,
    decode_raw,
    type_name,
)
from recspec.report import FileReport, Verdict
from recspec.trace import enabled as trace_enabled

from .._sink import FindingSink
from . import _fastpath, _repeats, _runs
from ._rules import CMD_COMMON, CMD_NEEDS, CMD_STYLE, QUAT_TOLERANCE, RULES_BY_ID
from ._sniff import sniff
from ._trace import MatrixTrace

__all__ = ["check_stream", "check_stream_and_full_walk", "sniff"]

_NUMBER_TYPES = (float, int, Int64)
_FLOAT_ONLY = frozenset((float,))
#: The classes of the values number() takes without a finding (when finite).
_NUMBER_CLASSES = frozenset(_NUMBER_TYPES)

TOP_KEYS = ("objects", "frames")
OBJECT_KEYS = frozenset(("id", "name", "color", "static", "type"))
GEOMETRY_KEYS = {"box": ("half_dimentions",), "sphere": ("radius",), "capsule": ("radius", "half_height"),
                 "convex": ("vertices",)}
ALL_GEOMETRY_KEYS = frozenset(k for ks in GEOMETRY_KEYS.values() for k in ks)
FRAME_KEYS = frozenset(("states", "cmd", "t", "time"))
STATE_KEYS = frozenset(("id", "i", "m", "p", "r"))
#: The keys a state and an object must have, in the order their absence is reported.
_STATE_REQUIRED_ORDER = ("id", "i", "m", "p", "r")
_OBJECT_REQUIRED_ORDER = ("id", "name", "type", "color")
_OBJECT_REQUIRED = frozenset(_OBJECT_REQUIRED_ORDER)
FLAGS = {"spec": {"i": False, "d": True},
         "compat": {"i": False, "d": True, "instantiated": False, "destroyed": True}}
PROGRESS_EVERY = 4096  # frames
#: The flags every profile allows ("i", "d"): a state with one of them breaks no profile's flag rule.
_FLAGS_EVERYWHERE = frozenset.intersection(*map(frozenset, FLAGS.values()))


def _where(doc: Document, key: str, default: int | None) -> int | None:
    off = doc.offset_of(key)
    return default if off is None else off


#: An offset, or a call that finds it (``functools.partial(_where, ...)``): the rules that
#: take one look it up only to report a finding, so a value that breaks no rule costs no search.
LazyOffset = int | None | Callable[[], int | None]


def _resolve(off: LazyOffset) -> int | None:
    return off() if callable(off) else off


class _Walk:
    """The rules over one recording; ``sink`` collects the findings."""

    def __init__(self, sink: FindingSink, profile: str) -> None:
        self.sink = sink
        self.add = sink.add
        # The walk judges every profile at once (FindingSink): where the profiles read a value differently
        # (the time key, an empty cmd, the instance flags, a command's missing fields) each finding is
        # tagged with the profile it belongs to (only=...), and state that depends on the reading is kept
        # per profile (destroyed ids).
        self.profile = profile
        self.objects: dict[int, str] = {}  # id -> geometry type
        self.object_entries = 0
        self.objects_known = True  # False when the objects array could not be read: ids are not judged
        #: ids destroyed under compat ("d" or "destroyed"); the fast paths read and update it
        self.destroyed: set[int] = set()
        #: ids destroyed under spec ("d" only): always a subset of ``destroyed``
        self.destroyed_spec: set[int] = set()
        self.frames = 0
        self.states = 0
        self.commands = 0
        self.prev_time: float | None = None
        self.last_time: float | None = None
        self.fast_frames = 0
        self.trace: MatrixTrace | None = None

    def copy(self, sink: FindingSink) -> _Walk:
        """A walk that goes on from this one's state on its own, into ``sink``."""
        twin = copy.copy(self)
        twin.sink, twin.add = sink, sink.add
        twin.objects, twin.destroyed, twin.destroyed_spec = dict(self.objects), set(self.destroyed), \
            set(self.destroyed_spec)
        return twin

    #: Pass by a subtree in which the decoder saw no irregular key (``Document.regular``); the
    #: tests turn it off to compare with the walk over every document.
    trust_regular = True

    # -- generic BSON (duplicate keys, array keys), everywhere
    def generic(self, value: Any, path: str, offset: int | None) -> None:
        if not isinstance(value, Document) or (value.regular and self.trust_regular):
            return
        if isinstance(value, Array):
            if not value.regular_keys():
                expected = [str(i) for i in range(len(value.keys))]
                bad = next(i for i, (k, e) in enumerate(zip(value.keys, expected)) if k != e)
                off = value.offsets[bad] if value.offsets else offset
                self.add("MATRIX-BSON-008", f"array key {value.keys[bad]!r} at index {bad}, expected {expected[bad]!r}",
                         off, None, path, expected[bad], value.keys[bad])
        elif len(value.map()) != len(value.keys):
            seen: set[str] = set()
            for i, k in enumerate(value.keys):
                if k in seen:
                    off = value.offsets[i] if value.offsets else offset
                    self.add("MATRIX-BSON-009", f"key {k!r} appears again in {path or 'the top-level document'}; a "
                             "dict-building reader keeps only the last", off, None, _join(path, k), None, k)
                seen.add(k)
        values = value.values
        offs = value.offsets
        # the children that are documents, found in C (most documents are leaves: no loop in Python)
        for i in compress(range(len(values)), map(isinstance, values, repeat(Document))):
            self.generic(values[i], _child(path, value, i), offs[i] if offs else offset)

    # -- numbers
    def number(self, v: Any, path: str, off: LazyOffset) -> float | None:
        t = type(v)
        if t is float:
            if v - v != 0.0:
                self.add("MATRIX-NUM-002", f"{path} is {v!r}, not a finite number", _resolve(off), None, path, None,
                         repr(v))
                return None
            return cast(float, v)  # type(v) is float
        if t is int or t is Int64:
            return float(v)
        self.add("MATRIX-NUM-001", f"{path} is a {type_name(v)}, not an int32, int64 or double", _resolve(off), None,
                 path, "number", type_name(v))
        return None

    def vector(self, v: Any, n: int, path: str, off: LazyOffset, rule: str) -> list[float] | None:
        """``n`` finite numbers, or None (reported under ``rule`` or NUM-*)."""
        if not isinstance(v, Array) or len(v.keys) != n:  # (v.keys: no call of Document.__len__)
            what = f"an array of {len(v)}" if isinstance(v, Array) else f"a {type_name(v)}"
            self.add(rule, f"{path} is {what}, not an array of {n} numbers", _resolve(off), None, path, n, what)
            return None
        if {*map(type, v.values)} <= _FLOAT_ONLY and all(map(math.isfinite, v.values)):
            return list(v.values)  # finite doubles only: what the loop returns, with no finding (in C)
        out = []
        for i, x in enumerate(v.values):
            num = self.number(x, f"{path}[{i}]", v.offsets[i] if v.offsets else off)
            if num is None:
                return None
            out.append(num)
        return out

    def unknown_keys(self, doc: Document, known: frozenset[str], path: str, what: str) -> None:
        if known.issuperset(doc.keys):
            return  # every key known (in C; the loop finds the others and their places)
        for i, k in enumerate(doc.keys):
            if k not in known:
                self.add("MATRIX-DOC-002", f"{what} key {k!r} is not defined by the document (ignored)",
                         doc.offsets[i] if doc.offsets else None, None, _join(path, k), None, k)

    # -- the top level
    def top_keys(self, sections: list[Section], paths: list[str]) -> None:
        seen: set[str] = set()
        for s, path in zip(sections, paths):
            if s.key in seen:
                self.add("MATRIX-BSON-009", f"key {s.key!r} appears again in the top-level document; a "
                         "dict-building reader keeps only the last", s.offset, None, path, None, s.key)
            seen.add(s.key)
            if s.key not in TOP_KEYS:
                self.add("MATRIX-DOC-002", f"top-level key {s.key!r} is not defined by the document (ignored)",
                         s.offset, None, path, None, s.key)

    # -- objects
    def objects_array(self, arr: Any, s: Section) -> None:
        if not isinstance(arr, Array):
            self.add("MATRIX-DOC-001", f"objects is a {type_name(arr)}, not an array", s.offset, None, "objects",
                     "array", type_name(arr))
            return
        self.generic(arr, "objects", s.offset)
        self.object_entries = len(arr)
        for i, o in enumerate(arr.values):
            self.scene_object(o, f"objects[{i}]", arr.offsets[i] if arr.offsets else s.offset)

    def scene_object(self, o: Any, path: str, off: int | None) -> None:
        add = self.add
        if not isinstance(o, Document) or isinstance(o, Array):
            add("MATRIX-OBJ-001", f"{path} is a {type_name(o)}, not a document", off, None, path, "document",
                type_name(o))
            return
        m = o.map()
        if not m.keys() >= _OBJECT_REQUIRED:
            for key in _OBJECT_REQUIRED_ORDER:
                if key not in m:
                    add("MATRIX-OBJ-001", f"{path} has no {key!r}", off, None, path, key, None)
        oid: Any = _whole_id(m.get("id"))  # an int, or None until the stored value's type is reported
        oid_ok = False
        if "id" in m:
            if oid is None:
                oid = m.get("id")
                add("MATRIX-OBJ-003", f"{path}.id is a {type_name(oid)}, not an integer", _where(o, "id", off), None,
                    path + ".id", "int", type_name(oid))
            elif oid < 0:
                add("MATRIX-OBJ-003", f"{path}.id is {oid}; ids are >= 0 (the viewer reserves -1)",
                    _where(o, "id", off), None, path + ".id", ">= 0", int(oid))
            elif oid in self.objects:
                add("MATRIX-OBJ-003", f"{path}.id {oid} is the id of an earlier object", _where(o, "id", off), None,
                    path + ".id", None, int(oid))
            else:
                oid_ok = True
        name = m.get("name")
        if "name" in m and not isinstance(name, str):
            add("MATRIX-OBJ-001", f"{path}.name is a {type_name(name)}, not a string", _where(o, "name", off), None,
                path + ".name", "string", type_name(name))
        gtype = m.get("type")
        needs: tuple[str, ...] = ()
        if "type" in m:
            if not isinstance(gtype, str):
                add("MATRIX-OBJ-001", f"{path}.type is a {type_name(gtype)}, not a string", _where(o, "type", off),
                    None, path + ".type", "string", type_name(gtype))
            elif gtype not in GEOMETRY_KEYS:
                add("MATRIX-OBJ-002", f"{path}.type is {gtype!r}, not box, sphere, capsule or convex",
                    _where(o, "type", off), None, path + ".type", "box|sphere|capsule|convex", gtype)
            else:
                needs = GEOMETRY_KEYS[gtype]
        if "color" in m:
            col = self.vector(m["color"], 3, path + ".color", partial(_where, o, "color", off), "MATRIX-OBJ-001")
            if col is not None:
                for i, c in enumerate(col):
                    if not 0.0 <= c <= 1.0:
                        add("MATRIX-OBJ-005", f"{path}.color[{i}] is {c!r}, outside [0, 1]", _where(o, "color", off),
                            None, f"{path}.color[{i}]", "[0, 1]", c)
        if "static" in m and type(m["static"]) is not bool:
            add("MATRIX-OBJ-006", f"{path}.static is a {type_name(m['static'])}, not a boolean",
                _where(o, "static", off), None, path + ".static", "bool", type_name(m["static"]))
        for key in needs:
            at = partial(_where, o, key, off)
            if key not in m:
                add("MATRIX-OBJ-002", f"{path} is a {gtype} without {key!r}", off, None, path, key, None)
            elif key == "half_dimentions":
                hd = self.vector(m[key], 3, f"{path}.{key}", at, "MATRIX-OBJ-002")
                if hd is not None and min(hd) <= 0:
                    add("MATRIX-OBJ-002", f"{path}.half_dimentions {hd} has a size <= 0", at(), None,
                        f"{path}.{key}", "> 0", hd)
            elif key == "vertices":
                self.vertices(m[key], f"{path}.vertices", at())
            else:
                r = self.number(m[key], f"{path}.{key}", at)
                if r is not None and r <= 0:
                    add("MATRIX-OBJ-002", f"{path}.{key} is {r!r}, not > 0", at(), None, f"{path}.{key}", "> 0", r)
        known = OBJECT_KEYS | frozenset(needs)
        for i, k in (() if known.issuperset(o.keys) else enumerate(o.keys)):
            if k not in known:
                extra = " (a geometry field of another type)" if k in ALL_GEOMETRY_KEYS else ""
                add("MATRIX-DOC-002", f"object key {k!r} is not used by a {gtype}{extra} (ignored)"
                    if extra else f"object key {k!r} is not defined by the document (ignored)",
                    o.offsets[i] if o.offsets else off, None, _join(path, k), None, k)
        if oid_ok:
            self.objects[int(oid)] = gtype if isinstance(gtype, str) else ""
            if self.trace is not None and isinstance(name, str):
                self.trace.names[int(oid)] = name

    def vertices(self, vs: Any, path: str, off: int | None) -> None:
        if not isinstance(vs, Array):
            self.add("MATRIX-OBJ-004", f"{path} is a {type_name(vs)}, not an array of points", off, None, path,
                     "array", type_name(vs))
            return
        points = []
        for i, v in enumerate(vs.values):
            p = self.vector(v, 3, f"{path}[{i}]", vs.offsets[i] if vs.offsets else off, "MATRIX-OBJ-004")
            if p is None:
                return
            points.append(p)
        if len(points) < 4:
            self.add("MATRIX-OBJ-004", f"{path} has {len(points)} vertices; a convex hull needs at least 4", off,
                     None, path, ">= 4", len(points))
        elif not _spans_volume(points):
            self.add("MATRIX-OBJ-004", f"{path}: all {len(points)} vertices lie in one plane; the hull has no volume",
                     off, None, path, "non-coplanar", "coplanar")

    # -- frames
    def frame(self, index: int, key: str, offset: int, value: Any) -> None:
        path = f"frames[{index}]"
        add = self.add
        if self.trace is not None:
            self.trace.begin(index, self.states)
        self.frames += 1
        if key != str(index):
            add("MATRIX-BSON-008", f"array key {key!r} at index {index}, expected {str(index)!r}", offset, None,
                "frames", str(index), key)
        if not isinstance(value, Document) or isinstance(value, Array):
            add("MATRIX-FRAME-004", f"{path} is a {type_name(value)}, not a document", offset, None, path, "document",
                type_name(value))
            return
        self.generic(value, path, offset)
        m = value.map()
        # time
        if "t" in m:
            tkey = "t"
        elif "time" in m:
            tkey = "time"
            at = _where(value, "time", offset)
            add("MATRIX-FRAME-001", f"{path} stores its time under 'time' (the producer's key); the document's "
                "key is 't'", at, None, path + ".time", "t", "time", only="spec")
            add("MATRIX-FRAME-005", f"{path} stores its time under 'time', which the viewer does not read (it "
                "shows 0)", at, None, path + ".time", "t", "time")
        else:
            tkey = ""
            add("MATRIX-FRAME-001", f"{path} has no time ('t')", offset, None, path, "t", None)
        if tkey:
            at = _where(value, tkey, offset)
            t = self.number(m[tkey], f"{path}.{tkey}", at)
            if t is not None:
                self.time(t, f"{path}.{tkey}", at)
        # states
        states = m.get("states")
        if not isinstance(states, Array):
            what = "missing" if "states" not in m else f"a {type_name(states)}"
            add("MATRIX-FRAME-004", f"{path}.states is {what}, not an array", _where(value, "states", offset), None,
                path + ".states", "array", what)
        else:
            seen: set[int] = set()
            offs = states.offsets
            for i, s in enumerate(states.values):
                self.state(s, f"{path}.states[{i}]", offs[i] if offs else offset, seen)
        # debug commands
        cmd = m.get("cmd", _MISSING)
        if isinstance(cmd, Array):
            offs = cmd.offsets
            for i, c in enumerate(cmd.values):
                self.command(c, f"{path}.cmd[{i}]", offs[i] if offs else offset)
        elif cmd is _MISSING or cmd == "" or cmd is None:  # compat: an empty list
            what = "missing" if cmd is _MISSING else ("the empty string" if cmd == "" else "null")
            add("MATRIX-FRAME-003", f"{path}.cmd is {what}, not an array (the producer's habit; the document "
                "says an array)", _where(value, "cmd", offset), None, path + ".cmd", "array", what, only="spec")
        else:
            add("MATRIX-FRAME-003", f"{path}.cmd is a {type_name(cmd)}, not an array", _where(value, "cmd", offset),
                None, path + ".cmd", "array", type_name(cmd))
        self.unknown_keys(value, FRAME_KEYS, path, "frame")

    def time(self, t: float, path: str, at: int | None) -> None:
        if t < 0:
            self.add("MATRIX-FRAME-002", f"{path} is {t!r}, before 0", at, None, path, ">= 0", t)
        prev = self.prev_time
        if prev is not None and t < prev:
            self.add("MATRIX-FRAME-002", f"{path} is {t!r}, before the previous frame's {prev!r}", at, None, path,
                     f">= {prev!r}", t)
        self.prev_time = t if prev is None or t > prev else prev
        self.last_time = t
        if self.trace is not None:
            self.trace.time(t)

    def state(self, s: Any, path: str, off: int | None, seen: set[int]) -> None:
        add = self.add
        self.states += 1
        if not isinstance(s, Document) or isinstance(s, Array):
            add("MATRIX-STATE-001", f"{path} is a {type_name(s)}, not a document", off, None, path, "document",
                type_name(s))
            return
        m = s.map()
        if not m.keys() >= STATE_KEYS:
            for key in _STATE_REQUIRED_ORDER:
                if key not in m:
                    add("MATRIX-STATE-001", f"{path} has no {key!r}", off, None, path, key, None)
        sid = _whole_id(m.get("id"))
        if "id" in m and sid is None:
            sid = m.get("id")
            add("MATRIX-STATE-001", f"{path}.id is a {type_name(sid)}, not an integer", _where(s, "id", off), None,
                path + ".id", "int", type_name(sid))
            sid = None
        flag = m.get("i")
        destroys = destroys_spec = False
        if "i" in m:
            if not isinstance(flag, str):
                add("MATRIX-STATE-001", f"{path}.i is a {type_name(flag)}, not a string", _where(s, "i", off), None,
                    path + ".i", "string", type_name(flag))
            else:
                for profile, flags in () if flag in _FLAGS_EVERYWHERE else FLAGS.items():  # each profile's flags
                    if flag not in flags:
                        allowed = " or ".join(repr(k) for k in flags)
                        add("MATRIX-STATE-003", f"{path}.i is {flag!r}, not {allowed}", _where(s, "i", off), None,
                            path + ".i", allowed, flag, only=profile)
                destroys = FLAGS["compat"].get(flag, False)
                destroys_spec = FLAGS["spec"].get(flag, False)
        if "m" in m and not isinstance(m["m"], str):
            add("MATRIX-STATE-001", f"{path}.m is a {type_name(m['m'])}, not a string", _where(s, "m", off), None,
                path + ".m", "string", type_name(m["m"]))
        if "p" in m:
            p = self.vector(m["p"], 3, path + ".p", partial(_where, s, "p", off), "MATRIX-STATE-001")
            if p is not None and self.trace is not None and type(m.get("id")) in (int, Int64):
                self.trace.position(int(m["id"]), p)
        if "r" in m:
            at_r = partial(_where, s, "r", off)
            q = self.vector(m["r"], 4, path + ".r", at_r, "MATRIX-STATE-001")
            if q is not None:
                self.quaternion(q, path + ".r", at_r)
        if sid is not None:
            sid = int(sid)
            at = partial(_where, s, "id", off)
            if not self.objects_known:
                pass
            elif sid not in self.objects:
                add("MATRIX-STATE-002", f"{path}.id {sid} is not the id of an object", at(), None, path + ".id",
                    "an object id", sid)
            else:
                in_spec = sid in self.destroyed_spec  # implies sid in self.destroyed
                if sid in self.destroyed:
                    add("MATRIX-STATE-004", f"{path}.id {sid} refers to an object destroyed in an earlier state", at(),
                        None, path + ".id", None, sid, only=None if in_spec else "compat")
                elif destroys:
                    self.destroyed.add(sid)
                if not in_spec and destroys_spec:
                    self.destroyed_spec.add(sid)
            if sid in seen:
                add("MATRIX-STATE-005", f"{path}.id {sid} has a second state in this frame", at(), None, path + ".id",
                    None, sid)
            seen.add(sid)
        self.unknown_keys(s, STATE_KEYS, path, "state")

    def quaternion(self, q: list[float], path: str, at: LazyOffset, only: str | None = None) -> None:
        norm = math.hypot(*q)
        if not abs(norm - 1.0) <= QUAT_TOLERANCE:
            self.add("MATRIX-QUAT-001", f"{path} has length {norm!r}, not 1 (within {QUAT_TOLERANCE})",
                     _resolve(at), None, path, 1.0, norm, only=only)

    def command(self, c: Any, path: str, off: int | None) -> None:
        add = self.add
        self.commands += 1
        if not isinstance(c, Document) or isinstance(c, Array):
            add("MATRIX-CMD-001", f"{path} is a {type_name(c)}, not a document", off, None, path, "document",
                type_name(c))
            return
        m = c.map()
        kind = m.get("t")
        if not isinstance(kind, str) or kind not in CMD_NEEDS:
            what = f"{kind!r}" if isinstance(kind, str) else f"a {type_name(kind)}"
            add("MATRIX-CMD-001", f"{path}.t is {what}, not 'v', 'r', 's' or 'c'" if "t" in m else f"{path} has no 't'",
                _where(c, "t", off), None, path + ".t", "v|r|s|c", kind if isinstance(kind, str) else type_name(kind))
            return
        fields = CMD_COMMON + CMD_NEEDS[kind]
        got = [*map(m.get, fields, repeat(_MISSING))]
        if {*map(type, got)} <= _NUMBER_CLASSES and all(map(math.isfinite, got)):
            # every field there and a finite number: the values the loop below takes, and none of its
            # findings (found in C, with no call of number() per field)
            self.command_values(kind, dict(zip(fields, map(float, got))), path, off, c, m, None)
        else:
            self.command_fields(kind, fields, path, off, c, m)
        style: list[Any] = [*compress(map(m.get, CMD_STYLE), map(m.__contains__, CMD_STYLE))]
        if not ({*map(type, style)} <= _NUMBER_CLASSES and all(map(math.isfinite, style))
                and (not style or (min(style) >= 0.0 and max(style) <= 1.0))):
            for key in CMD_STYLE:  # (a style value that is no finite number in [0, 1] is among them)
                if key in m:
                    v = self.number(m[key], f"{path}.{key}", partial(_where, c, key, off))
                    if v is not None and not 0.0 <= v <= 1.0:
                        add("MATRIX-CMD-003", f"{path}.{key} is {v!r}, outside [0, 1]", _where(c, key, off), None,
                            f"{path}.{key}", "[0, 1]", v)
        self.unknown_keys(c, frozenset(("t", *CMD_COMMON, *CMD_NEEDS[kind], *CMD_STYLE)), path, "command")

    def command_fields(self, kind: str, fields: tuple[str, ...], path: str, off: int | None, c: Document,
                       m: dict[str, Any]) -> None:
        """A command's position and shape fields one by one, where one is missing or no finite number."""
        values: dict[str, float] = {}
        defaults: dict[str, float] = {}
        for key in fields:
            if key not in m:
                # spec: a missing field is an error; compat: the viewer's default stands in
                self.add("MATRIX-CMD-002", f"{path} ({_CMD_NAMES[kind]}) has no {key!r}", off, None, path, key,
                         None, only="spec")
                defaults[key] = CMD_DEFAULTS[key]
                continue
            v = self.number(m[key], f"{path}.{key}", partial(_where, c, key, off))
            if v is not None:
                values[key] = v
        if not defaults:
            self.command_values(kind, values, path, off, c, m, None)
        else:  # the checks that read the values, once per reading
            self.command_values(kind, values, path, off, c, m, "spec")
            self.command_values(kind, {**values, **defaults}, path, off, c, m, "compat")

    def command_values(self, kind: str, values: dict[str, float], path: str, off: int | None, c: Document,
                       m: dict[str, Any], only: str | None) -> None:
        """The rules on a command's numbers, under one profile's reading (``only``) or both (``None``)."""
        add = partial(self.add, only=only)
        for key in ("sr", "sx", "sy", "sz"):
            if key in CMD_NEEDS[kind] and key in values and values[key] <= 0 and key in m:
                add("MATRIX-CMD-002", f"{path}.{key} is {values[key]!r}, not > 0", _where(c, key, off), None,
                    f"{path}.{key}", "> 0", values[key])
        if kind == "c" and all(k in values for k in ("rx", "ry", "rz", "rw")):
            self.quaternion([values["rx"], values["ry"], values["rz"], values["rw"]], path + ".r*", off, only)
        if kind == "r" and all(k in values for k in ("ox", "oy", "oz", "ex", "ey", "ez")) and \
                (values["ox"], values["oy"], values["oz"]) == (values["ex"], values["ey"], values["ez"]):
            add("MATRIX-CMD-004", f"{path}: the ray ends where it starts ({values['ex']!r}, {values['ey']!r}, "
                f"{values['ez']!r}); e is the absolute end point", off, None, path, None, None)


_CMD_NAMES = {"v": "vector", "r": "ray", "s": "sphere", "c": "cube"}


def _whole_id(value: Any) -> int | None:
    """An id as an int: any of BSON's numbers holding a whole number (MATRIX-NUM-001: numbers may be
    int32, int64 or double anywhere; a writer that stores every number as a double writes id 1 as 1.0,
    and the viewer's dict lookup finds 1.0 as 1). ``None`` for anything else (1.5, a string)."""
    if type(value) in (int, Int64):
        return int(value)
    if type(value) is float and value.is_integer():
        return int(value)
    return None


_MISSING = object()


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _child(path: str, doc: Document, i: int) -> str:
    return f"{path}[{doc.keys[i]}]" if isinstance(doc, Array) else _join(path, doc.keys[i])


def _spans_volume(points: list[list[float]]) -> bool:
    """Some four of ``points`` span a volume (tolerances relative to the extent).

    Linear in the number of points: a second point away from the first, a third
    off their line, then any point off their plane. "Off" is a distance above 1e-9 of
    the extent: |a x v| / |a| from the line, |n . v| / |n| from the plane (comparing
    the unnormalised products with a power of the extent instead called a small
    tetrahedron beside a far vertex flat)."""
    p0 = points[0]
    d = [[c - p0[k] for k, c in enumerate(p)] for p in points[1:]]
    scale = max((abs(c) for v in d for c in v), default=0.0)
    if scale == 0.0:
        return False
    a = next((v for v in d if max(abs(c) for c in v) > 1e-12 * scale), None)
    if a is None:
        return False
    tolerance = 1e-9 * scale
    a_len = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    normal = None
    for v in d:
        cx, cy, cz = a[1] * v[2] - a[2] * v[1], a[2] * v[0] - a[0] * v[2], a[0] * v[1] - a[1] * v[0]
        n_len = math.sqrt(cx * cx + cy * cy + cz * cz)
        if n_len > tolerance * a_len:
            normal = (cx, cy, cz)
            break
    if normal is None:
        return False  # all on one line
    eps = tolerance * n_len
    return any(abs(normal[0] * v[0] + normal[1] * v[1] + normal[2] * v[2]) > eps for v in d)


def check_stream(f: BinaryIO, *, path: str, profile: str, size: int | None = None,
                 progress: Callable[[int, int], None] | None = None, fast_path: bool = True,
                 decoded: Mapping[int, Document] | None = None) -> FileReport:
    """Check one recording read from ``f`` (seekable). ``progress(done_bytes, total)``
    is called every few thousand frames. ``fast_path=False`` checks every frame in
    full (the tests compare the two).

    ``decoded``: ``decode_document``'s ``units`` for the same bytes (the sections and frames
    it read whole, by the offset of their element, even when it then met a fault), when the
    caller has them already: each frame the walk would decode from its bytes, and each
    top-level document or array, is then taken from there instead (the same decoder over the
    same bytes at the same offset and depth gives the same value; a unit not found there, or
    larger than the walk buffers, is decoded as usual). Every rule still runs on every value;
    a property test holds the reports equal with and without it."""
    top = _Top(f, path, profile, size, decoded, fast_path)
    return top.report if top.done else top.frames(fast_path, progress)


def check_stream_and_full_walk(f: BinaryIO, *, path: str, profile: str, decoded: Mapping[int, Document] | None,
                               walk_too: Callable[[FileReport], bool]) -> tuple[FileReport, FileReport | None]:
    """``check_stream(f, ...)``, and where ``walk_too(report)`` says so, ``check_stream(f, ...,
    fast_path=False)`` too (``None`` where it does not), for a caller that compares the two (the
    fuzz harness). The top level and the objects array, which both walks read with the same code
    (the fast path is only the frames'), are walked once: the frames are walked twice from what the
    walk held after them (its findings, counts, objects and state, copied)."""
    if trace_enabled():  # the trace is one walk's: two walks, each of the whole file
        report = check_stream(f, path=path, profile=profile, decoded=decoded)
        return report, (check_stream(f, path=path, profile=profile, decoded=decoded, fast_path=False)
                        if walk_too(report) else None)
    top = _Top(f, path, profile, None, decoded)
    if top.done:  # the file could not be walked at all: the two walks are the same, and cost little
        report = top.report
        return report, (_Top(f, path, profile, None, decoded).report if walk_too(report) else None)
    twin = top.copy()
    report = top.frames(True, None)
    return report, (twin.frames(False, None) if walk_too(report) else None)


class _Top:
    """A check after the top level and every top-level value but the frames array: the walk, the
    findings so far and what the frames walk needs (``done``: nothing is left to walk)."""

    def __init__(self, f: BinaryIO, path: str, profile: str, size: int | None,
                 decoded: Mapping[int, Document] | None, fast_path: bool = True) -> None:
        self.f, self.size = f, size
        sink = self.sink = FindingSink(RULES_BY_ID, profile)
        report = self.report = FileReport(path, "matrix-smt", None, profile, Verdict.VALID)
        walk = self.walk = _Walk(sink, profile)
        walk.trace = report.trace = MatrixTrace() if trace_enabled() else None
        report.evidence = {}
        self.done = False
        try:
            w = self.w = RecordingWalker(f, size)
        except DecodeError as e:
            sink.add(e.rule, e.message, e.offset, None, e.path)
            _finish(report, sink, walk)
            self.done = True
            return
        truncated = self.truncated = w.declared > w.size
        if w.trailing:
            sink.add("MATRIX-BSON-006", f"{w.trailing} bytes after the document (declared length {w.declared}, file "
                     f"size {w.size})", w.declared, w.trailing, "", w.declared, w.size)
        sections: list[Section] = []
        skimmed = True
        self.deferred: DecodeError | None = None
        try:
            for s in w.sections():
                sections.append(s)
        except DecodeError as e:
            skimmed = False  # the sections after the fault cannot be located
            if isinstance(e, Truncated):
                self.deferred = e  # the frames walk usually meets the same end of file and names the last frame
            else:
                _structural(walk, e, truncated, w)
        paths = _section_paths(sections)
        walk.top_keys(sections, paths)
        frames_s = self.frames_s = next((s for s in reversed(sections) if s.key == "frames"), None)
        objects_s = next((s for s in reversed(sections) if s.key == "objects"), None)
        top = self.top = decoded if decoded is not None else {}
        # (where the caller has the objects decoded already, the walk reads them: the fast path would
        # only read their bytes a second time)
        fast_objects = fast_path and decoded is None
        for s, s_path in zip(sections, paths):
            if s is frames_s and s.type_code == T_ARRAY:
                continue
            if s is objects_s and fast_objects and s.type_code == T_ARRAY and walk.trace is None:
                # the objects array in the spec encoder's shape, breaking no rule, read from its bytes
                raw = w.value_bytes(s)
                count = -1 if raw is None else _fastpath.objects(walk, raw, _spans_volume)
                if count >= 0:
                    walk.object_entries = count
                    continue
            try:
                value = top.get(s.offset, _MISSING) if _shareable(s) else _MISSING
                if value is _MISSING:
                    value = w.value(s, s_path)
            except DecodeError as e:
                _structural(walk, e, truncated, w)
                if s is objects_s:
                    walk.objects_known = False
                continue
            if s is objects_s:
                walk.objects_array(value, s)
            elif s is frames_s:
                sink.add("MATRIX-DOC-001", f"frames is a {type_name(value)}, not an array", s.offset, None, "frames",
                         "array", type_name(value))
            else:
                walk.generic(value, s_path, s.offset)
        if objects_s is None:
            if skimmed:
                sink.add("MATRIX-DOC-001", "the top-level document has no 'objects' array", 0, 4, "", "objects", None)
            else:
                walk.objects_known = False
        if frames_s is None and skimmed:
            sink.add("MATRIX-DOC-001", "the top-level document has no 'frames' array", 0, 4, "", "frames", None)

    def copy(self) -> _Top:
        """Another check from here on: its own walk, findings and report, the same file and frames array."""
        twin = copy.copy(self)
        twin.sink = self.sink.copy()
        twin.walk = self.walk.copy(twin.sink)
        twin.report = FileReport(self.report.path, "matrix-smt", None, self.report.profile, Verdict.VALID)
        twin.report.evidence = {}
        twin.report.trace = twin.walk.trace
        twin.w = RecordingWalker(self.f, self.size)  # its own read window and place in the frames array
        return twin

    def frames(self, fast_path: bool, progress: Callable[[int, int], None] | None) -> FileReport:
        """Walk the frames array (the fast path where ``fast_path``) and finish the report."""
        walk, w, sink, top, frames_s = self.walk, self.w, self.sink, self.top, self.frames_s
        if frames_s is not None and frames_s.type_code == T_ARRAY:
            fast = _fastpath.FrameMatcher(walk) if fast_path else None
            runs = fast_path and walk.trace is None
            bulk = _runs.FrameRuns(walk) if runs else None
            repeats = _repeats.Repeats(walk) if runs else None
            total = w.size
            try:
                for entry in w.entries(frames_s, raw=True):
                    if runs and entry.raw == EMPTY_DOCUMENT and entry.key == str(entry.index):
                        _empty_frames(walk, entry, w)
                    elif fast is None or not fast.frame(entry):
                        value = entry.value
                        if entry.raw is not None:
                            value = top.get(entry.offset, _MISSING)
                            if value is _MISSING:
                                value = decode_raw(entry, f"frames[{entry.index}]")
                        if repeats is not None and repeats.may_follow(entry, w):
                            before = walk.frames
                            if _judge_then_repeats(walk, entry, value, w, repeats):
                                if progress is not None and before // PROGRESS_EVERY != walk.frames // PROGRESS_EVERY:
                                    progress(entry.end, total)
                                continue
                        else:
                            walk.frame(entry.index, entry.key, entry.offset, value)
                    elif bulk is not None and fast.runs:
                        before = walk.frames
                        n = bulk.after(entry, w, fast.states, fast.producer)
                        if n:
                            fast.matched += n
                            if progress is not None and before // PROGRESS_EVERY != walk.frames // PROGRESS_EVERY:
                                progress(entry.end, total)
                            continue
                    if progress is not None and not walk.frames % PROGRESS_EVERY:
                        progress(entry.end, total)
            except DecodeError as e:
                _structural(walk, e, self.truncated, w)
            if walk.trace is not None:
                walk.trace.end(walk.states)
            if fast is not None:
                self.report.evidence["fast_path_frames"] = fast.matched
        if self.deferred is not None and not any(f.rule == "MATRIX-BSON-007" for f in sink.findings):
            _structural(walk, self.deferred, self.truncated, w)
        return _finish(self.report, sink, walk)


def _section_paths(sections: list[Section]) -> list[str]:
    """The path of each top-level value: its key for the last value of a key (the one a
    dict-building reader keeps, whose frames and objects the walk counts and indexes as
    ``frames[i]``, ``objects[i]``), ``KEY#N`` for the N-th of a key that appears again
    later (MATRIX-BSON-009), so that no finding in a value readers drop names a counted unit."""
    keys = [s.key for s in sections]
    if len(set(keys)) == len(keys):  # no key again (every recording but a broken one): each its own key
        return keys
    total = Counter(keys)
    seen: Counter[str] = Counter()
    paths = []
    for s in sections:
        seen[s.key] += 1
        paths.append(s.key if seen[s.key] == total[s.key] else f"{s.key}#{seen[s.key]}")
    return paths


def _shareable(s: Section) -> bool:
    """A top-level document or array the walk would decode in one piece (not over its buffer limit)."""
    return (s.type_code == T_DOCUMENT or s.type_code == T_ARRAY) and s.end - s.value_offset <= MAX_BUFFERED_SIZE


#: The bytes of an empty frame document, ``{}``.
EMPTY_DOCUMENT = b"\x05\x00\x00\x00\x00"


def _empty_frames(walk: _Walk, entry: Entry, w: RecordingWalker) -> None:
    """Walk the empty frame ``entry`` (under its own index as key); then, once every rule
    it broke has its stored findings (the next ones are only counted), step past the
    empty frames that follow it under the next indices and count them in bulk: an empty
    frame's findings depend on nothing the walk keeps, so each would be the same again,
    only their places differ, and those are not stored any more."""
    sink = walk.sink
    before = sink.counts_now()
    walk.frame(entry.index, entry.key, entry.offset, decode_raw(entry, f"frames[{entry.index}]"))
    added = sink.counted_since(before)
    if sink.only_counted(added[sink.profile]):
        n = w.skip_empty_documents(entry)
        walk.frames += n
        sink.count_again(added, n)


def _judge_then_repeats(walk: _Walk, entry: Entry, value: Document, w: RecordingWalker,
                        repeats: _repeats.Repeats) -> int:
    """Walk the frame ``entry`` (decoded: ``value``) in full; then, where its findings would be the
    same again in a frame of its bytes but for the time, only counted (it destroyed no object, its time
    made no finding, and every rule it broke has its stored findings), count the frames that follow it
    so in bulk (``_repeats``); returns how many."""
    sink = walk.sink
    before = sink.counts_now()
    prev = walk.prev_time
    destroyed = len(walk.destroyed) + len(walk.destroyed_spec)  # (sets that only grow)
    states, commands = walk.states, walk.commands
    walk.frame(entry.index, entry.key, entry.offset, value)
    if len(walk.destroyed) + len(walk.destroyed_spec) != destroyed:
        return 0
    added = sink.counted_since(before)
    if not sink.only_counted(added[sink.profile]):
        return 0
    spot = _time_spot(value, entry, prev)
    if spot is None:
        return 0
    return repeats.after(entry, w, added, walk.states - states, walk.commands - commands, *spot)


#: The struct code of a time stored as each BSON number type (double, int32, int64).
_TIME_CODES = {0x01: "d", 0x10: "i", 0x12: "q"}


def _time_spot(frame: Document, entry: Entry, prev: float | None) -> tuple[int, str] | None:
    """Where the frame's time number lies in ``entry.raw`` and its struct code; ``(0, "")`` when the
    frame has no time number (no time key, or a value of another type: its bytes are then fixed, and
    its findings the same in a repeat); None when the time made a finding (it is not finite, below 0 or
    before ``prev``, the time before the frame)."""
    m = frame.map()
    key = "t" if "t" in m else "time" if "time" in m else None
    if key is None:
        return 0, ""
    at = frame.offset_of(key)
    if at is None:
        return None
    at -= entry.value_offset  # the element's type byte, in the frame's bytes
    code = _TIME_CODES.get(entry.raw[at]) if entry.raw is not None else None
    if code is None:
        return 0, ""
    t = float(m[key])
    if t - t != 0.0 or t < 0.0 or (prev is not None and t < prev):
        return None
    return at + 2 + len(key.encode()), code


def _structural(walk: _Walk, e: DecodeError, truncated: bool, w: RecordingWalker) -> None:
    last = f"last complete frame: frames[{walk.frames - 1}]" if walk.frames else "no complete frame"
    if isinstance(e, Truncated) or e.rule == "MATRIX-BSON-007":
        walk.add("MATRIX-BSON-007", f"truncated: {e.message}; the file is {w.size} bytes, the document declares "
                 f"{w.declared}; {last}", e.offset, None, e.path, w.declared, w.size)
        return
    in_frames = e.path == "frames" or e.path.startswith("frames[")  # the kept array's, not frames#N
    message = e.message + (f" ({last})" if in_frames else "")
    walk.add(e.rule, message, e.offset, None, e.path, getattr(e, "maximum", None) or None,
             getattr(e, "value", None) if e.rule.startswith("MATRIX-LIMIT") else None)


def _finish(report: FileReport, sink: FindingSink, walk: _Walk) -> FileReport:
    sink.fill(report)  # the findings, and the verdict under every profile
    report.stats = {"objects": walk.object_entries, "frames": walk.frames, "states": walk.states,
                    "commands": walk.commands, "duration_s": walk.last_time}
    return report
