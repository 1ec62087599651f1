"""The structure-aware mutator of CARLA recorder logs, and its libFuzzer dictionary.

:func:`mutate` (atheris' ``custom_mutator`` signature) decodes the input leniently
with the reference decoder, edits the model (a field, a record, a packet, a packet
id, the header, the tail) and re-encodes with the reference encoder, so every
payload size stays consistent and the edit reaches the layouts instead of dying at
the framing. It falls back to byte mutation when the header does not decode, when
no edit encodes, and at random (``BYTE_MUTATION_RATE``).

Two edits aim at the rules' edges: ``_op_boundary`` sets a field a rule bounds (a flag, an enum,
an actor type or attribute type, an actor id) to the edge of its range in docs/formats/carla.md
(``_carla_doc``: the last value in range, the first outside; an id alive, deleted or never added),
and ``_op_repeat_frame`` repeats a frame with its ids and times following on, often with such a
value in a later copy, so that the checker's bulk frame proofs meet it inside a run.

The harnesses are in ``recspec.fuzz.carla``; a campaign that fixes its variant
tells this module with :func:`use_variant`.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import operator
import random
import re
import struct
import typing
from collections.abc import Callable, Sequence
from typing import Any

from recspec.conformance.carla import detect_variant
from recspec.errors import DecodeError
from recspec.reference import carla as m
from recspec.reference.carla import (
    MAX_PACKET_SIZE,
    VARIANTS,
    Header,
    Packet,
    PacketReader,
    Variant,
    decode_body,
    decode_header,
    encode_body,
    encode_header,
    encode_packet,
    frame_packets,
)
from recspec.reference.carla import PacketKind as K

from . import _carla_doc as doc
from . import _mutate
from ._dictionary import render, unique

__all__ = ["DEFAULT_VARIANT", "dictionary_entries", "dictionary_text", "mutate", "use_variant", "variant_of"]


#: The variant used when the header does not decode (nothing to detect from).
DEFAULT_VARIANT = VARIANTS["0.9.15"]

#: The campaign's variant (:func:`use_variant`); ``None``: every input's own, detected from content.
_fixed: Variant | None = None


def use_variant(variant: Variant | None) -> None:
    """Mutate every input under ``variant`` from now on, or detect each input's variant (``None``)."""
    global _fixed
    _fixed = variant
    _detected.clear()
    _parse.cache_clear()


def variant_of(data: bytes) -> Variant | None:
    """The variant ``recspec check`` would choose for ``data``; ``None`` when the header does not decode."""
    try:
        _, offset = decode_header(data, 0)
    except DecodeError:
        return None
    f = io.BytesIO(data)
    f.seek(offset)
    variant: Variant = detect_variant(f, offset, len(data))[0]
    return variant


# --- example values (synthetic seeds, grafted packets, the dictionary) ---------------



def _example_of(tp: Any) -> Any:
    if tp is int:
        return 1
    if tp is float:
        return 0.5
    if tp is str:
        return "seed"
    args = typing.get_args(tp)
    if typing.get_origin(tp) is tuple:
        return (_example_of(args[0]),)
    if args:  # ``float | None``: the first non-None member
        return _example_of(next(a for a in args if a is not type(None)))
    return _example(tp)


@functools.cache
def _example(cls: type) -> Any:
    """One instance of a model class, every field filled with a small valid value."""
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: _example_of(hints[f.name]) for f in dataclasses.fields(cls)})


def _example_body(kind: K, variant: Variant) -> Any:
    if kind in m.FIXED_VALUE_CLASSES:
        return _example(m.FIXED_VALUE_CLASSES[kind])
    if kind is K.PHYSICS_CONTROL and variant.wheel_physics_size is None:
        return b"\x00\x00"  # UE5: the layout is not known, the payload is kept as bytes
    return (_example(m.RECORD_CLASSES[kind]),)



# --- lenient parse --------------------------------------------------------------------

#: How many packets the mutator detects its variant from (``recspec check`` reads up to 64
#: frames; the first packets, one or two frames, say as much for the mutator's purpose).
_DETECT_PACKETS = 24

#: The mutator's variants by the input's framing: (header, then (id, payload size) of its
#: first packets) -> the variant detected for the first input seen with that framing.
#: Mutants that change values but not sizes (most edits) share their parent's entry; a
#: variant that is wrong for a mutant only makes its edits less structured.
_detected: dict[tuple[bytes, tuple[tuple[int, int], ...]], Variant] = {}
_DETECTED_MAX = 4096


