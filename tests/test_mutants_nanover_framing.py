"""The NanoVer container framing (reference/nanover/_framing.py) against the layout of the research
notes (/work/shared/formats/nanover_recording.md, section 1; docs/formats/nanover.md): a 16-byte
header (u64 magic 0x5C71E3C49989B7E3, u64 version 2), then records of a u128 timestamp, a u64
payload length and the payload, all little-endian. The bytes here are packed by hand from that
layout, never by the module; offsets are counted from it. Also the reader's documented costs
(a block read per many records, a large payload read by a call of its own, a seekable file read
again rather than copied). Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest

from recspec.errors import LimitExceeded, Malformed, Truncated
from recspec.reference.nanover import (
    MAX_PAYLOAD_SIZE,
    RecordReader,
    decode_header,
    encode_header,
    encode_record,
    looks_like_version_1,
    read_header,
)
from recspec.reference.nanover._framing import LARGE_PAYLOAD, READ_BLOCK

# the magic as it lies on disk (notes, section 1), and the header of version 2
MAGIC_ON_DISK = bytes.fromhex("e3b78999c4e3715c")
HEADER = MAGIC_ON_DISK + bytes.fromhex("0200000000000000")


def record(ts: int, payload: bytes, length: int | None = None) -> bytes:
    """A record packed from the layout: u128 timestamp (low, high), u64 length, payload."""
    n = len(payload) if length is None else length
    return struct.pack("<QQQ", ts & (2**64 - 1), ts >> 64, n) + payload


def _read(data: bytes, size: int | None, **kw: Any) -> list[tuple[int, int, int, bytes]]:
    f = io.BytesIO(data)
    f.seek(16)
    return [(r.index, r.offset, r.timestamp_us, r.payload) for r in RecordReader(f, 16, size, **kw)]


def _error(data: bytes, size: int | None, f: Any = None, **kw: Any) -> Any:
    f = f if f is not None else io.BytesIO(data)
    f.seek(16)
    with pytest.raises((Truncated, LimitExceeded)) as e:
        for _ in RecordReader(f, 16, size, **kw):
            pass
    return e.value


class Unseekable(io.RawIOBase):
    """A pipe-like stream: no seek, and each read gives at most ``chunk`` bytes (a short read is not the end)."""

    def __init__(self, data: bytes, chunk: int) -> None:
        self._data, self._pos, self._chunk = data, 0, chunk

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def seek(self, pos: int, whence: int = 0) -> int:
        if whence == 0 and self._pos == 0:  # the tests' positioning at the first record only
            self._pos = pos
            return pos
        raise OSError("not seekable")

    def read(self, n: int = -1) -> bytes:
        n = self._chunk if n < 0 else min(n, self._chunk)
        out = self._data[self._pos:self._pos + n]
        self._pos += len(out)
        return out


class Spy(io.BytesIO):
    """A seekable file that records its read sizes and its relative seeks."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.reads: list[int] = []
        self.seeks: list[int] = []

    def read(self, n: int | None = -1) -> bytes:
        self.reads.append(-1 if n is None else n)
        return super().read(n)

    def seek(self, pos: int, whence: int = 0) -> int:
        if whence == 1:
            self.seeks.append(pos)
        return super().seek(pos, whence)


# --- encoding -----------------------------------------------------------------------------


def test_the_encoder_writes_the_layouts_bytes() -> None:
    assert encode_header() == HEADER
    assert encode_record(19053, b"\x0a\x00") == bytes.fromhex(
        "6d4a0000000000000000000000000000" "0200000000000000" "0a00")  # the Rust state sample's first record
    assert encode_record(2**64 + 5, b"x") == struct.pack("<QQQ", 5, 1, 1) + b"x"
    assert encode_record(2**128 - 1, b"") == b"\xff" * 16 + bytes(8)


# --- the header ---------------------------------------------------------------------------


def test_a_header_decodes_to_its_version_and_the_first_records_offset() -> None:
    header, off = decode_header(HEADER + b"rest")
    assert (header.magic, header.version, off) == (0x5C71E3C49989B7E3, 2, 16)
    header, off = decode_header(b"abc" + MAGIC_ON_DISK + struct.pack("<Q", 7), 3)
    assert (header.version, off) == (7, 19)
    f = io.BytesIO(HEADER + record(1, b"\x0a\x00"))
    assert read_header(f)[1] == 16 and f.tell() == 16  # a good header: nothing read past it


