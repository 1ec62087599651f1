"""Edges of the BSON decoder that mutants of reference/matrix_smt/_bson.py showed untested:
a string whose length field crosses the end of its document, located at the length."""

from __future__ import annotations

import struct

import pytest

import recspec
from helpers import REPO
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


# An element is its type byte, then its key, then its value (docs/formats/matrix-smt.md#bson): a byte that is
# no BSON type (MATRIX-BSON-002; 0x00 where an element starts ends the element list) gives the bytes after it
# no meaning, so the fault reported is the type, at its offset, even when those bytes are not a UTF-8 key.
# Both readers: the whole-buffer decoder and the streaming walker (which recspec check runs).
@pytest.mark.parametrize("kind", [0x00, 0x19, 0x80])
def test_a_type_that_is_no_bson_type_is_reported_before_its_key(kind: int) -> None:
    doc = _document(bytes([kind]) + b"ab\xef\x02\x00")
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(doc)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-002", 4)


def test_a_checked_file_whose_first_type_and_key_are_both_damaged_reports_the_type() -> None:
    # spec.bson with its first element's type (offset 4) made 0x00 and its key's NUL (offset 12) made 0x01:
    # the key then runs into the bytes after it, whose first invalid UTF-8 is at 13; the type comes first
    data = bytearray((REPO / "corpus/matrix-smt/valid/spec.bson").read_bytes())
    assert data[4:13] == b"\x04objects\x00"
    data[4], data[12] = 0x00, 0x01
    report = recspec.check(bytes(data), name="recording.bson", cross_check="off")
    assert [(f.rule, f.offset) for f in report.findings] == [("MATRIX-BSON-002", 4)]
