"""Checking one CARLA recorder log: variant detection, the walk, the rules.

The walk streams the file packet by packet (``PacketReader``), so memory does
not grow with the file; the only state kept across frames is the set of live
actor ids and the previous frame's timing. Fixed-size records are checked as
flat tuples (``unpack_flat``) and set operations, which keeps the hot path in C.
At each frame boundary, the frames that follow in one shape are first offered to
``_Walk.bulk_frames``, which steps past those a template proves clean
(``_frames.py``) and leaves the rest to the packet-by-packet walk.
"""

from __future__ import annotations

import math
import os
import struct
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from heapq import merge
from itertools import compress, islice, repeat
from operator import add, and_, gt, itemgetter, lt, ne, not_
from typing import Any, BinaryIO, cast

from recspec._memo import BoundedMemo
from recspec.errors import DecodeError, LimitExceeded, Truncated
from recspec.reference import carla as dec
from recspec.reference.carla import PacketKind as K
from recspec.reference.carla import Variant
from recspec.report import FileReport, Verdict
from recspec.trace import enabled as trace_enabled

from .._sink import FindingSink
from ._always import missing_message, required_per_frame
from ._detect import (  # noqa: F401 - re-exported
    ALWAYS,
    DETECTION_PREFIX_BYTES,
    DETECTION_PREFIX_FRAMES,
    DETECTION_PREFIX_PACKETS,
    detect_variant,
)
from ._fields import ACTOR_FIRST, ENUMS, FLAGS, NOT_AN_ACTOR, enum_size
from ._frames import (
    BATCHES,
    MAX_BATCH,
    MAX_FIELDS,
    FrameTemplate,
    Reference,
    _field_offsets,
    build_template,
    cycle_template,
    follow_on,
)
from ._rules import RULES_BY_ID
from ._sniff import MAGIC_FIELD, sniff
from ._trace import CarlaTrace

__all__ = ["DETECTION_PREFIX_BYTES", "DETECTION_PREFIX_FRAMES", "DETECTION_PREFIX_PACKETS", "check_stream",
           "detect_variant", "sniff"]


_AD = (K.KINEMATICS, K.BOUNDING_BOX, K.TRIGGER_VOLUME, K.PLATFORM_TIME, K.PHYSICS_CONTROL, K.TRAFFIC_LIGHT_TIME)
_EVENTS = (K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION)
_STATE = (K.POSITION, K.STATE)
_ANIM = (K.ANIM_VEHICLE, K.ANIM_WALKER)

# Writer order per variant (research notes, section 3); FrameStart and FrameEnd
# bracket it. Raw, unknown and FrameCounter packets are not ordered.
WRITER_ORDER: dict[str, tuple[K, ...]] = {
    "0.9.4-0.9.5": (*_EVENTS, *_STATE),
    "0.9.6-0.9.9": (*_EVENTS, *_STATE, *_ANIM),
    "0.9.10-0.9.11": (*_EVENTS, *_STATE, *_ANIM, K.VEHICLE_LIGHT, K.SCENE_LIGHT, *_AD),
    "0.9.12-0.9.13": (*_EVENTS, *_STATE, *_ANIM, K.VEHICLE_LIGHT, K.SCENE_LIGHT, *_AD),
    "0.9.14": (K.VISUAL_TIME, *_EVENTS, *_STATE, *_ANIM, K.VEHICLE_LIGHT, K.SCENE_LIGHT, *_AD, K.WALKER_BONES),
    "0.9.15": (K.VISUAL_TIME, *_EVENTS, *_STATE, *_ANIM, K.VEHICLE_LIGHT, K.SCENE_LIGHT,
               K.ANIM_VEHICLE_WHEELS, K.ANIM_BIKER, *_AD, K.WALKER_BONES),
}
WRITER_ORDER["dev-2023"] = WRITER_ORDER["0.9.16"] = WRITER_ORDER["ue5"] = (
    K.VISUAL_TIME, *_EVENTS, K.VEHICLE_DOOR, *_STATE, *_ANIM, K.VEHICLE_LIGHT, K.SCENE_LIGHT,
    K.ANIM_VEHICLE_WHEELS, K.ANIM_BIKER, *_AD, K.WALKER_BONES)

#: Each variant's writer order as positions, and the kinds every frame must hold (made once).
_ORDERS = {name: {k: i for i, k in enumerate(kinds)} for name, kinds in WRITER_ORDER.items()}
#: Per variant, by a frame's last position in the writer's order (-1: none yet): the kinds written after it. A
#: kind of that set is the first of its kind in the frame and in order (every kind a frame holds is at or before
#: its last position: the walk, ``_order`` and the bulk proofs keep the greatest), so one test says what
#: ``_order`` would find nothing in.
_LATER = {name: {p: frozenset(k for k, q in order.items() if q > p) for p in range(-1, len(order))}
          for name, order in _ORDERS.items()}
_REQUIRED = {name: required_per_frame(name) for name in WRITER_ORDER}

_DATE_MIN = 1483228800  # 2017-01-01T00:00:00Z
_DATE_MAX = 4102444800  # 2100-01-01T00:00:00Z
_FIXED_KINDS = frozenset(k for k in K if dec.is_fixed_record(k))
#: The packets of one f64 time (8 bytes), which only the packet rules and the frame order judge.
_TIMES = frozenset((K.PLATFORM_TIME, K.VISUAL_TIME))
_NO_KINDS: frozenset[K] = frozenset()
_LABELS = {k: k.label for k in K}  # without the property call per finding (paths, messages)
_FIRST, _SECOND, _THIRD, _FOURTH, _FIFTH = map(itemgetter, range(5))
#: The kinds the per-packet paths compare with, as module constants: on Python 3.11 reading a member off
#: the enum class (``K.FRAME_END``) is a lookup of about 0.4 us, which a packet would pay several times.
(_K_ANIM_VEHICLE_WHEELS, _K_COLLISION, _K_EVENT_ADD, _K_EVENT_DEL, _K_EVENT_PARENT, _K_FRAME_COUNTER, _K_FRAME_END,
 _K_FRAME_START, _K_PHYSICS_CONTROL, _K_POSITION, _K_RAW, _K_WALKER_BONES) = (
    K.ANIM_VEHICLE_WHEELS, K.COLLISION, K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.FRAME_COUNTER, K.FRAME_END,
    K.FRAME_START, K.PHYSICS_CONTROL, K.POSITION, K.RAW, K.WALKER_BONES)

#: A packet of at most this many fixed-size records has its judged fields read by a ``struct`` made for its
#: record count (``_judged_fields``, kept); one of more takes the whole way, a tuple per record.
JUDGED_MAX_RECORDS = 64

#: The plan of a fixed-record kind's judged fields (``_judged_plans``): its record size, the ``struct`` format
#: of one record reading only those fields, how many it reads, which are actor ids (CARLA-ACTOR-001) and
#: which must stay below a bound (flags below 2, CARLA-VALUE-001; enums below their number of values).
_JudgedPlan = tuple[int, str, int, tuple[int, ...], tuple[tuple[int, int], ...]]


def _judged_plans(variant: Variant) -> dict[K, _JudgedPlan]:
    """Per fixed-record kind of ``variant`` that ``_Walk._fixed`` may judge from its fields alone, its plan:
    the kinds whose first field is an actor id, EventParent (both ids), and the kinds of flags and enums,
    but Collision (an id that may be NOT_AN_ACTOR) and EventDel (it deletes). Made once per layout: the
    vector width and the number of traffic-light states are all of a variant a plan reads."""
    key = (variant.vec_f64, variant.traffic_light_states)
    plans = _JUDGED_PLANS.get(key)
    if plans is None:
        plans = _JUDGED_PLANS[key] = _make_judged_plans(variant)
    return plans


_JUDGED_PLANS: dict[tuple[bool, int], dict[K, _JudgedPlan]] = {}
#: The names of a plan's actor id columns, in its order (by offset in the record), in the findings' paths
_ID_COLUMNS = {**dict.fromkeys(ACTOR_FIRST, ("database_id",)), K.EVENT_PARENT: ("database_id", "database_id_parent")}


def _make_judged_plans(variant: Variant) -> dict[K, _JudgedPlan]:
    plans: dict[K, _JudgedPlan] = {}
    for kind in _FIXED_KINDS:
        if kind is _K_COLLISION or kind is _K_EVENT_DEL or not (
                kind in ACTOR_FIRST or kind in FLAGS or kind in ENUMS or kind is _K_EVENT_PARENT):
            continue
        s = dec.record_struct(kind, variant.vec_f64)
        columns: dict[int, int | None] = {}  # tuple index -> bound (None: an actor id)
        if kind in ACTOR_FIRST:
            columns[0] = None
        if kind is _K_EVENT_PARENT:
            columns[0] = columns[1] = None
        for col, _ in FLAGS.get(kind, ()):
            columns[col] = 2
        if kind in ENUMS:
            columns[ENUMS[kind][0]] = enum_size(kind, variant)
        offsets = _field_offsets(s.format)
        record, at = [], 0
        for col in sorted(columns, key=lambda c: offsets[c][0]):
            offset, code = offsets[col]
            record.append(f"{offset - at}x{code}" if offset > at else code)
            at = offset + struct.calcsize("<" + code)
        if s.size > at:
            record.append(f"{s.size - at}x")
        read = sorted(columns, key=lambda c: offsets[c][0])
        plans[kind] = (s.size, "".join(record), len(read), tuple(j for j, c in enumerate(read) if columns[c] is None),
                       tuple((j, bound) for j, c in enumerate(read) if (bound := columns[c]) is not None))
    return plans


#: Per variant (by name), the fixed-record payloads ``_Walk._fixed`` judged clean from their plan's fields, by
#: (packet id, payload): the actor ids they refer to and the Position records they count (0 for another
#: kind). Whether a payload's count fits its size and its flags and enums are within their bounds depends on
#: its bytes and the variant alone; only its actor ids depend on the walk (alive then or not), so a payload
#: met again is judged by one set test. Kept across files (a fuzzer's mutants keep their parent's payloads,
#: a folder's logs repeat theirs) for payloads of at most ``_CLEAN_PAYLOAD_MAX`` bytes, up to
#: ``_CLEAN_MAX`` a variant (then forgotten all at once: at most 2 MiB of payloads a variant).
_CLEAN_PAYLOAD_MAX = 512
_CLEAN_MAX = 4096
_CLEAN_FIXED: dict[str, BoundedMemo[tuple[int, bytes], tuple[frozenset[int], int]]] = {}


def _clean_fixed(variant: Variant) -> BoundedMemo[tuple[int, bytes], tuple[frozenset[int], int]]:
    """The clean payloads kept for ``variant``; a variant not in ``VARIANTS`` (a test's) gets a memo of its own."""
    if dec.VARIANTS.get(variant.name) is not variant:
        return BoundedMemo(_CLEAN_MAX)
    memo = _CLEAN_FIXED.get(variant.name)
    if memo is None:
        memo = _CLEAN_FIXED[variant.name] = BoundedMemo(_CLEAN_MAX)
    return memo


