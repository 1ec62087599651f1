"""Whole frames proved clean in bulk: the checker's fast path for a log's steady state.

A CARLA recorder writes frame after frame of one shape: the same packets, of the
same sizes, with the same record counts, while the same actors live. Walking them
packet by packet costs a few microseconds of Python per packet; here a frame's
shape becomes a *template*: one ``struct`` format over the whole frame that reads,
in one C call, every packet's id and size, every record count, the FrameStart's
timing, and only the record fields a rule judges (actor ids, flags, enums). The
same format repeated reads ``k`` frames at once. Frames match when those
structural fields equal the template's, and are clean when, besides, every actor
id is alive (one ``issuperset``), every flag is 0 or 1 and every enum in range
(``max`` over the fields), and the frame ids and ``elapsed`` times follow on (or,
where the caller passes its own judge of the timing, ``Follow``, as that judges:
the checker's counts the timing findings of frames once those rules only count).

A template is made only of a frame that the packet-by-packet walk would find
nothing in as far as its shape goes: FrameStart first, FrameEnd last, the packets
between in the writer's order, each once, with every packet the variant writes in
every frame (or, once CARLA-FRAME-011's findings are only counted, without: each frame then counts one);
no event (EventAdd, EventDel, EventParent and Collision empty, as they
are whenever no actor comes, goes or collides); fixed-size records and counts that
add up; no raw, user or FrameCounter packet; variable records (WalkerBones,
PhysicsControl) only when empty, AnimVehicleWheels with their wheel counts in the
template; at most ``MAX_FRAME`` bytes, ``MAX_FIELDS`` fields to read and 64 packets (a
template's memory grows with its fields). Anything else, and any frame that does not match or is not clean, is
walked packet by packet (``fast_path=False`` walks every frame that way), so every
finding keeps its offset and path. Nothing here judges; it only proves.

The frames that follow one a template proved are compared with it (``Reference``):
read as one integer a run at a time, they must have its bytes where the packets'
ids, sizes and counts and the actor ids are, and flag and enum bytes in range
(integer carry arithmetic, a lane per byte); only their FrameStart fields are read
with ``struct``. Every frame it proves, the template's reading proves too (the tests
hold the two to each other).

A template also reads, of frames of its shape that are not clean, what the rules
ask of each judged field (``FrameTemplate.breaks``): the checker takes a run of
frames with findings that agree there with one it walked, whatever their
locations, speeds and times, as repeats of it.

Where frames of a few shapes come in turn, each unlike the one before, a template
of one frame would prove one frame a step; ``cycle_template`` makes one of a cycle
of 2 to 4 frames, read as one unit (each frame's FrameStart still read for its
timing), which proves the cycles as a template of one frame proves its frames.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import accumulate, chain, repeat
from operator import add, ge, gt, itemgetter
from typing import Any

from recspec._memo import BoundedMemo
from recspec.reference import carla as dec
from recspec.reference.carla import PacketKind as K
from recspec.reference.carla import Variant

from ._fields import ACTOR_FIRST, ENUMS, FLAGS, enum_size

__all__ = ["BATCHES", "MAX_BATCH", "MAX_FIELDS", "MAX_FRAME", "Follow", "FrameTemplate", "Reference", "build_template",
           "cycle_template", "follow_on"]

#: How many frames one ``struct`` call reads: the most that fit, of these (fewer sizes, fewer formats made).
BATCHES = (16, 4, 1)
MAX_BATCH = BATCHES[0]
#: A frame of more packets than this is not made a template (the writer's order has about 25 kinds).
_MAX_PACKETS = 64
#: Nor a frame of more bytes than this: a template holds a few objects per field it reads, up
#: to one a byte (a real frame is a few KB; 256 KiB is 9,000 Position records).
MAX_FRAME = 1 << 18
#: Nor a frame of more fields to read than this; the checker keeps templates of at most this many
#: fields in all (``_Walk.templates``), so that they take at most a few tens of MiB.
MAX_FIELDS = 1 << 16

_HEADER = struct.Struct("<BI")
_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
#: A judge of frames' timing: ``(prev, t, n, k)``, the frame before (id, durationThis, elapsed, offset) and
#: ``k`` frames' fields read ``n`` to a frame, each frame's id, durationThis and elapsed at ``t[2:5]``,
#: ``t[2 + n:5 + n]``, ...: the last one's id, durationThis and elapsed where it accepts them, else None.
Follow = Callable[[tuple[int, float, float, int], tuple[Any, ...], int, int], tuple[int, float, float] | None]
_EMPTY_ONLY = frozenset((K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION, K.WALKER_BONES))
_ID, _FLAG, _SHAPE = "id", "flag", "shape"


@cache
def _field_offsets(fmt: str) -> list[tuple[int, str]]:
    """``(byte offset, struct code)`` of each field of a little-endian format such as ``<I3f3f``."""
    out: list[tuple[int, str]] = []
    at = 0
    for count, code in re.findall(r"(\d*)([a-zA-Z?])", fmt.lstrip("<")):
        width = struct.calcsize("<" + code)
        for _ in range(int(count or 1)):
            out.append((at, code))
            at += width
    return out


def _getter(indices: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]] | None:
    """A C-level getter of ``indices`` from a tuple that always returns a tuple (None: no index)."""
    if not indices:
        return None
    return itemgetter(*indices) if len(indices) > 1 else itemgetter(indices[0], indices[0])


@dataclass(slots=True)
class _Batch:
    """A template's reading of ``k`` frames in a row."""

    unpack: Callable[[bytes, int], tuple[Any, ...]]
    shape: Callable[[tuple[Any, ...]], tuple[Any, ...]]
    expected: tuple[Any, ...]
    ids: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None
    flags: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None
    enums: tuple[tuple[Callable[[tuple[Any, ...]], tuple[Any, ...]], int], ...]
    #: a cycle's (``cycle_template``): each frame's FrameStart header and fields (id, size, frame id,
    #: durationThis, elapsed), frame after frame, as one frame's reading begins; None for one frame a unit
    timing: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None


