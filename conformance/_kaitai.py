"""What every format's Kaitai cross-check (``conformance/<package>/_xcheck.py``) shares.

* :class:`KaitaiRejected`: the generated parser rejected the input. Each format
  subclasses it only to name its rule (``CARLA-XCHECK-REJECT``, ...), so that a
  rejection says which cross-check made it;
* :data:`KAITAI_INPUT_ERRORS` (and the narrower :data:`KAITAI_RUNTIME_ERRORS`):
  the exceptions a generated parser raises for bad input, as opposed to a bug in
  the parser or its adapter, which must leave the cross-check (the fuzz target
  ``ksy`` reports it);
* :meth:`KaitaiRejected.from_error`: the rejection made from one of those
  exceptions, with the offset of the stream it names and its ksy path;
* :class:`recspec.formats.Divergence`, re-exported: where two readings part;
* :func:`unread`: an object of a generated class that has not parsed yet, for
  either build (``recspec/_ksy`` in debug mode, ``recspec/_ksy_fast`` without it);
* :class:`MemoryStream`: the runtime's ``KaitaiStream`` for bytes held in memory,
  reading them directly; :func:`stream_for` picks it for bytes or an in-memory
  file, :func:`read_in_memory` makes a generated module's own substreams (the
  ``KaitaiStream(BytesIO(raw))`` of every sized field) MemoryStreams too, and
  :func:`runtime_streams` goes back to the runtime's stream for a while (to
  compare the two);
* :class:`KnownReading`: members of generated classes (a ``_read``, a property)
  pointed at hand-written ones that read the same faster, with the generated
  ones put back for a while (to compare the two).
"""

from __future__ import annotations

import contextlib
import enum
import io
import struct
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any, BinaryIO, TypeVar

from kaitaistruct import EndOfStreamError, InvalidArgumentError, KaitaiStream, KaitaiStructError, NoTerminatorFoundError

from recspec.errors import Malformed
from recspec.formats import Divergence

__all__ = ["KAITAI_INPUT_ERRORS", "KAITAI_RUNTIME_ERRORS", "Divergence", "KaitaiRejected", "KnownReading",
           "MemoryStream", "read_in_memory", "runtime_streams", "stack_for_nesting", "stream_for", "unread"]

#: The Kaitai runtime's own errors for bad input: ``KaitaiStructError`` (validation
#: failures, and the process routines' errors, which derive from it) and
#: ``EOFError`` (the end-of-stream errors).
KAITAI_RUNTIME_ERRORS: tuple[type[BaseException], ...] = (KaitaiStructError, EOFError)

#: What a parser that reads text raises for bad input: the runtime's errors, plus
#: ``UnicodeDecodeError`` (the generated code decodes ``encoding: UTF-8`` strings
#: with ``bytes.decode``, outside the runtime's error classes) and ``ValueError``
#: (its base, and what the runtime's argument errors also are). The CARLA, NanoVer
#: and Matrix-SMT parsers read text. raskat-signal's reads none (its adapter
#: decodes names itself) and its process routine raises only ``KaitaiStructError``
#: (``recspec._ksy_process``), so it uses :data:`KAITAI_RUNTIME_ERRORS`: a
#: ``ValueError`` from it is a bug for the ``ksy`` fuzz target to report, not a
#: rejection to swallow.
KAITAI_INPUT_ERRORS: tuple[type[BaseException], ...] = (*KAITAI_RUNTIME_ERRORS, UnicodeDecodeError, ValueError)

_R = TypeVar("_R", bound="KaitaiRejected")


def _stream_offset(e: BaseException) -> int:
    """The position of the stream a validation error names (``e.io``), else 0."""
    pos = getattr(getattr(e, "io", None), "pos", None)
    return pos() if callable(pos) else 0


