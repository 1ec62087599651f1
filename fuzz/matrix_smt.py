"""Fuzzing the Matrix-SMT recording: harnesses, a structure-aware BSON mutator,
seeds and the libFuzzer dictionary.

Harnesses (``TARGETS``), each ``(data: bytes) -> None``: it returns when its
invariant holds and raises when it does not. A :class:`recspec.errors.DecodeError`
from a decoder is the input's fault and is swallowed where the contract allows
it; anything else that leaves a harness is a finding.

* ``ref``: ``check_stream`` never raises, under either profile, and its report
  renders as standard JSON; the fast path and the full walk give the same
  findings (the full walk runs only on inputs where the fast path took part,
  :func:`fast_path_took_part`: on the others the two walks are the same code; the top level and
  the objects array, the same code in both, are walked once: ``check_stream_and_full_walk``);
  ``decode_document`` and the typed ``decode`` raise only ``DecodeError``
  subclasses. ``decode_document`` reads the input first; both walks take the
  frames and top-level documents it read whole (its ``units``, found by offset,
  also those before a fault it then raised) instead of decoding the same bytes
  again with the same decoder, and run every rule on them as before
  (``check_stream``'s ``decoded``, which a property holds to the walk alone on
  valid, invalid and mutated recordings); from a fault on, the walk decodes each
  unit itself, locating it;
* ``ksy``: the generated Kaitai parser (``kaitai_parse``) raises only
  ``KaitaiRejected``;
* ``diff``: the reference, Kaitai and pymongo readings agree
  (``differential`` is empty), else :class:`Divergent`.

The mutator (:func:`mutate`, atheris' ``custom_mutator`` signature) decodes the
input with the reference BSON decoder, edits the value tree (a value's type or
number, a key, an element inserted, deleted, duplicated or moved, array keys,
a subtree grafted from elsewhere) and re-encodes it, so every length field stays
consistent with its content and the edit reaches the recording rules instead of
dying at the framing. One edit in eight then breaks the framing on purpose (a
length field off by a few bytes, a cut, a boolean byte, a type byte), so the
BSON strictness is fuzzed too. It falls back to byte mutation when the input
does not decode and at random (``BYTE_MUTATION_RATE``).
"""

from __future__ import annotations

import functools
import io
import json
import math
import random
import re
import struct
from collections.abc import Callable
from typing import Any

from recspec.conformance.matrix_smt import RULES as _RULES
from recspec.conformance.matrix_smt import check_stream
from recspec.conformance.matrix_smt._check import check_stream_and_full_walk
from recspec.conformance.matrix_smt._seeds import BASE
from recspec.conformance.matrix_smt._xcheck import (
    differential,
    kaitai_parse,
)
from recspec.errors import DecodeError
from recspec.formats import Divergence
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import encode, from_document

from . import _matrix_smt_facts as _facts
from . import _mutate
from ._contract import ContractViolation, Divergent, refuse_variant
from ._dictionary import render, unique
from ._matrix_smt_typed import typed_view
from ._mutate import BYTE_MUTATION_RATE
from ._oracles import (
    check_located,
    check_model_view,
    check_profiles,
    check_recounted,
    check_rederived,
    check_refusal,
    check_round_trip,
    sampled,
)

__all__ = [
    "BYTE_MUTATION_RATE",
    "EXTENSION",
    "TARGETS",
    "ContractViolation",
    "Divergent",
    "derive_seeds",
    "describe_input",
    "dictionary_entries",
    "dictionary_text",
    "divergence_kind",
    "fast_path_took_part",
    "fuzz_diff",
    "fuzz_ksy",
    "fuzz_ref",
    "mutate",
    "synthetic_seeds",
    "use_variant",
]

EXTENSION = ".bson"
#: How often a structural edit is followed by a framing break.
FRAMING_BREAK_RATE = 0.125
#: Deepest value tree the mutator builds (deeper inputs are only byte-mutated).
MAX_MUTATION_DEPTH = 12


#: What a :class:`Divergent` broke.
_COMPARED = ("recspec.reference.matrix_smt vs recspec._ksy.matrix_smt_record vs bson "
             "(compared by recspec.conformance.matrix_smt._xcheck.differential)")


