"""The NanoVer case codec (reference/nanover/_case.py) against cases written by hand from the case
schema's fields (the module's docstring, docs/) and recordings laid out by hand from
docs/formats/nanover.md: the 16-byte header (u64 magic 0x5C71E3C49989B7E3, u64 version 2), records
of a u128 timestamp (low half first), a u64 payload length and the payload, which is serialised
by the protobuf runtime (``recspec._pb``) or packed byte by byte where the wire order matters.
Every refusal is checked for its JSON path. Written against mutants of the module that survived
the codec's other tests."""

from __future__ import annotations

import math
import struct
from typing import Any

import jsonschema
import pytest
from build_nanover import HEADER, record
from google.protobuf import struct_pb2

from recspec._case_json import CaseError
from recspec._pb import recspec_nanover_pb2 as pb
from recspec.reference.nanover import decode, encode
from recspec.reference.nanover._case import case_schema, from_case, to_case


def _refusal(call: Any) -> CaseError:
    with pytest.raises(CaseError) as caught:
        call()
    return caught.value


def _frame_payload(data: bytes) -> pb.GetFrameResponse:
    """The one record's message of a .traj file laid out as HEADER + one record."""
    assert data[:16] == HEADER
    (length,) = struct.unpack_from("<Q", data, 32)
    assert len(data) == 40 + length
    return pb.GetFrameResponse.FromString(data[40:])


TRAJ_CASE: dict[str, Any] = {
    "recspec_case": 2, "format": "nanover", "variant": "traj",
    "records": [{"timestamp_us": 1000, "frame": {
        "frame_index": 3,
        "values": {"particle.count": 2.0, "far": {"$number": "Infinity"}, "name": "water", "on": True,
                   "gone": None, "box": {"$struct": {"$number": 1.5}}, "list": [1.0, "a"]},
        "arrays": {"particle.positions": {"float": [0.5, -1.0, 2.25]}, "particle.elements": {"index": [6, 8]},
                   "particle.names": {"string": ["C", "O"]}}}}]}


def _traj_message() -> pb.GetFrameResponse:
    message = pb.GetFrameResponse(frame_index=3)
    values = message.frame.values
    values["particle.count"].number_value = 2.0
    values["far"].number_value = math.inf
    values["name"].string_value = "water"
    values["on"].bool_value = True
    values["gone"].null_value = struct_pb2.NULL_VALUE
    values["box"].struct_value.fields["$number"].number_value = 1.5
    values["list"].list_value.values.add().number_value = 1.0
    values["list"].list_value.values.add().string_value = "a"
    message.frame.arrays["particle.positions"].float_values.values.extend([0.5, -1.0, 2.25])
    message.frame.arrays["particle.elements"].index_values.values.extend([6, 8])
    message.frame.arrays["particle.names"].string_values.values.extend(["C", "O"])
    return message


def test_a_hand_written_traj_case_encodes_to_the_message_it_describes() -> None:
    data = encode(from_case(TRAJ_CASE))
    assert data[16:32] == struct.pack("<QQ", 1000, 0)
    assert _frame_payload(data) == _traj_message()


def test_a_traj_file_laid_out_by_hand_decodes_to_the_hand_written_case() -> None:
    data = HEADER + record(1000, _traj_message().SerializeToString(deterministic=True))
    assert to_case(decode(data, variant="traj"), canonical=True) == TRAJ_CASE


def test_a_struct_is_wrapped_only_when_its_one_key_is_a_tag() -> None:
    message = pb.GetFrameResponse(frame_index=1)
    message.frame.values["tag"].struct_value.fields["$unset"].number_value = 1.0
    message.frame.values["plain"].struct_value.fields["a"].number_value = 1.0
    two = message.frame.values["two"].struct_value.fields
    two["$number"].number_value = 1.0
    two["a"].number_value = 2.0
    data = HEADER + record(5, message.SerializeToString(deterministic=True))
    values = to_case(decode(data, variant="traj"), canonical=True)["records"][0]["frame"]["values"]
    assert values == {"tag": {"$struct": {"$unset": 1.0}}, "plain": {"a": 1.0}, "two": {"$number": 1.0, "a": 2.0}}