@pytest.mark.parametrize("n", [0, 1, 15])
def test_a_file_shorter_than_the_header_is_truncated(n: int) -> None:
    with pytest.raises(Truncated) as got:
        decode_header(HEADER[:n])
    assert (got.value.rule, got.value.offset, got.value.path) == ("NANOVER-STREAM-001", 0, "header")
    assert (got.value.needed, got.value.available) == (16, n)
    with pytest.raises(Truncated):
        read_header(io.BytesIO(HEADER[:n]))


def test_a_bad_magic_is_header_001() -> None:
    bad = bytes(8) + bytes.fromhex("0200000000000000") + bytes(40)
    for call in (lambda: decode_header(bad), lambda: read_header(io.BytesIO(bad))):
        with pytest.raises(Malformed) as e:
            call()
        assert (e.value.rule, e.value.offset, e.value.path) == ("NANOVER-HEADER-001", 0, "header.magic")
    # exactly one record header and no payload byte: too short to look like version 1, a bad magic
    with pytest.raises(Malformed) as e:
        decode_header(record(5, b"", length=2))
    assert e.value.rule == "NANOVER-HEADER-001"


# A version-1 file (notes, section 0): no header; its first record's payload starts with field 1 or 2.
@pytest.mark.parametrize("payload", [b"\x0a\x00", b"\x12\x00", b"\x0a", b"\x12"])
def test_a_version_1_file_is_header_003(payload: bytes) -> None:
    v1 = record(19053, payload) + record(52386, b"\x0a\x00")
    assert looks_like_version_1(v1)
    for call in (lambda: decode_header(v1), lambda: read_header(io.BytesIO(v1))):
        with pytest.raises(Malformed) as e:
            call()
        assert (e.value.rule, e.value.offset, e.value.path) == ("NANOVER-HEADER-003", 0, "header")


@pytest.mark.parametrize(("head", "v1"), [
    (record(2**48 - 1, b"\x0a\x00"), True),
    (record(2**48, b"\x0a\x00"), False),          # a timestamp of 2^48 us (8.9 years) or more
    (record(2**64, b"\x0a\x00"), False),          # the upper half not 0
    (record(5, b"\x0a", length=0), False),        # an empty first payload
    (record(5, b"\x0a", length=MAX_PAYLOAD_SIZE - 1), True),
    (record(5, b"\x0a", length=MAX_PAYLOAD_SIZE), False),
    (record(5, b"\x09\x00"), False),
    (record(5, b"\x0b\x00"), False),
    (record(5, b"\x11\x00"), False),
    (record(5, b"\x13\x00"), False),
    (record(5, b""), False),                      # 24 bytes: no payload byte to look at
    (HEADER + record(5, b"\x0a\x00")[16:], False),  # the magic: a version-2 file
])
def test_what_looks_like_version_1(head: bytes, v1: bool) -> None:
    assert looks_like_version_1(head) is v1


# --- records ------------------------------------------------------------------------------


def _three() -> tuple[bytes, list[tuple[int, int, int, bytes]]]:
    payloads = [b"\x0a\x00", b"", b"\x12\x03abc"]
    stamps = [19053, 2**64 + 3, 2**127 + 9]
    data = HEADER + b"".join(record(t, p) for t, p in zip(stamps, payloads, strict=True))
    offsets = [16, 16 + 24 + 2, 16 + 24 + 2 + 24]
    return data, [(i, offsets[i], stamps[i], payloads[i]) for i in range(3)]


def test_records_are_framed_by_the_layout() -> None:
    data, want = _three()
    assert _read(data, len(data)) == want
    assert _read(data, None) == want
    f = Unseekable(data, 3)
    f.seek(16)
    assert [(r.index, r.offset, r.timestamp_us, r.payload) for r in RecordReader(f, 16)] == want
    f = io.BytesIO(data)
    f.seek(16)
    reader = RecordReader(f, 16, len(data))
    assert reader.last is None
    raw = list(reader)
    assert [(r.payload_offset, r.end) for r in raw] == [(40, 42), (66, 66), (90, 95)]
    assert reader.last == (2, 66, 2**127 + 9) and reader.count == 3 and reader.tell() == 95
    assert _read(HEADER, 16) == [] and _read(HEADER, None) == []


def test_a_file_cut_inside_a_record_header() -> None:
    data, _ = _three()
    cut = data + record(7, b"")[:10]
    for size in (len(cut), None):
        e = _error(cut, size)
        assert isinstance(e, Truncated)
        assert (e.rule, e.offset, e.path, e.needed, e.available) == ("NANOVER-STREAM-001", 95, "record[3]", 24, 10)
        assert "last complete record: record[2] at offset 66" in e.message
        assert "10 bytes remain after offset 95" in e.message


