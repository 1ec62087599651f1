"""Rule witnesses for CARLA recorder logs (see tests/witness_common.py).

A valid recording is drawn (``carla_recordings``), edited in its model and written by
the reference encoder; where the break is comes from the log's framing as the research
notes describe it (a u16-length string header, then packets of u8 id, u32 size and a
payload; counted packets start with a u16 record count), walked by ``helpers``, not by
the checker. Paths are ``frame[i]/packet[j]:Kind`` with j counted from the frame's
FrameStart, and a record's finding is at the record's start, except in an EventAdd,
whose records have no fixed size: its findings are at the packet's payload.
"""

from __future__ import annotations

import math
import struct
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st
from witness_common import Witness, Witnesses

from helpers import carla_packets
from recspec.reference.carla import VARIANTS, encode
from recspec.reference.carla import _model as m
from recspec.reference.carla._model import PacketKind as K
from recspec.strategies import carla_recordings

FRAME_START_SIZE = 24  # u64 frame id, f64 durationThis, f64 elapsed
MAP_NAME_AT = 2 + 2 + len("CARLA_RECORDER") + 8  # u16 version, the magic string, i64 date
PLAUSIBLE_DATES = (1_483_228_800, 4_102_444_800)  # 2017 .. 2100


class Log:
    """A recording being edited: its packets as frames (each a list, FrameStart first)."""

    def __init__(self, variant: Any, rec: m.Recording) -> None:
        self.v = variant
        self.header = rec.header
        self.frames: list[list[m.Packet]] = []
        for p in rec.packets:
            if p.kind == K.FRAME_START:
                self.frames.append([])
            self.frames[-1].append(p)
        self.loose: list[m.Packet] = []  # after the last frame

    def packets(self) -> list[m.Packet]:
        return [p for f in self.frames for p in f] + self.loose

    def data(self) -> bytes:
        return encode(m.Recording(self.header, tuple(self.packets())), variant=self.v)

    def at(self, data: bytes, frame: int, index: int) -> int:
        """Offset of packet ``index`` of ``frame`` (by the framing of ``data``)."""
        return carla_packets(data)[sum(len(f) for f in self.frames[:frame]) + index][0]

    def index(self, frame: int, kind: K) -> int | None:
        return next((j for j, p in enumerate(self.frames[frame]) if p.kind == kind), None)

    def times(self, frame: int) -> m.FrameStart:
        body = self.frames[frame][0].body
        assert isinstance(body, m.FrameStart)
        return body

    def set_times(self, frame: int, **changes: Any) -> None:
        self.frames[frame][0] = replace(self.frames[frame][0], body=replace(self.times(frame), **changes))

    def records(self, frame: int, kind: K) -> tuple[int, tuple[Any, ...]]:
        j = self.index(frame, kind)
        assert j is not None
        body = self.frames[frame][j].body
        assert isinstance(body, tuple)
        return j, body

    def set_records(self, frame: int, j: int, records: tuple[Any, ...]) -> None:
        self.frames[frame][j] = replace(self.frames[frame][j], body=records)

    def actor_ids(self) -> set[int]:
        return {r.database_id for f in self.frames for p in f if p.kind == K.EVENT_ADD for r in p.body}


def path(log: Log, frame: int, j: int, tail: str = "") -> str:
    return f"frame[{frame}]/packet[{j}]:{log.frames[frame][j].kind.label}{tail}"


@st.composite
def logs(draw: st.DrawFn, min_frames: int = 1, max_frames: int = 3, kinds: tuple[K, ...] = ()) -> Log:
    """A valid log of a drawn variant that defines ``kinds``."""
    v = draw(st.sampled_from([v for v in VARIANTS.values() if all(k in v.ids.values() for k in kinds)]))
    return Log(v, draw(carla_recordings(v, min_frames=min_frames, max_frames=max_frames)))


def witness(rule: str, log: Log, offset: Any, path_: str, *, profile: str = "spec", data: bytes | None = None,
            **kw: Any) -> Witness:
    data = log.data() if data is None else data
    return Witness(rule, data, profile, offset(data) if callable(offset) else offset, path_, variant=log.v.name,
                   name="witness.log", **kw)