@dataclass(slots=True)
class FrameTemplate:
    """One frame shape. ``size``: its bytes; ``packets``: its packets; ``kinds``: the kinds
    between FrameStart and FrameEnd; ``last_order``: the last of them in the writer's order;
    ``position_records``: its Position records."""

    size: int
    packets: int
    kinds: frozenset[K]
    last_order: int
    position_records: int
    _format: str  # the struct format of one frame (without its byte order)
    _roles: list[Any]  # per field of ``_format``: (SHAPE, value), ID, FLAG, an enum's size, or None
    _equal: tuple[tuple[int, int], ...]  # the bytes (start, end) of the shape and actor id fields, runs merged
    _shape: tuple[tuple[int, int], ...]  # the same of the shape fields alone
    _lanes: tuple[tuple[int, int], ...]  # (offset, how many values) of each flag (2) and enum byte
    _batches: dict[int, _Batch] = field(default_factory=dict)
    _index: tuple[list[int], tuple[Any, ...], list[int], list[int], list[tuple[int, list[int]]]] = \
        field(default=([], (), [], [], []))
    #: Whether the shape lacks a packet the variant writes in every frame: each frame it proves then adds
    #: one CARLA-FRAME-011, made only where that rule's findings are counted, no longer stored (the caller
    #: counts them, ``build_template(lacking=True)``)
    lacks_required: bool = False
    #: A cycle's templates (``cycle_template``), one per frame of the unit in turn; () for a one-frame template
    parts: tuple[FrameTemplate, ...] = ()
    #: How many frames one unit of this template holds (a cycle's, several), how many of them lack a packet
    #: the variant writes in every frame (``lacks_required``), and the template of the last (None: this one)
    frames: int = 1
    lacking: int = 0
    tail: FrameTemplate | None = None

    @property
    def sizes(self) -> tuple[int, ...]:
        """The bytes of each frame of a unit."""
        return tuple(p.size for p in self.parts) if self.parts else (self.size,)

    @property
    def fields(self) -> int:
        """How many fields one frame's reading makes."""
        return len(self._roles)

    @property
    def key(self) -> tuple[str, tuple[Any, ...]]:
        """What tells this shape from another: two frames of one key have one template."""
        return self._format, tuple(self._roles)

    def batch(self, k: int) -> _Batch:
        """The reading of ``k`` frames of this shape in a row (made once per ``k``)."""
        b = self._batches.get(k)
        if b is None:
            b = self._batches[k] = self._make_batch(k)
        return b

    def _make_batch(self, k: int) -> _Batch:
        n = len(self._roles)
        if not self._batches:  # the first batch: which field plays which role
            self._index = _index(self._roles)
        shape, expected, ids, flags, enums = self._index

        def over(one: list[int]) -> list[int]:
            return list(map(add, one * k, chain.from_iterable(repeat(f * n, len(one)) for f in range(k))))

        shape_get = _getter(over(shape))
        assert shape_get is not None  # FrameStart's id and size, at least
        timing = None
        if self.parts:  # each frame's first five fields, where its FrameStart is read
            firsts = list(accumulate((p.fields for p in self.parts[:-1]), initial=0))
            timing = _getter(over([first + j for first in firsts for j in range(5)]))
        return _Batch(struct.Struct("<" + self._format * k).unpack_from, shape_get, expected * k,
                      _getter(over(ids)), _getter(over(flags)),
                      tuple((g, size) for size, idx in enums if (g := _getter(over(idx))) is not None), timing)

    def actor_ids(self, buf: bytes, i: int) -> tuple[int, ...]:
        """The actor ids the frame of this shape at ``buf[i:]`` holds."""
        b = self.batch(1)
        return () if b.ids is None else b.ids(b.unpack(buf, i))

    def match(self, buf: bytes, i: int, k: int, prev: tuple[int, float, float, int], alive: set[int],
              follow: Follow | None = None) -> tuple[int, float, float] | None:
        """Whether the ``k`` frames at ``buf[i:]`` have this shape and are clean, following the
        frame ``prev`` (its id, durationThis, elapsed, offset): then the last one's id,
        durationThis and elapsed, else None. ``follow`` judges their timing last (default
        ``follow_on``: the timing the walk finds nothing in)."""
        b = self._batches.get(k) or self.batch(k)
        t = b.unpack(buf, i)
        if b.shape(t) != b.expected:
            return None
        if b.ids is not None and not alive.issuperset(b.ids(t)):
            return None
        if b.flags is not None and max(b.flags(t)) > 1:
            return None
        for get, size in b.enums:
            if max(get(t)) >= size:
                return None
        if b.timing is not None:  # a cycle: its frames' FrameStarts, five fields a frame
            return (follow or follow_on)(prev, b.timing(t), 5, k * len(self.parts))
        return (follow or follow_on)(prev, t, len(self._roles), k)


    def breaks(self, buf: bytes, i: int, k: int, alive: set[int]
               ) -> tuple[tuple[tuple[bool, ...], ...], tuple[Any, ...]] | None:
        """Of the ``k`` frames at ``buf[i:]``, if they have this shape (else None): per judged field, in the
        order this shape's reading of ``k`` frames gives them, what the rules ask of its value (whether an
        actor id is in ``alive``, a flag above 1, an enum at or past its number of values), and the frames'
        fields (each one's id, durationThis and elapsed every ``fields`` from index 2). Two runs of frames
        of this shape from one walk state make the same findings, but for their timing and places, when
        these answers agree."""
        b = self._batches.get(k) or self.batch(k)
        t = b.unpack(buf, i)
        if b.shape(t) != b.expected:
            return None
        out = [tuple(map(alive.__contains__, b.ids(t))) if b.ids is not None else (),
               tuple(map(gt, b.flags(t), repeat(1))) if b.flags is not None else ()]
        out += [tuple(map(ge, get(t), repeat(size))) for get, size in b.enums]
        return tuple(out), t