def _traj_case(values: Any = None, arrays: Any = None, **record: Any) -> dict[str, Any]:
    return {"recspec_case": 2, "format": "nanover", "variant": "traj", "records": [
        {"timestamp_us": 7, "frame": {"frame_index": 1, "values": values or {}, "arrays": arrays or {}}, **record}]}


@pytest.mark.parametrize("number", [5, "nan", {"nan": "0x7ff8000000000001", "x": 1}, ["NaN"]])
def test_a_number_tag_with_no_non_finite_number_is_refused_at_its_path(number: Any) -> None:
    error = _refusal(lambda: from_case(_traj_case({"k": {"$number": number}})))
    assert error.path == "records[0].frame.values.k.$number"


def test_a_nan_with_payload_bits_comes_back_in_a_value() -> None:
    case = _traj_case({"k": {"$number": {"nan": "0xfff8000000000001"}}})
    message = _frame_payload(encode(from_case(case)))
    assert struct.pack("<d", message.frame.values["k"].number_value) == struct.pack("<Q", 0xFFF8000000000001)


def test_a_value_that_is_no_json_value_is_refused_at_its_path() -> None:
    assert _refusal(lambda: from_case(_traj_case({"k": [b"bytes"]}))).path == "records[0].frame.values.k[0]"


def test_an_unset_value_and_an_empty_value_array_are_lossless_only() -> None:
    """A Value with no kind set and a ValueArray with no member (NANOVER-PROTO-005): the lossless case says
    ``{"$unset": true}`` and ``{}``, the canonical case has none."""
    message = pb.GetFrameResponse(frame_index=1)
    message.frame.values["u"].CopyFrom(struct_pb2.Value())
    data = HEADER + record(5, message.SerializeToString())
    model = decode(data, variant="traj")
    assert to_case(model)["records"][0]["frame"]["values"] == {"u": {"$unset": True}}
    assert _refusal(lambda: to_case(model, canonical=True)).path == "records[0].frame.values.u"
    assert encode(from_case(to_case(model))) == data

    message = pb.GetFrameResponse(frame_index=1)
    message.frame.arrays["a"].CopyFrom(pb.ValueArray())
    data = HEADER + record(5, message.SerializeToString())
    model = decode(data, variant="traj")
    assert to_case(model)["records"][0]["frame"]["arrays"] == {"a": {}}
    assert _refusal(lambda: to_case(model, canonical=True)).path == "records[0].frame.arrays.a"
    assert encode(from_case(to_case(model))) == data


@pytest.mark.parametrize("array", [{"float": [], "index": []}, {"double": [1.0]}, {"index": [2**32]}, {"index": [-1]},
                                   {"string": [1]}, {"float": [True]}])
def test_a_malformed_array_is_refused_at_its_path(array: Any) -> None:
    assert _refusal(lambda: from_case(_traj_case(arrays={"a": array}))).path.startswith("records[0].frame.arrays.a")


def test_an_index_array_holds_uint32() -> None:
    case = _traj_case(arrays={"a": {"index": [0, 2**32 - 1]}})
    assert list(_frame_payload(encode(from_case(case))).frame.arrays["a"].index_values.values) == [0, 2**32 - 1]


