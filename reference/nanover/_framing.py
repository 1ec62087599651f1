"""The container: header and records, decoded streaming and encoded.

Layout (research notes, section 1; all little-endian, unsigned)::

    header   u64 magic (6661355757386708963), u64 version (2)
    record   u128 timestamp_us, u64 len_payload, payload[len_payload]   ... until EOF

:class:`RecordReader` reads one record at a time from a file object, in
memory bounded by the largest payload, and checks ``offset + 24 + len <=
size`` *before* reading (which no NanoVer reader does): a cut-off file
raises :class:`Truncated` naming the last complete record and the bytes left.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from recspec.errors import LimitExceeded, Malformed, Truncated

from ._model import HEADER_SIZE, MAGIC, RECORD_HEADER_SIZE, Header

__all__ = [
    "MAX_PAYLOAD_SIZE",
    "RawRecord",
    "RecordReader",
    "decode_header",
    "encode_header",
    "encode_record",
    "looks_like_version_1",
    "read_header",
]

#: A record payload larger than this is not read (NANOVER-LIMIT-001). The
#: largest real payloads are a few hundred kB; 64 MiB holds 5.5 million atoms'
#: positions. A checked payload is in memory twice (its bytes and upb's parse),
#: so this keeps a check under the 256 MiB memory bound (README, "Limits").
MAX_PAYLOAD_SIZE = 64 * 1024 * 1024

_HEADER = struct.Struct("<QQ")
_RECORD = struct.Struct("<QQQ")  # timestamp low, timestamp high, length
_UNPACK_RECORD_FROM = _RECORD.unpack_from
_MAGIC_BYTES = MAGIC.to_bytes(8, "little")


@dataclass(frozen=True, slots=True)
class RawRecord:
    """A framed record: where it starts, its timestamp and its payload bytes."""

    index: int
    offset: int
    timestamp_us: int
    payload: bytes

    @property
    def payload_offset(self) -> int:
        return self.offset + RECORD_HEADER_SIZE

    @property
    def end(self) -> int:
        return self.offset + RECORD_HEADER_SIZE + len(self.payload)


def encode_header(header: Header = Header()) -> bytes:  # noqa: B008 - Header is frozen
    return _HEADER.pack(header.magic, header.version)


def encode_record(timestamp_us: int, payload: bytes) -> bytes:
    """A record's 24-byte header and payload (``timestamp_us`` below 2^128)."""
    return _RECORD.pack(timestamp_us & 0xFFFFFFFFFFFFFFFF, timestamp_us >> 64, len(payload)) + payload


def looks_like_version_1(head: bytes) -> bool:
    """Whether ``head`` starts like a headerless version-1 file: a first record
    (u128 timestamp whose upper half is 0, u64 length) whose payload starts
    with a field a frame or state update holds (tag 0x0a or 0x12)."""
    if len(head) < RECORD_HEADER_SIZE + 1 or head[:8] == _MAGIC_BYTES:
        return False
    low, high, n = _RECORD.unpack_from(head)
    return high == 0 and low < 1 << 48 and 0 < n < MAX_PAYLOAD_SIZE and head[RECORD_HEADER_SIZE] in (0x0A, 0x12)


def decode_header(data: bytes, offset: int = 0) -> tuple[Header, int]:
    """(header, offset after it); :class:`Truncated` / :class:`Malformed` (NANOVER-HEADER-001)."""
    if len(data) - offset < HEADER_SIZE:
        raise Truncated(f"file ends inside the 16-byte header ({len(data) - offset} bytes)", offset, "header",
                        rule="NANOVER-STREAM-001", needed=HEADER_SIZE, available=len(data) - offset)
    magic, version = _HEADER.unpack_from(data, offset)
    if magic != MAGIC:
        if looks_like_version_1(data[offset:offset + 64]):
            raise Malformed(
                "no header: this looks like a version-1 recording (written by narupa-rs from January to July "
                "2023), which starts directly with the first record (timestamp, length, payload); no NanoVer "
                "reader accepts it", offset, "header", rule="NANOVER-HEADER-003")
        raise Malformed(f"bad magic 0x{magic:016x} (expected 0x{MAGIC:016x}): not a NanoVer recording",
                        offset, "header.magic", rule="NANOVER-HEADER-001")
    return Header(magic, version), offset + HEADER_SIZE


