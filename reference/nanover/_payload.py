"""Payloads through the protobuf messages of ``proto/recspec_nanover.proto``.

``parse_frame`` / ``parse_state_update`` read bytes with the protobuf runtime
(upb) into the generated messages; ``frame_from_message`` /
``state_update_from_message`` turn those into the model, and ``frame_message``
/ ``state_update_message`` back. ``encode_frame`` / ``encode_state_update``
serialize the way NanoVer's writers do: oneof members are written even when
empty (``ValueArray`` ``0a 00``), ``false`` is written explicitly (``20 00``),
a null as ``08 00``, and the frame field is always present (a reset frame is
``12 00``: index 0 is left out, as proto3 does). Map entries are written in
key order (``deterministic=True``), which makes the encoder's own output
canonical. Other writers' order is not: ``wire_order`` reads the order of a
payload's map entries, which the decoder keeps in ``Frame.order`` /
``StateUpdate.order`` when it is not the canonical one (and ``Frame.unpacked``,
the arrays whose numbers are a field each), and the encoder writes a message
with either entry by entry in that order (each entry as upb writes it, an
unpacked array by hand), so those payloads round-trip byte for byte too.
"""

from __future__ import annotations

import struct
from typing import Any, TypeVar

from google.protobuf import struct_pb2
from google.protobuf.message import DecodeError as PbDecodeError
from google.protobuf.message import Message

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import DecodeError, EncodeError, Malformed

from ._model import UNSET, Array, ArrayKind, Frame, StateUpdate
from ._wire import encode_varint, read_varint

__all__ = [
    "canonical_frame_order",
    "canonical_keys",
    "encode_frame",
    "encode_state_update",
    "frame_from_message",
    "frame_message",
    "parse_frame",
    "parse_state_update",
    "state_update_from_message",
    "state_update_message",
    "value_from_message",
    "wire_details",
    "wire_order",
]

_ARRAY_FIELD = {ArrayKind.FLOAT: "float_values", ArrayKind.INDEX: "index_values", ArrayKind.STRING: "string_values"}
_ARRAY_KIND = {v: k for k, v in _ARRAY_FIELD.items()}
_M = TypeVar("_M", bound=Message)


def _parse(cls: type[_M], data: bytes | memoryview, offset: int, path: str) -> _M:
    msg = cls()
    try:
        msg.ParseFromString(data)  # type: ignore[arg-type]  # upb reads any buffer; the stubs say bytes
    except PbDecodeError as e:
        raise Malformed(f"not a {cls.DESCRIPTOR.name}: {e}", offset, path, rule="NANOVER-PROTO-001") from None
    return msg


def parse_frame(data: bytes | memoryview, offset: int = 0, path: str = "") -> pb.GetFrameResponse:
    """A ``GetFrameResponse`` from payload bytes; :class:`Malformed` if upb rejects them."""
    return _parse(pb.GetFrameResponse, data, offset, path)


def parse_state_update(data: bytes | memoryview, offset: int = 0, path: str = "") -> pb.StateUpdate:
    return _parse(pb.StateUpdate, data, offset, path)


# --- message -> model -----------------------------------------------------------------


def value_from_message(v: struct_pb2.Value) -> Any:
    kind = v.WhichOneof("kind")
    if kind is None:
        return UNSET
    if kind == "null_value":
        return None
    if kind == "number_value":
        return v.number_value
    if kind == "string_value":
        return v.string_value
    if kind == "bool_value":
        return v.bool_value
    if kind == "struct_value":
        fields = v.struct_value.fields
        return {k: value_from_message(fields[k]) for k in canonical_keys(fields)}
    return [value_from_message(x) for x in v.list_value.values]


def _array_from_message(a: pb.ValueArray) -> Array:
    member = a.WhichOneof("values")
    if member is None:
        return Array(None, ())
    return Array(_ARRAY_KIND[member], tuple(getattr(a, member).values))


# A map read from upb is taken in the encoder's key order (canonical_keys), never in upb's iteration order: upb
# seeds its hash tables from a memory address, so the same map iterates in another order in another process
# (ASLR), and a case's key order decides which difference drive reports first and what its JSON says.


def frame_from_message(msg: pb.GetFrameResponse) -> Frame:
    f = msg.frame
    return Frame(msg.frame_index,
                 {k: value_from_message(f.values[k]) for k in canonical_keys(f.values)},
                 {k: _array_from_message(f.arrays[k]) for k in canonical_keys(f.arrays)})


