"""Frames proved clean in bulk: a record whose entries repeat the previous clean record's.

A trajectory writer sends frame after frame of one shape: the same keys, the same
kinds, the same array lengths; only the numbers and the float arrays' contents
change, and a writer that keeps its maps in a hash table (NanoVer's Rust server)
writes the entries in a new order every time. The record walk judges a frame entry
by entry in Python (about 1 us an entry). A :class:`FrameTemplate`, made from a
frame the walk judged and found nothing in, proves the next frame of the same shape
clean with a handful of C-level operations, whatever the order of its entries.

The template. The payload is read with a *skeleton* schema (upb, in C), which takes
``GetFrameResponse`` as a ``frame_index`` and a ``frame`` whose two maps are
repeated ``bytes``: each map entry's contents, unread. An entry's contents split
into a *head* that must repeat byte for byte and *data* that may change: the 8
bytes of a number under a key whose value no rule reads (every key but the counts
of ``literal_keys``), or the packed floats of a float array (no rule reads them,
only their number, which the head's lengths fix). Every other entry is all head.
Every entry must start with its key field (``0a``, a one-byte length, the key), and
the keys of a map must differ, so sorting a map's contents sorts them by head.

The proof. A payload matches when its skeleton parse gives a ``frame_index`` in
``1 .. 2^32 - 1``, as many entries in each map as the template, sorted contents each
of the length of its place and starting with its place's head, and a payload length
equal to the canonical encoding's (one ``frame_index`` in a shortest varint, one
``frame`` field with a shortest length, the entries, nothing else). A frame in the
template frame's own order is matched on the payload's bytes directly: a shortest
``frame_index`` varint, then the canonical bytes of the entries in that order, heads
at fixed places (one ``struct`` call, no parse); the same claim follows.
Anything more on the wire (an unknown field, a group, a second ``frame`` or
``frame_index``, an overlong varint, a field split in two) makes the payload longer,
so the entries are exactly the template's, each once, in some order, with new data.
Such a payload is what the wire walk accepts without a note (each entry's structure
is the template record's, which the walk accepted; float runs keep their length),
what the protobuf runtime parses (the heads hold the keys and strings that were
valid UTF-8; any bytes are a double or a float), and it gives the frame rules the
template record's keys, kinds, counts and array shapes: no finding, and the
aggregate frame as it was. The caller uses a template only for the record right
after the one it was made from, or after records it matched.
"""

from __future__ import annotations

import struct
from collections.abc import Collection
from functools import cache

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError as PbDecodeError
from google.protobuf.message import Message

from recspec.errors import DecodeError
from recspec.reference.nanover import encode_varint, read_varint

__all__ = ["FrameTemplate", "skeleton_class"]

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "recspec.nanover_skeleton"
# Value.number_value (tag 0x11) of a map entry's value (0x12, 9 bytes): the entry's last 11 bytes
_NUMBER_TAIL = b"\x12\x09\x11"


def _skeleton_file() -> descriptor_pb2.FileDescriptorProto:
    fdp = descriptor_pb2.FileDescriptorProto(name="recspec_nanover_skeleton.proto", package=_PACKAGE,
                                             syntax="proto3")
    frame = fdp.message_type.add(name="Frame")
    frame.field.add(name="values", number=1, type=_F.TYPE_BYTES, label=_F.LABEL_REPEATED)
    frame.field.add(name="arrays", number=2, type=_F.TYPE_BYTES, label=_F.LABEL_REPEATED)
    root = fdp.message_type.add(name="Response")
    root.field.add(name="frame_index", number=1, type=_F.TYPE_UINT64, label=_F.LABEL_OPTIONAL)
    root.field.add(name="frame", number=2, type=_F.TYPE_MESSAGE, label=_F.LABEL_OPTIONAL,
                   type_name=f".{_PACKAGE}.Frame")
    return fdp


@cache
def skeleton_class() -> type[Message]:
    """The skeleton of ``GetFrameResponse``: ``frame_index``, and the frame's two maps as repeated bytes."""
    pool = descriptor_pool.DescriptorPool()  # its own pool: never clashes with other descriptors
    pool.Add(_skeleton_file())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.Response"))


def _key(contents: bytes) -> bytes | None:
    """The key of a map entry whose contents start with it (``0a``, a one-byte length, the key)."""
    if len(contents) < 2 or contents[0] != 0x0A or contents[1] > 0x7F or len(contents) < 2 + contents[1]:
        return None
    return contents[2:2 + contents[1]]


def _float_data(contents: bytes, key: bytes) -> int:
    """The packed floats' length of an ``arrays`` entry that is its key and a float array
    (ValueArray ``0a`` FloatArray ``0a`` packed run, each filling its message), else 0."""
    end = len(contents)
    at = 2 + len(key)
    for tag in (0x12, 0x0A, 0x0A):  # the entry's value, ValueArray.float_values, FloatArray.values
        if at >= end or contents[at] != tag:
            return 0
        try:
            n, at = read_varint(contents, at + 1, end)
        except DecodeError:  # a cut varint: not this shape
            return 0
        if at + n != end:
            return 0
    n = end - at
    return n if n % 4 == 0 else 0