@lru_cache(maxsize=1024)
def _judged_fields(record: str, count: int) -> Callable[[bytes], tuple[int, ...]]:
    """Reads the judged fields (``record``: one record's format, of a ``_judged_plans`` plan) of a payload of
    ``count`` records after its u16 count, in one call: the fields of the first record, then the next's."""
    return struct.Struct("<2x" + record * count).unpack


#: A FrameEnd's header (id 1, no payload) and the next FrameStart's (id 0, 24 bytes): where one frame ends and
#: the next begins, in every variant.
_FRAME_END_HEAD = b"\x01\x00\x00\x00\x00"
_FRAME_BOUNDARY = _FRAME_END_HEAD + b"\x00\x18\x00\x00\x00"


def _two_frames_alike(reader: dec.PacketReader, room: int | None) -> bool:
    """Whether the frame at ``reader.tell()`` may be followed by a frame of its size, which is when a template of
    it can prove more than that one frame: the next frame's end is taken where the bytes of a FrameEnd and a
    FrameStart header first follow each other (one search in C), and a frame of its size after it must end
    with a FrameEnd's header too. A template proves a frame only after reading every packet of it, so a
    payload holding those bytes only makes this answer wrong, never a report: True lets the template be tried,
    False leaves the frame to the packet-by-packet walk. Where no frame follows the next one in the buffered
    bytes (the file's last frame, a frame larger than the reader's buffer), True. A template's making and its
    first frame cost more than walking that frame packet by packet (a fuzzer's inputs of a few frames, each
    unlike the next, made one for nearly every frame and proved one frame with it)."""
    buf, i = reader.window(5)
    end = len(buf) if room is None else min(len(buf), i + room)
    at = buf.find(_FRAME_BOUNDARY, i, end)
    if at < 0:  # no frame follows the next one within the buffer: the file's last frame (the room
        return True  # test before this one judges it) or a large one
    twice = 2 * (at + 5 - i)  # two frames of the next one's size, from here
    if i + twice > end:
        return len(buf) - i < twice and (room is None or twice <= room)  # past the buffer: cannot tell
    ends: bytes = buf[i + twice - 5:i + twice]
    return ends == _FRAME_END_HEAD

#: The most frames of a cycle (``_frame_cycle``), and how many times in a row its sizes must come back in the
#: buffered bytes for a template of the cycle to be made: building one costs a template per frame of it and
#: proving its first unit, more than walking those frames; the cycles after repay it (a fuzzer's inputs of a
#: few frames are walked).
MAX_CYCLE = 4
CYCLE_REPEATS = 8


def _frame_cycle(reader: dec.PacketReader, room: int | None) -> tuple[int, ...] | None:
    """The sizes of the next 2 to ``MAX_CYCLE`` frames from ``reader.tell()`` (the fewest that do) where the
    frames after them have those sizes in turn, ``CYCLE_REPEATS`` cycles in all, as far as the frames' ends
    can be told from the bytes (``_two_frames_alike``'s search: the bytes of a FrameEnd and a FrameStart header
    one after the other); None where there is no such cycle within the buffered bytes, the file's first
    ``room`` and ``BULK_WINDOW`` bytes. Like that search, it only decides whether a template is tried. Each
    length is first asked whether the frame after one cycle ends where a frame of the first one's size would
    (one comparison), so a log whose sizes do not come back costs a search per frame of ``MAX_CYCLE``."""
    buf, i = reader.window(5)
    end = len(buf) if room is None else min(len(buf), i + room)
    ends: list[int] = []  # each frame's end, from i
    at = i
    for c in range(1, MAX_CYCLE + 1):
        at = buf.find(_FRAME_BOUNDARY, at, end)
        if at < 0:
            return None
        at += 5
        ends.append(at - i)
        if c == 1:
            continue
        span = at - i
        if buf[at + ends[0] - 5:at + ends[0]] != _FRAME_END_HEAD:
            continue  # the frame after the cycle has not the first one's size
        need = CYCLE_REPEATS * span
        if need > BULK_WINDOW or (room is not None and need > room):
            return None
        if need > len(buf) - i:
            buf, i = reader.window(need)
            if need > len(buf) - i:
                return None
            at = i + span
        if all(buf[i + r * span + e - 5:i + r * span + e] == _FRAME_END_HEAD
               for r in range(1, CYCLE_REPEATS) for e in ends):
            return tuple(b - a for a, b in zip([0, *ends[:-1]], ends))
    return None

# --- the walk ----------------------------------------------------------------------