def read_header(f: BinaryIO) -> tuple[Header, int]:
    """The header of a file object; leaves it at the first record (offset 16)."""
    head = _read_more(f.read, b"", HEADER_SIZE)
    if len(head) == HEADER_SIZE and head[:8] != _MAGIC_BYTES:
        head += _read_more(f.read, b"", 48)  # enough to recognise a version-1 file; the header is bad anyway
    return decode_header(head)


def _read_more(read: Callable[[int], bytes], got: bytes, n: int) -> bytes:
    """``got`` completed to ``n`` bytes by ``read``, or shorter where the file ends: a raw stream or
    a pipe may return fewer bytes than asked for before its end, and only an empty read means the
    end. The parts are joined once, so a block filled by many short reads is not copied again at each
    of them. (CARLA's reader has the same helper; one module shared by both cost the NanoVer fuzz
    target about 9% of its instrumented executions per second, measured A/B, so each keeps its own.)"""
    want = n - len(got)
    if want <= 0:
        return got
    more = read(want)
    if len(more) == want or not more:  # the common case, one read (a fuzz input's every read)
        return got + more if got else more
    parts = [got, more] if got else [more]
    have = len(got) + len(more)
    while have < n:
        more = read(n - have)
        if not more:
            break
        parts.append(more)
        have += len(more)
    return b"".join(parts)


#: RecordReader reads the file this many bytes at a time ...
READ_BLOCK = 1 << 20
#: ... and a payload larger than this with a read of its own (LARGE_PAYLOAD < READ_BLOCK).
LARGE_PAYLOAD = 1 << 16


#: Records :meth:`RecordReader.empty_run` looks at first; each next block is twice the last.
_RUN_FIRST_BLOCK = 64


