"""The Matrix-SMT cross-check compares the three readings' trees side by side (``b.same_typed``,
``_xcheck.agrees_with_pymongo``) instead of building each reading's comparable form first (``b.typed``,
``reference_form`` and ``pymongo_form``). The side-by-side answers must be the forms' answers exactly: on
drawn documents against themselves, against their own bytes read back, and against copies one edit away
(a value of another type that compares equal in Python, a signed zero, a NaN of another payload, a key
renamed, a value dropped, a document made an array), and on the corpus's files as each reader reads them.
The facts the forms keep (1, 1.0, True and Int64(1) differ; -0.0 is not 0.0; a dict keeps the last of
duplicate keys) are stated here, not taken from either function."""

from __future__ import annotations

import math
import struct
from pathlib import Path
from typing import Any

import bson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import _xcheck as X
from recspec.errors import DecodeError
from recspec.reference import matrix_smt as b
from recspec.strategies import bson_documents

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "matrix-smt"
SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _nan(payload: int) -> float:
    """A quiet NaN with ``payload`` in its low mantissa bits."""
    return struct.unpack("<d", struct.pack("<Q", 0x7FF8_0000_0000_0000 | payload))[0]


#: For a value, values that compare equal to it in Python (or are the same NaN) but are stored as
#: another BSON type or bit pattern; and a few that differ outright.
def _others(v: Any) -> list[Any]:
    t = type(v)
    if t is float:
        if math.isnan(v):
            return [_nan(1), _nan(2), float("inf")]
        return [-v, int(v) if v.is_integer() and abs(v) < 2**31 else v + 1, v * 2 + 1]
    if t is bool:
        return [int(v), float(v), not v]
    if t is int:
        return [float(v), b.Int64(v), v + 1] + ([bool(v)] if v in (0, 1) else [])
    if t is b.Int64:
        return [int(v), float(v)]
    if t is str:
        return [v + "x", b.Symbol(v)]
    if isinstance(v, b.Document):
        flipped = (b.Document if type(v) is b.Array else b.Array)(list(v.keys), list(v.values))
        out: list[Any] = [flipped]
        if v.keys:
            out.append(type(v)(v.keys[:-1], v.values[:-1]))
            out.append(type(v)([*v.keys[:-1], v.keys[-1] + "k"], list(v.values)))
        return out
    return [None, 0.0]


@st.composite
def _edited(draw: st.DrawFn) -> tuple[b.Document, b.Document]:
    """A drawn document and a copy with one value (at any depth) replaced by one of :func:`_others`."""
    doc = draw(bson_documents())
    places: list[tuple[b.Document, int]] = []

    def walk(d: b.Document) -> None:
        for i, v in enumerate(d.values):
            places.append((d, i))
            if isinstance(v, b.Document):
                walk(v)
            elif isinstance(v, b.CodeWithScope):
                walk(v.scope)

    copy = b.decode_document(b.encode_document(doc))  # a tree of its own, the same values
    walk(copy)
    assume(places)
    d, i = draw(st.sampled_from(places))
    d.values[i] = draw(st.sampled_from(_others(d.values[i])))
    return doc, copy


# --- same_typed against typed -------------------------------------------------------------------


def test_same_typed_keeps_types_signs_and_nan_payloads_apart() -> None:
    one = [1, 1.0, True, b.Int64(1)]
    for x in one:
        for y in one:
            assert b.same_typed(x, y) is (x is y)
    assert not b.same_typed(0.0, -0.0)
    assert b.same_typed(-0.0, -0.0)
    assert b.same_typed(_nan(1), _nan(1))
    assert not b.same_typed(_nan(1), _nan(2))
    assert not b.same_typed(_nan(1), 1.0)
    doc = b.Document(["a", "b"], [1.5, b.Document(["0"], [2])])
    assert b.same_typed(doc, b.Document(["a", "b"], [1.5, b.Document(["0"], [2])]))
    assert not b.same_typed(doc, b.Document(["a", "b"], [1.5, b.Array(["0"], [2])]))
    assert not b.same_typed(doc, b.Document(["a", "b"], [1.5, b.Document(["0"], [2.0])]))
    assert not b.same_typed(doc, b.Document(["a", "c"], [1.5, b.Document(["0"], [2])]))
    assert not b.same_typed(doc, b.Document(["a"], [1.5]))
    scope = b.CodeWithScope("f()", b.Document(["x"], [1]))
    assert b.same_typed(scope, b.CodeWithScope("f()", b.Document(["x"], [1])))
    assert not b.same_typed(scope, b.CodeWithScope("f()", b.Document(["x"], [b.Int64(1)])))


