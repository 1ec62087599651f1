"""``Document.regular``: the BSON decoder notes, for every document and array it reads,
whether any array in its subtree has keys other than "0".."n-1" or any document repeats a
key; the checker's generic walk passes a regular subtree by (``_Walk.trust_regular``).
The flag matches the tree, and the reports do not change with it, on valid, invalid and
mutated recordings."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import check_stream
from recspec.conformance.matrix_smt._check import _Walk
from recspec.errors import DecodeError
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.strategies import matrix_files

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@contextmanager
def _every_document() -> Iterator[None]:
    _Walk.trust_regular = False
    try:
        yield
    finally:
        _Walk.trust_regular = True


def _keys_fault(doc: b.Document) -> bool:
    """Whether ``doc`` itself has the fault the generic walk reports (its own keys only)."""
    if isinstance(doc, b.Array):
        return doc.keys != [str(i) for i in range(len(doc.keys))]
    return len(set(doc.keys)) != len(doc.keys)


def _regular_by_definition(doc: b.Document) -> bool:
    return not _keys_fault(doc) and all(_regular_by_definition(v) for v in doc.values if isinstance(v, b.Document))


def _containers(v: Any) -> Iterator[b.Document]:
    if isinstance(v, b.Document):
        yield v
        for x in v.values:
            yield from _containers(x)


def _files() -> st.SearchStrategy[tuple[bytes, str, int]]:
    return st.tuples(st.one_of(matrix_files(max_frames=3), matrix_files(max_frames=3, valid=False)),
                     st.integers(0, 2**32 - 1)).map(lambda t: (*t[0], t[1]))


def _input(t: tuple[bytes, str, int]) -> bytes:
    data, _, seed = t
    return mutate(data, 1 << 16, seed) if seed % 4 else data


@SLOW
@given(_files())
def test_the_flag_is_what_the_tree_shows(t: tuple[bytes, str, int]) -> None:
    try:
        doc = b.decode_document(_input(t))
    except DecodeError:
        return
    for c in _containers(doc):
        assert c.regular is _regular_by_definition(c)


@SLOW
@given(_files())
def test_passing_regular_subtrees_by_changes_no_report(t: tuple[bytes, str, int]) -> None:
    data = _input(t)
    for fast_path in (True, False):
        report = check_stream(io.BytesIO(data), path="x", profile=t[1], fast_path=fast_path)
        with _every_document():
            again = check_stream(io.BytesIO(data), path="x", profile=t[1], fast_path=fast_path)
        assert report == again


def test_irregular_keys_are_flagged_up_the_tree_and_still_reported() -> None:
    frame = b.Document.of(("t", 0.0), ("states", b.Array(["0", "2"], [b.Document.of(("id", 0)),
                                                                           b.Document.of(("id", 1))])))
    dup = b.Document(["id", "id"], [0, 1])
    doc = b.Document.of(("objects", b.Array.of_values([dup])), ("frames", b.Array.of_values([frame])))
    data = b.encode_document(doc)
    got = b.decode_document(data)
    objects, frames = got.get("objects"), got.get("frames")
    assert (got.regular, objects.regular, objects[0].regular) == (False, False, False)
    assert (frames.regular, frames[0].regular, frames[0].get("states").regular) == (False, False, False)
    assert frames[0].get("states")[0].regular is True
    assert b.Document.of(("a", 1)).regular is None  # built in code: nothing known
    rules = {(f.rule, f.path) for f in check_stream(io.BytesIO(data), path="x", profile="spec").findings}
    assert {("MATRIX-BSON-008", "frames[0].states"), ("MATRIX-BSON-009", "objects[0].id")} <= rules
