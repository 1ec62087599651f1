"""The reference's xz reading (``unxz``) refuses a stream whose own index declares more than the limit
without inflating it (``reference/raskat_signal/_xz_index.py``): the xz bomb of the seed corpus
(RSIG-LIMIT-001.sig, 10 KB declaring 65 MiB) cost 25 ms of liblzma a copy, about 150 us a file of the
mixed folder of small files on its own.

The equivalence: on drawn streams and on streams one edit away, the refusal by the index gives the same
rule, offset and path as inflating (``by_index=False``), or, where inflating finds the stream corrupt
(an index that lies about a block), RSIG-LIMIT-001 where inflating says RSIG-XZ-001: both structural,
so the verdict (malformed) is the same. An index that declares less than the stream holds is still
caught by the limit on the output."""

from __future__ import annotations

import lzma
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest
from build_raskat_signal import xz_vli
from hypothesis import given
from hypothesis import strategies as st

from recspec.errors import DecodeError
from recspec.pipeline import check_file
from recspec.reference.raskat_signal import MAX_UNPACKED, unxz
from recspec.reference.raskat_signal._xz_index import MAX_INDEX_RECORDS, declared_unpacked

BOMB = Path(__file__).resolve().parents[1] / "corpus" / "raskat-signal" / "invalid" / "RSIG-LIMIT-001.sig"
STRUCTURAL_XZ = {"RSIG-XZ-001", "RSIG-XZ-002", "RSIG-LIMIT-001"}  # the rules unxz raises, all structural


def _outcome(data: bytes, limit: int, by_index: bool) -> tuple[str, int, str] | bytes:
    try:
        return unxz(data, limit, by_index=by_index)
    except DecodeError as e:
        return (e.rule or "", e.offset, e.path)


def _assert_equivalent(data: bytes, limit: int) -> None:
    fast, slow = _outcome(data, limit, True), _outcome(data, limit, False)
    if fast == slow:
        return
    # the only difference allowed: refused by its declaration where inflating finds the stream corrupt
    assert isinstance(fast, tuple) and isinstance(slow, tuple), (fast, slow)
    assert fast == ("RSIG-LIMIT-001", 0, "xz") and slow[0] in STRUCTURAL_XZ, (fast, slow)
    declared = declared_unpacked(data)
    assert declared is not None and declared > limit


def _index_records(stream: bytes) -> tuple[int, int]:
    """(where the index starts, where its CRC32 is), from the footer's backward size (xz format 2.1.3)."""
    index_size = (struct.unpack_from("<I", stream, len(stream) - 8)[0] + 1) * 4
    return len(stream) - 12 - index_size, len(stream) - 16


