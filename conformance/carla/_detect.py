"""CARLA variant detection: which of the nine byte layouts a log holds, in one pass.

Every CARLA release writes header version 1, so the variant comes from the
content. :func:`detect_variant` frames the first packets once (at most
``DETECTION_PREFIX_FRAMES`` frames, ``DETECTION_PREFIX_BYTES`` bytes or
``DETECTION_PREFIX_PACKETS`` packets) and
reduces each to its *shape*: its id, its payload size and the u16 record count
the payload starts with. Each variant is then judged on those shapes alone,
with arithmetic, never by decoding payloads nine times.

The rule (README, "CARLA recorder logs"; the bounded-input work relies on it):

1. A variant is chosen only if it **explains every packet id and payload size**
   of the prefix: each id below 100 is one the variant defines, and each payload
   size is one the packet's layout can have in that variant
   (:func:`recspec.reference.carla.layout_misfit`: exact for fixed layouts,
   ``2 + count * record size`` for fixed records, at least ``2 + count *
   smallest record`` for variable records; ids of 100 and above are user
   packets and fit every variant).
2. A packet that is malformed *inside* (a wheel count of 2^32-1, 65,535 bones,
   a torque-curve count of 2^32-1) still has a size its layout can have, so it
   is never a reason to pick another variant: it is a finding, reported by the
   walk in the variant the rest of the prefix shows. Inner sizes (the record
   chain a variable layout's counts and string lengths imply,
   :func:`recspec.reference.carla.record_chain_misfit`) only break ties between
   variants that explain every id and outer size equally well: they are what
   tells 0.9.10-0.9.11 (36-byte wheel physics) from 0.9.12-0.9.13 (48 bytes).
3. Then: fewest always-written packets missing (``ALWAYS``), fewest out-of-range
   actor/attribute types in the EventAdd records, then the order of
   ``PREFERENCE``. If no variant explains every id and outer size (an undefined
   id, a payload of a size no layout has), the fewest unexplained packets win,
   then the same order.

Corruption cannot steer it: changing a byte inside a payload changes no id and
no size; changing an id or a size makes that packet unexplained in the variant
the rest of the file shows, and in nearly every other variant too.
"""

from __future__ import annotations

import re
import struct
from collections import Counter
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import add, attrgetter, eq, is_, itemgetter, mul
from typing import Any, BinaryIO, cast

from recspec._memo import BoundedMemo
from recspec.reference import carla as dec
from recspec.reference.carla import VARIANTS, Variant
from recspec.reference.carla import PacketKind as K

__all__ = ["ALWAYS", "DETECTION_PREFIX_BYTES", "DETECTION_PREFIX_FRAMES", "DETECTION_PREFIX_PACKETS", "PREFERENCE",
           "RULE", "detect_variant"]

#: Variant detection reads at most this much of the file.
DETECTION_PREFIX_BYTES = 8 * 1024 * 1024
DETECTION_PREFIX_FRAMES = 64
#: ... or this many packets (64 busy frames hold about 1,500), whichever comes first: a flood of tiny
#: packets would otherwise keep up to 8 MiB of them (1.2 million 7-byte ones).
DETECTION_PREFIX_PACKETS = 16384

#: Tie-break between variants that fit the bytes equally well: released versions
#: first, newest first; development numberings last.
PREFERENCE = ("0.9.15", "0.9.16", "0.9.14", "0.9.12-0.9.13", "0.9.10-0.9.11", "0.9.6-0.9.9",
              "0.9.4-0.9.5", "dev-2023", "ue5")

#: The rule, as the report's evidence states it.
RULE = ("a variant must explain every packet id and payload size of the prefix (a packet malformed inside is a "
        "finding, not a reason to pick another variant); then fewest always-written packets missing, fewest "
        "out-of-range actor/attribute types, then the order " + ", ".join(PREFERENCE))

_EVENTS = (K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION)
_STATE = (K.POSITION, K.STATE)
_ANIM = (K.ANIM_VEHICLE, K.ANIM_WALKER)

#: Packets CARLA writes in every frame, even with no records (used to tell variants apart).
ALWAYS: dict[str, frozenset[K]] = {
    "0.9.4-0.9.5": frozenset((*_EVENTS, *_STATE)),
    "0.9.6-0.9.9": frozenset((*_EVENTS, *_STATE, *_ANIM)),
    "0.9.10-0.9.11": frozenset((*_EVENTS, *_STATE, *_ANIM, K.VEHICLE_LIGHT)),
}
ALWAYS["0.9.12-0.9.13"] = ALWAYS["0.9.10-0.9.11"]
ALWAYS["0.9.14"] = ALWAYS["0.9.10-0.9.11"] | {K.VISUAL_TIME}
ALWAYS["0.9.15"] = ALWAYS["0.9.14"] | {K.ANIM_VEHICLE_WHEELS, K.ANIM_BIKER}
ALWAYS["dev-2023"] = ALWAYS["0.9.16"] = ALWAYS["ue5"] = ALWAYS["0.9.15"] | {K.VEHICLE_DOOR}

# The on-disk ids of each variant's always-written packets, and of its FrameStart/FrameEnd.
_ALWAYS_IDS = {name: frozenset(i for i, k in v.ids.items() if k in ALWAYS[name]) for name, v in VARIANTS.items()}


