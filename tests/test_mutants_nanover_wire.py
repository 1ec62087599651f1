"""The NanoVer wire walk (reference/nanover/_wire.py) against the protobuf wire format and
NanoVer's schema (proto/recspec_nanover.proto; docs/formats/nanover.md): payloads serialised by
the protobuf runtime walk with no unknown field, a known field number with another wire type is
unknown, the tags and lengths the wire format rejects are located, and varints are base-128 with
at most 10 bytes. Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import struct

import pytest
from build_nanover import nested_structs
from google.protobuf import struct_pb2

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import LimitExceeded, Malformed, Truncated
from recspec.reference.nanover._wire import MAX_NESTING, UnknownField, encode_varint, read_varint, scan


def _every_field() -> bytes:
    msg = pb.GetFrameResponse(frame_index=300)
    fr = msg.frame
    v = fr.values
    v["n"].number_value = 1.5
    v["s"].string_value = "x"
    v["b"].bool_value = True
    v["z"].null_value = struct_pb2.NULL_VALUE
    v["st"].struct_value.fields["k"].number_value = 2.0
    v["l"].list_value.values.add().string_value = "y"
    fr.arrays["f"].float_values.values.extend([1.0, 2.0])
    fr.arrays["i"].index_values.values.extend([1, 300])
    fr.arrays["t"].string_values.values.extend(["a", "b"])
    return msg.SerializeToString()


def test_a_payload_of_every_field_has_nothing_unknown() -> None:
    payload = _every_field()
    s = scan(payload, 0, len(payload), "traj")
    assert (s.unknown, s.unpacked, s.top_fields) == ([], [], 2)  # frame_index and frame
    # map entries (values and arrays of FrameData, fields of a Struct) and list elements
    assert s.values == 6 + 3 + 1 + 1


def test_a_state_update_has_one_root_field() -> None:
    msg = pb.StateUpdate()
    msg.changed_keys.fields["a"].list_value.values.add().struct_value.fields["b"].bool_value = False
    payload = msg.SerializeToString()
    s = scan(payload, 0, len(payload), "state")
    assert (s.unknown, s.top_fields, s.values) == ([], 1, 3)


@pytest.mark.parametrize("tag, message, number, wire_type", [
    (0x10, "GetFrameResponse", 2, 0),  # frame (field 2) as a varint
    (0x0D, "GetFrameResponse", 1, 5),  # frame_index (field 1) as a fixed32
    (0x18, "GetFrameResponse", 3, 0),  # no field 3
])
def test_a_known_number_with_another_wire_type_is_unknown(tag: int, message: str, number: int,
                                                          wire_type: int) -> None:
    body = {0: b"\x01", 5: b"\x00\x00\x00\x00"}[wire_type]
    payload = b"\x08\x01" + bytes([tag]) + body
    s = scan(payload, 0, len(payload), "traj", base=100)
    assert s.unknown == [UnknownField(message, number, wire_type, 102)] and s.top_fields == 1


def test_unpacked_repeated_scalars_are_noted_at_their_first_element() -> None:
    # FloatArray.values as fixed32 fields (0x0D), IndexArray.values as varints (0x08), inside
    # FrameData.arrays["a"] (ArrayEntry key 0x0A, value 0x12) and ["b"]
    floats = b"\x0d" + struct.pack("<f", 1.0) + b"\x0d" + struct.pack("<f", 2.0)
    ints = b"\x08\x01\x08\x02"
    def entry(key: bytes, member: int, inner: bytes) -> bytes:
        array = bytes([member, len(inner)]) + inner
        body = b"\x0a" + bytes([len(key)]) + key + b"\x12" + bytes([len(array)]) + array
        return b"\x12" + bytes([len(body)]) + body
    frame = entry(b"a", 0x0A, floats) + entry(b"b", 0x12, ints)
    payload = b"\x12" + bytes([len(frame)]) + frame
    s = scan(payload, 0, len(payload), "traj")
    # the first float field: 2 (frame) + 2 (entry) + 3 (key) + 2 (value) + 2 (float_values) bytes in; the
    # first entry is 2 + 3 + 2 + 2 + 10 bytes long, the first index field as far into the second
    assert s.unpacked == [("FloatArray", 11), ("IndexArray", 2 + 19 + 2 + 3 + 2 + 2)]
    assert s.unknown == []


@pytest.mark.parametrize("tag, rule, why", [
    (b"\x00", "NANOVER-PROTO-001", "field number 0"),
    (b"\x0b", "NANOVER-PROTO-006", "groups"),  # field 1, wire type 3
    (b"\x0c", "NANOVER-PROTO-006", "groups"),  # field 1, wire type 4
    (b"\x0e", "NANOVER-PROTO-001", "undefined wire type 6"),
    (b"\x0f", "NANOVER-PROTO-001", "undefined wire type 7"),
    (b"\x80\x80\x80\x80\x10", "NANOVER-PROTO-001", "tag above 2^32"),  # 2^32: field 2^29, wire type 0
])
def test_bad_tags_are_located(tag: bytes, rule: str, why: str) -> None:
    payload = b"\x08\x01" + tag + b"\x01"
    with pytest.raises(Malformed) as e:
        scan(payload, 0, len(payload), "traj", base=40)
    assert (e.value.rule, e.value.offset) == (rule, 42) and why in e.value.message


def test_the_largest_tag_is_read() -> None:
    # 0xFFFFFFFF: field number 2^29 - 1, wire type 7: undefined, but not above 2^32
    payload = b"\xff\xff\xff\xff\x0f"
    with pytest.raises(Malformed) as e:
        scan(payload, 0, len(payload), "traj")
    assert "undefined wire type 7" in e.value.message


@pytest.mark.parametrize("tag, size", [(0x11, 8), (0x0D, 4)])  # Value.number_value: fixed64; a fixed32
def test_a_fixed_field_cut_off(tag: int, size: int) -> None:
    value = bytes([tag]) + bytes(size - 1)  # one byte short
    if tag == 0x11:  # StateUpdate.changed_keys (Struct) > fields (entry: key "a", value) > Value
        entry = b"\x0a\x01a\x12" + bytes([len(value)]) + value
        struct_ = b"\x0a" + bytes([len(entry)]) + entry
        payload = b"\x0a" + bytes([len(struct_)]) + struct_
    else:  # a fixed32 field 1 of GetFrameResponse (unknown: frame_index is a varint) at the end
        payload = b"\x08\x01" + value
    with pytest.raises(Truncated) as e:
        scan(payload, 0, len(payload), "state" if tag == 0x11 else "traj")
    assert (e.value.needed, e.value.available) == (size, size - 1)
    assert e.value.offset == len(payload) - (size - 1)


def test_a_packed_float_run_is_whole_floats() -> None:
    def payload(n: int) -> bytes:
        run = b"\x0a" + bytes([n]) + bytes(n)
        array = b"\x0a" + bytes([len(run)]) + run
        body = b"\x0a\x01a\x12" + bytes([len(array)]) + array
        frame = b"\x12" + bytes([len(body)]) + body
        return b"\x12" + bytes([len(frame)]) + frame
    assert scan(payload(8), 0, len(payload(8)), "traj").unknown == []
    bad = payload(6)
    with pytest.raises(Malformed) as e:
        scan(bad, 0, len(bad), "traj")
    assert "multiple of 4" in e.value.message and e.value.offset == len(bad) - 8  # at the run's tag


def test_a_length_past_the_message_end() -> None:
    payload = b"\x12\x05\x0a\x00"  # frame of 5 bytes, 2 there
    with pytest.raises(Malformed) as e:
        scan(payload, 0, len(payload), "traj")
    assert e.value.offset == 0 and "(2 bytes left)" in e.value.message


def _nested_structs(depth: int) -> bytes:
    return nested_structs(depth, struct_pb2.Value(number_value=1.0))


def test_structs_nest_to_the_limit() -> None:
    ok = _nested_structs(MAX_NESTING - 1)  # changed_keys is a Struct too: MAX_NESTING in all
    assert scan(ok, 0, len(ok), "state").unknown == []
    deep = _nested_structs(MAX_NESTING)
    with pytest.raises(LimitExceeded) as e:
        scan(deep, 0, len(deep), "state")
    assert e.value.rule == "NANOVER-LIMIT-002"


@pytest.mark.parametrize("n, encoded", [(0, b"\x00"), (1, b"\x01"), (127, b"\x7f"), (128, b"\x80\x01"),
                                        (300, b"\xac\x02"), (2**64 - 1, b"\xff" * 9 + b"\x01")])
def test_varints_are_base_128_least_significant_first(n: int, encoded: bytes) -> None:
    assert encode_varint(n) == encoded
    assert read_varint(encoded + b"\x00", 0, len(encoded) + 1) == (n, len(encoded))


def test_a_varint_is_at_most_ten_bytes() -> None:
    assert read_varint(b"\xff" * 9 + b"\x01", 0, 10) == (2**64 - 1, 10)
    with pytest.raises(Malformed):
        read_varint(b"\xff" * 10 + b"\x01", 0, 11, base=7)
    with pytest.raises(Truncated) as e:
        read_varint(b"\x00\xff\xff", 1, 3, base=7)
    assert e.value.offset == 8 and "after 2 byte(s)" in e.value.message


def _frame_with_nested_structs(depth: int) -> bytes:
    v = struct_pb2.Value(number_value=1.0)
    for _ in range(depth):
        outer = struct_pb2.Value()
        outer.struct_value.fields["k"].CopyFrom(v)
        v = outer
    msg = pb.GetFrameResponse(frame_index=1)
    msg.frame.values["a"].CopyFrom(v)
    return msg.SerializeToString()


def test_structs_in_a_frame_nest_to_the_same_limit() -> None:
    # the frame, its values map and the Value add no level: only each Struct (or ListValue) entered
    ok = _frame_with_nested_structs(MAX_NESTING - 1)
    assert scan(ok, 0, len(ok), "traj").unknown == []
    deep = _frame_with_nested_structs(MAX_NESTING)
    with pytest.raises(LimitExceeded) as e:
        scan(deep, 0, len(deep), "traj")
    assert e.value.rule == "NANOVER-LIMIT-002"