def divergence_kind(d: Divergence) -> str:
    """A divergence's signature: the reader and the message's first clause without numbers and details."""
    text = re.sub(r"\([^()]*\)", "", d.message)
    text = re.sub(r"\d+", "N", text.split(":", 1)[0])
    return f"Divergent:{d.reader}:{text.strip()[:100]}"


# --- harnesses ---------------------------------------------------------------------------


def _findings(report: Any) -> list[tuple[Any, ...]]:
    return [(f.rule, f.severity.value, f.message, f.offset, f.path) for f in report.findings]


#: An element ``{}`` under a decimal key: where the checker may count a run of empty frames in
#: bulk, a shortcut only its fast path takes (whatever the element's type byte, to be safe).
_EMPTY_FRAME = re.compile(rb"[0-9]\x00\x05\x00\x00\x00\x00")


def fast_path_took_part(report: Any, data: bytes) -> bool:
    """Whether ``check_stream``'s fast path did anything on ``data``: proved a frame clean
    (``fast_path_frames`` in the report's evidence) or may have counted a run of empty frames
    in bulk. When it did neither, the fast and the full walk ran the same code on every frame
    (a frame the fast path declines is left as it was), so their reports cannot differ."""
    return bool(report.evidence.get("fast_path_frames")) or _EMPTY_FRAME.search(data) is not None


#: The second opinion (``rederived``, ``recounted``) runs on one input in this many, the reading against
#: pymongo (``model-view``) on one in ``MODEL_VIEW_ONE_IN``, each chosen by a hash of the bytes (``sampled``:
#: a crash reproduces): on every input the two cost about a tenth of an execution, on these shares about 4 %
#: (fuzz/README.md, "Matrix-SMT: the second opinion of every decidable rule").
SECOND_OPINION_ONE_IN = 2
MODEL_VIEW_ONE_IN = 4
#: The rules whose errors make a file malformed (the structural/semantic split, ARCHITECTURE.md).
_STRUCTURAL = frozenset(r.id for r in _RULES if r.structural)


def fuzz_ref(data: bytes) -> None:
    # Invariant: for any bytes, check_stream() returns a FileReport and never
    # raises, under the profile chosen by the input's length; the report renders
    # as standard JSON; the fast path changes no finding (the full walk runs
    # whenever the fast path took part: fast_path_took_part); decode_document()
    # and the typed from_document() raise only DecodeError subclasses.
    # Both walks take the sections and frames decode_document() read whole (its ``units``, given
    # to check_stream as ``decoded``) rather than decoding them again: the same decoder over the
    # same bytes, and every rule still runs on every value (a property test holds the reports
    # equal with and without it). Past a fault decode_document() met, the walk decodes each unit
    # itself.
    profile = "compat" if len(data) & 1 else "spec"
    units: dict[int, b.Document] = {}
    try:
        doc, refused = b.decode_document(data, units=units), None
    except DecodeError as e:
        doc, refused = None, e
    # check_stream, and check_stream(..., fast_path=False) where the fast path took part: the top level
    # and the objects array (the same code in both) are walked once, the frames twice
    try:
        report, slow = check_stream_and_full_walk(io.BytesIO(data), path="<fuzz>", profile=profile, decoded=units,
                                                  walk_too=lambda fast: fast_path_took_part(fast, data))
    except DecodeError as e:
        raise ContractViolation(f"check_stream raised {type(e).__name__}: {e}") from e
    # the file's part of the report (a run's JSON adds the version, the schema and counts of verdicts)
    json.dumps(report.to_json(), allow_nan=False)
    if slow is not None and (_findings(report) != _findings(slow) or report.verdict != slow.verdict
                             or report.stats != slow.stats):
        raise ContractViolation(f"the fast path changes the report: {_findings(report)[:3]} vs "
                                f"{_findings(slow)[:3]}")
    # The oracles (fuzz/_oracles.py): findings inside the file, in a frame the walk counted; spec
    # never kinder than compat; malformed exactly when decode_document() refuses; the decoded document
    # is pymongo's reading too (model-view); every rule the document decides fired exactly where its fact
    # is broken, and ten of them as often (rederived, recounted: fuzz/_matrix_smt_facts.py);
    # a valid file's document re-encodes to its own bytes (BSON keeps every stored type).
    stats = report.stats or {}
    # (objects are read as one unit, so a fault inside the array leaves the objects count at 0)
    check_located(report, len(data), {r"^frames\[(\d+)\]": (stats.get("frames") or 0) + 1})
    check_refusal(report, refused, _STRUCTURAL)
    # the second opinion before the profiles: a rule lost under one profile names itself (the profiles'
    # invariant would name the other profile's rule it then leaves alone)
    # (on a fixed share of the inputs, chosen by their bytes: SECOND_OPINION_ONE_IN, MODEL_VIEW_ONE_IN)
    # pymongo's reading of the bytes, once for the two views that compare with it
    pymongo_read = functools.cache(lambda: _facts.pymongo_document(data))
    if doc is not None and report.verdict.value != "malformed":
        if sampled(data, MODEL_VIEW_ONE_IN):
            check_model_view(lambda: _facts.model_view(doc, data, pymongo_read), report.variant)
        if sampled(data, SECOND_OPINION_ONE_IN):
            second = functools.cache(lambda: _facts.facts_and_counts(doc))  # one walk for both oracles
            check_rederived(report, lambda: second()[0])
            check_recounted(report, lambda: second()[1])
    check_profiles(report)
    if doc is None:
        return
    if report.verdict.value == "valid":
        check_round_trip(data, doc, b.encode_document,
                         lambda again: check_stream(io.BytesIO(again), path="<fuzz>", profile=profile))
    try:
        typed = from_document(doc)
    except DecodeError:
        return
    if sampled(data, MODEL_VIEW_ONE_IN):  # the typed recording's fields against pymongo's document, by the layout
        check_model_view(lambda: _typed_view(typed, pymongo_read), report.variant)


