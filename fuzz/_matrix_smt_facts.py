"""The Matrix-SMT ``ref`` harness's second opinion: every rule whose fact can be decided from the decoded
document, re-derived from docs/formats/matrix-smt.md with this module's own few lines (it imports nothing
from the checker: the keys, types, ranges and defaults below are the format document's tables).

:func:`facts` maps each judged rule to why the document breaks it (the rule must fire under some profile)
or to ``None`` (its fact holds under both profiles: the rule must not fire). A rule fires when either
profile counts a finding of it (``fired_rules``), so each fact here is the union of the two profiles'
readings (spec: ``t``, ``"i"``/``"d"``, every command field; compat: also ``time``, ``"instantiated"``/
``"destroyed"``, a missing command field read as the viewer's default).

Where the document leaves a case to the checker's first error (a vector whose first bad element is
reported and the rest not read, a convex hull read up to its first bad vertex), the fact follows the
same order, since it is part of what the rule reports. Cases this module cannot decide without a
tolerance of the checker's own (a hull whose points are nearly, but not exactly, in one plane) are left
out (not judged).

The structural rules (MATRIX-BSON-001..007, MATRIX-LIMIT-*) are the ``refusal`` oracle's: the second
opinion runs only on bytes the reference decoder reads. MATRIX-XCHECK-001 is the ``diff`` target's.
:data:`UNJUDGED` lists them with the reason (tests/test_matrix_smt_second_opinion.py holds every catalogued
rule to one of the two lists).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import bson as pymongo_bson
from bson.codec_options import CodecOptions, DatetimeConversion
from bson.int64 import Int64

from recspec.reference import matrix_smt as b

__all__ = ["COUNTED", "COUNTED_PER_PROFILE", "JUDGED", "UNJUDGED", "facts", "facts_and_counts", "model_view",
           "pymongo_document"]

# --- the format document's tables (docs/formats/matrix-smt.md) ---------------------------------------

#: «Список objects»: every object's keys; the geometry keys each type needs.
_OBJECT_FIELDS = frozenset({"id", "name", "color", "type", "static"})
_GEOMETRY = {"box": ("half_dimentions",), "sphere": ("radius",), "capsule": ("radius", "half_height"),
             "convex": ("vertices",)}
#: «Список frames»: a frame's keys (``time`` is the producer's, read under compat).
_FRAME_FIELDS = frozenset({"states", "cmd", "t", "time"})
#: «states»: a state's keys, all required.
_STATE_FIELDS = ("id", "i", "m", "p", "r")
#: The instance flags: spec's, and what compat adds; the ones that destroy.
_SPEC_FLAGS = frozenset({"i", "d"})
_COMPAT_FLAGS = frozenset({"instantiated", "destroyed"})
#: The flags that destroy, per profile.
_DESTROYING = {"spec": frozenset({"d"}), "compat": frozenset({"d", "destroyed"})}
#: «cmd»: the origin every command has, the fields each kind needs, the optional style.
_ORIGIN = ("ox", "oy", "oz")
_CMD_FIELDS = {"v": ("vx", "vy", "vz"), "r": ("ex", "ey", "ez"), "s": ("sr",),
               "c": ("sx", "sy", "sz", "rx", "ry", "rz", "rw")}
_SIZES = frozenset({"sr", "sx", "sy", "sz"})
_STYLE = ("r", "g", "b", "o")
#: The viewer's defaults for a missing command field (Debug commands: origin 0, ray end (0, 1, 0),
#: quaternion (0, 0, 0, 1); sizes 0 are not read as a size: a missing size is CMD-002 under spec only).
_DEFAULT = {"ox": 0.0, "oy": 0.0, "oz": 0.0, "ex": 0.0, "ey": 1.0, "ez": 0.0,
            "rx": 0.0, "ry": 0.0, "rz": 0.0, "rw": 1.0}
#: Decision 9: a unit quaternion within 1e-3.
_UNIT_WITHIN = 1e-3

#: The rules whose findings :func:`facts_and_counts` also counts (each break is one finding under both
#: profiles, wherever the document has it: a finding lost in one frame while another frame still breaks the
#: rule, as a fast or bulk path might lose it, changes the count and not the verdict). An unknown key is a
#: finding per key (DOC-002), a bad number one per place the document reads one (the first bad element of a
#: vector: NUM-001/002), a missing or mistyped required field one per field (OBJ-001, STATE-001).
COUNTED = ("MATRIX-BSON-008", "MATRIX-BSON-009", "MATRIX-OBJ-003", "MATRIX-OBJ-005", "MATRIX-OBJ-006",
           "MATRIX-FRAME-002", "MATRIX-FRAME-004", "MATRIX-STATE-002", "MATRIX-STATE-005", "MATRIX-CMD-001",
           "MATRIX-DOC-001", "MATRIX-DOC-002", "MATRIX-NUM-001", "MATRIX-NUM-002", "MATRIX-OBJ-001",
           "MATRIX-OBJ-002", "MATRIX-OBJ-004", "MATRIX-STATE-001", "MATRIX-CMD-003")
#: The rules counted per profile: one finding per break, where the profiles read the break differently
#: (a frame time under ``time``: FRAME-001 under spec, FRAME-005 under compat; a ``cmd`` that is missing,
#: empty or null: FRAME-003 under spec only; compat's flags: STATE-003 under spec only, and ``"destroyed"``
#: destroys under compat only, STATE-004; a missing command field: CMD-002 under spec only, while compat reads
#: the viewer's default for it and judges the cube's quaternion and the ray's end with it, QUAT-001 and CMD-004).
COUNTED_PER_PROFILE = ("MATRIX-FRAME-001", "MATRIX-FRAME-003", "MATRIX-FRAME-005", "MATRIX-STATE-003",
                       "MATRIX-STATE-004", "MATRIX-CMD-002", "MATRIX-QUAT-001", "MATRIX-CMD-004")
_PROFILES = ("spec", "compat")
_SPEC, _COMPAT = ("spec",), ("compat",)
#: The rules :func:`facts` judges (in both directions, OBJ-004 where decidable).
JUDGED = ("MATRIX-BSON-008", "MATRIX-BSON-009", "MATRIX-DOC-001", "MATRIX-DOC-002", "MATRIX-NUM-001",
          "MATRIX-NUM-002", "MATRIX-OBJ-001", "MATRIX-OBJ-002", "MATRIX-OBJ-003", "MATRIX-OBJ-004",
          "MATRIX-OBJ-005", "MATRIX-OBJ-006", "MATRIX-FRAME-001", "MATRIX-FRAME-002", "MATRIX-FRAME-003",
          "MATRIX-FRAME-004", "MATRIX-FRAME-005", "MATRIX-STATE-001", "MATRIX-STATE-002", "MATRIX-STATE-003",
          "MATRIX-STATE-004", "MATRIX-STATE-005", "MATRIX-QUAT-001", "MATRIX-CMD-001", "MATRIX-CMD-002",
          "MATRIX-CMD-003", "MATRIX-CMD-004")
_STRUCTURAL = ("structural: an error makes the file malformed, which the refusal oracle holds to the "
               "reference decoder refusing the bytes; the second opinion runs only on bytes it reads")
#: The catalogued rules the second opinion does not judge, and why.
UNJUDGED = {**{f"MATRIX-BSON-00{i}": _STRUCTURAL for i in range(1, 8)},
            **{f"MATRIX-LIMIT-00{i}": _STRUCTURAL + " (a recspec limit)" for i in range(1, 4)},
            "MATRIX-XCHECK-001": "the cross-check of three readers: the diff target's invariant, not the ref "
                                 "harness's (check_stream does not run it)"}

_NUMBER = (float, int, b.Int64)
#: Array keys "0", "1", ... for the lengths a recording's arrays have.
_INDEXES = [str(i) for i in range(4096)]
#: Value classes that hold no document.
_LEAVES = frozenset((float, int, b.Int64, str, bool, type(None)))
_FLOATS = frozenset((float,))
_MISSING = object()


class _Facts:
    """The facts of one document; ``broken`` maps a rule to its first break."""

    def __init__(self) -> None:
        self.broken: dict[str, str] = {}
        self.undecided: set[str] = set()
        #: findings of each of COUNTED (one per break, as the document places them), and per profile of each
        #: of COUNTED_PER_PROFILE
        self.counts: dict[str, int] = dict.fromkeys(COUNTED, 0)
        self.per_profile: dict[str, dict[str, int]] = {rule: dict.fromkeys(_PROFILES, 0)
                                                       for rule in COUNTED_PER_PROFILE}

    def breaks(self, rule: str, why: str, times: int = 1, profiles: tuple[str, ...] = _PROFILES) -> None:
        """``rule`` broken ``times`` times (findings), under ``profiles`` (a rule of COUNTED_PER_PROFILE)."""
        self.broken.setdefault(rule, why)
        if rule in self.counts:
            self.counts[rule] += times
        elif rule in self.per_profile:
            for p in profiles:
                self.per_profile[rule][p] += times

    # -- BSON-008/009 over a subtree the walk reads for them
    def keys(self, node: Any, where: str) -> None:
        stack: list[tuple[Any, Any]] = [(node, where)]
        while stack:
            doc, at = stack.pop()  # ``at``: a path, or (its parent's path, its key), joined only to say why
            if type(at) is tuple:
                at = f"{at[0]}.{at[1]}"
            keys = doc.keys
            if type(doc) is b.Array:
                if keys != (_INDEXES[:len(keys)] if len(keys) <= len(_INDEXES) else [str(i) for i in range(len(keys))]):
                    self.breaks("MATRIX-BSON-008", f"{at}'s keys are {keys[:4]!r}...")
            elif len(set(keys)) != len(keys):  # a finding at each repeat
                self.breaks("MATRIX-BSON-009", f"{at} repeats a key", len(keys) - len(set(keys)))
            values = doc.values
            if _LEAVES.issuperset(map(type, values)):
                continue  # no document under it (found in C: most arrays are vectors of numbers)
            for k, v in zip(keys, values):
                if isinstance(v, b.Document):
                    stack.append((v, (at, k)))

    # -- numbers: the value (as a float) or None, with the NUM rule it breaks
    def number(self, v: Any, at: str) -> float | None:
        t = type(v)
        if t is float:
            if math.isfinite(v):
                return float(v)
            self.breaks("MATRIX-NUM-002", f"{at} is {v!r}")
            return None
        if t is int or t is b.Int64:
            return float(v)
        self.breaks("MATRIX-NUM-001", f"{at} is a {t.__name__}")
        return None

    def numbers(self, v: Any, n: int, at: str, shape_rule: str) -> list[float] | None:
        """An array of exactly ``n`` numbers (the first bad one reported), else None."""
        if type(v) is not b.Array or len(v.values) != n:
            self.breaks(shape_rule, f"{at} is not an array of {n}")
            return None
        if _FLOATS.issuperset(map(type, v.values)) and all(map(math.isfinite, v.values)):
            return list(v.values)  # finite doubles (in C: what the loop below gives them)
        out = []
        for i, x in enumerate(v.values):
            got = self.number(x, f"{at}[{i}]")
            if got is None:
                return None
            out.append(got)
        return out


def _plain(v: Any) -> bool:
    return type(v) is b.Document


def _whole(v: Any) -> int | None:
    """An id: an int32/int64, or a double holding a whole number (decision 2: any number type)."""
    t = type(v)
    if t is int or t is b.Int64:
        return int(v)
    if t is float and math.isfinite(v) and v == math.floor(v):
        return int(v)
    return None


def facts(doc: b.Document) -> dict[str, str | None]:
    """Each of :data:`JUDGED` (but undecidable cases) mapped to why ``doc`` breaks it, or to ``None``."""
    return facts_and_counts(doc)[0]


def facts_and_counts(doc: b.Document) -> tuple[dict[str, str | None], dict[str, int | dict[str, int]]]:
    """:func:`facts`, and the number of findings of each of :data:`COUNTED` and, per profile, of
    :data:`COUNTED_PER_PROFILE` (one walk for both); a rule left undecided is not counted."""
    f = _Facts()
    top = doc.map()
    if len(set(doc.keys)) != len(doc.keys):
        f.breaks("MATRIX-BSON-009", "the top-level document repeats a key", len(doc.keys) - len(set(doc.keys)))
    extra = [k for k in doc.keys if k not in ("objects", "frames")]
    if extra:
        f.breaks("MATRIX-DOC-002", f"top-level key {extra[0]!r}", len(extra))
    objects, frames = top.get("objects", _MISSING), top.get("frames", _MISSING)
    # every top-level value is read for duplicate and array keys, but the kept objects and frames when they
    # are no arrays (MATRIX-DOC-001 alone then), and the kept frames array's entries that are no documents
    for k, v in zip(doc.keys, doc.values):
        kept = v is top[k] and k in ("objects", "frames")
        if isinstance(v, b.Document) and not (kept and type(v) is not b.Array):
            if kept and k == "frames":
                for j, (fk, fv) in enumerate(zip(v.keys, v.values)):
                    if fk != str(j):
                        f.breaks("MATRIX-BSON-008", f"frames[{j}] is under the key {fk!r}")
                    if _plain(fv):
                        f.keys(fv, f"frames[{j}]")
            else:
                f.keys(v, k)
    if type(objects) is not b.Array:
        f.breaks("MATRIX-DOC-001", "objects is missing or not an array")
    if type(frames) is not b.Array:
        f.breaks("MATRIX-DOC-001", "frames is missing or not an array")
    ids: set[int] = set()
    if type(objects) is b.Array:
        for i, o in enumerate(objects.values):
            _object(f, o, f"objects[{i}]", ids)
    if type(frames) is b.Array:
        latest: float | None = None
        destroyed: dict[str, set[int]] = {p: set() for p in _PROFILES}  # spec's ("d") is a part of compat's
        for i, fr in enumerate(frames.values):
            latest = _frame(f, fr, f"frames[{i}]", ids, destroyed, latest)
    counts: dict[str, int | dict[str, int]] = {**f.counts, **f.per_profile}
    for rule in f.undecided:
        counts.pop(rule, None)
    return {rule: f.broken.get(rule) for rule in JUDGED if rule not in f.undecided or rule in f.broken}, counts


def _object(f: _Facts, o: Any, at: str, ids: set[int]) -> None:
    if not _plain(o):
        f.breaks("MATRIX-OBJ-001", f"{at} is no document")
        return
    m = o.map()
    for key in ("id", "name", "type", "color"):
        if key not in m:
            f.breaks("MATRIX-OBJ-001", f"{at} has no {key!r}")
    if "id" in m:
        oid = _whole(m["id"])
        if oid is None or oid < 0 or oid in ids:
            f.breaks("MATRIX-OBJ-003", f"{at}.id {m['id']!r} is no integer >= 0 or is taken")
        else:
            ids.add(oid)
    if "name" in m and type(m["name"]) is not str:
        f.breaks("MATRIX-OBJ-001", f"{at}.name is no string")
    kind = m.get("type")
    needs: tuple[str, ...] = ()
    if "type" in m:
        if type(kind) is not str:
            f.breaks("MATRIX-OBJ-001", f"{at}.type is no string")
        elif kind not in _GEOMETRY:
            f.breaks("MATRIX-OBJ-002", f"{at}.type {kind!r} is no geometry")
        else:
            needs = _GEOMETRY[kind]
    if "color" in m:
        rgb = f.numbers(m["color"], 3, f"{at}.color", "MATRIX-OBJ-001")
        outside = 0 if rgb is None else sum(not 0.0 <= c <= 1.0 for c in rgb)
        if outside:  # a finding per channel
            f.breaks("MATRIX-OBJ-005", f"{at}.color {rgb} leaves [0, 1]", outside)
    if "static" in m and type(m["static"]) is not bool:
        f.breaks("MATRIX-OBJ-006", f"{at}.static is no boolean")
    for key in needs:
        if key not in m:
            f.breaks("MATRIX-OBJ-002", f"{at} ({kind}) has no {key!r}")
        elif key == "half_dimentions":
            half = f.numbers(m[key], 3, f"{at}.{key}", "MATRIX-OBJ-002")
            if half is not None and not all(h > 0 for h in half):
                f.breaks("MATRIX-OBJ-002", f"{at}.{key} {half} has a size <= 0")
        elif key == "vertices":
            _hull(f, m[key], f"{at}.vertices")
        else:
            size = f.number(m[key], f"{at}.{key}")
            if size is not None and not size > 0:
                f.breaks("MATRIX-OBJ-002", f"{at}.{key} is {size!r}, not > 0")
    unknown = [k for k in o.keys if k not in _OBJECT_FIELDS and k not in needs]
    if unknown:
        f.breaks("MATRIX-DOC-002", f"{at} has a key its type does not use", len(unknown))


def _hull(f: _Facts, vs: Any, at: str) -> None:
    """MATRIX-OBJ-004: at least 4 points of 3 numbers, spanning a volume. Exactly coplanar points (in
    rational arithmetic) break it; points whose tetrahedra are far from flat (relative to the extent)
    keep it; between the two, the answer is the checker's tolerance's, not judged."""
    if type(vs) is not b.Array:
        f.breaks("MATRIX-OBJ-004", f"{at} is no array")
        return
    points = []
    for i, v in enumerate(vs.values):
        p = f.numbers(v, 3, f"{at}[{i}]", "MATRIX-OBJ-004")
        if p is None:
            return
        points.append(p)
    if len(points) < 4:
        f.breaks("MATRIX-OBJ-004", f"{at} has {len(points)} points")
        return
    if any(abs(c) > 1e100 or (c != 0.0 and abs(c) < 1e-100) for p in points for c in p):
        f.undecided.add("MATRIX-OBJ-004")  # extremes where the products overflow or vanish: not judged
        return
    # robustly solid: the point farthest from the first, then the one farthest from their line, then one far
    # from their plane, each well above the extent (relative 1e-3, where the checker's tolerance is 1e-9)
    o = points[0]
    d = [[c - o[k] for k, c in enumerate(p)] for p in points[1:]]
    extent = max(abs(c) for v in d for c in v)
    if extent > 0:
        u = [[c / extent for c in v] for v in d]
        a = max(u, key=lambda v: v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
        crosses = [(a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]) for c in u]
        n = max(crosses, key=lambda x: x[0] * x[0] + x[1] * x[1] + x[2] * x[2])
        if max(map(abs, n)) > 1e-3 and any(abs(n[0] * e[0] + n[1] * e[1] + n[2] * e[2]) > 1e-3 for e in u):
            return  # spans a volume: holds
    if len(points) <= 64:  # in exact arithmetic: all in one plane breaks it
        exact = [[Fraction(c) for c in p] for p in points]
        e0 = exact[0]
        if _rank([[c - e0[k] for k, c in enumerate(p)] for p in exact[1:]]) < 3:
            f.breaks("MATRIX-OBJ-004", f"{at}'s points lie in one plane")
            return
    f.undecided.add("MATRIX-OBJ-004")


def _rank(rows: list[list[Fraction]]) -> int:
    """The rank of a few 3-vectors, exactly."""
    m = [r[:] for r in rows if any(r)]
    rank = 0
    for col in range(3):
        pivot = next((r for r in m if r[col] != 0), None)
        if pivot is None:
            continue
        m.remove(pivot)
        rank += 1
        m = [[x - pivot[j] * r[col] / pivot[col] for j, x in enumerate(r)] for r in m]
        m = [r for r in m if any(r)]
    return rank


def _frame(f: _Facts, fr: Any, at: str, ids: set[int], destroyed: dict[str, set[int]],
           latest: float | None) -> float | None:
    """One frame's facts; returns the latest time so far."""
    if not _plain(fr):
        f.breaks("MATRIX-FRAME-004", f"{at} is no document")
        return latest
    m = fr.map()
    key = "t" if "t" in m else "time" if "time" in m else ""
    if key == "time":
        f.breaks("MATRIX-FRAME-001", f"{at} has its time under 'time' (spec)", profiles=_SPEC)
        f.breaks("MATRIX-FRAME-005", f"{at} has its time under 'time' only (compat)", profiles=_COMPAT)
    elif not key:
        f.breaks("MATRIX-FRAME-001", f"{at} has no time")
    if key:
        t = f.number(m[key], f"{at}.{key}")
        if t is not None:
            if t < 0:
                f.breaks("MATRIX-FRAME-002", f"{at}.{key} {t!r} is below 0")
            if latest is not None and t < latest:
                f.breaks("MATRIX-FRAME-002", f"{at}.{key} {t!r} is below the latest so far, {latest!r}")
            latest = t if latest is None else max(latest, t)
    states = m.get("states", _MISSING)
    if type(states) is not b.Array:
        f.breaks("MATRIX-FRAME-004", f"{at}.states is missing or no array")
    else:
        here: set[int] = set()
        for i, s in enumerate(states.values):
            _state(f, s, f"{at}.states[{i}]", ids, destroyed, here)
    cmd = m.get("cmd", _MISSING)
    if type(cmd) is b.Array:
        for i, c in enumerate(cmd.values):
            _command(f, c, f"{at}.cmd[{i}]")
    else:  # compat reads a missing, empty or null cmd as no command
        none = cmd is _MISSING or cmd is None or (type(cmd) is str and cmd == "")
        f.breaks("MATRIX-FRAME-003", f"{at}.cmd is missing or no array", profiles=_SPEC if none else _PROFILES)
    unknown = [k for k in fr.keys if k not in _FRAME_FIELDS]
    if unknown:
        f.breaks("MATRIX-DOC-002", f"{at} has a key the document does not define", len(unknown))
    return latest