def _with_declared(stream: bytes, uncompressed: int) -> bytes:
    """``stream`` (one block) with its index's uncompressed size set to ``uncompressed`` and every CRC32 and
    the backward size made right again: an index that lies, consistently."""
    start, _ = _index_records(stream)
    unpadded = stream[start + 2]
    assert stream[start + 1] == 1 and unpadded < 0x80  # one record; the small block's size in one byte
    body = bytearray(b"\x00\x01" + bytes([unpadded]))
    v = uncompressed
    while True:  # xz's variable-length integer
        body.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            break
    body += b"\0" * (-len(body) % 4)
    index = bytes(body) + struct.pack("<I", zlib.crc32(body))
    flags = stream[-4:-2]
    backward = struct.pack("<I", len(index) // 4 - 1)
    footer = struct.pack("<I", zlib.crc32(backward + flags)) + backward + flags + b"YZ"
    return stream[:start] + index + footer


@pytest.mark.parametrize("n", [0, 1, 255, 1000, 70_000])
def test_the_declared_size_is_the_bytes_compressed(n: int) -> None:
    data = bytes(range(256)) * (n // 256) + b"x" * (n % 256)
    for check in (lzma.CHECK_NONE, lzma.CHECK_CRC32, lzma.CHECK_CRC64, lzma.CHECK_SHA256):
        assert declared_unpacked(lzma.compress(data, check=check)) == n


@pytest.mark.skipif(shutil.which("xz") is None, reason="the xz tool writes streams of several blocks")
def test_a_stream_of_several_blocks_declares_their_sum() -> None:
    data = bytes(range(251)) * 400  # 100,400 bytes in blocks of 16 KiB: 7 blocks
    stream = subprocess.run(["xz", "--block-size=16384", "-c"], input=data, capture_output=True, check=True).stdout
    start, _ = _index_records(stream)
    assert stream[start + 1] == 7  # the index's number of records
    assert declared_unpacked(stream) == len(data)
    assert unxz(stream, len(data)) == data
    with pytest.raises(DecodeError) as e:
        unxz(stream, len(data) - 1)
    assert e.value.rule == "RSIG-LIMIT-001"
    _assert_equivalent(stream, len(data) - 1)


def test_the_bomb_is_refused_by_its_index_at_once_with_the_same_finding() -> None:
    bomb = BOMB.read_bytes()
    declared = declared_unpacked(bomb)
    # the seed's tar: a member of 65 MiB and 2 bytes, its header, padding and end blocks, in 512-byte blocks
    assert declared is not None and declared > 65 * 1024 * 1024 + 2 and declared % 512 == 0
    t = time.process_time()
    with pytest.raises(DecodeError) as e:
        unxz(bomb)
    assert time.process_time() - t < 0.005  # inflating it to the limit takes about 25 ms
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-LIMIT-001", 0, "xz")
    assert "declares" in e.value.message and str(MAX_UNPACKED) in e.value.message
    assert _outcome(bomb, MAX_UNPACKED, False) == ("RSIG-LIMIT-001", 0, "xz")  # inflated: the same finding


def test_the_bomb_file_report_is_malformed_by_the_limit_and_the_cross_check_agrees() -> None:
    fr = check_file(BOMB, fmt=None, variant=None, profile=None, cross_check="full")
    assert fr is not None and fr.verdict.value == "malformed"
    assert [(f.rule, f.offset) for f in fr.findings] == [("RSIG-LIMIT-001", 0)]  # no XCHECK finding


@given(st.binary(min_size=0, max_size=3000), st.integers(0, 3500),
       st.sampled_from([lzma.CHECK_NONE, lzma.CHECK_CRC32, lzma.CHECK_CRC64]))
def test_drawn_streams_read_the_same_either_way(data: bytes, limit: int, check: int) -> None:
    stream = lzma.compress(data, check=check)
    assert declared_unpacked(stream) == len(data)
    _assert_equivalent(stream, limit)


@given(st.binary(min_size=1, max_size=2000), st.integers(0, 2500), st.data())
def test_streams_one_edit_away_read_the_same_either_way(data: bytes, limit: int, draw: st.DataObject) -> None:
    stream = bytearray(lzma.compress(data))
    edit = draw.draw(st.sampled_from(["flip", "cut", "append", "second stream"]))
    if edit == "flip":
        at = draw.draw(st.integers(0, len(stream) - 1))
        stream[at] ^= draw.draw(st.integers(1, 255))
    elif edit == "cut":
        del stream[draw.draw(st.integers(0, len(stream) - 1)):]
    elif edit == "append":
        stream += draw.draw(st.binary(min_size=1, max_size=16))
    else:
        stream += lzma.compress(draw.draw(st.binary(max_size=4000)))
    _assert_equivalent(bytes(stream), limit)


def test_an_index_declaring_less_than_the_stream_holds_is_caught_by_the_output_limit() -> None:
    data = b"\0" * 100_000
    liar = _with_declared(lzma.compress(data), 10)
    assert declared_unpacked(liar) == 10  # consistent, and false
    with pytest.raises(DecodeError) as e:
        unxz(liar, 1000)
    assert (e.value.rule, e.value.offset) == ("RSIG-LIMIT-001", 0)
    assert "declares" not in e.value.message  # inflated: stopped at the limit


def test_an_index_declaring_more_than_the_stream_holds_is_refused_where_inflating_finds_it_corrupt() -> None:
    data = b"signal" * 50
    liar = _with_declared(lzma.compress(data), 10**9)
    assert declared_unpacked(liar) == 10**9
    with pytest.raises(DecodeError) as e:
        unxz(liar, 1000)
    assert (e.value.rule, e.value.offset) == ("RSIG-LIMIT-001", 0)
    assert _outcome(liar, 1000, False)[0] == "RSIG-XZ-001"  # liblzma checks the index against the block
    _assert_equivalent(liar, 1000)
    assert _outcome(liar, 10**9, True) == _outcome(liar, 10**9, False)  # within the limit: inflated, corrupt


def test_what_is_not_one_whole_consistent_stream_declares_nothing() -> None:
    stream = lzma.compress(b"abc" * 100)
    assert declared_unpacked(stream) == 300
    assert declared_unpacked(stream[:-1]) is None  # the footer magic cut
    assert declared_unpacked(stream + b"\0\0\0\0") is None  # stream padding
    assert declared_unpacked(stream + stream) is None  # the footer read is the second stream's
    assert declared_unpacked(b"YZ") is None
    for at in (7, len(stream) - 13, len(stream) - 9, len(stream) - 3):  # flags, index CRC, backward size, flags
        broken = bytearray(stream)
        broken[at] ^= 1
        assert declared_unpacked(bytes(broken)) is None, at


def _index_of(record: tuple[int, int], count: int) -> bytes:
    """An index (xz format 3) of ``count`` records ``(unpadded, uncompressed)`` with its padding and CRC32."""
    body = b"\x00" + xz_vli(count) + (xz_vli(record[0]) + xz_vli(record[1])) * count
    body += b"\0" * (-len(body) % 4)
    return body + struct.pack("<I", zlib.crc32(body))


def _stream_around(index: bytes, blocks: bytes) -> bytes:
    """A stream header (CRC32 check), ``blocks`` and ``index``, and a footer that agrees with them."""
    flags = b"\x00\x01"
    header = b"\xfd7zXZ\x00" + flags + struct.pack("<I", zlib.crc32(flags))
    backward = struct.pack("<I", len(index) // 4 - 1)
    return header + blocks + index + struct.pack("<I", zlib.crc32(backward + flags)) + backward + flags + b"YZ"


def test_an_index_of_many_records_is_not_read_but_inflated() -> None:
    """A hostile index listing a million blocks would cost a second of Python; past MAX_INDEX_RECORDS the
    stream is left to the decoder (here: no block decodes, RSIG-XZ-001 either way)."""
    many = _stream_around(_index_of((13, 10**6), 1_000_000), b"\0" * 16)
    t = time.process_time()
    assert declared_unpacked(many) is None
    assert time.process_time() - t < 0.2
    assert _outcome(many, MAX_UNPACKED, True) == _outcome(many, MAX_UNPACKED, False)
    assert _outcome(many, MAX_UNPACKED, True)[0] == "RSIG-XZ-001"  # type: ignore[index]
    # at the bound the records are read: the blocks (16 bytes each, padded) tile the stream
    at_bound = _stream_around(_index_of((13, 10**4), MAX_INDEX_RECORDS), b"\0" * 16 * MAX_INDEX_RECORDS)
    assert declared_unpacked(at_bound) == 10**4 * MAX_INDEX_RECORDS
    one_more = _stream_around(_index_of((13, 10**4), MAX_INDEX_RECORDS + 1),
                              b"\0" * 16 * (MAX_INDEX_RECORDS + 1))
    assert declared_unpacked(one_more) is None
