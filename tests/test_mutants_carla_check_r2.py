"""The CARLA checker (conformance/carla/_check.py) after its walk took time packets and EventAdd
chunks a shorter way: an actor of the INVALID type (research notes section 6: in 0.9.4-0.9.5 the
types are 0..3 and 4 is INVALID) with a fresh id, alone or beside clean records, is CARLA-ENUM-001 at
its record. Logs are made byte by byte with tests/build_carla.py. Written
against the survivors tools/mutate.py found in the module when it was measured again."""

from __future__ import annotations

import pytest
from build_carla import ADD, actor, check, counted, empty_middle, found, frame, log, offsets


@pytest.mark.parametrize(("kinds", "bad"), [((4,), [0]), ((0, 4), [1]), ((4, 3, 2), [0]), ((1, 4, 4), [1, 2])])
def test_an_actor_of_the_invalid_type_with_a_fresh_id(kinds: tuple[int, ...], bad: list[int]) -> None:
    data = log(frame(1, counted(ADD, [actor(5 + i, kind=k) for i, k in enumerate(kinds)]), *empty_middle(),
                     last=True))
    payload = offsets(data)[1] + 5
    rec = "frame[0]/packet[1]:EventAdd/record"
    for fast in (True, False):
        report = check(data, fast=fast)
        assert found(report, "CARLA-ENUM-001") == [(payload, None, f"{rec}[{i}].type") for i in bad]
        assert [f.actual for f in report.findings if f.rule == "CARLA-ENUM-001"] == [4] * len(bad)