def _mutation_variant(data: bytes, header_raw: bytes, slots: Sequence[_Slot]) -> Variant:
    """The variant the mutator reads ``data`` under: the campaign's (:func:`use_variant`),
    else the one that fits the first packets best (``detect_variant`` on them), cached by framing."""
    if _fixed is not None:
        return _fixed
    first = slots[:_DETECT_PACKETS]
    key = (header_raw, tuple((s.packet_id, len(s.raw)) for s in first))
    variant = _detected.get(key)
    if variant is None:
        if len(_detected) >= _DETECTED_MAX:
            _detected.clear()
        end = len(header_raw) + sum(len(s.raw) for s in first)
        variant = _detected[key] = variant_of(data[:end]) or DEFAULT_VARIANT
    return variant


class _Slot:
    """One packet of a draft: its bytes as framed (id, size, payload), and its body
    decoded only when an edit needs it (most edits move whole packets)."""

    __slots__ = ("_packet", "offset", "packet_id", "raw")

    def __init__(self, raw: bytes, packet_id: int, offset: int, packet: Packet | None = None) -> None:
        self.raw = raw  # the whole packet: the 5-byte header and the payload
        self.packet_id = packet_id
        self.offset = offset
        self._packet = packet

    @classmethod
    def of(cls, p: Packet, variant: Variant) -> _Slot | None:
        """A slot for a packet made by an edit; ``None`` when the encoder cannot write it."""
        try:
            raw = encode_packet(p, variant)
        except Exception:  # struct.error, OverflowError, UsageError, UnicodeEncodeError...
            return None
        return cls(raw, raw[0], -1, p)

    def packet(self, variant: Variant) -> Packet:
        """The body as the model: a payload that does not fit its layout is a RAW packet (re-encoded verbatim)."""
        if self._packet is None:
            kind = variant.ids.get(self.packet_id, K.RAW)
            payload = self.raw[5:]
            try:
                body = decode_body(kind, payload, variant, self.offset + 5)
            except DecodeError:
                self._packet = Packet(K.RAW, payload, self.packet_id)
            else:
                self._packet = Packet(kind, body, self.packet_id)
        return self._packet


class _Parsed:
    """An input framed into packets; the variant is looked up only when an edit needs it."""

    __slots__ = ("_variant", "data", "header", "header_raw", "packets", "tail")

    def __init__(self, data: bytes, header: Header, header_raw: bytes, packets: tuple[_Slot, ...],
                 tail: bytes) -> None:
        self.data = data
        self.header = header
        self.header_raw = header_raw
        self.packets = packets
        self.tail = tail  # bytes after the last whole packet (a truncated one, or junk)
        self._variant: Variant | None = None

    @property
    def variant(self) -> Variant:
        if self._variant is None:
            self._variant = _mutation_variant(self.data, self.header_raw, self.packets)
        return self._variant


@functools.lru_cache(maxsize=1024)
def _parse(data: bytes) -> _Parsed | None:
    """The input framed into packets, as far as it goes; whatever cannot be framed
    is the tail. ``None`` when the header does not decode. Bodies are decoded
    lazily (:meth:`_Slot.packet`), so a parse costs one pass over the framing.

    Cached: libFuzzer mutates the same corpus inputs again and again (a slot
    decodes its body once, and edits replace slots instead of changing them).
    """
    try:
        header, offset = decode_header(data, 0)
    except DecodeError:
        return None
    # the packets PacketReader reads before it stops (the framing is the same in every variant)
    starts, ids, sizes = frame_packets(data, offset, len(data), MAX_PACKET_SIZE)
    ends = list(map(operator.add, starts, map((5).__add__, sizes)))
    slots = tuple(map(_Slot, map(data.__getitem__, map(slice, starts, ends)), ids, starts))
    return _Parsed(data, header, data[:offset], slots, data[ends[-1] if ends else offset:])


# --- value mutations ------------------------------------------------------------------

_INTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 100, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
         0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF, -1, -2, -0x80, -0x8000, -0x80000000,
         2 ** 63 - 1, -(2 ** 63), 2 ** 64 - 1)
_F32_MAX = 3.4028234663852886e38
_FLOATS = (0.0, -0.0, 1.0, -1.0, 0.5, 0.05, 1e-45, 1.17549435e-38, _F32_MAX, -_F32_MAX, float("inf"),
           float("-inf"), float("nan"), 16777217.0, 1e10, -1e10)
