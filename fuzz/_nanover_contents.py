"""The NanoVer ``ref`` harness's reading of value contents: the reference decoder's model against the
protobuf runtime's own parse of the same record bytes.

The framing view (``nanover.framing_view``) reads the header and the timestamps again, and the second
opinion (``_nanover_facts``) judges counts, lengths and kinds, but both take the values from the decoder:
a decoder that alters what a record holds (strips a string, rounds a number inside a Struct, loses the
last item of a ListValue, changes a packed float, gives a key another key's value, drops a deletion) makes
the checker, the facts and the round trip of a valid file agree with each other and with it. This view
takes each record's payload from the bytes at the document's offsets (after the 16-byte header, each
record a u128 timestamp, a u64 length and the payload), parses it with the generated messages of
``proto/recspec_nanover.proto`` (``GetFrameResponse`` for a .traj, ``StateUpdate`` for a .state:
``FromString``, the runtime's reader, nothing of the decoder's), and compares every key and every value
with the model: the frame index, each ``values`` entry (a Value's kind and contents, nested Structs and
ListValues item by item), each ``arrays`` entry (its member and every number or string) and each changed
key of a state update (a deletion is a null Value).

The comparison is by type and value (``1.0`` is not ``True``; a NaN equals itself, ``-0.0`` is not
``0.0`` for a Value's number); arrays of numbers are compared in C first and element by element only
where that finds a difference. ``contents_view`` returns the first difference, named by the part of the
message it is in (``frame_index``, ``values``, ``arrays``, ``changes``, ``payload`` when the runtime
refuses a payload the decoder read), so that one decoder bug gives one crash signature.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

from recspec._pb import recspec_nanover_pb2 as pb

__all__ = ["CONTENTS_ONE_IN", "contents_view"]

#: The share of inputs whose contents are read again (``sampled``: by a hash of the bytes, so that a crash
#: reproduces). fuzz/README.md, "NanoVer and Matrix-SMT: value contents against a second reader", has the cost.
CONTENTS_ONE_IN = 4

#: The document's framing: a 16-byte header, then per record a u128 timestamp and a u64 payload length.
_HEADER_SIZE = 16
_RECORD_HEAD = struct.Struct("<16sQ")
#: What a Value's ``WhichOneof("kind")`` is when no kind is set (the model's ``UNSET``, by its repr).
_NO_KIND = "UNSET"


def contents_view(data: bytes, rec: Any) -> tuple[dict[str, str], dict[str, str]] | None:
    """The first place where the decoded recording ``rec`` and protobuf's parse of ``data``'s payloads
    differ, as ``check_model_view``'s pair (the model's value, the bytes'), or ``None`` where they agree."""
    state = rec.kind.value == "state"
    parse: Any = pb.StateUpdate.FromString if state else pb.GetFrameResponse.FromString
    at = _HEADER_SIZE
    for i, r in enumerate(rec.records):
        if at + _RECORD_HEAD.size > len(data):
            return None  # a count the framing view compares
        n = _RECORD_HEAD.unpack_from(data, at)[1]
        payload = data[at + _RECORD_HEAD.size:at + _RECORD_HEAD.size + n]
        at += _RECORD_HEAD.size + n
        try:
            msg = parse(payload)
        except Exception as e:  # any refusal of a payload the decoder read is the finding
            return {"payload": f"record[{i}] read"}, {"payload": f"record[{i}] refused: {type(e).__name__}: {e}"}
        if state:
            diff = _map_difference(r.message.changes, msg.changed_keys.fields, "changes")
        else:
            diff = _frame_difference(r.message, msg)
        if diff is not None:
            part, where, mine, theirs = diff
            return {part: f"{mine} (record[{i}].{where})"}, {part: f"{theirs} (record[{i}].{where})"}
    return None


def _frame_difference(frame: Any, msg: Any) -> tuple[str, str, str, str] | None:
    if frame.frame_index != msg.frame_index:
        return "frame_index", "frame_index", repr(frame.frame_index), repr(msg.frame_index)
    diff = _map_difference(frame.values, msg.frame.values, "values")
    if diff is not None:
        return diff
    arrays, theirs = frame.arrays, msg.frame.arrays
    if len(arrays) != len(theirs) or any(k not in theirs for k in arrays):
        return "arrays", "arrays", repr(sorted(arrays)), repr(sorted(theirs))
    for key, array in arrays.items():
        other = theirs[key]
        member = other.WhichOneof("values")
        kind = array.kind.value if array.kind is not None else None
        if kind != (member[:-len("_values")] if member else None):
            return "arrays", f"arrays[{key!r}]", f"a {kind} array", f"a {member} member"
        values = tuple(getattr(other, member).values) if member else ()
        mine = array.values
        if mine == values and len(mine) == len(values):
            continue  # equal in C; a NaN or a difference is looked at one by one
        if len(mine) != len(values):
            return "arrays", f"arrays[{key!r}]", f"{len(mine)} entries", f"{len(values)} entries"
        for j, (x, y) in enumerate(zip(mine, values, strict=True)):
            if type(x) is not type(y) or repr(x) != repr(y):
                return "arrays", f"arrays[{key!r}][{j}]", repr(x), repr(y)
    return None


def _map_difference(mine: Mapping[str, Any], theirs: Any, part: str) -> tuple[str, str, str, str] | None:
    """A map of keys to Values (a frame's ``values``, a state update's ``changed_keys``) against the model's."""
    if len(mine) != len(theirs) or any(k not in theirs for k in mine):
        return part, part, repr(sorted(mine)), repr(sorted(theirs))
    for key, value in mine.items():
        diff = _value_difference(value, theirs[key], f"{part}[{key!r}]")
        if diff is not None:
            return (part, *diff)
    return None


def _value_difference(mine: Any, v: Any, where: str) -> tuple[str, str, str] | None:
    """A model value against a ``google.protobuf.Value`` (recursively): (where, the model's, the bytes')."""
    kind = v.WhichOneof("kind")
    if kind is None:
        return None if repr(mine) == _NO_KIND else (where, repr(mine), "a Value with no kind")
    if kind == "struct_value":
        if type(mine) is not dict:
            return where, repr(mine)[:60], "a Struct"
        fields = v.struct_value.fields
        if len(mine) != len(fields) or any(k not in fields for k in mine):
            return where, repr(sorted(mine)), repr(sorted(fields))
        for key, item in mine.items():
            diff = _value_difference(item, fields[key], f"{where}[{key!r}]")
            if diff is not None:
                return diff
        return None
    if kind == "list_value":
        items = v.list_value.values
        if type(mine) is not list or len(mine) != len(items):
            return where, repr(mine)[:60], f"a ListValue of {len(items)}"
        for j, (item, other) in enumerate(zip(mine, items, strict=True)):
            diff = _value_difference(item, other, f"{where}[{j}]")
            if diff is not None:
                return diff
        return None
    expected: Any = None if kind == "null_value" else getattr(v, kind)
    if type(mine) is not type(expected) or repr(mine) != repr(expected):
        return where, repr(mine)[:60], repr(expected)[:60]
    return None
