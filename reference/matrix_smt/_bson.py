"""BSON, read and written by hand: values, a strict buffer decoder, an encoder and
a streaming walker over a file.

Specification: https://bsonspec.org/spec.html (BSON 1.1). The decoder is as
strict as ``ksy/bson.ksy``: declared lengths must agree with their content,
strings are NUL-terminated UTF-8 with a length of at least 1, booleans are 0 or
1, type codes are the specification's, keys are UTF-8 cstrings, nesting is at
most :data:`MAX_DEPTH` deep. It raises only :class:`recspec.errors.DecodeError`
subclasses, each with the byte offset and the structural path of the fault and
the rule id (``MATRIX-BSON-*``, ``MATRIX-LIMIT-*``) that names it.

Values keep their stored type, so that ``encode(decode(b)) == b`` byte for
byte: double -> ``float``, int32 -> ``int``, int64 -> :class:`Int64` (an ``int``
subclass), string -> ``str``, boolean -> ``bool``, null -> ``None``, embedded
document -> :class:`Document`, array -> :class:`Array` (keys kept as stored, so
that a degenerate encoding survives a round trip), and a small frozen class per
remaining type. Because ``1 == 1.0 == True`` in Python, compare decoded values
with :func:`typed` when the stored width matters.

Memory: :class:`RecordingWalker` never holds more than one buffered unit (a
frame, or one top-level value other than the frames array) of at most
:data:`MAX_BUFFERED_SIZE` bytes and :data:`MAX_ELEMENTS` elements.
"""

from __future__ import annotations

import io
import math
import os
import struct
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator

from recspec.errors import DecodeError, LimitExceeded, Malformed, Truncated

__all__ = [
    "MAX_BUFFERED_SIZE",
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "Array",
    "Binary",
    "Code",
    "CodeWithScope",
    "DBPointer",
    "DateTime",
    "Decimal128",
    "Document",
    "Entry",
    "Int64",
    "MaxKey",
    "MinKey",
    "ObjectId",
    "Regex",
    "RecordingWalker",
    "Section",
    "Symbol",
    "Timestamp",
    "Undefined",
    "decode_document",
    "decode_raw",
    "encode_document",
    "type_name",
    "typed",
]

#: Deepest nesting read: the top-level document is depth 0, each embedded
#: document, array or code-with-scope scope adds one. Deeper input is
#: ``MATRIX-LIMIT-001`` (the Kaitai spec enforces the same bound).
MAX_DEPTH = 100
#: Largest unit read into memory at once: one frame, or one top-level value other
#: than the frames array (``objects`` included). Larger is ``MATRIX-LIMIT-002``.
MAX_BUFFERED_SIZE = 64 * 1024 * 1024
#: Most elements decoded in one buffered unit (a frame, or ``objects``): each
#: costs a Python object, so a 64 MiB run of 3-byte null elements would need
#: gigabytes. More is ``MATRIX-LIMIT-003``.
MAX_ELEMENTS = 1_000_000

#: Bytes the walker reads from the file at a time (its read window).
WINDOW = 1 << 20

# rule ids (catalog: recspec.conformance.matrix_smt._rules)
R_LENGTH = "MATRIX-BSON-001"
R_TYPE = "MATRIX-BSON-002"
R_BOOL = "MATRIX-BSON-003"
R_STRING = "MATRIX-BSON-004"
R_UTF8 = "MATRIX-BSON-005"
R_TRAILING = "MATRIX-BSON-006"
R_TRUNCATED = "MATRIX-BSON-007"
R_DEPTH = "MATRIX-LIMIT-001"
R_SIZE = "MATRIX-LIMIT-002"
R_COUNT = "MATRIX-LIMIT-003"

T_DOUBLE, T_STRING, T_DOCUMENT, T_ARRAY, T_BINARY, T_UNDEFINED, T_OBJECT_ID, T_BOOL = 1, 2, 3, 4, 5, 6, 7, 8
T_DATETIME, T_NULL, T_REGEX, T_DBPOINTER, T_CODE, T_SYMBOL, T_CODE_W_SCOPE = 9, 10, 11, 12, 13, 14, 15
T_INT32, T_TIMESTAMP, T_INT64, T_DECIMAL128, T_MAX_KEY, T_MIN_KEY = 16, 17, 18, 19, 0x7F, 0xFF

