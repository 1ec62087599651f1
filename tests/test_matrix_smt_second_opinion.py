"""Matrix-SMT's ``ref`` harness's second opinion (fuzz/matrix_smt.py ``rederived``): the rules it judges,
listed here from docs/formats/matrix_smt.md rather than taken from the harness so that a rule dropped from
``rederived`` fails a test; no false alarm on the real files or the seeds; a lost finding of each rule breaks
``Invariant:rederived:<rule>`` on its witness (tests/witness_matrix_smt.py). tests/test_fuzz_second_opinion.py
says what the second opinion is; tests/second_opinion.py holds the shared steps."""

from __future__ import annotations

import pytest
import witness_matrix_smt
from hypothesis import assume, given
from hypothesis import strategies as st
from second_opinion import (
    LOST_FINDING_SETTINGS,
    agrees_on_real_file,
    lost_finding_breaks_rederived,
    seeds_are_judged,
)

from recspec.errors import DecodeError
from recspec.fuzz import matrix_smt
from recspec.reference.matrix_smt import decode_document

FORMAT = "matrix-smt"
#: the rules its second opinion can show broken
JUDGED = ("MATRIX-FRAME-002", "MATRIX-OBJ-003")
#: real files from the format's own tools (corpus/real, or ../shared/real)
REAL_FILES = ("Scene1.bson",)

def expected(data: bytes) -> dict[str, str | None]:
    """The harness's second opinion on ``data`` (``{}`` when the decoder refuses it)."""
    try:
        return matrix_smt.rederived(decode_document(data))
    except DecodeError:
        return {}


@pytest.mark.parametrize("name", REAL_FILES)
def test_the_second_opinion_agrees_on_real_files(name: str) -> None:
    agrees_on_real_file(matrix_smt, expected, name)


def test_the_seeds_are_judged_and_agree() -> None:
    seeds_are_judged(FORMAT, expected)


@pytest.mark.parametrize("rule", JUDGED)
@LOST_FINDING_SETTINGS
@given(data=st.data())
def test_a_lost_finding_breaks_rederived(rule: str, data: st.DataObject) -> None:
    w = data.draw(witness_matrix_smt.WITNESSES[rule](), label="witness")
    assume(not w.limits)
    lost_finding_breaks_rederived(matrix_smt, expected, rule, w.data)