_STRINGS = ("", "CARLA_RECORDER", "carla_recorder", "Town01", "hero", "role_name", "color", "0,0,0",
            "vehicle.tesla.model3", "walker.pedestrian.0001", "traffic.traffic_light", "sensor.camera.rgb",
            "\udcff", "\udcc3", "\udce2\udc82", "é", "\x00", "日本")


def _mutate_int(rng: random.Random, value: int) -> int:
    r = rng.random()
    if r < 0.5:
        return rng.choice(_INTS)
    if r < 0.8:
        return value + rng.choice((-1, 1, -2, 2, -16, 16))
    return value ^ (1 << rng.randrange(32))


def _mutate_float(rng: random.Random, value: float) -> float:
    r = rng.random()
    if r < 0.6:
        return rng.choice(_FLOATS)
    if r < 0.7:
        return -value
    if r < 0.8:
        return value * 2.0
    return value + rng.uniform(-1000.0, 1000.0)


def _mutate_str(rng: random.Random, value: str) -> str:
    r = rng.random()
    if r < 0.45:
        return rng.choice(_STRINGS)
    if r < 0.6:
        return value[:-1]
    if r < 0.75:
        return value + rng.choice(_STRINGS)
    if r < 0.85:
        return value * rng.randint(2, 40)
    i = rng.randrange(len(value) + 1)
    return value[:i] + chr(rng.choice((0xDC80 + rng.randrange(128), rng.randrange(0x20, 0x7F), 0xE9))) + value[i:]


def _mutate_bytes(rng: random.Random, value: bytes) -> bytes:
    buf = bytearray(value)
    r = rng.random()
    if r < 0.4 and buf:
        buf[rng.randrange(len(buf))] = rng.randrange(256)
    elif r < 0.6 and buf:
        del buf[rng.randrange(len(buf)):]
    elif r < 0.8:
        buf += bytes(rng.randrange(1, 9))
    else:
        return b""
    return bytes(buf)


def _mutate_tuple(rng: random.Random, value: tuple[Any, ...], edit: float = 0.6) -> tuple[Any, ...]:
    if not value:
        return value
    i = rng.randrange(len(value))
    r = rng.random()
    if r < edit:
        return value[:i] + (_mutate_value(rng, value[i]),) + value[i + 1:]
    if r < edit + (1 - edit) / 2:
        j = rng.randrange(len(value) + 1)
        return value[:j] + (value[i],) + value[j:]
    return value[:i] + value[i + 1:]


def _mutate_value(rng: random.Random, value: Any) -> Any:
    """``value`` with one leaf changed: an int, float or string field, a list element, bytes."""
    if isinstance(value, int):
        return _mutate_int(rng, value)
    if isinstance(value, float):
        return _mutate_float(rng, value)
    if isinstance(value, str):
        return _mutate_str(rng, value)
    if isinstance(value, (bytes, bytearray)):
        return _mutate_bytes(rng, bytes(value))
    if isinstance(value, tuple):
        return _mutate_tuple(rng, value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in dataclasses.fields(value) if getattr(value, f.name) is not None]
        if not names:
            return value
        name = rng.choice(names)
        return dataclasses.replace(value, **{name: _mutate_value(rng, getattr(value, name))})
    return value


# --- structural mutations ---------------------------------------------------------------


class _Draft:
    """A log being edited: the header, the packets as slots and the tail, joined at the end."""

    __slots__ = ("_parsed", "header", "header_raw", "packets", "tail")

    def __init__(self, p: _Parsed) -> None:
        self._parsed = p
        self.header = p.header
        self.header_raw: bytes | None = p.header_raw  # None once the header is edited
        self.packets = list(p.packets)
        self.tail = p.tail

    @property
    def variant(self) -> Variant:
        return self._parsed.variant

    def encode(self) -> bytes:
        head = self.header_raw if self.header_raw is not None else encode_header(self.header)
        return head + b"".join(map(_RAW, self.packets)) + self.tail  # the packets' bytes in a C loop


_RAW = operator.attrgetter("raw")

#: How many packets an edit that needs a certain kind of body looks at before it gives up.
_TRIES = 6


