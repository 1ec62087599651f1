"""NanoVer's ``ref`` harness's second opinion (fuzz/nanover.py ``rederived``): the rules it judges,
listed here from docs/formats/nanover.md rather than taken from the harness so that a rule dropped from
``rederived`` fails a test; no false alarm on the real files or the seeds; a lost finding of each rule breaks
``Invariant:rederived:<rule>`` on its witness (tests/witness_nanover.py), and a
checker that reports equal timestamps under the wrong rule is caught. tests/test_fuzz_second_opinion.py
says what the second opinion is; tests/second_opinion.py holds the shared steps."""

from __future__ import annotations

from unittest import mock

import pytest
import witness_nanover
from hypothesis import assume, given
from hypothesis import strategies as st
from second_opinion import (
    LOST_FINDING_SETTINGS,
    agrees_on_real_file,
    lost_finding_breaks_rederived,
    raises_invariant,
    seeds,
    seeds_are_judged,
)

from recspec.conformance._sink import FindingSink
from recspec.errors import DecodeError
from recspec.fuzz import nanover
from recspec.reference.nanover import Kind
from recspec.reference.nanover import decode as nanover_decode

FORMAT = "nanover"
#: the rules its second opinion can show broken (NANOVER-LIMIT-004 too, but its witnesses lower the limit, which
#: the second opinion keeps at the document's 65,536: tests/test_nanover_oracle_coverage.py reaches it)
JUDGED = ("NANOVER-TIME-001", "NANOVER-TIME-002", "NANOVER-TIME-003", "NANOVER-STATE-001", "NANOVER-HEADER-002",
          "NANOVER-PROTO-004", "NANOVER-PROTO-005", "NANOVER-FRAME-001", "NANOVER-FRAME-002", "NANOVER-FRAME-003",
          "NANOVER-FRAME-004", "NANOVER-FRAME-005", "NANOVER-FRAME-006")
#: real files from the format's own tools (corpus/real, or ../shared/real)
REAL_FILES = ("hello_vel.traj", "sim-switching-test-recording.traj", "sim-switching-test-recording.state")

def expected(data: bytes) -> dict[str, str | None]:
    """The harness's second opinion on ``data`` (``{}`` when the decoder refuses it)."""
    try:
        return nanover.rederived(nanover_decode(data, variant=nanover.kind_of(data)))
    except DecodeError:
        return {}


@pytest.mark.parametrize("name", REAL_FILES)
def test_the_second_opinion_agrees_on_real_files(name: str) -> None:
    agrees_on_real_file(nanover, expected, name)


def test_the_seeds_are_judged_and_agree() -> None:
    seeds_are_judged(FORMAT, expected)


@pytest.mark.parametrize("rule", JUDGED)
@LOST_FINDING_SETTINGS
@given(data=st.data())
def test_a_lost_finding_breaks_rederived(rule: str, data: st.DataObject) -> None:
    w = data.draw(witness_nanover.WITNESSES[rule](), label="witness")
    assume(not w.limits)
    lost_finding_breaks_rederived(nanover, expected, rule, w.data)


def test_a_timestamp_check_that_sees_equal_times_as_decreasing_breaks_rederived() -> None:
    """Two records with the same timestamp break TIME-003 (not strictly increasing), not
    TIME-002 (never decreasing); a checker that reports TIME-002 for them is caught both ways."""
    from recspec.reference.nanover import Frame, Record, Recording, encode

    data = encode(Recording(Kind.TRAJ, (Record(5, Frame(1)), Record(5, Frame(2)))))
    facts = expected(data)
    assert facts["NANOVER-TIME-003"] is not None and facts["NANOVER-TIME-002"] is None
    nanover.fuzz_ref(data)
    add = FindingSink.add

    def swapped(self: FindingSink, rule_id: str, *args: object, **kw: object) -> None:
        add(self, "NANOVER-TIME-002" if rule_id == "NANOVER-TIME-003" else rule_id, *args, **kw)  # type: ignore[arg-type]

    with mock.patch.object(FindingSink, "add", swapped), mock.patch.object(FindingSink, "count", swapped):
        e = raises_invariant(nanover, data)
    assert e is not None and e.signature() in ("Invariant:rederived:NANOVER-TIME-002",
                                               "Invariant:rederived:NANOVER-TIME-003")


def test_an_index_range_off_by_one_breaks_rederived() -> None:
    """docs/formats/nanover.md, FRAME-003: residue.chains entries index the chains, so each is below
    chain.count. On the every-key seed (chains (0, 1, 1) of 2), the last index one past its edge (2) breaks
    the rule; a checker that reads each index array's maximum one too low (an off-by-one: 2 then passes as
    1) says nothing, and the second opinion catches it."""
    from recspec.conformance.nanover import _check

    seed = next(s.data for s in seeds(FORMAT) if s.name == "valid/every-key.traj")
    at = seed.index(bytes((0, 1, 1)), seed.index(b"residue.chains"))
    bad = seed[:at + 2] + b"\x02" + seed[at + 3:]
    assert expected(seed)["NANOVER-FRAME-003"] is None
    assert expected(bad)["NANOVER-FRAME-003"] is not None
    nanover.fuzz_ref(seed)
    nanover.fuzz_ref(bad)
    maximum = _check._Walk._maximum

    def one_too_low(self: object, key: str) -> int:
        return maximum(self, key) - 1  # type: ignore[arg-type]

    with mock.patch.object(_check._Walk, "_maximum", one_too_low):
        assert raises_invariant(nanover, seed) is None  # every other index array stays below its count
        e = raises_invariant(nanover, bad)
    assert e is not None and e.signature() == "Invariant:rederived:NANOVER-FRAME-003"