@dataclass
class _Fit:
    variant: Variant
    misfits: int = 0  # payload sizes the variant's layout cannot have
    unknown: int = 0  # ids below 100 the variant does not define
    inner: int = 0  # variable-record payloads whose record chain does not add up (ties only)
    inner_checked: bool = False
    missing_always: int = 0
    enum_misfits: int = 0
    first_problem: str = ""
    notes: list[str] = field(default_factory=list)

    def outer(self) -> int:
        return self.misfits + self.unknown


@dataclass
class _Prefix:
    """The shapes of the prefix's packets, each distinct one counted once."""

    packets: int = 0
    #: (packet id, payload size, the u16 the payload starts with, or -1 for a payload of less than 2 bytes
    #: or an id of ``_NO_COUNT_IDS``) -> (how many, first offset, a payload)
    shapes: dict[tuple[int, int, int], list[Any]] = field(default_factory=dict)
    #: the set of packet ids in each complete frame (FrameStart .. FrameEnd)
    frames: Counter[frozenset[int]] = field(default_factory=Counter)
    #: every distinct payload of an id that is a variable-record layout in some variant, in the
    #: order of their first copies: (packet id, payload) -> [how many, offset of the first copy's payload]
    variable: dict[tuple[int, bytes], list[int]] = field(default_factory=dict)


# FrameStart and FrameEnd keep ids 0 and 1 in every variant (and EventAdd 2).
_FRAME_START, _FRAME_END, _EVENT_ADD = 0, 1, 2
assert all(v.ids[_FRAME_START] is K.FRAME_START and v.ids[_FRAME_END] is K.FRAME_END
           and v.ids[_EVENT_ADD] is K.EVENT_ADD for v in VARIANTS.values())
_VARIABLE_KINDS = (K.EVENT_ADD, K.PHYSICS_CONTROL, K.WALKER_BONES, K.ANIM_VEHICLE_WHEELS)
_VARIABLE_IDS = frozenset(i for v in VARIANTS.values() for i, k in v.ids.items() if k in _VARIABLE_KINDS)
_HEAD = struct.Struct("<BI")
#: A frame of more packets than this is not read in bulk (its format would grow with it; a
#: frame as CARLA writes it holds at most about 25, one per kind).
_FRAME_SHAPE_PACKETS = 64
#: Ids that are a layout without a record count in every variant that defines them (FrameStart,
#: FrameEnd, PlatformTime, FrameCounter, VisualTime): their payloads' first u16 is data (a frame id,
#: a time), which no layout judges, so it is left out of their shapes.
_NO_COUNT_IDS = frozenset(
    i for i in {i for v in VARIANTS.values() for i in v.ids}
    if all(v.ids[i] in (K.FRAME_START, K.FRAME_END, K.PLATFORM_TIME, K.FRAME_COUNTER, K.VISUAL_TIME)
           for v in VARIANTS.values() if i in v.ids))


@dataclass
class _FrameShape:
    """A frame's packet ids and sizes, read for the next frames with one ``struct`` call:
    a frame of the same ids and sizes adds to the prefix the shapes of its packets (each
    with the u16 its payload starts with, read by the same call), its ids, and its
    variable-record payloads, with no framing step per packet."""

    size: int
    packets: list[tuple[int, int]]  # (id, size) of each packet
    unpack: Any  # Struct.unpack_from of the ids, sizes and u16s
    shape: Any  # itemgetter of the ids and sizes
    expected: tuple[int, ...]
    u16s: Any  # itemgetter of each packet's u16 from the unpacked fields and a -1 after them
    at: list[int]  # each packet's offset in the frame
    ids: frozenset[int]  # the ids between FrameStart and FrameEnd
    variable: list[tuple[int, int, int]]  # (packet id, payload offset in the frame, size) of the variable ones

    @classmethod
    def of(cls, packets: list[tuple[int, int]]) -> _FrameShape:
        fmt = ["<"]
        shape: list[int] = []
        u16: list[int] = []
        at: list[int] = []
        variable = []
        fields = 0
        rel = 0
        for pid, n in packets:
            shape += (fields, fields + 1)
            counted = n >= 2 and pid not in _NO_COUNT_IDS
            fmt.append("BIH" if counted else "BI")
            u16.append(fields + 2 if counted else -1)
            fields += 3 if counted else 2
            if pid in _VARIABLE_IDS:
                variable.append((pid, rel + 5, n))
            if n - 2 * counted:
                fmt.append(f"{n - 2 * counted}x")
            at.append(rel)
            rel += 5 + n
        u16 = [fields if j < 0 else j for j in u16]  # -1: the value appended after the fields
        return cls(rel, packets, struct.Struct("".join(fmt)).unpack_from, itemgetter(*shape),
                   tuple(x for p in packets for x in p), itemgetter(*u16) if len(u16) > 1 else
                   itemgetter(u16[0], u16[0]), at, frozenset(pid for pid, _ in packets[1:-1]), variable)


#: Frame shapes by their packets' (id, size), kept across files (a fuzzer's inputs and a directory's
#: logs repeat a few), up to ``_FRAME_SHAPES_MAX`` (then forgotten all at once).
_FRAME_SHAPES_MAX = 1024
_FRAME_SHAPES: BoundedMemo[tuple[tuple[int, int], ...], _FrameShape] = BoundedMemo(_FRAME_SHAPES_MAX)