def _pick(rng: random.Random, d: _Draft, wanted: Callable[[Packet], bool]) -> tuple[int, Packet] | None:
    """A random packet whose body ``wanted`` accepts (decoding only the ones looked at)."""
    if not d.packets:
        return None
    for _ in range(_TRIES):
        i = rng.randrange(len(d.packets))
        p = d.packets[i].packet(d.variant)
        if wanted(p):
            return i, p
    return None


def _has_content(p: Packet) -> bool:
    b = p.body
    if isinstance(b, tuple):
        return bool(b)
    if isinstance(b, (bytes, bytearray)):
        return True
    return bool(dataclasses.fields(b))


def _has_records(p: Packet) -> bool:
    return isinstance(p.body, tuple) and bool(p.body)


def _replace(d: _Draft, i: int, p: Packet) -> bool:
    slot = _Slot.of(p, d.variant)
    if slot is None:  # a mutated value that does not fit its field, more than 65535 records...
        return False
    d.packets[i] = slot
    return True


def _op_field(rng: random.Random, d: _Draft) -> bool:
    """Change one field of one record (or of a fixed packet, or a byte of a RAW payload)."""
    found = _pick(rng, d, _has_content)
    if found is None:
        return False
    i, p = found
    body = _mutate_tuple(rng, p.body, edit=1.0) if isinstance(p.body, tuple) else _mutate_value(rng, p.body)
    return _replace(d, i, dataclasses.replace(p, body=body))


def _op_records(rng: random.Random, d: _Draft) -> bool:
    """Duplicate or delete one record of a counted packet (the count and size follow)."""
    found = _pick(rng, d, _has_records)
    if found is None:
        return False
    i, p = found
    if not isinstance(p.body, tuple):  # never: _has_records picked it; this narrows the body's type
        return False
    return _replace(d, i, dataclasses.replace(p, body=_mutate_tuple(rng, p.body, edit=0.0)))


def _op_duplicate_packet(rng: random.Random, d: _Draft) -> bool:
    if not d.packets:
        return False
    p = rng.choice(d.packets)
    d.packets.insert(rng.randrange(len(d.packets) + 1), p)
    return True


def _op_delete_packet(rng: random.Random, d: _Draft) -> bool:
    if not d.packets:
        return False
    del d.packets[rng.randrange(len(d.packets))]
    return True


def _op_swap_packets(rng: random.Random, d: _Draft) -> bool:
    if len(d.packets) < 2:
        return False
    i, j = rng.sample(range(len(d.packets)), 2)
    d.packets[i], d.packets[j] = d.packets[j], d.packets[i]
    return True


def _op_packet_id(rng: random.Random, d: _Draft) -> bool:
    """Write one packet's payload under another id (another kind, another variant's numbering, a user id)."""
    if not d.packets:
        return False
    i = rng.randrange(len(d.packets))
    r = rng.random()
    if r < 0.5:
        new_id = rng.choice(_sorted_ids(d.variant))
    elif r < 0.8:
        new_id = rng.randrange(24)
    elif r < 0.9:
        new_id = rng.choice((100, 101, 200, 254, 255))
    else:
        new_id = rng.randrange(256)
    old = d.packets[i]
    d.packets[i] = _Slot(bytes((new_id,)) + old.raw[1:], new_id, old.offset)
    return True


@functools.cache
def _sorted_ids(variant: Variant) -> tuple[int, ...]:
    return tuple(sorted(variant.ids))


def _op_graft(rng: random.Random, d: _Draft) -> bool:
    """Insert a packet of a kind the variant defines, with a small example body."""
    kind = d.variant.ids[rng.choice(_sorted_ids(d.variant))]
    slot = _graft_slot(kind, d.variant)
    if slot is None:
        return False
    d.packets.insert(rng.randrange(len(d.packets) + 1), slot)
    return True


@functools.cache
def _graft_slot(kind: K, variant: Variant) -> _Slot | None:
    return _Slot.of(Packet(kind, _example_body(kind, variant)), variant)


