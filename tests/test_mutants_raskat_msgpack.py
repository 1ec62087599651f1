"""The raSkat MessagePack reader and writer (reference/raskat_signal/_msgpack.py) held to the
``msgpack`` package (PyPI) at every width boundary, and to the MessagePack specification's lead
bytes for the wider encodings that package never writes. Refusals are checked for their offset
and rule."""

from __future__ import annotations

import struct

import msgpack
import pytest

from recspec.errors import EncodeError, LimitExceeded, Malformed, Truncated
from recspec.reference.raskat_signal._msgpack import (
    MAX_DEPTH,
    Ext,
    MsgMap,
    _len_header,
    kind_of,
    minimal_lead,
    pack,
    pack_with_leads,
    unpack,
    wide_leads,
)

INTS = [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0xFFFFFFFF, 0x100000000, (1 << 64) - 1,
        -1, -32, -33, -0x80, -0x81, -0x8000, -0x8001, -0x80000000, -0x80000001, -(1 << 63)]
LENGTHS = [0, 1, 15, 16, 31, 32, 0xFF, 0x100, 0xFFFF, 0x10000]


def _reference(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _to_package(v: object) -> object:
    if isinstance(v, tuple):
        return [_to_package(x) for x in v]
    if isinstance(v, MsgMap):
        return {_to_package(k): _to_package(x) for k, x in v.pairs}
    if isinstance(v, Ext):
        return msgpack.ExtType(v.code, v.data)
    return v


@pytest.mark.parametrize("value", INTS)
def test_integers_pack_and_read_like_the_msgpack_package(value: int) -> None:
    want = _reference(value)
    assert pack(value) == want
    assert minimal_lead(value) == want[0]
    assert unpack(want + b"\xc0", 0) == (value, len(want))


@pytest.mark.parametrize("value", [1 << 64, -(1 << 63) - 1])
def test_integers_past_64_bits_are_refused(value: int) -> None:
    with pytest.raises(EncodeError):
        pack(value)


@pytest.mark.parametrize("n", LENGTHS)
def test_lengths_pack_and_read_like_the_msgpack_package(n: int) -> None:
    values = ["s" * n, b"b" * n, tuple(range(n % 100)) * (n // 100) + tuple(range(n % 100)),
              MsgMap(tuple((i, None) for i in range(min(n, 0x10000)))), Ext(5, b"e" * n)]
    for v in values:
        if isinstance(v, tuple) and len(v) != n:
            v = tuple(i & 0x7F for i in range(n))
        want = _reference(_to_package(v))
        assert pack(v) == want, (type(v), n)
        got, end = unpack(want + b"\xc0", 0)
        assert end == len(want)
        assert _to_package(got) == _to_package(v)
        assert minimal_lead(v) == want[0]


def test_the_32_bit_length_header_and_past_it() -> None:
    out = bytearray()
    _len_header(out, 0xFFFFFFFF, 0xA0, 31, (0xD9, 0xDA, 0xDB))
    assert bytes(out) == b"\xdb\xff\xff\xff\xff"  # str 32
    with pytest.raises(EncodeError):
        _len_header(bytearray(), 1 << 32, 0xA0, 31, (0xD9, 0xDA, 0xDB))


@pytest.mark.parametrize("value", [0.0, -1.5, 1e300, float("inf"), True, False, None, "ü", 3.25])
def test_scalars_pack_like_the_msgpack_package(value: object) -> None:
    assert pack(value) == _reference(value)
    assert unpack(_reference(value), 0)[0] == value


def test_kind_of_names_each_family_and_refuses_other_types() -> None:
    assert [kind_of(v) for v in (None, True, 3, 1.0, "s", b"b", (), MsgMap(), Ext(1, b"x"))] == [
        "nil", "bool", "int", "float", "str", "bin", "array", "map", "ext"]
    with pytest.raises(EncodeError):
        kind_of(object())
    with pytest.raises(EncodeError):
        pack({1, 2})


@pytest.mark.parametrize(("data", "needed", "available"), [
    (b"\xcd\x01", 2, 1),  # uint 16 cut
    (b"\xcb" + b"\0" * 7, 8, 7),  # float 64 cut
    (b"\xd9", 1, 0),  # str 8 without its length
    (b"\xd9\x05abc", 5, 3),  # str 8 cut
    (b"\xa5ab", 5, 2),  # fixstr cut
    (b"\xc7\x03\x01ab", 4, 3),  # ext 8: type byte and 3 data bytes
    (b"\xd6\x01ab", 5, 3),  # fixext 4
    (b"", 1, 0),
])
def test_truncation_is_located_at_the_objects_start(data: bytes, needed: int, available: int) -> None:
    with pytest.raises(Truncated) as e:
        unpack(b"\xc0" + data, 1)
    assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == (
        "RSIG-STREAM-001", 1, needed, available)
    with pytest.raises(ValueError):  # the msgpack package refuses the same input (its OutOfData)
        msgpack.unpackb(data)


def test_an_array_whose_count_passes_the_end_is_refused_without_reading_it() -> None:
    for data, needed in ((b"\xdc\xff\xff", 0xFFFF), (b"\xde\x00\x02\x01", 4), (b"\x93\x01\x02", 3)):
        with pytest.raises(Truncated) as e:
            unpack(b"\xc0" + data, 1)
        assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == (
            "RSIG-STREAM-001", 1, needed, len(data) - (3 if data[0] >= 0xDC else 1))


def test_elements_wider_than_a_byte_that_run_past_the_end_are_truncation() -> None:
    with pytest.raises(Truncated) as e:
        unpack(b"\x93\xcd\x01\x00\xcd", 0)  # three elements, the second cut
    assert (e.value.rule, e.value.offset) == ("RSIG-STREAM-001", 4)
    with pytest.raises(Truncated) as e:
        unpack(b"\x92\xcd\x01\x00", 0)  # the second element is missing
    assert (e.value.rule, e.value.offset) == ("RSIG-STREAM-001", 4)


def test_lead_byte_c1_is_malformed_where_it_stands() -> None:
    with pytest.raises(Malformed) as e:
        unpack(b"\x92\x01\xc1", 0)
    assert (e.value.rule, e.value.offset) == ("RSIG-MSGPACK-001", 2)


def test_nesting_is_read_to_max_depth_and_refused_past_it() -> None:
    assert MAX_DEPTH == 32
    ok = b"\x91" * MAX_DEPTH + b"\x01"
    value, end = unpack(ok, 0)
    assert end == len(ok) and _to_package(value) == msgpack.unpackb(ok)
    deep = b"\x91" * (MAX_DEPTH + 1) + b"\x01"
    with pytest.raises(LimitExceeded) as e:
        unpack(deep, 0)
    assert (e.value.rule, e.value.offset, e.value.value, e.value.maximum) == ("RSIG-MSGPACK-001", MAX_DEPTH,
                                                                              MAX_DEPTH + 1, MAX_DEPTH)
    with pytest.raises(LimitExceeded):
        unpack(b"\x81\x01" * (MAX_DEPTH + 1) + b"\x01", 0)


@pytest.mark.parametrize(("data", "value", "named"), [
    (b"\xcd\x00\x05", 5, "positive fixint"),
    (b"\xcc\x05", 5, "positive fixint"),
    (b"\xd0\xfb", -5, "negative fixint"),
    (b"\xd1\xff\x7f", -129, ""),  # already minimal: no note
    (b"\xd1\xff\x80", -128, "int 8"),
    (b"\xd2\xff\xff\xff\x38", -200, "int 16"),
    (b"\xd0\xe0", -32, "negative fixint"),
    (b"\xd1\xff\xe0", -32, "negative fixint"),
    (b"\xcd\x00\xff", 255, "uint 8"),
    (b"\xce\x00\x00\xff\xff", 0xFFFF, "uint 16"),
    (b"\xcf\x00\x00\x00\x00\x00\x01\x00\x00", 0x10000, "uint 32"),
    (b"\xd3\xff\xff\xff\xff\x7f\xff\xff\xff", -0x80000001, ""),  # already minimal: no note
    (b"\xd9\x03abc", "abc", "fixstr"),
    (b"\xda\x00\x28" + b"a" * 40, "a" * 40, "str 8"),
    (b"\xc5\x00\x02ab", b"ab", "bin 8"),
    (b"\xdc\x00\x02\x01\x02", (1, 2), "fixarray"),
    (b"\xdd\x00\x00\x00\x14" + b"\x01" * 20, (1,) * 20, "array 16"),
    (b"\xde\x00\x01\x01\x02", MsgMap(((1, 2),)), "fixmap"),
    (b"\xdf\x00\x00\x00\x10" + b"\x01\x02" * 16, MsgMap(((1, 2),) * 16), "map 16"),
    (b"\xc7\x01\x05a", Ext(5, b"a"), "fixext 1"),
    (b"\xc7\x10\x05" + b"p" * 16, Ext(5, b"p" * 16), "fixext 16"),
])
def test_wider_encodings_are_read_and_noted_with_the_canonical_name(data: bytes, value: object, named: str) -> None:
    notes: list[tuple[int, int, str]] = []
    got, end = unpack(b"\xc0" + data, 1, note=lambda *a: notes.append(a))
    assert (got, end) == (value, 1 + len(data))
    assert _to_package(got) == msgpack.unpackb(data, strict_map_key=False)
    if not named:
        assert notes == []
    else:
        assert [(o, b) for o, b, _ in notes] == [(1, data[0])] and notes[0][2].endswith(named)


def test_float_32_is_read_and_noted() -> None:
    notes: list[tuple[int, int, str]] = []
    data = msgpack.packb(1.5, use_single_float=True)
    assert unpack(data, 0, note=lambda *a: notes.append(a)) == (1.5, 5)
    assert [(o, b) for o, b, _ in notes] == [(0, 0xCA)]
    notes.clear()
    assert unpack(_reference(1.5), 0, note=lambda *a: notes.append(a)) == (1.5, 9) and notes == []


@pytest.mark.parametrize("samples", [
    [300, 1023, 256],  # 10-bit codes above 255: canonical uint 16
    [1, 127, 0],  # positive fixints
    [300, 5, 1023],  # mixed widths
    [128, 255, 300],  # uint 8 then uint 16
    [-1, 300, 2],
])
def test_sample_arrays_read_like_the_msgpack_package(samples: list[int]) -> None:
    data = _reference(samples)
    notes: list[tuple[int, int, str]] = []
    assert unpack(data, 0, note=lambda *a: notes.append(a)) == (tuple(samples), len(data))
    assert notes == []


def test_uint16_samples_of_a_byte_are_noted_at_their_own_offset() -> None:
    data = b"\x93" + b"\xcd\x01\x00" + b"\xcd\x00\xff" + b"\xcd\x00\x05"
    notes: list[tuple[int, int, str]] = []
    assert unpack(data, 0, note=lambda *a: notes.append(a)) == ((256, 255, 5), len(data))
    assert [(o, b) for o, b, _ in notes] == [(4, 0xCD), (7, 0xCD)]
    assert notes[0][2].endswith("uint 8") and notes[1][2].endswith("positive fixint")


def test_wide_leads_lists_each_wider_object_by_path() -> None:
    inner = b"\x93\x01\xcd\x00\x05\xd9\x02ab"  # fixarray: 1, uint 16 of 5, str 8 of "ab"
    data = b"\xdc\x00\x02" + inner + b"\xca" + struct.pack(">f", 2.5)
    out: list[tuple[str, int]] = []
    assert wide_leads(data, 0, "x", out) == len(data)
    assert out == [("x", 0xDC), ("x[0][1]", 0xCD), ("x[0][2]", 0xD9), ("x[1]", 0xCA)]
    out.clear()
    m = b"\xde\x00\x01\xa1k\xce\x00\x00\x00\x07"
    assert wide_leads(m, 0, "m", out) == len(m)
    assert out == [("m", 0xDE), ("m[1]", 0xCE)]
    out.clear()
    canonical = _reference([1, 300, "ab", b"\x00" * 300, "s" * 40, b"\x00" * 0xFFFF, "t" * 0xFFFF])
    assert wide_leads(canonical, 0, "c", out) == len(canonical) and out == []


@pytest.mark.parametrize(("value", "leads", "want"), [
    (5, {"x": 0xCD}, b"\xcd\x00\x05"),
    (5, {"x": 0xD3}, b"\xd3" + (5).to_bytes(8, "big")),
    (-5, {"x": 0xD0}, b"\xd0\xfb"),
    (2.5, {"x": 0xCA}, b"\xca" + struct.pack(">f", 2.5)),
    ("ab", {"x": 0xDA}, b"\xda\x00\x02ab"),
    (b"ab", {"x": 0xC6}, b"\xc6\x00\x00\x00\x02ab"),
    ((1, 2), {"x": 0xDD}, b"\xdd\x00\x00\x00\x02\x01\x02"),
    ((1, 2), {"x[1]": 0xCC}, b"\x92\x01\xcc\x02"),
    ((1, (2, 3)), {"x[1][0]": 0xCD}, b"\x92\x01\x92\xcd\x00\x02\x03"),
    (MsgMap((("k", 7),)), {"x": 0xDE, "x[1]": 0xCC}, b"\xde\x00\x01\xa1k\xcc\x07"),
    ((1, 2), {"x": 0x92}, b"\x92\x01\x02"),
    ("ab", {"x": 0xA2}, b"\xa2ab"),
    (5, {"y": 0xCD}, b"\x05"),
])
def test_pack_with_leads_writes_the_leads_the_specification_gives(value: object, leads: dict, want: bytes) -> None:
    assert pack_with_leads(value, "x", leads) == want
    assert _to_package(unpack(want, 0)[0]) == msgpack.unpackb(want, strict_map_key=False)


@pytest.mark.parametrize(("value", "lead"), [
    ((1, 2), 0xCC),  # an int lead for an array
    ((1, 2), 0xDE),  # a map lead for an array
    ((1, 2), 0x93),  # a fixarray of three for two
    (MsgMap(((1, 2),)), 0xDC),
    (tuple(range(16)), 0x9F),
    (300, 0xCC),  # does not fit uint 8
    (-1, 0xCC),
    (0.1, 0xCA),  # not a float 32 value
    ("a" * 256, 0xD9),  # does not fit str 8
    (b"a" * 256, 0xC4),
    ("ab", 0xC4),  # a bin lead for a str
    (b"ab", 0xD9),
    ("ab", 0xCC),
    (5, 0xCB),
    (1.5, 0xCD),
])
def test_pack_with_leads_refuses_a_lead_that_cannot_hold_the_value(value: object, lead: int) -> None:
    with pytest.raises(EncodeError):
        pack_with_leads(value, "x", {"x": lead})


def test_pack_with_leads_keeps_nan_as_float_32() -> None:
    got = pack_with_leads(float("nan"), "x", {"x": 0xCA})
    assert got[0] == 0xCA and len(got) == 5


def test_pack_with_leads_refuses_a_count_past_the_leads_width() -> None:
    n = 0x10000
    with pytest.raises(EncodeError):
        pack_with_leads((0,) * n, "x", {"x": 0xDC})  # array 16 holds at most 65,535
    want = b"\xdc\xff\xff" + b"\x00" * 0xFFFF
    assert pack_with_leads((0,) * 0xFFFF, "x", {"x": 0xDC}) == want == _reference([0] * 0xFFFF)
    with pytest.raises(EncodeError):
        pack_with_leads(b"b" * 0x100, "x", {"x": 0xC4})


@pytest.mark.parametrize(("data", "stored", "canonical"), [
    (b"\xdf\x00\x00\x00\x10" + b"\x01\x02" * 16, "map 32", "map 16"),
    (b"\xdd\x00\x00\x00\x14" + b"\x01" * 20, "array 32", "array 16"),
    (b"\xda\x00\x28" + b"a" * 40, "str 16", "str 8"),
    (b"\xc6\x00\x00\x00\x02ab", "bin 32", "bin 8"),
])
def test_a_note_names_the_stored_lead_and_the_canonical_one(data: bytes, stored: str, canonical: str) -> None:
    notes: list[tuple[int, int, str]] = []
    unpack(data, 0, note=lambda *a: notes.append(a))
    (note,) = notes
    assert note[2].startswith(stored + " ") and note[2].endswith(canonical)