def _frame_shape(packets: list[tuple[int, int]]) -> _FrameShape:
    key = tuple(packets)
    shape = _FRAME_SHAPES.get(key)
    if shape is None:
        shape = _FRAME_SHAPES.keep(key, _FrameShape.of(packets))
    return shape


#: A file of at most this many bytes after its header (a fuzzer's input, a short log) is read whole and
#: framed at once (``_read_small_prefix``); a larger one packet by packet, frame by frame. Framing at once
#: keeps lists of every packet (about 260 bytes a packet: at most about 0.9 MiB for 3,276 empty ones),
#: so the bound keeps detection's memory from growing with a file's packets.
SMALL_PREFIX_BYTES = 16 * 1024
_GET_ID = itemgetter(0)
_U32_AT = struct.Struct("<I").unpack_from
#: By packet id: -1 for an id whose payload's first u16 is not part of its shape (``_NO_COUNT_IDS``), else 0.
#: OR-ed into the u16 read from the payload, it gives the shape's -1 without a test
_NO_U16 = tuple(-1 if i in _NO_COUNT_IDS else 0 for i in range(256))
#: By packet id: 2 for FrameEnd, 1 for an id of ``_VARIABLE_IDS``, else 0: the common packet takes one test
_SPECIAL = bytes(2 if i == _FRAME_END else 1 if i in _VARIABLE_IDS else 0 for i in range(256))
#: A complete frame in the ids of the packets (FrameStart 0, FrameEnd 1): the ids between them
_FRAME_IDS = re.compile(rb"\x00([^\x00\x01]*)\x01")


def _read_small_prefix(f: BinaryIO, offset: int, size: int) -> _Prefix:
    """``_read_prefix`` of a file whose packets after the header are at most
    ``SMALL_PREFIX_BYTES`` (the fuzzer's inputs, small logs): the file is read whole, and one loop
    steps from packet to packet, counting each packet's shape and variable payload as it goes, and
    stops where the packet-by-packet reading stops (a packet whose header or payload runs past the
    file, one above the size limit, the ``DETECTION_PREFIX_PACKETS``-th packet, the
    ``DETECTION_PREFIX_FRAMES``-th FrameEnd); its frames are found by one regular expression over
    the ids. The same prefix as the packet-by-packet reading (the tests compare the two)."""
    if size - offset > SMALL_PREFIX_BYTES:  # not a small file: the loop below relies on its bound
        return _read_prefix(f, offset, size)
    prefix = _Prefix()
    reader = dec.PacketReader(f, VARIANTS["0.9.4-0.9.5"], offset, size)
    buf, i = reader.window(size - offset)
    # a packet must end by the file's size and its bytes; its header must lie in the bytes. Two of the
    # packet-by-packet reading's stops cannot come in these bytes: a payload above the size limit
    # (``MAX_PACKET_SIZE``) runs past them, and they hold fewer packets than ``DETECTION_PREFIX_PACKETS``
    # (a packet is at least 5 bytes; tests/test_carla_detect_equivalence.py holds the constants to it), so
    # the loop tests neither
    end = min(len(buf), i + size - offset)
    heads_end = min(end, len(buf) - 4)  # a packet starts before both
    # the u16 a payload starts with is read for every packet, two bytes of zeros after the buffer for a
    # payload of 0 or 1 bytes at its end; where it is not part of the shape (a payload of 0 or 1 bytes, an
    # id of ``_NO_COUNT_IDS``), OR-ing -1 into it makes it -1. A fuzz campaign's instrumentation hooks every
    # comparison and conditional jump: the common packet (an id neither FrameEnd nor of variable records)
    # costs three comparisons and four jumps (tests/test_carla_framing_steps.py counts them), and no
    # more Python steps than the tests they replace
    padded = buf + b"\x00\x00"
    # one step per packet: a dictionary look-up per shape (the maps over lists this replaced made about
    # twenty lists of a packet each, which cost more than the loop for the tens of packets of a corpus or
    # fuzz input)
    shapes: dict[tuple[int, int, int], list[Any]] = {}
    variable: dict[tuple[int, bytes], list[int]] = {}
    get_shape, get_variable = shapes.get, variable.get
    ids = bytearray()
    u32, no_u16, special = _U32_AT, _NO_U16, _SPECIAL
    shift = offset - i  # a position in the file, from one in the buffer
    frame_ends = 0
    at = i
    while at < heads_end:
        pid = buf[at]
        (length,) = u32(buf, at + 1)
        body = at + 5
        following = body + length
        if following > end:
            break
        key = (pid, length, padded[body] | padded[body + 1] << 8 | no_u16[pid] | -(length < 2))
        entry = get_shape(key)
        if entry is None:  # a new shape (no else: one basic block fewer for the common packet, a seen shape)
            entry = shapes[key] = [0, at + shift, buf[body:following]]
        entry[0] += 1
        ids.append(pid)
        at = following
        if special[pid]:
            if pid == _FRAME_END:
                frame_ends += 1
                if frame_ends == DETECTION_PREFIX_FRAMES:  # the prefix ends with the 64th FrameEnd
                    break
            else:  # a variable-record id
                vkey = (pid, buf[body:following])
                copies = get_variable(vkey)
                if copies is None:
                    variable[vkey] = [1, body + shift]
                else:
                    copies[0] += 1
    prefix.packets = len(ids)
    if not ids:
        return prefix
    prefix.shapes = shapes
    prefix.variable = variable
    prefix.frames = Counter(map(frozenset, _FRAME_IDS.findall(ids)))
    return prefix


