"""NanoVer payloads (reference/nanover/_payload.py) against the protobuf runtime and the wire format:
the messages of ``proto/recspec_nanover.proto`` serialised by the runtime (the encoder's bytes are the
runtime's deterministic ones), payloads whose map entries come in another order (protobuf merges
concatenated messages, so a frame written entry by entry is one message), arrays whose numbers are a
field each (tag 0x0d and a little-endian f32, tag 0x08 and a varint, which protobuf readers must
accept), and the reading of a payload's map order (``wire_details``) on payloads built field by
field. Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import pytest
from build_nanover import F_ENTRY, frame_entries, ld, sample_frame, unpacked_payload
from google.protobuf import struct_pb2

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import EncodeError, Malformed
from recspec.reference.nanover import (
    UNSET,
    Array,
    ArrayKind,
    Frame,
    StateUpdate,
    encode_frame,
    encode_state_update,
    frame_from_message,
    parse_frame,
    parse_state_update,
    state_update_from_message,
    value_from_message,
)
from recspec.reference.nanover._payload import wire_details, wire_order

# --- message -> model ---------------------------------------------------------------------


def test_values_of_every_kind_read_from_messages() -> None:
    v = struct_pb2.Value()
    assert value_from_message(v) is UNSET
    v.null_value = struct_pb2.NULL_VALUE
    assert value_from_message(v) is None
    v.string_value = "é"
    assert value_from_message(v) == "é"
    v.bool_value = False
    assert value_from_message(v) is False
    v.number_value = -0.5
    assert value_from_message(v) == -0.5
    v.struct_value.fields["b"].number_value = 1.0
    v.struct_value.fields["a"].bool_value = True
    assert value_from_message(v) == {"a": True, "b": 1.0}
    v.list_value.values.add().string_value = "x"
    v.list_value.values.add()
    assert value_from_message(v) == ["x", UNSET]


def test_frames_and_updates_read_from_payloads() -> None:
    msg = sample_frame()
    msg.frame.arrays["empty"].SetInParent()  # a ValueArray with no member
    got = frame_from_message(parse_frame(msg.SerializeToString()))
    assert got == Frame(7, {"a.count": 3.0, "b.name": "water"},
                        {"z.positions": Array(ArrayKind.FLOAT, (1.5, -2.25, pytest.approx(0.1))),
                         "c.bonds": Array(ArrayKind.INDEX, (0, 1, 300)),
                         "m.names": Array(ArrayKind.STRING, ("O", "H")), "empty": Array(None, ())})
    up = pb.StateUpdate()
    up.changed_keys.fields["k"].string_value = "v"
    up.changed_keys.fields["gone"].null_value = struct_pb2.NULL_VALUE
    parsed = parse_state_update(up.SerializeToString())
    assert parsed == up
    assert state_update_from_message(parsed) == StateUpdate({"k": "v", "gone": None})


@pytest.mark.parametrize("parse", [parse_frame, parse_state_update])
def test_bytes_the_runtime_rejects_are_proto_001(parse: object) -> None:
    with pytest.raises(Malformed) as e:
        parse(b"\x0a\x05\x01", 40, "record[3]")  # type: ignore[operator]
    assert (e.value.rule, e.value.offset, e.value.path) == ("NANOVER-PROTO-001", 40, "record[3]")


# --- model -> bytes -----------------------------------------------------------------------


def test_the_encoder_writes_the_runtimes_deterministic_bytes() -> None:
    msg = sample_frame()
    frame = frame_from_message(msg)
    assert encode_frame(frame) == msg.SerializeToString(deterministic=True)
    up = pb.StateUpdate()
    up.changed_keys.fields["b"].number_value = 2.0
    up.changed_keys.fields["a"].struct_value.SetInParent()
    assert encode_state_update(StateUpdate({"b": 2.0, "a": {}})) == up.SerializeToString(deterministic=True)


def test_a_value_protobuf_cannot_hold_is_an_encode_error() -> None:
    with pytest.raises(EncodeError):
        encode_frame(Frame(0, {"x": object()}))
    with pytest.raises(EncodeError):
        encode_state_update(StateUpdate({"x": [1.0, {"y": b"bytes"}]}))


# --- map order and unpacked numbers -------------------------------------------------------


def test_a_frame_written_entry_by_entry_in_another_order_round_trips() -> None:
    msg = sample_frame()
    entries = frame_entries(msg)
    wire = list(reversed(entries))  # arrays first, then values, each map backwards
    payload = pb.GetFrameResponse(frame_index=7).SerializeToString() + ld(2, b"".join(wire))
    assert parse_frame(payload) == msg  # the runtime reads the same message
    order, unpacked = wire_details(payload, "traj")
    assert order == ("arrays/z.positions", "arrays/m.names", "arrays/c.bonds", "values/b.name", "values/a.count")
    assert unpacked == ()
    frame = frame_from_message(parse_frame(payload))
    assert encode_frame(Frame(7, frame.values, frame.arrays, order=order)) == payload
    # the canonical payload: the runtime's deterministic order
    canonical = msg.SerializeToString(deterministic=True)
    assert wire_order(canonical, "traj") == ("values/a.count", "values/b.name", "arrays/c.bonds",
                                              "arrays/m.names", "arrays/z.positions")


def test_a_state_update_written_key_by_key_round_trips() -> None:
    up = pb.StateUpdate()
    for k, v in (("z", 1.0), ("a", 2.0), ("m", 3.0)):
        up.changed_keys.fields[k].number_value = v
    entries = []
    for k in ("z", "a", "m"):
        one = struct_pb2.Struct()
        one.fields[k].CopyFrom(up.changed_keys.fields[k])
        entries.append(one.SerializeToString())
    payload = ld(1, b"".join(entries))
    assert parse_state_update(payload) == up
    assert wire_details(payload, "state") == (("z", "a", "m"), ())
    assert encode_state_update(StateUpdate({"z": 1.0, "a": 2.0, "m": 3.0}, order=("z", "a", "m"))) == payload
    with pytest.raises(EncodeError):
        encode_state_update(StateUpdate({"z": 1.0, "a": 2.0}, order=("z",)))


def test_arrays_written_a_field_per_number_round_trip() -> None:
    payload, want = unpacked_payload()
    assert parse_frame(payload) == want  # the runtime accepts the unpacked form
    order, unpacked = wire_details(payload, "traj")
    assert (order, unpacked) == (("arrays/pos", "arrays/bonds"), ("pos", "bonds"))
    frame = frame_from_message(parse_frame(payload))
    assert encode_frame(Frame(2, {}, frame.arrays, order=order, unpacked=unpacked)) == payload
    # packed, as the runtime writes them: not unpacked
    assert wire_details(want.SerializeToString(), "traj")[1] == ()
    # one unpacked array in the canonical order (no order kept)
    pos_only = b"\x08\x02" + ld(2, ld(2, F_ENTRY))
    assert wire_details(pos_only, "traj") == (("arrays/pos",), ("pos",))


def test_unpacked_arrays_must_be_numeric_arrays_of_the_frame() -> None:
    frame = Frame(0, {}, {"names": Array(ArrayKind.STRING, ("a",)), "x": Array(ArrayKind.FLOAT, (1.0,))})
    with pytest.raises(EncodeError):
        encode_frame(Frame(0, frame.values, frame.arrays, unpacked=("names",)))
    with pytest.raises(EncodeError):
        encode_frame(Frame(0, frame.values, frame.arrays, unpacked=("nope",)))
    with pytest.raises(EncodeError):
        encode_frame(Frame(0, frame.values, frame.arrays, order=("arrays/x",)))


@pytest.mark.parametrize(("payload", "kind", "want"), [
    # a key written twice: its order cannot be said
    (ld(1, ld(1, ld(1, b"k") + ld(2, b"\x08\x00")) + ld(1, ld(1, b"k") + ld(2, b"\x08\x00"))), "state", None),
    # the map message in two pieces
    (ld(2, ld(1, ld(1, b"a"))) + ld(2, ld(1, ld(1, b"b"))), "traj", None),
    # no map message: nothing in it
    (b"\x08\x05", "traj", ()),
    (b"", "state", ()),
    # an unknown length-delimited field beside the map message (3 in a frame, 2 in an update)
    (b"\x08\x05" + ld(3, b"x") + ld(2, ld(1, ld(1, b"b")) + ld(1, ld(1, b"a"))), "traj", ("values/b", "values/a")),
    (ld(2, b"x") + ld(1, ld(1, ld(1, b"b")) + ld(1, ld(1, b"a"))), "state", ("b", "a")),
    # inside the map message, a known number of another wire type and an unknown length-delimited field are
    # unknown fields, not entries
    (ld(2, ld(1, ld(1, b"a")) + ld(3, b"x") + ld(1, ld(1, b"b"))), "traj", ("values/a", "values/b")),
    (ld(2, ld(1, ld(1, b"a")) + b"\x08\x05" + ld(1, ld(1, b"b"))), "traj", ("values/a", "values/b")),
    (ld(1, ld(1, ld(1, b"a")) + b"\x08\x05"), "state", ("a",)),
    # a map entry without a key field: the empty key
    (ld(1, ld(1, ld(2, b"\x08\x00"))), "state", ("",)),
    # a group (wire type 3), a field running past its message: the order cannot be said
    (b"\x13", "traj", None),
    (ld(2, ld(1, ld(1, b"a"))) + b"\x1a\x05x", "traj", None),
    (ld(1, ld(1, ld(1, b"a"))) + b"\x0d\x00", "state", None),
])
def test_wire_order_of_payloads_built_field_by_field(payload: bytes, kind: str, want: object) -> None:
    assert wire_details(payload, kind)[0] == want


def test_unknown_fields_in_the_map_message_are_no_entries_for_the_runtime() -> None:
    payload = ld(2, ld(1, ld(1, b"a")) + ld(3, b"x") + b"\x08\x05" + ld(1, ld(1, b"b")))
    assert sorted(parse_frame(payload).frame.values) == ["a", "b"]
