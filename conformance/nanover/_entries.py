"""State updates proved clean entry by entry: each key's entry against the last clean entry of that key.

A state writer sends update after update of the same keys: each user's avatar (a
Struct of a name, a colour and components whose positions and rotations change),
an update counter, now and then an interaction whose particle list grows and
shrinks. The record path proves a whole payload clean with two upb parses and a
round trip (``parse_clean``), then reads every key's Value. :class:`StateEntries`
proves most of an update with a skeleton parse and a byte comparison per key.

The split. A skeleton schema (upb, in C) reads ``StateUpdate`` as ``changed_keys``
holding the Struct's map entries as repeated ``bytes``, unread. The payload is taken
only when it is that skeleton's canonical encoding: one ``changed_keys`` field, each
entry as ``0a`` and a shortest length, nothing else (the payload's length is exactly
the sum of those parts; an unknown field, a second ``changed_keys``, an overlong
varint or a field of another wire type would make it longer or fail the parse). Each
entry must start with its key (``0a``, a one-byte length, the key), and the keys must
differ. Then the payload's wire walk is the walk of each entry in turn inside the
Struct, at depth 0, and the real parse's map is the entries' keys and values, one
each (no key repeats, so none wins over another).

An entry is proved one of three ways:

* alone: the payload ``StateUpdate{changed_keys: Struct{fields: [entry]}}`` through
  ``parse_clean`` (the mirror's proof and the real parse, which checks the strings'
  UTF-8). Its walk is the entry's walk inside the Struct at depth 0, as in the
  record, so the record's walk finds in it what this one does: nothing. A kept
  entry's value (a kind set at every depth, not null) becomes a *value shape*.
* by a value shape: its key field is one proved before, or a new one whose key is
  valid UTF-8 (what the real parse checks of a key; tests/test_nanover_entries.py
  compares the two), and its value field has the length of a shape and the same
  bytes but for the 8 bytes of each ``number_value`` (a double: any bytes are one,
  and no rule reads a state value's number). It has the shape's structure (tags,
  lengths, strings, kinds), so its walk, its parse and what the rules read of it are
  those of the entry the shape was made from. A key's last shape is kept with the
  key, over the whole entry, and tried first; then the shape it last had at the
  entry's length (a list that grows and shrinks: at most ``_LENGTHS_PER_KEY``).
* as a deletion: a valid key field and the value field ``12 02 08 00`` (a Value
  holding ``null_value``, as upb writes it), which the walk and the parse accept.

An update that repeats the previous update of its length but for the numbers of
entries proved by a shape (same length, same bytes elsewhere, no deletion) is
proved by one masked comparison of the whole payload: each entry is then at the
same place and matches the same shape.

The rules read of an update its keys, which are deletions (a null value), and
whether a Value of no kind is anywhere in it (NANOVER-PROTO-005). :meth:`judge`
returns the keys with their deletions only when the update has no PROTO-005 finding
and deletes only keys the state holds (no NANOVER-STATE-001 finding): then the
record adds no finding of its own, and its keys are distinct, so applying them in
the wire's order leaves the state the record path leaves. Anything else (``None``)
takes the record path, which finds and orders the findings. Only payloads below
``CLEAN_MAX_PAYLOAD`` (under which NANOVER-LIMIT-003 cannot be reached).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Container
from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError as PbDecodeError
from google.protobuf.message import Message

from recspec.errors import DecodeError
from recspec.reference.nanover import CLEAN_MAX_PAYLOAD, encode_varint, parse_clean, read_varint

__all__ = ["KEPT", "MAX_TEMPLATES", "StateEntries", "number_holes", "value_has_unset", "value_template"]

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "recspec.nanover_state_skeleton"
#: What a kept key maps to (the rules read only which keys the state holds).
KEPT = True


@cache
def _skeleton_class() -> type[Message]:
    """``StateUpdate`` with its Struct's map entries as repeated ``bytes``."""
    fdp = descriptor_pb2.FileDescriptorProto(name="recspec_nanover_state_skeleton.proto", package=_PACKAGE,
                                             syntax="proto3")
    inner = fdp.message_type.add(name="Fields")
    inner.field.add(name="fields", number=1, type=_F.TYPE_BYTES, label=_F.LABEL_REPEATED)
    root = fdp.message_type.add(name="Update")
    root.field.add(name="changed_keys", number=1, type=_F.TYPE_MESSAGE, label=_F.LABEL_OPTIONAL,
                   type_name=f".{_PACKAGE}.Fields")
    pool = descriptor_pool.DescriptorPool()  # its own pool: never clashes with other descriptors
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.Update"))