class _Walk:
    """State of one pass over a log. ``run`` fills ``sink`` and ``stats``."""

    def __init__(self, variant: Variant, sink: FindingSink) -> None:
        self.v = variant
        self.sink = sink
        self.order = _ORDERS[variant.name]  # shared, read only
        self.required = _REQUIRED[variant.name]  # CARLA-FRAME-011, checked at each FrameEnd
        self.alive: set[int] = set()
        self.frames = 0
        self.packets = 0
        self.actors_added = 0
        self.position_records = 0
        self.in_frame = False
        #: the fixed-record kinds while ``in_frame``, else none: the common packet's first test, one instead of two
        #: (set with ``in_frame``)
        self.fixed_in_frame: frozenset[K] = _NO_KINDS
        self.later = _LATER[variant.name]  # shared, read only
        #: by kind, what ``packet`` answers for the common packet: whether it may start a run (``_MAY_RUN``), or
        #: always True where a progress bar is drawn, so the loop asks for progress inside a frame too
        self.more_after_common: dict[K, bool] = _MAY_RUN
        self.frame_path = ""
        self.packet_index = 0
        self.frame_kinds: set[K] = set()
        self.last_order = -1
        self.prev_start: tuple[int, float, float, int] | None = None  # id, duration, elapsed, offset
        self.last_frame_end = 0
        self.last_complete_frame_id: int | None = None
        #: the place of that frame in the file (frame[i]); ids are the writer's and need not follow the places
        self.last_complete_frame_index: int | None = None
        self.trace: CarlaTrace | None = None
        #: judge each distinct EventAdd attribute once (False: every attribute one by one)
        self.fast = True
        #: the fixed-record kinds ``_fixed`` judges from their judged fields alone, with their plans
        #: (emptied where every packet is to take the whole way: ``fast_path=False``, a trace)
        self.judged = _judged_plans(variant)
        self.clean = _clean_fixed(variant)  # payloads of ``judged`` kinds judged clean, kept across files
        self.template: FrameTemplate | None = None  # the shape of the last frames proved clean in bulk
        self.reference: Reference | None = None  # the last frame proved clean field by field
        self.proved: tuple[FrameTemplate, bytes] | None = None  # that frame, until it becomes the reference
        self.reference_misses = 0  # calls in a row where the reference proved no frame, its shape held
        self.reference_wait = 0  # calls to pass before asking the reference again
        self.templates: dict[tuple[str, tuple[Any, ...]], FrameTemplate] = {}  # the shapes seen, by key
        self.template_fields = 0  # the fields of the templates kept (at most MAX_FIELDS)
        #: the templates the last bulk steps made, each of which proved its one frame alone (at most MAX_CYCLE,
        #: the last last; emptied when a step proves more or none): ``_lone_cycle`` finds cycles in them
        self.lone: list[FrameTemplate] = []
        self.cycle_misses = 0  # searches in a row where _frame_cycle found no cycle
        self.cycle_wait = 0  # searches to pass before searching again
        self.bulk_fails = 0  # frame boundaries in a row where no template proved the next frame clean
        self.bulk_wait = 0  # frame boundaries to pass before trying again
        self.repeat_fails = 0  # frame boundaries in a row where no template made frames alike (_judged_alike)
        self.repeat_wait = 0  # frame boundaries to pass before trying again
        #: the timing findings of the frames the last bulk step proved (``_counted_timing``), to be counted
        self.timing_found: dict[str, int] | None = None

    # -- helpers
    def _path(self, kind: K, extra: str = "") -> str:
        if self.in_frame:
            return f"{self.frame_path}/packet[{self.packet_index}]:{_LABELS[kind]}{extra}"
        return f"packet@{self.packets}:{_LABELS[kind]}{extra}"

    def _string(self, text: str, offset: int, path: str) -> None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            self.sink.add("CARLA-STRING-001", f"string is not valid UTF-8: {_shown(text)}", offset, None, path)
            return
        if "\x00" in text:
            self.sink.add("CARLA-STRING-002", f"string holds a NUL byte: {_shown(text)}", offset, None, path)

    def header(self, h: Any, end: int) -> None:
        add = self.sink.add
        if h.magic != "CARLA_RECORDER":
            size = len(h.magic.encode("utf-8", "surrogateescape"))
            add("CARLA-HEADER-001", f"magic is {_shown(h.magic)}, not 'CARLA_RECORDER'", 2, 2 + size, "header.magic",
                "CARLA_RECORDER", h.magic)
        if h.version != 1:
            add("CARLA-HEADER-002", f"header version is {h.version}; every CARLA release writes 1", 0, 2,
                "header.version", 1, h.version)
        if not _DATE_MIN <= h.date < _DATE_MAX:
            add("CARLA-HEADER-003", f"date {h.date} is not a plausible Unix time (2017..2100)",
                end - 2 - len(h.map_name.encode('utf-8', 'surrogateescape')) - 8, 8, "header.date", None, h.date)
        if not h.map_name:
            add("CARLA-HEADER-004", "map name is empty", end - 2, 2, "header.map_name")
        self._string(h.magic, 2, "header.magic")
        self._string(h.map_name, end - 2 - len(h.map_name.encode("utf-8", "surrogateescape")), "header.map_name")

    def packet(self, raw: dec.RawPacket) -> bool:
        """Walk one packet; True where the loop has more to look at after it (a frame ended or none is open,
        an EventDel or EventParent that may start a run), False for the common packets inside a frame."""
        kind = raw.kind
        self.packets += 1
        if kind in self.fixed_in_frame:  # the common case, in few tests: what the steps below do
            self.packet_index += 1
            if kind in self.later[self.last_order]:  # _order's common case at once (``_LATER``)
                self.frame_kinds.add(kind)
                self.last_order = self.order[kind]
            else:
                self._order(kind, raw)
            if raw.payload != _NO_RECORDS:  # no record (a count of 0 and nothing after it): nothing to judge
                self._fixed(kind, raw)
            return self.more_after_common[kind]  # a look-up, not a comparison
        if kind in _TIMES and self.in_frame and len(raw.payload) == 8:  # the next common case: a time of its
            self.packet_index += 1  # size, whose value no rule judges (what the steps below do)
            self._order(kind, raw)
            return False
        self._uncommon(kind, raw)
        return True

    def _uncommon(self, kind: K, raw: dec.RawPacket) -> None:
        """``packet`` for every packet but its two common cases."""
        sink = self.sink
        if kind is _K_FRAME_START:
            self.frame_start(raw)
            if self.trace is not None:
                self.trace.frame_start(*(self.prev_start[1:3] if self.prev_start is not None else (None, None)))
            return
        if not self.in_frame:
            sink.add("CARLA-FRAME-001", f"{_LABELS[kind]} packet (id {raw.packet_id}) outside a frame",
                     raw.offset, 5 + len(raw.payload), self._path(kind))
        else:
            self.packet_index += 1
        if kind is _K_FRAME_END:
            if raw.payload:
                sink.add("CARLA-PACKET-001", f"FrameEnd payload is {len(raw.payload)} bytes, its layout implies 0",
                         raw.offset, 5 + len(raw.payload), self._path(kind), 0, len(raw.payload))
            if self.in_frame:
                self.frame_end(raw)
            return
        if kind is _K_RAW:
            if raw.packet_id >= 100:
                sink.add("CARLA-PACKET-003", f"user packet id {raw.packet_id} ({len(raw.payload)} bytes) kept as raw",
                         raw.offset, 5 + len(raw.payload), self._path(kind))
            else:
                sink.add("CARLA-PACKET-002",
                         f"packet id {raw.packet_id} is not defined in variant {self.v.name}; skipped by size",
                         raw.offset, 5 + len(raw.payload), self._path(kind), None, raw.packet_id)
            return
        if self.in_frame:
            self._order(kind, raw)
        if kind is _K_FRAME_COUNTER:
            sink.add("CARLA-PACKET-004", "FrameCounter packet in a recorder file", raw.offset, 5 + len(raw.payload),
                     self._path(kind))
        if kind in _FIXED_KINDS:
            self._fixed(kind, raw)
            return
        try:
            if kind is _K_ANIM_VEHICLE_WHEELS:  # fast path: only the vehicle ids matter to the rules
                alive = self.alive
                for i, (pos, actor) in enumerate(dec.anim_wheel_ids(raw.payload, raw.payload_offset, self._path(kind))):
                    if actor not in alive:
                        sink.add("CARLA-ACTOR-001",
                                 f"AnimVehicleWheels record refers to actor {actor}, which is not alive",
                                 raw.payload_offset + pos, 4, self._path(kind, f"/record[{i}].database_id"), None,
                                 actor)
            elif kind is _K_EVENT_ADD and self.fast and self.trace is None and \
                    (scan := dec.scan_event_add(raw.payload, self.v.vec_f64)) is not None:
                self.event_adds(raw, scan)  # fast path: no object per attribute
            elif self.fast and self._clean_records(kind, raw.payload):
                pass  # fast path: records that decode and break no rule, read without their objects
            else:
                body = dec.decode_body(kind, raw.payload, self.v, raw.payload_offset, self._path(kind))
                if isinstance(body, tuple):
                    self.variable_records(kind, raw, body)
        except DecodeError as e:
            sink.add(e.rule, e.message, e.offset, None, e.path,
                     getattr(e, "expected", None), getattr(e, "actual", None))

    def _fixed(self, kind: K, raw: dec.RawPacket) -> None:
        """A packet of fixed-size records; its path is made only for a finding. The usual packet of a kind
        with a plan (``judged``: ``_judged_plans``) is judged from its judged fields alone, read with one
        ``struct`` call made for its record count (``_judged_fields``): when its count fits its size, every
        actor id is alive and every flag and enum within its bound, it has no finding; anything else takes
        the whole way below."""
        payload = raw.payload
        known = self.clean.get((raw.packet_id, payload))  # judged clean before: only its ids to test
        if known is not None and self.alive.issuperset(known[0]):
            self.position_records += known[1]
            return
        plan = self.judged.get(kind)
        if plan is not None and len(payload) >= 2:
            size, record, width, ids, bounds = plan
            count = payload[0] | payload[1] << 8
            if len(payload) == 2 + count * size and count <= JUDGED_MAX_RECORDS:
                fields = _judged_fields(record, count)(payload)
                alive = self.alive
                ids_alive = in_bounds = True
                for j in ids:
                    if not alive.issuperset(fields[j::width]):
                        ids_alive = False
                for j, bound in bounds:
                    if count and max(fields[j::width]) >= bound:
                        in_bounds = False
                if in_bounds:
                    records = count if kind is _K_POSITION else 0
                    self.position_records += records
                    if ids_alive:
                        if len(payload) <= _CLEAN_PAYLOAD_MAX:
                            self.clean.keep((raw.packet_id, payload),
                                            (frozenset().union(*(fields[j::width] for j in ids)), records))
                    else:  # dead actors alone: their findings from the judged ids, as fixed_records makes them
                        self._dead_ids(kind, raw, fields, ids, width, size)
                    return
        try:
            flat = dec.unpack_flat(kind, raw.payload, self.v, raw.offset + 5)
        except DecodeError as e:
            self.sink.add(e.rule, e.message, e.offset, None, self._path(kind), getattr(e, "expected", None),
                          getattr(e, "actual", None))
            return
        if flat:
            self.fixed_records(kind, raw, flat)

    def _dead_ids(self, kind: K, raw: dec.RawPacket, fields: tuple[int, ...], ids: tuple[int, ...], width: int,
                  stride: int) -> None:
        """The CARLA-ACTOR-001 findings of a packet ``_fixed`` judged from its fields (``_judged_fields``: the
        plan's ``width`` columns a record, its id columns ``ids``), whose flags and enums are in range: those
        ``fixed_records`` makes, in its order (a column after the other: EventParent's database_id, then its
        database_id_parent)."""
        alive = self.alive
        for j, what in zip(ids, _ID_COLUMNS[kind]):
            column = fields[j::width]
            if not alive.issuperset(column):
                bad = [i for i, a in enumerate(column) if a not in alive]
                self._missing([column[i] for i in bad], kind, raw, what, bad, stride)

    def _clean_records(self, kind: K, payload: bytes) -> bool:
        """Whether a PhysicsControl or WalkerBones payload decodes and its records break no rule, found from
        their actor ids and bone names alone (``physics_control_ids``, ``walker_bones_scan``): then decoding
        it and walking its records (``variable_records``) would add nothing. False says nothing: the packet
        takes the whole way."""
        if kind is _K_PHYSICS_CONTROL:
            wheels = self.v.wheel_physics_size
            ids = None if wheels is None else dec.physics_control_ids(payload, wheels)
            return ids is not None and self.alive.issuperset(ids)
        if kind is _K_WALKER_BONES:
            scan = dec.walker_bones_scan(payload, self.v.vec_f64)
            if scan is None:
                return False
            names = b"".join(scan[1])  # valid UTF-8 without NUL (CARLA-STRING-001, -002): ASCII without NUL
            return self.alive.issuperset(scan[0]) and names.isascii() and b"\0" not in names
        return False

    def _order(self, kind: K, raw: dec.RawPacket) -> None:
        # a finding past its rule's stored findings is only counted: its message and path are not made
        sink = self.sink
        if kind in self.frame_kinds:
            if sink.only_counted_one("CARLA-ORDER-002"):
                sink.count("CARLA-ORDER-002")
            else:
                sink.add("CARLA-ORDER-002", f"second {_LABELS[kind]} packet in this frame", raw.offset,
                         5 + len(raw.payload), self._path(kind))
        self.frame_kinds.add(kind)
        pos = self.order.get(kind)
        if pos is None:
            return
        if pos < self.last_order:  # the last order stays
            if sink.only_counted_one("CARLA-ORDER-001"):
                sink.count("CARLA-ORDER-001")
            else:
                sink.add("CARLA-ORDER-001", f"{_LABELS[kind]} after a packet that CARLA writes later in the frame",
                         raw.offset, 5 + len(raw.payload), self._path(kind))
        else:
            self.last_order = pos

    def frame_start(self, raw: dec.RawPacket) -> None:
        sink = self.sink
        if self.in_frame:
            sink.add("CARLA-FRAME-002", "FrameStart before the previous frame's FrameEnd", raw.offset, 5,
                     f"{self.frame_path}/packet[{self.packet_index + 1}]:FrameStart")
        self.frames += 1
        self.in_frame = True
        self.fixed_in_frame = _FIXED_KINDS
        self.frame_path = f"frame[{self.frames - 1}]"
        self.packet_index = 0
        self.frame_kinds = set()
        self.last_order = -1
        path = f"{self.frame_path}/packet[0]:FrameStart"
        if len(raw.payload) != 24:
            sink.add("CARLA-PACKET-001", f"FrameStart payload is {len(raw.payload)} bytes, its layout implies 24",
                     raw.offset, 5 + len(raw.payload), path, 24, len(raw.payload))
            self.prev_start = None
            return
        frame_id, duration, elapsed = _FRAME_START(raw.payload)
        off = raw.payload_offset
        if not (math.isfinite(duration) and math.isfinite(elapsed)):
            sink.add("CARLA-FRAME-010", f"durationThis {duration!r} / elapsed {elapsed!r} not finite", off + 8, 16,
                     path)
        prev = self.prev_start
        if prev is None:
            if self.frames == 1:
                if frame_id != 1:
                    sink.add("CARLA-FRAME-003", f"first frame id is {frame_id}, expected 1", off, 8,
                             path + ".frame_id", 1, frame_id)
                if elapsed != 0.0:
                    sink.add("CARLA-FRAME-005", f"first frame elapsed is {elapsed!r}, expected 0.0", off + 16, 8,
                             path + ".elapsed", 0.0, elapsed)
        else:
            p_id, p_duration, p_elapsed, p_off = prev
            if frame_id != p_id + 1:
                sink.add("CARLA-FRAME-003", f"frame id {frame_id} follows {p_id}", off, 8, path + ".frame_id",
                         p_id + 1, frame_id)
            if p_duration < 0:
                sink.add("CARLA-FRAME-008",
                         f"frame id {p_id} has durationThis {p_duration!r} but is not the last frame",
                         p_off + 8, 8, f"frame[{self.frames - 2}]/packet[0]:FrameStart.duration_this", None, p_duration)
            elif p_elapsed + p_duration != elapsed:
                sink.add("CARLA-FRAME-004",
                         f"elapsed {elapsed!r} != previous elapsed {p_elapsed!r} + durationThis {p_duration!r} "
                         f"(= {p_elapsed + p_duration!r})", off + 16, 8, path + ".elapsed", p_elapsed + p_duration,
                         elapsed)
        self.prev_start = (frame_id, duration, elapsed, off)

    def frame_end(self, raw: dec.RawPacket) -> None:
        self.in_frame = False
        self.fixed_in_frame = _NO_KINDS
        if not self.required <= self.frame_kinds:
            sink = self.sink
            if sink.only_counted_one("CARLA-FRAME-011"):  # counted, not stored: no message made
                sink.count("CARLA-FRAME-011")
            else:
                sink.add("CARLA-FRAME-011", missing_message(self.required - self.frame_kinds, self.order, self.v.name),
                         raw.offset, 5, f"{self.frame_path}/packet[{self.packet_index}]:FrameEnd")
        self.last_frame_end = raw.end
        if self.prev_start is not None:
            self.last_complete_frame_id = self.prev_start[0]
            self.last_complete_frame_index = self.frames - 1

    def finish(self, end_offset: int) -> None:
        sink = self.sink
        if self.in_frame:
            sink.add("CARLA-FRAME-007", f"the last frame ({self.frame_path}) has no FrameEnd", end_offset, 0,
                     self.frame_path)
        if self.frames == 0:
            sink.add("CARLA-FRAME-009", "the log holds no frame", end_offset, 0, "")
        if self.prev_start is not None:
            p_id, p_duration, _, p_off = self.prev_start
            if p_duration != -1.0:
                sink.add("CARLA-FRAME-006",
                         f"the last frame (id {p_id}) has durationThis {p_duration!r}, expected -1.0",
                         p_off + 8, 8, f"frame[{self.frames - 1}]/packet[0]:FrameStart.duration_this", -1.0, p_duration)

    # -- whole frames in bulk
    def bulk_frames(self, reader: dec.PacketReader) -> int:
        """At a frame boundary, step past the frames that follow and that a template
        proves clean (``_frames.py``), moving the walk's state as walking them packet by
        packet would (they have no finding); returns how many. A frame no template proves
        clean is left to the packet-by-packet walk. After frames it could not prove in a
        row, it waits a few frame boundaries before trying again (at most ``MAX_BATCH``),
        so a log it cannot help costs it little."""
        prev = self.prev_start
        if prev is None:
            return 0
        if self.bulk_wait:
            self.bulk_wait -= 1
            return 0
        done = 0
        while True:
            step = self._bulk_step(reader, prev)
            if step is None:
                self.lone = []
                self.bulk_fails += 1
                self.bulk_wait = min(1 << (self.bulk_fails - 1), MAX_BATCH) - 1
                return done
            t, k, last = step
            self.template = t
            self.bulk_fails = 0
            if self.timing_found is not None:  # frames whose timing breaks rules only counted by now
                for rule, n in self.timing_found.items():
                    self.sink.count(rule, n)
                self.timing_found = None
            tail = t.tail or t  # the last frame's template (a cycle's units hold several frames)
            start = reader.tell() + k * t.size - tail.size  # the last frame's
            reader.advance(k * t.size)
            done += k * t.frames
            if t.lacking:  # each such frame's CARLA-FRAME-011, past its stored findings (build_template)
                self.sink.count("CARLA-FRAME-011", k * t.lacking)
            self.frames += k * t.frames
            self.packets += k * t.packets
            self.position_records += k * t.position_records
            self.packet_index = tail.packets - 1
            self.frame_kinds = set(tail.kinds)
            self.last_order = tail.last_order
            prev = self.prev_start = (*last, start + 5)
            self.last_frame_end = start + tail.size
            self.last_complete_frame_id = last[0]
            self.last_complete_frame_index = self.frames - 1
            self.frame_path = f"frame[{self.frames - 1}]"

    def _bulk_step(self, reader: dec.PacketReader, prev: tuple[int, float, float, int]
                   ) -> tuple[FrameTemplate, int, tuple[int, float, float]] | None:
        """The frames at ``reader.tell()`` that one template proves clean: the template, how
        many frames (the most of ``BATCHES``) and the last one's timing; None if not even the next."""
        t = self.template
        total = reader.size
        room = None if total is None else total - reader.tell()  # the frames must lie within the file
        if t is not None:
            buf, i = reader.window(max(t.size, min(MAX_BATCH * t.size, BULK_WINDOW)))
            fit = (len(buf) - i if room is None else min(len(buf) - i, room)) // t.size
            if fit and self.proved is not None:  # the frame the template proved last is the reference now
                self._refer(t, self.proved)
            ref = self.reference
            if ref is not None and ref.template is t and fit:
                if self.reference_wait:
                    self.reference_wait -= 1
                else:
                    n, proved = ref.run(buf, i, fit, prev, self.alive, self._counted_timing)
                    if proved is not None:
                        self.reference_misses = 0
                        self.lone = []
                        return t, n, proved
                    if n:  # the frames differ from the reference where judged: try it less often
                        self.reference_misses += 1
                        self.reference_wait = min(1 << (self.reference_misses - 1), MAX_BATCH) - 1
                    fit = n  # no frame after the first n would match
            for k in BATCHES:
                if k <= fit and (last := t.match(buf, i, k, prev, self.alive, self._counted_timing)) is not None:
                    self.proved = (t, buf[i + (k - 1) * t.size:i + k * t.size])
                    self.lone = []
                    return t, k, last
        if room is not None and room < 2 * (reader.tell() - prev[3] + 5):
            # the rest of the file holds fewer than two frames of the size of the one walked last (a short log,
            # a log's last frames): a template proves frames of one shape, and the first frame it proves costs
            # about what walking it does, so it could not repay its making; the walk goes on packet by packet
            return None
        lacking = self.sink.only_counted_one("CARLA-FRAME-011")
        if _two_frames_alike(reader, room):
            t = build_template(reader.window, room, self.v, self.order, self.required, reader.max_packet_size,
                               lacking=lacking)
        elif self.cycle_wait:  # the last searches for a cycle found none
            self.cycle_wait -= 1
            return None
        else:  # a template of the next frame would prove one frame at most, at more than walking it costs;
            sizes = _frame_cycle(reader, room)  # but frames whose sizes come back every few frames make a cycle
            if sizes is None:
                self.cycle_misses += 1
                self.cycle_wait = min(1 << (self.cycle_misses - 1), MAX_BATCH) - 1
                return None
            self.cycle_misses = 0
            t = self._cycle(reader, room, sizes, lacking)
        if t is None:
            return None
        t = self._kept(t)
        if not t.parts:
            t = self._lone_cycle(t) or t
        buf, i = reader.window(t.size)
        if (last := t.match(buf, i, 1, prev, self.alive, self._counted_timing)) is None:
            return None
        self.proved = (t, buf[i:i + t.size])
        self.lone = [*self.lone[1 - MAX_CYCLE:], t] if not t.parts else []
        return t, 1, last

    def _kept(self, t: FrameTemplate) -> FrameTemplate:
        """The template of ``t``'s shape kept in ``templates`` (a shape seen before keeps its formats, and
        is the same object), ``t`` kept there if none was."""
        known = self.templates.get(t.key)
        if known is not None:
            return known
        if len(self.templates) >= MAX_TEMPLATES or self.template_fields + t.fields > MAX_FIELDS:
            self.templates.clear()
            self.template_fields = 0
        self.templates[t.key] = t
        self.template_fields += t.fields
        return t

    def _lone_cycle(self, t: FrameTemplate) -> FrameTemplate | None:
        """Where the templates just made proved one frame each (``lone``) and the next frame, of ``t``'s shape,
        has the shape of the frame 2 to ``MAX_CYCLE`` back: the template of that cycle (``cycle_template``),
        from this frame on; else None. Frames of shapes in turn whose sizes do not tell them apart (the
        search of ``_frame_cycle`` then lets a template of one frame be made, which proves that frame alone)."""
        lone = self.lone
        for c in range(2, len(lone) + 1):
            if lone[-c] is t:
                cycle = cycle_template(lone[-c:])
                return None if cycle is None else self._kept(cycle)
        return None

    def _cycle(self, reader: dec.PacketReader, room: int | None, sizes: tuple[int, ...], lacking: bool
               ) -> FrameTemplate | None:
        """The template of the frames of ``sizes`` bytes at ``reader.tell()`` read as one unit
        (``cycle_template``), where each of them can be made a template of that size; else None."""
        parts = []
        at = 0
        for size in sizes:
            def window(n: int, at: int = at) -> tuple[bytes, int]:
                buf, i = reader.window(at + n)
                return buf, i + at
            part = build_template(window, None if room is None else room - at, self.v, self.order, self.required,
                                  reader.max_packet_size, lacking=lacking)
            if part is None or part.size != size:  # the search for the boundaries met those bytes in a payload
                return None
            parts.append(part)
            at += size
        return cycle_template(parts)

    def _counted_timing(self, prev: tuple[int, float, float, int], t: tuple[Any, ...], n: int, k: int
                        ) -> tuple[int, float, float] | None:
        """The templates' judge of frames' timing (``_frames.Follow``): frames that follow on (``follow_on``),
        and also frames whose timing breaks rules (elapsed standing still or going back, ids that skip,
        hostile.py's carla-elapsed-frames) once every rule they break only counts: then how many times each
        is kept in ``timing_found`` for ``bulk_frames`` to count (the frames are proved; their findings are
        those ``frame_start`` would make, ``_timing_faults``)."""
        last = follow_on(prev, t, n, k)
        if last is not None:
            return last
        ids, durations, elapsed = t[2::n], t[3::n], t[4::n]
        found = _counted_faults(self.sink, _timing_faults(prev, ids, durations, elapsed), k)
        if found is None:
            return None
        self.timing_found = found
        return ids[-1], durations[-1], elapsed[-1]

    def _refer(self, t: FrameTemplate, proved: tuple[FrameTemplate, bytes]) -> None:
        """The frame ``proved`` (a template and the bytes of a frame it proved clean field by
        field, kept until frames follow, so that a file that ends there makes no reference) is
        the reference the frames after it are compared with (``Reference``), if ``t`` is its template."""
        self.proved = None
        if proved[0] is not t:
            return
        ref = self.reference
        if ref is None or ref.template is not t:
            ref = self.reference = Reference(t, REFERENCE_WINDOW)
            self.reference_misses = self.reference_wait = 0
        ref.reset(proved[1], 0, t.actor_ids(proved[1], 0))

    # -- records
    def _missing(self, ids: list[int], kind: K, raw: dec.RawPacket, what: str, index_of: list[int],
                 stride: int) -> None:
        """A CARLA-ACTOR-001 for each of ``ids``, the actors (not alive, and for a Collision not
        ``NOT_AN_ACTOR``: the callers pick them) that the records ``index_of`` refer to. Only the findings
        the report stores are made (the sink's ``room``); the rest are counted, their messages not made."""
        sink = self.sink
        room = sink.room("CARLA-ACTOR-001")
        label = _LABELS[kind]
        path = self._path(kind)
        first = raw.payload_offset + 2
        for actor, i in zip(ids[:room], index_of):
            sink.add("CARLA-ACTOR-001", f"{label} record refers to actor {actor}, which is not alive",
                     first + i * stride, stride, f"{path}/record[{i}].{what}", None, actor)
        if len(ids) > room:  # after the stored ones: counted past the cap
            sink.count("CARLA-ACTOR-001", len(ids) - room)

    def fixed_records(self, kind: K, raw: dec.RawPacket, flat: list[tuple[Any, ...]]) -> None:
        if not flat:
            return
        alive = self.alive
        if kind in ACTOR_FIRST:
            ids = list(map(_FIRST, flat))
            if kind is _K_POSITION:
                self.position_records += len(ids)
                if self.trace is not None:
                    self.trace.position_records(flat)
            if not alive.issuperset(ids):
                bad = [i for i, a in enumerate(ids) if a not in alive]
                self._missing([ids[i] for i in bad], kind, raw, "database_id", bad, self._stride(kind))
        elif kind is _K_EVENT_DEL:
            stride = self._stride(kind)
            sink = self.sink
            for i, (actor,) in enumerate(flat):
                if actor in alive:
                    alive.discard(actor)
                elif sink.only_counted_one("CARLA-ACTOR-003"):  # counted, not stored: no message made
                    sink.count("CARLA-ACTOR-003")
                else:
                    sink.add("CARLA-ACTOR-003", f"EventDel of actor {actor}, which is not alive",
                             raw.payload_offset + 2 + i * stride, stride,
                             self._path(kind, f"/record[{i}].database_id"), None, actor)
        elif kind is _K_EVENT_PARENT:
            for col, what in ((0, "database_id"), (1, "database_id_parent")):
                ids = list(map(itemgetter(col), flat))
                if not alive.issuperset(ids):
                    bad = [i for i, a in enumerate(ids) if a not in alive]
                    self._missing([ids[i] for i in bad], kind, raw, what, bad, self._stride(kind))
        elif kind is _K_COLLISION:
            for col, what in ((1, "database_id1"), (2, "database_id2")):
                ids = list(map(itemgetter(col), flat))
                if not alive.issuperset(ids):
                    bad = [i for i, a in enumerate(ids) if a not in alive and a != NOT_AN_ACTOR]
                    self._missing([ids[i] for i in bad], kind, raw, what, bad, self._stride(kind))
        flags = FLAGS.get(kind)
        if flags:
            for col, what in flags:
                if max(map(itemgetter(col), flat)) > 1:
                    stride = self._stride(kind)
                    for i, t in enumerate(flat):
                        if t[col] > 1:
                            self.sink.add("CARLA-VALUE-001", f"{what} is {t[col]}, not 0 or 1",
                                          raw.payload_offset + 2 + i * stride, stride,
                                          self._path(kind, f"/record[{i}].{what}"), None, t[col])
        enum = ENUMS.get(kind)
        if enum is not None:
            col, what, rule, _ = enum
            self._enum(flat, col, enum_size(kind, self.v), rule, what, kind, raw)

    def _stride(self, kind: K) -> int:
        return dec.record_struct(kind, self.v.vec_f64).size

    def _enum(self, flat: list[tuple[Any, ...]], col: int, n: int, rule: str, what: str, kind: K, raw: dec.RawPacket
              ) -> None:
        if max(map(itemgetter(col), flat)) < n:
            return
        stride = self._stride(kind)
        for i, t in enumerate(flat):
            if t[col] >= n:
                self.sink.add(rule, f"{what} is {t[col]}, outside 0..{n - 1}", raw.payload_offset + 2 + i * stride,
                              stride, self._path(kind, f"/record[{i}].{what}"), f"0..{n - 1}", t[col])

    def _attributes(self, attributes: tuple[dec.ActorAttribute, ...], offset: int, path: str) -> None:
        """An EventAdd record's attributes: each distinct object is judged once (a run of one
        attribute is one object repeated), and a finding whose rule has its stored findings
        is only counted (no message is made for it)."""
        types = self.v.attribute_types
        faults = {id(a): _attribute_faults(a, types) for a in attributes}
        if not any(faults.values()):
            return
        sink = self.sink
        rules = {rule for fault in faults.values() for rule, _ in fault}
        for j, a in enumerate(attributes):
            fault = faults[id(a)]
            if fault and sink.only_counted(rules):  # the rest are only counted: per distinct object
                rest: dict[str, int] = {}
                for ident, n in Counter(map(id, attributes[j:])).items():
                    for rule, _ in faults[ident]:
                        rest[rule] = rest.get(rule, 0) + n
                for rule, n in rest.items():
                    sink.count(rule, n)
                return
            for rule, field in fault:
                if sink.only_counted((rule,)):
                    sink.count(rule)
                elif field == "type":
                    sink.add(rule, f"attribute {a.id!r} has type {a.type}, not one of {list(types)}", offset, None,
                             f"{path}/attributes[{j}].type", None, a.type)
                else:
                    self._string(a.id if field == "id" else a.value, offset, f"{path}/attributes[{j}].{field}")

    def _actor(self, database_id: int, actor_type: int, description: str, offset: int, path: str) -> None:
        """An EventAdd record's own fields (its attributes aside)."""
        self.actors_added += 1
        if database_id in self.alive:
            self.sink.add("CARLA-ACTOR-002", f"actor {database_id} added again while alive", offset, None,
                          path + ".database_id", None, database_id)
        self.alive.add(database_id)
        if actor_type >= self.v.actor_types - 1:
            self.sink.add("CARLA-ENUM-001", f"actor type {actor_type} is outside 0..{self.v.actor_types - 2} "
                          f"({self.v.actor_types - 1} is INVALID in {self.v.name})", offset, None,
                          path + ".type", f"0..{self.v.actor_types - 2}", actor_type)
        self._string(description, offset, path + ".description_id")

    def event_adds(self, raw: dec.RawPacket, scan: dec.EventAddScan) -> None:
        """An EventAdd packet from its scan: the same findings as decoding it and walking its
        records one attribute at a time. The records are taken in chunks of about
        ``ATTRIBUTE_CHUNK`` attributes; the faults of a chunk's attributes are found in bulk
        (C loops over the types and the strings), then each record takes its share of them."""
        records = scan.records
        first = 0
        alike_from = 0  # records before this are not asked again whether a run of alike records starts there
        while first < len(records):
            if first >= alike_from and first + 1 < len(records):
                alike = dec.alike_records(scan.payload, records[first][0], records[first][7] - records[first][0],
                                       len(records) - first)
                if alike > 1:
                    alike_from = first + alike  # a run cut short is not asked again
                    first = self._alike_adds(raw, scan, first, alike)
                    continue
            last = first + 1
            lo = records[first][5]
            while last < len(records) and records[last][6] - lo <= ATTRIBUTE_CHUNK:
                last += 1
            self._event_add_chunk(raw, scan, first, last)
            first = last

    def _alike_adds(self, raw: dec.RawPacket, scan: dec.EventAddScan, first: int, alike: int) -> int:
        """Records ``first .. first + alike - 1``, alike byte for byte but for their database ids
        (``alike_records``): each is judged on its own until its findings would all be counted,
        not stored; then, if the ids left are new and distinct, the rest make the same findings as
        the last one judged and are counted in bulk, their ids added as a set. Returns the index of
        the first record not judged (the walk goes on from there)."""
        sink = self.sink
        end = first + alike
        i = first
        while i < end:
            before = sink.counts_now()
            self._event_add_chunk(raw, scan, i, i + 1)
            i += 1
            added = sink.counted_since(before)
            if i == end or any("CARLA-ACTOR-002" in rules for rules in added.values()) \
                    or not sink.only_counted(added[sink.profile]):
                continue
            # an id met again: the chunks judge the rest, records as they come
            return end if self._alike_bulk(scan, i, end, added) else i
        return end

    def _alike_bulk(self, scan: dec.EventAddScan, first: int, end: int, added: dict[str, dict[str, int]]) -> bool:
        """Count records ``first .. end - 1`` as making ``added`` each (the findings of the record
        before them, which they repeat but for the id) and add their ids, if those are new and
        distinct; else do nothing and say so."""
        at, width = scan.records[first][0], scan.records[first][7] - scan.records[first][0]
        ids = dec.record_ids(scan.payload, at, width, end - first)
        if len(set(ids)) != len(ids) or not self.alive.isdisjoint(ids):
            return False
        self.sink.count_again(added, len(ids))
        self.actors_added += len(ids)
        self.alive.update(ids)
        return True

    def _event_add_chunk(self, raw: dec.RawPacket, scan: dec.EventAddScan, first: int, last: int) -> None:
        buf = scan.payload
        types = self.v.attribute_types
        base, end = scan.records[first][5], scan.records[last - 1][6]
        type_bytes = scan.types(base, end)
        bad_types: list[int] = []
        if type_bytes.translate(None, bytes(types)):
            bad_types = list(compress(range(len(type_bytes)), type_bytes.translate(_type_faults(types))))
        ids = scan.ids(base, end)
        values = scan.value_texts(first, last)
        id_bad, id_nul = _string_faults(ids)
        value_bad, value_nul = _string_faults(values)
        # per rule: the attributes breaking it (indices from ``base``) through the type (0), the id (1), the value (2)
        faults = [("CARLA-ENUM-005", 0, bad_types), ("CARLA-STRING-001", 1, id_bad), ("CARLA-STRING-001", 2, value_bad),
                  ("CARLA-STRING-002", 1, id_nul), ("CARLA-STRING-002", 2, value_nul)]
        faults = [fault for fault in faults if fault[2]]
        alive = self.alive
        last_type = self.v.actor_types - 1  # INVALID, and the types above it: CARLA-ENUM-001
        if not faults:  # the usual chunk: every record clean, judged in C loops
            records = scan.records[first:last]
            database_ids = list(map(_SECOND, records))
            descriptions = b"".join(map(buf.__getitem__, map(slice, map(_FOURTH, records), map(_FIFTH, records))))
            if max(map(_THIRD, records)) < last_type and descriptions.isascii() and b"\0" not in descriptions \
                    and alive.isdisjoint(database_ids) and len(set(database_ids)) == len(database_ids):
                self.actors_added += len(database_ids)
                alive.update(database_ids)
                return
        taken = [0] * len(faults)
        for i in range(first, last):
            _, database_id, actor_type, desc, desc_end, lo, hi, _ = scan.records[i]
            description = buf[desc:desc_end]
            clean = database_id not in alive and actor_type < last_type and description.isascii() \
                and b"\0" not in description  # what _actor would find nothing in, without its path
            if clean:
                self.actors_added += 1
                alive.add(database_id)
            if not faults or hi == lo:
                if not clean:
                    self._actor(database_id, actor_type, description.decode("utf-8", "surrogateescape"),
                                raw.payload_offset, self._path(_K_EVENT_ADD, f"/record[{i}]"))
                continue
            path = self._path(_K_EVENT_ADD, f"/record[{i}]")
            if not clean:
                self._actor(database_id, actor_type, description.decode("utf-8", "surrogateescape"),
                            raw.payload_offset, path)
            ends = [bisect_left(indices, hi - base, at) for (_, _, indices), at in zip(faults, taken)]
            if ends != taken:
                self._attribute_faults([(rule, field, indices[at:stop]) for (rule, field, indices), at, stop
                                        in zip(faults, taken, ends)], lo - base, type_bytes, ids, values,
                                       raw.payload_offset, path)
                taken = ends

    def _attribute_faults(self, faults: list[tuple[str, int, list[int]]], lo: int, type_bytes: bytes,
                          ids: list[bytes], values: list[bytes], offset: int, path: str) -> None:
        """One record's attribute faults (attribute indices in the chunk, its first is ``lo``):
        of each rule's findings, those that the sink would still store are made in the walk's
        order (attribute by attribute: type, id, value), the rest only counted."""
        sink = self.sink
        made: list[tuple[int, int, str]] = []  # (attribute, field, rule)
        rest: list[tuple[str, int]] = []  # counted after the stored ones are made
        for rule in dict.fromkeys(rule for rule, _, _ in faults):
            mine = [zip(indices, repeat(field)) for r, field, indices in faults if r == rule]
            total = sum(len(indices) for r, _, indices in faults if r == rule)
            stored = list(islice(merge(*mine), sink.room(rule)))
            made.extend((k, field, rule) for k, field in stored)
            if total > len(stored):
                rest.append((rule, total - len(stored)))
        made.sort()
        for k, field, rule in made:
            j = k - lo
            if field == 0:
                t = type_bytes[k]
                sink.add(rule, f"attribute {ids[k].decode('utf-8', 'surrogateescape')!r} has type {t}, not one of "
                         f"{list(self.v.attribute_types)}", offset, None, f"{path}/attributes[{j}].type", None, t)
            else:
                self._string((ids if field == 1 else values)[k].decode("utf-8", "surrogateescape"), offset,
                             f"{path}/attributes[{j}].{'id' if field == 1 else 'value'}")
        for rule, times in rest:
            sink.count(rule, times)

    def variable_records(self, kind: K, raw: dec.RawPacket, records: tuple[dec.Record, ...]) -> None:
        sink = self.sink
        alive = self.alive
        # the kind names the records' class (casts: no runtime check on this path)
        if kind is _K_EVENT_ADD:
            for i, r in enumerate(cast("tuple[dec.EventAdd, ...]", records)):
                path = self._path(kind, f"/record[{i}]")
                if self.trace is not None:
                    self.trace.actor_added(r)
                self._actor(r.database_id, r.type, r.description_id, raw.payload_offset, path)
                if self.fast:
                    self._attributes(r.attributes, raw.payload_offset, path)
                    continue
                for j, a in enumerate(r.attributes):  # one by one (the tests compare the two)
                    if a.type not in self.v.attribute_types:
                        sink.add("CARLA-ENUM-005", f"attribute {a.id!r} has type {a.type}, not one of "
                                 f"{list(self.v.attribute_types)}", raw.payload_offset, None,
                                 f"{path}/attributes[{j}].type", None, a.type)
                    self._string(a.id, raw.payload_offset, f"{path}/attributes[{j}].id")
                    self._string(a.value, raw.payload_offset, f"{path}/attributes[{j}].value")
        else:
            for i, rec in enumerate(cast("tuple[dec.PhysicsControl | dec.WalkerBones | dec.AnimVehicleWheels, ...]",
                                       records)):
                if rec.database_id not in alive:
                    sink.add("CARLA-ACTOR-001",
                             f"{_LABELS[kind]} record refers to actor {rec.database_id}, which is not alive",
                             raw.payload_offset, None, self._path(kind, f"/record[{i}].database_id"), None,
                             rec.database_id)
                if kind is _K_WALKER_BONES:
                    for j, b in enumerate(cast(dec.WalkerBones, rec).bones):
                        self._string(b.name, raw.payload_offset, self._path(kind, f"/record[{i}]/bones[{j}].name"))


