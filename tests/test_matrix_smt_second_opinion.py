"""Matrix-SMT's ``ref`` harness's second opinion (fuzz/matrix_smt.py ``rederived``): the rules it judges,
listed here from docs/formats/matrix_smt.md rather than taken from the harness so that a rule dropped from
``rederived`` fails a test; no false alarm on the real files or the seeds; a lost finding of each rule breaks
``Invariant:rederived:<rule>`` on its witness (tests/witness_matrix_smt.py). tests/test_fuzz_second_opinion.py
says what the second opinion is; tests/second_opinion.py holds the shared steps."""

from __future__ import annotations

from collections.abc import Iterator

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
from recspec.formats import FORMATS
from recspec.fuzz import _matrix_smt_facts as matrix_smt_facts
from recspec.fuzz import matrix_smt
from recspec.reference.matrix_smt import decode_document

FORMAT = "matrix-smt"
#: the rules its second opinion judges: every rule of docs/formats/matrix-smt.md whose fact the decoded
#: document decides (keys, types, ranges, counts, live and destroyed ids, the running maximum of the times)
JUDGED = ("MATRIX-BSON-008", "MATRIX-BSON-009", "MATRIX-DOC-001", "MATRIX-DOC-002", "MATRIX-NUM-001",
          "MATRIX-NUM-002", "MATRIX-OBJ-001", "MATRIX-OBJ-002", "MATRIX-OBJ-003", "MATRIX-OBJ-004",
          "MATRIX-OBJ-005", "MATRIX-OBJ-006", "MATRIX-FRAME-001", "MATRIX-FRAME-002", "MATRIX-FRAME-003",
          "MATRIX-FRAME-004", "MATRIX-FRAME-005", "MATRIX-STATE-001", "MATRIX-STATE-002", "MATRIX-STATE-003",
          "MATRIX-STATE-004", "MATRIX-STATE-005", "MATRIX-QUAT-001", "MATRIX-CMD-001", "MATRIX-CMD-002",
          "MATRIX-CMD-003", "MATRIX-CMD-004")
#: the rules it leaves to another oracle: the structural ones (an error makes the verdict malformed, and
#: the refusal oracle holds that to the reference decoder refusing the bytes; the second opinion runs only
#: on bytes the decoder reads) and the cross-check (the diff target's)
NOT_JUDGED = ("MATRIX-BSON-001", "MATRIX-BSON-002", "MATRIX-BSON-003", "MATRIX-BSON-004", "MATRIX-BSON-005",
              "MATRIX-BSON-006", "MATRIX-BSON-007", "MATRIX-LIMIT-001", "MATRIX-LIMIT-002", "MATRIX-LIMIT-003",
              "MATRIX-XCHECK-001")
#: real files from the format's own tools (corpus/real, or ../shared/real)
REAL_FILES = ("Scene1.bson",)


def test_every_catalogued_rule_is_judged_or_left_with_a_reason() -> None:
    """A rule added to the catalog fails here until the second opinion judges it or says which oracle has it."""
    catalog = {r.id for r in FORMATS[FORMAT].load().RULES}
    assert set(JUDGED) | set(NOT_JUDGED) == catalog, sorted(catalog ^ (set(JUDGED) | set(NOT_JUDGED)))
    assert not set(JUDGED) & set(NOT_JUDGED)
    assert set(matrix_smt_facts.JUDGED) == set(JUDGED)  # the harness judges exactly these
    assert set(matrix_smt_facts.UNJUDGED) == set(NOT_JUDGED) and all(matrix_smt_facts.UNJUDGED.values())
    structural = {r.id for r in FORMATS[FORMAT].load().RULES if r.structural}
    assert structural <= set(NOT_JUDGED)  # judged by the refusal oracle


@pytest.fixture(autouse=True, scope="module")
def _every_input_judged() -> Iterator[None]:
    """The harness judges a hash-chosen share of the inputs (SECOND_OPINION_ONE_IN, MODEL_VIEW_ONE_IN);
    these tests give it each witness, so every input is judged here (module-scoped: Hypothesis tests)."""
    shares = matrix_smt.SECOND_OPINION_ONE_IN, matrix_smt.MODEL_VIEW_ONE_IN
    matrix_smt.SECOND_OPINION_ONE_IN = matrix_smt.MODEL_VIEW_ONE_IN = 1
    yield
    matrix_smt.SECOND_OPINION_ONE_IN, matrix_smt.MODEL_VIEW_ONE_IN = shares


def test_a_share_of_the_inputs_is_judged_in_a_campaign() -> None:
    """The shares a campaign uses (restored after this module): the second opinion on half the inputs, the
    reading against pymongo on a quarter, each chosen by the bytes (the same input, the same answer)."""
    from recspec.fuzz._oracles import sampled

    inputs = [bytes([i, j]) for i in range(64) for j in range(16)]
    assert 0.4 < sum(sampled(d, 2) for d in inputs) / len(inputs) < 0.6
    assert all(sampled(d, 2) for d in inputs if sampled(d, 4))


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
