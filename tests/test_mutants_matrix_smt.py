"""The BSON decoder and encoder (reference/matrix_smt/_bson.py) against pymongo's own ``bson``
package and the BSON 1.1 specification (bsonspec.org: type codes, value sizes, little-endian
lengths): every element type read to its value and offset, the depth limit at 100 levels below the
top document (docs/formats/matrix-smt.md, MATRIX-LIMIT-001), and the encoder's bytes equal to
pymongo's. Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import datetime
import struct

import bson
import pytest
from bson import Binary as PyBinary
from bson import Code as PyCode
from bson import Decimal128 as PyDecimal128
from bson import Int64 as PyInt64
from bson import MaxKey as PyMaxKey
from bson import MinKey as PyMinKey
from bson import ObjectId as PyObjectId
from bson import Regex as PyRegex
from bson import Timestamp as PyTimestamp

from recspec.errors import DecodeError, LimitExceeded
from recspec.reference.matrix_smt import _bson

OID = bytes(range(1, 13))


def test_the_type_table_follows_the_specification() -> None:
    # code: (name, fixed value size or None) from the BSON 1.1 specification
    spec = {0x01: ("double", 8), 0x02: ("string", None), 0x03: ("document", None), 0x04: ("array", None),
            0x05: ("binary", None), 0x06: ("undefined", 0), 0x07: ("objectId", 12), 0x08: ("bool", 1),
            0x09: ("date", 8), 0x0A: ("null", 0), 0x0B: ("regex", None), 0x0C: ("dbPointer", None),
            0x0D: ("javascript", None), 0x0E: ("symbol", None), 0x0F: ("javascriptWithScope", None),
            0x10: ("int", 4), 0x11: ("timestamp", 8), 0x12: ("long", 8), 0x13: ("decimal", 16),
            0x7F: ("maxKey", 0), 0xFF: ("minKey", 0)}
    assert {code: (t.name, t.size) for code, t in _bson.BSON_TYPES.items()} == spec


def test_every_type_pymongo_writes_decodes_to_its_value() -> None:
    data = bson.encode({
        "d": 1.5, "s": "", "t": "héllo", "o": {"x": 1}, "a": [1, "b"], "b0": PyBinary(b"\x01\x02", 0),
        "b2": PyBinary(b"abc", 2), "id": PyObjectId(OID), "f": False, "T": True,
        "dt": datetime.datetime(2020, 1, 2, 3, 4, 5, 6000, tzinfo=datetime.UTC), "n": None,
        "re": PyRegex("a.c", "im"), "js": PyCode("f()"), "jss": PyCode("g()", {"k": 2}), "i": -7,
        "ts": PyTimestamp(1_600_000_000, 9), "l": PyInt64(2**40), "dec": PyDecimal128("1.25"),
        "max": PyMaxKey(), "min": PyMinKey(), "after": 42})
    doc = _bson.decode_document(data).map()
    assert doc["d"] == 1.5 and doc["s"] == "" and doc["t"] == "héllo"
    assert doc["o"].map() == {"x": 1} and doc["a"].values == [1, "b"]
    assert doc["b0"] == _bson.Binary(0, b"\x01\x02")
    assert doc["b2"] == _bson.Binary(2, struct.pack("<i", 3) + b"abc")  # subtype 2: an inner length first
    assert doc["id"] == _bson.ObjectId(OID) and doc["f"] is False and doc["T"] is True
    assert doc["dt"] == _bson.DateTime(1_577_934_245_006)  # ms since the epoch, from the calendar date
    assert doc["n"] is None and doc["re"] == _bson.Regex("a.c", "im")
    assert doc["js"] == _bson.Code("f()")
    assert doc["jss"].code == "g()" and doc["jss"].scope.map() == {"k": 2}
    assert doc["i"] == -7 and type(doc["i"]) is int
    assert doc["ts"] == _bson.Timestamp(1_600_000_000 << 32 | 9)  # seconds in the high word
    assert doc["l"] == 2**40 and isinstance(doc["l"], _bson.Int64)
    assert doc["dec"] == _bson.Decimal128(PyDecimal128("1.25").bid)
    assert isinstance(doc["max"], _bson.MaxKey) and isinstance(doc["min"], _bson.MinKey)
    assert doc["after"] == 42  # every value above ended where the next element starts


def test_deprecated_types_written_by_hand() -> None:
    # 0x0C DBPointer (a string, then a 12-byte id), 0x06 undefined, 0x0E symbol, then an int32
    body = (b"\x0cp\x00" + struct.pack("<i", 4) + b"db.\x00" + OID + b"\x06u\x00" + b"\x0esy\x00"
            + struct.pack("<i", 2) + b"z\x00" + b"\x10n\x00" + struct.pack("<i", 5))
    data = struct.pack("<i", len(body) + 5) + body + b"\x00"
    doc = _bson.decode_document(data)
    assert doc.map()["p"] == _bson.DBPointer("db.", OID)
    assert isinstance(doc.map()["u"], _bson.Undefined) and doc.map()["sy"] == _bson.Symbol("z")
    assert doc.map()["n"] == 5
    assert doc.offsets == [4, 4 + 3 + 8 + 12, 4 + 3 + 8 + 12 + 3, 4 + 3 + 8 + 12 + 3 + 4 + 6]


def test_element_offsets_are_their_type_bytes() -> None:
    data = bson.encode({"v": [1.0, 2.0, 3.0], "w": 1})
    doc = _bson.decode_document(data)
    # "v" at 4 (after the length); its array's length at 7, elements of 1 + 2 ("0\0") + 8 bytes from 11
    assert doc.offsets == [4, 7 + 4 + 33 + 1]
    assert doc.map()["v"].values == [1.0, 2.0, 3.0] and doc.map()["v"].offsets == [11, 22, 33]
    assert _bson.decode_document(data, base=100).map()["v"].offsets == [111, 122, 133]


def test_the_last_of_repeated_names_is_the_one_located() -> None:
    body = b"".join(b"\x10" + name + b"\x00" + struct.pack("<i", i) for i, name in enumerate((b"a", b"b", b"a"), 1))
    doc = _bson.decode_document(struct.pack("<i", len(body) + 5) + body + b"\x00")
    assert doc.offset_of("a") == 4 + 7 + 7 and doc.offset_of("b") == 4 + 7 and doc.offset_of("c") is None
    assert doc.regular is False  # a repeated name


def test_arrays_with_index_keys_are_regular() -> None:
    assert _bson.decode_document(bson.encode({"a": [1, 2]})).regular is True
    body = b"\x101\x00" + struct.pack("<i", 1) + b"\x100\x00" + struct.pack("<i", 2)  # keys "1", "0"
    arr = struct.pack("<i", len(body) + 5) + body + b"\x00"
    outer = b"\x04a\x00" + arr
    assert _bson.decode_document(struct.pack("<i", len(outer) + 5) + outer + b"\x00").regular is False


def _nested(levels: int) -> bytes:
    doc: dict[str, object] = {}
    for _ in range(levels):
        doc = {"a": doc}
    return bson.encode(doc)


def test_nesting_is_read_to_100_levels_below_the_top() -> None:
    assert _bson.decode_document(_nested(100)) is not None
    with pytest.raises(LimitExceeded) as e:
        _bson.decode_document(_nested(101))
    # each level: 4 (length) + 1 (type) + 2 ("a" and its NUL) bytes before the next document's length
    assert (e.value.rule, e.value.offset) == ("MATRIX-LIMIT-001", 7 * 101)


def test_an_element_name_without_nul_says_what_is_left() -> None:
    data = struct.pack("<i", 9) + b"\x10abcd"  # no NUL after the name "abc": the document's last byte is "d"
    with pytest.raises(DecodeError) as e:
        _bson.decode_document(data)
    assert e.value.offset == 5 and "(4 bytes needed, 3 left)" in e.value.message


@pytest.mark.parametrize("value", [0, 2**31 - 1, -(2**31), 2**31, -(2**31) - 1, 2**62, 1.5, "x", [1, [2]],
                                   {"k": {"j": None}}, True])
def test_the_encoder_writes_what_pymongo_writes(value: object) -> None:
    assert _bson.encode_document({"a": value, "b": 1}) == bson.encode({"a": value, "b": 1})


def test_the_encoder_writes_code_and_tuples_as_pymongo_does() -> None:
    assert _bson.encode_document({"c": _bson.Code("f()")}) == bson.encode({"c": PyCode("f()")})
    assert _bson.encode_document({"t": (1, 2)}) == bson.encode({"t": [1, 2]})
    assert _bson.encode_document({"t": _bson.Array.of_values([1, 2])}) == bson.encode({"t": [1, 2]})