@cache
def _type_faults(types: tuple[int, ...]) -> bytes:
    """A ``bytes.translate`` table: 1 for an attribute type outside ``types``, else 0."""
    return bytes(0 if t in types else 1 for t in range(256))


def _string_faults(items: list[bytes]) -> tuple[list[int], list[int]]:
    """Which of ``items`` (raw strings) ``_Walk._string`` finds breaking CARLA-STRING-001 (not
    valid UTF-8) and which CARLA-STRING-002 (valid, with a NUL byte), as indices; in C loops:
    a string is valid where decoding it drops nothing (``ignore``) that ``surrogateescape``
    keeps."""
    joined = b"".join(items)
    n = len(items)
    bad: list[int] = []
    invalid: list[bool] | None = None
    if not joined.isascii():
        kept = map(len, map(bytes.decode, items, repeat("utf-8", n), repeat("surrogateescape", n)))
        valid = map(len, map(bytes.decode, items, repeat("utf-8", n), repeat("ignore", n)))
        invalid = list(map(ne, kept, valid))
        bad = list(compress(range(n), invalid))
    nul: list[int] = []
    if b"\x00" in joined:
        nul = list(compress(range(n), map(bytes.__contains__, items, repeat(b"\x00", n))))
        if invalid is not None:
            nul = [j for j in nul if not invalid[j]]
    return bad, nul