def _read_prefix(f: BinaryIO, offset: int, size: int | None, *, bulk: bool = True) -> _Prefix:
    """Frame the first packets once (variant independent) and keep their shapes.

    The framing is ``PacketReader``'s, packet for packet (a packet that runs past the
    file or the size limit ends the prefix), on its buffer: a packet costs one
    ``unpack_from`` and a dictionary look-up, no object. With ``bulk``, a small file is
    framed whole (``_read_small_prefix``); in a larger one, a frame of the
    shape of the one before it is read with one ``struct`` call (``_FrameShape``), and a
    packet inside a frame that is whole and within the limits takes a shorter way; the
    prefix is the same (the tests compare the two)."""
    if bulk and size is not None and size - offset <= SMALL_PREFIX_BYTES:
        return _read_small_prefix(f, offset, size)
    prefix = _Prefix()
    shapes = prefix.shapes
    frames = prefix.frames
    variable = prefix.variable
    frame_ids: set[int] | None = None
    frame: list[tuple[int, int]] | None = None  # (id, size) of the packets of the frame being read
    last: _FrameShape | None = None
    frames_seen = 0
    reader = dec.PacketReader(f, VARIANTS["0.9.4-0.9.5"], offset, size)
    unpack = _HEAD.unpack_from
    limit = reader.max_packet_size
    end_bytes = offset + DETECTION_PREFIX_BYTES
    pos = offset  # of the next packet in the file
    stop = size if size is not None else 1 << 64  # no packet of the prefix ends past it
    buf, i = reader.window(5)
    while prefix.packets < DETECTION_PREFIX_PACKETS:
        # the common case in few comparisons: a packet between FrameStart and FrameEnd, whole in the
        # buffer, within the file's size and the limit, needs no framing step (with ``bulk``)
        whole = False
        if bulk and len(buf) - i >= 5:
            pid, n = unpack(buf, i)
            whole = i + 5 + n <= min(len(buf), stop - pos + i, i + 5 + limit) and pid > _FRAME_END
        if not whole:
            if len(buf) - i < 5:
                reader.advance(pos - reader.tell())
                buf, i = reader.window(5)
                if len(buf) - i < 5:
                    break
            pid, n = unpack(buf, i)
            if (size is not None and pos + 5 + n > size) or n > limit:
                break
            if len(buf) - i < 5 + n:
                reader.advance(pos - reader.tell())
                buf, i = reader.window(5 + n)
                if len(buf) - i < 5 + n:
                    break
        prefix.packets += 1
        key = (pid, n, buf[i + 5] | buf[i + 6] << 8 if n >= 2 and pid not in _NO_COUNT_IDS else -1)
        entry = shapes.get(key)
        if entry is None:
            shapes[key] = [1, pos, buf[i + 5:i + 5 + n]]
        else:
            entry[0] += 1
        closed = False
        if pid == _FRAME_START:
            frame_ids = set()
            frame = []
        elif pid == _FRAME_END:
            frames_seen += 1
            if frame_ids is not None:
                frames[frozenset(frame_ids)] += 1
                closed = True
            frame_ids = None
        elif frame_ids is not None:
            frame_ids.add(pid)
        if frame is not None:
            frame.append((pid, n))
            if len(frame) > _FRAME_SHAPE_PACKETS:
                frame = None  # too many packets for a shape worth reading in one call
        if pid in _VARIABLE_IDS:
            vkey = (pid, buf[i + 5:i + 5 + n])
            copies = variable.get(vkey)
            if copies is None:
                variable[vkey] = [1, pos + 5]
            else:
                copies[0] += 1
        i += 5 + n
        pos += 5 + n
        if frames_seen >= DETECTION_PREFIX_FRAMES or pos >= end_bytes:
            break
        if not closed or not bulk or frame is None:
            if pid == _FRAME_END:
                frame = None
            continue
        if last is None or last.packets != frame:
            last = _frame_shape(frame)
        frame = None
        # the frames that follow with the same ids and sizes (each within the file and the limits);
        # a frame whose u16s are the previous one's adds to the same shapes: counted at the end
        count = len(last.packets)
        group: tuple[int, ...] = ()  # the u16s of the frames being counted
        same = 0  # how many frames after the first of the group have its u16s
        while (prefix.packets + count < DETECTION_PREFIX_PACKETS and pos + last.size < end_bytes
               and (size is None or pos + last.size <= size)):
            if len(buf) - i < last.size:
                reader.advance(pos - reader.tell())
                buf, i = reader.window(last.size)
                if len(buf) - i < last.size:
                    break
            t = last.unpack(buf, i)
            if last.shape(t) != last.expected:
                break
            prefix.packets += count
            u16s = last.u16s((*t, -1))
            if u16s == group:
                same += 1
            else:
                _count_again(shapes, last.packets, group, same)
                group, same = u16s, 0
                for (pid, n), u16, rel in zip(last.packets, u16s, last.at):
                    entry = shapes.get((pid, n, u16))
                    if entry is None:
                        shapes[(pid, n, u16)] = [1, pos + rel, buf[i + rel + 5:i + rel + 5 + n]]
                    else:
                        entry[0] += 1
            frames[last.ids] += 1
            frames_seen += 1
            for vid, at, n in last.variable:
                vkey = (vid, buf[i + at:i + at + n])
                copies = variable.get(vkey)
                if copies is None:
                    variable[vkey] = [1, pos + at]
                else:
                    copies[0] += 1
            i += last.size
            pos += last.size
            if frames_seen >= DETECTION_PREFIX_FRAMES:
                break
        _count_again(shapes, last.packets, group, same)
        if frames_seen >= DETECTION_PREFIX_FRAMES:
            return prefix
    return prefix