def follow_on(prev: tuple[int, float, float, int], t: tuple[Any, ...], n: int, k: int
            ) -> tuple[int, float, float] | None:
    """Whether ``k`` frames whose FrameStart fields (id, durationThis, elapsed) are ``t[2:5]``,
    ``t[2 + n:5 + n]``, ... follow on from the frame ``prev`` as the walk requires (ids one up,
    times finite, elapsed adding up, no durationThis below 0 before the last): the last one's
    id, durationThis and elapsed, else None."""
    p_id, p_duration, p_elapsed, _ = prev
    if k == 1:  # the same judgement as below, for one frame
        frame_id, duration, elapsed_this = t[2], t[3], t[4]
        if frame_id != p_id + 1 or p_duration < 0 or p_elapsed + p_duration != elapsed_this \
                or not (math.isfinite(duration) and math.isfinite(elapsed_this)):
            return None
        return frame_id, duration, elapsed_this
    ids: tuple[int, ...] = t[2::n]
    if ids[0] != p_id + 1 or ids[-1] != p_id + k or (k > 2 and ids != tuple(range(p_id + 1, p_id + k + 1))):
        return None
    durations: tuple[float, ...] = (p_duration, *t[3::n])
    elapsed: tuple[float, ...] = (p_elapsed, *t[4::n])
    if not (all(map(math.isfinite, durations[1:])) and all(map(math.isfinite, elapsed[1:]))):
        return None
    # FRAME-008 (a durationThis below 0 before the last frame) and FRAME-004 (elapsed adds up)
    if min(durations[:-1]) < 0 or list(map(add, elapsed[:-1], durations[:-1])) != list(elapsed[1:]):
        return None
    return ids[-1], durations[-1], elapsed[-1]


