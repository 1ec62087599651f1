"""The BSON layer of the Matrix-SMT reference (reference/matrix_smt/_bson.py): the model's documents
and arrays (built with ``Document.of`` and ``Array.of_values``, equal by type, keys and values; an
array's keys regular when they are "0", "1", ... in order, as BSON 1.1 asks), the offsets of a
short array of doubles (a recording's vectors: each element 1 + len(key) + 1 + 8 bytes), a string
whose last byte is no NUL, an element name without its NUL, and a type byte 0x00 where an element
starts, read alike by the whole-file decoder and the streaming walk. Bytes come from pymongo's
``bson`` or by hand from the BSON layout."""

from __future__ import annotations

import io
import struct

import bson
import pytest

from recspec.errors import DecodeError
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt._walker import RecordingWalker


def test_documents_built_from_pairs_and_keywords() -> None:
    doc = b.Document.of(("a", 1), ("b", "x"))
    assert (type(doc), doc.keys, doc.values) == (b.Document, ["a", "b"], [1, "x"])
    doc = b.Document.of(t=0.5, states=b.Array.of_values([1, 2]))
    assert (doc.keys, doc.get("t")) == (["t", "states"], 0.5)
    assert doc.get("states").keys == ["0", "1"]


def test_documents_are_equal_by_type_keys_and_values() -> None:
    one = b.Document(["a", "b"], [1, 2])
    assert one == b.Document(["a", "b"], [1, 2])
    assert one != b.Document(["a", "b"], [1, 3])  # a value
    assert one != b.Document(["a", "c"], [1, 2])  # a key
    assert one != b.Document(["b", "a"], [2, 1])  # the order
    assert b.Array(["0", "1"], [1, 2]) != b.Document(["0", "1"], [1, 2])  # the type
    assert b.Array(["0"], [1]) != b.Array(["0"], [2])


def test_an_arrays_keys_are_regular_when_they_are_the_indexes_in_order() -> None:
    assert b.Array.of_values([5, 6, 7]).regular_keys() is True
    assert b.Array([], []).regular_keys() is True
    assert b.Array(["0", "2"], [5, 6]).regular_keys() is False
    assert b.Array(["1", "0"], [5, 6]).regular_keys() is False
    # as decoded: pymongo writes the indexes
    doc = b.decode_document(bson.encode({"p": [1.5, 2.5, 3.5], "q": list(range(20))}))
    assert doc.get("p").regular_keys() is True and doc.get("q").regular_keys() is True


@pytest.mark.parametrize("k", [1, 3, 4, 9])
def test_the_offsets_of_a_short_array_of_doubles(k: int) -> None:
    data = bson.encode({"p": [0.5 * i for i in range(k)]})
    arr = b.decode_document(data).get("p")
    # "p" at 4 (type, "p", NUL), its array's length field at 7, its first element at 11; each element of
    # a one-digit key is a type byte, the digit, a NUL and 8 bytes
    assert arr.offsets == [11 + 11 * i for i in range(k)]
    assert [data[o] for o in arr.offsets] == [0x01] * k
    assert arr.values == [0.5 * i for i in range(k)]


def test_a_string_whose_last_byte_is_not_nul_names_that_byte() -> None:
    data = bytearray(bson.encode({"s": "abc"}))
    end = data.index(b"abc") + 3  # the string's NUL
    data[end] = 0x58
    with pytest.raises(DecodeError) as e:
        b.decode_document(bytes(data))
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-004", end)
    assert "0x58" in e.value.message


def test_an_element_name_without_its_nul_runs_past_the_document() -> None:
    # a document of 9 bytes: length, an int32's type byte, the name "abc", and the final NUL: the name
    # (3 bytes and its NUL) needs 4 bytes where 3 are left before the final NUL
    with pytest.raises(DecodeError) as e:
        b.decode_document(b"\x09\x00\x00\x00\x10abc\x00")
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 5)
    assert "4 bytes needed, 3 left" in e.value.message


def _walker_fault(data: bytes) -> tuple[str | None, int]:
    with pytest.raises(DecodeError) as e:
        list(RecordingWalker(io.BytesIO(data)).sections())
    return e.value.rule, e.value.offset


def test_a_zero_byte_where_an_element_starts_is_read_alike_by_both_readers() -> None:
    # declared 12 bytes; at 4, where an element starts, a 0x00 byte, then "abcdef" and the final NUL
    data = b"\x0c\x00\x00\x00\x00abcdef\x00"
    with pytest.raises(DecodeError) as e:
        b.decode_document(data)
    assert (e.value.rule, e.value.offset) == _walker_fault(data)
    assert e.value.offset in (4, 5)  # at the element, its type byte or its name


def test_an_empty_binary_is_read() -> None:
    # a binary's int32 length counts its data; 0 is a binary of no bytes (pymongo writes one)
    data = bson.encode({"b": bson.Binary(b"", 0), "c": bson.Binary(b"\x01\x02", 5)})
    doc = b.decode_document(data)
    assert (doc.get("b").subtype, doc.get("b").data) == (0, b"")
    assert (doc.get("c").subtype, doc.get("c").data) == (5, b"\x01\x02")


def test_a_dbpointer_whose_id_is_cut_by_its_document() -> None:
    # type 0x0C: a string (the namespace) and a 12-byte ObjectId; here only 5 bytes of the id before the
    # document's final NUL
    element = b"\x0cd\x00" + struct.pack("<i", 3) + b"ns\x00" + b"\x01" * 5
    data = struct.pack("<i", 4 + len(element) + 1) + element + b"\x00"
    id_at = 4 + 3 + 4 + 3
    with pytest.raises(DecodeError) as e:
        b.decode_document(data)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", id_at)
    assert "12 bytes needed, 5 left" in e.value.message


def test_an_array_of_one_double_and_a_stray_zero_byte() -> None:
    # "p": an array declared 17 bytes: a double element under "0" (11 bytes), then a 0x00 byte where an
    # element starts (at 22) and the array's final NUL (at 23): the element at 22 has no name before the
    # array's end, so the fault is in "p", at the name (23); the array is no array of one double
    arr = struct.pack("<i", 17) + b"\x010\x00" + struct.pack("<d", 1.5) + b"\x00" + b"\x00"
    body = b"\x04p\x00" + arr + b"\x10q\x00" + struct.pack("<i", 7)
    data = struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"
    with pytest.raises(DecodeError) as e:
        b.decode_document(data)
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-001", 23, "p")
