"""FindingSink.profile_verdicts makes every profile's verdict and counts in one pass with the rules'
levels looked up once per run (conformance/_sink.py ``_levels``); it must equal the rule-by-rule
reading: ``verdict_under`` and a recount of the levels, on any catalog and any findings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from recspec.conformance._sink import FindingSink
from recspec.report import PROFILES, Severity, Verdict, rule

_LEVEL = st.sampled_from([Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OFF])


@st.composite
def _catalogs(draw: st.DrawFn) -> dict:
    n = draw(st.integers(1, 6))
    return {f"R-{i}": rule(f"R-{i}", "t", "c", "e", draw(_LEVEL), draw(_LEVEL), structural=draw(st.booleans()))
            for i in range(n)}


@given(_catalogs(), st.data())
def test_profile_verdicts_equal_the_rule_by_rule_reading(rules: dict, data: st.DataObject) -> None:
    profile = data.draw(st.sampled_from(PROFILES))
    sink = FindingSink(rules, profile, max_per_rule=data.draw(st.integers(1, 3)))
    for _ in range(data.draw(st.integers(0, 12))):
        rid = data.draw(st.sampled_from(sorted(rules)))
        how = data.draw(st.sampled_from(["add", "only", "count"]))
        if how == "add":
            sink.add(rid, "m", 0)
        elif how == "only":
            sink.add(rid, "m", 0, only=data.draw(st.sampled_from(PROFILES)))
        else:
            sink.count(rid, data.draw(st.integers(0, 3)))  # a count of 0 still names the rule
    if data.draw(st.booleans()):
        sink.structural_error = True
    got = sink.profile_verdicts()
    for p in sink.profiles:
        pv = got[p]
        assert pv.verdict is sink.verdict_under(p)
        by_level = {s: sum(n for r, n in sink.counts[p].items() if rules[r].level(p) is s)
                    for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)}
        assert (pv.errors, pv.warnings, pv.infos) == (by_level[Severity.ERROR], by_level[Severity.WARNING],
                                                      by_level[Severity.INFO])
        assert pv.rules == sink.counts[p]
    # a rule object replaced under the same id (another catalog) is read with its own levels
    other = {rid: rule(rid, "t", "c", "e", Severity.ERROR, Severity.ERROR, structural=True) for rid in rules}
    again = FindingSink(other, profile)
    again.add(sorted(other)[0], "m", 0)
    assert all(pv.verdict is Verdict.MALFORMED for pv in again.profile_verdicts().values())
