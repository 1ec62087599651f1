"""BSON, read and written by hand: values, one table of the element types, a
strict buffer decoder and an encoder. (The streaming walk over a recording file
is ``_walker``.)

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

:data:`BSON_TYPES` is the one table of the element types (code, name, value
size, value class); the names, sizes and classes used anywhere else come from it.
"""

from __future__ import annotations

import math
import re
import struct
import sys
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Any

from recspec.errors import DecodeError, LimitExceeded, Malformed, Truncated

__all__ = [
    "BSON_TYPES",
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "T_ARRAY",
    "T_BINARY",
    "T_BOOL",
    "T_CODE",
    "T_CODE_W_SCOPE",
    "T_DATETIME",
    "T_DBPOINTER",
    "T_DECIMAL128",
    "T_DOCUMENT",
    "T_DOUBLE",
    "T_INT32",
    "T_INT64",
    "T_MAX_KEY",
    "T_MIN_KEY",
    "T_NULL",
    "T_OBJECT_ID",
    "T_REGEX",
    "T_STRING",
    "T_SYMBOL",
    "T_TIMESTAMP",
    "T_UNDEFINED",
    "Array",
    "Binary",
    "BsonType",
    "Code",
    "CodeWithScope",
    "DBPointer",
    "DateTime",
    "Decimal128",
    "Document",
    "Int64",
    "MaxKey",
    "MinKey",
    "ObjectId",
    "Regex",
    "Symbol",
    "Timestamp",
    "Undefined",
    "decode_document",
    "encode_document",
    "same_typed",
    "type_name",
    "typed",
]

#: Deepest nesting read: the top-level document is depth 0, each embedded
#: document, array or code-with-scope scope adds one. Deeper input is
#: ``MATRIX-LIMIT-001`` (the Kaitai spec enforces the same bound).
MAX_DEPTH = 100
#: Most elements decoded in one buffered unit (a frame, or ``objects``): each
#: costs a Python object, so a 64 MiB run of 3-byte null elements would need
#: gigabytes. More is ``MATRIX-LIMIT-003``.
MAX_ELEMENTS = 1_000_000

# rule ids (catalog: recspec.conformance.matrix_smt._rules)
R_LENGTH = "MATRIX-BSON-001"
R_TYPE = "MATRIX-BSON-002"
R_BOOL = "MATRIX-BSON-003"
R_STRING = "MATRIX-BSON-004"
R_UTF8 = "MATRIX-BSON-005"
R_TRAILING = "MATRIX-BSON-006"
R_TRUNCATED = "MATRIX-BSON-007"
R_DEPTH = "MATRIX-LIMIT-001"
R_COUNT = "MATRIX-LIMIT-003"

