"""The Matrix-SMT sniffer (``conformance/matrix_smt/_sniff.py``) held to BSON's layout (bsonspec.org, and
docs/formats/matrix-smt.md): a document is an ``int32`` little-endian total length of at least 5, then
elements, each a type byte (0x01 to 0x13, 0x7F max key, 0xFF min key), a NUL-terminated key and a value.

A recording is the document holding the arrays ``frames`` and ``objects`` (key order free), so a head whose
first element is one of them is certain (1.0), one that holds either further on is nearly so, and any other
BSON document is a weak guess that an extension outweighs (``0 < score < EXTENSION_EVIDENCE``). A head that
cannot start a BSON document scores 0. The registry hands a sniffer at most ``SNIFF_BYTES`` bytes, so a first
key that runs past them is still BSON."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from helpers import real_file
from recspec.conformance.matrix_smt._sniff import sniff
from recspec.formats import EXTENSION_EVIDENCE, SNIFF_BYTES

ROOT = Path(__file__).resolve().parent.parent
VALID = sorted((ROOT / "corpus" / "matrix-smt" / "valid").glob("*.bson"))


def _head(path: Path) -> bytes:
    with path.open("rb") as f:
        return f.read(SNIFF_BYTES)


def _weak(score: float) -> bool:
    return 0.0 < score < EXTENSION_EVIDENCE


def _doc(*elements: bytes, length: int | None = None) -> bytes:
    """A BSON document of these elements, its length field ``length`` when given (a head only)."""
    body = b"".join(elements) + b"\x00"
    return struct.pack("<i", len(body) + 4 if length is None else length) + body


def _int32(key: bytes, value: int = 1) -> bytes:
    return b"\x10" + key + b"\x00" + struct.pack("<i", value)


def _array(key: bytes) -> bytes:
    return b"\x04" + key + b"\x00" + _doc()


def test_the_real_recording_and_the_valid_corpus_are_certain() -> None:
    for head in [_head(real_file("Scene1.bson"))] + [_head(p) for p in VALID]:
        assert head[4] == 0x04 and head[5:11] in (b"frames", b"object")  # read by hand: an array first
        assert sniff(head) == 1.0


@pytest.mark.parametrize("key", [b"frames", b"objects"])
def test_either_array_first_is_certain(key: bytes) -> None:
    assert sniff(_doc(_array(key))) == 1.0
    # a length field of 16 MiB and more: the first three bytes alone would read 0
    assert sniff(_doc(_array(key), length=0x0100_0000)[:64]) == 1.0


@pytest.mark.parametrize("key", [b"frames", b"objects"])
def test_either_array_after_another_element_is_nearly_certain(key: bytes) -> None:
    score = sniff(_doc(_int32(b"version"), _array(key)))
    assert EXTENSION_EVIDENCE < score < 1.0


def test_a_key_named_frames_that_is_not_an_array_is_still_first_in_the_recording() -> None:
    # the sniffer reads the first key; its type is the checker's business
    assert sniff(_doc(_int32(b"frames"))) == 1.0


@pytest.mark.parametrize("code", [*range(0x01, 0x14), 0x7F, 0xFF])
def test_every_bson_type_code_first_is_bson(code: int) -> None:
    head = struct.pack("<i", 200) + bytes([code]) + b"hello\x00" + bytes(16)
    assert _weak(sniff(head))


@pytest.mark.parametrize("code", [0x00, 0x14, 0x15, 0x7E, 0x80, 0xFE])
def test_a_byte_that_is_no_bson_type_first_is_not_bson(code: int) -> None:
    assert sniff(struct.pack("<i", 200) + bytes([code]) + b"hello\x00" + bytes(16)) == 0.0


def test_a_length_field_from_128_up_is_read_little_endian() -> None:
    # 200 = C8 00 00 00: read big-endian it would be negative
    assert _weak(sniff(_doc(_int32(b"hello"), length=200)))
    assert _weak(sniff(_doc(_int32(b"hello"), length=0x7FFF_FFFF)))


@pytest.mark.parametrize("length", [-1, 0, 4, -0x8000_0000])
def test_a_length_below_five_is_not_a_document(length: int) -> None:
    assert sniff(_doc(_int32(b"a"), length=length)) == 0.0


def test_the_smallest_heads() -> None:
    assert _weak(sniff(b"\x05\x00\x00\x00\x10a\x00"))  # 7 bytes: length 5, a type byte, a one-letter key
    assert _weak(sniff(b"\x07\x00\x00\x00\x10a\x00"))
    assert sniff(b"\x06\x00\x00\x00\x10\x00") == 0.0  # 6 bytes: too short to tell
    assert sniff(b"\x05\x00\x00\x00") == 0.0
    assert sniff(b"") == 0.0


def test_an_empty_key_is_a_key() -> None:
    assert _weak(sniff(_doc(b"\x10\x00" + struct.pack("<i", 1))))


def test_a_key_with_no_nul_in_a_short_head_is_not_bson() -> None:
    head = struct.pack("<i", 5000) + b"\x02" + b"k" * 100  # cut inside the first key: the head is the whole file
    assert sniff(head) == 0.0
    assert sniff(struct.pack("<i", 5000) + b"\x02" + b"k" * (SNIFF_BYTES - 6)) == 0.0  # one byte short of SNIFF_BYTES


@pytest.mark.parametrize("fill", [b"k", b"\x01"])
def test_a_key_longer_than_the_sniffed_bytes_is_still_bson(fill: bytes) -> None:
    head = struct.pack("<i", 5000) + b"\x02" + fill * (SNIFF_BYTES - 5)
    assert len(head) == SNIFF_BYTES
    assert _weak(sniff(head))


def test_a_key_that_is_not_printable_ascii_is_not_bson_enough() -> None:
    assert sniff(_doc(_int32("clé".encode()))) == 0.0  # UTF-8, not ASCII
    assert sniff(_doc(_int32(b"a\x01b"))) == 0.0  # ASCII, not printable


@pytest.mark.parametrize("name", ["carla_0915_crash.log", "hello_vel.traj", "signal.v3"])
def test_other_formats_real_files_are_not_bson(name: str) -> None:
    assert sniff(_head(real_file(name))) == 0.0
