"""The C-backed proof of v3/v4 bodies (``_msgpack_fast``) held to the MessagePack specification.

Every body here is written by hand from the specification's encodings (fixint 0x00-0x7f, fixstr
0xa0|n, fixarray 0x90|n, nil 0xc0, false/true 0xc2/0xc3, uint 8 0xcc, float 32 0xca, float 64 0xcb,
fixext 4 0xd6, fixmap 0x80|n) or by the ``msgpack`` package, and every offset is counted from those
encodings: an object's offset is the sum of the sizes of the objects before it, after the 2-byte
version word. A body the proof accepts must read as the ``msgpack`` package and the hand-written
walk (``_msgpack.unpack``, object by object, with nothing to note) read it; a body with anything the walk notes or
refuses (a wider encoding, trailing bytes, a map, an ext value, a cut object) is not proven.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack
import pytest

from recspec.reference.raskat_signal import _msgpack
from recspec.reference.raskat_signal._msgpack_fast import int_elements, proven_fields

VERSION_3 = b"\x00\x03"  # the version word: the fields start at offset 2


def _package_reading(buf: bytes, count: int) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """The ``msgpack`` package's objects and their offsets (arrays as tuples)."""
    unpacker = msgpack.Unpacker(use_list=False, raw=False)
    unpacker.feed(buf[2:])
    values, offsets = [], []
    for _ in range(count):
        offsets.append(2 + unpacker.tell())
        values.append(unpacker.unpack())
    return tuple(values), tuple(offsets)


def _walk_reading(buf: bytes, count: int) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """The hand-written reader's objects and offsets; it must note nothing (a canonical body)."""
    notes: list[Any] = []
    values, offsets, pos = [], [], 2
    for _ in range(count):
        offsets.append(pos)
        value, pos = _msgpack.unpack(buf, pos, note=lambda *a: notes.append(a))
        values.append(value)
    assert pos == len(buf) and notes == []
    return tuple(values), tuple(offsets)


def test_a_canonical_body_is_proven_with_each_field_at_its_offset() -> None:
    body = (b"\x01"  # fixint 1: offset 2, one byte
            + b"\xa3abc"  # fixstr of 3: offset 3, four bytes
            + b"\xcb" + struct.pack(">d", 1.5)  # float 64: offset 7, nine bytes
            + b"\x93\x01\x02\x03"  # fixarray of three fixints: offset 16, four bytes
            + b"\xc0")  # nil: offset 20, the last byte (21 in all)
    buf = VERSION_3 + body
    assert len(buf) == 21
    proven = proven_fields(buf, 5)
    assert proven == ((1, "abc", 1.5, (1, 2, 3), None), (2, 3, 7, 16, 20))
    assert proven == _package_reading(buf, 5) == _walk_reading(buf, 5)


def test_the_first_field_is_read_from_offset_2_not_the_version_word() -> None:
    # version 0x0003 then a fixarray of two: were byte 1 (0x03) read as a field it would be the int 3
    buf = VERSION_3 + b"\x92\x05\x06"
    assert proven_fields(buf, 1) == (((5, 6),), (2,))
    buf = VERSION_3 + b"\x07\x08"
    assert proven_fields(buf, 2) == ((7, 8), (2, 3))


@pytest.mark.parametrize("elements", [
    (1.0, 2.5),  # floats: not int elements, still scalars
    ("a", "bc"),
    (None, True, 7, 0.5, "s", b"b"),  # one element of each of the six scalar types
    (True, False),
])
def test_an_array_of_scalars_is_proven(elements: tuple[Any, ...]) -> None:
    buf = VERSION_3 + msgpack.packb(elements) + b"\x2a"  # then the fixint 42
    array_size = len(msgpack.packb(elements))
    assert proven_fields(buf, 2) == ((elements, 42), (2, 2 + array_size))
    assert proven_fields(buf, 2) == _walk_reading(buf, 2)


@pytest.mark.parametrize("body", [
    b"\x01\x02",  # one field of one, then a trailing byte
    b"\xcc\x01",  # 1 as a uint 8: canonical is the fixint 0x01
    b"\xca" + struct.pack(">f", 1.5),  # a float 32: canonical is the float 64
    b"\xd9\x03abc",  # str 8 of three bytes: canonical is the fixstr 0xa3
    b"\xdc\x00\x01\x01",  # array 16 of one: canonical is the fixarray 0x91
    b"\x81\x01\x02",  # a fixmap {1: 2}
    b"\xd6\xff\x00\x00\x00\x01",  # fixext 4 of type -1: a timestamp (1 s), which the C unpacker makes a Timestamp
    b"\xd4\x05\x00",  # fixext 1 of type 5
    b"\x91\x91\x01",  # an array inside an array
    b"\xa3ab",  # a fixstr of three with two bytes left
    b"\xc1",  # the byte the specification never uses
    b"\xa2\xff\xfe",  # a fixstr that is not UTF-8
])
def test_a_body_the_walk_notes_or_refuses_is_not_proven(body: bytes) -> None:
    assert proven_fields(VERSION_3 + body, 1) is None


def test_a_short_body_is_not_proven() -> None:
    assert proven_fields(VERSION_3 + b"\x01", 2) is None  # two fields asked, one there
    assert proven_fields(VERSION_3, 1) is None


@pytest.mark.parametrize(("values", "expected"), [
    ((1, 2, 3), True),
    ((), True),
    ((194, 195), True),  # uint 8 0xcc 0xc2, 0xcc 0xc3: the bool leads as data bytes, ints still
    ((-62,), True),  # int 8 0xd0 0xc2
    ((True, 1), False),  # 0xc3 among the elements: a bool, whose sum with ints is an int
    ((False, 1), False),  # 0xc2
    ((1, True, False), False),
    ((1, 2.0), False),  # the sum is a float
    (("a", 1), False),  # a str cannot be added
    ((1, None), False),
])
def test_int_elements(values: tuple[Any, ...], expected: bool) -> None:
    encoded = msgpack.packb(values)
    assert int_elements(values, encoded) is expected
    assert expected == all(type(v) is int for v in values)  # the fact the function stands in for


def test_int_elements_with_bool_bytes_and_ints_only() -> None:
    # 0xc2 in the bytes (as a uint 8's data) and every element an int: the one-by-one look says True
    assert msgpack.packb((194,)) == b"\x91\xcc\xc2"
    assert int_elements((194,), b"\x91\xcc\xc2") is True