def _op_header(rng: random.Random, d: _Draft) -> bool:
    h = d.header
    field = rng.choice(("version", "magic", "date", "map_name"))
    if field == "version":
        new = dataclasses.replace(h, version=rng.choice((0, 1, 2, 0x100, 0xFFFF, rng.randrange(0x10000))))
    elif field == "magic":
        new = dataclasses.replace(h, magic=rng.choice((
            "", "CARLA_RECORDE", "CARLA_RECORDER\x00", "carla_recorder", "CARLA_RECORDEr", "CARLA_RECORDER" * 2,
            _mutate_str(rng, h.magic))))
    elif field == "date":
        new = dataclasses.replace(h, date=rng.choice((
            0, -1, 2 ** 63 - 1, -(2 ** 63), 1483228799, 1483228800, 4102444800, h.date + 1, h.date * 1000)))
    else:
        new = dataclasses.replace(h, map_name=_mutate_str(rng, h.map_name))
    try:
        encode_header(new)
    except Exception:
        return False
    d.header = new
    d.header_raw = None
    return True


def _op_tail(rng: random.Random, d: _Draft) -> bool:
    """Drop the tail, or end the log inside a packet, or add junk after it."""
    r = rng.random()
    if r < 0.3 and d.tail:
        d.tail = b""
    elif r < 0.7 and d.packets:
        whole = rng.choice(d.packets).raw
        d.tail = whole[:rng.randrange(len(whole))]
    else:
        d.tail += bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return True


# --- boundary mutations: a judged field at its range's edges, inside one frame or a run of alike frames ----

#: The record classes whose fields a rule bounds: the document's ranges (``_carla_doc``), as the second opinion
#: reads them, and the actor ids (CARLA-ACTOR-001..003).
_BOUNDED = frozenset((*doc.FLAGS, *(cls for (cls, _, _) in doc.ENUMS), *doc.ACTOR_FIELDS, m.TrafficLightState,
                      m.EventAdd, m.EventDel))
#: Those with a flag or an enum (the actor type and the attribute types included).
_RANGED = frozenset((*doc.FLAGS, *(cls for (cls, _, _) in doc.ENUMS), m.TrafficLightState, m.EventAdd))
_FRAME_START_ID = VARIANTS["0.9.4-0.9.5"].id_of[K.FRAME_START]  # 0 and 1 in every variant
_FRAME_END_ID = VARIANTS["0.9.4-0.9.5"].id_of[K.FRAME_END]


def _bounded_kind(p: Packet) -> bool:
    return p.kind in m.RECORD_CLASSES and m.RECORD_CLASSES[p.kind] in _BOUNDED


def _live_actors(d: _Draft) -> list[int]:
    """The actor ids the draft's EventAdd packets add (in file order; deletions aside)."""
    add = d.variant.id_of.get(K.EVENT_ADD)
    out: list[int] = []
    for slot in d.packets:
        if slot.packet_id == add:
            body = slot.packet(d.variant).body
            if isinstance(body, tuple):
                out += (r.database_id for r in body if isinstance(r, m.EventAdd))
    return out


def _edges(n: int) -> tuple[int, ...]:
    """A range 0..n-1's edges: its last value, the first outside (twice: the one an off-by-one
    misses), the one after that."""
    return (n - 1, n, n, n + 1)


def _boundary_value(rng: random.Random, d: _Draft, cls: type, name: str, actors: list[int]) -> int | None:
    """A value at an edge of the field's range in the document (or, for an actor id, one alive,
    one never added, the collision's "not an actor"); ``None`` if the field has no range."""
    enums = doc.enum_values(d.variant.name)
    if name in doc.FLAGS.get(cls, ()):
        return rng.choice((1, 2, 3, 0xFF))  # a bool's range is 0..1
    if (cls, name) in enums:
        return rng.choice(_edges(enums[cls, name]))
    if name in doc.ACTOR_FIELDS.get(cls, ()) or (cls in (m.EventAdd, m.EventDel) and name == "database_id"):
        never = max(actors, default=0) + 1
        return rng.choice((*actors[-3:], *actors[:2], never, 0, doc.NOT_AN_ACTOR) if actors else (never, 0, 1))
    return None


def _bounded_fields(cls: type) -> tuple[str, ...]:
    names = [*doc.FLAGS.get(cls, ()), *doc.ACTOR_FIELDS.get(cls, ()),
             *(name for (c, name, _) in doc.ENUMS if c is cls)]
    if cls is m.TrafficLightState:
        names.append("state")
    if cls is m.EventAdd:
        names += ("type", "database_id")
    if cls is m.EventDel:
        names.append("database_id")
    return tuple(dict.fromkeys(names))


