"""The fast path of the frame walk: frames in the document's canonical shape
(and, under compat, in the producer's layout: ``_compat_frame``).

A frame written by the spec profile's encoder, ``{states: [...], cmd: [], t}``
(or with the same keys in the order ``{t, states, cmd}``), with every state
``{id: int32, i, m, p: [3 doubles], r: [4 doubles]}``, is matched state by state
with one compiled regular expression over its bytes; the lengths the pattern
cannot check (the state's document length, the two string lengths) are compared
in Python, and the numbers are unpacked with one struct call per vector. Debug
commands in the spec encoder's shape (``{t: kind, ox, oy, oz, ...}``, every field
a double) are matched the same way, one pattern per command (``_commands``). The
fast path *declines* a frame (returns False, having changed nothing) as soon as
anything differs from that shape or any rule could have something to say (an
unknown or destroyed id, a bad flag, a non-finite number, a quaternion off unit
length, a time going back, a second state for one id); the caller then decodes
the frame and checks it in full. So the findings are the full path's by
construction, and ``tests/test_matrix_smt_check.py`` holds the two paths to the
same findings on generated and mutated files.
"""

from __future__ import annotations

import functools
import re
import struct
from collections.abc import Callable, Sequence
from math import hypot
from operator import sub
from typing import TYPE_CHECKING, Any

from recspec.reference.matrix_smt import Entry

from ._rules import CMD_COMMON, CMD_NEEDS, CMD_STYLE, QUAT_TOLERANCE

if TYPE_CHECKING:
    from ._walk_state import WalkState

__all__ = ["FrameMatcher", "objects"]

_STATE = re.compile(
    rb"\x03(\d{1,9})\x00(.{4})"
    rb"\x10id\x00(.{4})"
    rb"\x02i\x00\x02\x00\x00\x00([id])\x00"
    rb"\x02m\x00(.{4})([^\x00]*)\x00"
    rb"\x04p\x00\x26\x00\x00\x00(\x010\x00.{8}\x011\x00.{8}\x012\x00.{8})\x00"
    rb"\x04r\x00\x31\x00\x00\x00(\x010\x00.{8}\x011\x00.{8}\x012\x00.{8}\x013\x00.{8})\x00"
    rb"\x00",
    re.DOTALL,
)


def _number(key: bytes) -> bytes:
    """A double or an int32 array element with key ``key`` (one group each)."""
    return rb"(?:\x01" + key + rb"\x00(.{8})|\x10" + key + rb"\x00(.{4}))"


# The producer's state: the same keys, numbers as double or int32 one by one, the flag any compat value.
_STATE_COMPAT = re.compile(
    rb"\x03(\d{1,9})\x00(.{4})"
    rb"\x10id\x00(.{4})"
    rb"\x02i\x00(.{4})(i|d|destroyed|instantiated)\x00"
    rb"\x02m\x00(.{4})([^\x00]*)\x00"
    rb"\x04p\x00(.{4})" + _number(b"0") + _number(b"1") + _number(b"2") + rb"\x00"
    rb"\x04r\x00(.{4})" + _number(b"0") + _number(b"1") + _number(b"2") + _number(b"3") + rb"\x00"
    rb"\x00",
    re.DOTALL,
)
_COMPAT_HEAD = b"\x02cmd\x00\x01\x00\x00\x00\x00\x04states\x00"  # cmd "", then the states array
_TIME_F64 = b"\x01time\x00"
_TIME_I32 = b"\x10time\x00"
_COMPAT_FLAGS = {b"i": False, b"instantiated": False, b"d": True, b"destroyed": True}
_F64 = struct.Struct("<d").unpack
_I32 = struct.Struct("<i").unpack
_LEN_FIELDS = {n: struct.pack("<i", n) for n in range(5, 5 + 4 * 11 + 1)}
# _STATE_COMPAT's groups: key, doc length, id, flag length, flag, meta length, meta, p length (0-7),
# p's three numbers as (double, int32) pairs (8-13), r length (14), r's four numbers (15-22).
_NUMBER_GROUPS = (8, 10, 12, 15, 17, 19, 21)