class KaitaiRejected(Malformed):
    """The Kaitai parser rejected the input (its message, the offset and the ksy path).

    A :class:`recspec.errors.DecodeError`: the input's fault. Each format's
    ``_xcheck`` subclasses it with its own ``rule``."""

    rule = "XCHECK-REJECT"

    @classmethod
    def from_error(cls: type[_R], e: BaseException, prefix: str = "", *, offset: int | None = None,
                   path: str | None = None) -> _R:
        """The rejection for the runtime error ``e``: the message ``prefix`` +
        ``"<exception type>: <error>"``; ``offset`` unless given, the position of the
        stream ``e`` names (0 when it names none); ``path`` unless given, ``e``'s ksy
        path (``src_path``)."""
        where = _stream_offset(e) if offset is None else offset
        src = str(getattr(e, "src_path", "") or "") if path is None else path
        return cls(f"{prefix}{type(e).__name__}: {e}", where, src)



_NOT_READING: dict[type, type] = {}


def unread(cls: type, *args: Any) -> Any:
    """``cls(*args)`` without parsing: call ``_read()`` on it next.

    The cross-check runs the parsers compiled without debug mode
    (``recspec/_ksy_fast``), whose constructor parses; the adapters want the
    object even when parsing fails (the packet's length read before a payload
    was rejected), as the debug build gives it. This builds the object through a
    subclass whose ``_read`` does nothing, then gives it back its own class, so
    ``type(obj)`` and ``isinstance`` are as if it had been built normally. A debug
    class (which never parses in its constructor) comes back the same way.
    """
    quiet = _NOT_READING.get(cls)
    if quiet is None:
        quiet = _NOT_READING[cls] = type(cls.__name__, (cls,), {"_read": lambda self: None})
    obj = quiet(*args)
    obj.__class__ = cls
    return obj


@contextlib.contextmanager
def stack_for_nesting(levels: int, frames_per_level: int = 12) -> Iterator[None]:
    """Room on the Python stack for a parse ``levels`` deep (the ksy bounds the depth).

    Without debug mode a generated constructor calls ``_read``, which constructs
    the children: every nesting level costs about twice the frames of the debug
    build, and a BSON document 100 levels deep (``MAX_DEPTH``, which the ksy also
    enforces) needs more than Python's default limit of 1,000. The limit is raised
    for the parse only, by what the bounded depth needs.
    """
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, old + levels * frames_per_level))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


# --- the stream for bytes in memory -------------------------------------------------------

#: How many bytes a read must ask for before the runtime compares the request with
#: what is left instead of reading first (``_read_bytes_not_aligned``): its error
#: then counts the bytes left from the position, which can be negative after a seek
#: past the end. MemoryStream says the same in the same case.
_RUNTIME_PRECHECK = 8 * 1024 * 1024

_S1, _S2BE, _S4BE, _S8BE = (struct.Struct(f) for f in ("b", ">h", ">i", ">q"))
_S2LE, _S4LE, _S8LE = (struct.Struct(f) for f in ("<h", "<i", "<q"))
_U2BE, _U4BE, _U8BE = (struct.Struct(f) for f in (">H", ">I", ">Q"))
_U2LE, _U4LE, _U8LE = (struct.Struct(f) for f in ("<H", "<I", "<Q"))
_F4BE, _F8BE, _F4LE, _F8LE = (struct.Struct(f) for f in (">f", ">d", "<f", "<d"))


_ENUM_MISSING = vars(enum.Enum)["_missing_"].__func__  # Enum's own: a missing value is a ValueError
#: enum class -> its members by value (``_value2member_map_``), or False where
#: ``MemoryStream.resolve_enum`` must ask the enum itself
_ENUM_TABLES: dict[Any, Any] = {}


def _members_by_value(enum_obj: Any) -> Any:
    """``enum_obj``'s table of members by value when a value missing from it makes
    ``enum_obj(value)`` raise ``ValueError`` (Enum's own ``_missing_``), else False."""
    table = getattr(enum_obj, "_value2member_map_", None)
    missing = getattr(getattr(enum_obj, "_missing_", None), "__func__", None)
    if isinstance(enum_obj, enum.EnumMeta) and isinstance(table, dict) and missing is _ENUM_MISSING:
        return table
    return False


def _reader(packer: struct.Struct) -> Any:
    """A ``read_<type>`` method: ``packer`` unpacked at the position, which moves on."""
    n = packer.size
    unpack_from = packer.unpack_from

    def read(self: MemoryStream) -> Any:
        p = self._pos
        if self.bits_left or self._size - p < n:  # a pending bit read, or too few bytes left: the full path
            return unpack_from(self.read_bytes(n))[0]
        self._pos = p + n
        return unpack_from(self._buf, p)[0]

    read.__doc__ = f"The next {n} bytes as {packer.format!r} (``struct``)."
    return read