def _typed_view(typed: Any, read: Callable[[], dict[str, Any]]) -> tuple[dict[str, str], dict[str, str]] | None:
    """``typed_view`` where pymongo reads the bytes into the document's layout; ``None`` where it does not (it
    refuses them, which ``model-view`` reports, or reads a part as another class, such as a DBRef)."""
    try:
        return typed_view(typed, read())
    except Exception:  # pymongo's refusal (bson.errors.InvalidBSON and others: model-view's to report), or a part
        return None    # of the layout pymongo reads as another class


# --- the second opinion: facts of docs/formats/matrix-smt.md re-derived from the decoded document -------


def rederived(doc: b.Document) -> dict[str, str | None]:
    """Every rule whose fact the decoded document decides (``_matrix_smt_facts.JUDGED``), re-derived
    from docs/formats/matrix-smt.md with lines of the harness's own: rule -> why ``doc`` breaks it, or
    ``None`` where its fact holds (``check_rederived``: the rule must, or must not, have fired)."""
    return _facts.facts(doc)


def fuzz_ksy(data: bytes) -> None:
    # Invariant: for any bytes, the generated Kaitai parser returns a parse or
    # raises KaitaiRejected (a DecodeError); nothing else leaves it.
    try:
        kaitai_parse(data)
    except DecodeError:
        pass


def fuzz_diff(data: bytes) -> None:
    # Invariant: for any bytes, the reference walker, the Kaitai parser and
    # pymongo agree: all accept with equal values, or all reject
    # (differential() returns nothing; Divergent otherwise).
    divergences = differential(data)
    if divergences:
        raise Divergent(divergences, None, _COMPARED, divergence_kind)


TARGETS: dict[str, Callable[[bytes], None]] = {"ref": fuzz_ref, "ksy": fuzz_ksy, "diff": fuzz_diff}


def use_variant(name: str | None) -> None:
    """Only ``None``: Matrix-SMT layouts are chosen by the input's own bytes, so a campaign cannot fix one."""
    refuse_variant("matrix-smt", name)


def describe_input(data: bytes) -> dict[str, Any]:
    """What the runner records about a crashing input besides the exception."""
    declared = int.from_bytes(data[:4], "little", signed=True) if len(data) >= 4 else None
    return {"size": len(data), "declared_length": declared}


# --- the structure-aware mutator ----------------------------------------------------------

