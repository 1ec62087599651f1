"""The typed decoder's shortcuts (``reference/matrix_smt/_codec.py``): a state or an object holding every
field is read through its map's lookup instead of ``_need`` per field, and a vector of numbers is made
floats in C instead of ``_number`` per element. On valid, invalid and mutated recordings the typed
recording, or the error (its message, offset and path), is the one the field-by-field reading gives."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.errors import DecodeError
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import _codec  # private on purpose: the reading compared with
from recspec.strategies import matrix_files

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _field_by_field(d: Any, path: str, keys: frozenset[str]) -> Any:
    return partial(_codec._need, d, path=path)


def _element_by_element(v: Any, n: int, path: str, at: int) -> tuple[float, ...]:
    if not isinstance(v, b.Array) or len(v) != n:
        raise _codec.ModelError(f"{path} is not an array of {n} numbers", at, path)
    return tuple(_codec._number(x, f"{path}[{i}]", at) for i, x in enumerate(v))


def _outcome(doc: b.Document) -> Any:
    try:
        return ("ok", repr(b.from_document(doc)))
    except DecodeError as e:
        return ("error", type(e).__name__, e.message, e.offset, e.path)


@SLOW
@given(st.one_of(matrix_files(max_frames=3), matrix_files(max_frames=3, valid=False)), st.integers(0, 2**32 - 1))
def test_the_shortcuts_read_what_field_by_field_reads(file: tuple[bytes, str], seed: int) -> None:
    data = mutate(file[0], 1 << 16, seed) if seed % 4 else file[0]
    try:
        doc = b.decode_document(data)
    except DecodeError:
        return
    fast = _outcome(doc)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_codec, "_fields", _field_by_field)
        mp.setattr(_codec, "_vector", _element_by_element)
        slow = _outcome(doc)
    assert fast == slow


def test_a_missing_field_is_reported_after_the_fields_before_it() -> None:
    # the state's id is a string and its "i" is missing: the id's finding, the first in the field order
    state = b.Document.of(("id", "x"), ("m", ""), ("p", b.Array.of_values([0.0] * 3)),
                          ("r", b.Array.of_values([0.0, 0.0, 0.0, 1.0])))
    with pytest.raises(DecodeError, match=r"states\[0\]\.id is not an integer"):
        _codec._read_state(state, "states[0]")
    state.values[0] = 3
    state._map = None
    with pytest.raises(DecodeError, match=r"states\[0\] has no 'i'"):
        _codec._read_state(state, "states[0]")
    # a vector with a string among its numbers: the element named, as _number names it
    with pytest.raises(DecodeError, match=r"p\[1\] is not a number"):
        _codec._vector(b.Array.of_values([1.0, "2", 3]), 3, "p", 0)
    assert _codec._vector(b.Array.of_values([1.0, 2, b.Int64(3)]), 3, "p", 0) == (1.0, 2.0, 3.0)
    with pytest.raises(DecodeError, match=r"p\[0\] is not a number"):
        _codec._vector(b.Array.of_values([True, 2.0, 3.0]), 3, "p", 0)
