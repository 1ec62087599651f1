"""The BSON decoder (reference/matrix_smt/_bson.py) after its element loop and its reading of long
int32 and double arrays were made faster: arrays whose numbers are followed by an element of
another type, read as pymongo's ``bson`` reads them, and a nested document's length field (an int32,
4 bytes: bsonspec.org) cut by its container. Written against the survivors tools/mutate.py found in
the module when it was measured again."""

from __future__ import annotations

import struct

import bson
import pytest

from recspec.errors import DecodeError
from recspec.reference.matrix_smt import _bson


def _plain(value):  # type: ignore[no-untyped-def]
    """The decoder's Documents and Arrays as dicts and lists."""
    if isinstance(value, _bson.Array):
        return [_plain(v) for v in value.map().values()]
    if isinstance(value, _bson.Document):
        return {k: _plain(v) for k, v in value.map().items()}
    return value


@pytest.mark.parametrize("numbers", [list(range(100)), [i + 0.5 for i in range(100)], list(range(10)) * 11])
@pytest.mark.parametrize("after", [None, True, "s"])
def test_a_long_number_array_followed_by_another_type(numbers: list[float], after: object) -> None:
    # 10 one-digit keys, 90 two-digit ones, then an element with a three-digit (or two-digit) key that is
    # shorter than a number element of that key: no number array, but read element by element
    data = bson.encode({"a": numbers + [after]})
    assert _plain(_bson.decode_document(data)) == bson.decode(data)


@pytest.mark.parametrize("left", [0, 1, 2, 3])
def test_a_nested_documents_length_field_cut_by_its_container(left: int) -> None:
    # {a: <document>} whose document has only ``left`` bytes before the container's final NUL
    body = b"\x03a\x00" + b"\x05\x00\x00"[:left]
    data = struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(data)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 7)
    assert f"(4 bytes needed, {left} left)" in e.value.message


@pytest.mark.parametrize("doc", [{"s": "abc"}, {"i": 1, "s": "abc"}, {"s": ""}, {"d": {"s": "xyz"}, "t": "é"}])
def test_a_string_as_the_last_element_of_its_document(doc: dict[str, object]) -> None:
    data = bson.encode(doc)
    assert _plain(_bson.decode_document(data)) == bson.decode(data) == doc


@pytest.mark.parametrize("after", [b"", b"\x10i\x00\x01\x00\x00\x00"])
def test_a_string_whose_last_byte_is_no_nul(after: bytes) -> None:
    # "s": a string of declared length 2 holding 00 41: a NUL, but not at its end (byte 12)
    body = b"\x02s\x00" + struct.pack("<i", 2) + b"\x00A" + after
    data = struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(data)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-004", 12)


@pytest.mark.parametrize("k", range(1, 10))
def test_a_vector_of_doubles_has_one_key_per_double(k: int) -> None:
    values = [i + 0.25 for i in range(k)]
    data = bson.encode({"v": values, "n": 1})
    v = _bson.decode_document(data).get("v")
    assert v == _bson.Array([str(i) for i in range(k)], values)
    assert len(v) == k and v.offsets == [4 + 3 + 4 + 11 * i for i in range(k)]  # each element: 1 + 2 + 8 bytes


def _doc(body: bytes) -> bytes:
    return struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"


def test_a_dbpointer_as_the_last_element() -> None:
    # type 0x0C: a string (int32 length, bytes, NUL) then a 12-byte ObjectId (bsonspec.org, deprecated)
    ns = b"db.c\x00"
    data = _doc(b"\x0cp\x00" + struct.pack("<i", len(ns)) + ns + bytes(range(12)))
    value = _bson.decode_document(data).get("p")
    assert isinstance(value, _bson.DBPointer) and (value.namespace, value.oid) == ("db.c", bytes(range(12)))
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(_doc(b"\x0cp\x00" + struct.pack("<i", len(ns)) + ns + bytes(range(11))))
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-001", 16, "p")


def test_a_fault_inside_an_array_is_at_its_index() -> None:
    # {"a": [1, <a string of length 2 holding 00 41>]}: the string's last byte (26) is no NUL
    array = _doc(b"\x100\x00\x01\x00\x00\x00" + b"\x021\x00" + struct.pack("<i", 2) + b"\x00A")
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(_doc(b"\x04a\x00" + array))
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-004", 26, "a[1]")


def test_a_string_whose_length_passes_its_document() -> None:
    # "s": length field 9 at byte 7, but only 4 bytes and the document's final NUL follow
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(_doc(b"\x02s\x00" + struct.pack("<i", 9) + b"abc\x00"))
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-001", 7, "s")


@pytest.mark.parametrize(("value", "at"), [(b"a\xffb\x00i\x00", 8), (b"ab\x00\xfe\x00", 10)])
def test_a_regex_cstring_that_is_no_utf8(value: bytes, at: int) -> None:
    # type 0x0B: the pattern's cstring, then the options' (from byte 7): the first byte that is no UTF-8
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(_doc(b"\x0br\x00" + value))
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-005", at, "r")


def test_a_long_number_array_whose_last_byte_is_no_nul() -> None:
    data = bytearray(bson.encode({"a": list(range(100))}))
    (n,) = struct.unpack_from("<i", data, 7)  # the array: after the length field, type 04 and "a\0"
    data[7 + n - 1] = 1
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(bytes(data))
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-001", 7 + n - 1, "a")


def test_a_number_array_past_the_element_limit() -> None:
    # docs/formats/matrix-smt.md MATRIX-LIMIT-003: at most 1,000,000 elements in one buffered unit
    data = bson.encode({"a": [0] * 1_000_001})
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(data)
    assert (e.value.rule, e.value.offset) == ("MATRIX-LIMIT-003", 7)


@pytest.mark.parametrize(("code", "size"), [(0x12, 8), (0x09, 8), (0x11, 8), (0x07, 12), (0x13, 16), (0x08, 1)])
def test_a_fixed_size_value_one_byte_short(code: int, size: int) -> None:
    # int64, UTC datetime, timestamp (8 bytes), ObjectId (12), decimal128 (16), boolean (1): bsonspec.org;
    # the value starts at byte 7 and has one byte less than its size before the final NUL
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(_doc(bytes((code,)) + b"x\x00" + bytes(size - 1)))
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-001", 7, "x")
    assert f"({size} bytes needed, {size - 1} left)" in e.value.message


@pytest.mark.parametrize("value", [object(), {1, 2}, 1j])
def test_a_value_with_no_bson_type_is_not_encoded(value: object) -> None:
    # the encoder writes nothing for a value no BSON type holds (pymongo refuses them too)
    with pytest.raises(Exception):  # noqa: B017 - pymongo's own error, whatever its class
        bson.encode({"x": value})
    with pytest.raises(TypeError):
        _bson.encode_document({"x": value})