#: The mutator's own copy of the reference codec (the BSON values, decode_document,
#: encode_document), left out of a campaign's coverage instrumentation: the mutator decodes and
#: encodes the whole document in every execution, which instrumented cost about four times as
#: much (``recspec.fuzz._mutate.uninstrumented_copy``). The harnesses use the instrumented one.
_tree = _mutate.uninstrumented_copy(b)

_NUMBERS = (0.0, -0.0, 1.0, -1.0, 0.5, 1e-3, 1.0001, 2.0, 1e308, -1e308, float("inf"), float("-inf"),
            float("nan"), 5e-324, 1 / 60)
_INTS = (0, 1, -1, 2, 3, 4, 12, 0x7F, 0x80, 0x7FFFFFFF, -0x80000000)
_STRINGS = ("", "i", "d", "destroyed", "instantiated", "x", "box", "sphere", "capsule", "convex", "cube", "v", "r",
            "s", "c", "md", "\u00e9", "\U0001f600")
_KEYS = ("objects", "frames", "id", "name", "color", "static", "type", "half_dimentions", "radius", "half_height",
         "vertices", "states", "cmd", "t", "time", "i", "m", "p", "r", "ox", "oy", "oz", "vx", "vy", "vz", "ex",
         "ey", "ez", "sr", "sx", "sy", "sz", "rx", "ry", "rz", "rw", "g", "b", "o", "0", "1", "2", "3", "")


def _random_scalar(rng: random.Random) -> Any:
    k = rng.randrange(12)
    if k == 0:
        return rng.choice(_NUMBERS)
    if k == 1:
        return rng.choice(_INTS)
    if k == 2:
        return _tree.Int64(rng.choice(_INTS + (2**40, -(2**63))))
    if k == 3:
        return rng.choice(_STRINGS)
    if k == 4:
        return rng.random() < 0.5
    if k == 5:
        return None
    if k == 6:
        return _tree.Array.of_values([rng.choice(_NUMBERS) for _ in range(rng.choice((0, 2, 3, 4, 5)))])
    if k == 7:
        return _tree.Binary(rng.choice((0, 2, 5)), b"\x01\x00\x00\x00x" if rng.random() < 0.5 else b"")
    t = _tree
    return rng.choice((t.ObjectId(bytes(12)), t.DateTime(0), t.Regex("a", "i"), t.Code("x"), t.Symbol("s"),
                       t.Timestamp(1), t.Decimal128(bytes(16)), t.MinKey(), t.MaxKey(), t.Undefined(),
                       t.CodeWithScope("x", t.Document.of(("a", 1))), t.DBPointer("n", bytes(12))))


def _containers(node: Any, depth: int = 0, out: list[Any] | None = None) -> list[Any]:
    """Every document and array in the tree (for picking a place to edit)."""
    out = [] if out is None else out
    if isinstance(node, _tree.Document) and depth <= MAX_MUTATION_DEPTH:
        out.append(node)
        for v in node.values:
            _containers(v, depth + 1, out)
    return out


def _mutate_value(rng: random.Random, value: Any) -> Any:
    t = type(value)
    if t is float:
        return rng.choice((rng.choice(_NUMBERS), value * rng.choice((-1, 2, 0.5, 1e9)), float(int(value))
                           if value == value and abs(value) < 1e18 else 0, value + 1e-9))
    if t is int:
        new = rng.choice((float(value), value + rng.choice((-1, 1)), -value, rng.choice(_INTS), str(value)))
        # beyond int32 the encoder writes an int64, which decodes as Int64: the tree says so too (_TREES)
        return _tree.Int64(new) if type(new) is int and not -(1 << 31) <= new < (1 << 31) else new
    if t is str:
        return rng.choice((rng.choice(_STRINGS), value + "x", value[:-1], value.upper()))
    if isinstance(value, _tree.Array) and value.values:
        vals = list(value.values)
        i = rng.randrange(len(vals))
        vals[i] = _mutate_value(rng, vals[i])
        return _tree.Array.of_values(vals)
    return _random_scalar(rng)


