"""The Matrix-SMT cross-check (conformance/matrix_smt/_xcheck.py): on valid BSON written by pymongo,
holding a value of each type pymongo writes, the three readings (the reference, the Kaitai parser
generated from ksy/, pymongo) agree: ``differential`` finds no divergence, and the Kaitai reading
turned into the reference's values equals the reference's reading, type for type."""

from __future__ import annotations

import datetime
import re
import struct
from typing import Any

import bson
import pytest
from bson.code import Code
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from bson.objectid import ObjectId
from bson.timestamp import Timestamp
from build_matrix_smt import document, element, pymongo_elements

from recspec.conformance.matrix_smt import _xcheck
from recspec.conformance.matrix_smt._xcheck import differential, kaitai_parse, kaitai_value
from recspec.reference import matrix_smt as b

VALUES: list[tuple[str, Any]] = [
    ("null", None),
    ("booleans", [True, False]),
    ("int64", Int64(-(2 ** 40))),
    ("binary", bson.Binary(b"\x00\x01\x02", 0)),
    ("empty binary", bson.Binary(b"", 5)),
    ("old binary (subtype 2, with its inner length)", bson.Binary(b"abc", 2)),
    ("objectid", ObjectId(b"0123456789ab")),
    ("datetime", datetime.datetime(2026, 11, 28, 9, 0, tzinfo=datetime.UTC)),
    ("regex", re.compile("a+b", re.IGNORECASE)),
    ("code", Code("f()")),
    ("code with scope", Code("g(x)", {"x": 1})),
    ("timestamp", Timestamp(1_700_000_000, 3)),
    ("decimal128", Decimal128("-2.5")),
    ("max key", MaxKey()),
    ("min key", MinKey()),
    ("nested", {"a": [1, 2.5, "s", None, {"b": False}]}),
]


@pytest.mark.parametrize(("name", "value"), VALUES, ids=[v[0] for v in VALUES])
def test_the_three_readings_agree_on_each_type(name: str, value: Any) -> None:
    data = bson.encode({"objects": [], "frames": [], "x": value, "y": [value, 1]})
    assert differential(data) == []
    assert b.typed(kaitai_value(kaitai_parse(data))) == b.typed(b.decode_document(data))


def test_a_recording_with_the_producers_null_cmd() -> None:
    doc = {"objects": [{"id": 0, "name": "b", "type": "sphere", "color": [1.0, 0.0, 0.0], "radius": 1.0}],
           "frames": [{"states": [], "cmd": None, "t": 0.0}, {"states": [], "cmd": "", "t": 1.0}]}
    data = bson.encode(doc)
    assert differential(data) == []
    assert b.typed(kaitai_value(kaitai_parse(data))) == b.typed(b.decode_document(data))


def _string(s: bytes) -> bytes:
    return struct.pack("<i", len(s) + 1) + s + b"\x00"


# the deprecated types pymongo reads but does not write: by hand from the BSON 1.1 layout
BY_HAND: list[tuple[str, bytes]] = [
    ("undefined", element(0x06, b"u", b"")),
    ("symbol", element(0x0E, b"s", _string(b"sym"))),
    ("dbpointer", element(0x0C, b"d", _string(b"db.c") + b"0123456789ab")),
]


@pytest.mark.parametrize(("name", "el"), BY_HAND, ids=[v[0] for v in BY_HAND])
def test_the_three_readings_agree_on_each_deprecated_type(name: str, el: bytes) -> None:
    data = document(pymongo_elements({"objects": [], "frames": []}), el,
                    element(0x04, b"y", document(el.replace(el[1:el.index(b"\x00")], b"0", 1))))
    assert b.decode_document(data).keys == ["objects", "frames", el[1:el.index(b"\x00")].decode(), "y"]
    assert differential(data) == []
    assert b.typed(kaitai_value(kaitai_parse(data))) == b.typed(b.decode_document(data))


def test_a_reading_of_other_values_names_the_first_place_they_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    # pymongo's reading replaced by one whose second top-level value (frames, at index 1) differs
    data = bson.encode({"objects": [], "frames": [{"t": 0.0}, {"t": 1.0}]})
    monkeypatch.setattr(_xcheck, "pymongo_decode", lambda _: {"objects": [], "frames": [{"t": 0.0}, {"t": 2.0}]})
    (divergence,) = differential(data)
    assert divergence.reader == "pymongo"
    assert divergence.message.startswith("reads other values: [1]")  # the top-level document's second value