def _text_fault(text: str) -> str | None:
    """The rule ``_Walk._string`` finds ``text`` breaking, if any."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "CARLA-STRING-001"
    return "CARLA-STRING-002" if "\x00" in text else None


def _attribute_faults(a: dec.ActorAttribute, types: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
    """(rule, field) of every finding an attribute makes, in the walk's order: type, id, value."""
    out = [("CARLA-ENUM-005", "type")] if a.type not in types else []
    for field, text in (("id", a.id), ("value", a.value)):
        rule = _text_fault(text)
        if rule is not None:
            out.append((rule, field))
    return tuple(out)


_FRAME_START = struct.Struct("<Qdd").unpack
#: The payload of a fixed-record packet without records: a u16 count of 0.
_NO_RECORDS = b"\x00\x00"
_PACKET_HEAD = struct.Struct("<BI").pack

#: EventAdd records are judged in chunks of about this many attributes (a record of more is
#: a chunk of its own): big enough that a chunk costs little Python work per attribute,
#: small enough that its bytes objects take little memory.
ATTRIBUTE_CHUNK = 8192

#: Frames are proved clean in bulk (``_Walk.bulk_frames``) from a window of at most this many
#: bytes of the file (or one frame, when larger).
BULK_WINDOW = 1 << 18

#: A reference frame (``_frames.Reference``) is compared with at most this many bytes of frames
#: at once (or one frame, when larger); it keeps two integers of that size and a few smaller.
REFERENCE_WINDOW = 1 << 20

