"""A hand-written MessagePack reader and canonical writer for signal bodies.

Values come back as plain Python values where the type is unambiguous
(``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes``), arrays as tuples,
maps as :class:`MsgMap` (a tuple of key/value pairs: keys may be unhashable and
their order is kept) and ext values as :class:`Ext`. A str that is not UTF-8 is
kept with ``surrogateescape`` so it re-encodes to the same bytes; rules judge it.

The reader is strict about structure (lead byte 0xc1, truncation, nesting
deeper than ``max_depth``) and raises :class:`recspec.errors.DecodeError`
subclasses with the offset. It is lenient about width: an integer or length
stored wider than it needs is read, and reported through ``noncanonical`` so a
rule can say so. The writer always uses the smallest encoding and float 64.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from recspec.errors import EncodeError, LimitExceeded, Malformed, Truncated

__all__ = ["MAX_DEPTH", "Ext", "MsgMap", "kind_of", "minimal_lead", "pack", "pack_with_leads", "unpack", "wide_leads"]

#: Deepest nesting of arrays and maps accepted (a signal body needs 1).
MAX_DEPTH = 32

RULE_MSGPACK = "RSIG-MSGPACK-001"
RULE_TRUNCATED = "RSIG-STREAM-001"


@dataclass(frozen=True, slots=True)
class MsgMap:
    """A MessagePack map: its key/value pairs in stored order."""

    pairs: tuple[tuple[Any, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Ext:
    """A MessagePack ext value: the application type code and its bytes."""

    code: int
    data: bytes


def kind_of(value: Any) -> str:
    """The MessagePack family of a decoded value, as rules name it."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, bytes):
        return "bin"
    if isinstance(value, tuple):
        return "array"
    if isinstance(value, MsgMap):
        return "map"
    if isinstance(value, Ext):
        return "ext"
    raise EncodeError(f"not a MessagePack value: {type(value).__name__}")


# --- reading ---------------------------------------------------------------------

_U8, _U16, _U32, _U64 = struct.Struct(">B"), struct.Struct(">H"), struct.Struct(">I"), struct.Struct(">Q")
_S8, _S16, _S32, _S64 = struct.Struct(">b"), struct.Struct(">h"), struct.Struct(">i"), struct.Struct(">q")
_F32, _F64 = struct.Struct(">f"), struct.Struct(">d")

# lead byte -> (struct, kind) for the fixed-width numbers
_NUMBERS = {
    0xCA: (_F32, "float32"), 0xCB: (_F64, "float64"),
    0xCC: (_U8, "uint8"), 0xCD: (_U16, "uint16"), 0xCE: (_U32, "uint32"), 0xCF: (_U64, "uint64"),
    0xD0: (_S8, "int8"), 0xD1: (_S16, "int16"), 0xD2: (_S32, "int32"), 0xD3: (_S64, "int64"),
}
# lead byte -> length struct, for str/bin/ext/array/map with an explicit length
_LENGTHS = {0xC4: _U8, 0xC5: _U16, 0xC6: _U32, 0xC7: _U8, 0xC8: _U16, 0xC9: _U32,
            0xD9: _U8, 0xDA: _U16, 0xDB: _U32, 0xDC: _U16, 0xDD: _U32, 0xDE: _U16, 0xDF: _U32}
_FIXEXT = {0xD4: 1, 0xD5: 2, 0xD6: 4, 0xD7: 8, 0xD8: 16}

Note = Callable[[int, int, str], None]  # (offset, lead byte, message) of a non-canonical encoding


def _need(buf: bytes, pos: int, n: int, what: str, obj: int | None = None) -> None:
    """``n`` bytes must be at ``pos``; the error names the object's start ``obj`` (default ``pos``)."""
    if pos + n > len(buf):
        raise Truncated(f"msgpack: the input ends inside {what} ({max(0, len(buf) - pos)} of {n} bytes)",
                        pos if obj is None else obj, rule=RULE_TRUNCATED, needed=n, available=max(0, len(buf) - pos))