def test_unpacked_arrays_are_written_a_number_per_field() -> None:
    """FloatArray.values (field 1, float): packed is one length-delimited field (tag 0x0a), unpacked one
    fixed32 field (tag 0x0d) per number; IndexArray.values unpacked: one varint field (tag 0x08) each."""
    case = _traj_case(arrays={"f": {"float": [1.0, 2.0]}, "i": {"index": [3, 4]}}, unpacked=["f", "i"])
    data = encode(from_case(case))
    assert b"\x0d" + struct.pack("<f", 1.0) + b"\x0d" + struct.pack("<f", 2.0) in data
    assert b"\x08\x03\x08\x04" in data
    assert to_case(decode(data, variant="traj"))["records"][0]["unpacked"] == ["f", "i"]
    assert "unpacked" not in to_case(decode(data, variant="traj"), canonical=True)["records"][0]
    for names, at in ((["s"], 0), (["f", "missing"], 1)):
        case = _traj_case(arrays={"f": {"float": [1.0]}, "s": {"string": ["x"]}}, unpacked=names)
        assert _refusal(lambda case=case: from_case(case)).path == f"records[0].unpacked[{at}]"


def _state_payload(*entries: tuple[str, bytes]) -> bytes:
    """A StateUpdate whose changed_keys Struct (field 1) holds ``entries`` in this wire order: each a map
    entry (Struct.fields, field 1) of key (field 1) and Value (field 2)."""
    def ld(tag: int, body: bytes) -> bytes:
        return bytes([tag, len(body)]) + body
    struct_body = b"".join(ld(0x0A, ld(0x0A, key.encode()) + ld(0x12, value)) for key, value in entries)
    return ld(0x0A, struct_body)


NULL = b"\x08\x00"  # Value.null_value (field 1, varint 0)


def _number(x: float) -> bytes:
    return b"\x11" + struct.pack("<d", x)  # Value.number_value (field 2, double)


def test_a_state_update_in_wire_order_keeps_its_order() -> None:
    data = HEADER + record(9, _state_payload(("b", _number(1.0)), ("a", NULL)))
    case = to_case(decode(data, variant="state"))
    assert case == {"recspec_case": 2, "format": "nanover", "variant": "state",
                    "records": [{"timestamp_us": 9, "update": {"b": 1.0, "a": None}, "order": ["b", "a"]}]}
    assert encode(from_case(case)) == data
    assert "order" not in to_case(decode(data, variant="state"), canonical=True)["records"][0]
    assert encode(from_case({**case, "records": [{"timestamp_us": 9, "update": {"b": 1.0, "a": None}}]})) == (
        HEADER + record(9, _state_payload(("a", NULL), ("b", _number(1.0)))))  # the encoder's order: by key


@pytest.mark.parametrize(("order", "says"), [(["a"], "missing 'b'"), (["a", "b", "c"], "not an entry: 'c'"),
                                             (["a", "a"], "missing 'b'"), (["a", "b", "b"], "named twice")])
def test_an_order_that_does_not_name_each_entry_once_is_refused(order: list[str], says: str) -> None:
    case = {"recspec_case": 2, "format": "nanover", "variant": "state",
            "records": [{"timestamp_us": 9, "update": {"a": None, "b": 1.0}, "order": order}]}
    error = _refusal(lambda: from_case(case))
    assert error.path == "records[0].order" and says in str(error)


def test_a_frame_order_names_values_and_arrays() -> None:
    case = _traj_case({"v": 1.0}, {"a": {"index": [1]}}, order=["arrays/a", "values/v"])
    data = encode(from_case(case))
    assert to_case(decode(data, variant="traj"))["records"][0]["order"] == ["arrays/a", "values/v"]
    bad = _traj_case({"v": 1.0}, {"a": {"index": [1]}}, order=["values/a", "arrays/v"])
    assert _refusal(lambda: from_case(bad)).path == "records[0].order"


def test_a_header_other_than_version_2_is_in_the_lossless_case() -> None:
    data = struct.pack("<QQ", 0x5C71E3C49989B7E3, 3)
    case = to_case(decode(data, variant="state"))
    assert case["header"] == {"magic": 0x5C71E3C49989B7E3, "version": 3}
    assert "header" not in to_case(decode(data, variant="state"), canonical=True)
    assert "header" not in to_case(decode(HEADER, variant="state"))
    assert encode(from_case(case)) == data
    zero = {**case, "header": {"magic": 0, "version": 0}}  # u64 fields: 0 is a header the case can name
    assert encode(from_case(zero)) == bytes(16)
    for field, bad in (("magic", 2**64), ("magic", -1), ("version", 2**64), ("version", -1)):
        hand = {"recspec_case": 2, "format": "nanover", "variant": "state", "records": [],
                "header": {"magic": 0x5C71E3C49989B7E3, "version": 2, field: bad}}
        assert _refusal(lambda hand=hand: from_case(hand)).path == f"header.{field}"