def _state(f: _Facts, s: Any, at: str, ids: set[int], destroyed: dict[str, set[int]], here: set[int]) -> None:
    if not _plain(s):
        f.breaks("MATRIX-STATE-001", f"{at} is no document")
        return
    m = s.map()
    for key in _STATE_FIELDS:
        if key not in m:
            f.breaks("MATRIX-STATE-001", f"{at} has no {key!r}")
    sid = _whole(m["id"]) if "id" in m else None
    if "id" in m and sid is None:
        f.breaks("MATRIX-STATE-001", f"{at}.id is no integer")
    flag = m.get("i")
    if "i" in m:
        if type(flag) is not str:
            f.breaks("MATRIX-STATE-001", f"{at}.i is no string")
        elif flag not in _SPEC_FLAGS:
            f.breaks("MATRIX-STATE-003", f"{at}.i is {flag!r}", profiles=_SPEC if flag in _COMPAT_FLAGS else _PROFILES)
    if "m" in m and type(m["m"]) is not str:
        f.breaks("MATRIX-STATE-001", f"{at}.m is no string")
    if "p" in m:
        f.numbers(m["p"], 3, f"{at}.p", "MATRIX-STATE-001")
    if "r" in m:
        q = f.numbers(m["r"], 4, f"{at}.r", "MATRIX-STATE-001")
        if q is not None:
            _unit(f, q, f"{at}.r")
    if sid is not None:
        if sid not in ids:
            f.breaks("MATRIX-STATE-002", f"{at}.id {sid} names no object")
        else:
            for p, gone in destroyed.items():
                if sid in gone:
                    f.breaks("MATRIX-STATE-004", f"{at}.id {sid} was destroyed before", profiles=(p,))
                elif type(flag) is str and flag in _DESTROYING[p]:
                    gone.add(sid)
        if sid in here:
            f.breaks("MATRIX-STATE-005", f"{at}.id {sid} has a state in this frame already")
        here.add(sid)
    unknown = [k for k in s.keys if k not in _STATE_FIELDS]
    if unknown:
        f.breaks("MATRIX-DOC-002", f"{at} has a key the document does not define", len(unknown))