def state_update_from_message(msg: pb.StateUpdate) -> StateUpdate:
    fields = msg.changed_keys.fields
    return StateUpdate({k: value_from_message(fields[k]) for k in canonical_keys(fields)})


# --- model -> message -----------------------------------------------------------------


def _set_value(target: struct_pb2.Value, value: Any) -> None:
    if value is UNSET:
        target.Clear()
    elif value is None:
        target.null_value = struct_pb2.NULL_VALUE
    elif isinstance(value, bool):  # before numbers: bool is an int
        target.bool_value = value
    elif isinstance(value, (int, float)):
        target.number_value = float(value)
    elif isinstance(value, str):
        target.string_value = value
    elif isinstance(value, dict):
        fields = target.struct_value.fields  # touching it selects the member, even when empty
        target.struct_value.SetInParent()
        for k, v in value.items():
            _set_value(fields[k], v)
    elif isinstance(value, (list, tuple)):
        target.list_value.SetInParent()
        for v in value:
            _set_value(target.list_value.values.add(), v)
    else:
        raise EncodeError(f"not a google.protobuf.Value: {value!r}")


def frame_message(frame: Frame) -> pb.GetFrameResponse:
    msg = pb.GetFrameResponse(frame_index=frame.frame_index)
    msg.frame.SetInParent()
    values, arrays = msg.frame.values, msg.frame.arrays
    for k, v in frame.values.items():
        _set_value(values[k], v)
    for k, a in frame.arrays.items():
        target = arrays[k]
        if a.kind is not None:
            member = getattr(target, _ARRAY_FIELD[a.kind])
            member.SetInParent()  # written even when empty: 0a 00
            member.values.extend(a.values)
    return msg


def state_update_message(update: StateUpdate) -> pb.StateUpdate:
    msg = pb.StateUpdate()
    msg.changed_keys.SetInParent()
    fields = msg.changed_keys.fields
    for k, v in update.changes.items():
        _set_value(fields[k], v)
    return msg


def encode_frame(frame: Frame) -> bytes:
    if frame.order is not None or frame.unpacked:
        return _encode_frame_in_order(frame, frame.order or canonical_frame_order(frame), frame.unpacked or ())
    return frame_message(frame).SerializeToString(deterministic=True)


def encode_state_update(update: StateUpdate) -> bytes:
    if update.order is not None:
        return _encode_update_in_order(update, update.order)
    return state_update_message(update).SerializeToString(deterministic=True)



# --- the order of map entries on the wire -------------------------------------------------------


def _fields(buf: bytes | memoryview, start: int, end: int) -> list[tuple[int, int, int, int]]:
    """(field number, wire type, start, end) of each field in ``buf[start:end]``; for a length-delimited
    field start .. end is its contents."""
    out = []
    pos = start
    while pos < end:
        tag, pos = read_varint(buf, pos, end)
        wire, at = tag & 7, pos
        if wire == 0:
            _, pos = read_varint(buf, pos, end)
        elif wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        elif wire == 2:
            n, at = read_varint(buf, pos, end)
            pos = at + n
        else:
            raise ValueError("a group or an unknown wire type")
        out.append((tag >> 3, wire, at, pos))
    if pos != end:
        raise ValueError("a field runs past its message")
    return out


def _entry_key(buf: bytes | memoryview, start: int, end: int) -> str:
    key = ""  # a map entry without its key field has the empty key
    for number, wire, a, b in _fields(buf, start, end):
        if number == 1 and wire == 2:
            key = bytes(buf[a:b]).decode("utf-8", "surrogateescape")
    return key


def _is_unpacked(buf: bytes | memoryview, start: int, end: int) -> bool:
    """Whether an arrays entry's float or index member holds its numbers a field each (all of them)."""
    wires = [w for n, w, a, b in _fields(buf, start, end) if n == 2 and w == 2
             for m, _, x, y in _fields(buf, a, b) if m in (1, 2)
             for k, w, _, _ in _fields(buf, x, y) if k == 1]
    return bool(wires) and all(w != 2 for w in wires)