class MemoryStream(KaitaiStream):  # type: ignore[misc]  # the runtime has no type hints
    """A read-only ``KaitaiStream`` over bytes in memory, read directly.

    The runtime's stream reads through a file object: every integer is
    ``read_bytes`` -> ``align_to_byte`` -> ``_read_bytes_not_aligned`` ->
    ``BytesIO.read``, and ``size()`` / ``is_eof()`` seek to the end and back.
    Here a read is one slice or one ``struct.unpack_from`` at an integer
    position; the bit-reading state (``bits_left``, ``bits``) is kept as the
    runtime keeps it, so a byte read after a partial bit read still aligns first.

    Every result, every exception (its class, message and attributes) and every
    position are the runtime's for the same bytes (``tests/test_kaitai_memory_stream.py``
    compares the two on every generated parser): the cross-check's findings quote
    the exception and the position it names. Writing is not supported, nor the
    runtime's deprecated ``ensure_fixed_contents`` (no compiler since 0.9 calls it).

    ``data`` is the bytes, or a ``BytesIO`` (what the generated parsers wrap a
    sized field's bytes in), read from its current position without moving it.
    """

    # The runtime's per-stream state that a read-only stream starts with and rarely
    # changes: class defaults, so that a substream (one per sized field) costs four
    # assignments. An assignment (a bit read, a write attempt) makes them the
    # instance's own, as usual.
    _io = None  # no file object: every method that would use one is overridden
    bits_left = 0
    bits = 0
    bits_le = False
    bits_write_mode = False
    write_back_handler = None

    def __init__(self, data: bytes | bytearray | memoryview | io.BytesIO) -> None:
        pos = 0
        if type(data) is not bytes:
            if isinstance(data, io.BytesIO):
                pos = data.tell()
                data = data.getvalue()  # the BytesIO's own bytes object when it was made from bytes: no copy
            else:
                data = bytes(data)
        self._buf: bytes = data
        self._pos = pos
        self._size = len(data)
        self.child_streams: list[KaitaiStream] = []

    def close(self) -> None:
        self.align_to_byte()

    @staticmethod
    def resolve_enum(enum_obj: Any, value: Any) -> Any:
        """The runtime's ``resolve_enum`` (the member whose value is ``value``, else
        ``value`` itself) by the enum's own table of members by value.

        The runtime calls ``enum_obj(value)`` and catches the ``ValueError``: a few
        microseconds a value, and an exception made and thrown for every value the
        enum lacks, such as the 0 that ends every BSON document. ``Enum`` looks the
        value up in the same table first; an enum that answers a missing value
        itself (its own ``_missing_``) or a value the table cannot hold goes the
        runtime's way."""
        table = _ENUM_TABLES.get(enum_obj)
        if table is None:
            table = _ENUM_TABLES[enum_obj] = _members_by_value(enum_obj)
        if table is not False:
            try:
                return table.get(value, value)
            except TypeError:  # unhashable: Enum searches its members one by one
                pass
        return KaitaiStream.resolve_enum(enum_obj, value)

    @staticmethod
    def byte_array_max(b: Any) -> Any:
        """The runtime's ``byte_array_max`` (``max(b)``), at once for a block of
        zeros: a tar's end and its members' padding, which the tar parser checks
        block by block."""
        if type(b) is bytes and b and b.count(0) == len(b):
            return 0
        return KaitaiStream.byte_array_max(b)

    @staticmethod
    def byte_array_index(data: Any, i: int) -> Any:
        """The runtime's ``byte_array_index`` (``data[i]`` as an int), without its call to ``int_from_byte``."""
        return data[i]

    # positioning

    def is_eof(self) -> bool:
        return not self.bits_left and self._pos >= self._size

    def seek(self, n: int) -> None:
        if n < 0:
            raise InvalidArgumentError("cannot seek to invalid position %d" % (n,))
        self.bits_left = self.bits = 0
        self._pos = n  # past the end is allowed, as on a BytesIO: the next read finds nothing

    def pos(self) -> int:
        return self._pos + (1 if self.bits_write_mode and self.bits_left > 0 else 0)

    def size(self) -> int:
        return self._size

    # bytes

    def read_bytes(self, n: int) -> bytes:
        p = self._pos
        if self.bits_left:
            self.bits_left = self.bits = 0
        if 0 <= n <= self._size - p:
            self._pos = p + n
            return self._buf[p:p + n]
        return self._read_bytes_not_aligned(n)

    def _read_bytes_not_aligned(self, n: int) -> bytes:
        if n < 0:
            raise InvalidArgumentError("requested invalid %d amount of bytes" % (n,))
        p = self._pos
        left = self._size - p  # negative after a seek past the end
        # the runtime compares a request this large with what is left, reading nothing; a smaller
        # one it reads first, which moves the position to the end, and counts what came
        precheck = n >= _RUNTIME_PRECHECK
        available = left if precheck else max(left, 0)
        if n > available:
            self._pos = p if precheck else max(p, self._size)
            raise EndOfStreamError("requested %d bytes, but only %d bytes available" % (n, available), n, available)
        if n > left:  # 0 bytes asked for past the end: nothing read, the position stays
            return b""
        self._pos = p + n
        return self._buf[p:p + n]

    def read_bytes_full(self) -> bytes:
        self.bits_left = self.bits = 0
        p = self._pos
        self._pos = max(p, self._size)
        return self._buf[p:]

    def read_bytes_term(self, term: int, include_term: bool, consume_term: bool, eos_error: bool) -> bytes:
        if self.bits_left:
            self.bits_left = self.bits = 0
        if type(term) is not int or not 0 <= term <= 255:
            KaitaiStream.byte_from_int(term)  # the runtime's error for a terminator that is no byte, once aligned
        p = self._pos
        at = self._buf.find(term, p) if p < self._size else -1
        if at < 0:  # the runtime has read to the end looking for it
            self._pos = max(p, self._size)
            if eos_error:
                raise NoTerminatorFoundError(KaitaiStream.byte_from_int(term), 0)
            return self._buf[p:]
        self._pos = at + 1 if consume_term else at
        return self._buf[p:at + 1 if include_term else at]

    def read_bytes_term_multi(self, term: bytes, include_term: bool, consume_term: bool, eos_error: bool) -> bytes:
        self.bits_left = self.bits = 0
        unit = len(term)
        p = start = self._pos
        while True:
            chunk = self._buf[p:p + unit]
            if len(chunk) < unit:  # the runtime has read to the end looking for it
                self._pos = p + len(chunk)
                if eos_error:
                    raise NoTerminatorFoundError(term, len(chunk))
                return self._buf[start:self._pos]
            if chunk == term:
                self._pos = p + unit if consume_term else p
                return self._buf[start:p + unit if include_term else p]
            p += unit

    def _write_bytes_not_aligned(self, buf: bytes) -> None:
        raise io.UnsupportedOperation("a MemoryStream is read-only")

    # numbers: the runtime's read_<type> is read_bytes + unpack; here one unpack_from

    def read_u1(self) -> int:
        p = self._pos
        if self.bits_left or p >= self._size:
            return self.read_bytes(1)[0]
        self._pos = p + 1
        return self._buf[p]

    read_s1 = _reader(_S1)
    read_s2be = _reader(_S2BE)
    read_s4be = _reader(_S4BE)
    read_s8be = _reader(_S8BE)
    read_s2le = _reader(_S2LE)
    read_s4le = _reader(_S4LE)
    read_s8le = _reader(_S8LE)
    read_u2be = _reader(_U2BE)
    read_u4be = _reader(_U4BE)
    read_u8be = _reader(_U8BE)
    read_u2le = _reader(_U2LE)
    read_u4le = _reader(_U4LE)
    read_u8le = _reader(_U8LE)
    read_f4be = _reader(_F4BE)
    read_f8be = _reader(_F8BE)
    read_f4le = _reader(_F4LE)
    read_f8le = _reader(_F8LE)