def test_a_file_cut_inside_a_payload() -> None:
    cut = HEADER + record(11, b"", length=100) + bytes(30)
    for size in (len(cut), None):
        e = _error(cut, size)
        assert isinstance(e, Truncated)
        assert (e.rule, e.offset, e.path, e.needed, e.available) == ("NANOVER-STREAM-001", 16, "record[0]", 100, 30)
        assert "no complete record" in e.message and "54 bytes remain after offset 16" in e.message
    # the file's size known: the cut is found from the length field, with no read past the file's end
    f = Spy(cut)
    _error(cut, len(cut), f)
    assert f.reads and max(f.reads) <= len(cut) - 16
    big = HEADER + record(11, b"", length=LARGE_PAYLOAD + 100) + bytes(30)
    f = Spy(big)
    e = _error(big, len(big), f)
    assert (e.needed, e.available) == (LARGE_PAYLOAD + 100, 30) and max(f.reads) <= len(big) - 16
    cut = HEADER + record(5, b"ab") + record(11, b"", length=100) + bytes(30)
    e = _error(cut, None)
    assert e.offset == 42 and e.path == "record[1]" and "record[0] at offset 16 (timestamp 5 us)" in e.message


def test_a_large_payload_cut_off_in_a_stream() -> None:
    # size unknown: the payload above LARGE_PAYLOAD is read by a call of its own, which comes back short
    n = LARGE_PAYLOAD + 1000
    cut = HEADER + record(3, b"\x0a\x00") + record(4, b"", length=n) + bytes(500)
    e = _error(cut, None)
    assert isinstance(e, Truncated)
    assert (e.rule, e.offset, e.path, e.needed, e.available) == ("NANOVER-STREAM-001", 42, "record[1]", n, 500)


def test_a_length_above_the_limit_is_limit_001_at_the_length_field() -> None:
    data = HEADER + record(1, b"a") + record(2, bytes(2000))
    e = _error(data, len(data), max_payload_size=1999)
    assert isinstance(e, LimitExceeded)
    assert (e.rule, e.offset, e.path, e.value, e.maximum) == ("NANOVER-LIMIT-001", 41 + 16, "record[1]", 2000, 1999)
    e = _error(data, None, max_payload_size=1999)
    assert isinstance(e, LimitExceeded) and e.offset == 57
    # at the limit: read
    assert [r[3] for r in _read(data, len(data), max_payload_size=2000)] == [b"a", bytes(2000)]


@pytest.mark.parametrize("left", [0, 5])
def test_a_length_above_the_limit_and_the_file_is_a_damaged_length(left: int) -> None:
    data = HEADER + record(1, b"a") + record(2, b"", length=2**62) + bytes(left)
    e = _error(data, len(data))
    assert isinstance(e, Truncated)
    assert (e.rule, e.offset, e.path, e.needed, e.available) == ("NANOVER-STREAM-001", 57, "record[1]", 2**62, left)
    assert f"but {left} bytes are left" in e.message and "record[0] at offset 16" in e.message
    e = _error(data, len(data), max_payload_size=100)
    assert isinstance(e, Truncated) and e.offset == 57
    # above the limit but within the file: the limit
    data = HEADER + record(2, bytes(200))
    assert isinstance(_error(data, len(data), max_payload_size=100), LimitExceeded)
    # within the limit, past the file: a cut
    e = _error(data[:-1], len(data) - 1, max_payload_size=200)
    assert isinstance(e, Truncated) and (e.offset, e.needed, e.available) == (16, 200, 199)


# --- reading in blocks ----------------------------------------------------------------------


