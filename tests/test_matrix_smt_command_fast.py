"""The checker's shortcut for a debug command whose fields are all there and finite numbers, and whose
style values are finite numbers in [0, 1] (``_Walk.command``: found in C, with no call of ``number()``
per field): on valid, invalid and mutated recordings, and on commands one edit away from it, the report
is the one the field-by-field loops give."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import _check, check_stream
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.strategies import matrix_files

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _report(data: bytes, profile: str) -> Any:
    r = check_stream(io.BytesIO(data), path="x", profile=profile)
    return ([(f.rule, f.severity, f.message, f.offset, f.length, f.path) for f in r.findings],
            {p: (v.verdict, dict(v.rules)) for p, v in r.verdicts.items()}, repr(r.stats))


def _both(data: bytes, profile: str) -> tuple[Any, Any]:
    fast = _report(data, profile)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_check, "_NUMBER_CLASSES", frozenset())  # no value qualifies: every command through the loops
        loops = _report(data, profile)
    return fast, loops


@SLOW
@given(st.one_of(matrix_files(max_frames=3), matrix_files(max_frames=3, valid=False)), st.integers(0, 2**32 - 1))
def test_the_shortcut_changes_no_report(file: tuple[bytes, str], seed: int) -> None:
    data = mutate(file[0], 1 << 16, seed) if seed % 3 else file[0]
    fast, loops = _both(data, file[1])
    assert fast == loops


_VALUES = st.one_of(st.floats(-2.0, 2.0), st.sampled_from([math.nan, math.inf, -math.inf, 0.0, 1.0]),
                    st.integers(-2, 2), st.integers(-2, 2).map(b.Int64), st.booleans(), st.just("1"), st.none())


@given(st.sampled_from(sorted(_check.CMD_NEEDS)), st.data())
def test_a_command_one_edit_away_is_judged_as_the_loops_judge_it(kind: str, data: st.DataObject) -> None:
    keys = ["t", *_check.CMD_COMMON, *_check.CMD_NEEDS[kind], *_check.CMD_STYLE]
    cmd = b.Document.of(*[("t", kind)] + [(k, 0.5) for k in keys[1:]])
    edit = data.draw(st.sampled_from(["none", "value", "delete"]))
    at = data.draw(st.integers(1, len(keys) - 1))
    if edit == "value":
        cmd.values[at] = data.draw(_VALUES)
    elif edit == "delete":
        del cmd.keys[at], cmd.values[at]
    doc = b.Document.of(("objects", b.Array()),
                        ("frames", b.Array.of_values([b.Document.of(("t", 0.0), ("states", b.Array()),
                                                                    ("cmd", b.Array.of_values([cmd])))])))
    fast, loops = _both(b.encode_document(doc), data.draw(st.sampled_from(["spec", "compat"])))
    assert fast == loops


def test_a_style_value_outside_0_1_is_reported_at_its_element() -> None:
    cmd = b.Document.of(("t", "s"), ("ox", 0.0), ("oy", 0), ("oz", b.Int64(1)), ("sr", 0.25), ("o", 1.5))
    doc = b.Document.of(("objects", b.Array()),
                        ("frames", b.Array.of_values([b.Document.of(("t", 0.0), ("states", b.Array()),
                                                                    ("cmd", b.Array.of_values([cmd])))])))
    data = b.encode_document(doc)
    fast, loops = _both(data, "spec")
    assert fast == loops
    cmd_003 = [f for f in fast[0] if f[0] == "MATRIX-CMD-003"]
    assert [(f[3], f[5]) for f in cmd_003] == [(data.index(b"\x01o\x00"), "frames[0].cmd[0].o")]
