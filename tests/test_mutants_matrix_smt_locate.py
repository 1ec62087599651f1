"""Element lengths for located Matrix-SMT findings (``conformance/matrix_smt/_locate.py``), from the BSON layout.

Each element is written by pymongo's ``bson`` (or by hand from the BSON specification where pymongo writes
no such element: a symbol, a negative length prefix) as the one element of a document, so it starts at
offset 4 (after the document's int32 length) and its length is the document's less 5 (the length field and
the closing NUL): no expected value comes from the code under test. The specification's element is
``type byte, key cstring, value``; the value's size is fixed by the type (double 8, int32 4, bool 1, null 0,
ObjectId 12, int64 8, decimal128 16) or given by an int32 prefix that counts the whole value (document,
array, code with scope) or the bytes after it (string, code, symbol: the bytes and their NUL; binary: the
subtype byte, then the bytes).
"""

from __future__ import annotations

import io
import struct
from decimal import Decimal

import bson
import pytest
from bson.binary import Binary
from bson.code import Code
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.objectid import ObjectId
from bson.regex import Regex

from recspec.conformance.matrix_smt import RULES_BY_ID
from recspec.conformance.matrix_smt._locate import add_element_lengths, element_length
from recspec.report import FileReport, Finding, Severity, Verdict

#: what the module reads at a finding's offset: the type byte, the longest key it looks for (256 bytes,
#: its documented limit), the key's NUL and an int32 length prefix
HEAD = 1 + 256 + 1 + 4


def _one_element(value: object, key: str = "k") -> tuple[bytes, int]:
    """A document of one element written by pymongo, and that element's length (the document's less 5)."""
    data = bson.encode({key: value})
    assert struct.unpack_from("<i", data)[0] == len(data)
    return data, len(data) - 5


def _length_at_4(data: bytes, file_left: int | None = None) -> int | None:
    return element_length(data[4:4 + HEAD], len(data) - 4 if file_left is None else file_left)


@pytest.mark.parametrize("value", [
    1.5,  # double: 1 + 2 + 8 = 11
    7,  # int32
    True,
    None,
    ObjectId(b"0123456789ab"),
    Int64(2**40),
    Decimal128(Decimal("1.25")),
    "abc",  # string: int32 4, then "abc\0"
    "",
    {"a": 1, "b": "xy"},  # document: its int32 counts itself
    {},
    [1, 2.5, "s"],  # array
    [],
    Binary(b"\x01\x02\x03", 0),  # binary: int32 3, subtype, three bytes
    Binary(b"", 5),  # an empty binary: its int32 is 0
    Code("return 1"),  # code: like a string
    Code("f", {"a": 1}),  # code with scope: its int32 counts the whole value
])
def test_the_length_of_an_element_pymongo_writes(value: object) -> None:
    data, length = _one_element(value)
    assert _length_at_4(data) == length


@pytest.mark.parametrize("key", ["", "k", "a_longer_key"])
def test_the_key_is_part_of_the_length(key: str) -> None:
    for value in (None, 1.5, "text", {"x": 1}, [3]):
        data, length = _one_element(value, key)
        assert _length_at_4(data) == length


def test_a_symbol_is_measured_like_a_string() -> None:
    # type 0x0E, key "s", int32 4 (three bytes and the NUL), "abc\0" (pymongo reads symbols but writes none)
    element = b"\x0es\x00" + struct.pack("<i", 4) + b"abc\x00"
    assert element_length(element + b"\x00", len(element) + 1) == len(element) == 11


def test_a_string_length_is_little_endian() -> None:
    text = "x" * 300  # int32 301 = 2d 01 00 00: read big-endian it is 0x2d010000
    data, length = _one_element(text)
    assert length == 1 + 2 + 4 + 301
    assert _length_at_4(data) == length


def test_a_two_byte_element_is_measured() -> None:
    # null with an empty key: the type byte and the key's NUL, nothing else
    data, length = _one_element(None, "")
    assert length == 2
    assert element_length(data[4:6], 2) == 2