@lru_cache(maxsize=1024)
def _timing(sizes: tuple[int, ...], k: int) -> Callable[[bytes, int], tuple[Any, ...]]:
    """Reads the FrameStart header and fields of ``k`` units in a row of frames of ``sizes`` bytes each
    (one size: one frame a unit), laid out as a template's reading begins (id, size, frame id,
    durationThis, elapsed), frame after frame."""
    frames = [f"BIQdd{size - 29}x" for size in sizes] * k
    frames[-1] = "BIQdd"  # nothing read after the last FrameStart
    return struct.Struct("<" + "".join(frames)).unpack_from


class Reference:
    """The last frame a template proved clean field by field, as the bytes of its shape
    fields (the packets' ids, sizes, record and wheel counts) and actor ids. A frame of
    the template's size whose bytes are those same bytes there, whose flag and enum
    bytes are in range and whose FrameStart follows on is clean as that one was, as long
    as its actor ids are still alive (``alive`` only grows between EventDels): it reads
    as that frame does in every field a rule judges except the flags and enums, which
    are judged here by their values. ``run`` proves a run of such frames with a few
    integer operations over the run's bytes read as one integer: ``&`` and ``==`` for the
    bytes that must be equal; for the flag and enum bytes (each a lane of 8 bits), the
    lane's value plus ``256 - n`` carries out of the lane exactly when the value is ``n``
    or more, and the carries out of the lanes are the bits of ``(y + a) ^ y ^ a`` at the
    lanes' ends (a carry into a neighbouring lane comes only from a lane already out of
    range). Where it cannot, the frames are judged one by one as far as they hold; if
    not even the first does, its shape is compared alone, so the field-by-field reading
    is not asked of a frame it would refuse. It keeps a few integers the size of ``k``
    frames, for ``k`` in ``BATCHES`` with ``k`` frames within ``limit`` bytes only, so a
    walk keeps one."""

    __slots__ = ("template", "limit", "_one", "_shape", "_ref", "_ints", "_ids", "_sizes")

    def __init__(self, template: FrameTemplate, limit: int) -> None:
        self.template = template
        self.limit = limit  # the most bytes a run is read in (at least one frame)
        self._sizes = template.sizes  # its frames' (one, but for a cycle)
        size = template.size
        #: one frame's patterns: the mask of the bytes that must equal the reference's, the
        #: flag and enum lanes' mask, what is added to them, their carry bits
        self._one = (_mask(size, template._equal), *lane_patterns(size, template._lanes))
        self._shape = int.from_bytes(_mask(size, template._shape), "little")
        self._ref = 0  # the reference frame's bytes under the equal mask
        self._ints: dict[int, tuple[int, int, int, int, int]] = {}  # k -> the patterns of k frames
        self._ids: tuple[int, ...] = ()

    def reset(self, buf: bytes, at: int, ids: tuple[int, ...]) -> None:
        """The frame at ``buf[at:]`` (of the template's shape, proved clean) is the new reference;
        ``ids``: its actor ids."""
        size = self.template.size
        self._ref = int.from_bytes(buf[at:at + size], "little") & int.from_bytes(self._one[0], "little")
        self._ints = {}
        self._ids = ids

    def _patterns(self, k: int) -> tuple[int, int, int, int, int]:
        """For ``k`` frames: the equal mask, the reference's bytes under it, the lanes' mask, what
        is added to them, their carry bits (made once per reference)."""
        ints = self._ints.get(k)
        if ints is None:
            equal, lanes, add, carries = self._one
            ref = self._ref.to_bytes(self.template.size, "little")
            ints = self._ints[k] = (int.from_bytes(equal * k, "little"), int.from_bytes(ref * k, "little"),
                                    int.from_bytes(lanes * k, "little"), int.from_bytes(add * k, "little"),
                                    int.from_bytes(carries * k, "little"))
        return ints

    def _holds(self, x: int, k: int) -> bool:
        """Whether the ``k`` frames read as ``x`` have the reference's bytes and their lanes in range."""
        equal, expected, lanes, add, carries = self._patterns(k)
        return x & equal == expected and lanes_in_range(x, lanes, add, carries)

    def run(self, buf: bytes, i: int, fit: int, prev: tuple[int, float, float, int], alive: set[int],
            follow: Follow | None = None) -> tuple[int, tuple[int, float, float] | None]:
        """Of the (at most ``fit``, at least one) frames at ``buf[i:]``, the most of ``BATCHES``
        that fit are read: ``(n, last)`` when the first ``n`` of them hold (class docstring)
        and follow on from ``prev`` as ``follow`` judges (default ``follow_on``; ``last``: the last
        one's id, durationThis and elapsed);
        else ``(n, None)``: no frame after the first ``n`` is worth reading field by field with
        them (0: the first has not the template's shape)."""
        size = self.template.size
        k = next((b for b in BATCHES if b <= fit and (b * size <= self.limit or b == 1)), 1)
        if self._holds(int.from_bytes(buf[i:i + k * size], "little"), k):
            n = k
        else:  # the frames before the first that does not hold, one by one
            n = 0
            while n < k and self._holds(int.from_bytes(buf[i + n * size:i + n * size + size], "little"), 1):
                n += 1
            if not n:  # has the first the template's shape (the reference's, under the shape mask)?
                shape = self._shape
                return (k if int.from_bytes(buf[i:i + size], "little") & shape == self._ref & shape else 0), None
        if alive.issuperset(self._ids):
            last = (follow or follow_on)(prev, _timing(self._sizes, n)(buf, i), 5, n * self.template.frames)
            if last is not None:
                return n, last
        return n, None


