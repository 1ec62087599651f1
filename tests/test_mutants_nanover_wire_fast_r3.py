"""The wire order a proved payload decodes with (reference/nanover/_wire_fast.py, read from the mirror
in place of a walk of the bytes): map entries in the order they lie on the wire, and a map entry whose
key field is written twice named by its last key field (protobuf's rule for a repeated singular field:
the last one wins, as the protobuf runtime's own parse shows). The entries are serialised one by one by
the protobuf runtime and joined by hand (a frame's field 2, a Struct's field 1, each entry a field 1 or
2 of its map). Written against the survivors tools/mutate.py found in a fresh sample of the module."""

from __future__ import annotations

from google.protobuf import struct_pb2

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.reference.nanover import Kind, decode_payload, encode_payload, encode_varint
from recspec.reference.nanover._payload import wire_details


def _field(number: int, body: bytes) -> bytes:
    return bytes((number << 3 | 2,)) + encode_varint(len(body)) + body


def _value_entry(key: str, x: float) -> bytes:
    """A map entry's contents: key (field 1), then the Value (field 2), as the runtime writes them."""
    one = pb.FrameData()
    one.values[key].number_value = x
    data = one.SerializeToString()
    assert data[0] == 0x0A and data[1] == len(data) - 2  # FrameData.values (field 1), one short entry
    return data[2:]


def _frame(index: int, entries: list[bytes]) -> bytes:
    return b"\x08" + encode_varint(index) + _field(2, b"".join(_field(1, e) for e in entries))


def test_a_frame_decodes_with_its_entries_wire_order_and_encodes_to_itself() -> None:
    payload = _frame(5, [_value_entry("b", 1.0), _value_entry("a", 2.0), _value_entry("c", 3.0)])
    frame = decode_payload(Kind.TRAJ, payload)
    assert frame.order == ("values/b", "values/a", "values/c")
    assert wire_details(payload, "traj")[0] == frame.order
    assert encode_payload(frame) == payload


def test_a_state_update_decodes_with_its_keys_wire_order_and_encodes_to_itself() -> None:
    entries = []
    for key in ("z", "y"):
        s = struct_pb2.Struct()
        s.fields[key].string_value = key * 3
        entries.append(s.SerializeToString()[2:])  # the Struct's one entry: 0a LEN, then its contents
    payload = _field(1, b"".join(_field(1, e) for e in entries))
    update = decode_payload(Kind.STATE, payload)
    assert update.order == ("z", "y")
    assert encode_payload(update) == payload


def test_an_entry_whose_key_field_is_written_twice_is_named_by_the_last() -> None:
    # "b"'s entry starts with an extra key field "x": the runtime's map holds b and a, not x or xb
    twice = _field(1, b"x") + _value_entry("b", 1.0)
    payload = _frame(5, [twice, _value_entry("a", 2.0)])
    msg = pb.GetFrameResponse()
    msg.ParseFromString(payload)
    assert sorted(msg.frame.values) == ["a", "b"]
    frame = decode_payload(Kind.TRAJ, payload)
    assert sorted(frame.values) == ["a", "b"]
    assert frame.order == ("values/b", "values/a")