TYPE_NAMES = {
    T_DOUBLE: "double", T_STRING: "string", T_DOCUMENT: "document", T_ARRAY: "array", T_BINARY: "binary",
    T_UNDEFINED: "undefined", T_OBJECT_ID: "objectId", T_BOOL: "bool", T_DATETIME: "date", T_NULL: "null",
    T_REGEX: "regex", T_DBPOINTER: "dbPointer", T_CODE: "javascript", T_SYMBOL: "symbol",
    T_CODE_W_SCOPE: "javascriptWithScope", T_INT32: "int", T_TIMESTAMP: "timestamp", T_INT64: "long",
    T_DECIMAL128: "decimal", T_MAX_KEY: "maxKey", T_MIN_KEY: "minKey",
}


# --- values ----------------------------------------------------------------------------


class Int64(int):
    """An int64 element (an int32 decodes to a plain ``int``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Int64({int(self)})"


class Document:
    """An embedded document: keys, values and element offsets, in stored order.

    Duplicate keys are kept (the rules report them); :meth:`get` returns the last
    one, as a dict-building reader would. ``offsets`` are the absolute byte
    offsets of each element's type byte (``None`` for a value built in code) and
    are not part of equality.
    """

    __slots__ = ("keys", "values", "offsets", "_map")

    def __init__(self, keys: list[str] | tuple[str, ...] = (), values: list[Any] | tuple[Any, ...] = (),
                 offsets: list[int] | None = None) -> None:
        self.keys = list(keys)
        self.values = list(values)
        self.offsets = offsets
        self._map: dict[str, Any] | None = None

    @classmethod
    def of(cls, *pairs: tuple[str, Any], **kw: Any) -> "Document":
        """``Document.of(("a", 1), ("b", 2))`` or ``Document.of(a=1, b=2)``."""
        items = list(pairs) + list(kw.items())
        return cls([k for k, _ in items], [v for _, v in items])

    def map(self) -> dict[str, Any]:
        m = self._map
        if m is None:
            m = self._map = dict(zip(self.keys, self.values))
        return m

    def get(self, key: str, default: Any = None) -> Any:
        return self.map().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.map()

    def items(self) -> list[tuple[str, Any]]:
        return list(zip(self.keys, self.values))

    def offset_of(self, key: str) -> int | None:
        """Offset of the last element named ``key``."""
        if self.offsets is None:
            return None
        for i in range(len(self.keys) - 1, -1, -1):
            if self.keys[i] == key:
                return self.offsets[i]
        return None

    def __len__(self) -> int:
        return len(self.keys)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.keys == other.keys and self.values == other.values  # type: ignore[attr-defined]

    def __hash__(self) -> int:  # pragma: no cover - documents are not dict keys
        raise TypeError(f"unhashable type: {type(self).__name__}")

    def __repr__(self) -> str:
        inner = ", ".join(f"{k!r}: {v!r}" for k, v in zip(self.keys, self.values))
        return f"{type(self).__name__}({{{inner}}})"


class Array(Document):
    """An array: a document whose keys should be "0", "1", ...; iterates over values."""

    __slots__ = ()

    @classmethod
    def of_values(cls, values: list[Any] | tuple[Any, ...]) -> "Array":
        return cls(index_keys(len(values)), list(values))

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values)

    def __getitem__(self, i: int) -> Any:
        return self.values[i]

    def regular_keys(self) -> bool:
        """Keys are exactly "0".."n-1" in order."""
        return self.keys == index_keys(len(self.keys))


_INDEX_KEYS: list[str] = [str(i) for i in range(1024)]


def index_keys(n: int) -> list[str]:
    if n > len(_INDEX_KEYS):
        return [str(i) for i in range(n)]
    return _INDEX_KEYS[:n]


@dataclass(frozen=True, slots=True)
class Binary:
    subtype: int
    data: bytes


@dataclass(frozen=True, slots=True)
class ObjectId:
    data: bytes  # 12 bytes


@dataclass(frozen=True, slots=True)
class DateTime:
    ms: int  # milliseconds since the Unix epoch, signed 64-bit


@dataclass(frozen=True, slots=True)
class Regex:
    pattern: str
    options: str


@dataclass(frozen=True, slots=True)
class DBPointer:
    namespace: str
    oid: bytes  # 12 bytes


@dataclass(frozen=True, slots=True)
class Code:
    code: str


@dataclass(frozen=True, slots=True)
class Symbol:
    value: str


@dataclass(frozen=True, slots=True)
class CodeWithScope:
    code: str
    scope: Document


@dataclass(frozen=True, slots=True)
class Timestamp:
    value: int  # unsigned 64-bit: increment in the low word, seconds in the high word


@dataclass(frozen=True, slots=True)
class Decimal128:
    data: bytes  # 16 bytes, IEEE 754-2008 decimal128, little-endian


@dataclass(frozen=True, slots=True)
class Undefined:
    pass


@dataclass(frozen=True, slots=True)
class MinKey:
    pass


@dataclass(frozen=True, slots=True)
class MaxKey:
    pass


def type_name(value: Any) -> str:
    """The BSON type name a decoded value came from ("double", "int", "long", ...)."""
    t = type(value)
    if t is float:
        return "double"
    if t is int:
        return "int"
    if t is bool:
        return "bool"
    if value is None:
        return "null"
    return {Int64: "long", str: "string", Document: "object", Array: "array", Binary: "binData",
            ObjectId: "objectId", DateTime: "date", Regex: "regex", DBPointer: "dbPointer", Code: "javascript",
            Symbol: "symbol", CodeWithScope: "javascriptWithScope", Timestamp: "timestamp",
            Decimal128: "decimal", Undefined: "undefined", MinKey: "minKey", MaxKey: "maxKey"}.get(t, t.__name__)


def typed(value: Any) -> Any:
    """A comparable form that keeps stored types apart (1, 1.0, True and Int64(1)
    differ) and NaN equal to itself."""
    t = type(value)
    if t is float:
        if math.isnan(value):
            return ("double", struct.pack("<d", value))
        return ("double", value, math.copysign(1.0, value))
    if isinstance(value, Document):
        return (type(value).__name__, tuple(value.keys), tuple(typed(v) for v in value.values))
    if t is CodeWithScope:
        return ("cws", value.code, typed(value.scope))
    return (type_name(value), value)


# --- decoding ----------------------------------------------------------------------------

_I32 = struct.Struct("<i").unpack_from
_U32 = struct.Struct("<I").unpack_from
_I64 = struct.Struct("<q").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_F64 = struct.Struct("<d").unpack_from

_KEY_CACHE: dict[bytes, str] = {}
_KEY_CACHE_MAX = 4096


class _Reader:
    """One buffered unit being decoded: ``buf`` holds file bytes from ``base``.

    ``short`` says the file ended before the unit's declared end, so reading past
    ``len(buf)`` is a truncation rather than an inconsistent length.
    """

    __slots__ = ("buf", "base", "short", "count", "path")

    def __init__(self, buf: bytes, base: int = 0, short: bool = False, path: str = "") -> None:
        self.buf = buf
        self.base = base
        self.short = short
        self.count = 0
        self.path = path

    def fail(self, rule: str, message: str, pos: int, path: str) -> DecodeError:
        off = self.base + pos
        if rule == R_TRUNCATED:
            return Truncated(message, off, path, rule, 0, len(self.buf) - pos)
        return Malformed(message, off, path, rule)

    def overrun(self, what: str, pos: int, need_end: int, bound: int, path: str) -> DecodeError:
        """``what`` at ``pos`` needs bytes up to ``need_end`` but its container ends at ``bound``."""
        if need_end > len(self.buf) and bound >= len(self.buf) and self.short:
            return self.fail(R_TRUNCATED, f"file ends inside {what}", pos, path)
        return self.fail(R_LENGTH, f"{what} runs past the end of its container "
                         f"({need_end - pos} bytes needed, {max(bound - pos, 0)} left)", pos, path)

    def key(self, pos: int, last: int, path: str) -> tuple[str, int]:
        buf = self.buf
        k = buf.find(b"\x00", pos, last)
        if k < 0:
            raise self.overrun("an element name (no NUL before the end of the document)", pos, last + 1, last, path)
        raw = buf[pos:k]
        name = _KEY_CACHE.get(raw)
        if name is None:
            try:
                name = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise self.fail(R_UTF8, f"element name is not valid UTF-8 ({e.reason} at byte {e.start})",
                                pos + e.start, path) from None
            if len(_KEY_CACHE) < _KEY_CACHE_MAX:
                _KEY_CACHE[raw] = name
        return name, k + 1

    def string(self, pos: int, last: int, path: str) -> tuple[str, int]:
        buf = self.buf
        if pos + 4 > last:
            raise self.overrun("a string length", pos, pos + 4, last, path)
        (n,) = _I32(buf, pos)
        if n < 1:
            raise self.fail(R_STRING, f"string length {n} is below 1 (it counts the final NUL)", pos, path)
        end = pos + 4 + n
        if end > last:
            raise self.overrun(f"a string of {n} bytes", pos, end, last, path)
        if buf[end - 1] != 0:
            raise self.fail(R_STRING, f"string of declared length {n} does not end with NUL "
                            f"(byte {buf[end - 1]:#04x})", end - 1, path)
        try:
            return buf[pos + 4:end - 1].decode("utf-8"), end
        except UnicodeDecodeError as e:
            raise self.fail(R_UTF8, f"string is not valid UTF-8 ({e.reason} at byte {e.start})",
                            pos + 4 + e.start, path) from None

    def cstring(self, pos: int, last: int, path: str, what: str) -> tuple[str, int]:
        buf = self.buf
        k = buf.find(b"\x00", pos, last)
        if k < 0:
            raise self.overrun(f"a {what} cstring (no NUL before the end of the document)", pos, last + 1, last, path)
        try:
            return buf[pos:k].decode("utf-8"), k + 1
        except UnicodeDecodeError as e:
            raise self.fail(R_UTF8, f"{what} is not valid UTF-8 ({e.reason} at byte {e.start})",
                            pos + e.start, path) from None

    def document(self, pos: int, bound: int, depth: int, path: str, cls: type[Document] = Document
                 ) -> tuple[Document, int]:
        """The document whose length field is at ``pos``; it must end by ``bound``."""
        buf = self.buf
        if pos + 4 > bound:
            raise self.overrun("a document length", pos, pos + 4, bound, path)
        (n,) = _I32(buf, pos)
        if n < 5:
            raise self.fail(R_LENGTH, f"document length {n} is below the minimum of 5", pos, path)
        if depth > MAX_DEPTH:
            raise LimitExceeded(f"documents nested {depth} deep; recspec reads at most {MAX_DEPTH} levels",
                                self.base + pos, path, R_DEPTH, "depth", depth, MAX_DEPTH)
        end = pos + n
        if end > bound:
            raise self.overrun(f"a document of declared length {n}", pos, end, bound, path)
        if end > len(buf):
            raise self.fail(R_TRUNCATED, f"file ends inside a document of declared length {n}", pos, path)
        last = end - 1
        keys: list[str] = []
        values: list[Any] = []
        offsets: list[int] = []
        base = self.base
        p = pos + 4
        key_cache = _KEY_CACHE
        is_array = cls is Array
        while p < last:
            t = buf[p]
            start = p
            # element name (inlined fast path of self.key)
            k = buf.find(b"\x00", p + 1, last)
            if k < 0:
                raise self.overrun("an element name (no NUL before the end of the document)", p + 1, last + 1, last,
                                   path)
            raw = buf[p + 1:k]
            name = key_cache.get(raw)
            if name is None:
                name, _ = self.key(p + 1, last, path + "[?]" if is_array else path)
            v = k + 1
            if t == 1:
                p = v + 8
                if p > last:
                    raise self.overrun("a double", v, p, last, _sub(path, name, is_array))
                value: Any = _F64(buf, v)[0]
            elif t == 16:
                p = v + 4
                if p > last:
                    raise self.overrun("an int32", v, p, last, _sub(path, name, is_array))
                value = _I32(buf, v)[0]
            elif t == 2:
                value, p = self.string(v, last, _sub(path, name, is_array))
            elif t == 3:
                value, p = self.document(v, last, depth + 1, _sub(path, name, is_array))
            elif t == 4:
                value, p = self.document(v, last, depth + 1, _sub(path, name, is_array), Array)
            elif t == 8:
                p = v + 1
                if p > last:
                    raise self.overrun("a boolean", v, p, last, _sub(path, name, is_array))
                b = buf[v]
                if b > 1:
                    raise self.fail(R_BOOL, f"boolean byte is {b:#04x}, not 0x00 or 0x01", v, _sub(path, name, is_array))
                value = b == 1
            elif t == 10:
                value, p = None, v
            else:
                value, p = self.other(t, start, v, last, depth, _sub(path, name, is_array))
            keys.append(name)
            values.append(value)
            offsets.append(base + start)
        if buf[last] != 0:
            raise self.fail(R_LENGTH, f"document of declared length {n} does not end with NUL "
                            f"(byte {buf[last]:#04x} at its end)", last, path)
        self.count += len(keys)
        if self.count > MAX_ELEMENTS:
            raise LimitExceeded(f"more than {MAX_ELEMENTS} elements in one buffered unit", self.base + pos, path,
                                R_COUNT, "elements", self.count, MAX_ELEMENTS)
        return cls(keys, values, offsets), end

    def other(self, t: int, start: int, v: int, last: int, depth: int, path: str) -> tuple[Any, int]:
        """Values of the rarer types."""
        buf = self.buf

        def need(n: int, what: str) -> int:
            if v + n > last:
                raise self.overrun(what, v, v + n, last, path)
            return v + n

        if t == T_INT64:
            p = need(8, "an int64")
            return Int64(_I64(buf, v)[0]), p
        if t == T_DATETIME:
            p = need(8, "a UTC datetime")
            return DateTime(_I64(buf, v)[0]), p
        if t == T_TIMESTAMP:
            p = need(8, "a timestamp")
            return Timestamp(_U64(buf, v)[0]), p
        if t == T_OBJECT_ID:
            p = need(12, "an ObjectId")
            return ObjectId(buf[v:p]), p
        if t == T_DECIMAL128:
            p = need(16, "a decimal128")
            return Decimal128(buf[v:p]), p
        if t == T_UNDEFINED:
            return Undefined(), v
        if t == T_MIN_KEY:
            return MinKey(), v
        if t == T_MAX_KEY:
            return MaxKey(), v
        if t == T_CODE:
            s, p = self.string(v, last, path)
            return Code(s), p
        if t == T_SYMBOL:
            s, p = self.string(v, last, path)
            return Symbol(s), p
        if t == T_BINARY:
            need(5, "a binary header")
            (n,) = _I32(buf, v)
            if n < 0:
                raise self.fail(R_LENGTH, f"binary length {n} is negative", v, path)
            sub = buf[v + 4]
            p = need(5 + n, f"binary data of {n} bytes")
            data = buf[v + 5:p]
            if sub == 2:
                if n < 4:
                    raise self.overrun("the inner length of binary subtype 2", v + 5, v + 9, p, path)
                (inner,) = _I32(buf, v + 5)
                if inner != n - 4:
                    raise self.fail(R_LENGTH, f"binary subtype 2 inner length {inner} != outer length {n} - 4",
                                    v + 5, path)
            return Binary(sub, data), p
        if t == T_REGEX:
            pattern, p = self.cstring(v, last, path, "regex pattern")
            options, p = self.cstring(p, last, path, "regex options")
            return Regex(pattern, options), p
        if t == T_DBPOINTER:
            ns, p = self.string(v, last, path)
            if p + 12 > last:
                raise self.overrun("a DBPointer id", p, p + 12, last, path)
            return DBPointer(ns, buf[p:p + 12]), p + 12
        if t == T_CODE_W_SCOPE:
            need(4, "a code-with-scope length")
            (n,) = _I32(buf, v)
            if n < 14:
                raise self.fail(R_LENGTH, f"code-with-scope length {n} is below the minimum of 14", v, path)
            end = need(n, f"a code-with-scope of {n} bytes")
            code, p = self.string(v + 4, end, path)
            scope, p = self.document(p, end, depth + 1, path + ".$scope")
            if p != end:
                raise self.fail(R_LENGTH, f"code-with-scope length {n} != its content ({p - v} bytes)", v, path)
            return CodeWithScope(code, scope), p
        raise self.fail(R_TYPE, f"element type {t:#04x} is not a BSON type", start, path)


def _sub(path: str, name: str, is_array: bool) -> str:
    if is_array:
        return f"{path}[{name}]"
    return f"{path}.{name}" if path else name


def decode_document(data: bytes, *, base: int = 0, depth: int = 0, path: str = "",
                    whole: bool = True) -> Document:
    """Decode one document from ``data`` (which starts with its length field).

    ``whole``: ``data`` must hold exactly the document (trailing bytes are
    ``MATRIX-BSON-006``); a document longer than ``data`` is a truncation.
    ``base`` is added to every offset (the position of ``data`` in a file).
    """
    data = bytes(data)
    if len(data) < 4:
        raise Truncated(f"file ends inside the document length ({len(data)} of 4 bytes)", base, path,
                        R_TRUNCATED, 4, len(data))
    (n,) = _I32(data, 0)
    r = _Reader(data, base, short=n > len(data), path=path)
    doc, end = r.document(0, max(n, 5) if n > len(data) else len(data), depth, path)
    if whole and end != len(data):
        raise Malformed(f"{len(data) - end} trailing bytes after the document", base + end, path, R_TRAILING)
    return doc


# --- encoding ------------------------------------------------------------------------------

_P_I32 = struct.Struct("<i").pack
_P_I64 = struct.Struct("<q").pack
_P_U64 = struct.Struct("<Q").pack
_P_F64 = struct.Struct("<d").pack


def _cstr(s: str) -> bytes:
    b = s.encode("utf-8")
    if b"\x00" in b:
        raise ValueError(f"a BSON key or cstring cannot hold NUL: {s!r}")
    return b + b"\x00"


def _str(s: str) -> bytes:
    b = s.encode("utf-8")
    return _P_I32(len(b) + 1) + b + b"\x00"


def _element(key: str, value: Any, out: bytearray) -> None:
    t = type(value)
    k = _cstr(key)
    if t is float:
        out += b"\x01" + k + _P_F64(value)
    elif t is str:
        out += b"\x02" + k + _str(value)
    elif t is bool:
        out += b"\x08" + k + (b"\x01" if value else b"\x00")
    elif t is int:
        if -(1 << 31) <= value < (1 << 31):
            out += b"\x10" + k + _P_I32(value)
        else:
            out += b"\x12" + k + _P_I64(value)
    elif t is Int64:
        out += b"\x12" + k + _P_I64(value)
    elif value is None:
        out += b"\x0a" + k
    elif t is Array or t is list or t is tuple:
        out += b"\x04" + k + encode_document(value if t is Array else Array.of_values(list(value)))
    elif t is Document or t is dict:
        out += b"\x03" + k + encode_document(value)
    elif t is Binary:
        out += b"\x05" + k + _P_I32(len(value.data)) + bytes((value.subtype,)) + value.data
    elif t is ObjectId:
        out += b"\x07" + k + _fixed(value.data, 12)
    elif t is DateTime:
        out += b"\x09" + k + _P_I64(value.ms)
    elif t is Regex:
        out += b"\x0b" + k + _cstr(value.pattern) + _cstr(value.options)
    elif t is DBPointer:
        out += b"\x0c" + k + _str(value.namespace) + _fixed(value.oid, 12)
    elif t is Code:
        out += b"\x0d" + k + _str(value.code)
    elif t is Symbol:
        out += b"\x0e" + k + _str(value.value)
    elif t is CodeWithScope:
        body = _str(value.code) + encode_document(value.scope)
        out += b"\x0f" + k + _P_I32(len(body) + 4) + body
    elif t is Timestamp:
        out += b"\x11" + k + _P_U64(value.value)
    elif t is Decimal128:
        out += b"\x13" + k + _fixed(value.data, 16)
    elif t is Undefined:
        out += b"\x06" + k
    elif t is MinKey:
        out += b"\xff" + k
    elif t is MaxKey:
        out += b"\x7f" + k
    else:
        raise TypeError(f"no BSON encoding for {t.__name__}")


def _fixed(data: bytes, n: int) -> bytes:
    if len(data) != n:
        raise ValueError(f"expected {n} bytes, got {len(data)}")
    return data


def encode_document(doc: Document | dict[str, Any]) -> bytes:
    """The BSON bytes of a document (a :class:`Document`, or a dict with values
    as :func:`_element` maps them; lists and tuples become arrays)."""
    out = bytearray(b"\x00\x00\x00\x00")
    items = doc.items() if isinstance(doc, (Document, dict)) else doc
    for key, value in items:
        _element(key, value, out)
    out += b"\x00"
    out[0:4] = _P_I32(len(out))
    return bytes(out)


# --- streaming over a file ------------------------------------------------------------------


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
        if 0 <= start and start + n <= len(self._win):
            return self._win[start:start + n]
        if n >= WINDOW:
            self.f.seek(offset)
            return self.f.read(n)
        self.f.seek(offset)
        self._win = self.f.read(WINDOW)
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
            raise self._fail(R_UTF8, f"element name is not valid UTF-8 ({e.reason} at byte {e.start})",
                             pos + 1 + e.start, path) from None
        return t, key, pos + k + 1

    def _value_end(self, t: int, start: int, v: int, last: int, path: str) -> int:
        """Where the value at ``v`` ends, reading only its length fields."""
        fixed = _FIXED_SIZES.get(t)
        if fixed is not None:
            end = v + fixed
        elif t in (T_STRING, T_CODE, T_SYMBOL, T_DOCUMENT, T_ARRAY, T_CODE_W_SCOPE, T_DBPOINTER):
            raw = self._read(v, 4)
            if len(raw) < 4 or v + 4 > last:
                raise self._overrun("a length field", v, v + 4, last, path)
            (n,) = _I32(raw, 0)
            end = v + n + (4 if t in (T_STRING, T_CODE, T_SYMBOL, T_DBPOINTER) else 0) + (12 if t == T_DBPOINTER else 0)
            if n < (5 if t in (T_DOCUMENT, T_ARRAY) else 14 if t == T_CODE_W_SCOPE else 1):
                return -1  # decoded in full by the caller, which reports it
        elif t == T_BINARY:
            raw = self._read(v, 4)
            if len(raw) < 4 or v + 4 > last:
                raise self._overrun("a binary length", v, v + 4, last, path)
            (n,) = _I32(raw, 0)
            end = v + 5 + n if n >= 0 else -1
        elif t == T_REGEX:
            return -1  # small: decoded in full
        else:
            raise self._fail(R_TYPE, f"element type {t:#04x} is not a BSON type", start, path)
        if end > last:
            raise self._overrun(f"a {TYPE_NAMES.get(t, '?')} value", v, end, last, path)
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
        if t in _LENGTH_PREFIXED:
            raw = self._read(v, 4)
            n = remaining
            if len(raw) == 4:
                declared = _I32(raw, 0)[0]
                if declared > MAX_BUFFERED_SIZE:
                    raise LimitExceeded(f"a {TYPE_NAMES.get(t, '?')} value of {declared} bytes; recspec buffers at "
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
                n *= 16

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
            if 8 > bound or len(buf) < 8:
                raise r.overrun("a double", 0, 8, bound, path)
            return _F64(buf, 0)[0], v + 8
        if t == T_INT32:
            if 4 > bound or len(buf) < 4:
                raise r.overrun("an int32", 0, 4, bound, path)
            return _I32(buf, 0)[0], v + 4
        if t == T_BOOL:
            if 1 > bound or len(buf) < 1:
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
            sub = _sub(path, key, is_array)
            if raw and t == T_DOCUMENT:
                head = self._read(val_at, 4)
                if len(head) == 4:
                    (dn,) = _I32(head, 0)
                    if 5 <= dn <= MAX_BUFFERED_SIZE and val_at + dn <= min(last, self.size):
                        data = self._read(val_at, dn)
                        yield Entry(index, pos, t, key, None, val_at + dn, data, val_at)
                        index += 1
                        pos = val_at + dn
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


def decode_raw(entry: Entry, path: str) -> Document:
    """Decode the document bytes of an ``entries(raw=True)`` entry (depth 2, as in a
    recording's frames array)."""
    assert entry.raw is not None
    r = _Reader(entry.raw, entry.value_offset, short=False, path=path)
    return r.document(0, len(entry.raw), 2, path)[0]


_LENGTH_PREFIXED = frozenset((T_STRING, T_CODE, T_SYMBOL, T_DOCUMENT, T_ARRAY, T_CODE_W_SCOPE, T_BINARY,
                              T_DBPOINTER))
_FIXED_SIZES = {T_DOUBLE: 8, T_INT32: 4, T_INT64: 8, T_DATETIME: 8, T_TIMESTAMP: 8, T_OBJECT_ID: 12,
                T_DECIMAL128: 16, T_BOOL: 1, T_NULL: 0, T_UNDEFINED: 0, T_MIN_KEY: 0, T_MAX_KEY: 0}


def walk_bytes(data: bytes) -> RecordingWalker:
    """A walker over bytes in memory."""
    return RecordingWalker(io.BytesIO(data), len(data))
