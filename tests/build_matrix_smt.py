"""Matrix-SMT BSON put together and taken apart by hand, for the tests, from the layout in
docs/formats/matrix-smt.md and the BSON specification: a document is an int32 length (itself,
the elements and the final NUL), its elements and a NUL; an element is a type byte, a
NUL-terminated key and the value. None of it reads the code under test.

The checker's side: ``located_report`` makes the report as the format's check() does (the
findings' element lengths filled in), and ``checked_both_ways`` holds the fast paths
(_fastpath.py, _runs.py) to the full walk on the same bytes. ``runs_taken`` counts the frames
``FrameRuns.after`` takes in bulk. The decoder's side: ``decoded_both_ways`` reads a document with
one of ``_bson._Reader``'s shortcuts on and off, each outcome as a comparable ``value_shape``.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import bson
import pytest

from recspec.conformance.matrix_smt import _runs, check_stream
from recspec.conformance.matrix_smt._locate import add_element_lengths
from recspec.conformance.matrix_smt._rules import RULES_BY_ID
from recspec.errors import DecodeError
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import _bson
from recspec.reference.matrix_smt._walker import RecordingWalker
from recspec.report import FileReport

# -- bytes by hand


def element(code: int, key: bytes, value: bytes) -> bytes:
    return bytes((code,)) + key + b"\x00" + value


def document(*elements: bytes, length_change: int = 0, tail: bytes = b"\x00") -> bytes:
    """A document of ``elements``; ``length_change`` off its true length, ``tail`` for its final NUL."""
    body = b"".join(elements)
    return struct.pack("<i", 4 + len(body) + 1 + length_change) + body + tail


def pymongo_elements(doc: dict[str, Any]) -> bytes:
    """pymongo's elements of ``doc``: its encoding without the length and the final NUL."""
    return bson.encode(doc)[4:-1]


def walker(data: bytes) -> RecordingWalker:
    """The streaming walker over ``data`` held in memory."""
    return RecordingWalker(io.BytesIO(data))


class MadeFile(io.RawIOBase):
    """A seekable file of ``size`` bytes made on demand, ``piece(pos, n)`` the ``n`` bytes at ``pos``, so a test
    of a file of hundreds of MiB holds no copy of it; a read returns at most ``most`` bytes (a raw read may
    return fewer than asked)."""

    def __init__(self, size: int, piece: Callable[[int, int], bytes], most: int | None = None) -> None:
        self.size, self.piece, self.most, self.pos = size, piece, most, 0

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = offset if whence == 0 else self.size + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def read(self, n: int = -1) -> bytes:
        n = min(n, self.size - self.pos) if self.most is None else min(n, self.most, self.size - self.pos)
        out = self.piece(self.pos, n)
        self.pos += n
        return out


#: The value sizes of the fixed-size types the tests' recordings hold.
_FIXED = {0x01: 8, 0x08: 1, 0x09: 8, 0x0A: 0, 0x10: 4, 0x11: 8, 0x12: 8}


def element_offsets(data: bytes, at: int = 0, path: str = "", array: bool = False,
                    out: dict[str, int] | None = None) -> dict[str, int]:
    """The offset of each element's type byte in the document at ``at``, by path (``objects[0].name``)."""
    out = {} if out is None else out
    (n,) = struct.unpack_from("<i", data, at)
    pos, last = at + 4, at + n - 1
    while pos < last:
        t = data[pos]
        key_end = data.index(b"\x00", pos + 1)
        key = data[pos + 1:key_end].decode()
        here = f"{path}[{key}]" if array else (f"{path}.{key}" if path else key)
        out.setdefault(here, pos)  # a repeated key: its first place
        v = key_end + 1
        if t in (0x03, 0x04):
            element_offsets(data, v, here, t == 0x04, out)
            size = struct.unpack_from("<i", data, v)[0]
        elif t == 0x02:
            size = 4 + struct.unpack_from("<i", data, v)[0]
        else:
            size = _FIXED[t]
        pos = v + size
    return out


# -- the checker: fast paths against the full walk


def located_report(data: bytes, profile: str, fast_path: bool) -> FileReport:
    """The report as the format's check() makes it: the findings' element lengths filled in."""
    f = io.BytesIO(data)
    report = check_stream(f, path="x", profile=profile, size=len(data), fast_path=fast_path)
    add_element_lengths(report, f, len(data), RULES_BY_ID)
    return report


def _report_key(r: FileReport) -> tuple[Any, ...]:
    # repr: 0 and 0.0 are equal, but a report that says one where the other says the other differs
    return (r.verdict, repr(r.findings), repr(r.stats), r.verdicts, r.capped, r.findings_cap)


def checked_both_ways(data: bytes, profile: str) -> FileReport:
    """The report with the fast paths on, after asserting the full walk's is the same."""
    fast, full = (located_report(data, profile, on) for on in (True, False))
    assert _report_key(fast) == _report_key(full)
    return fast


def runs_taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The frames each ``FrameRuns.after`` takes in bulk (with the fast paths on), patched in."""
    taken: list[int] = []
    after = _runs.FrameRuns.after

    def spy(self: _runs.FrameRuns, *args: Any) -> int:
        n = after(self, *args)
        taken.append(n)
        return n

    monkeypatch.setattr(_runs.FrameRuns, "after", spy)
    return taken


# -- the decoder: a shortcut of _bson._Reader against its loop


@contextmanager
def shortcut_off(name: str) -> Iterator[None]:
    """``_bson._Reader.<name>`` (a class switch, read at call time) off for the block."""
    setattr(_bson._Reader, name, False)
    try:
        yield
    finally:
        setattr(_bson._Reader, name, True)


def value_shape(v: Any, regular: bool = False) -> Any:
    """A value tree with its keys and offsets (and ``regular``, if asked), doubles as their bytes
    (so NaN equals itself)."""
    if isinstance(v, b.Document):
        return (type(v).__name__, list(v.keys), v.offsets, *((v.regular,) if regular else ()),
                [value_shape(x, regular) for x in v.values])
    if type(v) is float:
        return ("double", struct.pack("<d", v))
    return (type(v).__name__, repr(v))


def decode_outcome(decode: Callable[[], Any]) -> Any:
    """``("ok", shape)`` of what ``decode`` returns, or the DecodeError's kind, rule, message, offset, path."""
    try:
        return ("ok", value_shape(decode()))
    except DecodeError as e:
        return ("error", type(e).__name__, e.rule, e.message, e.offset, e.path)


def decoded_both_ways(data: bytes, shortcut: str) -> tuple[Any, Any]:
    """The outcome of decoding ``data`` with ``_bson._Reader.<shortcut>`` on, then off."""
    fast = decode_outcome(lambda: b.decode_document(data))
    with shortcut_off(shortcut):
        loop = decode_outcome(lambda: b.decode_document(data))
    return fast, loop
