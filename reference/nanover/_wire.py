"""A walk of a payload's protobuf wire format along the NanoVer schema.

The protobuf runtime (upb) gives the values but says only "wire format was
corrupt", accepts groups, and drops unknown fields inside map entries without
a trace. This walk runs first and says *where*: it checks every tag and length
against the schema of ``ksy/nanover_recording.ksy`` (the same tables, the same
limits) and lists unknown fields and unpacked repeated fields. It does not
look inside packed arrays and strings: their contents (varints, UTF-8, whole
f32 elements) are checked by upb, which the caller runs next.

Sans-IO: ``scan(buf, start, end, kind, base) -> Scan`` on a bytes-like buffer;
offsets in errors and notes are ``base`` + the position in ``buf``.

What is rejected, as in ``protobuf_wire.ksy``: a varint longer than 10 bytes, a
tag longer than 5 bytes or above 2^32, field number 0, wire types 3 and 4
(groups) and 6, 7, a length past the end of the enclosing message, a packed
float run whose length is not a multiple of 4, and Struct/ListValue nesting
deeper than :data:`MAX_NESTING`.

Bounded: a payload may hold at most :data:`MAX_VALUES` map entries and list
elements (``NANOVER-LIMIT-003``). Each becomes a message of its own in upb and
an object in the model, hundreds of bytes apiece whatever its size on the wire
(a 16-byte map entry costs about 340 bytes checked, several KB in the Kaitai
reading), so this count, not the payload's size, is what bounds the memory of a
record made of tiny entries. The walk counts them as it goes and stops at the
first one over the limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from recspec.errors import LimitExceeded, Malformed, Truncated

__all__ = ["MAX_NESTING", "MAX_VALUES", "SCHEMAS", "Scan", "UnknownField", "encode_varint", "read_varint", "scan"]

#: Struct / ListValue nesting limit (the ksy's ``len_struct::max_nesting``); upb's own is 100.
MAX_NESTING = 32
#: Map entries (FrameData.values / .arrays, Struct.fields) plus ListValue elements in one payload
#: (NANOVER-LIMIT-003). Real recordings hold a few dozen (a frame's keys); a state selection's
#: particle list is one element per atom, so the limit leaves room for 262,144 of them.
MAX_VALUES = 1 << 18
# The messages whose every message-typed field is a map entry or a list element (counted).
_COUNTING = frozenset(("FrameData", "Struct", "ListValue"))
_VARINT_MAX = 10
_TAG_MAX = 5

# Field handlers. A schema maps a tag value (field_number << 3 | wire_type) to
# (name, handler, sub-schema name, depth step). Tags not in it are unknown.
VARINT, FIXED32, FIXED64, STRING, PACKED_F32, PACKED_VARINT, MESSAGE = range(7)

#: The NanoVer messages, tag by tag (the field table of the research notes, section 2).
SCHEMAS: dict[str, dict[int, tuple[str, int, str | None, int]]] = {
    "GetFrameResponse": {0x08: ("frame_index", VARINT, None, 0), 0x12: ("frame", MESSAGE, "FrameData", 0)},
    "FrameData": {0x0A: ("values", MESSAGE, "ValueEntry", 0), 0x12: ("arrays", MESSAGE, "ArrayEntry", 0)},
    "ArrayEntry": {0x0A: ("key", STRING, None, 0), 0x12: ("value", MESSAGE, "ValueArray", 0)},
    "ValueArray": {0x0A: ("float_values", MESSAGE, "FloatArray", 0),
                   0x12: ("index_values", MESSAGE, "IndexArray", 0),
                   0x1A: ("string_values", MESSAGE, "StringArray", 0)},
    "FloatArray": {0x0A: ("values", PACKED_F32, None, 0), 0x0D: ("values", FIXED32, None, 0)},
    "IndexArray": {0x0A: ("values", PACKED_VARINT, None, 0), 0x08: ("values", VARINT, None, 0)},
    "StringArray": {0x0A: ("values", STRING, None, 0)},
    "StateUpdate": {0x0A: ("changed_keys", MESSAGE, "Struct", 0)},
    # One nesting level per Struct or ListValue entered (Value.struct_value / list_value), not a second one for
    # the map entry inside a Struct: 32 nested Structs are 32 levels, as the protobuf runtime counts them.
    "Struct": {0x0A: ("fields", MESSAGE, "ValueEntry", 0)},
    "ValueEntry": {0x0A: ("key", STRING, None, 0), 0x12: ("value", MESSAGE, "Value", 0)},
    "Value": {0x08: ("null_value", VARINT, None, 0), 0x11: ("number_value", FIXED64, None, 0),
              0x1A: ("string_value", STRING, None, 0), 0x20: ("bool_value", VARINT, None, 0),
              0x2A: ("struct_value", MESSAGE, "Struct", 1), 0x32: ("list_value", MESSAGE, "ListValue", 1)},
    "ListValue": {0x0A: ("values", MESSAGE, "Value", 0)},
}
# Where the depth is checked (the ksy's len_struct / len_list_value).
_NESTED = frozenset(("Struct", "ListValue"))
_ROOT = {"traj": "GetFrameResponse", "state": "StateUpdate"}
# Unpacked repeated scalars: accepted, noted (the samples are all packed).
_UNPACKED = frozenset((("FloatArray", 0x0D), ("IndexArray", 0x08)))
_WIRE_NAMES = {0: "varint", 1: "fixed64", 2: "length-delimited", 3: "start-group", 4: "end-group",
               5: "fixed32", 6: "wire type 6", 7: "wire type 7"}


@dataclass(frozen=True, slots=True)
class UnknownField:
    """A field the schema does not define (or a known number with another wire type)."""

    message: str
    field_number: int
    wire_type: int
    offset: int


@dataclass(slots=True)
class Scan:
    unknown: list[UnknownField] = field(default_factory=list)
    unpacked: list[tuple[str, int]] = field(default_factory=list)  # (message, offset of the first)
    top_fields: int = 0  # known fields of the root message
    values: int = 0  # map entries and list elements (NANOVER-LIMIT-003)
    max_values: int = MAX_VALUES


def encode_varint(n: int) -> bytes:
    """The base-128 varint of a non-negative integer (least significant group first)."""
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


# The high bit of each of k bytes (the varint's continuation bits), and the low seven bits of each.
_CONTINUED = [int.from_bytes(b"\x80" * k, "little") for k in range(_VARINT_MAX + 1)]
_GROUPS = [int.from_bytes(b"\x7f" * k, "little") for k in range(_VARINT_MAX + 1)]


def read_varint(buf: bytes | memoryview, off: int, end: int, max_len: int = _VARINT_MAX, base: int = 0,
                path: str = "") -> tuple[int, int]:
    """(value, new offset) of a varint of at most ``max_len`` bytes (at most 10) ending before ``end``.

    The bytes it may take are read as one little-endian number, and its length, its groups and the
    error are found by arithmetic on it: no Python loop over the bytes, whose every comparison
    a fuzzing campaign's coverage instrumentation makes a hook call."""
    chunk = buf[off:min(end, off + max_len)]
    x = int.from_bytes(chunk, "little")
    last = ~x & _CONTINUED[len(chunk)]  # the high bit of each byte without one: a varint's last byte
    if last:
        n = (last & -last).bit_length() >> 3  # the first of them ends the varint: its length in bytes
        x &= _GROUPS[n]
        # the seven-bit groups of up to ten bytes, each moved down by one bit per byte before it
        value = (x & 0x7F | x >> 1 & 0x3F80 | x >> 2 & 0x1FC000 | x >> 3 & 0xFE00000 | x >> 4 & 0x7F0000000
                 | x >> 5 & 0x3F800000000 | x >> 6 & 0x1FC0000000000 | x >> 7 & 0xFE000000000000
                 | x >> 8 & 0x7F00000000000000 | x >> 9 & 0x3F8000000000000000)
        return value, off + n
    if len(chunk) == max_len:
        raise Malformed(f"varint longer than {max_len} bytes", base + off, path, rule="NANOVER-PROTO-001")
    raise Truncated(f"varint cut off after {len(chunk)} byte(s)", base + off, path,
                    rule="NANOVER-PROTO-001", needed=1, available=0)


