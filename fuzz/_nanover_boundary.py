"""Boundary edits of NanoVer records for the structure-aware mutator: the edits that put a frame
or a state update on the edge of a rule, read from the standard-key table of
docs/formats/nanover.md (``_nanover_facts``), so that a campaign reaches the values an off-by-one
or inverted check decides on: a count equal to, one below or one above what an array needs or an
index refers to; an index equal to its count; an array one entry too long or too short, or of
another kind, empty, or with no member; a standard number of another Value kind, negative, halved
or infinite; a reset; a deletion of a key the state holds, does not hold, or deleted just before; a
Value with no kind.

The edit decodes the record's payload into the model (with the mutator's uninstrumented codec),
follows the aggregate frame up to it (so that the edge is that of the counts in force), edits the
model and encodes it again; the caller re-frames the record.
"""

from __future__ import annotations

import random
from typing import Any

from ._nanover_facts import ARRAYS, COUNTS, NUMBERS, REFERS

__all__ = ["boundary_edit"]

#: Numbers that sit on the edges of "a whole number >= 0" (and of a u32 index).
_ODD_NUMBERS = (-1.0, -0.0, 0.0, 0.5, 1.0, float("inf"), float("nan"), 4294967295.0, 4294967296.0)
#: Values of each kind but a number, for a standard number key.
_NOT_NUMBERS = (True, False, "1", None, [1.0], {"x": 1.0})
_FILLER = {"float": 0.5, "index": 0, "string": "x"}


def _aggregate(codec: Any, payloads: list[bytes], upto: int) -> tuple[dict[str, float], dict[str, tuple[Any, ...]]]:
    """The standard numbers and arrays in force before record ``upto`` (records that do not decode are passed over)."""
    numbers: dict[str, float] = {}
    arrays: dict[str, tuple[Any, ...]] = {}
    for payload in payloads[:upto]:
        try:
            frame = codec.decode_payload(codec.Kind.TRAJ, payload)
        except Exception:  # a record the mutator cannot read changes nothing it knows of
            continue
        if frame.frame_index == 0:
            numbers.clear()
            arrays.clear()
        numbers.update((k, v) for k, v in frame.values.items() if k in NUMBERS and type(v) is float)
        arrays.update((k, a.values) for k, a in frame.arrays.items() if k in ARRAYS and a.kind is not None)
    return numbers, arrays