def minimal_lead(value: Any) -> int:
    """The lead byte the canonical writer uses for ``value``."""
    if type(value) is int:
        if 0 <= value <= 0x7F or -32 <= value < 0:
            return value & 0xFF
        if value > 0:
            return 0xCC if value <= 0xFF else 0xCD if value <= 0xFFFF else 0xCE if value <= 0xFFFFFFFF else 0xCF
        return 0xD0 if value >= -0x80 else 0xD1 if value >= -0x8000 else 0xD2 if value >= -0x80000000 else 0xD3
    if type(value) is float:
        return 0xCB
    return pack(value)[0]


def unpack(buf: bytes, pos: int, *, depth: int = 0, max_depth: int = MAX_DEPTH,
           note: Note | None = None) -> tuple[Any, int]:
    """One object at ``pos``: ``(value, end offset)``."""
    _need(buf, pos, 1, "an object")
    b = buf[pos]
    if b <= 0x7F:
        return b, pos + 1
    if b >= 0xE0:
        return b - 0x100, pos + 1
    if 0xA0 <= b <= 0xBF:
        n = b & 0x1F
        _need(buf, pos + 1, n, "a fixstr", pos)
        return buf[pos + 1:pos + 1 + n].decode("utf-8", "surrogateescape"), pos + 1 + n
    if b <= 0x9F:  # fixmap 0x80-0x8f, fixarray 0x90-0x9f
        return _container(buf, pos, b, b & 0x0F, pos + 1, b <= 0x8F, depth, max_depth, note)
    if b == 0xC0:
        return None, pos + 1
    if b == 0xC2:
        return False, pos + 1
    if b == 0xC3:
        return True, pos + 1
    if b == 0xC1:
        raise Malformed("msgpack: lead byte 0xc1 is never used", pos, rule=RULE_MSGPACK)
    num = _NUMBERS.get(b)
    if num is not None:
        st, kind = num
        _need(buf, pos + 1, st.size, f"a {kind}", pos)
        (v,) = st.unpack_from(buf, pos + 1)
        if note is not None and b == 0xCA:
            note(pos, b, f"float 32 {v!r}: the writer stores doubles as float 64")
        elif note is not None and b != 0xCB and minimal_lead(v) != b:
            note(pos, b, f"{kind} {v!r} could be stored as {_lead_name(minimal_lead(v))}")
        return v, pos + 1 + st.size
    fixext = _FIXEXT.get(b)
    if fixext is not None:
        _need(buf, pos + 1, 1 + fixext, "a fixext", pos)
        return Ext(_S8.unpack_from(buf, pos + 1)[0], bytes(buf[pos + 2:pos + 2 + fixext])), pos + 2 + fixext
    ls = _LENGTHS[b]
    _need(buf, pos + 1, ls.size, "a length", pos)
    (n,) = ls.unpack_from(buf, pos + 1)
    start = pos + 1 + ls.size
    if b >= 0xDC:  # array 16/32, map 16/32
        return _container(buf, pos, b, n, start, b >= 0xDE, depth, max_depth, note)
    if 0xC7 <= b <= 0xC9:  # ext 8/16/32
        _need(buf, start, 1 + n, "an ext", pos)
        value: Any = Ext(_S8.unpack_from(buf, start)[0], bytes(buf[start + 1:start + 1 + n]))
        end = start + 1 + n
    else:
        _need(buf, start, n, "a str" if b >= 0xD9 else "a bin", pos)
        raw = bytes(buf[start:start + n])
        value = raw.decode("utf-8", "surrogateescape") if b >= 0xD9 else raw
        end = start + n
    if note is not None and minimal_lead(value) != b:
        note(pos, b, f"{_lead_name(b)} of length {n} could be stored as {_lead_name(minimal_lead(value))}")
    return value, end