@SLOW
@given(bson_documents())
def test_same_typed_is_typed_on_a_document_and_its_bytes_read_back(doc: b.Document) -> None:
    back = b.decode_document(b.encode_document(doc))
    assert b.same_typed(doc, back) == (b.typed(doc) == b.typed(back))
    assert b.same_typed(doc, doc) == (b.typed(doc) == b.typed(doc))


@SLOW
@given(_edited())
def test_same_typed_is_typed_one_edit_away(pair: tuple[b.Document, b.Document]) -> None:
    doc, edited = pair
    assert b.same_typed(doc, edited) == (b.typed(doc) == b.typed(edited))
    assert b.same_typed(edited, doc) == (b.typed(edited) == b.typed(doc))


# --- agrees_with_pymongo against the forms ------------------------------------------------------


def _forms_agree(ref: Any, read: Any) -> bool:
    return X.reference_form(ref, embedded=False) == X.pymongo_form(read)


def test_agrees_with_pymongo_on_what_a_dict_keeps() -> None:
    dup = b.Document(["a", "a"], [1, 2])
    assert X.agrees_with_pymongo(dup, {"a": 2}, embedded=False)  # the last of duplicate keys
    assert not X.agrees_with_pymongo(dup, {"a": 1}, embedded=False)
    assert not X.agrees_with_pymongo(b.Document(["a"], [5]), {"a": bson.Int64(5)}, embedded=False)
    assert X.agrees_with_pymongo(b.Document(["a"], [b.Int64(5)]), {"a": bson.Int64(5)}, embedded=False)
    assert not X.agrees_with_pymongo(b.Document(["a"], [-0.0]), {"a": 0.0}, embedded=False)
    assert not X.agrees_with_pymongo(b.Document(["a"], [True]), {"a": 1}, embedded=False)
    assert not X.agrees_with_pymongo(b.Document(["a"], [1]), {"a": 1.0}, embedded=False)
    assert X.agrees_with_pymongo(b.Document(["a"], [_nan(3)]), {"a": _nan(3)}, embedded=False)
    assert not X.agrees_with_pymongo(b.Document(["a"], [_nan(3)]), {"a": _nan(4)}, embedded=False)
    arr = b.Array.of_values([1.0, "x"])
    assert X.agrees_with_pymongo(b.Document(["v"], [arr]), {"v": [1.0, "x"]}, embedded=False)
    assert not X.agrees_with_pymongo(b.Document(["v"], [arr]), {"v": [1.0]}, embedded=False)
    assert not X.agrees_with_pymongo(b.Document(["a", "b"], [1, 2]), {"b": 2, "a": 1}, embedded=False)


def _documents(value: Any) -> list[b.Document]:
    """``value`` and every document and array under it."""
    if isinstance(value, b.Document):
        return [value, *(d for v in value.values for d in _documents(v))]
    if isinstance(value, b.CodeWithScope):
        return _documents(value.scope)
    return []


def test_agrees_with_pymongo_builds_no_map_where_the_keys_are_the_dicts() -> None:
    """A document whose stored keys are the dict's keys in its order (no key repeated) is compared value by
    value in place: no key-to-value map is made (``Document.map``, kept in ``_map``). One with a repeated key
    or a "$ref" key still is, and compares as before."""
    data = (CORPUS / "valid" / "spec.bson").read_bytes()
    ref = b.decode_document(data)
    docs = _documents(ref)
    assert len(docs) > 50 and all(d._map is None for d in docs)
    assert X.agrees_with_pymongo(ref, bson.decode(data), embedded=False)
    assert [d for d in docs if d._map is not None] == []
    dup = b.Document(["v"], [b.Document(["a", "b", "a"], [1, 2, 3])])
    assert X.agrees_with_pymongo(dup, {"v": {"a": 3, "b": 2}}, embedded=False)
    assert dup.values[0]._map is not None
    not_a_ref = b.Document(["v"], [b.Document(["$ref", "$id"], [1, 2])])  # $ref not a string: stays a dict
    read = bson.decode(b.encode_document(not_a_ref))
    assert read == {"v": {"$ref": 1, "$id": 2}}
    assert X.agrees_with_pymongo(not_a_ref, read, embedded=False)
    assert not X.agrees_with_pymongo(not_a_ref, {"v": {"$ref": 1, "$id": 3}}, embedded=False)