_STATES_HEAD = b"\x04states\x00"
_TAIL = b"\x04cmd\x00\x05\x00\x00\x00\x00\x01t\x00"  # an empty cmd array, then the time key
_T_KEY = b"\x01t\x00"  # the time element's head, a double
_CMD_KEY = b"\x04cmd\x00"  # the cmd element's head, an array
_TIME_FIRST = _T_KEY  # a frame that starts with its time (a double), then states, then an empty cmd
_EMPTY_CMD = b"\x04cmd\x00\x05\x00\x00\x00\x00"
#: Bytes of one state element besides its key and metadata text (see _STATE).
_STATE_FIXED = 125
#: A state's document length minus its metadata's length field (123 + len(meta) - (len(meta) + 1)).
_DOC_MINUS_META_LEN = 122
_F64_AT = struct.Struct("<d").unpack_from
_I32_AT = struct.Struct("<i").unpack_from
_INDEX = tuple(str(i).encode() for i in range(4096))
_ONE = {1}
_DOC = {_DOC_MINUS_META_LEN}
_LO = 1.0 - QUAT_TOLERANCE + 1e-12  # strictly inside the tolerance: borderline norms take the full path
_HI = 1.0 + QUAT_TOLERANCE - 1e-12


#: A debug command as the spec encoder writes it: its kind, a one-letter string, under "t" first, then
#: doubles under keys of one or two letters (which keys, in what order: ``_command_layout``). Groups:
#: the element's key, the document's length field, the kind, the doubles' elements.
_COMMAND = re.compile(
    rb"\x03(\d{1,9})\x00(.{4})\x02t\x00\x02\x00\x00\x00([vrsc])\x00((?:\x01[a-z]{1,2}\x00.{8})+)\x00", re.DOTALL)
#: One double element of a command's (its key in the group): they tile ``_COMMAND``'s last group.
_COMMAND_NUMBER = re.compile(rb"\x01([a-z]{1,2})\x00.{8}", re.DOTALL)
#: Bytes of a command's document besides its doubles: the length field, the "t" element, the final NUL.
_COMMAND_FIXED = 14
_CUBE_ROTATION = ("rx", "ry", "rz", "rw")
_RAY = (("ox", "oy", "oz"), ("ex", "ey", "ez"))


class _CommandLayout:
    """A command kind with one sequence of keys: the unpacker of its doubles, and where the values
    are that the rules read (the style, those that must be > 0, a cube's rotation, a ray's two ends)."""

    __slots__ = ("positive", "quaternion", "ray", "style", "unpack")

    def __init__(self, kind: str, keys: Sequence[str]) -> None:
        self.unpack = struct.Struct("<" + "".join(f"{2 + len(key)}xd" for key in keys)).unpack
        at = {key: i for i, key in enumerate(keys)}
        self.style = tuple(at[key] for key in CMD_STYLE if key in at)
        self.positive = tuple(at[key] for key in ("sr", "sx", "sy", "sz") if key in at)
        self.quaternion = tuple(at[key] for key in _CUBE_ROTATION) if kind == "c" else ()
        self.ray = tuple(tuple(at[key] for key in end) for end in _RAY) if kind == "r" else ()


@functools.lru_cache(maxsize=256)
def _command_layout(kind: bytes, keys: tuple[bytes, ...]) -> _CommandLayout | None:
    """The layout of a command of ``kind`` with the double elements ``keys`` (in order), or None where
    a rule has something to say about its keys: one missing (MATRIX-CMD-002), one unknown
    (MATRIX-DOC-002), one twice (MATRIX-BSON-009)."""
    names = [key.decode("ascii") for key in keys]
    needed = {*CMD_COMMON, *CMD_NEEDS[kind.decode("ascii")]}
    if len(set(names)) != len(names) or not needed <= set(names) <= needed.union(CMD_STYLE):
        return None
    return _CommandLayout(kind.decode("ascii"), names)