def _big_file() -> tuple[bytes, list[tuple[int, int, int, bytes]]]:
    """Small records past READ_BLOCK, one of them across each block's end, and a large payload (above
    LARGE_PAYLOAD) that starts before the second block's end, with a timestamp above 2^64."""
    want, out, pos, i, ts = [], [HEADER], 16, 0, 1000

    def add(payload: bytes, t: int) -> None:
        nonlocal pos, i
        out.append(record(t, payload))
        want.append((i, pos, t, payload))
        pos += 24 + len(payload)
        i += 1

    while pos < 2 * READ_BLOCK - 30_000:
        add(bytes([i % 251]) * 997, ts)
        ts += 33_333
    add(bytes(range(256)) * (LARGE_PAYLOAD // 256 + 10), 2**64 + 77)
    for k in range(3):
        add(bytes([k]) * 10, 2**64 + 100 + k)
    return b"".join(out), want


BIG, BIG_RECORDS = _big_file()


@pytest.mark.parametrize("size", [len(BIG), None])
def test_records_across_blocks_are_framed_by_the_layout(size: int | None) -> None:
    assert _read(BIG, size) == BIG_RECORDS
    f = Spy(BIG)
    f.seek(16)
    got = [(r.index, r.offset, r.timestamp_us, r.payload) for r in RecordReader(f, 16, size)]
    assert got == BIG_RECORDS
    # documented costs: a block per many records, the large payload by a read of its own (the file seeks
    # back to read the part already buffered again), and a record across a block's end read again by seeking
    n_large = len(BIG_RECORDS[-4][3])
    assert len(f.reads) <= 8, f.reads
    assert n_large in f.reads
    assert f.seeks and all(s < 0 for s in f.seeks)


def test_records_across_blocks_from_a_stream_that_cannot_seek() -> None:
    f = Unseekable(BIG, 50_000)
    f.seek(16)
    assert [(r.index, r.offset, r.timestamp_us, r.payload) for r in RecordReader(f, 16)] == BIG_RECORDS


# --- runs of empty records ------------------------------------------------------------------


def test_empty_run_takes_the_empty_records_below_2_64() -> None:
    stamps = [10, 20, 0x0100, 2**64 + 40, 50]
    data = HEADER + b"".join(record(t, b"") for t in stamps) + record(60, b"x")
    f = io.BytesIO(data)
    f.seek(16)
    reader = RecordReader(f, 16, len(data))
    assert next(reader.records()) == (16, 10, b"")
    assert reader.empty_run() == (20, 0x0100)  # stops before the timestamp above 2^64
    assert reader.count == 3 and reader.tell() == 16 + 3 * 24 and reader.last == (2, 64, 0x0100)
    assert reader.empty_run() == ()  # the upper half is not 0
    assert next(reader.records()) == (88, 2**64 + 40, b"")
    assert reader.empty_run() == (50,)
    assert reader.empty_run() == ()  # a record with a payload
    assert next(reader.records()) == (136, 60, b"x")
    assert reader.empty_run() == ()


def test_empty_run_stops_at_a_length_and_at_the_files_size() -> None:
    data = HEADER + b"".join(record(t, b"") for t in (1, 2, 3)) + record(4, b"ab") + record(5, b"")
    f = io.BytesIO(data)
    f.seek(16)
    reader = RecordReader(f, 16, len(data))
    next(reader.records())
    assert reader.empty_run() == (2, 3)
    # the file's size says where it ends: the buffer's bytes past it are no records
    data = HEADER + b"".join(record(t, b"") for t in (1, 2, 3, 4))
    f = io.BytesIO(data)
    f.seek(16)
    reader = RecordReader(f, 16, 16 + 3 * 24)
    next(reader.records())
    assert reader.empty_run() == (2, 3)


def test_empty_run_reads_each_records_three_words() -> None:
    # a run of five: each record's timestamp, upper half and length are the words 0, 1 and 2 of its 24 bytes
    data = HEADER + b"".join(record(t, b"") for t in (1, 2, 3, 4, 5, 6)) + record(7, b"x")
    f = io.BytesIO(data)
    f.seek(16)
    reader = RecordReader(f, 16, len(data))
    next(reader.records())
    assert reader.empty_run() == (2, 3, 4, 5, 6)
    assert reader.last == (5, 16 + 5 * 24, 6)
    # an upper half of 1 in the second record of the run, zeros after it
    data = HEADER + b"".join(record(t, b"") for t in (5, 0x10, 2**64, 0, 0))
    f = io.BytesIO(data)
    f.seek(16)
    reader = RecordReader(f, 16, len(data))
    next(reader.records())
    assert reader.empty_run() == (0x10,)


def test_the_reader_stops_at_the_size_it_is_given() -> None:
    # the size given is where the records end, even where the file holds more (no read to find the end)
    data = HEADER + b"".join(record(t, b"ab") for t in (1, 2, 3, 4))
    f = Spy(data)
    f.seek(16)
    reader = RecordReader(f, 16, 16 + 3 * 26)
    assert [(r.offset, r.timestamp_us) for r in reader] == [(16, 1), (42, 2), (68, 3)]
    assert f.reads == [3 * 26]


def test_empty_run_of_a_stream_of_unknown_size() -> None:
    data = HEADER + b"".join(record(t, b"") for t in (1, 2, 3)) + record(4, b"x")
    f = Unseekable(data, 1 << 20)
    f.seek(16)
    reader = RecordReader(f, 16)
    assert next(reader.records()) == (16, 1, b"")
    assert reader.empty_run() == (2, 3)
    assert next(reader.records()) == (88, 4, b"x")
