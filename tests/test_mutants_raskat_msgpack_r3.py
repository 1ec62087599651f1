"""The raSkat MessagePack reader and writer (reference/raskat_signal/_msgpack.py), a second round: the
MessagePack specification's name of every lead byte, ext values of every short length and a fixmap
inside an array of small integers held to the ``msgpack`` package (PyPI), the canonical lead of a
double and of a map past 65,535 pairs, and a truncation's byte counts. Written against the survivors
of tools/mutate.py's sample (seed 7)."""

from __future__ import annotations

import struct

import msgpack
import pytest

from recspec.errors import EncodeError, Truncated
from recspec.reference.raskat_signal._msgpack import (
    Ext,
    MsgMap,
    minimal_lead,
    pack,
    pack_with_leads,
    unpack,
    wide_leads,
)

#: The format names of the MessagePack specification ("Formats", "Overview"), by first byte.
SPEC_NAMES = {
    0x00: "positive fixint", 0x7F: "positive fixint", 0x80: "fixmap", 0x8F: "fixmap",
    0x90: "fixarray", 0x9F: "fixarray", 0xA0: "fixstr", 0xBF: "fixstr",
    0xC2: "false", 0xC3: "true", 0xC4: "bin 8", 0xC5: "bin 16", 0xC6: "bin 32",
    0xC7: "ext 8", 0xC8: "ext 16", 0xC9: "ext 32", 0xCA: "float 32", 0xCB: "float 64",
    0xCC: "uint 8", 0xCD: "uint 16", 0xCE: "uint 32", 0xCF: "uint 64",
    0xD0: "int 8", 0xD1: "int 16", 0xD2: "int 32", 0xD3: "int 64",
    0xD4: "fixext 1", 0xD5: "fixext 2", 0xD6: "fixext 4", 0xD7: "fixext 8", 0xD8: "fixext 16",
    0xD9: "str 8", 0xDA: "str 16", 0xDB: "str 32", 0xDC: "array 16", 0xDD: "array 32",
    0xDE: "map 16", 0xDF: "map 32", 0xE0: "negative fixint", 0xFF: "negative fixint",
}


@pytest.mark.parametrize("lead", sorted(SPEC_NAMES))
def test_a_lead_that_cannot_hold_nil_is_refused_by_its_specification_name(lead: int) -> None:
    # nil has one encoding (0xc0): every other lead byte is refused, and named as the specification names it
    with pytest.raises(EncodeError) as e:
        pack_with_leads(None, "f", {"f": lead})
    assert f"lead byte 0x{lead:02x} ({SPEC_NAMES[lead]}) cannot hold None" in str(e.value)


@pytest.mark.parametrize(("stored", "canonical"), [
    (b"\xd3" + struct.pack(">q", -0x80000000), "int 32"),
    (b"\xd3" + struct.pack(">q", -0x8000), "int 16"),
    (b"\xd2" + struct.pack(">i", -0x80), "int 8"),
    (b"\xcf" + struct.pack(">Q", 0xFFFFFFFF), "uint 32"),
    (b"\xcf" + struct.pack(">Q", 0xFFFF), "uint 16"),
])
def test_a_wide_integer_is_noted_with_the_canonical_leads_name(stored: bytes, canonical: str) -> None:
    notes: list[tuple[int, int, str]] = []
    assert unpack(stored, 0, note=lambda o, b, m: notes.append((o, b, m)))[1] == len(stored)
    assert len(notes) == 1 and notes[0][:2] == (0, stored[0])
    assert notes[0][2].endswith(f"could be stored as {canonical}")


@pytest.mark.parametrize("n", range(18))
def test_ext_values_of_every_short_length_pack_like_the_msgpack_package(n: int) -> None:
    data = bytes(range(1, n + 1))
    want = msgpack.packb(msgpack.ExtType(7, data))  # fixext 1/2/4/8/16 where the length is one of those, else ext 8
    assert pack(Ext(7, data)) == want
    assert unpack(want, 0) == (Ext(7, data), len(want))


def test_an_empty_fixmap_inside_an_array_of_small_integers_is_a_map() -> None:
    data = msgpack.packb([1, {}, 2])  # 93 01 80 02: the fixmap's lead 0x80 is one past the positive fixints
    assert data == b"\x93\x01\x80\x02"
    assert unpack(data, 0) == ((1, MsgMap(()), 2), 4)


def test_a_double_is_canonical_as_float_64() -> None:
    data = msgpack.packb(1.5, use_single_float=False)
    assert data[0] == 0xCB and minimal_lead(1.5) == 0xCB
    out: list[tuple[str, int]] = []
    assert wide_leads(data, 0, "v", out) == 9 and out == []


def test_a_map_of_65536_pairs_is_canonical_as_map_32() -> None:
    data = msgpack.packb({i: None for i in range(0x10000)})
    assert data[0] == 0xDF  # map 32: a map 16 holds at most 65,535 pairs
    out: list[tuple[str, int]] = []
    assert wide_leads(data, 0, "m", out) == len(data) and out == []
    assert minimal_lead(MsgMap(tuple((i, None) for i in range(0x10000)))) == 0xDF


def test_a_lead_with_nothing_after_it_says_none_of_its_bytes_are_there() -> None:
    data = msgpack.packb(300)[:1]  # uint 16's lead, its 2 bytes cut off
    with pytest.raises(Truncated) as e:
        unpack(data, 0)
    assert (e.value.offset, e.value.needed, e.value.available) == (0, 2, 0)
    assert "(0 of 2 bytes)" in e.value.message
