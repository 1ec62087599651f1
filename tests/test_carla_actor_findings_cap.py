"""CARLA-ACTOR-001 findings past the per-rule cap are counted, not made.

A report stores the first ``MAX_FINDINGS_PER_RULE`` findings of a rule and counts the rest
(``FileReport.capped``): a Position packet of 300 records that name an actor never added makes
300 CARLA-ACTOR-001 findings, of which the first 100 are stored, at their records' offsets, and
only those 100 have their message and path made (the walk counts the other 200). Both walks
(``fast_path`` or not) give the same report.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from build_carla import HEADER_SIZE, POSITION, POSITION_SIZE, STATE, check, counted, frame, log, position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance import _sink
from recspec.conformance._sink import MAX_FINDINGS_PER_RULE
from recspec.reference.carla import decode_header
from recspec.strategies import carla_logs

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


def _unpacked(data: bytes, monkeypatch: pytest.MonkeyPatch, fast: bool = True) -> tuple[Any, list[str]]:
    """The report, and the kinds of the packets ``unpack_flat`` made every record of (the whole way)."""
    from recspec.conformance.carla import _check as carla_check

    kinds: list[str] = []
    unpack_flat = carla_check.dec.unpack_flat

    def counted(kind: Any, *args: Any, **kwargs: Any) -> Any:
        kinds.append(kind.name)
        return unpack_flat(kind, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(carla_check.dec, "unpack_flat", counted)
        report = check(data, fast=fast)
    return report, kinds


def test_dead_actors_alone_are_found_from_the_judged_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """No actor is ever added: an EventParent record (both its ids dead), a Position packet of three records and
    a State packet of one (its flag and enums in range): each CARLA-ACTOR-001 at its record, in file order, and
    no packet's records unpacked one by one (the judged ids tell)."""
    from build_carla import PARENT, STATE_SIZE, state

    data = log(frame(1, counted(PARENT, [bytes(8)]), counted(POSITION, [position(0), position(7), position(0)]),
                     counted(STATE, [state(9)]), last=True))
    # EventParent (0, 0): both ids dead (no EventAdd); the records start after the header, the FrameStart
    # (5 + 24 bytes), each packet's header (5) and count (2)
    parent = HEADER_SIZE + 5 + 24 + 5 + 2
    first = parent + 8 + 5 + 2
    state_at = first + 3 * POSITION_SIZE + 5 + 2
    report, kinds = _unpacked(data, monkeypatch)
    found = [(f.offset, f.length, f.path) for f in report.findings if f.rule == "CARLA-ACTOR-001"]
    assert found == [
        (parent, 8, "frame[0]/packet[1]:EventParent/record[0].database_id"),
        (parent, 8, "frame[0]/packet[1]:EventParent/record[0].database_id_parent"),
        (first, POSITION_SIZE, "frame[0]/packet[2]:Position/record[0].database_id"),
        (first + POSITION_SIZE, POSITION_SIZE, "frame[0]/packet[2]:Position/record[1].database_id"),
        (first + 2 * POSITION_SIZE, POSITION_SIZE, "frame[0]/packet[2]:Position/record[2].database_id"),
        (state_at, STATE_SIZE, "frame[0]/packet[3]:State/record[0].database_id"),
    ]
    assert report.stats["position_records"] == 3
    assert kinds == []
    slow, slow_kinds = _unpacked(data, monkeypatch, fast=False)
    assert slow.to_json() == report.to_json()
    assert slow_kinds == ["EVENT_PARENT", "POSITION", "STATE"]  # the whole way unpacks every record


@given(data=st.data())
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_overwritten_ids_give_the_same_report_by_both_walks(data: st.DataObject) -> None:
    """Logs of every variant with a few 4-byte words overwritten anywhere after the header (an actor id made
    one never added, a flag or an enum out of range, a count or a size broken), cut or not: the judged ids'
    findings (and the cap's counting) give the report of the whole way."""
    blob, _ = data.draw(carla_logs(min_frames=1, max_frames=4), label="log")
    _, header_end = decode_header(blob, 0)
    body = bytearray(blob)
    for _ in range(data.draw(st.integers(1, 4), label="words")):
        at = data.draw(st.integers(header_end, max(header_end, len(body) - 1)), label="at")
        body[at:at + 4] = data.draw(st.sampled_from([b"\x07\0\0\0", b"\xff\xff\xff\xff", b"\x02\0\0\0"])
                                    | st.binary(min_size=4, max_size=4), label="word")
    cut = data.draw(st.sampled_from([len(body), len(body) - 3]), label="cut")
    mutated = bytes(body[:cut])
    assert _check_any(mutated, True) == _check_any(mutated, False)


def _check_any(data: bytes, fast: bool) -> str:
    import io

    from recspec.conformance.carla._check import check_stream

    return json.dumps(check_stream(io.BytesIO(data), path="x", variant=None, profile="spec",
                                   fast_path=fast).to_json(), sort_keys=True)
