"""The JSON form of decoded BSON values in ``recspec dump`` of a Matrix-SMT file
(``conformance/matrix_smt/_json.py``), held to BSON documents built here byte by byte (bsonspec.org: an
``int32`` total length, elements of a type byte, a NUL-terminated key and a value, a closing NUL)."""

from __future__ import annotations

import json
import struct

from recspec.conformance.matrix_smt._json import plain
from recspec.reference.matrix_smt import decode_document


def _cstring(s: str) -> bytes:
    return s.encode() + b"\x00"


def _doc(*elements: bytes) -> bytes:
    body = b"".join(elements) + b"\x00"
    return struct.pack("<i", len(body) + 4) + body


def _int32(key: str, v: int) -> bytes:
    return b"\x10" + _cstring(key) + struct.pack("<i", v)


def _int64(key: str, v: int) -> bytes:
    return b"\x12" + _cstring(key) + struct.pack("<q", v)


def _double(key: str, v: float) -> bytes:
    return b"\x01" + _cstring(key) + struct.pack("<d", v)


def _string(key: str, s: str) -> bytes:
    raw = _cstring(s)
    return b"\x02" + _cstring(key) + struct.pack("<i", len(raw)) + raw


def _sub(code: int, key: str, doc: bytes) -> bytes:
    return bytes([code]) + _cstring(key) + doc


def _code_with_scope(key: str, code: str, scope: bytes) -> bytes:
    raw = _cstring(code)
    body = struct.pack("<i", len(raw)) + raw + scope
    return b"\x0f" + _cstring(key) + struct.pack("<i", len(body) + 4) + body


def test_documents_arrays_and_numbers_as_json() -> None:
    data = _doc(
        _int32("i", -7),
        _int64("big", 1 << 40),
        _int64("small", 5),
        _double("f", 2.5),
        _string("s", "hi"),
        _sub(0x04, "arr", _doc(_int32("0", 1), _double("1", 0.5), _sub(0x04, "2", _doc()))),
        _sub(0x03, "sub", _doc(_int32("x", 1), _string("y", "z"))),
    )
    value = plain(decode_document(data))
    assert value == {"i": -7, "big": 1 << 40, "small": 5, "f": 2.5, "s": "hi", "arr": [1, 0.5, []],
                     "sub": {"x": 1, "y": "z"}}
    assert type(value["big"]) is int and type(value["small"]) is int  # an int64 as a plain JSON number
    assert type(value["arr"]) is list and type(value["sub"]) is dict
    assert json.loads(json.dumps(value)) == value


def test_a_document_with_a_repeated_key_keeps_every_pair_in_order() -> None:
    data = _doc(_int32("a", 1), _int32("b", 2), _int32("a", 3))
    assert plain(decode_document(data)) == {"$pairs": [["a", 1], ["b", 2], ["a", 3]]}
    nested = _doc(_sub(0x03, "d", _doc(_int32("k", 1), _sub(0x04, "k", _doc(_int64("0", 9))))))
    assert plain(decode_document(nested)) == {"d": {"$pairs": [["k", 1], ["k", [9]]]}}


def test_code_with_scope_is_its_code_and_its_scope_as_an_object() -> None:
    data = _doc(_code_with_scope("c", "f(y)", _doc(_int32("y", 3), _sub(0x04, "v", _doc(_int64("0", 4))))))
    assert plain(decode_document(data)) == {"c": {"code": "f(y)", "scope": {"y": 3, "v": [4]}}}


def test_an_empty_document_is_an_empty_object() -> None:
    assert plain(decode_document(_doc())) == {}