def _wanted(key: str, numbers: dict[str, float], arrays: dict[str, tuple[Any, ...]]) -> int | None:
    """The length the document gives ``key`` under the counts in force (None: no count to go by)."""
    per, unit = ARRAYS[key][1]
    if unit is None:
        return per
    if unit == "bonds":
        return per * (len(arrays.get("bond.pairs", ())) // 2)
    if unit == "user":
        return per * len(arrays.get("forces.user.index", ()))
    count = numbers.get(unit)
    return per * int(count) if count is not None and 0 <= count < 1 << 20 and count == int(count) else None


def _near(n: int, rng: random.Random) -> int:
    """``n``, or one off it (twice as often: one off breaks the rule, ``n`` shows it does not fire)."""
    return max(0, n + rng.choice((-1, 0, 1)))


def _array_of(codec: Any, kind: str, n: int, top: int, rng: random.Random) -> Any:
    """An array of ``kind`` with ``n`` entries; an index array's largest entry is ``top``."""
    if kind == "index":
        values = [rng.randrange(top) if top > 0 else 0 for _ in range(n)]
        if values:
            values[rng.randrange(n)] = max(0, top)
        return codec.Array(codec.ArrayKind.INDEX, tuple(v & 0xFFFFFFFF for v in values))
    return codec.Array(codec.ArrayKind(kind), tuple(_FILLER[kind] for _ in range(n)))


def _edit_frame(rng: random.Random, codec: Any, frame: Any, numbers: dict[str, float],
                arrays: dict[str, tuple[Any, ...]]) -> Any:
    values, arrs = dict(frame.values), dict(frame.arrays)
    index = frame.frame_index
    if index == 0:  # a reset: what this frame holds is all that is in force
        numbers, arrays = {}, {}
    numbers = {**numbers, **{k: v for k, v in values.items() if k in NUMBERS and type(v) is float}}
    arrays = {**arrays, **{k: a.values for k, a in arrs.items() if k in ARRAYS and a.kind is not None}}
    present = [k for k in ARRAYS if k in arrays]
    op = rng.choices(range(8), weights=(3, 3, 4, 2, 2, 1, 1, 2))[0]  # the edges of counts, indices, lengths first
    if op == 0:  # a count on the edge of what an array needs or an index refers to
        key = rng.choice(COUNTS)
        edges = [len(arrays[k]) // ARRAYS[k][1][0] for k in ARRAYS if ARRAYS[k][1][1] == key and k in arrays]
        edges += [max(arrays[k], default=-1) + 1 for k, (bound, _) in REFERS.items() if bound == key and k in arrays]
        edge = rng.choice(edges) if edges and rng.random() < 0.8 else None
        values[key] = float(edge + rng.choice((-1, 0, 0, 1))) if edge is not None else rng.choice(_ODD_NUMBERS)
    elif op == 1:  # an index array whose largest entry is its count, or one below or above
        key = rng.choice([k for k in REFERS if k in arrays] or list(REFERS)) if rng.random() < 0.7 else \
            rng.choice(list(REFERS))
        bound = numbers.get(REFERS[key][0])
        top = int(bound) if bound is not None and 0 <= bound < 1 << 32 and bound == int(bound) else rng.randrange(8)
        n = len(arrays.get(key, ())) or _wanted(key, numbers, arrays) or 2
        arrs[key] = _array_of(codec, "index", n, top + rng.choice((-1, 0, 0, 1)), rng)
    elif op == 2:  # a standard array at, or one off, the length the counts in force give it
        known = [k for k in ARRAYS if _wanted(k, numbers, arrays) is not None]  # a length the counts give
        key = rng.choice(present) if present and rng.random() < 0.4 else rng.choice(known or list(ARRAYS))
        want = _wanted(key, numbers, arrays)
        n = _near(want, rng) if want is not None else _near(len(arrays.get(key, ())), rng)
        bound = numbers.get(REFERS[key][0], n) if key in REFERS else 0
        top = int(bound) - 1 if 0 <= bound < 1 << 32 and bound == int(bound) else 0
        arrs[key] = _array_of(codec, ARRAYS[key][0], n, top, rng)
    elif op == 3:  # a standard array of another kind, empty, or with no member
        key = rng.choice([k for k in arrs if k in ARRAYS] or list(ARRAYS))
        n = len(arrays.get(key, ()))
        arrs[key] = rng.choice((codec.Array(codec.ArrayKind.INDEX, ()), codec.Array(None, ()),
                                _array_of(codec, rng.choice(("float", "index", "string")), n, n, rng)))
    elif op == 4:  # a standard number of another Value kind, or with no kind
        key = rng.choice([k for k in values if k in NUMBERS] or sorted(NUMBERS))
        values[key] = rng.choice((*_NOT_NUMBERS, codec.UNSET))
    elif op == 5:  # a reset, or not
        index = 0 if index else rng.choice((1, 2, 7))
    elif op == 6 and (values or arrs):  # a key left out of this delta
        key = rng.choice([*values, *arrs])
        values.pop(key, None)
        arrs.pop(key, None)
    else:  # a count with its arrays, all at or one off the lengths it gives them
        key = rng.choice(COUNTS)
        count = rng.randrange(5)
        values[key] = float(count)
        for k, (kind, (per, unit)) in ARRAYS.items():
            if unit == key and (k in arrays or rng.random() < 0.3):
                bound = numbers.get(REFERS[k][0], count) if k in REFERS else 0
                arrs[k] = _array_of(codec, kind, per * count if rng.random() < 0.7 else _near(per * count, rng),
                                    int(bound) - 1 if bound == bound and 0 <= bound < 1 << 32 else 0, rng)
    return codec.Frame(index, values, arrs)


def _edit_update(rng: random.Random, codec: Any, update: Any, live: list[str]) -> Any:
    changes = dict(update.changes)
    op = rng.randrange(4)
    if op == 0 and live:  # delete a key the state holds
        changes[rng.choice(live)] = None
    elif op == 1:  # delete a key it does not hold (or one this update sets)
        changes[rng.choice([*changes, "missing"]) if rng.random() < 0.5 else f"k{rng.randrange(4)}"] = None
    elif op == 2 and changes:  # a key's value with no kind, at the top or nested
        changes[rng.choice(list(changes))] = rng.choice((codec.UNSET, {"x": codec.UNSET}, [1.0, codec.UNSET]))
    elif changes:  # a key set instead of deleted, or left out
        key = rng.choice(list(changes))
        if changes[key] is None:
            changes[key] = 1.0
        else:
            del changes[key]
    return codec.StateUpdate(changes)


def _read(codec: Any, payload: bytes) -> tuple[Any, Any] | None:
    """The payload's kind and message: a frame, unless it reads as a frame holding nothing and as a
    state update holding something (nothing in a payload says which)."""
    frame = update = None
    try:
        frame = codec.decode_payload(codec.Kind.TRAJ, payload)
        if frame.values or frame.arrays or len(payload) <= 2:
            return codec.Kind.TRAJ, frame
    except Exception:  # not a frame
        pass
    try:
        update = codec.decode_payload(codec.Kind.STATE, payload)
    except Exception:  # not a state update either
        pass
    if update is not None and (update.changes or frame is None):
        return codec.Kind.STATE, update
    return None if frame is None else (codec.Kind.TRAJ, frame)


def boundary_edit(rng: random.Random, codec: Any, payloads: list[bytes]) -> tuple[int, bytes] | None:
    """One record's payload edited on a rule's edge: ``(its index, the new payload)``, or ``None`` when
    no record decodes (as a frame or as a state update, whichever the first record reads as)."""
    if not payloads:
        return None
    i = rng.randrange(len(payloads))
    read = _read(codec, payloads[i])
    if read is None:  # neither message: the byte and field mutations take it
        return None
    kind, first = read
    try:
        if kind is codec.Kind.TRAJ:
            numbers, arrays = _aggregate(codec, payloads, i)
            return i, codec.encode_payload(_edit_frame(rng, codec, first, numbers, arrays))
        live: set[str] = set()
        for payload in payloads[:i]:
            try:
                changes = codec.decode_payload(codec.Kind.STATE, payload).changes
            except Exception:
                continue
            live.update(k for k, v in changes.items() if v is not None)
            live.difference_update(k for k, v in changes.items() if v is None)
        return i, codec.encode_payload(_edit_update(rng, codec, first, sorted(live)))
    except Exception:  # a value the encoder cannot write (an index past u32): no edit
        return None