def _count_again(shapes: dict[tuple[int, int, int], list[Any]], packets: list[tuple[int, int]],
                 u16s: tuple[int, ...], times: int) -> None:
    """Count ``times`` more of each shape of a frame of ``packets`` (id, size) and ``u16s``."""
    if times:
        for (pid, n), u16 in zip(packets, u16s):
            shapes[(pid, n, u16)][0] += times


def _fit(variant: Variant, prefix: _Prefix, misfits: dict[tuple[Any, ...], str | None]) -> _Fit:
    """How well ``variant`` explains the prefix's shapes; ``misfits`` keeps the answers of
    ``layout_misfit`` across variants (they depend on the kind, the vector width and whether
    PhysicsControl is kept as bytes, besides the shape).

    The straightforward per-variant reading of the rule: :func:`_fits` gives the same
    answers for all variants at once (``detect_variant(..., grouped=False)`` uses this one,
    and the tests hold the two to each other)."""
    fit = _Fit(variant)
    ids = variant.ids
    layout = (variant.vec_f64, variant.wheel_physics_size is None)
    for shape, (n, at, payload) in prefix.shapes.items():
        pid = shape[0]
        kind = ids.get(pid)
        if kind is None:
            if pid < 100:
                fit.unknown += n
                if not fit.first_problem:
                    fit.first_problem = f"packet id {pid} at offset {at} is not defined"
            continue
        key = (kind, layout, shape)
        if key in misfits:
            expected = misfits[key]
        else:
            expected = misfits[key] = dec.layout_misfit(kind, payload, variant)
        if expected is not None:
            fit.misfits += n
            if not fit.misfits - n:  # the first misfit names itself, even after an undefined id
                fit.first_problem = (f"packet id {pid} at offset {at}: {kind.label} payload is {len(payload)} bytes, "
                                     f"its layout implies {expected}")
    always = _ALWAYS_IDS[variant.name]
    fit.missing_always = sum(n * len(always - ids_seen) for ids_seen, n in prefix.frames.items())
    return fit


_VARIANT_LIST = tuple(VARIANTS.values())


def _id_groups(pid: int) -> tuple[tuple[int, ...], tuple[tuple[K, tuple[int, ...]], ...]]:
    """For packet id ``pid``: the variants (by index in ``VARIANTS``) in which it is an undefined
    id below 100, and the others grouped by the layout that judges its payload sizes (the kind,
    the vector width and whether PhysicsControl is kept as bytes: what ``layout_misfit``
    depends on besides the shape), each group as (kind, variant indices)."""
    undefined: list[int] = []
    groups: dict[tuple[K, bool, bool], list[int]] = {}
    for i, v in enumerate(_VARIANT_LIST):
        kind = v.ids.get(pid)
        if kind is None:
            if pid < 100:
                undefined.append(i)
        else:
            groups.setdefault((kind, v.vec_f64, v.wheel_physics_size is None), []).append(i)
    return tuple(undefined), tuple((key[0], tuple(members)) for key, members in groups.items())


_ID_GROUPS = tuple(_id_groups(pid) for pid in range(256))

#: A shape's verdict: the variants that do not explain it, each as (variant index, its kind in that
#: variant or ``None`` for an undefined id, what the layout implies). A verdict depends on the shape
#: alone (``layout_misfit`` reads the payload's size and its first u16, which the shape holds), so
#: verdicts are kept across files, up to ``_VERDICTS_MAX`` shapes (then forgotten all at once).
_Verdict = tuple[tuple[int, "K | None", str], ...]
_VERDICTS_MAX = 8192
_VERDICTS: BoundedMemo[tuple[int, int, int], _Judged] = BoundedMemo(_VERDICTS_MAX)


def _verdict(shape: tuple[int, int, int], payload: bytes) -> _Verdict:
    undefined, groups = _ID_GROUPS[shape[0]]
    out: list[tuple[int, K | None, str]] = [(i, None, "") for i in undefined]
    for kind, members in groups:
        expected = dec.layout_misfit(kind, payload, _VARIANT_LIST[members[0]])
        if expected is not None:
            out += [(i, kind, expected) for i in members]
    return tuple(sorted(out, key=itemgetter(0)))


class _Judged:
    """A distinct verdict, made once (kept across files) and counted into every variant at once:
    the variants of the undefined id, and the variants of each (kind, what the layout implies) that
    the size does not fit. Shapes of one verdict share one object, which hashes
    by identity (a verdict tuple is hashed again, entry by entry, at every look-up)."""

    __slots__ = ("groups", "judged", "undefined")

    def __init__(self, verdict: _Verdict) -> None:
        self.judged = bool(verdict)  # False: every variant explains the shape
        self.undefined = tuple(i for i, kind, _ in verdict if kind is None)
        groups: dict[tuple[K, str], list[int]] = {}
        for i, kind, expected in verdict:
            if kind is not None:
                groups.setdefault((kind, expected), []).append(i)
        self.groups = tuple((tuple(members), kind, expected) for (kind, expected), members in groups.items())


