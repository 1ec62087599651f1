"""NanoVer recordings put together for the tests: messages with the protobuf runtime (not recspec's encoder),
fields and framing by hand from docs/formats/nanover.md (a 16-byte header: u64 magic, u64 version 2; records
of a u128 timestamp, a u64 length and the payload). ``kaitai_reading`` and ``cross_check_evidence`` read a
recording through the cross-check, for the tests of it."""

from __future__ import annotations

import io
import struct
from typing import Any

from google.protobuf import struct_pb2

import recspec
from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance.nanover._xcheck import kaitai_records
from recspec.reference.nanover import Kind

HEADER = struct.pack("<QQ", 0x5C71E3C49989B7E3, 2)


def record(timestamp_us: int, payload: bytes) -> bytes:
    """A record: the u128 timestamp (low, high u64), the payload's u64 length, the payload."""
    return struct.pack("<QQQ", timestamp_us & (2**64 - 1), timestamp_us >> 64, len(payload)) + payload


def frame_response(index: int, **values: Any) -> bytes:
    """A GetFrameResponse of frame ``index`` with text (``str``) or number values."""
    msg = pb.GetFrameResponse(frame_index=index)
    for key, value in values.items():
        if isinstance(value, str):
            msg.frame.values[key].string_value = value
        else:
            msg.frame.values[key].number_value = value
    return msg.SerializeToString()


def trajectory(*payloads: bytes) -> bytes:
    """A .traj recording of ``payloads``, timestamps 1000, 2000, ..."""
    return HEADER + b"".join(record(1000 * (i + 1), p) for i, p in enumerate(payloads))


def tag(number: int, wire_type: int) -> bytes:
    """A one-byte field tag (``number`` below 16)."""
    return bytes([number << 3 | wire_type])


def ld(number: int, body: bytes) -> bytes:
    """A length-delimited field (wire type 2) of fewer than 128 bytes: tag, one-byte length, body."""
    assert len(body) < 128
    return tag(number, 2) + bytes([len(body)]) + body


def varint(value: int) -> bytes:
    """``value`` (non-negative) as a protobuf varint: 7 bits a byte, low groups first."""
    out = b""
    while value > 0x7F:
        out += bytes([value & 0x7F | 0x80])
        value >>= 7
    return out + bytes([value])


def set_value(v: struct_pb2.Value, x: Any) -> None:
    """Put ``x`` in ``v``: None a null, a bool, a float a number, a str, a dict a Struct, else a list."""
    if x is None:
        v.null_value = struct_pb2.NULL_VALUE
    elif isinstance(x, bool):
        v.bool_value = x
    elif isinstance(x, float):
        v.number_value = x
    elif isinstance(x, str):
        v.string_value = x
    elif isinstance(x, dict):
        v.struct_value.SetInParent()
        for k, y in x.items():
            set_value(v.struct_value.fields[k], y)
    else:
        v.list_value.SetInParent()
        for y in x:
            set_value(v.list_value.values.add(), y)


def update(changes: dict[str, Any]) -> bytes:
    """A StateUpdate payload as the runtime writes it (deterministic: keys in order)."""
    msg = pb.StateUpdate()
    msg.changed_keys.SetInParent()
    for k, x in changes.items():
        set_value(msg.changed_keys.fields[k], x)
    return msg.SerializeToString(deterministic=True)


def entry(key: str, x: Any) -> bytes:
    """One Struct map entry (key field 1, Value field 2) as the runtime writes it."""
    s = struct_pb2.Struct()
    set_value(s.fields[key], x)
    data = s.SerializeToString()
    assert data[0] == 0x0A and data[1] < 0x80
    return data[2:]


def file_of(payloads: list[bytes]) -> bytes:
    """A .state recording of ``payloads``, a record every 33,333 us from 1 s."""
    return HEADER + b"".join(record(10**6 + 33_333 * i, p) for i, p in enumerate(payloads))


def frame_entries(msg: pb.GetFrameResponse) -> list[bytes]:
    """Each map entry of a frame as the runtime writes a FrameData of that entry alone, values then
    arrays, each map's keys sorted."""
    out = []
    for k in sorted(msg.frame.values):
        one = pb.FrameData()
        one.values[k].CopyFrom(msg.frame.values[k])
        out.append(one.SerializeToString())
    for k in sorted(msg.frame.arrays):
        one = pb.FrameData()
        one.arrays[k].CopyFrom(msg.frame.arrays[k])
        out.append(one.SerializeToString())
    return out