def _edit(rng: random.Random, root: Any, containers: list[Any]) -> bool:
    """One edit of a container; ``False`` when it made two places share one value (a
    duplicate or a graft), which a decoded tree never does (see ``_TREES``)."""
    node = rng.choice(containers)
    exact = True
    n = len(node.keys)
    op = rng.randrange(9)
    if rng.random() < BOUNDARY_RATE:  # the boundary edits (BOUNDARY_EDITS): at a rule's edge, not anywhere
        done = _boundary_edit(rng, rng.randrange(BOUNDARY_EDITS), node, containers)
        if done is not None:
            return done
        op = rng.randrange(3)  # none applies to this node: change a value instead
    if op <= 2 and n:  # change a value
        i = rng.randrange(n)
        node.values[i] = _mutate_value(rng, node.values[i])
    elif op == 3 and n:  # delete an element
        i = rng.randrange(n)
        del node.keys[i], node.values[i]
    elif op == 4 and n:  # duplicate an element (same key)
        i = rng.randrange(n)
        node.keys.insert(i + 1, node.keys[i])
        node.values.insert(i + 1, node.values[i])
        exact = False
    elif op == 5:  # insert a new element
        key = str(n) if isinstance(node, _tree.Array) else rng.choice(_KEYS)
        node.keys.append(key)
        node.values.append(_random_scalar(rng))
    elif op == 6 and n >= 2:  # swap two elements (keys move with them)
        i, j = rng.sample(range(n), 2)
        node.keys[i], node.keys[j] = node.keys[j], node.keys[i]
        node.values[i], node.values[j] = node.values[j], node.values[i]
    elif op == 7 and n:  # rename a key
        node.keys[rng.randrange(n)] = rng.choice(_KEYS)
    else:  # graft a subtree from elsewhere in the file
        donor = rng.choice(containers)
        if donor.values and n:
            node.values[rng.randrange(n)] = rng.choice(donor.values)
            exact = False
    node._map = None
    return exact


#: Numbers at the edges of the format document's ranges: 0 and the values beside it (sizes > 0, times
#: >= 0, ids >= 0, colours in [0, 1]), 1 and beside it (colours, unit quaternions), -1.
_EDGES = (0.0, 0.0, -0.0, 5e-324, -5e-324, 1.0, 1.0, math.nextafter(1.0, 2.0), math.nextafter(1.0, 0.0), -1.0,
          1.0 + 1e-3, 1.0 - 1e-3, 1.0011, 0.9989)


def _as_stored(value: Any) -> Any:
    """An int beyond int32 as the Int64 the encoder writes for it (what decoding gives back, see ``_TREES``)."""
    return _tree.Int64(value) if type(value) is int and not -(1 << 31) <= value < (1 << 31) else value


def _nudged(rng: random.Random, v: Any, steps: tuple[int, ...] = (0, 0, -1, 1)) -> Any:
    """``v`` itself or just beside it: equal, one below or above (an int by 1, a double by one ulp or 1)."""
    step = rng.choice(steps)
    if type(v) is float:
        if not step or not math.isfinite(v):
            return v
        return math.nextafter(v, step * math.inf) if rng.random() < 0.5 else v + step
    return _as_stored(int(v) + step)


def _numbers_at(node: Any) -> list[int]:
    return [i for i, v in enumerate(node.values) if type(v) in (float, int, _tree.Int64)]


#: The boundary edits, each generic over the tree (no rule named): ``0`` a number to a range's edge or one
#: step beside its value; ``1`` a number to the value the same key holds elsewhere (an earlier frame's time,
#: another object's id), or to a sibling's (a ray's end to its origin), equal or one step beside it; ``2``
#: an array entry repeated, the keys renumbered (two states for one id, one id twice, a frame again for
#: the bulk path's runs); ``3`` a value to its type's neighbour (int32, int64, double of one number; a
#: boolean for 0/1; a string for a number).
BOUNDARY_EDITS = 4
#: How often an edit is a boundary edit.
BOUNDARY_RATE = 0.4


