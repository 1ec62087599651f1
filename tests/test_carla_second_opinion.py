"""CARLA's ``ref`` harness's second opinion (fuzz/carla.py ``rederived``): the rules it judges,
listed here from docs/formats/carla.md rather than taken from the harness so that a rule dropped from
``rederived`` fails a test; no false alarm on the real files or the seeds; a lost finding of each rule breaks
``Invariant:rederived:<rule>`` on its witness (tests/witness_carla.py). tests/test_fuzz_second_opinion.py
says what the second opinion is; tests/second_opinion.py holds the shared steps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import witness_carla
from hypothesis import assume, given
from hypothesis import strategies as st
from second_opinion import (
    LOST_FINDING_SETTINGS,
    agrees_on_real_file,
    lost_finding_breaks_rederived,
    seeds_are_judged,
)

from recspec.conformance.carla import RULES as carla_rules
from recspec.errors import DecodeError
from recspec.fuzz import carla
from recspec.reference.carla import decode as carla_decode

FORMAT = "carla"
#: the rules its second opinion can show broken (every rule of docs/formats/carla.md that the decoded model
#: decides: header fields, strings, packet ids, frame bracketing and times, the writer's order, actor
#: lifetimes, the enumerations and the flags)
JUDGED = ("CARLA-HEADER-001", "CARLA-HEADER-002", "CARLA-HEADER-003", "CARLA-HEADER-004", "CARLA-STRING-001",
          "CARLA-STRING-002", "CARLA-PACKET-002", "CARLA-PACKET-003", "CARLA-PACKET-004", "CARLA-FRAME-001",
          "CARLA-FRAME-002", "CARLA-FRAME-003", "CARLA-FRAME-004", "CARLA-FRAME-005", "CARLA-FRAME-006",
          "CARLA-FRAME-007", "CARLA-FRAME-008", "CARLA-FRAME-009", "CARLA-FRAME-010", "CARLA-FRAME-011",
          "CARLA-ORDER-001", "CARLA-ORDER-002", "CARLA-ACTOR-001", "CARLA-ACTOR-002", "CARLA-ACTOR-003",
          "CARLA-ENUM-001", "CARLA-ENUM-002", "CARLA-ENUM-003", "CARLA-ENUM-004", "CARLA-ENUM-005", "CARLA-VALUE-001")
#: the rules it does not judge, each with the reason and the invariant that covers it instead
NOT_JUDGED = {
    "CARLA-PACKET-001": "a size that disagrees with the layout: the decoder refuses the file (refusal)",
    "CARLA-STREAM-001": "the file ends inside a packet: the decoder refuses it (refusal, located)",
    "CARLA-STREAM-002": "trailing bytes: the decoder refuses them (refusal, located)",
    "CARLA-LIMIT-001": "a packet over the size limit: the decoder refuses it (refusal)",
    "CARLA-XCHECK-001": "the Kaitai parser's agreement: the diff harness compares the two readings",
}


def _documented_rules() -> set[str]:
    """The rule anchors of docs/formats/carla.md (``#### CARLA-...:``)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "formats" / "carla.md").read_text(encoding="utf-8")
    return set(re.findall(r"^#### (CARLA-[A-Z]+-\d{3}):", text, re.MULTILINE))


def test_every_rule_is_judged_or_has_a_reason_not_to_be() -> None:
    """A rule added to the catalog or the document fails here until the second opinion judges it or
    NOT_JUDGED says why it cannot; the harness's list is this one."""
    catalog = {r.id for r in carla_rules}
    assert catalog == _documented_rules()
    assert set(JUDGED).isdisjoint(NOT_JUDGED)
    assert catalog == set(JUDGED) | set(NOT_JUDGED), sorted(catalog ^ (set(JUDGED) | set(NOT_JUDGED)))
    assert set(carla.REDERIVED) == set(JUDGED)


#: real files from the format's own tools (corpus/real, or ../shared/real)
REAL_FILES = ("carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log")

def expected(data: bytes) -> dict[str, str | None]:
    """The harness's second opinion on ``data`` (``{}`` when the decoder refuses it)."""
    try:
        variant = carla.variant_of(data) or carla.DEFAULT_VARIANT
        return carla.rederived(carla_decode(data, variant=variant), variant.name)
    except DecodeError:
        return {}


@pytest.mark.parametrize("name", REAL_FILES)
def test_the_second_opinion_agrees_on_real_files(name: str) -> None:
    agrees_on_real_file(carla, expected, name)


def test_the_seeds_are_judged_and_agree() -> None:
    seeds_are_judged(FORMAT, expected)


@pytest.mark.parametrize("rule", JUDGED)
@LOST_FINDING_SETTINGS
@given(data=st.data())
def test_a_lost_finding_breaks_rederived(rule: str, data: st.DataObject) -> None:
    w = data.draw(witness_carla.WITNESSES[rule](), label="witness")
    assume(not w.limits)
    lost_finding_breaks_rederived(carla, expected, rule, w.data)