#: One ``_Judged`` per distinct verdict (cleared with ``_VERDICTS``).
_JUDGED: dict[_Verdict, _Judged] = {}


def _judged(verdict: _Verdict) -> _Judged:
    judged = _JUDGED.get(verdict)
    if judged is None:
        judged = _JUDGED[verdict] = _Judged(verdict)
    return judged


def _missing_always(ids_seen: frozenset[int]) -> tuple[int, ...]:
    """Per variant, how many of its always-written packets a frame of ``ids_seen`` lacks."""
    return tuple(len(_ALWAYS_IDS[v.name] - ids_seen) for v in _VARIANT_LIST)


#: ``_missing_always`` by the ids a frame holds, kept across files (bounded like the verdicts).
_MISSING_ALWAYS: BoundedMemo[frozenset[int], tuple[int, ...]] = BoundedMemo(_VERDICTS_MAX)


def _fits(prefix: _Prefix) -> list[_Fit]:
    """How well each variant explains the prefix's shapes, in the order of ``VARIANTS``: the
    answers of :func:`_fit` for every variant, with each shape judged once per distinct
    layout (its verdict, :func:`_verdict`), not once per variant, and each distinct verdict
    counted into the variants at once (its ``_Judged``: columns added in C loops)."""
    verdicts = _VERDICTS
    shapes = list(prefix.shapes)
    entries = list(prefix.shapes.values())
    kept = list(map(verdicts.get, shapes))
    for k in compress(range(len(kept)), map(is_, kept, repeat(None))):  # shapes not judged before
        if verdicts.full():
            _JUDGED.clear()  # forgotten with the shapes that hold them
        kept[k] = verdicts.keep(shapes[k], _judged(_verdict(shapes[k], entries[k][2])))
    found = cast("list[_Judged]", kept)  # every shape judged now
    # the packets of each distinct verdict, and its first shape: shapes are in the order of their
    # first packets, so a variant's first undefined id (or misfit) is in the first verdict that has it
    totals: dict[_Judged, int] = {}
    for verdict, n in zip(found, map(_GET_ID, entries)):
        totals[verdict] = totals.get(verdict, 0) + n
    first = dict(zip(reversed(found), range(len(found) - 1, -1, -1)))
    count = len(_VARIANT_LIST)
    unknown = [0] * count
    misfits = [0] * count
    undefined_first: dict[int, str] = {}  # variant index -> its first problem: from the first verdict that has it
    misfit_first: dict[int, str] = {}
    for verdict, n in totals.items():
        if not verdict.judged:
            continue
        k = first[verdict]
        pid, at = shapes[k][0], entries[k][1]
        undefined = verdict.undefined
        for i in undefined:
            unknown[i] += n
        if undefined and not undefined_first.keys() >= set(undefined):  # a message only where one is new
            message = f"packet id {pid} at offset {at} is not defined"
            for i in undefined:
                undefined_first.setdefault(i, message)
        for members, kind, expected in verdict.groups:
            for i in members:
                misfits[i] += n
            if not misfit_first.keys() >= set(members):
                message = (f"packet id {pid} at offset {at}: {kind.label} payload is {shapes[k][1]} bytes, "
                           f"its layout implies {expected}")
                for i in members:
                    misfit_first.setdefault(i, message)
    undefined_first.update(misfit_first)  # the first misfit names itself, even after an undefined id
    missing = [0] * count
    for ids_seen, n in prefix.frames.items():
        per_variant = _MISSING_ALWAYS.get(ids_seen)
        if per_variant is None:
            per_variant = _MISSING_ALWAYS.keep(ids_seen, _missing_always(ids_seen))
        missing = list(map(add, missing, map(mul, per_variant, repeat(n))))
    return list(map(_Fit, _VARIANT_LIST, misfits, unknown, repeat(0), repeat(False), missing, repeat(0),
                    map(undefined_first.get, range(count), repeat(""))))


_Chains = dict[tuple[int, K, bool, int | None], "str | None"]


def _inner_misfits(fits: list[_Fit], prefix: _Prefix) -> _Chains:
    """Variable-record payloads whose record chain does not add up, in each variant of
    ``fits``. The chain depends only on the kind and the layout's vector and wheel sizes,
    so variants that share them share the answer: each payload is walked once per layout.
    Returns the answers by (payload offset, kind, vector size, wheel size)."""
    answers: _Chains = {}
    for (pid, payload), (copies, at) in prefix.variable.items():
        for fit in fits:
            v = fit.variant
            kind = v.ids.get(pid)
            if kind is None or kind not in _VARIABLE_KINDS:
                continue
            key = (at, kind, v.vec_f64, v.wheel_physics_size if kind is K.PHYSICS_CONTROL else None)
            if key not in answers:
                answers[key] = dec.record_chain_misfit(kind, payload, v)
            why = answers[key]
            if why is not None:
                fit.inner += copies
                if not fit.first_problem:
                    fit.first_problem = (f"packet id {pid} at offset {at - 5}: {kind.label} records do not add up "
                                         f"({why})")
    return answers