def _commands(raw: bytes, at: int, end: int) -> int:
    """The debug commands of the frame ``raw``'s cmd array (its length field at ``at``, its end at
    ``end``): how many, where every one is in the spec encoder's shape and no rule has anything to
    say about it (every field there once, finite, the style in [0, 1], a radius or half size > 0, a
    cube's rotation of unit length, a ray that ends elsewhere than it starts); -1 otherwise (the
    full walk then reads the frame). What a command's rules read depends on nothing the walk keeps."""
    if end - at < 5 or _I32_AT(raw, at)[0] != end - at or raw[end - 1] != 0:
        return -1
    first, last = at + 4, end - 1
    if first == last:
        return 0
    found = _COMMAND.findall(raw, first, last)
    k = len(found)
    if not k:
        return -1
    keys, dls, kinds, bodies = zip(*found)
    sizes = [_COMMAND_FIXED + len(body) for body in bodies]
    # findall skips what does not match: the matches must tile the array exactly
    if sum(map(len, keys)) + sum(sizes) + 2 * k != last - first:
        return -1
    if keys != _INDEX[:k] if k <= len(_INDEX) else list(keys) != [str(i).encode() for i in range(k)]:
        return -1
    if list(_structs(k).ints(b"".join(dls))) != sizes:
        return -1
    for kind, body in zip(kinds, bodies):
        layout = _command_layout(kind, tuple(_COMMAND_NUMBER.findall(body)))
        if layout is None:
            return -1
        values = layout.unpack(body)
        total = sum(values)
        if total - total != 0.0:  # a NaN or an infinity among them
            return -1
        for i in layout.style:
            if not 0.0 <= values[i] <= 1.0:
                return -1
        for i in layout.positive:
            if not values[i] > 0.0:
                return -1
        if layout.quaternion and not _LO <= hypot(*[values[i] for i in layout.quaternion]) <= _HI:
            return -1
        if layout.ray and [values[i] for i in layout.ray[0]] == [values[i] for i in layout.ray[1]]:
            return -1
    return k


class _Structs:
    """Unpackers for the k states of a frame (cached per k: ``_structs``)."""

    def __init__(self, k: int) -> None:
        self.ints = struct.Struct("<" + "i" * k).unpack
        self.p = struct.Struct("<" + "3xd3xd3xd" * k).unpack
        self.r = struct.Struct("<" + "3xd3xd3xd3xd" * k).unpack


@functools.lru_cache(maxsize=256)
def _structs(k: int) -> _Structs:
    """The unpackers for ``k`` states, made once per process (not per recording) for the
    frame sizes met most recently."""
    return _Structs(k)


