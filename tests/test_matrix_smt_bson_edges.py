"""Edges of the BSON decoder that mutants of reference/matrix_smt/_bson.py showed untested:
a string whose length field crosses the end of its document, located at the length."""

from __future__ import annotations

import struct

import pytest

from recspec.errors import DecodeError
from recspec.reference.matrix_smt import _bson


def _document(body: bytes) -> bytes:
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


@pytest.mark.parametrize("present", [0, 1, 2, 3])
def test_a_string_length_cut_by_its_document(present: int) -> None:
    # {"a": <string>} whose 4-byte length has only `present` bytes before the document's closing NUL
    doc = _document(b"\x02a\x00" + b"\x05\x00\x00"[:present])
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(doc)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 7)  # 4 (length) + 3 (type, "a", NUL)
    assert "string length" in e.value.message


def test_a_string_length_cut_by_the_file() -> None:
    # the file ends inside the length: the document's own declared length, which the file does not hold,
    # is what is reported, at the document's start
    doc = _document(b"\x02a\x00\x05\x00\x00\x00ab")[:9]
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(doc)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-007", 0)


def test_a_regex_pattern_without_its_nul_before_the_document_ends() -> None:
    # {"re": /abc.../}: the pattern's cstring has no NUL before the document's closing NUL
    doc = _document(b"\x0bre\x00abc")
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(doc)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 8)  # 4 (length) + 4 (type, "re", NUL)
    assert "regex pattern cstring" in e.value.message


def test_an_element_name_without_its_nul_before_the_document_ends() -> None:
    # an element whose name runs into the document's closing NUL: located at the name
    doc = _document(b"\x01abc")
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(doc)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 5)  # 4 (length) + 1 (the type byte)
    assert "element name" in e.value.message


def test_a_binary_subtype_2_too_short_for_its_inner_length() -> None:
    # binary subtype 2 repeats its length in its first 4 data bytes: 2 data bytes cannot hold it
    doc = _document(b"\x05b\x00" + struct.pack("<i", 2) + b"\x02xy")
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(doc)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 12)  # the data, after length and subtype
    assert "inner length of binary subtype 2" in e.value.message


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_file_shorter_than_a_document_length(n: int) -> None:
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(b"\x10\x00\x00"[:n])
    assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == ("MATRIX-BSON-007", 0, 4, n)


@pytest.mark.parametrize("value", [_bson.ObjectId(bytes(11)), _bson.ObjectId(bytes(13)), _bson.Decimal128(bytes(15))])
def test_fixed_size_values_of_another_size_do_not_encode(value: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        _bson.encode_document({"v": value})


@pytest.mark.parametrize("name", [b"t", b"states"])
def test_an_unterminated_name_is_refused_whether_or_not_it_was_seen_before(name: bytes) -> None:
    # the decoder caches the names it has read; a name cut by the document's end is refused the same way
    _bson.decode_document(_document(b"\x01" + name + b"\x00" + struct.pack("<d", 1.0)))  # now a known name
    doc = _document(b"\x01" + name)
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(doc)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 5)
    assert "element name" in e.value.message