def fresh_id(log: Log, draw: st.DrawFn) -> int:
    taken = log.actor_ids()
    return draw(st.integers(1, 2**31 - 1).filter(lambda i: i not in taken))


def new_actor(log: Log, draw: st.DrawFn, actor_id: int, *, type_: int | None = None,
              attributes: tuple[m.ActorAttribute, ...] = ()) -> m.EventAdd:
    zero = m.Vec3(0.0, 0.0, 0.0)
    t = draw(st.integers(0, log.v.actor_types - 2)) if type_ is None else type_
    return m.EventAdd(actor_id, t, zero, m.Rotator(0.0, 0.0, 0.0), 0, "vehicle.test", attributes)


def record_at(log: Log, data: bytes, frame: int, j: int, r: int, size: int) -> int:
    """The start of fixed-size record ``r`` of a counted packet."""
    return log.at(data, frame, j) + 5 + 2 + r * size


# --- header ------------------------------------------------------------------------------

def _header(rule: str, field_: str, values: st.SearchStrategy[Any], offset: int, where: str, **kw: Any,
            ) -> st.SearchStrategy[Witness]:
    @st.composite
    def make(draw: st.DrawFn) -> Witness:
        log = draw(logs())
        log.header = replace(log.header, **{field_: draw(values)})
        return witness(rule, log, offset, where, **kw)
    return make()


_OTHER_MAGIC = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20).filter(
    lambda s: s != "CARLA_RECORDER")
_MAP = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=8)


# --- packets -----------------------------------------------------------------------------