def _by_field(containers: list[Any]) -> dict[tuple[str, str], list[tuple[Any, int]]]:
    """Every number in the tree by its field, ``(its container's key in the parent, its own key)`` with
    ``"[]"`` for an array's element (``("half_dimentions", "[]")``, ``("[]", "t")``), so that an edit picks
    a field first, each with one chance, then a value of it: a recording has a few frame times and box
    sizes, and many position and rotation components."""
    fields: dict[tuple[str, str], list[tuple[Any, int]]] = {}
    parents: dict[int, str] = {}
    for c in containers:
        for k, v in zip(c.keys, c.values):
            if isinstance(v, _tree.Document):
                parents[id(v)] = "[]" if isinstance(c, _tree.Array) else k
    for c in containers:
        field = parents.get(id(c), "")
        for i, v in enumerate(c.values):
            if type(v) in (float, int, _tree.Int64):
                fields.setdefault((field, c.keys[i] if not isinstance(c, _tree.Array) else "[]"), []).append((c, i))
    return fields


def _boundary_edit(rng: random.Random, op: int, node: Any, containers: list[Any]) -> bool | None:
    """One of the ``BOUNDARY_EDITS`` on ``node``; ``None`` when it has nothing to apply to there (else
    whether the tree is still exact, as ``_edit``)."""
    if op <= 1:  # a number picked by its field: (its container's key, its key)
        fields = _by_field(containers)
        if not fields:
            return None
        node, i = rng.choice(fields[rng.choice(sorted(fields))])
    numbers = _numbers_at(node)
    if op == 0 and numbers:
        v = node.values[i]
        node.values[i] = rng.choice(_EDGES) if rng.random() < 0.5 else _nudged(rng, v, (-1, 1))
        if type(v) is not float and type(node.values[i]) is float and node.values[i].is_integer() \
                and rng.random() < 0.5:
            node.values[i] = _as_stored(int(node.values[i]))  # an edge kept as an integer (an id of -1, 0)
    elif op == 1 and numbers:
        key = node.keys[i]
        if isinstance(node, _tree.Array) or rng.random() < 0.3:  # a sibling's number
            donors = [(node, j) for j in numbers if j != i]
        else:  # the same key's number elsewhere
            donors = [(c, j) for c in containers if c is not node for j, k in enumerate(c.keys)
                      if k == key and type(c.values[j]) in (float, int, _tree.Int64)]
        if not donors:
            return None
        c, j = rng.choice(donors)
        node.values[i] = _nudged(rng, c.values[j])
    elif op == 2 and isinstance(node, _tree.Array) and node.values:
        i = rng.randrange(len(node.values))
        node.values.insert(rng.randrange(len(node.values) + 1), node.values[i])
        node.keys = [str(k) for k in range(len(node.values))]
        node._map = None
        return False  # two places share one value
    elif op == 3 and node.values:
        i = rng.randrange(len(node.values))
        v = node.values[i]
        t = type(v)
        if t is float and v.is_integer() and abs(v) < 2**63:
            node.values[i] = rng.choice((_as_stored(int(v)), _tree.Int64(int(v))))
        elif t is int or t is _tree.Int64:
            node.values[i] = rng.choice((float(v), _tree.Int64(v), bool(v) if v in (0, 1) else str(v)))
        elif t is bool:
            node.values[i] = rng.choice((int(v), float(v), None))
        elif t is str:
            node.values[i] = rng.choice((_tree.Symbol(v), _tree.Code(v), None, 0))
        else:
            return None
    else:
        return None
    node._map = None
    return True


def _break_framing(rng: random.Random, data: bytes) -> bytes:
    """One edit that breaks the BSON framing on purpose."""
    buf = bytearray(data)
    op = rng.randrange(4)
    if op == 0 and len(buf) > 8:  # a length field (found by the type bytes that precede one) off by a little
        spots = [m.end() for m in re.finditer(rb"[\x02\x03\x04\x05\x0d\x0e\x0f][^\x00]{0,20}\x00", bytes(buf))]
        at = rng.choice(spots) if spots else 0
        if at + 4 <= len(buf):
            (n,) = struct.unpack_from("<i", buf, at)
            struct.pack_into("<i", buf, at, n + rng.choice((-5, -1, 1, 2, 4)))
    elif op == 1:
        del buf[rng.randrange(len(buf) + 1):]
    elif op == 2:  # a boolean byte
        spots = [m.end() for m in re.finditer(rb"\x08[a-z0-9_]{1,16}\x00[\x00\x01]", bytes(buf))]
        if spots:
            at = rng.choice(spots) - 1
            buf[at] = rng.choice((2, 2, 3, 0xFF))
    else:
        spots = [m.start() for m in re.finditer(rb"[\x01\x02\x03\x04\x08\x10][a-z0-9_]{1,16}\x00", bytes(buf))]
        if spots:  # a type byte to one that is no BSON type, or to its neighbour
            at = rng.choice(spots)
            buf[at] = rng.choice((0x00, 0x14, 0x06, 0x7F, 0x80, buf[at] - 1, buf[at] + 1))
    return bytes(buf)