def _container(buf: bytes, pos: int, b: int, n: int, start: int, is_map: bool, depth: int, max_depth: int,
               note: Note | None) -> tuple[Any, int]:
    if depth >= max_depth:
        raise LimitExceeded(f"msgpack: nesting deeper than {max_depth} arrays/maps", pos, rule=RULE_MSGPACK,
                            limit="MAX_DEPTH", value=depth + 1, maximum=max_depth)
    if note is not None and b >= 0xDC and (n < 16 or (b in (0xDD, 0xDF) and n < 0x10000)):
        note(pos, b, f"{_lead_name(b)} of {n} elements could be stored as {_lead_name(_container_lead(n, is_map))}")
    count = 2 * n if is_map else n
    # every element takes at least one byte: a count past the end is truncation, found without allocating
    if start + count > len(buf):
        raise Truncated(f"msgpack: {'map' if is_map else 'array'} of {n} entries cannot fit in the "
                        f"{len(buf) - start} bytes left", pos, rule=RULE_TRUNCATED,
                        needed=count, available=len(buf) - start)
    if not is_map and count:
        fast = _uniform_ints(buf, start, count)
        if fast is not None:
            return fast
    items: list[Any] = []
    p = start
    append = items.append
    size = len(buf)
    for _ in range(count):
        if p >= size:  # earlier elements took more than one byte each
            _need(buf, p, 1, "an array element")
        c = buf[p]
        if c <= 0x7F:  # positive fixint: the common sample
            append(c)
            p += 1
        elif c == 0xCD and p + 3 <= len(buf):  # uint 16: a 10-bit ADC code above 127
            v = buf[p + 1] << 8 | buf[p + 2]
            if v <= 0xFF and note is not None:
                note(p, c, f"uint16 {v} could be stored as {_lead_name(minimal_lead(v))}")
            append(v)
            p += 3
        else:
            v, p = unpack(buf, p, depth=depth + 1, max_depth=max_depth, note=note)
            append(v)
    if is_map:
        return MsgMap(tuple(zip(items[0::2], items[1::2]))), p
    return tuple(items), p


def _uniform_ints(buf: bytes, start: int, count: int) -> tuple[tuple[int, ...], int] | None:
    """Arrays of samples are all positive fixints (v3) or all canonical uint 16
    (10-bit codes above 255): read those with one C-level call each instead of
    a Python loop. ``None`` for anything else (the general loop handles it)."""
    head = buf[start:start + count]
    if len(head) == count and max(head) <= 0x7F:
        return tuple(head), start + count
    end = start + 3 * count
    if end <= len(buf) and buf[start:end:3] == b"\xcd" * count:
        values = struct.unpack_from(">" + "xH" * count, buf, start)
        if min(values) > 0xFF:  # all canonical; a narrower one needs the note from the general loop
            return values, end
    return None


def _container_lead(n: int, is_map: bool) -> int:
    if n < 16:
        return (0x80 if is_map else 0x90) | n
    if n < 0x10000:
        return 0xDE if is_map else 0xDC
    return 0xDF if is_map else 0xDD


_NAMES = {0xC0: "nil", 0xC2: "false", 0xC3: "true", 0xC4: "bin 8", 0xC5: "bin 16", 0xC6: "bin 32",
          0xC7: "ext 8", 0xC8: "ext 16", 0xC9: "ext 32", 0xCA: "float 32", 0xCB: "float 64",
          0xCC: "uint 8", 0xCD: "uint 16", 0xCE: "uint 32", 0xCF: "uint 64",
          0xD0: "int 8", 0xD1: "int 16", 0xD2: "int 32", 0xD3: "int 64",
          0xD4: "fixext 1", 0xD5: "fixext 2", 0xD6: "fixext 4", 0xD7: "fixext 8", 0xD8: "fixext 16",
          0xD9: "str 8", 0xDA: "str 16", 0xDB: "str 32", 0xDC: "array 16", 0xDD: "array 32",
          0xDE: "map 16", 0xDF: "map 32"}


def _lead_name(b: int) -> str:
    if b <= 0x7F:
        return "positive fixint"
    if b >= 0xE0:
        return "negative fixint"
    if b <= 0x8F:
        return "fixmap"
    if b <= 0x9F:
        return "fixarray"
    if b <= 0xBF:
        return "fixstr"
    return _NAMES.get(b, f"0x{b:02x}")


# --- writing ---------------------------------------------------------------------