def scan(buf: bytes | memoryview, start: int, end: int, kind: str, base: int = 0, path: str = "",
         max_values: int = MAX_VALUES) -> Scan:
    """Walk the payload ``buf[start:end]`` of a ``kind`` (``traj``/``state``) record.

    Raises :class:`Malformed` / :class:`Truncated` (rule NANOVER-PROTO-001) or
    :class:`LimitExceeded` (NANOVER-LIMIT-002, or NANOVER-LIMIT-003 past
    ``max_values`` map entries and list elements) with the offset of the bad field.
    """
    out = Scan(max_values=max_values)
    _walk(buf, start, end, _ROOT[kind], 0, base, path, out)
    return out


# The walk's reading of each schema field, by message and tag (made from SCHEMAS below):
# (length-delimited, the sub-message walked into (None: not walked into), the depth step, whether
# entering it checks the nesting, the size of a fixed field (0: a varint) or 4 for a packed float
# run (its length a multiple of 4), 1 for a field of a root message (Scan.top_fields), and the message
# to note when the field is an unpacked repeated scalar). Under coverage instrumentation (a fuzzing
# campaign) every comparison and every branch the walk takes per field is a hook call: the table
# answers in one lookup what the handler codes would ask in several comparisons.
_Read = tuple[bool, "str | None", int, bool, int, int, "str | None"]


