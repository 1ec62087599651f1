"""CARLA-ACTOR-001 findings past the per-rule cap are counted, not made.

A report stores the first ``MAX_FINDINGS_PER_RULE`` findings of a rule and counts the rest
(``FileReport.capped``): a Position packet of 300 records that name an actor never added makes
300 CARLA-ACTOR-001 findings, of which the first 100 are stored, at their records' offsets, and
only those 100 have their message and path made (the walk counts the other 200). Both walks
(``fast_path`` or not) give the same report.
"""

from __future__ import annotations

from typing import Any

import pytest
from build_carla import HEADER_SIZE, POSITION, POSITION_SIZE, STATE, check, counted, frame, log, position

from recspec.conformance import _sink
from recspec.conformance._sink import MAX_FINDINGS_PER_RULE

RECORDS = 300
#: the Position packet's first record: after the header, the FrameStart packet (5 + 24 bytes), the
#: Position packet's header (5 bytes) and its u16 record count
FIRST_RECORD = HEADER_SIZE + 5 + 24 + 5 + 2


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "whole way"])
def test_dead_actor_findings_past_the_cap_are_counted_not_made(fast: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    data = log(frame(1, counted(POSITION, [position(7)] * RECORDS), counted(STATE, []), last=True))
    made = []
    add = _sink.FindingSink.add

    def spy(self: _sink.FindingSink, rule_id: str, *args: Any, **kwargs: Any) -> None:
        made.append(rule_id)
        add(self, rule_id, *args, **kwargs)

    monkeypatch.setattr(_sink.FindingSink, "add", spy)
    report = check(data, fast=fast)
    stored = [f for f in report.findings if f.rule == "CARLA-ACTOR-001"]
    assert report.verdicts["spec"].rules["CARLA-ACTOR-001"] == RECORDS
    assert report.capped == {"CARLA-ACTOR-001": RECORDS}
    assert [f.offset for f in stored] == [FIRST_RECORD + i * POSITION_SIZE for i in range(MAX_FINDINGS_PER_RULE)]
    assert [f.length for f in stored] == [POSITION_SIZE] * MAX_FINDINGS_PER_RULE
    assert stored[3].path == "frame[0]/packet[1]:Position/record[3].database_id"
    assert stored[3].message == "Position record refers to actor 7, which is not alive"
    assert made.count("CARLA-ACTOR-001") == MAX_FINDINGS_PER_RULE


def test_both_walks_give_the_same_report() -> None:
    data = log(frame(1, counted(POSITION, [position(7)] * RECORDS), counted(STATE, []), last=True))
    assert check(data, fast=True).to_json() == check(data, fast=False).to_json()
