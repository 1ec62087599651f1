"""The xz index reading (reference/raskat_signal/_xz_index.py) held to the xz file format (1.2.1):
the variable-length integer of 2.1.4 (7 bits a byte, low first, at most 9 bytes, no trailing zero
byte), the stream header and footer of 2.1.2 (12 bytes each, the footer's backward size in 4-byte
units less one, its CRC32 over backward size and flags, the magic ``YZ``), and the index of 4 (the
indicator 0x00, records, zero padding to 4 bytes, a CRC32), on streams ``lzma`` writes."""

from __future__ import annotations

import lzma
import struct
import zlib

import pytest
from build_raskat_signal import xz_vli

from recspec.reference.raskat_signal._xz_index import _vli, declared_unpacked


@pytest.mark.parametrize(("data", "value"), [
    (b"\x00", 0),
    (b"\x7f", 0x7F),
    (b"\x80\x01", 0x80),
    (b"\xff\x7f", 0x3FFF),
    (b"\x80\x80\x01", 0x4000),
    (b"\xff" * 8 + b"\x7f", (1 << 63) - 1),  # nine bytes: the most a VLI takes
])
def test_vli_reads_the_formats_integers(data: bytes, value: int) -> None:
    assert _vli(data + b"\x55", 0, len(data) + 1) == (value, len(data))
    assert _vli(b"\x00" + data, 1, len(data) + 1) == (value, len(data) + 1)


@pytest.mark.parametrize("data", [
    b"\x80\x00",  # a last byte of 0 after the first: not the shortest form
    b"\xff\x80\x00",
    b"\xff" * 9 + b"\x01",  # ten bytes
    b"\x80",  # runs past the end
    b"",
])
def test_vli_refuses_what_the_format_does_not_allow(data: bytes) -> None:
    assert _vli(data, 0, len(data)) is None


def test_vli_stops_at_the_end_it_is_given() -> None:
    assert _vli(b"\x80\x01", 0, 1) is None
    assert _vli(b"\x05\x01", 0, 1) == (5, 1)


@pytest.mark.parametrize("n", [0, 1, 127, 128, 1000, 20_000])
def test_a_stream_declares_what_lzma_compressed(n: int) -> None:
    for check in (lzma.CHECK_NONE, lzma.CHECK_CRC32, lzma.CHECK_CRC64, lzma.CHECK_SHA256):
        assert declared_unpacked(lzma.compress(b"\x11" * n, format=lzma.FORMAT_XZ, check=check)) == n


def _fix_footer(data: bytearray) -> None:
    data[-12:-8] = struct.pack("<I", zlib.crc32(bytes(data[-8:-2])))


def test_the_header_and_footer_are_checked_field_by_field() -> None:
    good = lzma.compress(b"abc" * 50, format=lzma.FORMAT_XZ)
    assert declared_unpacked(good) == 150
    for i in range(6):  # the header magic
        bad = bytearray(good)
        bad[i] ^= 1
        assert declared_unpacked(bytes(bad)) is None
    for i in (-2, -1):  # the footer magic
        bad = bytearray(good)
        bad[i] ^= 1
        assert declared_unpacked(bytes(bad)) is None
    bad = bytearray(good)
    bad[8] ^= 1  # the header's CRC32
    assert declared_unpacked(bytes(bad)) is None
    bad = bytearray(good)
    bad[-3] ^= 1  # the footer's flags differ from the header's (its CRC32 made right)
    _fix_footer(bad)
    assert declared_unpacked(bytes(bad)) is None
    bad = bytearray(good)
    bad[-12] ^= 1  # the footer's CRC32
    assert declared_unpacked(bytes(bad)) is None
    bad = bytearray(good)
    bad[-8] += 1  # the backward size one unit larger (its CRC32 made right): the index is elsewhere
    _fix_footer(bad)
    assert declared_unpacked(bytes(bad)) is None


def test_the_index_is_checked_indicator_crc_and_padding() -> None:
    good = lzma.compress(b"abc" * 50, format=lzma.FORMAT_XZ)
    size = (struct.unpack_from("<I", good, len(good) - 8)[0] + 1) * 4
    start, crc_at = len(good) - 12 - size, len(good) - 16
    assert good[start] == 0
    for at in (start, crc_at, start + 1):
        bad = bytearray(good)
        bad[at] ^= 0x40
        assert declared_unpacked(bytes(bad)) is None
    # a non-zero padding byte, the index CRC32 made right: still refused
    index = bytearray(good[start:crc_at])
    assert len(index) % 4 == 0 and index[-1] == 0
    index[-1] = 1
    bad = good[:start] + bytes(index) + struct.pack("<I", zlib.crc32(bytes(index))) + good[crc_at + 4:]
    assert declared_unpacked(bad) is None


def test_anything_before_or_after_the_stream_declares_nothing() -> None:
    good = lzma.compress(b"abc", format=lzma.FORMAT_XZ)
    assert declared_unpacked(good + good) is None  # the footer read is the second stream's
    assert declared_unpacked(b"\0" * 4 + good) is None
    assert declared_unpacked(good[:-1]) is None
    assert declared_unpacked(good[:12] + b"\0" * 4 + good[12:]) is None  # four bytes between header and block
    smallest = lzma.compress(b"", format=lzma.FORMAT_XZ, check=lzma.CHECK_NONE)
    assert len(smallest) == 32 and declared_unpacked(smallest) == 0  # header, empty index (8), footer


def _framed(records: list[tuple[int, int]], flags: bytes = b"\x00\x04") -> bytes:
    """A stream's framing written from the format: header (CRC64 flags), blocks of the records' unpadded
    sizes (their bytes are not read by the index reading, only their lengths), index, footer."""
    header = b"\xfd7zXZ\x00" + flags + struct.pack("<I", zlib.crc32(flags))
    blocks = b"".join(b"\x42" * ((unpadded + 3) & ~3) for unpadded, _ in records)
    index = bytearray(b"\x00" + xz_vli(len(records)))
    for unpadded, size in records:
        index += xz_vli(unpadded) + xz_vli(size)
    index += b"\0" * (-len(index) % 4)
    index += struct.pack("<I", zlib.crc32(bytes(index)))
    backward = struct.pack("<I", len(index) // 4 - 1)
    footer = struct.pack("<I", zlib.crc32(backward + flags)) + backward + flags + b"YZ"
    return header + blocks + bytes(index) + footer


def test_an_index_of_4096_records_is_read_and_one_more_is_not() -> None:
    assert declared_unpacked(_framed([(13, 100)] * 4096)) == 409_600
    assert declared_unpacked(_framed([(13, 100)] * 4097)) is None


def test_records_sum_their_sizes_and_pad_their_blocks_to_four_bytes() -> None:
    records = [(13, 100), (16, 1 << 20), (21, 7), (200, 0)]
    assert declared_unpacked(_framed(records)) == 100 + (1 << 20) + 7
    data = _framed(records)
    assert declared_unpacked(data[:12] + data[16:]) is None  # the blocks four bytes short of the index


def test_the_backward_size_is_all_four_bytes_of_the_footer() -> None:
    records = [(13, 100), (16, 5)]
    # flags whose first byte is not zero (reserved; liblzma refuses them when inflating) in header and footer
    # alike: the backward size is still the four bytes before them
    assert declared_unpacked(_framed(records, b"\x01\x04")) == 105
    for high in (-5, -6):  # a backward size with a high byte set: the index would start before the file
        data = bytearray(_framed(records))
        data[high] = 1
        data[-12:-8] = struct.pack("<I", zlib.crc32(bytes(data[-8:-2])))
        assert declared_unpacked(bytes(data)) is None