#: the generated modules that read_in_memory has pointed at MemoryStream
_IN_MEMORY: list[ModuleType] = []
#: False inside runtime_streams(): the cross-check reads through the runtime's own KaitaiStream
_memory_streams = True


def stream_for(source: bytes | BinaryIO) -> KaitaiStream:
    """The stream a parser reads ``source`` through: a :class:`MemoryStream` for
    bytes or a ``BytesIO`` (read from its position, which does not move), else
    the runtime's own ``KaitaiStream`` over the file; the runtime's for all of
    them inside :func:`runtime_streams`."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return MemoryStream(source) if _memory_streams else KaitaiStream(io.BytesIO(source))
    return MemoryStream(source) if _memory_streams and isinstance(source, io.BytesIO) else KaitaiStream(source)


def read_in_memory(*modules: ModuleType) -> None:
    """Make the generated ``modules`` wrap their sized fields in :class:`MemoryStream`.

    A generated parser reads a field of known size (a packet's payload, a
    record's body, a BSON document) through a substream of its own,
    ``KaitaiStream(BytesIO(raw))``, with the ``KaitaiStream`` its module imported:
    most of a parse happens in those. The committed modules stay as the compiler
    writes them (``tests/test_ksy_drift.py``); the name they look up when they
    parse is pointed at :class:`MemoryStream` instead, which gives the same
    results (``tests/test_kaitai_memory_stream.py``). ``MemoryStream`` keeps the
    runtime's static helpers (``resolve_enum``, ...), which the modules also call
    through that name."""
    for module in modules:
        if module not in _IN_MEMORY:
            _IN_MEMORY.append(module)
        module.KaitaiStream = MemoryStream if _memory_streams else KaitaiStream  # type: ignore[attr-defined]


@contextlib.contextmanager
def runtime_streams() -> Iterator[None]:
    """Inside: the cross-check reads as it did before :class:`MemoryStream`, through
    the Kaitai runtime's own ``KaitaiStream`` (:func:`stream_for` and the generated
    modules' substreams alike). For what compares the two: the equivalence tests,
    ``benchmarks/profile_folder.py --runtime-streams``."""
    global _memory_streams
    was = _memory_streams
    _memory_streams = False
    for module in _IN_MEMORY:
        module.KaitaiStream = KaitaiStream  # type: ignore[attr-defined]
    try:
        yield
    finally:
        _memory_streams = was
        for module in _IN_MEMORY:
            module.KaitaiStream = MemoryStream if was else KaitaiStream  # type: ignore[attr-defined]


# --- hand-written members of generated classes ----------------------------------------------


class KnownReading:
    """Members of generated classes pointed at hand-written ones that read the same, faster.

    The generated modules stay as the compiler writes them (``tests/test_ksy_drift.py``), so a
    format's faster reading of a few of their classes replaces class attributes instead: a
    ``_read`` that makes objects whose content one byte already fixes, a property computed in one
    pass. ``KnownReading((cls, name, known), ...)`` keeps each generated member as the class's own
    ``__dict__`` holds it (a property stays a property, not the value it computes), so build it
    before :meth:`install`. :meth:`install` points the members at the ``known`` ones;
    :meth:`generated` puts the compiler's back for a ``with`` block (the equivalence tests and
    benchmarks compare the two) and, on leaving it, what was there on entering: also on an
    exception, and a nested block leaves the outer one's reading in place.
    """

    def __init__(self, *members: tuple[type, str, Any]) -> None:
        #: (class, name, the generated member, the known member) for each member replaced
        self.members = tuple((owner, name, vars(owner)[name], known) for owner, name, known in members)

    def _point(self, values: list[Any]) -> None:
        for (owner, name, _, _), value in zip(self.members, values):
            setattr(owner, name, value)

    def install(self) -> None:
        """Point every member at its known reading."""
        self._point([known for _, _, _, known in self.members])

    @contextlib.contextmanager
    def generated(self) -> Iterator[None]:
        """Inside: every member as the compiler wrote it; after: as it was before."""
        was = [vars(owner)[name] for owner, name, _, _ in self.members]
        self._point([generated for _, _, generated, _ in self.members])
        try:
            yield
        finally:
            self._point(was)