def _unit(f: _Facts, q: list[float], at: str, profiles: tuple[str, ...] = _PROFILES) -> None:
    if not abs(math.hypot(*q) - 1.0) <= _UNIT_WITHIN:
        f.breaks("MATRIX-QUAT-001", f"{at} {q} is no unit quaternion", profiles=profiles)


def _command(f: _Facts, c: Any, at: str) -> None:
    if not _plain(c):
        f.breaks("MATRIX-CMD-001", f"{at} is no document")
        return
    m = c.map()
    kind = m.get("t")
    if type(kind) is not str or kind not in _CMD_FIELDS:
        f.breaks("MATRIX-CMD-001", f"{at}.t is {kind!r}")
        return
    fields = _ORIGIN + _CMD_FIELDS[kind]
    read: dict[str, float] = {}  # compat's reading: a missing field as the viewer's default
    for key in fields:
        if key not in m:
            f.breaks("MATRIX-CMD-002", f"{at} has no {key!r} (spec)", profiles=_SPEC)
            if key in _DEFAULT:
                read[key] = _DEFAULT[key]
            continue
        v = f.number(m[key], f"{at}.{key}")
        if v is not None:
            read[key] = v
            if key in _SIZES and not v > 0:
                f.breaks("MATRIX-CMD-002", f"{at}.{key} is {v!r}, not > 0")
    # a field that is there but no finite number leaves the quaternion or the ray unread (both profiles)
    # (spec judges them only where every field is given: it reads no default)
    quaternion = [read.get(k) for k in ("rx", "ry", "rz", "rw")]
    if kind == "c" and None not in quaternion:
        given = all(k in m for k in ("rx", "ry", "rz", "rw"))
        _unit(f, quaternion, f"{at}.r*", _PROFILES if given else _COMPAT)  # type: ignore[arg-type]
    ray = [read.get(k) for k in (*_ORIGIN, "ex", "ey", "ez")]
    if kind == "r" and None not in ray and ray[:3] == ray[3:]:
        given = all(k in m for k in (*_ORIGIN, "ex", "ey", "ez"))
        f.breaks("MATRIX-CMD-004", f"{at}: the ray ends at its origin", profiles=_PROFILES if given else _COMPAT)
    for key in _STYLE:
        if key in m:
            v = f.number(m[key], f"{at}.{key}")
            if v is not None and not 0.0 <= v <= 1.0:
                f.breaks("MATRIX-CMD-003", f"{at}.{key} is {v!r}, outside [0, 1]")
    unknown = [k for k in c.keys if k != "t" and k not in fields and k not in _STYLE]
    if unknown:
        f.breaks("MATRIX-DOC-002", f"{at} has a key its kind does not use", len(unknown))