#: The frame shapes kept (``_Walk.templates``); more are dropped, all at once.
MAX_TEMPLATES = 64

#: A run of byte-identical packets is recognised for packets of at most this many
#: payload bytes (a flood of big packets costs little per byte).
RUN_UNIT_MAX = 1024


#: A string a message quotes is cut after this many characters: a damaged u16 length can make a string
#: kilobytes of whatever bytes follow it.
SHOWN_CHARS = 32


def _shown(text: str) -> str:
    """``text`` quoted for a message: whole when short, else its start and its length in bytes."""
    if len(text) <= SHOWN_CHARS:
        return repr(text)
    return f"{text[:SHOWN_CHARS]!r}... ({len(text.encode('utf-8', 'surrogateescape'))} bytes)"


def _state(walk: _Walk) -> tuple[Any, ...]:
    """Everything of the walk a packet's findings can depend on, besides the counters that
    only name places (packets, frames, the packet index and frame path)."""
    return (walk.in_frame, frozenset(walk.frame_kinds), walk.last_order, walk.prev_start, len(walk.alive),
            walk.actors_added, walk.position_records, walk.last_frame_end, walk.last_complete_frame_id)


def _repeat(walk: _Walk, raw: dec.RawPacket, reader: dec.PacketReader) -> None:
    """Walk ``raw``, which repeats the previous packet byte for byte; then, if that left the
    walk's state as it was (only counters moved) and every rule it broke already has its
    stored findings (so the next findings are only counted), account for the following
    copies of the packet in bulk: the same counters moved as many times, the same rules
    counted as many times. EventDel cannot delete twice and alive sets only grow or
    shrink, so an unchanged state and the same bytes give the same findings again; only
    the places in their messages differ, and those are not stored any more."""
    sink = walk.sink
    before = _state(walk)
    counts = sink.counts_now()
    frames, packets, index = walk.frames, walk.packets, walk.packet_index
    walk.packet(raw)
    if _state(walk) != before:
        return
    added = sink.counted_since(counts)
    if not sink.only_counted(added[sink.profile]):
        return  # the next copy's findings would still be stored, with their places
    k = reader.skip_repeats(_PACKET_HEAD(raw.packet_id, len(raw.payload)) + raw.payload)
    if not k:
        return
    walk.frames += k * (walk.frames - frames)
    walk.packets += k * (walk.packets - packets)
    walk.packet_index += k * (walk.packet_index - index)
    if walk.frames != frames:
        walk.frame_path = f"frame[{walk.frames - 1}]"
    sink.count_again(added, k)


#: Frames of a run of repeated frames (`_repeat_frames`) compared from the reader's window at a time (and at
#: most REPEAT_FRAME_BYTES of them: each block is read as one integer, with its frames' timing), and the
#: largest frame such a run is made of.
REPEAT_FRAME_BLOCK = 1024
REPEAT_FRAME_BYTES = 1 << 16
REPEAT_FRAME_MAX = 1 << 16


def _frame_state(walk: _Walk) -> tuple[Any, ...]:
    """What of the walk a frame's findings can depend on, besides the counters that only name places and the
    previous FrameStart's timing: at a frame boundary."""
    return (walk.in_frame, frozenset(walk.frame_kinds), walk.last_order, frozenset(walk.alive), walk.actors_added)


def _timing_faults(prev: tuple[int, float, float, int], ids: tuple[int, ...], durations: tuple[float, ...],
                   elapsed: tuple[float, ...]) -> dict[str, list[bool]]:
    """Of frames one after the other following the frame ``prev`` (id, durationThis, elapsed, offset), whose
    FrameStarts (of 24 bytes) hold ``ids``, ``durations`` and ``elapsed``: per rule ``frame_start`` judges a
    frame's timing by against the frame before, whether each frame breaks it, with ``frame_start``'s own
    comparisons (C loops over the frames): CARLA-FRAME-010 (a time not finite), -003 (an id not one up), -008
    (the frame before has a durationThis below 0) and else -004 (elapsed is not the frame before's elapsed
    plus its durationThis)."""
    before_ids = (prev[0], *ids[:-1])
    before_durations = (prev[1], *durations[:-1])
    before_elapsed = (prev[2], *elapsed[:-1])
    negative = list(map(lt, before_durations, repeat(0)))
    return {
        "CARLA-FRAME-010": list(map(not_, map(and_, map(math.isfinite, durations), map(math.isfinite, elapsed)))),
        "CARLA-FRAME-003": list(map(ne, ids, map(add, before_ids, repeat(1)))),
        "CARLA-FRAME-008": negative,
        # a mismatch where durationThis is not below 0 (True > False)
        "CARLA-FRAME-004": list(map(gt, map(ne, map(add, before_elapsed, before_durations), elapsed), negative)),
    }


