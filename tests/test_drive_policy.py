"""Format rules against recspec's policy: every rule says whose it is, in `recspec rules` and `explain` too.
(`recspec drive reader` noting, never failing, a reader that accepts a file breaking only recspec's own policy
rules is shown on NanoVer's runtime reader: tests/test_nanover_drive_policy.py.)"""

from __future__ import annotations

import json

import pytest

from recspec.cli import main
from recspec.formats import FORMATS, FormatInfo

#: recspec's own rules, by hand: the size, nesting and count limits, the refused protobuf group, the cross-checks.
POLICY = {"CARLA-LIMIT-001", "CARLA-XCHECK-001", "NANOVER-LIMIT-001", "NANOVER-LIMIT-002", "NANOVER-LIMIT-003",
          "NANOVER-LIMIT-004", "NANOVER-PROTO-006", "NANOVER-XCHECK-001", "MATRIX-LIMIT-001", "MATRIX-LIMIT-002",
          "MATRIX-LIMIT-003", "MATRIX-XCHECK-001", "RSIG-LIMIT-001", "RSIG-XCHECK-001"}


def test_every_rule_says_whether_it_is_the_formats_or_recspecs_policy() -> None:
    rules = [r for info in FORMATS.values() for r in info.load().RULES]
    assert {r.id for r in rules if r.policy} == POLICY
    for r in rules:
        assert r.source == ("recspec" if r.policy else "format")
        assert ("recspec's own" in r.clause) == r.policy, r.id  # the clause says so too


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_rules_and_explain_show_each_formats_policy_rules(info: FormatInfo, capsys: pytest.CaptureFixture[str]) -> None:
    own = {r.id for r in info.load().RULES}
    assert main(["rules", info.id]) == 0
    lines = capsys.readouterr().out.splitlines()
    marked = {line.split()[0] for line in lines if line.endswith("[recspec policy]")}
    assert marked == POLICY & own
    assert main(["rules", info.id, "--json"]) == 0
    by_id = {r["id"]: r["source"] for r in json.loads(capsys.readouterr().out)}
    assert {rule for rule, source in by_id.items() if source == "recspec"} == POLICY & own
    assert {rule for rule, source in by_id.items() if source == "format"} == own - POLICY
    for rule in sorted(POLICY & own)[:1]:
        assert main(["explain", rule]) == 0
        assert "source:     recspec's own policy" in capsys.readouterr().out