# --- the model against a second reader of the same bytes (pymongo's bson) ------------------------------

_PYMONGO_OPTIONS: CodecOptions[dict[str, Any]] = CodecOptions(datetime_conversion=DatetimeConversion.DATETIME_MS,
                                unicode_decode_error_handler="strict")


def pymongo_document(data: bytes) -> dict[str, Any]:
    """pymongo's reading of ``data`` (the options :func:`model_view` compares under); raises what pymongo raises."""
    read: dict[str, Any] = pymongo_bson.decode(data, _PYMONGO_OPTIONS)
    return read


def model_view(doc: b.Document, data: bytes, read: Callable[[], dict[str, Any]] | None = None
               ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The reference decoder's document against pymongo's reading of ``data`` (``check_model_view``): the
    first value where the two differ, by its path, or ``None`` where they agree. A field read wrong by the
    reference decoder (a signed number read unsigned, two fields swapped, a value from the wrong offset)
    is a fact the rules then judge wrongly in both the checker and :func:`facts`, which share the decoder;
    pymongo reads the bytes on its own. Compared on what a dict keeps (the last of repeated keys, array
    values without their keys) and on the types the recording uses (numbers by type and value, booleans,
    strings, null, documents, arrays); other BSON types are the diff target's to compare."""
    try:
        other = read() if read is not None else pymongo_document(data)
    except Exception as e:  # any refusal of bytes the reference decoder read is the finding
        return {"document": "read"}, {"document": f"refused by pymongo: {type(e).__name__}: {e}"}
    where = _first_difference(doc, other)
    if where is None:
        return None
    at, mine, theirs = where
    name = re.sub(r"\[\d+\]", "[]", at).lstrip(".") or "document"  # the field, one crash signature for all its places
    return {name: f"{mine} (at {at or 'the top level'})"}, {name: f"{theirs} (at {at or 'the top level'})"}


def _first_difference(doc: b.Document, other: Any) -> tuple[str, str, str] | None:
    """(path, the reference's value, pymongo's) of the first difference, or None."""
    stack: list[tuple[Any, Any, str]] = [(doc, other, "")]
    while stack:
        mine, theirs, at = stack.pop()
        t = type(mine)
        if t is b.Document:
            if type(theirs) is not dict:
                if type(theirs).__name__ == "DBRef":  # pymongo's own reading of {$ref, $id}: not compared
                    continue
                return at, "a document", type(theirs).__name__
            m = mine.map()
            if m.keys() != theirs.keys():
                return at, repr(sorted(m)), repr(sorted(theirs))
            stack.extend((v, theirs[k], f"{at}.{k}") for k, v in m.items())
        elif t is b.Array:
            values = mine.values
            if type(theirs) is not list or len(theirs) != len(values):
                return at, f"an array of {len(values)}", repr(theirs)[:40]
            if values == theirs and _FLOATS.issuperset(map(type, values)) \
                    and _FLOATS.issuperset(map(type, theirs)):
                continue  # doubles equal by value (in C); a NaN or another type is compared one by one
            stack.extend((v, w, f"{at}[{i}]") for i, (v, w) in enumerate(zip(mine.values, theirs)))
        elif t in _COMPARED and (_COMPARED[t] is not type(theirs)
                                 or (repr(mine) != repr(theirs) if t is float else mine != theirs)):
            return at, repr(mine), repr(theirs)
    return None


#: The reference's value classes compared, and the class pymongo reads the same BSON type as.
_COMPARED: dict[type, type] = {float: float, int: int, b.Int64: Int64, bool: bool, str: str, type(None): type(None)}