def _at_boundary(rng: random.Random, d: _Draft, i: int, p: Packet, actors: list[int], *,
                 ranged: bool = False) -> bool:
    """Packet ``i`` (of a bounded kind) with one record's judged field set to a boundary value; an empty
    packet first gets an example record (so that the always-written packets, mostly empty, are judged).
    ``ranged``: a flag or an enum rather than an actor id, when the record has one (what the bulk frame
    proofs judge besides ids and times)."""
    cls = m.RECORD_CLASSES[p.kind]
    body: tuple[Any, ...] = p.body if isinstance(p.body, tuple) else ()
    if not body:
        body = (_example(cls),)
        if "database_id" in doc.ACTOR_FIELDS.get(cls, ()) and actors:
            body = (dataclasses.replace(body[0], database_id=rng.choice(actors)),)
    j = rng.randrange(len(body))
    r: Any = body[j]
    if cls is m.EventAdd and r.attributes and rng.random() < 0.3:  # an attribute's type at its set's edges
        types = doc.ATTRIBUTE_TYPES[d.variant.name]
        k = rng.randrange(len(r.attributes))
        t = rng.choice((min(types) - 1, min(types), max(types), max(types) + 1, 0xFF))
        if t < 0:
            return False
        attrs = r.attributes[:k] + (dataclasses.replace(r.attributes[k], type=t),) + r.attributes[k + 1:]
        new = dataclasses.replace(r, attributes=attrs)
    else:
        names = _bounded_fields(cls)
        if ranged:
            names = tuple(n for n in names if n not in doc.ACTOR_FIELDS.get(cls, ())) or names
        name = rng.choice(names)
        value = _boundary_value(rng, d, cls, name, actors)
        if value is None:
            return False
        new = dataclasses.replace(r, **{name: value})
    return _replace(d, i, dataclasses.replace(p, body=body[:j] + (new,) + body[j + 1:]))


def _op_boundary(rng: random.Random, d: _Draft) -> bool:
    """Set one judged field of one record to an edge of its range (``_at_boundary``): the kind is drawn
    first among the bounded kinds the draft holds, so that a rare kind (a door, a scene light) is as
    likely as a common one."""
    v = d.variant
    ranged = rng.random() < 0.6  # a kind with a flag or an enum, most of the time: fewer than those with ids
    wanted = _RANGED if ranged else _BOUNDED
    by_id: dict[int, list[int]] = {}
    for i, slot in enumerate(d.packets):
        kind = v.ids.get(slot.packet_id)
        if kind in m.RECORD_CLASSES and m.RECORD_CLASSES[kind] in wanted:
            by_id.setdefault(slot.packet_id, []).append(i)
    if not by_id:
        return False
    i = rng.choice(by_id[rng.choice(sorted(by_id))])
    p = d.packets[i].packet(v)
    return p.kind is not K.RAW and _at_boundary(rng, d, i, p, _live_actors(d), ranged=ranged)


#: How many bytes a repeated frame's copies add, at most (past two copies).
REPEAT_BYTES = 1024
#: The largest input (its packets' bytes) whose frames are repeated: every seed in corpus/carla/valid (the
#: largest, ue5, holds 3.2 kB), but not an input that repeats already. Without it the copies compound from one
#: generation of the corpus to the next: a campaign's inputs grew to twice the length of those made without
#: repeated frames (a mean of 3,030 bytes against 1,366 after 30 s), and every execution pays for the length.
REPEAT_INPUT_MAX = 3584
#: The kinds whose records a repeated frame drops (added, deleted or reparented once; a collision once).
_ONCE = frozenset((K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION, K.WALKER_BONES, K.PHYSICS_CONTROL))


def _frames_of(d: _Draft) -> list[tuple[int, int]]:
    """(FrameStart index, FrameEnd index) of each well-bracketed frame of the draft."""
    out, start = [], None
    for i, slot in enumerate(d.packets):
        if slot.packet_id == _FRAME_START_ID:
            start = i
        elif slot.packet_id == _FRAME_END_ID and start is not None:
            out.append((start, i))
            start = None
    return out


