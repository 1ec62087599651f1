"""The wire walk's fast path (reference/nanover/_wire_fast.py) against the walk itself and the
protobuf runtime: every payload the runtime serialises from NanoVer's messages is proved clean by the
mirror (the walk has nothing to say of it either) and parse_clean gives the runtime's own message; an
unknown root field is proved to make the walk list it; README's MAX_VALUES (262,144) bounds what is
proved, at 2 bytes a value (CLEAN_MAX_PAYLOAD, 524,288 bytes); nesting past the walk's MAX_NESTING
(32) is never proved. Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import pytest
from google.protobuf import descriptor_pb2, struct_pb2

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import DecodeError
from recspec.reference.nanover import _wire_fast, encode_varint, scan
from recspec.reference.nanover._wire import MAX_NESTING, SCHEMAS
from recspec.reference.nanover._wire_fast import CLEAN_MAX_PAYLOAD, parse_clean, wire_verdict


def _frames() -> list[pb.GetFrameResponse]:
    out = []
    m = pb.GetFrameResponse(frame_index=3)
    m.frame.values["n"].number_value = 2.5
    out.append(m)
    m = pb.GetFrameResponse(frame_index=2**32 - 1)
    v = m.frame.values
    v["null"].null_value = struct_pb2.NULL_VALUE
    v["s"].string_value = "water é"
    v["t"].bool_value = True
    v["f"].bool_value = False
    v["zero"].number_value = 0.0
    v["st"].struct_value.fields["a"].number_value = 1.0
    v["st"].struct_value.fields["b"].struct_value.fields["c"].list_value.values.add().string_value = "x"
    v["l"].list_value.values.add().number_value = -1.0
    v["l"].list_value.values.add().list_value.values.add().bool_value = True
    a = m.frame.arrays
    a["p"].float_values.values.extend([1.5, -2.0, 0.25])
    a["i"].index_values.values.extend([0, 1, 300, 2**32 - 1])
    a["s"].string_values.values.extend(["O", "H", ""])
    a["ef"].float_values.SetInParent()
    a["ei"].index_values.SetInParent()
    a["none"].SetInParent()
    out.append(m)
    m = pb.GetFrameResponse()  # frame 0, an empty frame
    m.frame.SetInParent()
    out.append(m)
    out.append(pb.GetFrameResponse(frame_index=9))  # no frame field
    return out


def _updates() -> list[pb.StateUpdate]:
    out = []
    u = pb.StateUpdate()
    f = u.changed_keys.fields
    f["gone"].null_value = struct_pb2.NULL_VALUE
    f["n"].number_value = 4.0
    f["s"].string_value = "avatar"
    f["b"].bool_value = False
    f["st"].struct_value.fields["pos"].list_value.values.add().number_value = 1.0
    out.append(u)
    u = pb.StateUpdate()
    u.changed_keys.SetInParent()
    out.append(u)
    out.append(pb.StateUpdate())
    return out


def _runtime_payloads() -> list[tuple[bytes, str, type]]:
    return ([(m.SerializeToString(deterministic=True), "traj", pb.GetFrameResponse) for m in _frames()]
            + [(u.SerializeToString(deterministic=True), "state", pb.StateUpdate) for u in _updates()])


def _walk_notes(payload: bytes, kind: str) -> tuple[bool, tuple[object, ...], tuple[object, ...]]:
    """(raised, unknown fields, unpacked fields) of the locating walk."""
    try:
        s = scan(payload, 0, len(payload), kind)
    except DecodeError:
        return True, (), ()
    return False, tuple(s.unknown), tuple(s.unpacked)


@pytest.mark.parametrize(("payload", "kind", "cls"), _runtime_payloads())
def test_what_the_runtime_writes_is_proved_clean(payload: bytes, kind: str, cls: type) -> None:
    assert _walk_notes(payload, kind) == (False, (), ())  # the slow path's verdict
    assert wire_verdict(payload, kind) is True
    msg = parse_clean(payload, kind)
    assert msg is not None and msg == cls.FromString(payload)


@pytest.mark.parametrize(("payload", "kind", "cls"), _runtime_payloads())
def test_an_unknown_root_field_is_proved_to_be_listed(payload: bytes, kind: str, cls: type) -> None:
    extra = payload + b"\x78\x05"  # field 15, a varint: in neither root message
    raised, unknown, _ = _walk_notes(extra, kind)
    assert raised or unknown
    assert wire_verdict(extra, kind) is False
    assert parse_clean(extra, kind) is None


def test_a_payload_the_runtime_refuses_is_no_proof() -> None:
    cut = _runtime_payloads()[1][0][:-1]  # a length that runs past the payload
    assert wire_verdict(cut, "traj") is None and parse_clean(cut, "traj") is None
    # a string that is not UTF-8: the wire is clean, the real parse refuses it
    bad = b"\x0a\x0a\x0a\x08\x0a\x01k\x12\x03\x1a\x01\xff"
    assert wire_verdict(bad, "state") is True and parse_clean(bad, "state") is None


def _update_of_length(size: int) -> bytes:
    """A StateUpdate of one string value, serialised by the runtime, exactly ``size`` bytes long."""
    for n in range(size, 0, -1):
        u = pb.StateUpdate()
        u.changed_keys.fields["k"].string_value = "x" * n
        p = u.SerializeToString()
        if len(p) == size:
            return p
    raise AssertionError(size)


def test_the_proof_stops_at_two_bytes_a_value() -> None:
    assert CLEAN_MAX_PAYLOAD == 2 * 262_144  # README, "Limits": MAX_VALUES map entries and list elements
    below = _update_of_length(524_287)
    assert wire_verdict(below, "state") is True and parse_clean(below, "state") is not None
    at = _update_of_length(524_288)
    assert _walk_notes(at, "state") == (False, (), ())
    assert wire_verdict(at, "state") is None and parse_clean(at, "state") is None


def _nested_list_value(levels: int) -> bytes:
    """A Value holding ``levels`` ListValues one inside the other, a number at the bottom."""
    value = b"\x11" + bytes(8)
    for _ in range(levels):
        lst = b"\x0a" + encode_varint(len(value)) + value
        value = b"\x32" + encode_varint(len(lst)) + lst
    return value


def _update(value: bytes) -> bytes:
    entry = b"\x0a\x01k\x12" + encode_varint(len(value)) + value
    fields = b"\x0a" + encode_varint(len(entry)) + entry
    return b"\x0a" + encode_varint(len(fields)) + fields


def _in_struct(value: bytes) -> bytes:
    """A Value holding a Struct of one entry whose value is ``value``."""
    entry = b"\x0a\x01k\x12" + encode_varint(len(value)) + value
    fields = b"\x0a" + encode_varint(len(entry)) + entry
    return b"\x2a" + encode_varint(len(fields)) + fields


@pytest.mark.parametrize(("wrap", "most"), [
    # StateUpdate, Struct, entry, Value, then two messages (ListValue, Value) a list level: the mirror's
    # 32 message levels hold 14 lists
    (lambda v: v, 14),
    # three more (Struct, entry, Value) above the lists: an odd count, 12 lists
    (_in_struct, 12),
])
def test_nesting_is_proved_only_below_the_walks_limit(wrap: object, most: int) -> None:
    """Each level of the payload's nesting is proved clean only where the walk finds nothing, up to
    the mirror's last level (MIRROR_MESSAGE_DEPTH, the walk's MAX_NESTING of 32); past it the mirror
    proves nothing."""
    proved = []
    for levels in range(0, 40):
        payload = _update(wrap(_nested_list_value(levels)))  # type: ignore[operator]
        verdict = wire_verdict(payload, "state")
        if verdict is True:
            assert _walk_notes(payload, "state") == (False, (), ()), levels
            proved.append(levels)
        else:
            assert verdict is None, levels
    assert proved == list(range(0, most + 1)), proved


def _mirror_messages(fdp: descriptor_pb2.FileDescriptorProto, name: str) -> list[descriptor_pb2.DescriptorProto]:
    found = [m for m in fdp.message_type if m.name.rsplit("_m", 1)[0] == name]
    assert found, name
    return found


@pytest.mark.parametrize("order", ["the walk's", "reversed"])
def test_the_mirror_declares_what_the_runtime_writes(monkeypatch: pytest.MonkeyPatch, order: str) -> None:
    """NanoVer's schema as the mirror must declare it (packed repeated numbers, whichever of a number's two
    tags the walk's table lists first; optional scalars with presence), from the .proto's field numbers."""
    if order == "reversed":
        monkeypatch.setattr(_wire_fast, "SCHEMAS",
                            {name: dict(reversed(fields.items())) for name, fields in SCHEMAS.items()})
    fdp = _wire_fast._mirror_file()
    F = descriptor_pb2.FieldDescriptorProto
    for message, number, ftype, label, packed in (
            ("FloatArray", 1, F.TYPE_FIXED32, F.LABEL_REPEATED, True),
            ("IndexArray", 1, F.TYPE_UINT64, F.LABEL_REPEATED, True),
            ("StringArray", 1, F.TYPE_BYTES, F.LABEL_REPEATED, False)):
        for m in _mirror_messages(fdp, message):
            assert [(f.number, f.type, f.label, f.options.packed) for f in m.field] == [(number, ftype, label, packed)]
    for m in _mirror_messages(fdp, "Value"):
        scalars = [(f.number, f.type, f.label) for f in m.field if f.type != F.TYPE_MESSAGE]
        assert scalars == [(1, F.TYPE_UINT64, F.LABEL_OPTIONAL), (2, F.TYPE_FIXED64, F.LABEL_OPTIONAL),
                           (3, F.TYPE_BYTES, F.LABEL_REPEATED), (4, F.TYPE_UINT64, F.LABEL_OPTIONAL)]
    (root,) = _mirror_messages(fdp, "GetFrameResponse")
    assert root.name == "GetFrameResponse_m1"
    assert [(f.number, f.type, f.type_name) for f in root.field] == [
        (1, F.TYPE_UINT64, ""), (2, F.TYPE_MESSAGE, ".recspec.nanover_wire.FrameData_m2")]
    # one message type per message and depth, the deepest at the walk's MAX_NESTING
    names = [m.name for m in fdp.message_type]
    assert len(names) == len(set(names))
    assert max(int(n.rsplit("_m", 1)[1]) for n in names) == MAX_NESTING == 32