def _reading(name: str, tag: int, handler: int, sub: str | None, step: int) -> _Read:
    delimited = handler in (STRING, PACKED_F32, PACKED_VARINT, MESSAGE)
    size = {FIXED32: 4, FIXED64: 8, PACKED_F32: 4}.get(handler, 0)
    return (delimited, sub, step, sub in _NESTED, size, int(name in _ROOT.values()),
            name if (name, tag) in _UNPACKED else None)


_READS: dict[str, dict[int, _Read]] = {
    name: {tag: _reading(name, tag, handler, sub, step) for tag, (_, handler, sub, step) in schema.items()}
    for name, schema in SCHEMAS.items()}
# An unknown field, by wire type: skipped (never walked into), never counted, never noted.
_UNKNOWN: dict[int, _Read] = {0: (False, None, 0, False, 0, 0, None), 1: (False, None, 0, False, 8, 0, None),
                              2: (True, None, 0, False, 0, 0, None), 5: (False, None, 0, False, 4, 0, None)}


def _other_tag(buf: bytes | memoryview, at: int, end: int, name: str, base: int, path: str, out: Scan
               ) -> tuple[_Read, int]:
    """The field at ``at`` whose first byte is not a tag of ``name``'s schema: a tag of more bytes (which
    may still be one of the schema's, written overlong), one no message may hold (raises), or an unknown
    field (noted). How to read it, and the offset past its tag."""
    tag = buf[at]
    if tag < 0x80:
        off = at + 1
    else:
        tag, off = read_varint(buf, at, end, _TAG_MAX, base, path)
    reading = _READS[name].get(tag)
    if reading is not None:
        return reading, off
    wt = tag & 7
    if tag > 0xFFFFFFFF or tag >> 3 == 0 or wt in (3, 4, 6, 7):
        why = ("field number 0" if tag >> 3 == 0 and tag <= 0xFFFFFFFF else
               "tag above 2^32" if tag > 0xFFFFFFFF else
               "groups (wire types 3 and 4) are not allowed" if wt in (3, 4) else
               f"undefined {_WIRE_NAMES[wt]}")
        raise Malformed(f"{name}: bad tag 0x{tag:x} ({why})", base + at, path,
                        rule="NANOVER-PROTO-006" if wt in (3, 4) and tag >> 3 else "NANOVER-PROTO-001")
    out.unknown.append(UnknownField(name, tag >> 3, wt, base + at))
    return _UNKNOWN[wt], off


