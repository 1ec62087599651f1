"""The fast path of the wire walk: the protobuf runtime (upb, in C) proves a payload clean.

:func:`recspec.reference.nanover.scan` walks a payload field by field in Python
and is the locating path: it says where a bad tag, an unknown field, an
unpacked array or too deep a nesting is. Most payloads have none of these, and
for them the walk's only result is "nothing to say". :func:`parse_clean`
establishes that result in C, and returns the payload's message (parsed by the
runtime, as the checker needs it anyway), or ``None`` when it cannot prove it;
the caller then runs the walk, which finds and locates whatever there is.
:func:`wire_verdict` is the proof alone (no message built), for a caller that
needs only the walk's verdict, such as kind detection; it also proves the
opposite, that the walk raises or lists an unknown field, for a payload with
an unknown field in its root message (a payload of the other kind, mostly).

The proof. A *mirror* schema is built from the walk's own tables
(``_wire.SCHEMAS``): one message type per message of the schema and message
depth (up to :data:`MIRROR_MESSAGE_DEPTH`), with every field the walk knows
and the wire type the walk expects; the
maps are declared as what they are on the wire (repeated entry messages), the
repeated numbers as packed, and the message fields of the deepest level left
out. A payload is clean when

    mirror = Mirror.FromString(payload); mirror.DiscardUnknownFields()
    mirror.SerializeToString() == payload

that is, when the payload is, byte for byte, what upb's encoder writes for a
message of the mirror schema without unknown fields. Everything that encoder
writes, the walk accepts without a note: only tags of the schema's fields
(field number > 0, canonical tag varints, wire types 0, 1, 2, 5: no group, no
wire type 6 or 7, no unknown field, no foreign field inside a map entry),
lengths that end inside their message, packed arrays (a float run a multiple of
4 bytes; never the unpacked forms the walk notes), and no nesting at or past
the walk's limit (its depth grows at most one per message level, and the
mirror ends at :data:`MAX_NESTING` levels), and DiscardUnknownFields reaches
every message of the mirror (it stops about 64 deep). So ``parse_clean(...) is not None``
implies ``scan(...)`` raises nothing and lists no unknown and no unpacked
field. The converse need not hold (a payload the walk accepts may still fail
the round trip: map entries in a writer's own order are fine, but an overlong
varint, a repeated field split in two runs or an explicit proto3 default are
not re-encoded the same way); such payloads take the walk, which costs time,
never a finding. tests/test_nanover_fastpath.py checks the implication on
generated wire structures and the identity of the two paths' reports.

The opposite proof. When the mirror parse succeeds and leaves an unknown field
in the root message, the walk cannot come out clean: the two read the root's
fields in the same order with the same extents (a known field's tag, varint
or length is read alike), so the walk either raises before it reaches the
first such field, or reaches its tag, which is not one of the root's tags of
the schema (the mirror's root declares exactly those), and either raises on
it (a group, a tag above 2^32) or lists it as unknown. Only the root: deeper
down the mirror ends before the walk does.

Scalars are declared ``optional`` (proto2: explicit presence) so that an
explicit ``false``/``0`` (NanoVer writes ``20 00`` and ``08 00``) and an absent
field both round-trip; strings are ``bytes`` (their UTF-8 is the real parse's
business); floats are ``fixed32``/``fixed64`` (bit exact, NaN payloads kept).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from operator import attrgetter, itemgetter, methodcaller
from typing import Any, Literal

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError as PbDecodeError
from google.protobuf.message import Message
from google.protobuf.unknown_fields import UnknownFieldSet

from recspec.errors import DecodeError

from ._payload import parse_frame, parse_state_update
from ._wire import (
    _ROOT,
    FIXED32,
    FIXED64,
    MAX_NESTING,
    MAX_VALUES,
    MESSAGE,
    PACKED_F32,
    PACKED_VARINT,
    SCHEMAS,
    STRING,
    VARINT,
)

__all__ = ["CLEAN_MAX_PAYLOAD", "MIRROR_MESSAGE_DEPTH", "mirror_class", "parse_clean", "parse_clean_in_order",
           "wire_verdict"]

#: A payload shorter than this cannot break the walk's MAX_VALUES (NANOVER-LIMIT-003): every map
#: entry or list element the walk counts takes at least 2 bytes (a tag and a length). parse_clean
#: does not count values, so a caller takes its answer as the walk's only below this length.
CLEAN_MAX_PAYLOAD = 2 * MAX_VALUES

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "recspec.nanover_wire"
# handler -> (field type, label, packed) of the mirror's declaration
_DECLARED = {
    VARINT: (_F.TYPE_UINT64, _F.LABEL_OPTIONAL, False),
    FIXED32: (_F.TYPE_FIXED32, _F.LABEL_OPTIONAL, False),
    FIXED64: (_F.TYPE_FIXED64, _F.LABEL_OPTIONAL, False),
    STRING: (_F.TYPE_BYTES, _F.LABEL_REPEATED, False),
    MESSAGE: (_F.TYPE_MESSAGE, _F.LABEL_REPEATED, False),
    PACKED_F32: (_F.TYPE_FIXED32, _F.LABEL_REPEATED, True),
    PACKED_VARINT: (_F.TYPE_UINT64, _F.LABEL_REPEATED, True),
}


#: The mirror's deepest message nesting (the root is 1). Two reasons for a bound: the
#: walk's nesting depth grows by at most one per message level (so at most 31 here, under
#: its MAX_NESTING of 32: the mirror never reaches the walk's limit); and upb's
#: DiscardUnknownFields stops, silently, about 64 messages deep, so an unknown field
#: deeper than that would survive into the re-serialised bytes. A payload nested deeper
#: than the mirror has an unknown field where the mirror ends, and takes the walk.
MIRROR_MESSAGE_DEPTH = MAX_NESTING


def _type_name(name: str, message_depth: int) -> str:
    return f"{name}_m{message_depth}"


def _mirror_file() -> descriptor_pb2.FileDescriptorProto:
    """The mirror schema: every (message, message depth) reachable from either root."""
    fdp = descriptor_pb2.FileDescriptorProto(name="recspec_nanover_wire_mirror.proto", package=_PACKAGE,
                                             syntax="proto2")
    done: set[tuple[str, int]] = set()
    todo = [(root, 1) for root in _ROOT.values()]
    while todo:
        name, message_depth = todo.pop()
        if (name, message_depth) in done:
            continue
        done.add((name, message_depth))
        message = fdp.message_type.add(name=_type_name(name, message_depth))
        by_number: dict[int, tuple[str, int, str | None]] = {}
        for tag, (field_name, handler, sub, _) in SCHEMAS[name].items():
            # of the two tags of one number (packed 0x0a and unpacked), the mirror declares the packed one
            if tag & 7 == 2 or (tag >> 3) not in by_number:
                by_number[tag >> 3] = (field_name, handler, sub)
        for number, (field_name, handler, sub) in sorted(by_number.items()):
            if handler == MESSAGE and message_depth >= MIRROR_MESSAGE_DEPTH:
                continue  # not declared: an unknown field, so no round trip
            ftype, label, packed = _DECLARED[handler]
            field = message.field.add(name=field_name, number=number, type=ftype, label=label)
            if packed:
                field.options.packed = True
            if handler == MESSAGE:
                assert sub is not None
                field.type_name = f".{_PACKAGE}.{_type_name(sub, message_depth + 1)}"
                todo.append((sub, message_depth + 1))
    return fdp


@cache
def mirror_class(kind: str) -> type[Message]:
    """The mirror message class of a ``kind`` (``traj``/``state``) payload's root, built on first use."""
    pool = _pool()
    root = pool.FindMessageTypeByName(f"{_PACKAGE}.{_type_name(_ROOT[kind], 1)}")
    return message_factory.GetMessageClass(root)