class FrameMatcher:
    """Checks canonical frames quickly; ``frame(entry)`` is False when it declines."""

    def __init__(self, walk: WalkState) -> None:
        self.walk = walk
        self.matched = 0
        # the frame frame() last accepted: whether it may start a run of frames like it (it destroys no
        # object and has no finding of a state; see _runs), its states, its layout
        self.runs = False
        self.states = 0
        self.producer = False

    def frame(self, entry: Entry) -> bool:
        raw = entry.raw
        if raw is None:
            return False
        walk = self.walk
        n = len(raw)
        commands = 0
        if raw[4:12] == _STATES_HEAD:  # {states, cmd: [...], t}: the spec encoder's order
            if n < 38 or raw[n - 1] != 0:
                return False
            if raw[n - 22:n - 9] == _TAIL:  # no debug command
                array, end, t_at = 12, n - 22, n - 9  # the states array's length field and end, the time
            elif raw[n - 12:n - 9] == _T_KEY:
                # debug commands between the states and the time: the states array ends where its
                # length field says, the cmd array runs from there to the time element
                array, t_at = 12, n - 9
                end = array + _I32_AT(raw, array)[0]
                if end < array or raw[end:end + 5] != _CMD_KEY:
                    return False
                commands = _commands(raw, end + 5, n - 12)
                if commands < 0:
                    return False
            else:
                return False
        elif raw[4:7] == _TIME_FIRST and raw[15:23] == _STATES_HEAD:  # {t, states, cmd: []}: the same keys
            if n < 38 or raw[n - 11:n - 1] != _EMPTY_CMD or raw[n - 1] != 0:
                return False
            array, end, t_at = 23, n - 11, 7
        else:
            # the producer's layout, whatever the driving profile: the walk judges both profiles at once, and
            # _compat_frame adds the findings the producer's keys get (spec: the time key and the empty cmd)
            if raw[4:22] == _COMPAT_HEAD:
                return self._compat_frame(entry, raw, n)
            return False
        if entry.key != str(walk.frames):
            return False
        (states_len,) = _I32_AT(raw, array)
        # where the states array must end (its NUL is the byte before)
        if array + states_len != end or raw[end - 1] != 0:
            return False
        (t,) = _F64_AT(raw, t_at)
        if t - t != 0.0 or t < 0.0:
            return False
        prev = walk.prev_time
        if prev is not None and t < prev:
            return False
        last = end - 1
        first = array + 4  # the first state element
        states = _STATE.findall(raw, first, last)
        k = len(states)
        self.runs = True
        if k == 0:
            if last != first:
                return False
        else:
            keys, dls, sids, flags, mlens, metas, pbs, rbs = zip(*states)
            # findall skips what does not match: the matches must tile the array exactly
            meta_sizes = list(map(len, metas))
            if sum(map(len, keys)) + sum(meta_sizes) + _STATE_FIXED * k != last - first:
                return False
            if keys != _INDEX[:k] if k <= len(_INDEX) else list(keys) != [str(i).encode() for i in range(k)]:
                return False
            st = _structs(k)
            meta_lens = st.ints(b"".join(mlens))
            if set(map(sub, st.ints(b"".join(dls)), meta_lens)) != _DOC or set(map(sub, meta_lens, meta_sizes)) != _ONE:
                return False
            joined = b"".join(metas)
            if not joined.isascii():
                try:
                    for meta in metas:
                        meta.decode("utf-8")
                except UnicodeDecodeError:
                    return False
            ids = st.ints(b"".join(sids))
            idset = set(ids)
            if len(idset) != k:
                return False
            # ids are judged against the objects only where the objects array could be read (as the
            # full walk judges them: no finding about an id, no object destroyed, otherwise)
            known = walk.objects_known
            if known and (not walk.objects.keys() >= idset or not walk.destroyed.isdisjoint(idset)):
                return False
            ps = st.p(b"".join(pbs))
            qs = st.r(b"".join(rbs))
            total = sum(ps) + sum(qs)
            if total - total != 0.0:
                return False
            norms = list(map(hypot, qs[0::4], qs[1::4], qs[2::4], qs[3::4]))
            if min(norms) < _LO or max(norms) > _HI:
                return False
            # (a run's layout has no command, and its ids name known objects: _runs)
            self.runs = b"d" not in flags and not commands and known
            if known and b"d" in flags:  # "d" destroys under both profiles
                gone = [i for i, f in zip(ids, flags) if f == b"d"]
                walk.destroyed.update(gone)
                walk.destroyed_spec.update(gone)
        # accepted: record what the full path would have recorded
        trace = walk.trace
        if trace is not None:
            trace.fast_frame(entry.index, walk.states, t, list(zip(ids, ps[0::3], ps[1::3], ps[2::3]))
                             if k and trace.positions.wants(entry.index) else ())
        if commands:
            self.runs = False
            walk.commands += commands
        walk.frames += 1
        walk.states += k
        self.states, self.producer = k, False
        walk.prev_time = t if prev is None or t > prev else prev
        walk.last_time = t
        self.matched += 1
        return True

    def _compat_frame(self, entry: Entry, raw: bytes, n: int) -> bool:
        """A frame as the producer writes it, ``{cmd: "", states: [...], time}``. The producer's flags
        "destroyed" and "instantiated" are compat's, not spec's: MATRIX-STATE-003 under spec, and
        "destroyed" destroys under compat only, as the full walk reads them."""
        walk = self.walk
        if raw[n - 1] != 0 or entry.key != str(walk.frames):
            return False
        if raw[n - 15:n - 9] == _TIME_F64:
            (t,) = _F64(raw[n - 9:n - 1])
            end = n - 15
        elif raw[n - 11:n - 5] == _TIME_I32:
            t = float(_I32(raw[n - 5:n - 1])[0])  # a number is a float to the rules (and in the stats)
            end = n - 11
        else:
            return False
        (states_len,) = _I32_AT(raw, 22)
        if 22 + states_len != end or raw[end - 1] != 0:
            return False
        if t - t != 0.0 or t < 0.0:
            return False
        prev = walk.prev_time
        if prev is not None and t < prev:
            return False
        objects, destroyed = walk.objects, walk.destroyed
        seen: set[int] = set()
        removed: list[int] = []
        removed_spec: list[int] = []
        long_flags: list[tuple[int, int, bytes]] = []  # (state, offset of its 'i' element, flag)
        tiled = 26
        k = 0
        F64, I32 = _F64, _I32
        trace = walk.trace
        points: list[tuple[int, float, float, float]] | None = (
            [] if trace is not None and trace.positions.wants(entry.index) else None)
        for g in _STATE_COMPAT.findall(raw, 26, end - 1):
            key, dl, sid_b, ilen, flag, mlen, meta, plen = g[:8]
            if key != (_INDEX[k] if k < len(_INDEX) else str(k).encode()):
                return False
            nums = []
            sizes = 0
            for j in _NUMBER_GROUPS:
                d = g[j]
                if d:
                    nums.append(F64(d)[0])
                    sizes += 11
                else:
                    nums.append(float(I32(g[j + 1])[0]))
                    sizes += 7
            p_size = (11 if g[8] else 7) + (11 if g[10] else 7) + (11 if g[12] else 7)
            if plen != _LEN_FIELDS.get(5 + p_size) or g[14] != _LEN_FIELDS.get(5 + sizes - p_size):
                return False
            doc_len = 4 + 8 + 8 + len(flag) + 8 + len(meta) + 3 + 5 + sizes + 3 + 5 + 1
            if dl != struct.pack("<i", doc_len) or ilen != struct.pack("<i", len(flag) + 1) \
                    or mlen != struct.pack("<i", len(meta) + 1):
                return False
            at = tiled + 2 + len(key)  # the state's document
            tiled = at + doc_len
            if not meta.isascii():
                try:
                    meta.decode("utf-8")
                except UnicodeDecodeError:
                    return False
            (sid,) = I32(sid_b)
            if sid not in objects or sid in destroyed or sid in seen:
                return False
            seen.add(sid)
            if len(flag) > 1:  # "instantiated" / "destroyed": not spec's flags, and no destruction under spec
                long_flags.append((k, at + 12, flag))  # 'i' follows the length and the id element
            elif flag == b"d":
                removed_spec.append(sid)
            if _COMPAT_FLAGS[flag]:
                removed.append(sid)
            total = sum(nums)
            if total - total != 0.0:
                return False
            norm = hypot(nums[3], nums[4], nums[5], nums[6])
            if norm < _LO or norm > _HI:
                return False
            if points is not None:
                points.append((sid, nums[0], nums[1], nums[2]))
            k += 1
        if tiled != end - 1:  # findall skips what does not match: the states must tile the array
            return False
        if trace is not None:
            trace.fast_frame(entry.index, walk.states, t, points or ())
        base = entry.value_offset
        producer_findings(walk, walk.frames, base, end, n - 1 - end, long_flags)
        self.runs = not removed and not long_flags
        walk.frames += 1
        walk.states += k
        self.states, self.producer = k, True
        destroyed.update(removed)  # "d" destroys under both profiles, "destroyed" under compat only
        walk.destroyed_spec.update(removed_spec)
        walk.prev_time = t if prev is None or t > prev else prev
        walk.last_time = t
        self.matched += 1
        return True