def _op_repeat_frame(rng: random.Random, d: _Draft) -> bool:
    """Repeat one frame a few times after itself (its one-time records left out), re-time every frame so
    that the ids and times follow (the bulk frame proofs take such runs whole), and often put one judged
    field of a later copy at a boundary: the fast paths then meet the rules' edges inside a run."""
    if sum(len(slot.raw) for slot in d.packets) > REPEAT_INPUT_MAX:
        return False
    frames = _frames_of(d)
    if not frames:
        return False
    first, last = rng.choice(frames)
    v = d.variant
    actors = _live_actors(d)
    copy: list[_Slot] = []
    for slot in d.packets[first:last + 1]:
        p = slot.packet(v)
        if p.kind not in _ONCE and p.body == () and _bounded_kind(p) and actors and rng.random() < 0.5:
            record = _example(m.RECORD_CLASSES[p.kind])
            if "database_id" in doc.ACTOR_FIELDS.get(type(record), ()):
                record = dataclasses.replace(record, database_id=rng.choice(actors))
            slot = _Slot.of(dataclasses.replace(p, body=(record,)), v) or slot  # a record whose fields are judged
            copy.append(slot)
        elif p.kind in _ONCE and isinstance(p.body, tuple) and p.body:
            s = _Slot.of(dataclasses.replace(p, body=()), v)
            if s is None:
                return False
            copy.append(s)
        else:
            copy.append(slot)
    size = sum(len(slot.raw) for slot in copy)  # at most REPEAT_BYTES more: a longer input costs every execution
    k = min(rng.choice((2, 4, 6, 9, 12)), max(2, REPEAT_BYTES // max(size, 1)))
    at = last + 1
    d.packets[at:at] = copy * k
    if not _retime(d):
        return False
    if rng.random() < 0.7:  # a boundary value in a later copy, mostly the last: the bulk proofs take the
        c = k - 1 if rng.random() < 0.6 else rng.randrange(1, k)  # copies before it as one run, then meet it
        lo = at + c * len(copy)
        picks = [i for i in range(lo, lo + len(copy)) if _bounded_kind(p := d.packets[i].packet(v)) and p.body]
        if picks:  # a record there (not a new one: the copy keeps the run's shape)
            i = rng.choice(picks)
            _at_boundary(rng, d, i, d.packets[i].packet(v), actors, ranged=rng.random() < 0.7)
    return True


def _retime(d: _Draft) -> bool:
    """Make the FrameStarts' ids count up from the first's and their times add up (a durationThis below 0
    before the last becomes 0.05, the last one's becomes -1.0)."""
    v = d.variant
    starts = [i for i, slot in enumerate(d.packets) if slot.packet_id == _FRAME_START_ID]
    bodies: list[Any] = [d.packets[i].packet(v).body for i in starts]
    if not bodies or not all(isinstance(b, m.FrameStart) for b in bodies):
        return False
    frame_id, elapsed = bodies[0].frame_id, bodies[0].elapsed
    for n, (i, b) in enumerate(zip(starts, bodies, strict=True)):
        duration = -1.0 if n == len(bodies) - 1 else b.duration_this if b.duration_this >= 0 else 0.05
        new = m.FrameStart(frame_id + n, duration, elapsed)
        if new != b:
            slot = _Slot.of(Packet(K.FRAME_START, new), v)
            if slot is None:
                return False
            d.packets[i] = slot
        elapsed = elapsed + duration
    return True


_OPS: tuple[Callable[[random.Random, _Draft], bool], ...] = (
    _op_field, _op_records, _op_duplicate_packet, _op_delete_packet, _op_swap_packets, _op_packet_id,
    _op_graft, _op_header, _op_tail, _op_boundary, _op_repeat_frame,
)
_WEIGHTS = (32, 14, 8, 8, 8, 10, 6, 8, 6, 14, 7)


def _mutate_structure(rng: random.Random, parsed: _Parsed, max_size: int) -> bytes | None:
    draft = _Draft(parsed)
    wanted = rng.choice((1, 1, 1, 2, 2, 3))
    done = 0
    for _ in range(4 * wanted):
        op = rng.choices(_OPS, weights=_WEIGHTS)[0]
        if op(rng, draft):
            done += 1
            if done >= wanted:
                break
    if not done:
        return None
    out = draft.encode()
    if len(out) > max_size:  # whole frames (else whole packets) that fit, rather than a cut packet
        out = _prefix(out, max_size)
    return out or None


def _prefix(data: bytes, max_len: int) -> bytes:
    """The longest prefix of at most ``max_len`` bytes that ends after a FrameEnd
    (else after any whole packet); packet framing is the same in every variant."""
    try:
        _, offset = decode_header(data, 0)
    except DecodeError:
        return data[:max_len]
    if offset > max_len:
        return data[:max_len]
    frame_end = VARIANTS["0.9.4-0.9.5"].id_of[K.FRAME_END]  # 1 in every variant
    cut_frame = cut_packet = offset
    f = io.BytesIO(data)
    f.seek(offset)
    try:
        for raw in PacketReader(f, VARIANTS["0.9.4-0.9.5"], offset, len(data)):
            if raw.end > max_len:
                break
            cut_packet = raw.end
            if raw.packet_id == frame_end:
                cut_frame = raw.end
    except DecodeError:
        pass
    return data[:cut_frame if cut_frame > offset else cut_packet]



# --- the mutator ------------------------------------------------------------------------


def mutate(data: bytes, max_size: int, seed: int, *,
           byte_mutate: Callable[[bytes, int], bytes] | None = None) -> bytes:
    """atheris custom mutator: ``(data, max_size, seed) -> bytes`` of at most ``max_size`` bytes.

    Structure-aware when the header decodes (see the module docstring), else
    byte mutation (``recspec.fuzz._mutate``: the same outer logic for every format).
    """
    return _mutate.mutate(data, max_size, seed, parse=_parse, mutate_structure=_mutate_structure, tokens=_TOKENS,
                          byte_mutate=byte_mutate)


# --- dictionary --------------------------------------------------------------------------


def dictionary_entries() -> list[tuple[str, bytes]]:
    """The libFuzzer dictionary, computed from the variant table and the encoder.

    ``fuzz/dictionaries/carla.dict`` is this list rendered by
    :func:`dictionary_text` (a test keeps the two equal).
    """
    entries: list[tuple[str, bytes]] = [
        ("magic_field", b"\x0e\x00CARLA_RECORDER"),
        ("magic", b"CARLA_RECORDER"),
        ("magic_lower", b"carla_recorder"),
        ("version_1", struct.pack("<H", 1)),
    ]
    # Packet headers (u8 id, u32 size) of the packets whose size is fixed, per id any variant uses.
    for kind in m.FIXED_VALUE_CLASSES:
        size = len(encode_body(kind, _example(m.FIXED_VALUE_CLASSES[kind]), DEFAULT_VARIANT))
        for packet_id in sorted({v.id_of[kind] for v in VARIANTS.values() if kind in v.id_of}):
            entries.append((f"packet_{kind.label}_{packet_id}", struct.pack("<BI", packet_id, size)))
    # u32 payload sizes of a one-record packet, in both vector widths.
    for kind, cls in m.RECORD_CLASSES.items():
        for variant in (VARIANTS["0.9.15"], VARIANTS["ue5"]):
            if kind in variant.id_of and not (kind is K.PHYSICS_CONTROL and variant.wheel_physics_size is None):
                size = len(encode_body(kind, (_example(cls),), variant))
                width = "f64" if variant.vec_f64 else "f32"
                entries.append((f"size_{kind.label}_1_{width}", struct.pack("<I", size)))
    entries += [
        ("count_0", struct.pack("<H", 0)),
        ("count_1", struct.pack("<H", 1)),
        ("count_max", struct.pack("<H", 0xFFFF)),
        ("not_an_actor", struct.pack("<I", 0xFFFFFFFF)),
        ("duration_unset_f64", struct.pack("<d", -1.0)),
        ("nan_f32", struct.pack("<I", 0x7FC00000)),
        ("inf_f32", struct.pack("<f", float("inf"))),
        ("nan_f64", struct.pack("<Q", 0x7FF8000000000000)),
        ("user_packet_100", struct.pack("<B", 100)),
        ("user_packet_255", struct.pack("<B", 255)),
    ]
    for text in ("Town01", "vehicle.", "walker.pedestrian.", "traffic.traffic_light", "sensor.", "role_name",
                 "hero", "color", "number_of_wheels"):
        entries.append((f"str_{re.sub(r'[^a-z0-9]+', '_', text.lower()).strip('_')}",
                        struct.pack("<H", len(text)) + text.encode()))
    return unique(entries)


def dictionary_text() -> str:
    return render([
        "libFuzzer dictionary for the CARLA recorder log: the magic, packet headers,",
        "payload sizes, record counts and common values.",
        "Generated by recspec.fuzz.carla.dictionary_text(); tests/test_fuzz_carla.py",
        "checks that this file matches it. Do not edit by hand.",
    ], dictionary_entries())


_TOKENS = tuple(value for _, value in dictionary_entries())
