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

Most updates are proved by their *ends*: an ends template, made from two updates in a row proved entry by
entry, holds the wire bytes (tag, shortest length, contents) of the first entries and of the last ones that
repeat (the same keys at the same places and lengths in both, each matching its key's last shape), with the
numbers of their shapes masked out: avatars at the start, counters at the end. A payload whose one
``changed_keys`` field (``0a``, a shortest length, filling the payload) starts and ends with those bytes but for
the numbers holds those entries, each at its place and matching its shape; the bytes between are framed here,
each entry ``0a`` and a shortest length, filling them exactly (so the tail starts at an entry's start, and the
payload is the skeleton's canonical encoding), and those entries (interactions that come, go and change length)
are proved as above. The keys are in the wire's order, and a key twice takes the record path.

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

    __slots__ = ("_alone_proofs", "_builds", "_chances", "_ends", "_ends_builds", "_ends_chances", "_ends_hits",
                 "_ends_prev", "_hits", "_last", "_last_size", "_lengths_kept", "_names", "_new", "_shapes")

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
        # the ends template (_ends_template) of the last update it was made from, or None; and its counts as
        # the record templates' (``_ends_pays``)
        self._ends: tuple[Any, ...] | None = None
        self._ends_builds = self._ends_hits = self._ends_chances = 0
        self._alone_proofs = 0  # entries proved alone so far (an ends template is made of none)
        # the entries of the last update proved entry by entry with none proved alone (``_ends_template``)
        self._ends_prev: list[bytes] | None = None

    def judge(self, payload: bytes, held: Container[str]) -> dict[str, Any] | None:
        """The update's keys, each ``None`` (a deletion) or :data:`KEPT`, when the payload is proved
        clean and its rules find nothing (``held``: the keys the state holds); else ``None``."""
        if not payload or len(payload) >= CLEAN_MAX_PAYLOAD:
            return None
        last = self._last
        if last is not None and len(payload) == last[0] and int.from_bytes(payload, "little") & last[1] == last[2]:
            self._hits += 1
            return last[3]
        ends = self._ends
        if ends is not None:
            by_ends = self._judge_by_ends(payload, held, ends)
            if by_ends is not None:
                self._ends_hits += 1
                self._last_size = len(payload)
                return by_ends
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
        alone = self._alone_proofs
        if not self._entries(entries, held, changes):
            return None
        # a key twice: the real parse's map keeps the last, and the record path says what follows
        if len(changes) != n:
            return None
        if len(payload) == self._last_size and None not in changes.values() and self._template_pays():
            self._builds += 1
            self._last = self._record_template(payload, entries, changes)
        self._last_size = len(payload)
        # an update with an entry proved alone (the first of a recording: the whole state, most keys new) is
        # no model of the next ones; an update of keys that had shapes is
        if alone == self._alone_proofs:
            prev, self._ends_prev = self._ends_prev, entries
            if prev is not None and self._ends_pays():
                self._ends_builds += 1
                self._ends = self._ends_template(prev, entries)
        return changes

    def _judge_by_ends(self, payload: bytes, held: Container[str], ends: tuple[Any, ...]) -> dict[str, Any] | None:
        """``judge`` of a payload whose first and last entries repeat those of ``ends`` (``_ends_template``)
        but for the numbers of their shapes: the entries between them are framed here and proved one by
        one; ``None`` when the payload is not of that form or an entry between is not proved."""
        head_size, head_mask, head_want, head_keys, tail_size, tail_mask, tail_want, tail_keys = ends
        from_bytes = int.from_bytes
        try:
            # one changed_keys field (0a, a shortest length) that fills the payload
            if payload[0] != 0x0A:
                return None
            inner, at = _shortest_length(payload, 1)
            end = len(payload) - tail_size
            if at + inner != len(payload) or end < at + head_size:
                return None
            if (from_bytes(payload[at:at + head_size], "little") & head_mask != head_want
                    or from_bytes(payload[end:], "little") & tail_mask != tail_want):
                return None
            # the entries between, each 0a and a shortest length, filling the bytes between the ends exactly
            middle: list[bytes] = []
            pos = at + head_size
            while pos < end:
                if payload[pos] != 0x0A:
                    return None
                n, pos = _shortest_length(payload, pos + 1)
                middle.append(payload[pos:pos + n])
                pos += n
            if pos != end:
                return None
        except IndexError:
            return None
        # the keys in the wire's order, as the entry by entry path gives them
        changes = dict(head_keys)
        if not self._entries(middle, held, changes):
            return None
        changes.update(tail_keys)
        if len(changes) != len(head_keys) + len(middle) + len(tail_keys):  # a key twice: the record path's
            return None
        return changes

    def _ends_pays(self) -> bool:
        """Whether to make an ends template after an update proved entry by entry: as ``_template_pays``,
        while the ends templates have proved at least three updates each (past the first), else at every
        ``_TEMPLATE_RETRY``-th chance. Which updates it proves changes no report."""
        self._ends_chances += 1
        return (self._ends_builds < 2 or self._ends_hits >= 3 * (self._ends_builds - 1)
                or self._ends_chances % _TEMPLATE_RETRY == 0)

    def _ends_template(self, prev: list[bytes], entries: list[bytes]) -> tuple[Any, ...] | None:
        """The ends template of an update that :meth:`judge` proved entry by entry (``entries`` in the
        wire's order), after the update ``prev`` it proved so before: the longest run of first entries,
        and of last entries after those, that each match their key's last shape and have the key and the
        length of the entry at the same place in ``prev`` (the entries that repeat; those that come and go
        or change length, between them, are framed and proved one by one), as (bytes, mask, masked bytes,
        keys) of each run's wire bytes (each entry's tag, shortest length and contents; the mask clears
        the numbers of the shapes). ``None`` when no entry repeats at either end."""
        names = self._names.get
        from_bytes = int.from_bytes
        runs: list[list[Any]] = [[], []]  # the head's entries, then the tail's (reversed)
        most = min(len(prev), len(entries))
        for run, pairs in ((runs[0], zip(prev, entries)), (runs[1], zip(reversed(prev), reversed(entries)))):
            for before, e in pairs:
                if len(runs[0]) + len(runs[1]) == most:
                    break
                at = 2 + e[1]
                key = names(e[:at])
                if (key is None or len(e) != key[1] or len(before) != len(e) or before[:at] != e[:at]
                        or from_bytes(e, "little") & key[2] != key[3]):
                    break
                run.append((e, key))
        runs[1].reverse()
        if not runs[0] and not runs[1]:
            return None
        out: list[Any] = []
        for run in runs:
            size = mask = want = 0
            keys: dict[str, Any] = {}
            for e, key in run:
                prefix = b"\x0a" + encode_varint(len(e))  # each field's tag and length, all kept
                low = 8 * len(prefix)
                entry_mask = key[2] << low | (1 << low) - 1
                mask |= entry_mask << 8 * size
                want |= (key[3] << low | from_bytes(prefix, "little")) << 8 * size
                size += len(prefix) + len(e)
                keys[key[0]] = KEPT
            out += (size, mask, want, keys)
        return tuple(out)

    def _entries(self, entries: list[bytes], held: Container[str], changes: dict[str, Any]) -> bool:
        """Each of ``entries`` proved (by its key's shape, a value shape, as a deletion or alone) and its key
        put in ``changes``; ``False`` at the first that is not."""
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
                    return False
                else:
                    try:  # a new key: its UTF-8 checked as the real parse checks a string's
                        name = e[2:at].decode()
                    except UnicodeDecodeError:
                        return False
                if e[at:] == _NULL_FIELD:  # a deletion (Value{null_value: NULL_VALUE}, as upb writes it)
                    if name not in held:
                        return False
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
                    return False
                name, value = kept
                if value is None and name not in held:
                    return False
                changes[name] = value
        except IndexError:
            return False
        return True

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
        self._alone_proofs += 1
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


def _shortest_length(buf: bytes, at: int) -> tuple[int, int]:
    """(value, offset after) of the length varint at ``at`` when it is written in its fewest bytes and
    takes at most 3 (every length below ``CLEAN_MAX_PAYLOAD``, 2^19, does); ``IndexError`` otherwise, and
    past the end of ``buf``."""
    b = buf[at]
    if b < 0x80:
        return b, at + 1
    c = buf[at + 1]
    if c < 0x80:
        if c == 0:  # an overlong form
            raise IndexError(at)
        return b & 0x7F | c << 7, at + 2
    d = buf[at + 2]
    if d == 0 or d >= 0x80:
        raise IndexError(at)
    return b & 0x7F | (c & 0x7F) << 7 | d << 14, at + 3


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