#: The findings of a frame in the producer's layout: (rule, profile it belongs to).
PRODUCER_RULES = (("MATRIX-FRAME-001", "spec"), ("MATRIX-FRAME-005", None), ("MATRIX-FRAME-003", "spec"))


def producer_finding_args(index: int, base: int, time_at: int, size: int, which: int) -> tuple[Any, ...]:
    """Finding ``which`` (of :data:`PRODUCER_RULES`) the full walk makes on the producer's keys of frame
    ``index`` (its document at ``base``; its time element at ``base + time_at``, ``size`` bytes long),
    at the same offset, with the element's length (as ``_locate`` would give it): ``FindingSink.add``'s
    arguments."""
    path = f"frames[{index}]"
    if which == 0:
        return ("MATRIX-FRAME-001", f"{path} stores its time under 'time' (the producer's key); the document's "
                "key is 't'", base + time_at, size, path + ".time", "t", "time")
    if which == 1:
        return ("MATRIX-FRAME-005", f"{path} stores its time under 'time', which the viewer does not read (it "
                "shows 0)", base + time_at, size, path + ".time", "t", "time")
    return ("MATRIX-FRAME-003", f"{path}.cmd is the empty string, not an array (the producer's habit; the "
            "document says an array)", base + 4, 10, path + ".cmd", "array", "the empty string")


