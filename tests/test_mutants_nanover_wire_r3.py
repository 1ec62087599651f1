"""The NanoVer wire walk (reference/nanover/_wire.py) on tags written overlong and on field number 0.
A tag is a varint (field_number << 3 | wire_type) and a varint may be written with more bytes than it
needs: the protobuf runtime reads ``88 00`` as field 1, a varint (GetFrameResponse.frame_index), and the
walk must too; a length after such a tag that runs past the message is refused as the runtime refuses
it. A tag below 8 is field number 0, which no message may hold, whatever its wire type. Bytes are
written by hand from the wire format and each verdict is held to the protobuf runtime's own parse.
Written against the survivors tools/mutate.py found in a fresh sample of the module."""

from __future__ import annotations

import pytest
from google.protobuf.message import DecodeError as PbDecodeError

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import Malformed
from recspec.reference.nanover import Kind, decode_payload, scan


@pytest.mark.parametrize("tag", [b"\x88\x00", b"\x88\x80\x00", b"\x88\x80\x80\x80\x00"])
def test_an_overlong_frame_index_tag_is_the_frame_index(tag: bytes) -> None:
    payload = tag + b"\x05"
    runtime = pb.GetFrameResponse()
    runtime.ParseFromString(payload)
    assert runtime.frame_index == 5
    s = scan(payload, 0, len(payload), "traj")
    assert (s.unknown, s.unpacked, s.top_fields) == ([], [], 1)
    assert decode_payload(Kind.TRAJ, payload).frame_index == 5


def test_an_overlong_changed_keys_tag_holding_an_entry() -> None:
    # StateUpdate.changed_keys (field 1, length-delimited: 0a written 8a 00), a Struct of one entry: key "k"
    # (0a 01 6b) and a Value holding number 1.0 (12 09 11 + 8 bytes)
    entry = b"\x0a\x01k\x12\x09\x11" + bytes.fromhex("000000000000f03f")  # 1.0, a little-endian double
    struct = b"\x0a" + bytes((len(entry),)) + entry
    payload = b"\x8a\x00" + bytes((len(struct),)) + struct
    runtime = pb.StateUpdate()
    runtime.ParseFromString(payload)
    assert dict(runtime.changed_keys.fields)["k"].number_value == 1.0
    s = scan(payload, 0, len(payload), "state")
    assert (s.unknown, s.top_fields, s.values) == ([], 1, 1)
    assert decode_payload(Kind.STATE, payload).changes == {"k": 1.0}


@pytest.mark.parametrize("kind", ["traj", "state"])
def test_a_length_past_the_end_after_an_overlong_tag(kind: str) -> None:
    # the field's tag (2 bytes, the second 00) then a length of 5 with no byte left: refused at the field
    payload = (b"\x92\x00" if kind == "traj" else b"\x8a\x00") + b"\x05"
    with pytest.raises(PbDecodeError):
        (pb.GetFrameResponse() if kind == "traj" else pb.StateUpdate()).ParseFromString(payload)
    with pytest.raises(Malformed) as e:
        scan(payload, 0, len(payload), kind, 100)
    assert (e.value.rule, e.value.offset) == ("NANOVER-PROTO-001", 100)


@pytest.mark.parametrize("tag", range(8))
def test_field_number_0_is_refused_whatever_its_wire_type(tag: int) -> None:
    payload = b"\x08\x01" + bytes((tag,)) + b"\x00" * 8
    with pytest.raises(PbDecodeError):
        pb.GetFrameResponse().ParseFromString(payload)
    with pytest.raises(Malformed) as e:
        scan(payload, 0, len(payload), "traj", 16)
    assert (e.value.rule, e.value.offset) == ("NANOVER-PROTO-001", 18)
    assert "field number 0" in e.value.message