def pack(value: Any) -> bytes:
    """The canonical (smallest) encoding of a value; floats as float 64."""
    out = bytearray()
    _pack(value, out)
    return bytes(out)


def _len_header(out: bytearray, n: int, fix_base: int | None, fix_max: int, leads: tuple[int, int, int]) -> None:
    if fix_base is not None and n <= fix_max:
        out.append(fix_base | n)
    elif n <= 0xFF and leads[0]:
        out += bytes((leads[0], n))
    elif n <= 0xFFFF:
        out.append(leads[1])
        out += _U16.pack(n)
    elif n <= 0xFFFFFFFF:
        out.append(leads[2])
        out += _U32.pack(n)
    else:
        raise EncodeError(f"msgpack: length {n} does not fit 32 bits")


def _pack(v: Any, out: bytearray) -> None:
    if v is None:
        out.append(0xC0)
    elif v is True:
        out.append(0xC3)
    elif v is False:
        out.append(0xC2)
    elif isinstance(v, int):
        if 0 <= v <= 0x7F or -32 <= v < 0:
            out.append(v & 0xFF)
        elif v >= 0:
            for lead, st in ((0xCC, _U8), (0xCD, _U16), (0xCE, _U32), (0xCF, _U64)):
                if v < 1 << (8 * st.size):
                    out.append(lead)
                    out += st.pack(v)
                    return
            raise EncodeError(f"msgpack: integer {v} does not fit 64 bits")
        else:
            for lead, st in ((0xD0, _S8), (0xD1, _S16), (0xD2, _S32), (0xD3, _S64)):
                if v >= -(1 << (8 * st.size - 1)):
                    out.append(lead)
                    out += st.pack(v)
                    return
            raise EncodeError(f"msgpack: integer {v} does not fit 64 bits")
    elif isinstance(v, float):
        out.append(0xCB)
        out += _F64.pack(v)
    elif isinstance(v, str):
        raw = v.encode("utf-8", "surrogateescape")
        _len_header(out, len(raw), 0xA0, 31, (0xD9, 0xDA, 0xDB))
        out += raw
    elif isinstance(v, (bytes, bytearray)):
        _len_header(out, len(v), None, -1, (0xC4, 0xC5, 0xC6))
        out += v
    elif isinstance(v, Ext):
        n = len(v.data)
        fixed = {1: 0xD4, 2: 0xD5, 4: 0xD6, 8: 0xD7, 16: 0xD8}.get(n)
        if fixed is not None:
            out.append(fixed)
        else:
            _len_header(out, n, None, -1, (0xC7, 0xC8, 0xC9))
        out += _S8.pack(v.code)
        out += v.data
    elif isinstance(v, (tuple, list)):
        _len_header(out, len(v), 0x90, 15, (0, 0xDC, 0xDD))
        for x in v:
            _pack(x, out)
    elif isinstance(v, MsgMap):
        _len_header(out, len(v.pairs), 0x80, 15, (0, 0xDE, 0xDF))
        for k, x in v.pairs:
            _pack(k, out)
            _pack(x, out)
    else:
        raise EncodeError(f"msgpack: cannot encode {type(v).__name__}")


# --- leads a writer chose wider than the canonical ones ---------------------------------------

_HEADER_SIZE = {0xDC: 3, 0xDD: 5, 0xDE: 3, 0xDF: 5}


def _canonical_lead(v: Any) -> int:
    if isinstance(v, tuple):
        return _container_lead(len(v), False)
    if isinstance(v, MsgMap):
        return _container_lead(len(v.pairs), True)
    if isinstance(v, str):
        n = len(v.encode("utf-8", "surrogateescape"))
        return 0xA0 | n if n <= 31 else 0xD9 if n <= 0xFF else 0xDA if n <= 0xFFFF else 0xDB
    if isinstance(v, (bytes, bytearray)):
        return 0xC4 if len(v) <= 0xFF else 0xC5 if len(v) <= 0xFFFF else 0xC6
    return minimal_lead(v)