@cache
def _pool() -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()  # its own pool: never clashes with other descriptors
    pool.Add(_mirror_file())
    return pool


_PARSE: dict[str, Callable[[bytes], Message]] = {"traj": parse_frame, "state": parse_state_update}


def _proved(payload: bytes, kind: str) -> Message | Literal[False] | None:
    """:func:`wire_verdict`, with the mirror message in place of ``True``."""
    if len(payload) >= CLEAN_MAX_PAYLOAD:
        return None
    mirror = mirror_class(kind)()
    try:
        mirror.ParseFromString(payload)
    except PbDecodeError:
        return None
    if len(UnknownFieldSet(mirror)):
        return False
    mirror.DiscardUnknownFields()
    return mirror if mirror.SerializeToString() == payload else None


def wire_verdict(payload: bytes, kind: str) -> bool | None:
    """What the mirror proves of ``scan(payload, 0, len(payload), kind)``: ``True``, that it
    raises nothing and lists no unknown and no unpacked field; ``False``, that it raises or
    lists an unknown field (the payload's root message has one); ``None``: nothing (run the walk).

    Only the wire: unlike :func:`parse_clean`, the payload's strings are not checked as UTF-8
    and no message is built. Payloads of :data:`CLEAN_MAX_PAYLOAD` bytes or more are never
    proved (the walk counts their values against MAX_VALUES)."""
    proof = _proved(payload, kind)
    return proof if proof is None or proof is False else True


