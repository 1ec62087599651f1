"""CARLA's ``ref`` harness's second opinion (fuzz/carla.py ``rederived``): the rules it judges,
listed here from docs/formats/carla.md rather than taken from the harness so that a rule dropped from
``rederived`` fails a test; no false alarm on the real files or the seeds; a lost finding of each rule breaks
``Invariant:rederived:<rule>`` on its witness (tests/witness_carla.py). tests/test_fuzz_second_opinion.py
says what the second opinion is; tests/second_opinion.py holds the shared steps."""

from __future__ import annotations

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

from recspec.errors import DecodeError
from recspec.fuzz import carla
from recspec.reference.carla import decode as carla_decode

FORMAT = "carla"
#: the rules its second opinion can show broken
JUDGED = ("CARLA-FRAME-003", "CARLA-FRAME-004", "CARLA-FRAME-005", "CARLA-FRAME-006", "CARLA-FRAME-008",
          "CARLA-ACTOR-002", "CARLA-ACTOR-003", "CARLA-VALUE-001", "CARLA-ENUM-003", "CARLA-ENUM-004")
#: real files from the format's own tools (corpus/real, or ../shared/real)
REAL_FILES = ("carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log")

def expected(data: bytes) -> dict[str, str | None]:
    """The harness's second opinion on ``data`` (``{}`` when the decoder refuses it)."""
    try:
        return carla.rederived(carla_decode(data, variant=carla.variant_of(data) or carla.DEFAULT_VARIANT))
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