def _counted_prefix(sink: FindingSink, faults: dict[str, list[bool]], k: int) -> tuple[int, dict[str, int]]:
    """Of ``k`` frames that break the rules ``faults`` says (``_timing_faults``): how many from the first on
    break only rules whose findings are only counted (``FindingSink.only_counted_one``), and how many times
    those frames break each rule."""
    cut = k
    for rule, marks in faults.items():
        if not sink.only_counted_one(rule) and True in marks[:cut]:
            cut = marks.index(True)
    counts = {}
    for rule, marks in faults.items():
        n = (marks if cut == k else marks[:cut]).count(True)
        if n:
            counts[rule] = n
    return cut, counts


def _counted_faults(sink: FindingSink, faults: dict[str, list[bool]], k: int) -> dict[str, int] | None:
    """How many times ``k`` frames break each rule of ``faults`` where every rule they break only counts,
    else None (``_counted_prefix`` of all of them)."""
    cut, counts = _counted_prefix(sink, faults, k)
    return counts if cut == k else None


def _repeat_frames(walk: _Walk, reader: dec.PacketReader) -> bool:
    """At a frame boundary where no template proved the next frame (a frame with findings: hostile.py's
    carla-steered, carla-elapsed and carla-moving cases): if the next frame has the bytes of the one just
    walked but for its FrameStart's timing, or it is of one shape with it (a template's) and the rules find
    the same in its judged fields (``_judged_alike``), walk it, and if that left the walk's state as it was
    and every rule its packets after the FrameStart broke already has its stored findings, account in bulk
    for the frames after it that are the same to it in that way: the counters moved as many times, the same
    rules counted as many times, and each frame's timing judged against the frame before by
    ``_timing_faults`` (where it breaks a rule that still stores its findings, the run stops before that
    frame, which is walked). Frames the rules read alike from the same state give the same findings; only
    their places differ, and those are not stored any more. Returns whether a frame was walked here."""
    prev = walk.prev_start
    start = reader.tell()
    if prev is None or walk.last_frame_end != start:
        return False
    size = start - (prev[3] - 5)  # the frame just walked: from its FrameStart's header to here
    buf, i = reader.window(size)
    if not 29 <= size <= min(i, REPEAT_FRAME_MAX) or len(buf) - i < size or (
            reader.size is not None and start + size > reader.size):
        return False  # the frame just walked is out of the buffer, or the next one would end past the file
    view = memoryview(buf)
    if view[i:i + 5] != view[i - size:i - size + 5] or view[i + size - 5:i + size] != view[i - 5:i]:
        return False  # the next frame does not begin and end, at the same size, as the one walked
    template = None  # frames of its shape whose judged fields the rules read alike (not the same bytes)
    if view[i + 29:i + size] != view[i - size + 29:i]:
        template = _judged_alike(walk, reader, size)
        if template is None:
            return False
    unit = bytes(view[i:i + size])
    sink = walk.sink
    state = _frame_state(walk)
    frames, packets, records = walk.frames, walk.packets, walk.position_records
    counts = None  # after the FrameStart: what the rest of the frame adds
    for raw in reader:  # the frame, packet by packet
        walk.packet(raw)
        if counts is None:
            counts = sink.counts_now()
        if not walk.in_frame:
            break
    if walk.in_frame or reader.tell() != start + size or _frame_state(walk) != state or counts is None:
        return True
    added = sink.counted_since(counts)
    if not sink.only_counted(added[sink.profile]):
        return True  # the next frame's findings would still be stored, with their places
    if template is None:
        k = _skip_repeated_frames(walk, reader, unit)
    elif any(added.values()):
        k = _skip_alike_frames(walk, reader, unit, template)
    else:
        return True  # clean frames of a template's shape: the templates prove them (bulk_frames)
    if k:
        walk.frames += k * (walk.frames - frames)
        walk.packets += k * (walk.packets - packets)
        walk.position_records += k * (walk.position_records - records)
        walk.frame_path = f"frame[{walk.frames - 1}]"
        walk.last_complete_frame_index = walk.frames - 1  # the last repeat is whole, as its id is
        sink.count_again(added, k)
    return True


def _judged_alike(walk: _Walk, reader: dec.PacketReader, size: int) -> FrameTemplate | None:
    """The next frame, of ``size`` bytes, differs from the one just walked (which ends at ``reader.tell()``)
    outside its FrameStart's timing: where a template can be made of it (``build_template``, whether or not
    it lacks packets of every frame), of that size, and the one walked has its shape and the same answers in
    its judged fields (``FrameTemplate.breaks``: the rest are locations, speeds, times), that template; else
    None. After it fails, it waits a few frame boundaries before trying again (at most ``MAX_BATCH``), so a
    log it cannot help costs it little."""
    if walk.repeat_wait:
        walk.repeat_wait -= 1
        return None
    room = None if reader.size is None else reader.size - reader.tell()
    if room is not None and room < 2 * size:
        return None  # no frame would follow the next one to be taken in bulk (a short log, a log's end)
    t = build_template(reader.window, room, walk.v, walk.order, walk.required, reader.max_packet_size, lacking=True)
    if t is not None and t.size == size:
        buf, i = reader.window(size)  # the two frames are still in it (build_template read no further)
        if i >= size:
            walked, following = t.breaks(buf, i - size, 1, walk.alive), t.breaks(buf, i, 1, walk.alive)
            if walked is not None and following is not None and walked[0] == following[0]:
                walk.repeat_fails = 0
                return t
    walk.repeat_fails += 1
    walk.repeat_wait = min(1 << (walk.repeat_fails - 1), MAX_BATCH) - 1
    return None