def parse_clean(payload: bytes, kind: str) -> Message | None:
    """The payload's message (``GetFrameResponse``/``StateUpdate``) when the wire walk
    provably has nothing to say about it (:func:`wire_verdict`); ``None`` when it may have
    (run the walk), or when the real parse rejects the payload."""
    clean = parse_clean_in_order(payload, kind)
    return None if clean is None else clean[0]


def parse_clean_in_order(payload: bytes, kind: str) -> tuple[Message, tuple[str, ...] | None] | None:
    """:func:`parse_clean`'s message and what ``wire_details(payload, kind)`` says of a payload so
    proved, read from the mirror instead of a walk of the bytes in Python: the map entries in wire
    order (no array written unpacked: the mirror's arrays are packed).

    The mirror's encoder writes a message's fields in field-number order, so a proved payload holds
    them so: a frame's ``values`` entries (field 1) before its ``arrays`` entries (field 2), and the
    mirror's repeated fields keep each one's entries in wire order; an entry's key is its last key
    field (``key`` is declared repeated), the empty key when it has none."""
    proof = _proved(payload, kind)
    if proof is None or proof is False:
        return None
    try:
        msg = _PARSE[kind](payload)
    except DecodeError:  # the real parse's Malformed: the walk decides
        return None
    return msg, _wire_order(proof, kind)


def _wire_order(mirror: Message, kind: str) -> tuple[str, ...] | None:
    """``wire_details(payload, kind)[0]`` of a proved payload, from its mirror message."""
    outer: Any = mirror.frame if kind == "traj" else mirror.changed_keys  # type: ignore[attr-defined]
    if len(outer) != 1:
        return None if outer else ()
    inner = outer[0]
    if kind == "traj":
        order = [*map(_VALUES.__add__, _keys(inner.values)), *map(_ARRAYS.__add__, _keys(inner.arrays))]
    else:
        order = list(_keys(inner.fields))
    return tuple(order) if len(set(order)) == len(order) else None


_VALUES, _ARRAYS = "values/", "arrays/"
_KEY = attrgetter("key")
_LAST = itemgetter(slice(-1, None))
_TEXT = methodcaller("decode", "utf-8", "surrogateescape")


def _keys(entries: Any) -> Iterator[str]:
    """Each map entry's key as ``wire_details`` reads it: its last key field, the empty key when it has
    none. Built-in calls one after another (no Python code per entry, which a fuzzing campaign's
    coverage instrumentation would make a hook call per branch)."""
    return map(_TEXT, map(b"".join, map(_LAST, map(_KEY, entries))))