@st.composite
def _frame_end_payload(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    end = len(log.frames[i]) - 1
    payload = draw(st.binary(min_size=1, max_size=8))
    log.frames[i][end] = m.Packet(K.RAW, payload, packet_id=log.v.id_of[K.FRAME_END])
    return witness("CARLA-PACKET-001", log, lambda d: log.at(d, i, end), f"frame[{i}]/packet[{end}]:FrameEnd")


def _raw_packet(rule: str, ids: Any, label: str) -> st.SearchStrategy[Witness]:
    @st.composite
    def make(draw: st.DrawFn) -> Witness:
        log = draw(logs())
        i = draw(st.integers(0, len(log.frames) - 1))
        pid = draw(ids(log.v))
        j = len(log.frames[i]) - 1  # just before FrameEnd: raw packets are not ordered
        log.frames[i].insert(j, m.Packet(K.RAW, draw(st.binary(max_size=8)), packet_id=pid))
        return witness(rule, log, lambda d: log.at(d, i, j), f"frame[{i}]/packet[{j}]:{label}")
    return make()


@st.composite
def _frame_counter(draw: st.DrawFn) -> Witness:
    log = draw(logs(kinds=(K.FRAME_COUNTER,)))
    i = draw(st.integers(0, len(log.frames) - 1))
    j = draw(st.integers(1, len(log.frames[i]) - 1))
    log.frames[i].insert(j, m.Packet(K.FRAME_COUNTER, m.FrameCounter(draw(st.integers(0, 2**63)))))
    return witness("CARLA-PACKET-004", log, lambda d: log.at(d, i, j), path(log, i, j))


@st.composite
def _cut(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    data = log.data()
    i = draw(st.integers(0, len(log.frames) - 1))
    j = draw(st.integers(0, len(log.frames[i]) - 1))
    start = log.at(data, i, j)
    end = start + 5 + struct.unpack_from("<I", data, start + 1)[0]
    cut = draw(st.integers(start + 1, end - 1))  # inside packet j's header or payload
    # at the packet the file ends in, named by its frame (none yet while the FrameStart is cut)
    return witness("CARLA-STREAM-001", log, start, f"frame[{i}]" if j else "", data=data[:cut])


@st.composite
def _trailing(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    data = log.data()
    # fewer than a packet header's 5 bytes, not starting with the FrameStart id (a next frame cut short)
    tail = draw(st.binary(min_size=1, max_size=4).filter(lambda t: t[0] != log.v.id_of[K.FRAME_START]))
    return witness("CARLA-STREAM-002", log, len(data), "", data=data + tail)


@st.composite
def _huge(draw: st.DrawFn) -> Witness:
    # a user packet (id >= 100: only noted) whose payload is larger than MAX_PACKET_SIZE (4 MiB), all present
    log = draw(logs(max_frames=2))
    i = draw(st.integers(0, len(log.frames) - 1))
    j = len(log.frames[i]) - 1
    log.frames[i].insert(j, m.Packet(K.RAW, bytes(4 * 1024 * 1024 + draw(st.integers(1, 16))), packet_id=200))
    # at the packet's size field; the reader refuses it before the walk places it, so no path
    return witness("CARLA-LIMIT-001", log, lambda d: log.at(d, i, j) + 1, "")


# --- frames ------------------------------------------------------------------------------

@st.composite
def _outside(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    log.loose = [m.Packet(K.POSITION, ())]
    n = sum(len(f) for f in log.frames)
    # named by its ordinal among the log's packets, counted from 1
    return witness("CARLA-FRAME-001", log, lambda d: carla_packets(d)[n][0], f"packet@{n + 1}:Position")


@st.composite
def _unclosed(draw: st.DrawFn) -> Witness:
    log = draw(logs(min_frames=2))
    i = draw(st.integers(0, len(log.frames) - 2))
    end = log.frames[i].pop()  # frame i's FrameEnd: the next FrameStart comes inside frame i
    assert end.kind == K.FRAME_END
    j = len(log.frames[i])
    return witness("CARLA-FRAME-002", log, lambda d: log.at(d, i + 1, 0), f"frame[{i}]/packet[{j}]:FrameStart",
                   also=frozenset())


@st.composite
def _frame_id(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    log.set_times(i, frame_id=draw(st.integers(0, 2**64 - 1).filter(lambda x: x != i + 1)))
    return witness("CARLA-FRAME-003", log, lambda d: log.at(d, i, 0) + 5, path(log, i, 0, ".frame_id"))


@st.composite
def _elapsed(draw: st.DrawFn) -> Witness:
    log = draw(logs(min_frames=2))
    i = draw(st.integers(1, len(log.frames) - 1))
    old = log.times(i).elapsed
    log.set_times(i, elapsed=draw(st.floats(-1e6, 1e6).filter(lambda x: x != old)))
    return witness("CARLA-FRAME-004", log, lambda d: log.at(d, i, 0) + 5 + 16, path(log, i, 0, ".elapsed"))


@st.composite
def _first_elapsed(draw: st.DrawFn) -> Witness:
    log = draw(logs(max_frames=1))
    log.set_times(0, elapsed=draw(st.floats(-1e6, 1e6).filter(lambda x: x != 0)))
    return witness("CARLA-FRAME-005", log, lambda d: log.at(d, 0, 0) + 5 + 16, path(log, 0, 0, ".elapsed"))


@st.composite
def _last_duration(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = len(log.frames) - 1
    log.set_times(i, duration_this=draw(st.floats(0.0, 1e3)))
    return witness("CARLA-FRAME-006", log, lambda d: log.at(d, i, 0) + 5 + 8, path(log, i, 0, ".duration_this"))


@st.composite
def _no_end(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = len(log.frames) - 1
    log.frames[i].pop()
    return witness("CARLA-FRAME-007", log, lambda d: len(d), f"frame[{i}]")


@st.composite
def _negative_duration(draw: st.DrawFn) -> Witness:
    log = draw(logs(min_frames=2))
    i = draw(st.integers(0, len(log.frames) - 2))
    log.set_times(i, duration_this=draw(st.floats(-1e3, 0.0, exclude_max=True)))
    for k in range(i + 1, len(log.frames)):  # keep the chain elapsed[k] = elapsed[k-1] + durationThis[k-1]
        log.set_times(k, elapsed=log.times(k - 1).elapsed + log.times(k - 1).duration_this)
    return witness("CARLA-FRAME-008", log, lambda d: log.at(d, i, 0) + 5 + 8, path(log, i, 0, ".duration_this"))


@st.composite
def _no_frames(draw: st.DrawFn) -> Witness:
    log = draw(logs(min_frames=0, max_frames=0))
    return witness("CARLA-FRAME-009", log, lambda d: len(d), "")


@st.composite
def _not_finite(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = len(log.frames) - 1
    log.set_times(i, elapsed=draw(st.sampled_from((math.nan, math.inf, -math.inf))))
    # the timing chain cannot hold with a non-finite elapsed: CARLA-FRAME-004 (or -005 for the first frame)
    return witness("CARLA-FRAME-010", log, lambda d: log.at(d, i, 0) + 5 + 8, path(log, i, 0),
                   also=frozenset({"CARLA-FRAME-004", "CARLA-FRAME-005"}))


@st.composite
def _missing_kind(draw: st.DrawFn) -> Witness:
    from recspec.conformance.carla._always import required_per_frame

    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    required = required_per_frame(log.v.name)
    # the required kinds are not events: their records only refer to actors, so dropping one is the only break
    j = draw(st.sampled_from([j for j, p in enumerate(log.frames[i]) if p.kind in required]))
    del log.frames[i][j]
    end = len(log.frames[i]) - 1
    return witness("CARLA-FRAME-011", log, lambda d: log.at(d, i, end), f"frame[{i}]/packet[{end}]:FrameEnd")


# --- order -------------------------------------------------------------------------------

_EVENTS = (K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT)


@st.composite
def _swapped(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    frame = log.frames[i]
    pairs = [j for j in range(1, len(frame) - 2) if frame[j].kind != frame[j + 1].kind
             and frame[j].kind not in _EVENTS and frame[j + 1].kind not in _EVENTS
             and not {K.RAW, K.FRAME_COUNTER} & {frame[j].kind, frame[j + 1].kind}]
    j = draw(st.sampled_from(pairs))
    frame[j], frame[j + 1] = frame[j + 1], frame[j]
    return witness("CARLA-ORDER-001", log, lambda d: log.at(d, i, j + 1), path(log, i, j + 1))


@st.composite
def _twice(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    j = log.index(i, K.POSITION)
    assert j is not None
    log.frames[i].insert(j + 1, log.frames[i][j])  # the same Position packet again, right after it
    return witness("CARLA-ORDER-002", log, lambda d: log.at(d, i, j + 1), path(log, i, j + 1))


# --- actors ------------------------------------------------------------------------------

def _position_size(log: Log) -> int:
    return 4 + 2 * log.v.vec_size  # u32 id, location, rotation


@st.composite
def _stranger(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    j, records = log.records(i, K.POSITION)
    zero = m.Vec3(0.0, 0.0, 0.0)
    log.set_records(i, j, (m.Position(fresh_id(log, draw), zero, m.Rotator(0.0, 0.0, 0.0)),) + records)
    return witness("CARLA-ACTOR-001", log, lambda d: record_at(log, d, i, j, 0, _position_size(log)),
                   path(log, i, j, "/record[0].database_id"))


@st.composite
def _added_twice(draw: st.DrawFn) -> Witness:
    log = draw(logs(min_frames=2))
    a = draw(st.integers(0, len(log.frames) - 2))
    b = draw(st.integers(a + 1, len(log.frames) - 1))
    actor = fresh_id(log, draw)
    ja, added = log.records(a, K.EVENT_ADD)
    log.set_records(a, ja, added + (new_actor(log, draw, actor),))
    jb, again = log.records(b, K.EVENT_ADD)
    log.set_records(b, jb, (new_actor(log, draw, actor),) + again)
    return witness("CARLA-ACTOR-002", log, lambda d: log.at(d, b, jb) + 5, path(log, b, jb, "/record[0].database_id"))


@st.composite
def _deleted_stranger(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    j, records = log.records(i, K.EVENT_DEL)
    log.set_records(i, j, (m.EventDel(fresh_id(log, draw)),) + records)
    return witness("CARLA-ACTOR-003", log, lambda d: record_at(log, d, i, j, 0, 4),
                   path(log, i, j, "/record[0].database_id"))


# --- enums -------------------------------------------------------------------------------

@st.composite
def _actor_type(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    j, added = log.records(i, K.EVENT_ADD)
    bad = draw(st.integers(log.v.actor_types, 255))
    log.set_records(i, j, (new_actor(log, draw, fresh_id(log, draw), type_=bad),) + added)
    return witness("CARLA-ENUM-001", log, lambda d: log.at(d, i, j) + 5, path(log, i, j, "/record[0].type"))


@st.composite
def _light_state(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    actor = fresh_id(log, draw)
    ja, added = log.records(i, K.EVENT_ADD)
    log.set_records(i, ja, added + (new_actor(log, draw, actor),))
    j, states = log.records(i, K.STATE)
    bad = draw(st.integers(log.v.traffic_light_states, 255))
    log.set_records(i, j, (m.TrafficLightState(actor, 0, 0.0, bad),) + states)
    return witness("CARLA-ENUM-002", log, lambda d: record_at(log, d, i, j, 0, 10), path(log, i, j, "/record[0].state"))


@st.composite
def _door(draw: st.DrawFn) -> Witness:
    log = draw(logs(kinds=(K.VEHICLE_DOOR,)))
    i = draw(st.integers(0, len(log.frames) - 1))
    actor = fresh_id(log, draw)
    ja, added = log.records(i, K.EVENT_ADD)
    log.set_records(i, ja, added + (new_actor(log, draw, actor),))
    j, doors = log.records(i, K.VEHICLE_DOOR)
    log.set_records(i, j, (m.VehicleDoor(actor, draw(st.integers(7, 255)), 1),) + doors)
    return witness("CARLA-ENUM-003", log, lambda d: record_at(log, d, i, j, 0, 6), path(log, i, j, "/record[0].door"))


@st.composite
def _light_group(draw: st.DrawFn) -> Witness:
    log = draw(logs(kinds=(K.SCENE_LIGHT,)))
    i = draw(st.integers(0, len(log.frames) - 1))
    group = draw(st.integers(5, 255))
    light = m.SceneLight(draw(st.integers(0, 2**31 - 1)), 1.0, m.Color(1.0, 1.0, 1.0, 1.0), 1, group)
    j = log.index(i, K.SCENE_LIGHT)
    if j is None:  # the writer puts SceneLight right after VehicleLight
        vl = log.index(i, K.VEHICLE_LIGHT)
        assert vl is not None
        j = vl + 1
        log.frames[i].insert(j, m.Packet(K.SCENE_LIGHT, (light,)))
    else:
        log.set_records(i, j, (light,) + log.records(i, K.SCENE_LIGHT)[1])
    return witness("CARLA-ENUM-004", log, lambda d: record_at(log, d, i, j, 0, 26),
                   path(log, i, j, "/record[0].light_group"))


@st.composite
def _attribute_type(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    j, added = log.records(i, K.EVENT_ADD)
    bad = draw(st.integers(0, 255).filter(lambda t: t not in log.v.attribute_types))
    actor = new_actor(log, draw, fresh_id(log, draw), attributes=(m.ActorAttribute(bad, "role_name", "x"),))
    log.set_records(i, j, (actor,) + added)
    return witness("CARLA-ENUM-005", log, lambda d: log.at(d, i, j) + 5,
                   path(log, i, j, "/record[0]/attributes[0].type"))


@st.composite
def _flag(draw: st.DrawFn) -> Witness:
    log = draw(logs())
    i = draw(st.integers(0, len(log.frames) - 1))
    a, b = fresh_id(log, draw), None
    ja, added = log.records(i, K.EVENT_ADD)
    log.set_records(i, ja, added + (new_actor(log, draw, a),))
    b = fresh_id(log, draw)
    ja, added = log.records(i, K.EVENT_ADD)
    log.set_records(i, ja, added + (new_actor(log, draw, b),))
    j, collisions = log.records(i, K.COLLISION)
    first = draw(st.booleans())
    bad = draw(st.integers(2, 255))
    flags = (bad, 0) if first else (0, bad)
    log.set_records(i, j, (m.Collision(draw(st.integers(0, 2**31 - 1)), a, b, *flags),) + collisions)
    which = "is_actor1_hero" if first else "is_actor2_hero"
    return witness("CARLA-VALUE-001", log, lambda d: record_at(log, d, i, j, 0, 14),
                   path(log, i, j, f"/record[0].{which}"))


WITNESSES: Witnesses = {
    "CARLA-HEADER-001": lambda: _header("CARLA-HEADER-001", "magic", _OTHER_MAGIC, 2, "header.magic"),
    "CARLA-HEADER-002": lambda: _header("CARLA-HEADER-002", "version", st.integers(0, 0xFFFF).filter(lambda v: v != 1),
                                        0, "header.version"),
    "CARLA-HEADER-003": lambda: _header("CARLA-HEADER-003", "date", st.one_of(
        st.integers(-2**63, PLAUSIBLE_DATES[0] - 1), st.integers(PLAUSIBLE_DATES[1], 2**63 - 1)), 18, "header.date"),
    "CARLA-HEADER-004": lambda: _header("CARLA-HEADER-004", "map_name", st.just(""), MAP_NAME_AT, "header.map_name"),
    "CARLA-STRING-001": lambda: _header("CARLA-STRING-001", "map_name", st.tuples(_MAP, st.sampled_from(
        ("\udcff", "\udc80", "\udcc0"))).map("".join), MAP_NAME_AT, "header.map_name"),
    "CARLA-STRING-002": lambda: _header("CARLA-STRING-002", "map_name", st.tuples(_MAP, _MAP).map("\x00".join),
                                        MAP_NAME_AT, "header.map_name"),
    "CARLA-PACKET-001": _frame_end_payload,
    "CARLA-PACKET-002": lambda: _raw_packet("CARLA-PACKET-002", lambda v: st.integers(0, 99).filter(
        lambda i: i not in v.ids), "Raw"),
    "CARLA-PACKET-003": lambda: _raw_packet("CARLA-PACKET-003", lambda v: st.integers(100, 255), "Raw"),
    "CARLA-PACKET-004": _frame_counter,
    "CARLA-STREAM-001": _cut,
    "CARLA-STREAM-002": _trailing,
    "CARLA-LIMIT-001": _huge,
    "CARLA-FRAME-001": _outside,
    "CARLA-FRAME-002": _unclosed,
    "CARLA-FRAME-003": _frame_id,
    "CARLA-FRAME-004": _elapsed,
    "CARLA-FRAME-005": _first_elapsed,
    "CARLA-FRAME-006": _last_duration,
    "CARLA-FRAME-007": _no_end,
    "CARLA-FRAME-008": _negative_duration,
    "CARLA-FRAME-009": _no_frames,
    "CARLA-FRAME-010": _not_finite,
    "CARLA-FRAME-011": _missing_kind,
    "CARLA-ORDER-001": _swapped,
    "CARLA-ORDER-002": _twice,
    "CARLA-ACTOR-001": _stranger,
    "CARLA-ACTOR-002": _added_twice,
    "CARLA-ACTOR-003": _deleted_stranger,
    "CARLA-ENUM-001": _actor_type,
    "CARLA-ENUM-002": _light_state,
    "CARLA-ENUM-003": _door,
    "CARLA-ENUM-004": _light_group,
    "CARLA-ENUM-005": _attribute_type,
    "CARLA-VALUE-001": _flag,
}

UNWITNESSABLE = {
    "CARLA-XCHECK-001": "fires when the reference decoder and the Kaitai parser disagree: a bug in recspec or a gap "
                        "in the spec, not a property of a file",
}


def valid_files() -> st.SearchStrategy[Witness]:
    """The unbroken logs the witnesses start from (rule ""; nothing may fire)."""
    return st.tuples(logs(), st.sampled_from(("spec", "compat"))).map(
        lambda r: Witness("", r[0].data(), r[1], None, "", variant=r[0].v.name, name="witness.log"))