def _skip_repeated_frames(walk: _Walk, reader: dec.PacketReader, unit: bytes) -> int:
    """Step past the frames right after the last one walked that have the bytes of ``unit`` (that frame) but
    for their FrameStart's timing, counting the timing findings each makes (``_timing_faults``) as far as
    they only count (``_counted_prefix``); the walk's timing moves to the last one's. The frames are compared
    a block at a time as one integer. Returns how many."""
    size = len(unit)
    timing = _repeat_timing(size)
    mask = _all_but_timing(size)
    masked = bytes(map(and_, unit, mask))
    patterns: dict[int, tuple[int, int]] = {}  # frames -> the mask and the masked unit, repeated
    count = 0
    block = 16  # frames compared at once, doubled up to REPEAT_FRAME_BLOCK (or BYTES) while the run goes on
    top = max(1, min(REPEAT_FRAME_BLOCK, REPEAT_FRAME_BYTES // size))
    while True:
        most = block if reader.size is None else min(block, (reader.size - reader.tell()) // size)
        if most <= 0:
            break
        buf, i = reader.window(most * size)
        have = min(most, (len(buf) - i) // size)
        if have <= 0:
            break
        pattern = patterns.get(have)
        if pattern is None:
            pattern = patterns[have] = (int.from_bytes(mask * have, "little"), int.from_bytes(masked * have, "little"))
        differ = (int.from_bytes(buf[i:i + have * size], "little") & pattern[0]) ^ pattern[1]
        n = have if not differ else ((differ & -differ).bit_length() - 1) // 8 // size  # the first that differs
        if n:
            ids, durations, elapsed = zip(*timing(buf[i:i + n * size]))
            n = _count_timing(walk, reader, ids, durations, elapsed, size)
            count += n
        if n < most:
            break
        block = min(2 * block, top)
    return count


def _skip_alike_frames(walk: _Walk, reader: dec.PacketReader, unit: bytes, t: FrameTemplate) -> int:
    """Step past the frames right after the last one walked (``unit``) that have its shape (``t``'s) and the
    same answers in their judged fields (``FrameTemplate.breaks``), counting their timing findings as
    ``_skip_repeated_frames`` does: read ``k`` frames at a time by the template, ``k`` the most of
    ``ALIKE_BATCHES`` that fit (in frames, bytes and fields), and fewer after a batch that does not hold.
    Returns how many."""
    size, fields = t.size, t.fields
    batches = [k for k in ALIKE_BATCHES if k == 1 or (k * size <= REPEAT_FRAME_BYTES and k * fields <= ALIKE_FIELDS)]
    patterns: dict[int, tuple[tuple[bool, ...], ...]] = {}  # frames -> the walked frame's answers, repeated
    alive = walk.alive
    count = 0
    while batches:
        left = None if reader.size is None else (reader.size - reader.tell()) // size
        buf, i = reader.window(batches[0] * size)
        fit = (len(buf) - i) // size if left is None else min(left, (len(buf) - i) // size)
        k = next((b for b in batches if b <= fit), 0)
        if not k:
            break
        got = t.breaks(buf, i, k, alive)
        pattern = patterns.get(k)
        if pattern is None:
            walked = t.breaks(unit * k, 0, k, alive)
            assert walked is not None  # the walked frame has the template's shape (_judged_alike)
            pattern = patterns[k] = walked[0]
        if got is None or got[0] != pattern:
            batches = [b for b in batches if b < k]  # a frame among these differs: fewer at a time up to it
            continue
        values = got[1]
        n = _count_timing(walk, reader, values[2::fields], values[3::fields], values[4::fields], size)
        count += n
        if n < k:
            break
    return count


def _count_timing(walk: _Walk, reader: dec.PacketReader, ids: tuple[int, ...], durations: tuple[float, ...],
                  elapsed: tuple[float, ...], size: int) -> int:
    """For frames of ``size`` bytes at ``reader.tell()`` whose FrameStarts hold ``ids``, ``durations`` and
    ``elapsed``: the most from the first on whose timing findings only count (``_counted_prefix``), counted
    and stepped past, the walk's timing moved to the last one's. Returns how many."""
    prev = walk.prev_start
    assert prev is not None  # a repeat follows the frame it repeats, which set the walk's timing
    cut, found = _counted_prefix(walk.sink, _timing_faults(prev, ids, durations, elapsed), len(ids))
    if cut:
        for rule, times in found.items():
            walk.sink.count(rule, times)
        walk.prev_start = (ids[cut - 1], durations[cut - 1], elapsed[cut - 1], reader.tell() + (cut - 1) * size + 5)
        reader.advance(cut * size)
        walk.last_frame_end = reader.tell()
        walk.last_complete_frame_id = ids[cut - 1]
    return cut


@lru_cache(maxsize=64)
def _all_but_timing(size: int) -> bytes:
    """The mask (0xFF: to be equal) of every byte of a frame of ``size`` bytes but its FrameStart's timing."""
    return b"\xff" * 5 + bytes(24) + b"\xff" * (size - 29)


#: Frames of one template's shape read at once by ``_skip_alike_frames`` (the most that fit), and the most
#: fields such a reading makes.
ALIKE_BATCHES = (64, 16, 4, 1)
ALIKE_FIELDS = 1 << 12


@lru_cache(maxsize=64)
def _repeat_timing(size: int) -> Callable[[bytes], Iterator[tuple[Any, ...]]]:
    """Reads the FrameStart id, durationThis and elapsed of each of frames of ``size`` bytes in a row."""
    return struct.Struct(f"<5xQdd{size - 29}x").iter_unpack


#: Packets of a run of EventDel or EventParent packets (`_distinct_events`) read from the reader's window at a
#: time.
EVENT_RUN_BLOCK = 4096

#: The kinds `_distinct_events` takes in bulk, with the rule a record of an actor not alive breaks and the
#: actor ids in a record: EventDel (database_id; the alive ones are deleted) and EventParent (database_id,
#: database_id_parent; the alive set stays).
_EVENT_RUNS = {_K_EVENT_DEL: ("CARLA-ACTOR-003", 1), _K_EVENT_PARENT: ("CARLA-ACTOR-001", 2)}
#: By kind: whether a packet of it may start a run of ``_EVENT_RUNS`` (what ``_Walk.packet`` tells the loop)
_MAY_RUN = {k: k in _EVENT_RUNS for k in K}
_ALWAYS_MORE = dict.fromkeys(K, True)


def _distinct_events(walk: _Walk, raw: dec.RawPacket, reader: dec.PacketReader) -> bytes | None:
    """After walking ``raw``, an EventDel or EventParent in a frame: account in bulk for the packets right
    after it that have its id, size and record count (their actor ids may all differ: hostile.py's
    carla-distinct-dels and carla-distinct-parents), once every rule such a packet can break has its stored
    findings, so that the next findings are only counted. Walking each would move the packet counters, count
    CARLA-ORDER-002 (a second packet of its kind in the frame), CARLA-ORDER-001 when the kind comes after a
    packet written later in a frame, and its actor rule for each actor id not alive: for EventDel
    CARLA-ACTOR-003, deleting the alive ones (in record order, a run of ids deletes the alive ones among them
    once and finds the rest not alive); for EventParent CARLA-ACTOR-001 for each of its two ids not alive
    (it adds and deletes none). No other rule reads such a packet of a size that fits its count (the first
    was walked whole). Returns the payload of the run's last packet, or None when there was no run."""
    sink = walk.sink
    kind = raw.kind
    actor_rule, per_record = _EVENT_RUNS[kind]
    if not (sink.only_counted_one("CARLA-ORDER-002") and sink.only_counted_one(actor_rule)):
        return None
    position = walk.order.get(kind)
    late = position is not None and position < walk.last_order  # CARLA-ORDER-001 for every packet
    if late and not sink.only_counted_one("CARLA-ORDER-001"):
        return None
    payload = raw.payload
    stride = 4 * per_record
    records = (len(payload) - 2) // stride
    if len(payload) < 2 or records != int.from_bytes(payload[:2], "little") or len(payload) != 2 + stride * records:
        return None  # a size that does not fit its count: walked (and reported) packet by packet
    head = _PACKET_HEAD(raw.packet_id, len(payload)) + payload[:2]
    width = len(head) + stride * records
    ids_of = struct.Struct(f"<{len(head)}x{records * per_record}I").iter_unpack
    deletes = kind is _K_EVENT_DEL
    last: bytes | None = None
    while True:
        most = EVENT_RUN_BLOCK if reader.size is None else min(EVENT_RUN_BLOCK, (reader.size - reader.tell()) // width)
        if most <= 0:
            break
        buf, i = reader.window(most * width)
        have = min(most, (len(buf) - i) // width)
        k = _same_heads(buf, i, head, width, have)
        if not k:
            break
        run = buf[i:i + k * width]
        ids = [actor for actors in ids_of(run) for actor in actors]
        alive = walk.alive
        if deletes:
            distinct = set(ids)
            not_alive = len(ids) - len(distinct & alive)  # each alive id is deleted once, its other records found
            alive.difference_update(distinct)
        else:
            not_alive = len(ids) - sum(map(alive.__contains__, ids))
        sink.count("CARLA-ORDER-002", k)
        if late:
            sink.count("CARLA-ORDER-001", k)
        if not_alive:
            sink.count(actor_rule, not_alive)
        walk.packets += k
        walk.packet_index += k
        reader.advance(k * width)
        last = run[-width + 5:]
        if k < have:
            break
    return last


def _same_heads(buf: bytes, i: int, head: bytes, width: int, have: int) -> int:
    """How many of the ``have`` units of ``width`` bytes from ``buf[i]`` on, one after the other, begin
    with ``head``: each byte of the heads compared as one strided slice (C speed) when they all do."""
    end = i + have * width
    if all(buf[i + j:end:width] == head[j:j + 1] * have for j in range(len(head))):
        return have
    k = 0
    while k < have and buf[i + k * width:i + k * width + len(head)] == head:
        k += 1
    return k


def check_stream(f: BinaryIO, *, path: str, variant: Variant | None, profile: str,
                 size: int | None = None, progress: Callable[[int, int], None] | None = None,
                 fast_path: bool = True) -> FileReport:
    """Check one CARLA log read from ``f`` (seekable, at offset 0).

    ``progress(done_bytes, total_bytes)``, if given, is called every few
    thousand packets (the CLI draws a progress bar with it on a terminal).
    ``fast_path=False`` walks every packet of a run of repeated packets one by
    one (see ``_repeat``) and decodes every EventAdd and judges each of its attributes
    on its own (instead of ``_Walk.event_adds``); the tests compare the two.
    """
    sink = FindingSink(RULES_BY_ID, profile)
    if size is None:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(0)
    report = FileReport(path, "carla", None, profile, Verdict.VALID)
    try:
        header, offset = dec.read_header(f)
    except DecodeError as e:
        f.seek(0)
        magic = f.read(2 + len(MAGIC_FIELD))[2:]
        if magic != MAGIC_FIELD:  # what broke the header is often the magic: say so, with the bytes found
            # the field starts after the u16 version; a file shorter than that holds none of it, and the
            # finding points at the file's end rather than past it
            sink.add("CARLA-HEADER-001", f"magic field (u16 length, then the text) is {magic!r}, not {MAGIC_FIELD!r}",
                     min(2, size), len(magic), "header.magic", MAGIC_FIELD, magic)
        sink.add("CARLA-STREAM-001", f"file ends inside the info header ({e.message})", e.offset, None, e.path)
        sink.structural_error = True  # no header: the file cannot be walked, under any profile
        sink.fill(report)
        report.stats = {"frames": 0, "packets": 0, "duration_s": None, "map": None, "actors_added": 0,
                        "position_records": 0}
        return report
    if variant is None:
        variant, evidence = detect_variant(f, offset, size)
    else:
        evidence = {"method": "--variant"}
    report.variant = variant.name
    report.evidence = {"variant": evidence}
    walk = _Walk(variant, sink)
    if progress is not None:
        walk.more_after_common = _ALWAYS_MORE
    walk.fast = fast_path
    walk.trace = report.trace = CarlaTrace() if trace_enabled() else None
    walk.header(header, offset)
    reader = dec.PacketReader(f, variant, offset, size)
    stopped = False
    runs = fast_path and walk.trace is None
    if not runs:
        walk.judged = {}  # every fixed-record packet the whole way (the tests compare the two)
        walk.clean = BoundedMemo(_CLEAN_MAX)  # and none judged by the payloads other walks kept
    frame_end = variant.id_of[K.FRAME_END]
    try:
        prev_id, prev_payload = -1, b""
        next_progress = 8192
        for raw in reader:
            if raw.packet_id == prev_id and runs and len(raw.payload) <= RUN_UNIT_MAX and \
                    raw.payload == prev_payload:  # rare: one test (a large payload is not compared)
                _repeat(walk, raw, reader)
            else:
                more = walk.packet(raw)
                prev_id, prev_payload = raw.packet_id, raw.payload
                if not more:  # the common packet inside a frame: the frame goes on (one test, not three)
                    continue
                if raw.kind in _EVENT_RUNS and runs and walk.in_frame:  # EventDel, EventParent that differ
                    last = _distinct_events(walk, raw, reader)
                    if last is not None:
                        prev_payload = last
            if not walk.in_frame and runs and (walk.bulk_frames(reader) or (
                    raw.kind is _K_FRAME_END and _repeat_frames(walk, reader))):  # in a frame, the common case
                prev_id, prev_payload = frame_end, b""  # the last packet walked: a FrameEnd
            if progress is not None and walk.packets >= next_progress:
                progress(reader.tell(), size)
                next_progress = walk.packets + 8192
    except Truncated as e:
        stopped = True
        f.seek(e.offset)
        _report_tail(walk, sink, e, size, f.read(1))
    except LimitExceeded as e:
        stopped = True
        sink.add(e.rule, e.message, e.offset, 4, "", e.maximum, e.value)
    if not stopped:  # after a truncation, an open last frame is a consequence, not a second finding
        walk.finish(reader.tell())
    duration = walk.prev_start[2] if walk.prev_start is not None else None
    report.stats = {
        "frames": walk.frames,
        "packets": walk.packets,
        "duration_s": duration,
        "map": header.map_name,
        "actors_added": walk.actors_added,
        "position_records": walk.position_records,
    }
    sink.fill(report)  # the findings, and the verdict under every profile
    return report


def _report_tail(walk: _Walk, sink: FindingSink, e: Truncated, size: int, first: bytes) -> None:
    """The file ends inside a packet: truncation, or trailing bytes after the last frame."""
    remaining = size - e.offset
    last = walk.last_complete_frame_id
    # frame[i] is the i-th frame of the file, from 0; the id is what its FrameStart stores (CARLA counts from 1)
    where = (f"last complete frame: frame[{walk.last_complete_frame_index}] (id {last})" if last is not None
             else "no complete frame")
    inside = f" in {walk.frame_path} (id {walk.prev_start[0]})" if walk.in_frame and walk.prev_start else ""
    if not walk.in_frame and walk.frames > 0 and first and first[0] != walk.v.id_of[K.FRAME_START]:
        sink.add("CARLA-STREAM-002", f"{remaining} trailing bytes after the last frame ({where})",
                 e.offset, remaining, "", 0, remaining)
    else:
        if e.message.startswith("damaged"):  # a size field past the limit and the file's end (the reader says)
            what = e.message + (f"; the packet is in{inside}" if inside else "")
        else:
            what = f"truncated: {e.message}{inside}"
        sink.add("CARLA-STREAM-001", f"{what}; {where}; {remaining} bytes remain after "
                 f"offset {e.offset}", e.offset, remaining, walk.frame_path if walk.in_frame else "", e.needed,
                 e.available)
