"""The streaming walk over a Matrix-SMT recording file (one BSON document):
:class:`RecordingWalker` skims the top-level elements, decodes each top-level
value other than the frames array in memory, and streams the frames array one
entry at a time, with the decoder of ``_bson``.

Memory: the walker never holds more than one buffered unit (a frame, or one
top-level value other than the frames array) of at most
:data:`MAX_BUFFERED_SIZE` bytes and ``_bson.MAX_ELEMENTS`` elements, plus its
read window of :data:`WINDOW` bytes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, BinaryIO

from recspec.errors import DecodeError, LimitExceeded, Malformed, Truncated

from . import _bson
from ._bson import (
    _F64,
    _I32,
    BSON_TYPES,
    R_BOOL,
    R_LENGTH,
    R_TRUNCATED,
    R_TYPE,
    R_UTF8,
    T_ARRAY,
    T_BINARY,
    T_BOOL,
    T_CODE,
    T_CODE_W_SCOPE,
    T_DBPOINTER,
    T_DOCUMENT,
    T_DOUBLE,
    T_INT32,
    T_NULL,
    T_REGEX,
    T_STRING,
    T_SYMBOL,
    Array,
    Document,
    _Reader,
    _sub,
)

__all__ = ["MAX_BUFFERED_SIZE", "Entry", "RecordingWalker", "Section", "decode_raw"]

#: Largest unit read into memory at once: one frame, or one top-level value other
#: than the frames array (``objects`` included). Larger is ``MATRIX-LIMIT-002``.
MAX_BUFFERED_SIZE = 64 * 1024 * 1024

#: Bytes the walker reads from the file at a time (its read window).
WINDOW = 1 << 20

#: Elements compared at a time by ``RecordingWalker.skip_empty_documents``.
_RUN_BLOCK = 4096
_EMPTY_ELEMENT = b"\x03%d\x00\x05\x00\x00\x00\x00"  # an empty embedded document at key %d

R_SIZE = "MATRIX-LIMIT-002"  # (catalog: recspec.conformance.matrix_smt._rules)


@dataclass(frozen=True, slots=True)
class Section:
    """One element of the top-level document, as found by a skim of the file."""

    offset: int  # of the type byte
    type_code: int
    key: str
    value_offset: int
    end: int  # one past the value


@dataclass(frozen=True, slots=True)
class Entry:
    """One element of a streamed array: a frame of the frames array, usually."""

    index: int
    offset: int  # of the type byte
    type_code: int
    key: str
    value: Any  # None when ``raw`` holds the undecoded bytes
    end: int
    raw: bytes | None = None  # an embedded document's bytes, from ``entries(raw=True)``
    value_offset: int = 0


class RecordingWalker:
    """Walks the top-level document of a BSON file without loading it.

    ``sections()`` skims the top-level elements (seeking past array and document
    values, decoding nothing inside them); ``value(section)`` decodes one
    section's value; ``entries(section)`` streams the elements of an array or
    document section one by one, each decoded on its own. Memory is bounded by
    :data:`MAX_BUFFERED_SIZE` whatever the file's size. Errors are
    :class:`DecodeError` subclasses with offsets; ``trailing`` and ``declared``
    are set by ``__init__`` so the caller can report a length mismatch and still
    walk the declared document.
    """

    def __init__(self, f: BinaryIO, size: int | None = None) -> None:
        self.f = f
        self._win = b""
        self._resume: tuple[int, int] | None = None  # (offset, index) where entries() goes on
        self._entries_last = 0  # the final NUL of the container entries() walks
        self._win_at = 0
        if size is None:
            f.seek(0, os.SEEK_END)
            size = f.tell()
        self.size = size
        head = self._read(0, 4)
        if len(head) < 4:
            raise Truncated(f"file ends inside the document length ({len(head)} of 4 bytes)", 0, "",
                            R_TRUNCATED, 4, len(head))
        (self.declared,) = _I32(head, 0)
        if self.declared < 5:
            raise Malformed(f"document length {self.declared} is below the minimum of 5", 0, "", R_LENGTH)
        self.end = min(self.declared, size)  # what can be read of the document
        self.last = self.declared - 1
        self.trailing = max(size - self.declared, 0)

    def _read(self, offset: int, n: int) -> bytes:
        """``n`` bytes at ``offset`` (fewer at the end of the file), served from a
        window of :data:`WINDOW` bytes so that small reads cost no system call."""
        start = offset - self._win_at
        if start >= 0 and start + n <= len(self._win):
            return self._win[start:start + n]
        if n >= WINDOW:
            self.f.seek(offset)
            return self.f.read(n)
        self.f.seek(offset)
        # never more than the file holds: a read of WINDOW bytes allocates them all first, which
        # costs a small file more than its whole check's reading
        self._win = self.f.read(max(min(WINDOW, self.size - offset), n))
        self._win_at = offset
        return self._win[:n]

    def _fail(self, rule: str, message: str, offset: int, path: str = "") -> DecodeError:
        if rule == R_TRUNCATED:
            return Truncated(message, offset, path, rule, 0, self.size - offset)
        return Malformed(message, offset, path, rule)

    def _overrun(self, what: str, offset: int, need_end: int, bound: int, path: str) -> DecodeError:
        if need_end > self.size and bound > self.size:
            return self._fail(R_TRUNCATED, f"file ends inside {what}", offset, path)
        return self._fail(R_LENGTH, f"{what} runs past the end of its container "
                          f"({need_end - offset} bytes needed, {max(bound - offset, 0)} left)", offset, path)

    def _head(self, pos: int, last: int, path: str) -> tuple[int, str, int]:
        """Type code, key and value offset of the element at ``pos`` (before ``last``)."""
        chunk = self._read(pos, min(last - pos, 4096))
        if not chunk:
            raise self._overrun("an element", pos, pos + 1, last, path)
        t = chunk[0]
        k = chunk.find(b"\x00", 1)
        while k < 0 and pos + len(chunk) < last:  # a long key: read on, bounded by the container
            more = self._read(pos + len(chunk), min(last - pos - len(chunk), 1 << 20))
            if not more:
                break
            chunk += more
            k = chunk.find(b"\x00", 1)
        if k < 0:
            raise self._overrun("an element name (no NUL before the end of the document)", pos + 1, last + 1, last,
                                path)
        try:
            key = chunk[1:k].decode("utf-8")
        except UnicodeDecodeError as e:
            # after a byte that is no BSON type the bytes are no key: the type is the first fault
            self._known_type(t, pos, path)
            raise self._fail(R_UTF8, f"element name {bytes(chunk[1:k])!r} is not valid UTF-8 "
                                     f"({e.reason} at byte {e.start})", pos + 1 + e.start, path) from None
        return t, key, pos + k + 1

    def _known_type(self, t: int, start: int, path: str) -> None:
        if t not in BSON_TYPES:
            raise self._fail(R_TYPE, f"element type {t:#04x} is not a BSON type", start, path)

    def _value_end(self, t: int, start: int, v: int, last: int, path: str) -> int:
        """Where the value at ``v`` ends, reading only its length fields."""
        ty = BSON_TYPES.get(t)
        if ty is None:
            raise self._fail(R_TYPE, f"element type {t:#04x} is not a BSON type", start, path)
        if ty.size is not None:
            end = v + ty.size
        elif t == T_BINARY:
            raw = self._read(v, 4)
            if len(raw) < 4 or v + 4 > last:
                raise self._overrun("a binary length", v, v + 4, last, path)
            (n,) = _I32(raw, 0)
            end = v + 5 + n if n >= 0 else -1
        elif ty.length_prefixed:
            raw = self._read(v, 4)
            if len(raw) < 4 or v + 4 > last:
                raise self._overrun("a length field", v, v + 4, last, path)
            (n,) = _I32(raw, 0)
            end = v + n + (4 if t in (T_STRING, T_CODE, T_SYMBOL, T_DBPOINTER) else 0) + (12 if t == T_DBPOINTER else 0)
            if n < (5 if t in (T_DOCUMENT, T_ARRAY) else 14 if t == T_CODE_W_SCOPE else 1):
                return -1  # decoded in full by the caller, which reports it
        else:  # a regex: two cstrings, small, decoded in full
            return -1
        if end > last:
            raise self._overrun(f"a {ty.name} value", v, end, last, path)
        return end

    def sections(self) -> Iterator[Section]:
        """The top-level elements, in file order (each value is skipped, not read)."""
        pos, last = 4, self.last
        while pos < last:
            t, key, v = self._head(pos, last, "")
            end = self._value_end(t, pos, v, last, key)
            if end < 0:  # a value whose length field is itself bad or that has no length: decode it to find out
                end = self._decode_value(t, pos, v, last, key or "", 1)[1]
            yield Section(pos, t, key, v, end)
            if end > self.size:
                raise self._fail(R_TRUNCATED, f"file ends inside the value of {key!r} ({end - self.size} bytes "
                                 "short)", self.size, key)
            pos = end
        if last >= self.size:
            raise self._fail(R_TRUNCATED, "file ends before the top-level document's final NUL", self.size)
        term = self._read(last, 1)
        if term != b"\x00":
            raise self._fail(R_LENGTH, f"document of declared length {self.declared} does not end with NUL "
                             f"(byte {term[0]:#04x} at its end)", last)

    def _decode_value(self, t: int, start: int, v: int, last: int, path: str, depth: int) -> tuple[Any, int]:
        """Decode the value of type ``t`` at ``v``, bounded by ``last``, in memory."""
        remaining = min(last, self.size) - v
        ty = BSON_TYPES.get(t)
        if ty is not None and ty.length_prefixed:
            raw = self._read(v, 4)
            n = remaining
            if len(raw) == 4:
                declared = _I32(raw, 0)[0]
                if declared > MAX_BUFFERED_SIZE:
                    raise LimitExceeded(f"a {ty.name} value of {declared} bytes; recspec buffers at "
                                        f"most {MAX_BUFFERED_SIZE} bytes at once", v, path, R_SIZE,
                                        "buffered size", declared, MAX_BUFFERED_SIZE)
                n = min(remaining, max(declared, 0) + 17)  # the value and its fixed parts
            return self._decode_in(t, start, v, last, path, depth, n)
        if t != T_REGEX:
            return self._decode_in(t, start, v, last, path, depth, min(remaining, 16))
        # a regex is two cstrings of unknown length: read more until both fit
        n = 4096
        while True:
            try:
                return self._decode_in(t, start, v, last, path, depth, min(remaining, n),
                                       partial=n < remaining)
            except DecodeError as e:
                if n >= remaining or e.rule not in (R_LENGTH, R_TRUNCATED):
                    raise
                if n >= MAX_BUFFERED_SIZE:
                    raise LimitExceeded(f"a regex longer than {MAX_BUFFERED_SIZE} bytes", v, path, R_SIZE,
                                        "buffered size", n, MAX_BUFFERED_SIZE) from None
                n = min(n * 16, MAX_BUFFERED_SIZE)  # the last read is of the limit itself, never past it

    def _decode_in(self, t: int, start: int, v: int, last: int, path: str, depth: int, n: int,
                   partial: bool = False) -> tuple[Any, int]:
        buf = self._read(v, max(n, 0))
        r = _Reader(buf, v, short=last > self.size, path=path)
        # the value must end by its container's end, and can only use the bytes read
        bound = len(buf) if partial else min(last - v, len(buf))
        if t == T_DOCUMENT or t == T_ARRAY:
            doc, p = r.document(0, bound, depth, path, Array if t == T_ARRAY else Document)
            return doc, p + v
        if t == T_STRING:
            s, p = r.string(0, bound, path)
            return s, p + v
        if t == T_DOUBLE:
            if bound < 8 or len(buf) < 8:
                raise r.overrun("a double", 0, 8, bound, path)
            return _F64(buf, 0)[0], v + 8
        if t == T_INT32:
            if bound < 4 or len(buf) < 4:
                raise r.overrun("an int32", 0, 4, bound, path)
            return _I32(buf, 0)[0], v + 4
        if t == T_BOOL:
            if bound < 1 or len(buf) < 1:
                raise r.overrun("a boolean", 0, 1, bound, path)
            if buf[0] > 1:
                raise r.fail(R_BOOL, f"boolean byte is {buf[0]:#04x}, not 0x00 or 0x01", 0, path)
            return buf[0] == 1, v + 1
        if t == T_NULL:
            return None, v
        value, p = r.other(t, start - v, 0, bound, depth, path)
        return value, p + v

    def value(self, s: Section, path: str | None = None) -> Any:
        """Decode one top-level value (at most ``MAX_BUFFERED_SIZE`` bytes)."""
        return self._decode_value(s.type_code, s.offset, s.value_offset, self.last, path or s.key, 1)[0]

    def value_bytes(self, s: Section) -> bytes | None:
        """The bytes of the section ``s``'s value (a document or array: its length field to its final
        NUL), undecoded, where :meth:`value` would decode them in one piece within every limit: inside
        the file and the top-level document, at most ``MAX_BUFFERED_SIZE`` bytes and too few to hold
        more than ``_bson.MAX_ELEMENTS`` elements (each takes 2 bytes at least); else None."""
        n = s.end - s.value_offset
        if s.type_code not in (T_DOCUMENT, T_ARRAY) or not 5 <= n <= MAX_BUFFERED_SIZE \
                or n >= 2 * _bson.MAX_ELEMENTS or s.end > min(self.last, self.size):
            return None
        data = self._read(s.value_offset, n)
        return data if len(data) == n else None

    def entries(self, s: Section, path: str | None = None, *, raw: bool = False) -> Iterator[Entry]:
        """Stream the elements of the array or document section ``s``, each decoded
        on its own (a frame at a time for the frames array).

        ``raw``: an embedded document whose declared length fits is not decoded;
        its bytes come in ``Entry.raw`` and :meth:`decode_raw` decodes them (a
        caller may read the bytes faster when it knows their shape)."""
        path = s.key if path is None else path
        is_array = s.type_code == T_ARRAY
        v = s.value_offset
        length = self._read(v, 4)
        if len(length) < 4:
            raise self._overrun("an array length", v, v + 4, self.last, path)
        (n,) = _I32(length, 0)
        if n < 5:
            raise self._fail(R_LENGTH, f"document length {n} is below the minimum of 5", v, path)
        end = v + n
        if end > self.last:
            raise self._overrun(f"a document of declared length {n}", v, end, self.last, path)
        last = end - 1
        pos = v + 4
        index = 0
        while pos < last:
            t, key, val_at = self._head(pos, last, path)
            # an array's element is named by its place, as the checker names the frames it walked: the key
            # may be anything (MATRIX-BSON-008 says so), and a break inside the element is in that unit
            sub = f"{path}[{index}]" if is_array else _sub(path, key, False)
            if raw and t == T_DOCUMENT:
                head = self._read(val_at, 4)
                if len(head) == 4:
                    (dn,) = _I32(head, 0)
                    if 5 <= dn <= MAX_BUFFERED_SIZE and val_at + dn <= min(last, self.size):
                        data = self._read(val_at, dn)
                        self._entries_last = last
                        yield Entry(index, pos, t, key, None, val_at + dn, data, val_at)
                        index += 1
                        pos = val_at + dn
                        if self._resume is not None:  # skip_empty_documents stepped on
                            pos, index = self._resume
                            self._resume = None
                        continue
            value, p = self._decode_value(t, pos, val_at, last, sub, 2)
            yield Entry(index, pos, t, key, value, p, None, val_at)
            index += 1
            pos = p
        if last >= self.size:
            raise self._fail(R_TRUNCATED, f"file ends before the final NUL of {path}", self.size, path)
        term = self._read(last, 1)
        if term != b"\x00":
            raise self._fail(R_LENGTH, f"document of declared length {n} does not end with NUL "
                             f"(byte {term[0]:#04x} at its end)", last, path)


    def following(self, pos: int, limit: int) -> memoryview:
        """During an ``entries(raw=True)`` walk, the bytes of the array from ``pos`` (at or after
        the end of the element it yielded last), a view of the read window (not a copy): at most
        ``limit`` bytes and :data:`WINDOW`, never past the array's final NUL nor the file's end;
        so that a caller can check a run of elements in bulk and then :meth:`resume` after it."""
        n = max(min(limit, WINDOW, min(self._entries_last, self.size) - pos), 0)
        start = pos - self._win_at
        if not (start >= 0 and start + n <= len(self._win)):
            self.f.seek(pos)
            self._win = self.f.read(max(min(WINDOW, self.size - pos), n))
            self._win_at = pos
            start = 0
        return memoryview(self._win)[start:start + n]

    def resume(self, pos: int, index: int) -> None:
        """Go on with the ``entries(raw=True)`` walk at element ``index``, which starts at
        ``pos`` (after elements a caller checked from :meth:`following`'s bytes)."""
        self._resume = (pos, index)

    def skip_empty_documents(self, after: Entry) -> int:
        """During an ``entries(raw=True)`` walk, just after it yielded ``after``: step past
        the elements that follow ``after`` while they are empty embedded documents
        (``{}``) under the next indices as keys (``"5"``, ``"6"``...); returns how many.
        The walk goes on after them. The bytes are compared a block of elements at a
        time (C speed), so a flood of empty frames costs little Python work each."""
        last = min(self._entries_last, self.size)  # as entries() reads a document: within both
        pos, index = after.end, after.index + 1
        count = 0
        while pos < last:
            parts = [_EMPTY_ELEMENT % i for i in range(index, index + _RUN_BLOCK)]
            expected = b"".join(parts)
            data = self._read(pos, min(len(expected), last - pos))
            if data == expected:
                n, width = len(parts), len(expected)
            else:  # the run ends in this block: the longest prefix of whole elements that matches
                ends = list(accumulate(map(len, parts)))
                lo, hi = 0, len(parts)
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    end = ends[mid - 1]
                    if end <= len(data) and data[:end] == expected[:end]:
                        lo = mid
                    else:
                        hi = mid - 1
                n, width = lo, (ends[lo - 1] if lo else 0)
            count += n
            pos += width
            index += n
            if n < len(parts):
                break
        if count:
            self._resume = (pos, index)
        return count


def decode_raw(entry: Entry, path: str) -> Document:
    """Decode the document bytes of an ``entries(raw=True)`` entry (depth 2, as in a
    recording's frames array)."""
    assert entry.raw is not None
    r = _Reader(entry.raw, entry.value_offset, short=False, path=path)
    return r.document(0, len(entry.raw), 2, path)[0]