def sample_frame() -> pb.GetFrameResponse:
    """A frame of each kind of value and array, its keys out of order."""
    msg = pb.GetFrameResponse(frame_index=7)
    msg.frame.values["b.name"].string_value = "water"
    msg.frame.values["a.count"].number_value = 3.0
    msg.frame.arrays["z.positions"].float_values.values.extend([1.5, -2.25, 0.1])
    msg.frame.arrays["c.bonds"].index_values.values.extend([0, 1, 300])
    msg.frame.arrays["m.names"].string_values.values.extend(["O", "H"])
    return msg


#: a FrameData.arrays entry "pos" whose floats are a field each (tag 0x0d and a little-endian f32)
FLOATS = [1.5, -2.25, 3e-8]
F_ENTRY = ld(1, b"pos") + ld(2, ld(1, b"".join(b"\x0d" + struct.pack("<f", x) for x in FLOATS)))


def unpacked_payload() -> tuple[bytes, pb.GetFrameResponse]:
    """A frame whose arrays' numbers are a field each, and the message the runtime reads from it."""
    floats = FLOATS
    indexes = [0, 1, 300]
    f_entry = F_ENTRY
    i_entry = ld(1, b"bonds") + ld(2, ld(2, b"\x08\x00\x08\x01\x08\xac\x02"))  # 300 = ac 02
    payload = b"\x08\x02" + ld(2, ld(2, f_entry) + ld(2, i_entry))
    want = pb.GetFrameResponse(frame_index=2)
    want.frame.arrays["pos"].float_values.values.extend(floats)
    want.frame.arrays["bonds"].index_values.values.extend(indexes)
    return payload, want


def record_of_size(index: int, size: int) -> bytes:
    """Record ``index`` of a trajectory (one text value) of exactly ``size`` bytes: frame index ``index + 1``,
    or where a length prefix grows a byte at that size, a key a byte longer or another frame index."""
    for frame_index, key in ((index + 1, "note"), (index + 1, "notes"), (0, "note"), (0, "notes"), (1, "note")):
        for n in range(size):
            made = record(1000 * (index + 1), frame_response(frame_index, **{key: "n" * n}))
            if len(made) >= size:
                break
        if len(made) == size:
            return made
    raise AssertionError(size)  # pragma: no cover - no record size above 50 bytes is missed by all five


def traj_of_sizes(sizes: list[int]) -> bytes:
    """A trajectory whose records are ``sizes`` bytes long."""
    data = HEADER + b"".join(record_of_size(i, n) for i, n in enumerate(sizes))
    assert len(data) == len(HEADER) + sum(sizes)
    return data


def traj_of_size(size: int) -> bytes:
    """A trajectory of exactly ``size`` bytes: records of 1,000 bytes, the last two sharing what is left."""
    body = size - len(HEADER)
    whole, rest = divmod(body, 1000)
    sizes = [1000] * (whole - 1) + [(1000 + rest) // 2, 1000 + rest - (1000 + rest) // 2]
    return traj_of_sizes(sizes)


def kaitai_reading(data: bytes, kind: Kind = Kind.TRAJ) -> list[tuple[int, Any]]:
    """The cross-check's Kaitai reading of ``data``: (offset, (timestamp, message)) a record."""
    return list(kaitai_records(io.BytesIO(data), kind))


def cross_check_evidence(data: bytes, kind: str = "traj", cross_check: str = "default") -> str:
    """What a check of ``data`` says of its cross-check (its ``evidence["cross_check"]``)."""
    return recspec.check(data, format="nanover", variant=kind,
                         cross_check=cross_check).evidence["cross_check"]  # type: ignore[arg-type]


def nested_structs(depth: int, leaf: struct_pb2.Value) -> bytes:
    """A StateUpdate whose key ``a`` holds ``depth`` Structs, each one key (``k``) deep, around ``leaf``;
    ``changed_keys`` is a Struct itself, so the nesting is ``depth + 1``."""
    v = leaf
    for _ in range(depth):
        outer = struct_pb2.Value()
        outer.struct_value.fields["k"].CopyFrom(v)
        v = outer
    msg = pb.StateUpdate()
    msg.changed_keys.fields["a"].CopyFrom(v)
    return msg.SerializeToString()