def _length(buf: bytes | memoryview, off: int, end: int, name: str, at: int, depth: int, nested: bool,
            base: int, path: str) -> tuple[int, int]:
    """The length of the field at ``at`` read at ``off`` where it is not a one-byte length of a field that
    ends inside the message: (length, offset past it), or the walk's error, in the walk's order (the
    length's varint, the nesting ``depth`` of a ``nested`` field, the field past the end)."""
    n, off = read_varint(buf, off, end, _VARINT_MAX, base, path)
    if nested and depth >= MAX_NESTING:  # checked before the length, as in the ksy
        raise LimitExceeded(f"Struct/ListValue nesting deeper than {MAX_NESTING}", base + at, path,
                            rule="NANOVER-LIMIT-002", limit="MAX_NESTING", value=depth, maximum=MAX_NESTING)
    if n > end - off:
        raise Malformed(f"{name}: field length {n} runs past the end of the message "
                        f"({end - off} bytes left)", base + at, path, rule="NANOVER-PROTO-001")
    return n, off


def _walk(buf: bytes | memoryview, off: int, end: int, name: str, depth: int, base: int, path: str,
          out: Scan) -> None:
    get = _READS[name].get
    varint = read_varint
    counting = name in _COUNTING  # every message field here is one more value (NANOVER-LIMIT-003)
    while off < end:
        at = off
        # Every tag of the schema is one byte (below 0x80): a first byte that is one of them is the tag.
        # Any other (a tag of more bytes, an unknown or a bad one) is read and looked at closer.
        reading = get(buf[off])
        off += 1
        if reading is None:
            reading, off = _other_tag(buf, at, end, name, base, path, out)
        delimited, sub, step, nested, size, top, note = reading
        out.top_fields += top
        if delimited:
            # A one-byte length of a field that ends inside the message, in one comparison (the byte
            # read at ``end - 1`` past the end is not taken: nothing is left there); else _length reads
            # the length and raises what the walk raises, in its order.
            n = buf[min(off, end - 1)]
            if n < min(0x80, end - off):
                off += 1
                if nested and depth + step >= MAX_NESTING:  # checked before the length, as in the ksy
                    raise LimitExceeded(f"Struct/ListValue nesting deeper than {MAX_NESTING}", base + at, path,
                                        rule="NANOVER-LIMIT-002", limit="MAX_NESTING", value=depth + step,
                                        maximum=MAX_NESTING)
            else:
                n, off = _length(buf, off, end, name, at, depth + step, nested, base, path)
            if sub is not None:
                if counting:
                    out.values += 1
                    if out.values > out.max_values:
                        raise LimitExceeded(f"more than {out.max_values:,} map entries and list elements in one "
                                            "payload", base + at, path, rule="NANOVER-LIMIT-003",
                                            limit="MAX_VALUES", value=out.values, maximum=out.max_values)
                _walk(buf, off, off + n, sub, depth + step, base, path, out)
            elif size and n % 4:
                raise Malformed(f"{name}: packed float run of {n} bytes is not a multiple of 4",
                                base + at, path, rule="NANOVER-PROTO-001")
            off += n
        else:
            if note is not None and (not out.unpacked or out.unpacked[-1][0] != note):
                out.unpacked.append((note, base + at))
            if size:
                if off + size > end:
                    raise Truncated(f"{name}: fixed{size * 8} field cut off", base + off, path,
                                    rule="NANOVER-PROTO-001", needed=size, available=end - off)
                off += size
            elif off < end and buf[off] < 0x80:
                off += 1
            else:
                _, off = varint(buf, off, end, _VARINT_MAX, base, path)