_Layout = tuple[K, bool, "int | None"]
#: By (packet id, the variants asked): the variants (by index among them) grouped by the layout that
#: walks a payload of that id's record chain; kept across files (bounded like the verdicts).
_LAYOUT_GROUPS: BoundedMemo[tuple[int, tuple[str, ...]], tuple[tuple[_Layout, tuple[int, ...]], ...]] = \
    BoundedMemo(_VERDICTS_MAX)


def _layout_groups(pid: int, variants: list[Variant]) -> tuple[tuple[_Layout, tuple[int, ...]], ...]:
    grouped: dict[_Layout, list[int]] = {}
    for j, v in enumerate(variants):
        kind = v.ids.get(pid)
        if kind is not None and kind in _VARIABLE_KINDS:
            grouped.setdefault((kind, v.vec_f64, v.wheel_physics_size if kind is K.PHYSICS_CONTROL else None),
                               []).append(j)
    return tuple((layout, tuple(members)) for layout, members in grouped.items())


#: ``record_chain_misfit``'s answers by (kind, vector width, wheel size, payload), kept across files (a
#: fuzzer's inputs and a directory's logs repeat their payloads) for payloads of at most
#: ``_CHAINS_PAYLOAD_MAX`` bytes, up to ``_CHAINS_MAX`` answers (then forgotten all at once; at most 4 MiB of
#: payloads): an answer depends on the payload's bytes and the layout alone.
_CHAINS_PAYLOAD_MAX = 4096
_CHAINS_MAX = 1024
_CHAINS: BoundedMemo[tuple[K, bool, int | None, bytes], str | None] = BoundedMemo(_CHAINS_MAX)


def _chain_misfit(kind: K, vec_f64: bool, wheels: int | None, payload: bytes, variant: Variant) -> str | None:
    """``record_chain_misfit(kind, payload, variant)``, for a variant of that layout, remembered."""
    if len(payload) > _CHAINS_PAYLOAD_MAX:
        return dec.record_chain_misfit(kind, payload, variant)
    key = (kind, vec_f64, wheels, payload)
    if key in _CHAINS:
        return _CHAINS[key]
    return _CHAINS.keep(key, dec.record_chain_misfit(kind, payload, variant))


def _inner_misfits_by_layout(fits: list[_Fit], prefix: _Prefix) -> _Chains:
    """:func:`_inner_misfits` with the variants of ``fits`` grouped by layout once per packet id
    (kept across files), so that a payload whose chain adds up costs one test per layout, not one
    per variant (the same answers: ``detect_variant(..., grouped=False)`` uses the other, and the
    tests compare)."""
    answers: _Chains = {}
    names = tuple(map(_NAME, fits))
    for (pid, payload), (copies, at) in prefix.variable.items():
        groups = _LAYOUT_GROUPS.get((pid, names))
        if groups is None:
            groups = _LAYOUT_GROUPS.keep((pid, names), _layout_groups(pid, [fit.variant for fit in fits]))
        for (kind, vec_f64, wheels), members in groups:  # each payload has its own offset: a key of its own
            why = answers[at, kind, vec_f64, wheels] = _chain_misfit(kind, vec_f64, wheels, payload,
                                                                     fits[members[0]].variant)
            if why is not None:
                for j in members:
                    fit = fits[j]
                    fit.inner += copies
                    if not fit.first_problem:
                        fit.first_problem = (f"packet id {pid} at offset {at - 5}: {kind.label} records do not "
                                             f"add up ({why})")
    return answers


def _enum_misfits(fits: list[_Fit], prefix: _Prefix, chains: _Chains) -> None:
    """Out-of-range actor and attribute types in the EventAdd records, in each variant of
    ``fits`` (only asked of the variants that explain every shape; a record that does not
    decode is the walk's finding). An EventAdd decodes the same in every variant of one
    vector size, so each payload is scanned once per vector size (``scan_event_add``, no object
    per attribute), and not at all where its record chain does not add up."""
    # last first: the first EventAdd (usually the big one, frame 1's) is scanned last, so that the
    # walk finds its scan among the ones ``scan_event_add`` keeps
    for (pid, payload), (copies, at) in reversed(prefix.variable.items()):
        if pid != _EVENT_ADD:
            continue
        for vec_f64 in (False, True):
            group = [fit for fit in fits if fit.variant.vec_f64 is vec_f64]
            if not group or chains.get((at, K.EVENT_ADD, vec_f64, None)) is not None:
                continue
            scan = dec.scan_event_add(payload, vec_f64)
            if scan is None:
                continue
            actor_types = bytes(r[2] for r in scan.records)  # u8 fields: the whole packet at once
            attribute_types = scan.types(0, len(scan.starts))
            for fit in group:
                v = fit.variant
                fit.enum_misfits += copies * len(actor_types.translate(None, bytes(range(v.actor_types - 1))))
                fit.enum_misfits += copies * len(attribute_types.translate(None, bytes(v.attribute_types)))


_MISFITS, _UNKNOWN, _INNER = attrgetter("misfits"), attrgetter("unknown"), attrgetter("inner")
_MISSING, _ENUMS, _NAME = attrgetter("missing_always"), attrgetter("enum_misfits"), attrgetter("variant.name")
_FIRST_FOUR = itemgetter(slice(0, 4))
_RANK = {name: PREFERENCE.index(name) for name in VARIANTS}
#: A candidate's reasons, for its misfits, undefined ids, inner misfits, always-written packets missing and
#: enum misfits, in that order (each where its count is not 0).
_REASONS = ("{} payloads do not fit", "{} packets with undefined ids", "{} payloads whose records do not add up",
            "{} always-written packets missing", "{} out-of-range actor/attribute types")

