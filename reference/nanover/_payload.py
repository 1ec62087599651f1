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
canonical; other writers' map order is not, so round trips compare messages.
"""

from __future__ import annotations

from typing import Any, TypeVar

from google.protobuf import struct_pb2
from google.protobuf.message import DecodeError as PbDecodeError
from google.protobuf.message import Message

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import EncodeError, Malformed

from ._model import UNSET, Array, ArrayKind, Frame, StateUpdate

__all__ = [
    "encode_frame",
    "encode_state_update",
    "frame_from_message",
    "frame_message",
    "parse_frame",
    "parse_state_update",
    "state_update_from_message",
    "state_update_message",
    "value_from_message",
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
        return {k: value_from_message(x) for k, x in v.struct_value.fields.items()}
    return [value_from_message(x) for x in v.list_value.values]


def _array_from_message(a: pb.ValueArray) -> Array:
    member = a.WhichOneof("values")
    if member is None:
        return Array(None, ())
    return Array(_ARRAY_KIND[member], tuple(getattr(a, member).values))


def frame_from_message(msg: pb.GetFrameResponse) -> Frame:
    f = msg.frame
    return Frame(msg.frame_index,
                 {k: value_from_message(v) for k, v in f.values.items()},
                 {k: _array_from_message(a) for k, a in f.arrays.items()})


def state_update_from_message(msg: pb.StateUpdate) -> StateUpdate:
    return StateUpdate({k: value_from_message(v) for k, v in msg.changed_keys.fields.items()})


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
    return frame_message(frame).SerializeToString(deterministic=True)


def encode_state_update(update: StateUpdate) -> bytes:
    return state_update_message(update).SerializeToString(deterministic=True)

