"""The NanoVer container framing (reference/nanover/_framing.py) at the ends of what a length field can
say: a u64 length that runs past 2^64 bytes in a stream of unknown size (no file holds that many, so it
is a damaged length, NANOVER-STREAM-001 at the length field, docs/formats/nanover.md), and a file that
grew after its size was taken (a recording still being written), whose bytes left are never counted
below zero. Records are packed by hand from the layout (u128 timestamp, u64 length, payload, all
little-endian; the header is the u64 magic and the u64 version 2). Written against the survivors
tools/mutate.py found in a fresh sample of the module."""

from __future__ import annotations

import io
import re
import struct

import pytest

from recspec.conformance.nanover import check_stream
from recspec.errors import LimitExceeded, Truncated
from recspec.reference.nanover import RecordReader

HEADER = bytes.fromhex("e3b78999c4e3715c") + struct.pack("<Q", 2)


def record(ts: int, payload: bytes, length: int | None = None) -> bytes:
    return struct.pack("<QQQ", ts, 0, len(payload) if length is None else length) + payload


def _error(data: bytes, size: int | None) -> Truncated | LimitExceeded:
    f = io.BytesIO(data)
    f.seek(16)
    with pytest.raises((Truncated, LimitExceeded)) as e:
        for _ in RecordReader(f, 16, size):
            pass
    return e.value


@pytest.mark.parametrize("size", ["known", None])
def test_a_length_past_2_64_bytes_is_a_damaged_length(size: str | None) -> None:
    # record[1] starts at 16 + 25 = 41; its length field is 16 bytes in, at 57
    data = HEADER + record(1, b"a") + record(2, b"", length=2**64 - 1)
    e = _error(data, len(data) if size else None)
    assert isinstance(e, Truncated)
    assert (e.rule, e.offset, e.path, e.needed) == ("NANOVER-STREAM-001", 57, "record[1]", 2**64 - 1)


def test_a_length_past_2_64_bytes_in_a_check_of_unknown_size() -> None:
    data = HEADER + record(1, b"") + record(2, b"", length=2**64 - 1)
    report = check_stream(io.BytesIO(data), path="x.state", size=None)
    assert [(x.rule, x.offset) for x in report.findings] == [("NANOVER-STREAM-001", 16 + 24 + 16)]


def test_a_file_that_grew_after_its_size_was_taken_counts_no_negative_bytes() -> None:
    # the size taken ends 10 bytes into record[1]'s header; the stream holds the whole header by the time
    # it is read, with a length above the limit
    data = HEADER + record(1, b"a") + record(2, b"", length=2**62)
    e = _error(data, 41 + 10)
    assert e.rule == "NANOVER-STREAM-001" and isinstance(e, Truncated)
    assert e.available is not None and e.available >= 0
    assert not re.search(r"-\d+ bytes", e.message), e.message