# The fields of each message of an entry, by tag: the sub-message a length-delimited field holds
# (None: bytes skipped), or "varint" / "number".
_ENTRY_FIELDS: dict[str, dict[int, str | None]] = {
    "ValueEntry": {0x0A: None, 0x12: "Value"},
    "Value": {0x08: "varint", 0x11: "number", 0x1A: None, 0x20: "varint", 0x2A: "Struct", 0x32: "ListValue"},
    "Struct": {0x0A: "ValueEntry"},
    "ListValue": {0x0A: "Value"},
}


def number_holes(entry: bytes) -> list[int] | None:
    """The offsets of the 8 bytes of every ``number_value`` in a map entry (``ValueEntry``) that is
    written with one-byte tags of the schema's fields; ``None`` for any other entry."""
    holes: list[int] = []
    try:
        _holes(entry, 0, len(entry), "ValueEntry", holes)
    except (DecodeError, KeyError, IndexError):
        return None
    return holes


def _holes(buf: bytes, off: int, end: int, name: str, holes: list[int]) -> None:
    fields = _ENTRY_FIELDS[name]
    while off < end:
        what = fields[buf[off]]  # KeyError: not a one-byte tag of this message's fields
        off += 1
        if what == "varint":
            _, off = read_varint(buf, off, end)
        elif what == "number":
            if off + 8 > end:
                raise IndexError(off)
            holes.append(off)
            off += 8
        else:
            if off < end and buf[off] < 0x80:  # a one-byte length (most are), read without the call
                n = buf[off]
                off += 1
            else:
                n, off = read_varint(buf, off, end)
            if off + n > end:
                raise IndexError(off)
            if what is not None:
                _holes(buf, off, off + n, what, holes)
            off += n
    if off != end:
        raise IndexError(off)


def value_template(entry: bytes, at: int, holes: list[int]) -> tuple[int, int]:
    """(mask, bytes under the mask) of ``entry[at:]`` (its value field), as little-endian integers: the
    mask keeps every byte but the 8 of each number at ``holes`` (offsets in ``entry``)."""
    mask = bytearray(b"\xff" * (len(entry) - at))
    for h in holes:
        mask[h - at:h - at + 8] = bytes(8)
    m = int.from_bytes(mask, "little")
    return m, int.from_bytes(entry[at:], "little") & m


# A deletion's value field: Value (12, 2 bytes) holding null_value (08) 0.
_NULL_FIELD = b"\x12\x02\x08\x00"
# Value shapes kept per value length (the avatars of several users, alike but for their names)
_SHAPES_PER_LENGTH = 8
# Entry lengths a key keeps its shape at (an interaction's particle list of 1 to 8 numbers), and the most
# entry bytes those shapes may cover in all (each holds two integers of its entry's size): a bound on memory
_LENGTHS_PER_KEY = 8
_LENGTHS_KEPT_BYTES = 1 << 22
#: ``StateEntries._template_pays``: past its budget, a record template is made at every this-many-th chance.
_TEMPLATE_RETRY = 64
#: The most keys and value shapes a check keeps; past it they are all dropped and proved again as
#: entries come (a bound on memory, never on what is found).
MAX_TEMPLATES = 4096