#: The instance flags spec allows, as the full walk names them in MATRIX-STATE-003.
_SPEC_FLAGS = "'i' or 'd'"


def producer_findings(walk: WalkState, index: int, base: int, time_at: int, size: int,
                      long_flags: Sequence[tuple[int, int, bytes]] = ()) -> None:
    """Add :func:`producer_finding_args` to the walk, and the spec findings of the states whose flag is
    the producer's long one (``(state, offset in the frame of its 'i' element, flag)``), in the full
    walk's order: the time's, the states', the cmd's."""
    walk.add(*producer_finding_args(index, base, time_at, size, 0), only=PRODUCER_RULES[0][1])
    walk.add(*producer_finding_args(index, base, time_at, size, 1), only=PRODUCER_RULES[1][1])
    for state, at, flag in long_flags:
        path = f"frames[{index}].states[{state}].i"
        text = flag.decode("ascii")
        walk.add("MATRIX-STATE-003", f"{path} is {text!r}, not {_SPEC_FLAGS}", base + at, None, path, _SPEC_FLAGS,
                 text, only="spec")
    walk.add(*producer_finding_args(index, base, time_at, size, 2), only=PRODUCER_RULES[2][1])


# --- the objects array -----------------------------------------------------------------------------

#: A scene object as the spec encoder writes it: ``{id: int32, name, color: [3 doubles], static, type}``
#: then its type's geometry (``half_dimentions``: 3 doubles; ``radius``, and a capsule's ``half_height``:
#: doubles; ``vertices``: arrays of 3 doubles). Groups: the element's key, the document's length field,
#: the id, the name's length field and text, the colour, the type's length field and text, then the
#: half dimensions, the radius, the half height, the vertices' length field and elements (those of the
#: other geometries None).
_OBJECT = re.compile(
    rb"\x03(\d{1,9})\x00(.{4})"
    rb"\x10id\x00(.{4})"
    rb"\x02name\x00(.{4})([^\x00]*)\x00"
    rb"\x04color\x00\x26\x00\x00\x00(\x010\x00.{8}\x011\x00.{8}\x012\x00.{8})\x00"
    rb"\x08static\x00[\x00\x01]"
    rb"\x02type\x00(.{4})(box|sphere|capsule|convex)\x00"
    rb"(?:\x04half_dimentions\x00\x26\x00\x00\x00(\x010\x00.{8}\x011\x00.{8}\x012\x00.{8})\x00"
    rb"|\x01radius\x00(.{8})(?:\x01half_height\x00(.{8}))?"
    rb"|\x04vertices\x00(.{4})((?:\x04\d{1,9}\x00\x26\x00\x00\x00\x010\x00.{8}\x011\x00.{8}\x012\x00.{8}\x00)*)\x00)"
    rb"\x00",
    re.DOTALL,
)
#: One vertex of ``_OBJECT``'s vertices (its key, its three doubles' elements): they tile the group.
_VERTEX = re.compile(rb"\x04(\d{1,9})\x00\x26\x00\x00\x00(.{33})\x00", re.DOTALL)
_VEC3 = struct.Struct("<3xd3xd3xd").unpack
_F64_1 = struct.Struct("<d").unpack
_INF = float("inf")