#: The value trees of the mutator's latest outputs, by their bytes. libFuzzer mostly mutates the
#: input it has just run (its mutation depth), so the next call often finds that input's tree here
#: instead of decoding it. A tree is kept only when it is exactly what decoding its bytes gives
#: (no framing break, no value shared by two places, ints beyond int32 as Int64), so a call makes
#: the same output with or without it (a test holds the two equal); it is taken out when used,
#: since the edits change it in place. At most ``_TREES_MAX``, the oldest dropped first.
_TREES: dict[bytes, Any] = {}
_TREES_MAX = 8
#: Whether :func:`mutate` keeps and uses ``_TREES`` (the tests compare it with decoding every input).
remember_trees = True


def _parse(data: bytes) -> Any:
    tree = _TREES.pop(data, None) if remember_trees else None
    return _tree.decode_document(data) if tree is None else tree


def _mutate_structure(rng: random.Random, root: Any, max_size: int) -> bytes:
    """One to three edits of the value tree, re-encoded; now and then a framing break after."""
    containers = _containers(root)  # once: an edit of a node another edit removed is lost, which is harmless
    exact = True
    for _ in range(rng.choice((1, 1, 2, 3))):
        exact = _edit(rng, root, containers) and exact
    breaking = rng.random() < FRAMING_BREAK_RATE
    if breaking and containers and rng.random() < 0.25:  # a boolean for _break_framing to give a byte of 2
        node = rng.choice(containers)
        node.keys.append(str(len(node.keys)) if isinstance(node, _tree.Array) else rng.choice(("static", "i", "t")))
        node.values.append(rng.random() < 0.5)
        node._map = None
    out: bytes = _tree.encode_document(root)
    if breaking:
        return _break_framing(rng, out)
    if exact and remember_trees and len(out) <= max_size:
        if len(_TREES) >= _TREES_MAX:
            del _TREES[next(iter(_TREES))]
        _TREES[out] = root
    return out


def mutate(data: bytes, max_size: int, seed: int, *,
           byte_mutate: Callable[[bytes, int], bytes] | None = None) -> bytes:
    """atheris custom mutator: ``(data, max_size, seed) -> bytes`` of at most ``max_size`` bytes.

    Structure-aware when ``data`` decodes as BSON (see the module docstring), else
    byte mutation (``recspec.fuzz._mutate``: the same outer logic for every format).
    """
    return _mutate.mutate(data, max_size, seed, parse=_parse, mutate_structure=_mutate_structure,
                          tokens=_TOKENS, byte_mutate=byte_mutate)


# --- seeds ---------------------------------------------------------------------------------

#: Seed files longer than this are also cut down to their first frames.
PREFIX_BYTES = 8192


def synthetic_seeds() -> list[tuple[str, bytes]]:
    """Seeds that need no corpus: the base recording in both encodings, a tiny document, and the base
    recording at the edges of its ranges (:func:`edge_seed`)."""
    return [("base-spec", encode(BASE, profile="spec")), ("base-compat", encode(BASE, profile="compat")),
            ("empty", b.encode_document(b.Document.of(("objects", b.Array()), ("frames", b.Array())))),
            ("edges", edge_seed())]


#: The sizes docs/formats/matrix-smt.md requires > 0 (objects' and debug commands').
_SIZES = frozenset(("radius", "half_height", "sr", "sx", "sy", "sz"))