def _pymongo(data: bytes) -> Any:
    try:
        return X.pymongo_decode(data)
    except Exception:  # noqa: BLE001 - a file pymongo rejects is no case for the value comparison
        return None


@SLOW
@given(_edited())
def test_agrees_with_pymongo_is_the_forms_comparison(pair: tuple[b.Document, b.Document]) -> None:
    doc, edited = pair
    for ref, written in ((doc, doc), (doc, edited), (edited, doc)):
        read = _pymongo(b.encode_document(written))
        assume(read is not None)
        assert X.agrees_with_pymongo(ref, read, embedded=False) == _forms_agree(ref, read)


# --- the corpus, each reader's reading ----------------------------------------------------------


def _read_by_reference(path: Path) -> bool:
    try:
        b.decode_document(path.read_bytes())
    except DecodeError:
        return False
    return True


#: the corpus files whose values the reference reads (the others are compared by accept/reject alone)
READ = [p for p in sorted(CORPUS.rglob("*.bson")) if _read_by_reference(p)]


def test_the_corpus_has_files_to_compare() -> None:
    assert len(READ) >= 20


@pytest.mark.parametrize("path", READ, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_readings_compare_as_their_forms(path: Path) -> None:
    data = path.read_bytes()
    ref = b.decode_document(data)
    try:
        kval = X.kaitai_value(X.kaitai_parse(data))
    except X.KaitaiRejected:
        kval = None
    if kval is not None:
        assert b.same_typed(ref, kval) == (b.typed(ref) == b.typed(kval))
    read = _pymongo(data)
    if read is not None:
        assert X.agrees_with_pymongo(ref, read, embedded=False) == _forms_agree(ref, read)
    assert kval is not None or read is not None  # a file the reference reads is read by another reader too


def _first_double(d: b.Document) -> tuple[b.Document, int] | None:
    for i, v in enumerate(d.values):
        if type(v) is float:
            return d, i
        if isinstance(v, b.Document):
            found = _first_double(v)
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("path", READ[:8], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_reading_that_differs_is_reported_where_the_forms_differ(path: Path, monkeypatch: Any) -> None:
    """A Kaitai reading whose first double has its sign flipped, and a pymongo reading whose first double
    is stored as a string, are each reported once, with the message the forms give."""
    data = path.read_bytes()
    ref = b.decode_document(data)
    found = _first_double(ref)
    if found is None:
        return  # no double to flip (a file of integers and strings); the others cover the comparison
    kval = b.decode_document(data)
    d, i = _first_double(kval)  # type: ignore[misc]
    d.values[i] = -d.values[i] if d.values[i] else (-0.0 if math.copysign(1.0, d.values[i]) > 0 else 0.0)
    read = X.pymongo_decode(data)
    holder = read
    for key in _path_to(ref, found[0]) or []:
        holder = holder[key]
    holder[found[0].keys[found[1]] if type(holder) is dict else found[1]] = "changed"
    monkeypatch.setattr(X, "kaitai_value", lambda _tree: kval)
    monkeypatch.setattr(X, "pymongo_decode", lambda _data: read)
    out = X.differential(data)
    assert [(d.reader, d.message) for d in out] == [
        ("kaitai", "reads other values: " + X._first_difference(b.typed(ref), b.typed(kval))),
        ("pymongo", "reads other values: " + X._first_difference(X.reference_form(ref, embedded=False),
                                                                X.pymongo_form(read))),
    ]


def _path_to(root: b.Document, target: b.Document) -> list[Any] | None:
    """The keys (an array's by index) from ``root`` down to the document ``target``."""
    if root is target:
        return []
    for i, (k, v) in enumerate(zip(root.keys, root.values)):
        if isinstance(v, b.Document):
            below = _path_to(v, target)
            if below is not None:
                return [i if type(root) is b.Array else k, *below]
    return None