# the type codes (what each one is: BSON_TYPES, below the value classes)
T_DOUBLE, T_STRING, T_DOCUMENT, T_ARRAY, T_BINARY, T_UNDEFINED, T_OBJECT_ID, T_BOOL = 1, 2, 3, 4, 5, 6, 7, 8
T_DATETIME, T_NULL, T_REGEX, T_DBPOINTER, T_CODE, T_SYMBOL, T_CODE_W_SCOPE = 9, 10, 11, 12, 13, 14, 15
T_INT32, T_TIMESTAMP, T_INT64, T_DECIMAL128, T_MAX_KEY, T_MIN_KEY = 16, 17, 18, 19, 0x7F, 0xFF

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

    ``regular`` is what the decoder saw in the bytes of the subtree: ``True`` when no
    array in it (this one included) has keys other than "0".."n-1" and no document
    repeats a key, so a walk looking for those two faults may pass it by; ``False``
    when one does; ``None`` for a value built in code. It describes the bytes, not
    later edits: a tree edited after decoding is encoded again before it is checked.
    """

    __slots__ = ("keys", "values", "offsets", "_map", "regular")

    def __init__(self, keys: list[str] | tuple[str, ...] = (), values: list[Any] | tuple[Any, ...] = (),
                 offsets: list[int] | None = None, regular: bool | None = None) -> None:
        self.keys = list(keys)
        self.values = list(values)
        self.offsets = offsets
        self._map: dict[str, Any] | None = None
        self.regular = regular

    @classmethod
    def of(cls, *pairs: tuple[str, Any], **kw: Any) -> Document:
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
        offsets = self.offsets
        if offsets is None or key not in self.map():
            return None
        keys = self.keys  # the last one: the first in reverse (list.index, not a loop in Python)
        return offsets[len(keys) - 1 - keys[::-1].index(key)]

    def __len__(self) -> int:
        return len(self.keys)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.keys == other.keys and self.values == other.values

    def __hash__(self) -> int:  # pragma: no cover - documents are not dict keys
        raise TypeError(f"unhashable type: {type(self).__name__}")

    def __repr__(self) -> str:
        inner = ", ".join(f"{k!r}: {v!r}" for k, v in zip(self.keys, self.values))
        return f"{type(self).__name__}({{{inner}}})"


class Array(Document):
    """An array: a document whose keys should be "0", "1", ...; iterates over values."""

    __slots__ = ()

    @classmethod
    def of_values(cls, values: list[Any] | tuple[Any, ...]) -> Array:
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
        return [*_INDEX_KEYS, *map(str, range(len(_INDEX_KEYS), n))]
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


# --- the type table ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BsonType:
    """One BSON element type, as :data:`BSON_TYPES` lists it."""

    code: int
    name: str  # as messages and findings spell it ("document", "binary", "int", "long", ...)
    size: int | None  # bytes of a fixed-size value; None when the value says its own length
    length_prefixed: bool  # the value starts with an int32 length field (a regex is neither: two cstrings)
    cls: type  # the class of a decoded value (``type(None)`` for null)


#: Every BSON 1.1 element type by code: the single source of truth for type
#: names, value sizes and value classes (deprecated types included: the
#: decoder reads them).
BSON_TYPES: dict[int, BsonType] = {ty.code: ty for ty in (
    BsonType(T_DOUBLE, "double", 8, False, float),
    BsonType(T_STRING, "string", None, True, str),
    BsonType(T_DOCUMENT, "document", None, True, Document),
    BsonType(T_ARRAY, "array", None, True, Array),
    BsonType(T_BINARY, "binary", None, True, Binary),
    BsonType(T_UNDEFINED, "undefined", 0, False, Undefined),
    BsonType(T_OBJECT_ID, "objectId", 12, False, ObjectId),
    BsonType(T_BOOL, "bool", 1, False, bool),
    BsonType(T_DATETIME, "date", 8, False, DateTime),
    BsonType(T_NULL, "null", 0, False, type(None)),
    BsonType(T_REGEX, "regex", None, False, Regex),
    BsonType(T_DBPOINTER, "dbPointer", None, True, DBPointer),
    BsonType(T_CODE, "javascript", None, True, Code),
    BsonType(T_SYMBOL, "symbol", None, True, Symbol),
    BsonType(T_CODE_W_SCOPE, "javascriptWithScope", None, True, CodeWithScope),
    BsonType(T_INT32, "int", 4, False, int),
    BsonType(T_TIMESTAMP, "timestamp", 8, False, Timestamp),
    BsonType(T_INT64, "long", 8, False, Int64),
    BsonType(T_DECIMAL128, "decimal", 16, False, Decimal128),
    BsonType(T_MAX_KEY, "maxKey", 0, False, MaxKey),
    BsonType(T_MIN_KEY, "minKey", 0, False, MinKey),
)}

_NAME_OF_CLASS: dict[type, str] = {ty.cls: ty.name for ty in BSON_TYPES.values()}


def type_name(value: Any) -> str:
    """The BSON type name (:data:`BSON_TYPES`) a decoded value came from ("double",
    "int", "long", "document", ...); the class name for a value of no BSON type."""
    t = type(value)
    return _NAME_OF_CLASS.get(t, t.__name__)


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


def same_typed(a: Any, c: Any) -> bool:
    """``typed(a) == typed(c)``, without building either form: the two trees are walked side by side
    and the first difference ends the walk. A document's scalars of one exact type are compared in
    place (a double by value and sign, a NaN by its bytes, as ``typed`` keeps them); values of two
    different classes, whose ``typed`` names may still agree, are compared by ``typed`` itself."""
    t = type(a)
    if t is not type(c):
        return bool(typed(a) == typed(c))
    if t is float:
        return _same_double(a, c)
    if isinstance(a, Document):
        if a.keys != c.keys:
            return False
        xs, ys = a.values, c.values
        if len(xs) != len(ys):
            return False
        for x, y in zip(xs, ys):
            tx = type(x)
            if tx is not type(y):
                if typed(x) != typed(y):
                    return False
            elif tx is float:
                if not (x == y and x != 0.0) and not _same_double(x, y):  # equal and not zero: the same double
                    return False
            elif tx is CodeWithScope or isinstance(x, Document):
                if not same_typed(x, y):
                    return False
            elif x is not y and x != y:  # one exact type that is no document: typed's (name, value)
                return False
        return True
    if t is CodeWithScope:
        return a.code == c.code and same_typed(a.scope, c.scope)
    return a is c or a == c


def _same_double(x: float, y: float) -> bool:
    """Two doubles as ``typed`` compares them: a NaN by its bytes, any other by value and sign."""
    if x != x or y != y:
        return x != x and y != y and struct.pack("<d", x) == struct.pack("<d", y)
    return x == y and (x != 0.0 or math.copysign(1.0, x) == math.copysign(1.0, y))


# --- decoding ----------------------------------------------------------------------------

_I32 = struct.Struct("<i").unpack_from
_U32 = struct.Struct("<I").unpack_from
_I64 = struct.Struct("<q").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_F64 = struct.Struct("<d").unpack_from

_KEY_CACHE: dict[bytes, str] = {}
_KEY_CACHE_MAX = 4096


def _double_array(k: int) -> tuple[re.Pattern[bytes], Callable[[bytes, int], tuple[Any, ...]], tuple[int, ...]]:
    """The elements of an array of ``k`` doubles under the keys "0".."k-1" (what a recording's
    vectors are): their bytes' pattern, the unpacker of their values and each element's offset."""
    pattern = b"".join(re.escape(b"\x01%d\x00" % i) + b".{8}" for i in range(k)) + b"\x00"
    return (re.compile(pattern, re.DOTALL), struct.Struct("<" + "3xd" * k).unpack_from,
            tuple(11 * i for i in range(k)))


#: Arrays of 1 to 9 doubles under the keys "0".."8", by their declared length (5 + 11 per element):
#: ``(k, pattern, unpacker, offsets, length)``; the pattern matches the bytes after the length field,
#: the array's final NUL included.
_DOUBLE_ARRAYS = {5 + 11 * k: (k, *_double_array(k), 5 + 11 * k) for k in range(1, 10)}
#: No vector is read in one piece (a document where the element count could pass its limit, or one
#: at the deepest level: each vector then goes to ``document``, which checks both).
_NO_VECTORS: dict[int, tuple[Any, ...]] = {}

#: The fixed-size values the element loop reads with one lookup: type code -> (size, unpacker).
_FIXED = {T_DOUBLE: (8, _F64), T_INT32: (4, _I32)}


#: Arrays of at least this many elements whose first is an int32 or a double under the key "0" try the
#: strided reading (:func:`_wide_array`) before the element-by-element loop.
WIDE_ARRAY_MIN = 64

#: The element types the strided reading takes: (type code, value width, ``array`` typecode).
_WIDE_TYPES = {T_INT32: (4, "i"), T_DOUBLE: (8, "d")}


@cache
def _digit_period(place: int) -> bytes:
    """The digit at ``place`` (1, 10, 100...) of the numbers 0, 1, 2...: one period of it,
    ``10 * place`` ASCII digits."""
    return b"".join(bytes((48 + d,)) * place for d in range(10))


def _digit_column(lo: int, count: int, place: int) -> bytes:
    """The digit at ``place`` of each of the numbers ``lo .. lo + count - 1``, one byte each."""
    period = _digit_period(place)
    start = lo % len(period)
    return (period * ((start + count) // len(period) + 1))[start:start + count]


def _wide_array(buf: bytes, p: int, last: int, code: int) -> tuple[int, list[Any], list[int]] | None:
    """The elements from ``p`` to ``last`` when they are exactly elements of type ``code`` (an int32 or
    a double) under the keys "0", "1", ... in order, all within ``last``: their count, values and offsets
    in ``buf``; else ``None`` (the loop reads them, and reports what is wrong). The keys of one digit
    count lie at one stride (``digits + 6`` or ``+ 10`` bytes): each column of those bytes, the type
    codes, every digit of the keys, the NULs and each byte of the values, is one strided slice, compared
    with what it must hold or gathered, so no object is made an element but its value and offset."""
    width, typecode = _WIDE_TYPES[code]
    raw = bytearray()
    offsets: list[range] = []
    pos, index, digits = p, 0, 1
    while pos < last:
        band_end = 10 ** digits  # the first index of digits + 1 digits
        stride = 2 + digits + width
        count = min(band_end - index, (last - pos) // stride)
        if count <= 0:
            return None
        seg = buf[pos:pos + count * stride]
        if seg[0::stride] != bytes((code,)) * count or seg[1 + digits::stride] != bytes(count):
            return None
        for j in range(digits):
            if seg[1 + j::stride] != _digit_column(index, count, 10 ** (digits - 1 - j)):
                return None
        values = bytearray(width * count)
        for j in range(width):
            values[j::width] = seg[2 + digits + j::stride]
        raw += values
        offsets.append(range(pos, pos + count * stride, stride))
        pos += count * stride
        index += count
        if index < band_end:
            break
        digits += 1
    if pos != last:
        return None
    numbers = array(typecode, raw)
    if sys.byteorder == "big":  # pragma: no cover - BSON is little-endian
        numbers.byteswap()
    return index, numbers.tolist(), list(chain.from_iterable(offsets))


class _Reader:
    """One buffered unit being decoded: ``buf`` holds file bytes from ``base``.

    ``short`` says the file ended before the unit's declared end, so reading past
    ``len(buf)`` is a truncation rather than an inconsistent length.
    """

    __slots__ = ("buf", "base", "short", "count", "path", "irregular", "units", "unit_depth", "vectors")

    #: Read an array of doubles under the keys "0".."k-1" (a vector) with one pattern match and one
    #: struct call instead of element by element; anything else, and any array the pattern does not
    #: match, takes the loop. The tests turn it off to compare the two.
    double_arrays = True
    #: Read a long array of int32s or doubles under the keys "0", "1", ... a column at a time
    #: (:func:`_wide_array`); the tests turn it off to compare it with the loop.
    wide_arrays = True
    #: Read a document's elements with ``_elements`` (the checks that pass on well-formed bytes made as
    #: cheap as they can be, any failure read again by ``element``); the tests turn it off to compare it
    #: with ``element`` alone, element after element.
    fast_elements = True

    def __init__(self, buf: bytes, base: int = 0, short: bool = False, path: str = "",
                 units: dict[int, Document] | None = None) -> None:
        self.buf = buf
        self.base = base
        self.short = short
        self.count = 0
        self.path = path
        #: containers decoded so far whose keys are irregular (``Document.regular``)
        self.irregular = 0
        #: ``decode_document``'s ``units``: where the documents and arrays at depth 1 and 2 go (the
        #: children of the documents above ``unit_depth``; without ``units``, none)
        self.units: dict[int, Document] = {} if units is None else units
        self.unit_depth = 0 if units is None else 2
        #: the vectors ``_elements`` reads in one piece (none when ``double_arrays`` is off)
        self.vectors = _DOUBLE_ARRAYS if self.double_arrays else _NO_VECTORS

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

    def known_type(self, t: int, start: int, path: str) -> None:
        """The element at ``start`` has a BSON type: checked when its key is not UTF-8, since the bytes after a
        type byte that is no type are no key, so the type is the first fault. A key that reads well leaves the
        type to the value's reading (off the hot path); a key with no NUL before its document's end is an element
        that runs past its document (MATRIX-BSON-001), whatever its type."""
        if t not in BSON_TYPES:
            raise self.fail(R_TYPE, f"element type {t:#04x} is not a BSON type", start, path)

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
                raise self.fail(R_UTF8, f"element name {bytes(raw)!r} is not valid UTF-8 "
                                        f"({e.reason} at byte {e.start})", pos + e.start, path) from None
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
        """The document whose length field is at ``pos``; it must end by ``bound``.

        Written for coverage-instrumented fuzzing, where every comparison and branch that runs is a
        call into the fuzzer: on well-formed bytes the checks take as few of them as they can (the
        length field's five bounds in one comparison, an element's name found and looked up by C calls
        that raise where it has none, the fixed-size values' bounds by the document's end), and wherever
        one fails the element, or the length field, is read again one check at a time (:meth:`element`,
        :meth:`_head_fault`), which raises the error the element-by-element reading gives."""
        buf = self.buf
        try:
            (n,) = _I32(buf, pos)
        except struct.error:
            n = 0  # not four bytes left: _head_fault reports it
        end = pos + n
        # the length field inside the bound, n >= 5, the depth, the end inside the bound and the buffer
        if min(bound - 4 - pos, n - 5, MAX_DEPTH - depth, bound - end, len(buf) - end) < 0:
            self._head_fault(pos, bound, depth, path)
        last = end - 1
        base = self.base
        irregular = self.irregular
        p = pos + 4
        is_array = cls is Array
        if is_array and self.wide_arrays and n >= 7 * WIDE_ARRAY_MIN and buf[p] in _WIDE_TYPES \
                and buf[p + 1:p + 3] == b"0\x00":
            wide = _wide_array(buf, p, last, buf[p])
            if wide is not None:
                count, vals, rel = wide
                if buf[last] != 0:
                    raise self.fail(R_LENGTH, f"document of declared length {n} does not end with NUL "
                                    f"(byte {buf[last]:#04x} at its end)", last, path)
                self.count += count
                if self.count > MAX_ELEMENTS:
                    raise LimitExceeded(f"more than {MAX_ELEMENTS} elements in one buffered unit", self.base + pos,
                                        path, R_COUNT, "elements", self.count, MAX_ELEMENTS)
                return cls(index_keys(count), vals, list(map(base.__add__, rel)), self.irregular == irregular), end
        keys: list[str] = []
        values: list[Any] = []
        offsets: list[int] = []
        if self.fast_elements:
            p = self._elements(p, last, depth, path, is_array, keys, values, offsets)
        else:
            while p < last:
                name, value, start, p = self.element(p, last, depth, path, is_array)
                keys.append(name)
                values.append(value)
                offsets.append(base + start)
        self.count += len(keys)
        if max(buf[last], self.count - MAX_ELEMENTS) > 0:  # the final NUL, the element count: one comparison
            self._tail_fault(pos, n, path)
        if keys != index_keys(len(keys)) if is_array else len(set(keys)) != len(keys):
            self.irregular += 1
        return cls(keys, values, offsets, self.irregular == irregular), end

    def _head_fault(self, pos: int, bound: int, depth: int, path: str) -> None:
        """A document's length field at ``pos`` that ``document``'s one comparison refused: its
        checks one at a time, in the order that says which fault comes first; raises."""
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
        raise AssertionError(f"document length field at {pos} refused, but every check passes")  # pragma: no cover

    def _tail_fault(self, pos: int, n: int, path: str) -> None:
        """The end of the document at ``pos`` (declared length ``n``), which ``document``'s one comparison
        refused: its final NUL, then the element count; raises."""
        last = pos + n - 1
        if self.buf[last] != 0:
            raise self.fail(R_LENGTH, f"document of declared length {n} does not end with NUL "
                            f"(byte {self.buf[last]:#04x} at its end)", last, path)
        if self.count > MAX_ELEMENTS:
            raise LimitExceeded(f"more than {MAX_ELEMENTS} elements in one buffered unit", self.base + pos, path,
                                R_COUNT, "elements", self.count, MAX_ELEMENTS)
        raise AssertionError(f"the end of the document at {pos} refused, but every check passes")  # pragma: no cover

    def _elements(self, p: int, last: int, depth: int, path: str, is_array: bool, keys: list[str],
                  values: list[Any], offsets: list[int]) -> int:
        """The elements from ``p`` to the document's final NUL at ``last``, appended to ``keys``,
        ``values`` and ``offsets``; returns where they end (``last``).

        Each element is read with the checks that well-formed bytes pass at the least cost: its name by
        ``bytes.index`` and the key cache (a name with no NUL, not yet cached or not UTF-8 raises), a
        double's or an int32's value with no bounds check (one that runs past ``last`` ends the loop at
        once, and is found after it), a string's final NUL by ``bytes.index``. Where anything is amiss
        (a C call raised, or the last value ran past the end) the element is read again by
        :meth:`element`, check by check, which raises that element's error or, for a name not yet
        cached, reads it; the loop then goes on after it. No value is kept from an element that failed."""
        buf = self.buf
        base = self.base
        key_cache = _KEY_CACHE
        fixed_values = _FIXED
        units = self.units if depth < self.unit_depth else {}  # (a throwaway below the depth units come from)
        # Whether a vector may be read in one piece, decided once per document: not at the deepest
        # level, and only where no element count can pass its limit here (each element takes at least
        # 2 of the document's bytes, so at most (last - p) // 2 are added).
        vectors = self.vectors if self.count + (last - p) // 2 <= MAX_ELEMENTS and depth < MAX_DEPTH \
            else _NO_VECTORS
        start = p
        while True:
            try:
                while p < last:
                    start = p
                    t = buf[p]
                    k = buf.index(b"\x00", p + 1, last)
                    name = key_cache[buf[p + 1:k]]
                    v = k + 1
                    fixed = fixed_values.get(t)
                    if fixed is not None:
                        p = v + fixed[0]
                        value: Any = fixed[1](buf, v)[0]
                    elif t == T_ARRAY:
                        vector = vectors.get(_I32(buf, v)[0])
                        if vector is not None and vector[1].fullmatch(buf, v + 4, v + vector[4]) is not None:
                            value = Array(_INDEX_KEYS[:vector[0]], vector[2](buf, v + 4),
                                          list(map((base + v + 4).__add__, vector[3])), True)
                            self.count += vector[0]
                            p = v + vector[4]
                        else:
                            value, p = self.document(v, last, depth + 1, _sub(path, name, is_array), Array)
                        units[base + start] = value
                    elif t == T_STRING:
                        size = _I32(buf, v)[0]
                        p = v + 4 + size
                        if size > 0:
                            buf.index(b"\x00", p - 1, p)
                            value = buf[v + 4:p - 1].decode("utf-8")
                        else:
                            value, p = self.string(v, last, _sub(path, name, is_array))
                    elif t == T_DOCUMENT:
                        value, p = self.document(v, last, depth + 1, _sub(path, name, is_array))
                        units[base + start] = value
                    else:
                        value, p = self.other(t, start, v, last, depth, _sub(path, name, is_array))
                    keys.append(name)
                    values.append(value)
                    offsets.append(base + start)
                if p == last:
                    return p
                # the last element's value ran past the document's end (a vector's too, which is then
                # no unit): element() reports it
                units.pop(base + start, None)
                self.element(start, last, depth, path, is_array)
                raise AssertionError(f"the element at {start} ran past {last}; element() read it")  # pragma: no cover
            except DecodeError:
                raise
            except (ValueError, KeyError, IndexError, struct.error):  # UnicodeDecodeError is a ValueError
                name, value, start, p = self.element(start, last, depth, path, is_array)
                keys.append(name)
                values.append(value)
                offsets.append(base + start)

    def element(self, p: int, last: int, depth: int, path: str, is_array: bool) -> tuple[str, Any, int, int]:
        """The element at ``p`` of the document (or array) ``path`` whose final NUL is at ``last``,
        read one check at a time: its name, value, offset (``p``) and end; or the error it holds."""
        buf = self.buf
        base = self.base
        t = buf[p]
        start = p
        # element name (inlined fast path of self.key)
        k = buf.find(b"\x00", p + 1, last)
        if k < 0:
            raise self.overrun("an element name (no NUL before the end of the document)", p + 1, last + 1, last,
                               path)
        raw = buf[p + 1:k]
        name = _KEY_CACHE.get(raw)
        if name is None:
            try:
                name, _ = self.key(p + 1, last, path + "[?]" if is_array else path)
            except DecodeError:
                self.known_type(t, start, path)
                raise
        v = k + 1
        # the common types inline, the rest in other(); the named constants measured no slower than literals
        if t == T_DOUBLE:
            p = v + 8
            if p > last:
                raise self.overrun("a double", v, p, last, _sub(path, name, is_array))
            value: Any = _F64(buf, v)[0]
        elif t == T_INT32:
            p = v + 4
            if p > last:
                raise self.overrun("an int32", v, p, last, _sub(path, name, is_array))
            value = _I32(buf, v)[0]
        elif t == T_STRING:
            # a well-formed string inline; anything else goes to string(), which reports it
            p = v + 4 + _I32(buf, v)[0] if v + 4 <= last else 0
            if v + 4 < p <= last and buf[p - 1] == 0:
                try:
                    value = buf[v + 4:p - 1].decode("utf-8")
                except UnicodeDecodeError:
                    value, p = self.string(v, last, _sub(path, name, is_array))
            else:
                value, p = self.string(v, last, _sub(path, name, is_array))
        elif t == T_DOCUMENT:
            value, p = self.document(v, last, depth + 1, _sub(path, name, is_array))
            if depth < self.unit_depth:
                self.units[base + start] = value
        elif t == T_ARRAY:
            # a vector whose every check would pass (depth, bounds, element count, the elements' bytes and
            # the final NUL) is read here in one piece; anything else goes to document(), which reports it
            vector = _DOUBLE_ARRAYS.get(_I32(buf, v)[0]) if v + 4 <= last and self.double_arrays else None
            if (vector is not None and depth < MAX_DEPTH and v + vector[4] <= last
                    and self.count + vector[0] <= MAX_ELEMENTS
                    and vector[1].fullmatch(buf, v + 4, v + vector[4]) is not None):
                value = Array(_INDEX_KEYS[:vector[0]], vector[2](buf, v + 4),
                              list(map((base + v + 4).__add__, vector[3])), True)
                self.count += vector[0]
                p = v + vector[4]
            else:
                value, p = self.document(v, last, depth + 1, _sub(path, name, is_array), Array)
            if depth < self.unit_depth:  # a vector too, whichever way it was read
                self.units[base + start] = value
        else:
            value, p = self.other(t, start, v, last, depth, _sub(path, name, is_array))
        return name, value, start, p

    def other(self, t: int, start: int, v: int, last: int, depth: int, path: str) -> tuple[Any, int]:
        """Values of the types the element loops do not read themselves (a boolean, null and the rarer ones)."""
        buf = self.buf

        def need(n: int, what: str) -> int:
            if v + n > last:
                raise self.overrun(what, v, v + n, last, path)
            return v + n

        if t == T_BOOL:
            p = need(1, "a boolean")
            b = buf[v]
            if b > 1:
                raise self.fail(R_BOOL, f"boolean byte is {b:#04x}, not 0x00 or 0x01", v, path)
            return b == 1, p
        if t == T_NULL:
            return None, v
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
                    whole: bool = True, units: dict[int, Document] | None = None) -> Document:
    """Decode one document from ``data`` (which starts with its length field).

    ``whole``: ``data`` must hold exactly the document (trailing bytes are
    ``MATRIX-BSON-006``); a document longer than ``data`` is a truncation.
    ``base`` is added to every offset (the position of ``data`` in a file).
    ``units``: receives each embedded document and array at depth 1 and 2 (a
    recording's sections and their elements, such as each frame) that was read
    whole, by the offset of its element's type byte, including those read before
    a fault the call then raises (``check_stream``'s ``decoded`` takes them).
    """
    data = bytes(data)
    if len(data) < 4:
        raise Truncated(f"file ends inside the document length ({len(data)} of 4 bytes)", base, path,
                        R_TRUNCATED, 4, len(data))
    (n,) = _I32(data, 0)
    r = _Reader(data, base, short=n > len(data), path=path, units=units)
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
    # The type bytes are literals (one constant each, no lookup per element); each is the
    # code of its BSON_TYPES row, as test_matrix_bson checks for every value class.
    # The classes a recording holds most come first (each test passed is a hooked branch under the
    # fuzzer's instrumentation, and the round-trip oracle encodes every valid input).
    t = type(value)
    k = _cstr(key)
    if t is float:
        out += b"\x01" + k + _P_F64(value)
    elif t is Array:
        out += b"\x04" + k + encode_document(value)
    elif t is Document:
        out += b"\x03" + k + encode_document(value)
    elif t is str:
        out += b"\x02" + k + _str(value)
    elif t is int:
        if -(1 << 31) <= value < (1 << 31):
            out += b"\x10" + k + _P_I32(value)
        else:
            out += b"\x12" + k + _P_I64(value)
    elif t is bool:
        out += b"\x08" + k + (b"\x01" if value else b"\x00")
    elif t is Int64:
        out += b"\x12" + k + _P_I64(value)
    elif value is None:
        out += b"\x0a" + k
    elif t is list or t is tuple:
        out += b"\x04" + k + encode_document(Array.of_values(list(value)))
    elif t is dict:
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