def wire_details(payload: bytes | memoryview, kind: str) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """How a ``kind`` (``traj``/``state``) payload was written, where the encoder may write it otherwise:
    its map entries in wire order (``values/KEY`` and ``arrays/KEY`` for a frame, the changed keys for a
    state update), None when the order cannot be said (an entry repeated, the map message in pieces, a
    field that does not parse); and the keys of a frame's arrays written unpacked."""
    try:
        outer = [f for f in _fields(payload, 0, len(payload)) if f[0] == (2 if kind == "traj" else 1) and f[1] == 2]
        if len(outer) != 1:
            return ((), ()) if not outer else (None, ())
        _, _, a, b = outer[0]
        maps = {1: "values/", 2: "arrays/"} if kind == "traj" else {1: ""}
        entries = [(maps[n], x, y) for n, w, x, y in _fields(payload, a, b) if n in maps and w == 2]
        order = [where + _entry_key(payload, x, y) for where, x, y in entries]
        # a key written twice holds what its last entry holds (protobuf's rule for a map), so that entry
        # alone says whether the array was written unpacked; each key is named once
        last = {k: (x, y) for (where, x, y), k in zip(entries, order, strict=True) if where == "arrays/"}
        unpacked = tuple(k.removeprefix("arrays/") for k, (x, y) in last.items() if _is_unpacked(payload, x, y))
    except (ValueError, IndexError, DecodeError):
        return None, ()
    return (tuple(order) if len(set(order)) == len(order) else None), unpacked


def wire_order(payload: bytes | memoryview, kind: str) -> tuple[str, ...] | None:
    """The map entries of a payload in wire order (see :func:`wire_details`)."""
    return wire_details(payload, kind)[0]


def _upb_key(key: str) -> list[int]:
    # upb's deterministic order compares the UTF-8 bytes over the shorter length, and where those are equal
    # puts the longer key first ("ab" before "a", the empty key last): a byte list ending in 256 sorts so
    return [*key.encode("utf-8", "surrogateescape"), 256]


def canonical_keys(keys: Any) -> list[str]:
    """Map keys in the order the encoder (upb, deterministic) writes them."""
    return sorted(keys, key=_upb_key)


def canonical_frame_order(frame: Frame) -> tuple[str, ...]:
    """The order the encoder writes a frame's entries in when it has no ``order``."""
    return (*(f"values/{k}" for k in canonical_keys(frame.values)),
            *(f"arrays/{k}" for k in canonical_keys(frame.arrays)))


def _length_delimited(number: int, body: bytes) -> bytes:
    return _tag(number, 2) + encode_varint(len(body)) + body


def _tag(number: int, wire: int) -> bytes:
    return bytes((number << 3 | wire,))  # field numbers 1 and 2 only


def _unpacked_entry(key: str, a: Array) -> bytes:
    """An arrays map entry whose numbers are a field each (tag 0x0d and 4 bytes a float, 0x08 and a varint
    an index), key and value written as upb writes a map entry."""
    if a.kind is ArrayKind.FLOAT:
        member, numbers = 1, b"".join(b"\x0d" + struct.pack("<f", x) for x in a.values)
    elif a.kind is ArrayKind.INDEX:
        member, numbers = 2, b"".join(b"\x08" + encode_varint(x) for x in a.values)
    else:
        raise EncodeError(f"array {key!r}: only float and index arrays have numbers to write unpacked")
    entry = _length_delimited(1, key.encode("utf-8", "surrogateescape")) + _length_delimited(
        2, _length_delimited(member, numbers))
    return _length_delimited(2, entry)


def _encode_frame_in_order(frame: Frame, order: tuple[str, ...], unpacked: tuple[str, ...]) -> bytes:
    if sorted(order) != sorted(canonical_frame_order(frame)):
        raise EncodeError("a frame's order must name each of its values/KEY and arrays/KEY entries once")
    if not set(unpacked) <= set(frame.arrays):
        raise EncodeError("a frame's unpacked arrays must be among its arrays")
    body = []
    for name in order:
        where, _, key = name.partition("/")
        if where == "arrays" and key in unpacked:
            body.append(_unpacked_entry(key, frame.arrays[key]))
            continue
        one = Frame(0, {key: frame.values[key]}) if where == "values" else Frame(0, {}, {key: frame.arrays[key]})
        body.append(frame_message(one).frame.SerializeToString(deterministic=True))
    head = pb.GetFrameResponse(frame_index=frame.frame_index).SerializeToString(deterministic=True)
    return head + _length_delimited(2, b"".join(body))


def _encode_update_in_order(update: StateUpdate, order: tuple[str, ...]) -> bytes:
    if sorted(order) != sorted(update.changes):
        raise EncodeError("a state update's order must name each of its keys once")
    body = b"".join(state_update_message(StateUpdate({k: update.changes[k]})).changed_keys.SerializeToString(
        deterministic=True) for k in order)
    return _length_delimited(1, body)