def lane_patterns(size: int, lanes: tuple[tuple[int, int], ...]) -> tuple[bytes, bytes, bytes]:
    """For byte lanes ``(offset, n)`` of a frame of ``size`` bytes (none its last byte, which
    is FrameEnd's): the lanes' mask, ``256 - n`` in each lane (0 for ``n`` of 256 or more),
    and a 1 in the byte after each lane, where its carry lands. The same patterns repeated
    serve ``k`` frames in a row."""
    mask = bytearray(size)
    add = bytearray(size)
    carries = bytearray(size)
    for at, n in lanes:
        mask[at] = 0xFF
        add[at] = 256 - n if n < 256 else 0
        carries[at + 1] = 1
    return bytes(mask), bytes(add), bytes(carries)


def lanes_in_range(x: int, mask: int, add: int, carries: int) -> bool:
    """Whether every lane of ``x`` (bytes read as one little-endian integer) holds a value
    below its ``n`` (``mask``, ``add``, ``carries``: ``lane_patterns`` read the same way)."""
    y = x & mask
    return not ((y + add) ^ y ^ add) & carries


def _mask(size: int, spans: tuple[tuple[int, int], ...]) -> bytes:
    """``size`` bytes, 0xFF in ``spans`` (start, end) and 0 elsewhere."""
    mask = bytearray(size)
    for start, end in spans:
        mask[start:end] = b"\xff" * (end - start)
    return bytes(mask)