def detect_variant(f: BinaryIO, offset: int, size: int | None, *, grouped: bool = True, bulk: bool = True
                   ) -> tuple[Variant, dict[str, Any]]:
    """Choose the variant that explains the file's first packets (the rule is the module's docstring).

    Reads at most ``DETECTION_PREFIX_FRAMES`` frames or ``DETECTION_PREFIX_BYTES``
    bytes, once, and leaves ``f`` where it was. Returns the variant and the
    evidence for the report. ``grouped=False`` judges the shapes and the record chains
    variant by variant (:func:`_fit`, :func:`_inner_misfits`) instead of once per distinct
    layout (:func:`_fits`, :func:`_inner_misfits_by_layout`); the answer is the same (the
    tests compare the two). ``bulk=False`` reads the prefix packet by packet (:func:`_read_prefix`),
    never whole or frame by frame; with ``grouped=False`` that is the straightforward reading the
    tests hold the fast one to.
    """
    start = f.tell()
    prefix = _read_prefix(f, offset, size, bulk=bulk)
    f.seek(start)
    if grouped:
        fits = _fits(prefix)
    else:
        misfits: dict[tuple[Any, ...], str | None] = {}
        fits = [_fit(v, prefix, misfits) for v in VARIANTS.values()]
    # the ranking and the evidence from columns of the fits, in C loops: a fit ranks by (outer misfits, inner
    # misfits, always-written packets missing, enum misfits, PREFERENCE), and it fits when it has no misfit
    outers = list(map(add, map(_MISFITS, fits), map(_UNKNOWN, fits)))
    fewest = min(outers)
    tied = list(compress(fits, map(eq, outers, repeat(fewest))))  # the inner sizes and the enums only break ties
    _enum_misfits(tied, prefix, (_inner_misfits_by_layout if grouped else _inner_misfits)(tied, prefix))
    # the choice and its evidence depend on the fits' counts and first problems alone (and name the prefix's packets)
    key = tuple(map(_COLUMNS, fits))
    chosen = _CHOSEN.get(key)
    if chosen is None:
        chosen = _CHOSEN.keep(key, _choose(fits))
    variant, evidence = chosen
    return variant, dict(evidence, prefix_packets=prefix.packets)


#: The fits' columns the choice and its evidence read, in ``VARIANTS``' order (``_choose``).
_COLUMNS = attrgetter("misfits", "unknown", "inner", "missing_always", "enum_misfits", "first_problem")
#: ``_choose``'s answers by the fits' columns, kept across files (a fuzzer's
#: mutants and a folder's logs explain their shapes the same way again: a mutant changes values far more often
#: than the ids and sizes, the record chains and the frames' kinds these count), up to ``_CHOSEN_MAX`` answers
#: (then forgotten all at once; an answer is the evidence's strings, about 2 KB: at most about 2 MiB). An answer's
#: evidence is shared by the reports that get it: its lists are read only, and each call returns a dict of its own.
_CHOSEN_MAX = 1024
_CHOSEN: BoundedMemo[tuple[tuple[Any, ...], ...], tuple[Variant, dict[str, Any]]] = BoundedMemo(_CHOSEN_MAX)


def _choose(fits: list[_Fit]) -> tuple[Variant, dict[str, Any]]:
    """The variant ``fits`` (in ``VARIANTS``' order, their counts complete) rank first, and the evidence for the
    report but for ``prefix_packets``."""
    outers = list(map(add, map(_MISFITS, fits), map(_UNKNOWN, fits)))
    inners = list(map(_INNER, fits))
    ranks = list(zip(outers, inners, map(_MISSING, fits), map(_ENUMS, fits), map(_RANK.__getitem__, map(_NAME, fits))))
    order = sorted(range(len(fits)), key=ranks.__getitem__)
    fits = list(map(fits.__getitem__, order))
    ranks = list(map(ranks.__getitem__, order))
    best = fits[0]
    names = list(map(_NAME, fits))
    candidates = []
    for fit, rank in zip(fits, ranks):
        # each reason whose count is not 0, picked in C (no test per reason), then the first problem
        counts = (fit.misfits, fit.unknown, fit.inner, fit.missing_always, fit.enum_misfits)
        reasons = list(map(str.format, compress(_REASONS, counts), compress(counts, counts)))
        if fit.first_problem:
            reasons.append(f"first: {fit.first_problem}")
        candidates.append({"variant": fit.variant.name, "fits": not (rank[0] + rank[1]),
                           "reason": "; ".join(reasons) or "every packet fits"})
    evidence = {
        "method": "content",
        "rule": RULE,
        "prefix_packets": 0,  # the caller's prefix's
        "also_fit_equally": list(compress(names[1:], map(eq, map(_FIRST_FOUR, ranks[1:]), repeat(ranks[0][:4])))),
        "candidates": candidates,
    }
    if best.outer():
        evidence["note"] = "no variant explains every packet of the prefix; the one that explains the most is used"
    return best.variant, evidence