def _positive(raw: bytes | None) -> bool:
    """A double's bytes hold a finite number > 0 (what MATRIX-OBJ-002 and MATRIX-NUM-002 leave alone)."""
    return raw is not None and 0.0 < _F64_1(raw)[0] < _INF


def objects(walk: WalkState, raw: bytes, spans_volume: Callable[[list[list[float]]], bool]) -> int:
    """The objects array ``raw`` (the section's value: its length field to its final NUL), where every
    object is in the spec encoder's shape and no rule has anything to say about it (a new id >= 0, a
    valid UTF-8 name, a colour in [0, 1], its type's geometry alone, sizes > 0, a convex hull of at
    least 4 vertices that spans a volume): the objects are recorded in the walk as the full walk
    records them, and their number returned; else -1, with nothing changed (the caller decodes the
    array and walks it in full). ``spans_volume``: the full walk's hull test."""
    n = len(raw)
    if _I32_AT(raw, 0)[0] != n or raw[n - 1] != 0:
        return -1
    pos, last = 4, n - 1
    index = 0
    found: dict[int, str] = {}
    known = walk.objects
    while pos < last:
        m = _OBJECT.match(raw, pos, last)  # (at pos: an array in another shape is declined at its first object)
        if m is None:
            return -1
        key, dl, oid_b, name_len, name, color, type_len, gtype, hd, radius, half_height, vlen, verts = m.groups()
        if key != (_INDEX[index] if index < len(_INDEX) else str(index).encode()):
            return -1
        if _I32_AT(dl)[0] != m.end() - m.start(2) or _I32_AT(name_len)[0] != len(name) + 1 \
                or _I32_AT(type_len)[0] != len(gtype) + 1:
            return -1
        (oid,) = _I32_AT(oid_b)
        if oid < 0 or oid in known or oid in found:
            return -1
        if not name.isascii():
            try:
                name.decode("utf-8")
            except UnicodeDecodeError:
                return -1
        if not all(0.0 <= c <= 1.0 for c in _VEC3(color)):  # (a NaN compares False)
            return -1
        if gtype == b"box":
            if hd is None or not all(0.0 < c < _INF for c in _VEC3(hd)):
                return -1
        elif gtype == b"sphere":
            if not _positive(radius) or half_height is not None:
                return -1
        elif gtype == b"capsule":
            if not (_positive(radius) and _positive(half_height)):
                return -1
        elif verts is None or not _hull(vlen, verts, spans_volume):
            return -1
        found[oid] = gtype.decode("ascii")
        pos = m.end()
        index += 1
    known.update(found)  # in the array's order, as the full walk adds them
    return index


def _hull(length: bytes, verts: bytes, spans_volume: Callable[[list[list[float]]], bool]) -> bool:
    """A convex object's vertices (the array's length field and elements) are at least 4 points of
    finite numbers, under the keys "0", "1"..., that span a volume."""
    if _I32_AT(length)[0] != len(verts) + 5:
        return False
    found = _VERTEX.findall(verts)
    if len(found) < 4 or 40 * len(found) + sum(len(k) for k, _ in found) != len(verts):
        return False
    if [k for k, _ in found] != [_INDEX[i] if i < len(_INDEX) else str(i).encode() for i in range(len(found))]:
        return False
    points = [list(_VEC3(xyz)) for _, xyz in found]
    total = sum(map(sum, points))
    return total - total == 0.0 and spans_volume(points)