def build_template(window: Callable[[int], tuple[bytes, int]], end: int | None, variant: Variant,
                   order: Mapping[K, int], required: frozenset[K], max_packet_size: int, *,
                   lacking: bool = False) -> FrameTemplate | None:
    """The template of the frame that starts where ``window`` is (``window(n)``: a buffer and
    the frame's index in it, with ``n`` bytes from there unless the file ends first), if it is
    one a template can be made of (module docstring) and lies whole in the file, in its first
    ``end`` bytes (None: no bound) and in ``MAX_FRAME`` bytes; else None. ``lacking``: a frame
    without every packet of ``required`` may be made one too (``FrameTemplate.lacks_required``)."""
    if end is None or end > MAX_FRAME:
        end = MAX_FRAME
    ids = variant.ids
    fields: list[tuple[int, str, Any]] = []
    kinds: list[K] = []
    last = -1
    positions = 0
    rel = 0
    buf, i = window(5)
    for n in range(_MAX_PACKETS):
        if len(buf) - i < rel + 5:
            buf, i = window(rel + 5)
            if len(buf) - i < rel + 5:
                return None
        pid, size = _HEADER.unpack_from(buf, i + rel)
        kind = ids.get(pid)
        if kind is None or size > max_packet_size or rel + 5 + size > end:
            return None
        if len(buf) - i < rel + 5 + size:
            buf, i = window(rel + 5 + size)
            if len(buf) - i < rel + 5 + size:
                return None
        fields += [(rel, "B", (_SHAPE, pid)), (rel + 1, "I", (_SHAPE, size))]
        at = i + rel + 5  # the payload, in buf
        p = rel + 5  # the payload, in the frame
        if n == 0:
            if kind is not K.FRAME_START or size != 24:
                return None
            fields += [(p, "Q", None), (p + 8, "d", None), (p + 16, "d", None)]
        elif kind is K.FRAME_END:
            if size:
                return None
            lacks = not required <= set(kinds)
            if (lacks and not lacking) or len(fields) > MAX_FIELDS:
                return None
            t = FrameTemplate(rel + 5, n + 1, frozenset(kinds), last, positions, *_format_kept(fields))
            t.lacks_required = lacks
            t.lacking = int(lacks)
            return t
        else:
            pos = order.get(kind)
            if pos is None or pos <= last:  # a kind the writer does not order (raw, FrameCounter), twice, or late
                return None
            last = pos
            kinds.append(kind)
            payload = memoryview(buf)[at:at + size]
            if dec.layout_misfit(kind, payload, variant) is not None:
                return None
            if kind in (K.PLATFORM_TIME, K.VISUAL_TIME) or (kind is K.PHYSICS_CONTROL and
                                                           variant.wheel_physics_size is None):
                pass  # no rule reads these: any payload of the right size (UE5 physics: any payload)
            elif kind in _EMPTY_ONLY or kind is K.PHYSICS_CONTROL:
                if size != 2:
                    return None
                fields.append((p, "H", (_SHAPE, 0)))
            elif kind is K.ANIM_VEHICLE_WHEELS:
                wheels = _wheels(buf, at, size, p)
                if wheels is None:
                    return None
                fields += wheels
            elif dec.is_fixed_record(kind):
                (count,) = _U16(buf, at)
                fields.append((p, "H", (_SHAPE, count)))
                s = dec.record_struct(kind, variant.vec_f64)
                judged: list[tuple[int, str, Any]] = []
                offsets = _field_offsets(s.format)
                if kind in ACTOR_FIRST:
                    judged.append((offsets[0][0], offsets[0][1], _ID))
                for col, _ in FLAGS.get(kind, ()):
                    judged.append((offsets[col][0], "B", _FLAG))
                if kind in ENUMS:
                    judged.append((offsets[ENUMS[kind][0]][0], "B", enum_size(kind, variant)))
                judged.sort(key=lambda f: f[0])
                fields += [(p + 2 + r * s.size + off, code, role) for r in range(count) for off, code, role in judged]
                if kind is K.POSITION:
                    positions += count
            else:  # pragma: no cover - every kind the writer orders is handled above
                return None
        rel += 5 + size
    return None


def cycle_template(parts: Sequence[FrameTemplate]) -> FrameTemplate | None:
    """The template of a unit of ``len(parts)`` frames in a row, of the shapes of ``parts`` in turn (frames whose
    shapes come back every few frames, each unlike the one before: a template of one frame would prove one
    frame a step): one reading over the unit, its fields and spans the parts' one after another, each frame's
    FrameStart read for its timing (``_Batch.timing``). None where the unit would read more than
    ``MAX_FIELDS`` fields. ``kinds`` and ``last_order`` are the last frame's (what the walk holds after it),
    ``packets``, ``position_records`` and ``size`` the unit's."""
    if sum(p.fields for p in parts) > MAX_FIELDS:
        return None
    starts = list(accumulate((p.size for p in parts[:-1]), initial=0))

    def shifted(spans: Any, at: int) -> list[tuple[int, int]]:
        return [(a + at, b + at) for a, b in spans]

    last = parts[-1]
    return FrameTemplate(
        sum(p.size for p in parts), sum(p.packets for p in parts), last.kinds, last.last_order,
        sum(p.position_records for p in parts), "".join(p._format for p in parts),
        [role for p in parts for role in p._roles],
        tuple(s for p, at in zip(parts, starts) for s in shifted(p._equal, at)),
        tuple(s for p, at in zip(parts, starts) for s in shifted(p._shape, at)),
        tuple((o + at, n) for p, at in zip(parts, starts) for o, n in p._lanes),
        lacks_required=any(p.lacks_required for p in parts), parts=tuple(parts), frames=len(parts),
        lacking=sum(p.lacks_required for p in parts), tail=last)


