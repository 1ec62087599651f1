"""conformance/matrix_smt/_runs.py's guards: a layout is made only of a frame the fast path
accepted (doubles, int32s, strings, documents and arrays; eight numbers a state and a time).
Anything else is refused with ValueError, which ``FrameRuns._layout`` turns into "no run" (the
frames then go through the fast path or the full walk one by one). The frames are pymongo's
``bson.encode`` of small documents. The runs' findings themselves are held to the full walk in
tests/test_mutants_matrix_smt_fastpath.py and tests/test_matrix_smt_runs.py."""

from __future__ import annotations

import bson
import pytest

from recspec.conformance.matrix_smt import _runs


def _frame(**values: object) -> bytes:
    return bson.encode(values)


@pytest.mark.parametrize("value", [True, None, 2**40, b"\x01"], ids=["bool", "null", "int64", "binary"])
def test_a_frame_with_another_type_of_value_has_no_layout(value: object) -> None:
    raw = _frame(states=[], cmd=[], t=0.5, extra=value)
    with pytest.raises(ValueError, match="type 0x"):
        _runs._Layout(raw, 0, False)
    assert _runs.FrameRuns(None)._layout(raw, 0, False) is None  # type: ignore[arg-type]


def test_a_frame_whose_numbers_are_not_its_states_has_no_layout() -> None:
    raw = _frame(states=[], cmd=[], t=0.5, dt=1.0)  # two numbers, no state: not 8 * 0 + 1
    with pytest.raises(ValueError, match="8 numbers a state"):
        _runs._Layout(raw, 0, False)
    assert _runs.FrameRuns(None)._layout(raw, 0, False) is None  # type: ignore[arg-type]


def test_a_frame_of_the_spec_shape_has_a_layout_of_its_numbers() -> None:
    """{states: [one state], cmd: [], t}: the time is the last number; the numbers' bytes are masked
    out, the id and everything else kept."""
    state = {"id": 4, "i": "i", "m": "", "p": [1.5, 2.5, 3.5], "r": [0.0, 0.0, 0.0, 1.0]}
    raw = _frame(states=[state], cmd=[], t=0.25)
    layout = _runs._Layout(raw, 1, False)
    assert layout.size == len(raw) and layout.states == 1 and layout.time_index == 7
    assert layout.ids == frozenset({4}) and not layout.int_time
    assert layout.fmt.count("d") == 8 and "i" not in layout.fmt  # the id is a fixed byte, not a number
    masked = sum(1 for b in layout.mask if b == 0)
    assert masked == 8 * 8  # seven doubles of the state and the time
    assert layout.fits(raw)
    other = _frame(states=[{**state, "p": [9.0, -1.0, 0.5]}], cmd=[], t=7.0)
    assert layout.fits(other)
    assert not layout.fits(_frame(states=[{**state, "id": 5}], cmd=[], t=0.25))  # another object