def edge_seed() -> bytes:
    """The base recording, valid, with its numbers at the edges of the document's ranges, so that one
    step of a number (the mutator's boundary edits) crosses one: every size the smallest positive double,
    every frame at the first frame's time (never decreasing: equal is the edge), every ray's end one ulp
    from its origin."""
    root = _tree.decode_document(encode(BASE, profile="spec"))  # the mutator's copy: _containers reads it
    first: Any = None
    for node in _containers(root):
        keys, values = node.keys, node.values
        for i, (k, v) in enumerate(zip(keys, values)):
            if k in _SIZES and type(v) is float:
                values[i] = 5e-324
            elif k == "half_dimentions" and isinstance(v, _tree.Array):
                v.values = [5e-324] * len(v.values)
            elif k == "t" and type(v) is float and "states" in node:
                first = v if first is None else first
                values[i] = first
        if node.get("t") == "r" and all(type(node.get(k)) is float for k in ("ox", "oy", "oz")):
            for o, e in (("ox", "ex"), ("oy", "ey"), ("oz", "ez")):
                if e in keys:
                    values[keys.index(e)] = node.get(o)
            if "ey" in keys:
                values[keys.index("ey")] = math.nextafter(node.get("oy"), math.inf)
        node._map = None
    return bytes(_tree.encode_document(root))


def derive_seeds(data: bytes, max_len: int) -> list[bytes]:
    """A small input from a large seed file: the same document with only its first
    frames (at most ``min(max_len, PREFIX_BYTES)`` bytes)."""
    limit = min(max_len, PREFIX_BYTES)
    if len(data) <= limit:
        return []
    try:
        root = b.decode_document(data)
    except DecodeError:
        return [data[:limit]]
    frames = root.get("frames")
    if not isinstance(frames, b.Array):
        return []
    i = root.keys.index("frames") if "frames" in root.keys else -1
    keep = list(frames.values)
    while keep:
        root.values[i] = b.Array.of_values(keep)
        out = b.encode_document(root)
        if len(out) <= limit:
            return [out]
        keep = keep[:len(keep) // 2]
    return []


# --- dictionary ----------------------------------------------------------------------------


def dictionary_entries() -> list[tuple[str, bytes]]:
    """The libFuzzer dictionary: element headers of the recording's keys, type bytes,
    lengths and values. ``fuzz/dictionaries/matrix-smt.dict`` is this list rendered by
    :func:`dictionary_text` (a test keeps the two equal)."""
    entries: list[tuple[str, bytes]] = []
    typed = (("double", 1), ("string", 2), ("document", 3), ("array", 4), ("bool", 8), ("int32", 0x10))
    for key in _KEYS[:-5]:
        for tname, code in typed:
            if (key in ("objects", "frames", "states", "cmd", "color", "half_dimentions", "vertices", "p", "r")) == \
                    (code == 4) or (key == "cmd" and code == 2):
                entries.append((f"{tname}_{key}", bytes((code,)) + key.encode() + b"\x00"))
    entries += [(f"type_{i:02x}", bytes((i,))) for i in (*range(1, 0x14), 0x7F, 0xFF)]
    entries += [
        ("len_empty_doc", struct.pack("<i", 5)),
        ("empty_doc", b"\x05\x00\x00\x00\x00"),
        ("len_vec3_doubles", struct.pack("<i", 38)),
        ("len_quat_doubles", struct.pack("<i", 49)),
        ("len_max", struct.pack("<i", 0x7FFFFFFF)),
        ("len_negative", struct.pack("<i", -1)),
        ("str_i", b"\x02\x00\x00\x00i\x00"),
        ("str_d", b"\x02\x00\x00\x00d\x00"),
        ("str_destroyed", b"\x0a\x00\x00\x00destroyed\x00"),
        ("str_empty", b"\x01\x00\x00\x00\x00"),
        ("bool_2", b"\x02"),
        ("double_one", struct.pack("<d", 1.0)),
        ("double_nan", struct.pack("<Q", 0x7FF8000000000000)),
        ("double_inf", struct.pack("<d", float("inf"))),
        ("double_frame", struct.pack("<d", 1 / 60)),
    ]
    return unique(entries)


def dictionary_text() -> str:
    return render([
        "libFuzzer dictionary for Matrix-SMT recordings (BSON): element headers of the",
        "recording's keys, type bytes, length fields and values.",
        "Generated by recspec.fuzz.matrix_smt.dictionary_text(); tests/test_fuzz_matrix_smt.py",
        "checks that this file matches it. Do not edit by hand.",
    ], dictionary_entries())


_TOKENS = tuple(value for _, value in dictionary_entries())