def _index(roles: list[Any]) -> tuple[list[int], tuple[Any, ...], list[int], list[int], list[tuple[int, list[int]]]]:
    """Of one frame's fields: the structural ones and their values, the actor ids, the flags,
    and the enums by their number of values."""
    shape = [j for j, role in enumerate(roles) if isinstance(role, tuple)]
    sizes = sorted({role for role in roles if isinstance(role, int)})
    return (shape, tuple(roles[j][1] for j in shape), [j for j, role in enumerate(roles) if role == _ID],
            [j for j, role in enumerate(roles) if role == _FLAG],
            [(size, [j for j, role in enumerate(roles) if role == size]) for size in sizes])


def _format(fields: list[tuple[int, str, Any]]) -> tuple[str, list[Any], tuple[tuple[int, int], ...],
                                                           tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The struct format reading ``fields`` (offset, code, role) of one frame, their roles in
    the order it reads them, the bytes (start, end) that the shape and actor id fields cover
    and that the shape fields cover (adjacent ones merged), and each flag or enum byte's
    offset and number of values."""
    fields.sort(key=itemgetter(0))
    parts = []
    equal: list[list[int]] = []
    shape: list[list[int]] = []
    lanes: list[tuple[int, int]] = []
    at = 0
    for offset, code, role in fields:
        if offset > at:
            parts.append(f"{offset - at}x")
        parts.append(code)
        at = offset + _width(code)
        if role is None:
            continue
        if role == _FLAG:
            lanes.append((offset, 2))
        elif isinstance(role, int):
            lanes.append((offset, role))
        else:
            for keep in (equal, shape) if isinstance(role, tuple) else (equal,):
                if keep and keep[-1][1] == offset:
                    keep[-1][1] = at
                else:
                    keep.append([offset, at])
    return ("".join(parts), [role for _, _, role in fields], tuple((a, b) for a, b in equal),
            tuple((a, b) for a, b in shape), tuple(lanes))


#: ``_format``'s answers by a frame's fields (offset, code, role, as ``build_template`` lists them), kept across
#: frames and files for frames of at most ``_FORMATS_FIELDS_MAX`` fields, up to ``_FORMATS_MAX`` answers (then
#: forgotten all at once; at most about 7 MiB with their keys): an answer depends on the fields alone, and a
#: fuzzer's mutants of one log, or a folder's logs of one writer, make templates of the same frames again.
_FORMATS_FIELDS_MAX = 1024
_FORMATS_MAX = 64
_Spans = tuple[tuple[int, int], ...]
_FORMATS: BoundedMemo[tuple[tuple[int, str, Any], ...], tuple[str, tuple[Any, ...], _Spans, _Spans, _Spans]] = \
    BoundedMemo(_FORMATS_MAX)


def _format_kept(fields: list[tuple[int, str, Any]]) -> tuple[str, list[Any], _Spans, _Spans, _Spans]:
    """``_format(fields)``, remembered (``_FORMATS``); the roles as a list of the template's own."""
    if len(fields) > _FORMATS_FIELDS_MAX:
        return _format(fields)
    key = tuple(fields)
    kept = _FORMATS.get(key)
    if kept is None:
        fmt, roles, equal, shape, lanes = _format(fields)
        kept = _FORMATS.keep(key, (fmt, tuple(roles), equal, shape, lanes))
    return kept[0], list(kept[1]), kept[2], kept[3], kept[4]


@cache
def _width(code: str) -> int:
    return struct.calcsize("<" + code)


def _wheels(buf: bytes, at: int, size: int, p: int) -> list[tuple[int, str, Any]] | None:
    """AnimVehicleWheels: per record its vehicle id (judged) and wheel count (shape)."""
    (count,) = _U16(buf, at)
    out: list[tuple[int, str, Any]] = [(p, "H", (_SHAPE, count))]
    r = 2
    for _ in range(count):
        if r + 8 > size:
            return None
        (n,) = _U32(buf, at + r + 4)
        out += [(p + r, "I", _ID), (p + r + 4, "I", (_SHAPE, n))]
        r += 8 + 9 * n
    return out if r == size else None