def wide_leads(buf: bytes, pos: int, path: str, out: list[tuple[str, int]]) -> int:
    """Walk the object at ``pos`` (already read without error): append ``(path, lead)`` for it and each
    object inside whose lead byte is not the one :func:`pack` writes (a wider integer, a float 32, a
    str 8 for a short string, an array 16 for a short array); its end offset."""
    v, end = unpack(buf, pos)
    lead = buf[pos]
    if lead != _canonical_lead(v):
        out.append((path, lead))
    if isinstance(v, (tuple, MsgMap)):
        p = pos + _HEADER_SIZE.get(lead, 1)
        n = len(v) if isinstance(v, tuple) else 2 * len(v.pairs)
        for i in range(n):
            p = wide_leads(buf, p, f"{path}[{i}]", out)
    return end


_WIDE_NUMBERS = {0xCC: _U8, 0xCD: _U16, 0xCE: _U32, 0xCF: _U64, 0xD0: _S8, 0xD1: _S16, 0xD2: _S32, 0xD3: _S64}
_WIDE_LENGTHS = {0xD9: (str, _U8), 0xDA: (str, _U16), 0xDB: (str, _U32), 0xC4: (bytes, _U8), 0xC5: (bytes, _U16),
                 0xC6: (bytes, _U32), 0xDC: (tuple, _U16), 0xDD: (tuple, _U32), 0xDE: (MsgMap, _U16),
                 0xDF: (MsgMap, _U32)}


def pack_with_leads(value: Any, path: str, leads: dict[str, int]) -> bytes:
    """:func:`pack`, except that the object at each path of ``leads`` (``name``, ``name[3]``) is written
    with that lead byte; :class:`EncodeError` when the lead cannot hold its object."""
    out = bytearray()
    _pack_leads(value, path, leads, out)
    return bytes(out)


def _pack_leads(v: Any, path: str, leads: dict[str, int], out: bytearray) -> None:
    lead = leads.get(path)
    inside = any(k.startswith(path + "[") for k in leads)
    if lead is None and not inside:
        _pack(v, out)
        return
    if lead is None:
        lead = _canonical_lead(v)
    if isinstance(v, (tuple, MsgMap)):
        items = list(v) if isinstance(v, tuple) else [x for pair in v.pairs for x in pair]
        n = len(v) if isinstance(v, tuple) else len(v.pairs)
        kind, st = _WIDE_LENGTHS.get(lead, (None, None))
        if st is not None and kind is type(v) and n < 1 << (8 * st.size):
            out.append(lead)
            out += st.pack(n)
        elif lead == _container_lead(n, isinstance(v, MsgMap)):
            out.append(lead)
        else:
            raise EncodeError(f"{path}: lead byte 0x{lead:02x} cannot start an array or map of {n}")
        for i, x in enumerate(items):
            _pack_leads(x, f"{path}[{i}]", leads, out)
        return
    st = _WIDE_NUMBERS.get(lead)
    if st is not None and type(v) is int:
        try:
            out.append(lead)
            out += st.pack(v)
        except struct.error:
            raise EncodeError(f"{path}: {v} does not fit lead byte 0x{lead:02x} ({_lead_name(lead)})") from None
        return
    if lead == 0xCA and type(v) is float:
        out.append(0xCA)
        out += struct.pack(">f", v)
        if struct.unpack(">f", out[-4:])[0] != v and v == v:
            raise EncodeError(f"{path}: {v!r} is not a float 32 value (lead byte 0xca)")
        return
    kind, st = _WIDE_LENGTHS.get(lead, (None, None))
    if st is not None and kind in (str, bytes) and isinstance(v, (str, bytes, bytearray)) and (kind is str) == (
            isinstance(v, str)):
        raw = v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v)
        if len(raw) >= 1 << (8 * st.size):
            raise EncodeError(f"{path}: {len(raw)} bytes do not fit lead byte 0x{lead:02x}")
        out.append(lead)
        out += st.pack(len(raw)) + raw
        return
    if lead == _canonical_lead(v):
        _pack(v, out)
        return
    raise EncodeError(f"{path}: lead byte 0x{lead:02x} ({_lead_name(lead)}) cannot hold {v!r}")