class RecordReader:
    """Records one at a time from a binary file object positioned at ``offset``.

    ``size`` (the file size, when known) lets a truncated payload be reported
    without allocating its declared length; the reader stops at ``size`` without
    a read to find the end there. Raises :class:`Truncated` (rule
    NANOVER-STREAM-001) when the file ends inside a record, and
    :class:`LimitExceeded` (NANOVER-LIMIT-001) for a payload above
    ``max_payload_size``. ``last`` is the index, offset and timestamp of the last
    complete record (``None`` before the first).

    The file is read :data:`READ_BLOCK` bytes at a time, so a record costs no read
    call of its own, and a payload above :data:`LARGE_PAYLOAD` with a call of its own
    (its bytes copied once, as a plain ``read`` does); memory holds one block and one
    record. Where the file can seek, a refill reads the record it starts inside again
    rather than copying it from the old block. :meth:`records` gives each record as ``(offset, timestamp_us, payload)``
    and iterating gives :class:`RawRecord` objects; both are the same framing.
    """

    def __init__(self, f: BinaryIO, offset: int = HEADER_SIZE, size: int | None = None,
                 max_payload_size: int | None = None) -> None:
        self._read = f.read
        self._pos = offset
        self._size = size
        # the module's limit read at call time, so that a test can lower it (tests/witness_nanover.py)
        self._max = MAX_PAYLOAD_SIZE if max_payload_size is None else max_payload_size
        self._buf = b""  # the file's bytes from offset ``_base`` on, read and not yet framed past
        self._base = offset
        self._eof = False
        self._block = READ_BLOCK  # how much the next refill reads at least
        self._f = f
        self._seekable: bool | None = None  # asked on first need (a file's answer may cost a system call)
        self._last: tuple[int, int] | None = None  # (offset, timestamp_us) of the last complete record
        self.count = 0

    def tell(self) -> int:
        return self._pos

    @property
    def last(self) -> tuple[int, int, int] | None:
        """``(index, offset, timestamp_us)`` of the last complete record, or ``None``."""
        return None if self._last is None else (self.count - 1, *self._last)

    def _can_seek(self) -> bool:
        if self._seekable is None:
            seekable = getattr(self._f, "seekable", None)
            self._seekable = bool(seekable is not None and seekable())
        return self._seekable

    def _window(self, n: int) -> tuple[bytes, int]:
        """``(buffer, index)``: the buffered bytes and the index in them of ``tell()``, with at
        least ``n`` bytes from there on unless the file ends first."""
        buf = self._buf
        i = self._pos - self._base
        have = len(buf) - i
        if have >= n or self._eof:
            return buf, i
        want = max(n, self._block)
        if self._size is not None:
            want = max(n, min(want, self._size - self._pos))  # no allocation past the file's end
        self._block = READ_BLOCK
        if have and self._can_seek():
            self._f.seek(-have, 1)  # the partial record again from the file: cheaper than copying the block
            have = 0
        buf = _read_more(self._read, buf[i:] if have else b"", want)
        self._eof = len(buf) < want  # only an empty read ends a short one
        self._buf, self._base = buf, self._pos
        return buf, 0

    def _read_alone(self, buf: bytes, start: int, n: int) -> bytes:
        """The ``n``-byte payload that starts at ``buf[start]``, read with a call of its own (the part
        already in the buffer again when the file can seek); the buffer is emptied past it, and the
        next refill reads only a record header (the next record may be as large)."""
        have = len(buf) - start
        if have and self._can_seek():
            self._f.seek(-have, 1)
            have = 0
        payload = _read_more(self._read, buf[start:] if have else b"", n)
        self._buf, self._base = b"", self._pos + RECORD_HEADER_SIZE + n
        self._block = RECORD_HEADER_SIZE
        return payload

    def _truncated(self, what: str, needed: int, available: int) -> Truncated:
        last = self.last
        where = (f"last complete record: record[{last[0]}] at offset {last[1]} "
                 f"(timestamp {last[2]} us)" if last else "no complete record")
        left = self._size - self._pos if self._size is not None else available + (
            RECORD_HEADER_SIZE if what.startswith("the payload") else 0)
        return Truncated(f"truncated: file ends inside {what} ({available} of {needed} bytes); {where}; "
                         f"{left} bytes remain after offset {self._pos}",
                         self._pos, f"record[{self.count}]", rule="NANOVER-STREAM-001",
                         needed=needed, available=available)

    def _damaged_length(self, declared: int, left: int) -> Truncated:
        last = self.last
        where = (f"last complete record: record[{last[0]}] at offset {last[1]}" if last else "no complete record")
        at = self._pos + RECORD_HEADER_SIZE - 8  # the u64 length after the 16-byte timestamp
        return Truncated(f"damaged length: record[{self.count}]'s length field at offset {at} declares {declared} "
                         f"payload bytes, but {max(left, 0)} bytes are left in the file after its header; {where}",
                         at, f"record[{self.count}]", rule="NANOVER-STREAM-001", needed=declared,
                         available=max(left, 0))

    def records(self) -> Iterator[tuple[int, int, bytes]]:
        """``(offset, timestamp_us, payload)`` of each record in turn; the index of the one just
        given is ``count - 1``."""
        unpack = _UNPACK_RECORD_FROM
        limit = self._max
        total = self._size if self._size is not None else 1 << 64  # no record ends past it
        while True:
            pos = self._pos
            buf = self._buf
            i = pos - self._base
            if len(buf) - i < RECORD_HEADER_SIZE:
                if pos == total and len(buf) == i:
                    return  # the end of the file, as its size says: no read to learn it
                buf, i = self._window(RECORD_HEADER_SIZE)
                if len(buf) - i < RECORD_HEADER_SIZE:
                    if len(buf) == i:
                        return
                    raise self._truncated("a record header", RECORD_HEADER_SIZE, len(buf) - i)
            low, high, n = unpack(buf, i)
            # the common case in one comparison: the record is whole in the buffer, ends within the
            # file's size and is within the limit
            start = i + RECORD_HEADER_SIZE
            end = start + n
            if end > len(buf) or n > limit or pos + RECORD_HEADER_SIZE + n > total:
                if pos + RECORD_HEADER_SIZE + n > total and n > limit:
                    # larger than the limit and than the file: a damaged length field, not a cut file or a limit
                    raise self._damaged_length(n, total - pos - RECORD_HEADER_SIZE)
                if n > limit:  # before the truncation test: a length this large is corruption, not a cut
                    raise LimitExceeded(f"record[{self.count}] declares {n} payload bytes, above the limit of "
                                        f"{limit}", pos + 16, f"record[{self.count}]", rule="NANOVER-LIMIT-001",
                                        limit="MAX_PAYLOAD_SIZE", value=n, maximum=limit)
                if pos + RECORD_HEADER_SIZE + n > total:
                    raise self._truncated(f"the payload of record[{self.count}]", n, total - pos - RECORD_HEADER_SIZE)
                if n > LARGE_PAYLOAD:
                    # a large payload is read on its own, so that its bytes are read (and copied) once
                    payload = self._read_alone(buf, start, n)
                    if len(payload) < n:
                        self._eof = True
                        raise self._truncated(f"the payload of record[{self.count}]", n, len(payload))
                    ts = low | high << 64 if high else low
                    self._pos = pos + RECORD_HEADER_SIZE + n
                    self._last = (pos, ts)
                    self.count += 1
                    yield pos, ts, payload
                    continue
                buf, i = self._window(RECORD_HEADER_SIZE + n)
                start = i + RECORD_HEADER_SIZE
                end = start + n
                if end > len(buf):
                    raise self._truncated(f"the payload of record[{self.count}]", n, len(buf) - start)
            ts = low | high << 64 if high else low
            self._pos = pos + RECORD_HEADER_SIZE + n
            self._last = (pos, ts)
            self.count += 1
            yield pos, ts, buf[start:end]

    def empty_run(self, wide: bool = False) -> tuple[int, ...]:
        """The timestamps of the records from ``tell()`` on that have an empty payload and a timestamp
        below 2^64 (``wide``: any timestamp, its upper half too), as many in a row as the buffer holds
        (none when it holds no whole record), framed past as :meth:`records` would frame them: for a
        walk that takes a run of empty records in bulk (hostile.py nanover-empty-records, a header then
        zeros). The run's lengths and upper halves are compared as strided 8-byte words, its timestamps
        unpacked in one call. The words are looked at
        in blocks, each twice the last (from :data:`_RUN_FIRST_BLOCK` records), so that a call costs in
        proportion to the run it finds, not to the buffer: a walk calls this after every empty record,
        and a flood of empty records that each end a run at once (hostile.py nanover-wide-times) would
        otherwise cost the whole buffer a record."""
        buf = self._buf
        i = self._pos - self._base
        m = (len(buf) - i) // RECORD_HEADER_SIZE
        if self._size is not None:
            m = min(m, (self._size - self._pos) // RECORD_HEADER_SIZE)  # no record past the file's size
        if m <= 0:
            return ()
        view = memoryview(buf)
        k = 0  # records of the run so far
        block = _RUN_FIRST_BLOCK
        while k < m:
            n = min(block, m - k)
            at = i + k * RECORD_HEADER_SIZE
            words = view[at:at + n * RECORD_HEADER_SIZE].cast("Q")  # zero is zero in either byte order
            lengths = words[2::3].tobytes()
            highs = words[1::3].tobytes() if not wide else b""
            found = len(lengths) - len(lengths.lstrip(b"\0"))
            if not wide:
                found = min(found, len(highs) - len(highs.lstrip(b"\0")))
            found //= 8
            k += found
            if found < n:
                break
            block *= 2
        if not k:
            return ()
        words3 = struct.unpack_from(f"<{3 * k}Q", buf, i)
        stamps = words3[::3]
        if wide and any(words3[1::3]):
            stamps = tuple(low | high << 64 if high else low for low, high in zip(stamps, words3[1::3]))
        self._pos += k * RECORD_HEADER_SIZE
        self._last = (self._pos - RECORD_HEADER_SIZE, stamps[-1])
        self.count += k
        return stamps

    def __iter__(self) -> Iterator[RawRecord]:
        for pos, ts, payload in self.records():
            yield RawRecord(self.count - 1, pos, ts, payload)
