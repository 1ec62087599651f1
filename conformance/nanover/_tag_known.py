"""The protobuf parser's one-byte field tags made from the byte at once, as the generated code makes them.

A NanoVer record's Kaitai reading (``recspec/_ksy_fast/nanover_recording.py`` over ``protobuf_wire.py``, from
``ksy/protobuf_wire.ksy``) reads a ``tag`` before every field of every message: about 190 in a 1.7 kB corpus
file. The generated ``tag`` builds a ``varint(5)`` (its constructor, a loop over its groups, a zero-size field),
then a zero-size field whose ``valid`` expression reads the varint's ``value`` four to seven times through its
property. A tag below 0x80 is one byte: its varint holds that byte alone and its value is the byte. So where
the byte at the position is below 0x80 and the ``valid`` expression holds for it (a field number other than 0,
wire type 0, 1, 2 or 5), ``Tag._read`` (:func:`_tag_read`) makes the varint as a plain object of the generated
class with the attributes the generated reading leaves on it (``max_len``, ``groups``, ``is_within_limit`` and
the ``_m_value`` the validation computed) and moves the position past the byte. Anything else (a tag of two
bytes or more, one the ksy rejects, the stream's end, a stream that is not a :class:`MemoryStream` or is in the
middle of a bit read) goes the generated way, which raises the parser's own errors.

Generated varints cost about 1.2 us a tag more on this path (the ``varint`` constructor's three Python calls,
the property reads); reading the groups or computing a value some other way saves nothing measurable, since the
cost is the objects, not the arithmetic, so only the tag, whose varint is fully known from one byte, is made
here. The generated module stays as the compiler writes it (``tests/test_ksy_drift.py``); :func:`install`
points the generated class's ``_read`` at this one, :func:`generated_tags` puts the generated one back for a
while. The parse trees, errors and positions are the generated code's (``tests/test_nanover_tag_known.py``).
"""

from __future__ import annotations

from typing import Any

from recspec._ksy_fast.protobuf_wire import ProtobufWire

from .._kaitai import KnownReading, MemoryStream

__all__ = ["generated_tags", "install"]

_GENERATED_READ = ProtobufWire.Tag._read
_VARINT = ProtobufWire.Varint
_new = object.__new__
#: A one-byte tag the ksy accepts: a field number other than 0 and wire type 0, 1, 2 or 5 (tag.seq/1's ``valid``)
_ACCEPTED = bytes(1 if b >> 3 and (b & 7) in (0, 1, 2, 5) else 0 for b in range(0x80)) + bytes(0x80)


def _tag_read(self: Any) -> None:
    """``Tag._read``: a one-byte tag the ksy accepts made at once (the module's docstring)."""
    io = self._io
    if type(io) is MemoryStream and not io.bits_left:
        p = io._pos
        if 0 <= p < io._size:
            b = io._buf[p]
            if _ACCEPTED[b]:
                key = _new(_VARINT)  # attributes set in the generated order: kept inline, no dict for the collector
                key._io, key._parent, key._root, key.max_len = io, self, self._root, 5
                key.groups, key.is_within_limit, key._m_value = [b], b"", b
                io._pos = p + 1
                self.key = key
                self.is_supported = b""  # the zero-size field the validation is on
                return
    _GENERATED_READ(self)


_KNOWN = KnownReading((ProtobufWire.Tag, "_read", _tag_read))

#: Point the generated tag's reading at this module's.
install = _KNOWN.install
#: Inside: the tags read as the compiler wrote them (to compare the two).
generated_tags = _KNOWN.generated