def test_timestamps_are_u128_and_frame_indexes_uint32() -> None:
    top = 2**128 - 1
    case = _traj_case()
    case["records"][0]["timestamp_us"] = top
    assert encode(from_case(case))[16:32] == b"\xff" * 16
    case["records"][0]["timestamp_us"] = 2**128
    assert _refusal(lambda: from_case(case)).path == "records[0].timestamp_us"
    for index in (0, 2**32 - 1):  # 0 is a reset; frame_index is a uint32
        case = _traj_case()
        case["records"][0]["frame"]["frame_index"] = index
        assert _frame_payload(encode(from_case(case))).frame_index == index
    for bad in (2**32, -1):
        case["records"][0]["frame"]["frame_index"] = bad
        assert _refusal(lambda: from_case(case)).path == "records[0].frame.frame_index"


def test_a_record_holds_its_variants_message_only() -> None:
    state = {"recspec_case": 2, "format": "nanover", "variant": "state",
             "records": [{"timestamp_us": 1, "update": {}, "unpacked": []}]}
    assert _refusal(lambda: from_case(state)).path == "records[0]"
    traj = _traj_case()
    traj["records"][0]["update"] = {}
    assert _refusal(lambda: from_case(traj)).path == "records[0]"


def test_the_schema_accepts_the_hand_written_cases_and_refuses_malformed_ones() -> None:
    validator = jsonschema.Draft202012Validator(case_schema())
    assert validator.is_valid(TRAJ_CASE)
    record = TRAJ_CASE["records"][0]
    for bad in ({**record, "frame": {**record["frame"], "frame_index": 2**32}},
                {**record, "timestamp_us": -1},
                {**record, "frame": {**record["frame"], "arrays": {"a": {"index": [2**32]}}}},
                {**record, "frame": {**record["frame"], "arrays": {"a": {"index": [-1]}}}},
                {**record, "frame": {**record["frame"], "frame_index": -1}},
                {**record, "frame": {**record["frame"], "arrays": {"a": {"float": [], "index": []}}}},
                {**record, "frame": {**record["frame"], "values": {"k": {"$number": 5}}}},
                {**record, "order": ["x", "x"]}, {**record, "unpacked": ["a", "a"]},
                {**record, "update": {}}):
        assert not validator.is_valid({**TRAJ_CASE, "records": [bad]}), bad
    assert validator.is_valid({**TRAJ_CASE, "records": [{**record, "frame": {**record["frame"], "arrays": {
        "a": {"index": [2**32 - 1]}, "e": {}}, "values": {"k": {"$number": {"nan": "0xfff8000000000001"}}}}}]})
    assert validator.is_valid({"variant": "state", "header": {"magic": 1, "version": 3}, "records": []})
    assert not validator.is_valid({"variant": "state", "header": {"magic": 1}, "records": []})
    assert validator.is_valid({"variant": "state", "header": {"magic": 0, "version": 0}, "records": []})
    assert not validator.is_valid({"variant": "state", "header": {"magic": 1, "version": -1}, "records": []})
    assert not validator.is_valid({"variant": "state", "header": {"magic": -1, "version": 2}, "records": []})
    largest = {**record["frame"], "frame_index": 2**32 - 1}
    assert validator.is_valid({**TRAJ_CASE, "records": [{**record, "frame": largest}]})
    assert validator.is_valid({**TRAJ_CASE, "records": [{**record, "frame": {
        "frame_index": 0, "values": {}, "arrays": {"a": {"index": [0]}}}}]})