class FrameTemplate:
    """The shape of one clean frame; :meth:`match` proves a payload of the same shape (module docstring)."""

    __slots__ = ("_arrays", "_heads", "_lengths", "_new", "_ordered", "_ordered_heads", "_ordered_size",
                 "_size", "_sorted", "_values")

    def __init__(self, values: list[bytes], arrays: list[bytes], literal_keys: Collection[bytes]) -> None:
        """From a frame's ``values`` and ``arrays`` contents, in the order of the wire; raises
        ``ValueError`` when they cannot make a template (an entry not led by its key, a key twice
        in a map)."""
        ranked: list[tuple[bytes, bytes, int]] = []  # (contents, head, data length), sorted per map below
        wire_heads: list[bytes] = []  # the entries' tags, lengths and heads, in the wire's order
        wire_layout: list[str] = []
        frame = 0
        for tag, contents in ((b"\x0a", values), (b"\x12", arrays)):
            parts = []
            keys = set()
            for c in contents:
                n = len(c)
                key = _key(c)
                if key is None or key in keys:
                    raise ValueError("an entry not led by its key, or a key twice")
                keys.add(key)
                if tag == b"\x0a":
                    data = 8 if n == len(key) + 13 and c[-11:-8] == _NUMBER_TAIL and key not in literal_keys else 0
                else:
                    data = _float_data(c, key)
                head = c[:n - data]
                parts.append((c, head, data))
                prefix = tag + encode_varint(n)
                wire_heads.append(prefix + head)
                wire_layout.append(f"{len(prefix) + n - data}s{data}x")
                frame += len(prefix) + n
            # a map's contents in sorted order (any order on the wire: match's skeleton parse); the keys
            # differ, so the contents do, and no two tuples tie
            ranked += sorted(parts)
        frame_head = b"\x12" + encode_varint(frame)  # the frame field's tag and length
        # the canonical payload's length but for frame_index's varint: its tag, the frame field's tag,
        # length and contents
        self._size = 1 + len(frame_head) + frame
        self._new = skeleton_class()
        self._values = len(values)
        self._arrays = len(arrays)
        self._lengths = [len(c) for c, _, _ in ranked]
        self._heads = tuple(head for _, head, _ in ranked)
        # the sorted contents joined: each head at its place's offset once every content has its place's
        # length (one struct call instead of a startswith per entry)
        self._sorted = struct.Struct("<" + "".join(f"{len(c) - data}s{data}x" for c, _, data in ranked))
        # the canonical bytes after frame_index in this frame's order, values first (a writer that keeps
        # its order: match's first try, without a parse)
        self._ordered: struct.Struct | None = struct.Struct(f"<{len(frame_head)}s" + "".join(wire_layout))
        self._ordered_heads = (frame_head, *wire_heads)
        self._ordered_size = self._size - 1

    @classmethod
    def of(cls, payload: bytes, literal_keys: Collection[bytes]) -> FrameTemplate | None:
        """The template of a frame payload, or ``None`` when it cannot make one."""
        msg = skeleton_class()()
        try:
            msg.ParseFromString(payload)
        except PbDecodeError:
            return None
        frame = msg.frame  # type: ignore[attr-defined]
        try:
            return cls(frame.values[:], frame.arrays[:], literal_keys)
        except ValueError:
            return None

    def match(self, payload: bytes) -> int | None:
        """The frame index of a payload of this template's shape (proved: module docstring), else ``None``.

        First as the bytes of the template frame's order (values, then arrays): one ``struct``
        call over the payload. When the entries come in another order, a skeleton parse sorts
        them; a template that had to do so once (a writer whose order varies) always does."""
        ordered = self._ordered
        if ordered is not None:
            index = self._match_ordered(payload, ordered)
            if index is not None:
                return index
        index = self._match_sorted(payload)
        if index is not None:
            self._ordered = None
        return index

    def _match_ordered(self, payload: bytes, layout: struct.Struct) -> int | None:
        """``match`` on the canonical bytes of the template frame's order: a shortest frame_index
        varint, then the frame field's tag and length and the entries' heads at fixed places."""
        # a matching payload holds at least its frame_index (2 bytes) and the frame field's tag and length
        if len(payload) < 4 or payload[0] != 0x08:
            return None
        b = payload[1]
        if b < 0x80:  # an index below 2^7, and below 2^14 in the branch after: no loop
            index, at = b, 2
        elif payload[2] < 0x80:
            b = payload[2]
            index, at = payload[1] & 0x7F | b << 7, 3
        else:
            index = shift = 0
            for b in payload[1:6]:
                index |= (b & 0x7F) << shift
                shift += 7
                if b < 0x80:
                    break
            else:
                return None
            at = 1 + shift // 7  # where the frame field starts
        if (b == 0 and at > 2) or not 0 < index < 1 << 32 or len(payload) != at + self._ordered_size:
            return None
        return index if layout.unpack_from(payload, at) == self._ordered_heads else None

    def _match_sorted(self, payload: bytes) -> int | None:
        """``match`` on the skeleton parse of the payload, its entries sorted."""
        msg = self._new()
        try:
            msg.ParseFromString(payload)
        except PbDecodeError:
            return None
        index: int = msg.frame_index  # type: ignore[attr-defined]
        if not 0 < index < 1 << 32 or len(payload) != self._size + (index.bit_length() + 6) // 7:
            return None
        # the frame field itself, not a field of another number and the same length in its place (a template
        # of an empty frame, 12 00, would otherwise take 1a 00: an unknown field the wire walk reports); with
        # the frame there, the lengths above leave no byte for any other field
        if not msg.HasField("frame"):
            return None
        frame = msg.frame  # type: ignore[attr-defined]
        values: list[bytes] = frame.values[:]
        arrays: list[bytes] = frame.arrays[:]
        if len(values) != self._values or len(arrays) != self._arrays:
            return None
        values.sort()
        arrays.sort()
        values += arrays
        # each of the sorted contents has its place's length and starts with its place's head: with the
        # lengths equal, the joined contents hold each place's content at its template offset
        if list(map(len, values)) != self._lengths or self._sorted.unpack_from(b"".join(values)) != self._heads:
            return None
        return index