@pytest.mark.parametrize("head", [
    b"",
    b"\x0a",
    b"\x0b" + b"r\x00ab\x00i\x00",  # a regex: two cstrings, no length prefix
    bson.encode({"r": Regex("ab", "i")})[4:],
    b"\x00k\x00",  # type 0 is the end of a document, not an element
    b"\x20k\x00\x00\x00\x00\x00",  # 0x20 is no BSON type
    b"\x10" + b"k" * 40,  # an int32 whose key has no NUL
    b"\x02k\x00\x04\x00",  # a string whose int32 is cut
    b"\x02k\x00" + struct.pack("<i", -1) + b"\x00" * 8,  # a negative length
    b"\x05k\x00" + struct.pack("<i", -1) + b"\x00" * 8,
    b"\x03k\x00" + struct.pack("<i", -5) + b"\x00" * 8,
    b"\x02k\x00" + struct.pack("<i", -2**31 + 4) + b"abc\x00",  # negative by its fourth byte alone
    b"\x02k\x00" + struct.pack("<i", 2**24 + 4) + b"abc\x00",  # 16 MiB and 4 bytes: past the file's end
])
def test_no_length_where_no_element_can_be_measured(head: bytes) -> None:
    assert element_length(head, 1000) is None


def test_an_element_must_end_inside_the_file() -> None:
    for value in (1.5, "abc", {"a": 1}, Binary(b"xy", 0)):
        data, length = _one_element(value)
        assert _length_at_4(data, file_left=length) == length  # ends at the file's last byte
        assert _length_at_4(data, file_left=length - 1) is None


def _report(findings: list[Finding]) -> FileReport:
    return FileReport("x.bson", "matrix-smt", None, "spec", Verdict.INVALID, list(findings))


def _finding(rule: str, offset: int | None, length: int | None = None) -> Finding:
    return Finding(rule, Severity.ERROR, "m", offset, length, "frames[0].t")


def test_semantic_findings_get_their_elements_length() -> None:
    data = bson.encode({"t": 1.5, "s": "abc"})  # "t" at 4 (11 bytes), "s" at 15 (1 + 2 + 4 + 4 = 11 bytes)
    assert data[4:7] == b"\x01t\x00" and data[15:18] == b"\x02s\x00"
    report = _report([
        _finding("MATRIX-FRAME-002", 4),  # semantic: gets the double's 11 bytes
        _finding("MATRIX-STATE-002", 15),  # semantic: the string's 11
        _finding("MATRIX-BSON-001", 4),  # structural: keeps what the decoder said
        _finding("MATRIX-FRAME-002", None),  # not located
        _finding("MATRIX-FRAME-002", 4, 3),  # a length already given
        _finding("NOT-A-RULE", 4),  # not a rule of the catalog
        _finding("MATRIX-FRAME-002", len(data) - 1),  # the closing NUL starts no element
    ])
    assert not RULES_BY_ID["MATRIX-FRAME-002"].structural and RULES_BY_ID["MATRIX-BSON-001"].structural
    add_element_lengths(report, io.BytesIO(data), len(data), RULES_BY_ID)
    assert [(f.rule, f.offset, f.length) for f in report.findings] == [
        ("MATRIX-FRAME-002", 4, 11), ("MATRIX-STATE-002", 15, 11), ("MATRIX-BSON-001", 4, None),
        ("MATRIX-FRAME-002", None, None), ("MATRIX-FRAME-002", 4, 3), ("NOT-A-RULE", 4, None),
        ("MATRIX-FRAME-002", len(data) - 1, None)]


@pytest.mark.parametrize(("key_size", "found"), [(255, True), (256, True), (257, False), (300, False)])
def test_keys_up_to_256_bytes_are_looked_for(key_size: int, found: bool) -> None:
    # a string element: its length needs the int32 after the key, which is read only with a key of at most 256
    data, length = _one_element("abc", "k" * key_size)
    report = _report([_finding("MATRIX-FRAME-002", 4)])
    add_element_lengths(report, io.BytesIO(data), len(data), RULES_BY_ID)
    assert report.findings[0].length == (length if found else None)