class StateEntries:
    """The keys and value shapes proved so far in a state walk (module docstring); :meth:`judge` one update."""

    __slots__ = ("_builds", "_chances", "_hits", "_last", "_last_size", "_lengths_kept", "_names", "_new",
                 "_shapes")

    def __init__(self) -> None:
        self._new = _skeleton_class()
        # an entry's key field (0a, its length, the key), for the keys of entries proved alone -> [the key,
        # and the length, mask and masked bytes of the whole entry in the value shape it last matched, and
        # {an entry length: that (mask, masked bytes) at the length} for the lengths it had]
        self._names: dict[bytes, list[Any]] = {}
        # a value field's length -> the (mask, want) of each value shape of that length proved alone (at
        # most _SHAPES_PER_LENGTH); see value_template
        self._shapes: dict[int, list[tuple[int, int]]] = {}
        self._lengths_kept = 0  # the entry bytes of the keys' shapes per length (_LENGTHS_KEPT_BYTES)
        # the previous payload's length, and the template of the last payload proved after one of its length
        self._last_size = -1
        self._last: tuple[int, int, int, dict[str, Any]] | None = None
        # record templates made, updates they proved, chances to make one (``_template_pays``)
        self._builds = self._hits = self._chances = 0

    def judge(self, payload: bytes, held: Container[str]) -> dict[str, Any] | None:
        """The update's keys, each ``None`` (a deletion) or :data:`KEPT`, when the payload is proved
        clean and its rules find nothing (``held``: the keys the state holds); else ``None``."""
        if not payload or len(payload) >= CLEAN_MAX_PAYLOAD:
            return None
        last = self._last
        if last is not None and len(payload) == last[0] and int.from_bytes(payload, "little") & last[1] == last[2]:
            self._hits += 1
            return last[3]
        msg = self._new()
        try:
            msg.ParseFromString(payload)
        except PbDecodeError:
            return None
        if not msg.HasField("changed_keys"):
            return None
        entries: list[bytes] = msg.changed_keys.fields[:]  # type: ignore[attr-defined]
        # The canonical length: each entry's tag, shortest length varint (every length is below
        # CLEAN_MAX_PAYLOAD, 2^19, so 1 to 3 bytes) and contents, in one changed_keys field.
        sizes = sorted(map(len, entries))
        n = len(sizes)
        inner = sum(sizes) + 4 * n - bisect_left(sizes, 0x80) - bisect_left(sizes, 0x4000)
        if len(payload) != inner + 4 - (inner < 0x80) - (inner < 0x4000):
            return None
        changes: dict[str, Any] = {}
        keys = self._names.get
        shapes_of = self._shapes.get
        from_bytes = int.from_bytes
        try:
            for e in entries:
                at = 2 + e[1]  # IndexError: an entry of under 2 bytes
                head = e[:at]  # the key field, when the entry starts with one
                key = keys(head)  # only a whole key field of a key proved before is there
                if key is not None:
                    # first the shape this key's entry had last time, over the whole entry, then the one
                    # it had at this entry's length
                    name, size, mask, want, lengths = key
                    if len(e) == size:
                        if from_bytes(e, "little") & mask == want:
                            changes[name] = KEPT
                            continue
                    elif (at_length := lengths.get(len(e))) is not None and (
                            from_bytes(e, "little") & at_length[0] == at_length[1]):
                        key[1:4] = len(e), *at_length
                        changes[name] = KEPT
                        continue
                elif e[0] != 0x0A or e[1] > 0x7F or len(e) < at:
                    return None
                else:
                    try:  # a new key: its UTF-8 checked as the real parse checks a string's
                        name = e[2:at].decode()
                    except UnicodeDecodeError:
                        return None
                if e[at:] == _NULL_FIELD:  # a deletion (Value{null_value: NULL_VALUE}, as upb writes it)
                    if name not in held:
                        return None
                    changes[name] = None
                    continue
                if shapes := shapes_of(len(e) - at):
                    value = from_bytes(e[at:], "little")
                    shape = next((s for s in shapes if value & s[0] == s[1]), None)
                    if shape is not None:
                        if key is None:
                            key = self._key(head, name)
                        low = 8 * at  # the key field's bits, all kept
                        key[1:4] = whole = (len(e), shape[0] << low | (1 << low) - 1,
                                            shape[1] << low | from_bytes(head, "little"))
                        lengths = key[4]
                        if len(e) in lengths:
                            lengths[len(e)] = whole[1:]
                        elif len(lengths) < _LENGTHS_PER_KEY and self._lengths_kept + len(e) <= _LENGTHS_KEPT_BYTES:
                            lengths[len(e)] = whole[1:]
                            self._lengths_kept += len(e)
                        changes[name] = KEPT
                        continue
                kept = self._alone(head, e)
                if kept is None:
                    return None
                name, value = kept
                if value is None and name not in held:
                    return None
                changes[name] = value
        except IndexError:
            return None
        # a key twice: the real parse's map keeps the last, and the record path says what follows
        if len(changes) != n:
            return None
        if len(payload) == self._last_size and None not in changes.values() and self._template_pays():
            self._builds += 1
            self._last = self._record_template(payload, entries, changes)
        self._last_size = len(payload)
        return changes

    def _template_pays(self) -> bool:
        """Whether to make a record template at this chance. One costs about as much as proving three
        updates entry by entry, and a stream whose updates change length often (interactions that grow and
        shrink) makes many that prove little: once the templates have proved fewer than three updates each
        (past the first), only every ``_TEMPLATE_RETRY``-th chance is taken, so that a stream that turns
        steady gets one again. Which updates a template proves changes no report (each is proved either
        way)."""
        self._chances += 1
        return (self._builds < 2 or self._hits >= 3 * (self._builds - 1)
                or self._chances % _TEMPLATE_RETRY == 0)

    def _record_template(self, payload: bytes, entries: list[bytes], changes: dict[str, Any]
                         ) -> tuple[int, int, int, dict[str, Any]]:
        """(length, mask, masked bytes, keys) of a payload that :meth:`judge` proved, with no deletion: a
        payload of the same length and the same bytes but for the numbers of its entries that match their
        key's last shape here is proved by it (each entry is then at the same place and matches that shape;
        the others must repeat byte for byte)."""
        # each entry's tag and shortest length varint (below CLEAN_MAX_PAYLOAD: 1 to 3 bytes), then its bytes
        at = len(payload) - sum(2 + (n >= 0x80) + (n >= 0x4000) + n for n in map(len, entries))
        cleared = 0  # the bits of the numbers, over the whole payload
        names = self._names.get
        for e in entries:
            n = len(e)
            at += 2 + (n >= 0x80) + (n >= 0x4000)
            key = names(e[:2 + e[1]])
            if key is not None and n == key[1] and int.from_bytes(e, "little") & key[2] == key[3]:
                cleared |= ((1 << 8 * n) - 1 ^ key[2]) << 8 * at
            at += n
        mask = (1 << 8 * len(payload)) - 1 ^ cleared
        return len(payload), mask, int.from_bytes(payload, "little") & mask, changes

    def _alone(self, head: bytes, entry: bytes) -> tuple[str, Any] | None:
        """(key, None or KEPT) of one entry proved alone with no PROTO-005 finding, else ``None``.
        Its key is kept, and a kept value becomes a value shape."""
        inner = b"\x0a" + encode_varint(len(entry)) + entry
        msg = parse_clean(b"\x0a" + encode_varint(len(inner)) + inner, "state")
        if msg is None:
            return None
        fields = msg.changed_keys.fields  # type: ignore[attr-defined]
        if len(fields) != 1:
            return None
        for name in fields:
            value = fields[name]
        kind = value.WhichOneof("kind")
        # A Value of no kind below the top is empty, so upb writes it as a field of no bytes: a map entry's
        # value (12 00, written even where the entry left it out) or a list element (0a 00); where the
        # message written again holds neither, there is none, and the value needs no walk.
        again = msg.SerializeToString()
        if kind is None or ((b"\x12\x00" in again or b"\x0a\x00" in again) and value_has_unset(value)):
            return None
        self._key(head, name)
        if kind == "null_value":
            return name, None
        size = len(entry) - len(head)
        shapes = self._shapes.setdefault(size, [])
        if len(shapes) < _SHAPES_PER_LENGTH and (holes := number_holes(entry)) is not None:
            shapes.append(value_template(entry, len(head), holes))  # the key field holds no number
        return name, KEPT

    def _key(self, head: bytes, name: str) -> list[Any]:
        """The record of a key proved (its entry alone, or its UTF-8 and a value of a proved shape)."""
        key = self._names.get(head)
        if key is None:
            if len(self._names) >= MAX_TEMPLATES or len(self._shapes) >= MAX_TEMPLATES:
                self._names.clear()
                self._shapes.clear()
                self._lengths_kept = 0
            key = self._names[head] = [name, -1, 0, 0, {}]
        return key


def value_has_unset(v: Any) -> bool:
    """Whether a ``google.protobuf.Value`` message holds, at any depth, a Value with no kind set (the message
    as it is: the check's ``_has_unset`` of its Python value)."""
    k = v.WhichOneof("kind")
    if k == "struct_value":
        fields = v.struct_value.fields
        return any(value_has_unset(fields[key]) for key in fields)
    if k == "list_value":
        return any(map(value_has_unset, v.list_value.values))
    return k is None
