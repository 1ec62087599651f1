"""The fast path of the v3/v4 field walk: the ``msgpack`` C extension proves a body clean.

:func:`recspec.reference.raskat_signal.decode_fields` reads the fields after the
version word with the hand-written reader (:mod:`._msgpack`), which is the
locating path: it says where a truncation, a 0xc1 lead byte, too deep a nesting
or trailing bytes are, and notes every encoding wider than it needs (a float 32,
an integer or a length stored wider than the canonical writer would). A signal's
samples array holds thousands of values, and for most bodies that walk's only
result is "these values, nothing to note". :func:`proven_fields` establishes
that result in C, or returns ``None`` when it cannot; the caller then walks.

The proof. The C unpacker reads ``count`` objects from the body after the
version word (arrays as tuples, strings strictly as UTF-8), with each object's
end offset (``Unpacker.tell``); the body is proven when

* the objects end exactly at the end of the body (no trailing bytes);
* every field is a scalar the hand-written reader returns as the same Python
  value (``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes``) or an
  array of such scalars: a map, an ext value (the C unpacker turns ext type -1
  into a ``Timestamp``) or an array inside an array is not proven (a map or ext
  raises inside the unpacker's hooks, the rest is seen by the type check), so
  the nesting is at most one level, far below ``MAX_DEPTH``;
* ``msgpack.packb`` of the fields, concatenated, equals the body after the
  version word byte for byte. ``packb`` writes what the canonical writer
  (:func:`._msgpack.pack`) writes for these types: the smallest integer, the
  smallest length header (fixstr/str 8/16/32, bin 8/16/32, fixarray/array
  16/32) and every float as float 64. So every encoding in the body is the
  canonical one: no float 32, nothing stored wider than it needs, which are
  exactly the encodings the walk notes.

Then the walk would return the same values, at the same offsets (MessagePack is
prefix-free: the bytes that re-encode the C values parse back into them, object
by object), raise nothing and note nothing. The converse need not hold: a body
with a note, a map, an ext or invalid UTF-8 takes the walk, which finds and
locates it. ``tests/test_raskat_signal_properties.py`` holds the two paths to
identical fields, offsets and reports on generated valid and broken bodies.
"""

from __future__ import annotations

from typing import Any, NoReturn

import msgpack  # type: ignore[import-untyped]  # the C extension ships no type information

__all__ = ["int_elements", "proven_fields"]

#: The scalar types the C unpacker and the hand-written reader return alike.
_SCALARS = frozenset((type(None), bool, int, float, str, bytes))
#: ``msgpack.packb`` makes a Packer for every value; one, with packb's options, packs the same bytes at
#: half the cost (a signal's 12 or 13 fields each time a file is checked)
_PACK = msgpack.Packer().pack


class _Unproven(Exception):
    """A map or ext value: left to the walk."""


def _refuse(*_: Any) -> NoReturn:
    raise _Unproven


def proven_fields(buf: bytes, count: int) -> tuple[tuple[Any, ...], tuple[int, ...]] | None:
    """``count`` fields after the 2-byte version word with their offsets, as the walk would
    return them with nothing to note; ``None`` when the C reading cannot prove that."""
    unpacker = msgpack.Unpacker(use_list=False, raw=False, strict_map_key=False, ext_hook=_refuse,
                                object_pairs_hook=_refuse, max_buffer_size=max(len(buf), 1))
    fields: list[Any] = []
    offsets: list[int] = []
    pos = 2
    scalars = _SCALARS
    try:
        unpacker.feed(buf[2:])
        for _ in range(count):
            value = unpacker.unpack()
            t = type(value)
            end = 2 + unpacker.tell()
            if t not in scalars and not (t is tuple and (int_elements(value, buf[pos:end])
                                                         or set(map(type, value)) <= scalars)):
                return None
            offsets.append(pos)
            fields.append(value)
            pos = end
    # truncation (OutOfData), lead byte 0xc1 (FormatError, a ValueError), invalid UTF-8, a length past the
    # buffer (ValueError), a map or ext (_Unproven): the walk says which, and where
    except (msgpack.UnpackException, ValueError, _Unproven):
        return None
    if pos != len(buf) or b"".join(map(_PACK, fields)) != buf[2:]:
        return None
    return tuple(fields), tuple(offsets)


def int_elements(values: tuple[Any, ...], encoded: bytes) -> bool:
    """Whether every one of ``values`` (an unpacked array, ``encoded`` its MessagePack bytes) is an
    ``int``, not a ``bool``, in C loops: the sum of ints and bools is an ``int``, a float among them
    makes it a ``float``, any other value refuses to be added; and a bool's encoding (0xc2, 0xc3) is
    not a byte of ``encoded``. Where ``encoded`` holds such a byte, the types are looked at one by one."""
    try:
        if type(sum(values)) is not int:
            return False
    except TypeError:
        return False
    if b"\xc2" not in encoded and b"\xc3" not in encoded:
        return True
    return set(map(type, values)) <= {int}
