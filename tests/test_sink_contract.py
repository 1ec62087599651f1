"""The finding sink's contract (conformance/_sink.py), held to a plain model written from its
documentation: README "Reports" (every count is the true total; at most 100 findings of a rule are
stored, the rest counted, and ``capped`` names the rules past the cap with their totals) and the
docstrings of ``add``, ``count``, ``count_again``, ``counts_now``/``counted_since``,
``only_counted``, ``room``, ``copy`` and ``add_late_findings``.

The format checkers' fast paths lean on the counting half of the sink (they count findings past the
cap without making them, and repeat a unit's counts over a run of identical units), so a wrong
count there changes a report's totals without changing any finding a test would look at.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from recspec.conformance._sink import MAX_FINDINGS_PER_RULE, FindingSink, add_late_findings, verdict_of
from recspec.report import PROFILES, FileReport, Finding, Severity, Verdict, rule

E, W, INFO, OFF = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.OFF

#: one rule of each kind the catalogs hold: (spec level, compat level, structural)
CATALOG = {
    "T-ERR": rule("T-ERR", "t", "c", "e", E),
    "T-WARN": rule("T-WARN", "t", "c", "e", W),
    "T-INFO": rule("T-INFO", "t", "c", "e", INFO),
    "T-SPEC-ONLY": rule("T-SPEC-ONLY", "t", "c", "e", E, OFF),
    "T-COMPAT-ONLY": rule("T-COMPAT-ONLY", "t", "c", "e", OFF, W),
    "T-STRUCT": rule("T-STRUCT", "t", "c", "e", E, structural=True),
    "T-STRUCT-SPEC": rule("T-STRUCT-SPEC", "t", "c", "e", E, W, structural=True),
}


def test_the_documented_cap_is_100() -> None:
    assert MAX_FINDINGS_PER_RULE == 100  # README "Reports": at most 100 per rule; `capped` {"limit": 100}


class Model:
    """What the documentation says a sink holds after each call, kept the plainest way."""

    def __init__(self, profile: str, cap: int) -> None:
        self.profile, self.cap = profile, cap
        self.profiles = tuple(PROFILES) if profile in PROFILES else (profile, *PROFILES)
        self.counts = {p: Counter() for p in self.profiles}
        self.stored: list[tuple[str, str]] = []  # (rule id, message) in the order they were stored
        self.structural = False

    def counted_under(self, rid: str, p: str) -> bool:
        return CATALOG[rid].level(p) is not OFF

    def add(self, rid: str, message: str, only: str | None) -> None:
        for p in self.profiles:
            if (only is None or only == p) and self.counted_under(rid, p):
                self.counts[p][rid] += 1
        if (only is None or only == self.profile) and self.counted_under(rid, self.profile) \
                and self.counts[self.profile][rid] <= self.cap:
            self.stored.append((rid, message))

    def count(self, rid: str, times: int) -> None:
        for p in self.profiles:
            if self.counted_under(rid, p):
                self.counts[p][rid] += times

    def verdict(self, p: str) -> Verdict:
        named = [r for r, n in self.counts[p].items() if n and CATALOG[r].level(p) is E]
        if self.structural or any(CATALOG[r].structural for r in named):
            return Verdict.MALFORMED
        return Verdict.INVALID if named else Verdict.VALID


_OPS = st.lists(st.tuples(st.sampled_from(["add", "only", "count", "repeat", "structural"]),
                          st.sampled_from(sorted(CATALOG)), st.sampled_from(PROFILES), st.integers(0, 4)),
                max_size=60)


def _compare(sink: FindingSink, model: Model) -> None:
    for p in model.profiles:
        assert {r: n for r, n in sink.counts[p].items() if n} == {r: n for r, n in model.counts[p].items() if n}
    assert [(f.rule, f.message) for f in sink.close()] == model.stored
    for rid in CATALOG:
        driving = model.counts[model.profile][rid]
        assert sink.only_counted_one(rid) is (driving >= model.cap)
        assert sink.only_counted([rid]) is (driving >= model.cap)
        assert sink.room(rid) == max(0, model.cap - driving)
    assert sink.only_counted(CATALOG) is all(model.counts[model.profile][r] >= model.cap for r in CATALOG)
    assert sink.only_counted([]) is True
    for p in model.profiles:
        assert sink.verdict_under(p) is model.verdict(p)
    assert sink.verdict() is model.verdict(model.profile)
    assert sink.structural_error is (model.verdict(model.profile) is Verdict.MALFORMED)


@given(st.sampled_from(PROFILES), st.integers(0, 4), _OPS)  # a cap of 0 stores nothing and counts all
def test_the_sink_counts_stores_and_judges_as_documented(profile: str, cap: int, ops: list) -> None:
    sink, model = FindingSink(CATALOG, profile, max_per_rule=cap), Model(profile, cap)
    for i, (op, rid, other, times) in enumerate(ops):
        if op == "add":
            sink.add(rid, f"m{i}", i)
            model.add(rid, f"m{i}", None)
        elif op == "only":
            sink.add(rid, f"m{i}", i, only=other)
            model.add(rid, f"m{i}", other)
        elif op == "count":  # checkers count 1 or more (a count of 0 names the rule: test_sink_verdicts.py)
            sink.count(rid, times + 1)
            model.count(rid, times + 1)
        elif op == "repeat":  # a unit's findings repeated `times` more over a run of identical units
            before = sink.counts_now()
            sink.add(rid, f"m{i}", i)
            model.add(rid, f"m{i}", None)
            added = sink.counted_since(before)
            expected = {p: ({rid: 1} if model.counted_under(rid, p) else {}) for p in model.profiles}
            assert added == expected
            sink.count_again(added, times)
            model.count(rid, times)
        else:
            sink.structural_error = True
            sink.structural_error = False  # the flag is sticky: a later False does not clear it
            model.structural = True
        _compare(sink, model)


@given(st.sampled_from(PROFILES), _OPS, _OPS)
def test_a_copy_goes_on_on_its_own(profile: str, first: list, then: list) -> None:
    sink, model = FindingSink(CATALOG, profile, max_per_rule=3), Model(profile, 3)
    for i, (op, rid, other, _) in enumerate(first):
        sink.add(rid, f"a{i}", i, only=other if op == "only" else None)
        model.add(rid, f"a{i}", other if op == "only" else None)
        if op == "structural":
            sink.structural_error = model.structural = True
    snapshot = {p: dict(c) for p, c in model.counts.items()}, list(model.stored), model.structural
    twin = sink.copy()
    assert twin is not sink
    _compare(twin, model)
    for i, (op, rid, _, times) in enumerate(then):  # the twin goes on; the original must not move
        twin.add(rid, f"b{i}", i)
        twin.count(rid, times + 1)
        if op == "structural":
            twin.structural_error = True
    model.counts = {p: Counter(c) for p, c in snapshot[0].items()}
    model.stored, model.structural = snapshot[1], snapshot[2]
    _compare(sink, model)


def test_counted_since_names_only_the_rules_that_moved_and_by_how_much() -> None:
    sink = FindingSink(CATALOG, "spec")
    sink.add("T-ERR", "x", 0)
    sink.add("T-WARN", "x", 0)
    before = sink.counts_now()
    before_copy = {p: dict(c) for p, c in before.items()}
    sink.add("T-ERR", "x", 0)
    sink.count("T-ERR", 2)
    sink.add("T-SPEC-ONLY", "x", 0)  # off under compat: counted under spec alone
    sink.add("T-COMPAT-ONLY", "x", 0)  # off under spec
    assert before == before_copy  # counts_now is a copy, not a view
    assert sink.counted_since(before) == {"spec": {"T-ERR": 3, "T-SPEC-ONLY": 1},
                                          "compat": {"T-ERR": 3, "T-COMPAT-ONLY": 1}}
    assert sink.counted_since(sink.counts_now()) == {"spec": {}, "compat": {}}


def test_counting_one_by_default_and_again_on_rules_not_counted_yet() -> None:
    sink = FindingSink(CATALOG, "spec")
    sink.count("T-ERR")  # a walk's "one more past the cap" (the checkers' common call)
    assert sink.counts == {"spec": {"T-ERR": 1}, "compat": {"T-ERR": 1}} and sink.close() == []
    before = sink.counts_now()
    sink.count("T-WARN", 0)  # counting nothing moves no total
    assert sink.counted_since(before) == {"spec": {}, "compat": {}}
    sink.count_again({"spec": {"T-INFO": 2}, "compat": {"T-INFO": 3, "T-ERR": 1}}, 4)
    assert sink.counts["spec"] == {"T-ERR": 1, "T-WARN": 0, "T-INFO": 8}
    assert sink.counts["compat"] == {"T-ERR": 5, "T-WARN": 0, "T-INFO": 12}


def test_findings_for_the_driving_profile_alone_are_capped_alike() -> None:
    for profile in PROFILES:
        sink = FindingSink(CATALOG, profile, max_per_rule=2)
        for i in range(3):
            sink.add("T-ERR", f"m{i}", i, only=profile)
            sink.add("T-ERR", f"other{i}", i, only=next(p for p in PROFILES if p != profile))
        assert [f.offset for f in sink.close()] == [0, 1]  # the first two, the third only counted
        assert sink.counts == {p: {"T-ERR": 3} for p in PROFILES}


def test_a_rule_past_the_default_cap_stores_100_and_counts_every_one() -> None:
    sink = FindingSink(CATALOG, "spec")
    for i in range(99):
        sink.add("T-ERR", f"m{i}", i)
    assert sink.room("T-ERR") == 1 and not sink.only_counted_one("T-ERR")
    sink.add("T-ERR", "m99", 99)
    assert sink.room("T-ERR") == 0 and sink.only_counted_one("T-ERR") and sink.only_counted(["T-ERR"])
    for i in range(100, 130):
        sink.add("T-ERR", f"m{i}", i)
    sink.count("T-ERR", 20)
    sink.add("T-WARN", "w", 5)
    report = sink.fill(FileReport("f", "fmt", None, "spec", Verdict.VALID))
    assert [f.offset for f in report.findings if f.rule == "T-ERR"] == list(range(100))
    assert report.capped == {"T-ERR": 150} and report.findings_cap == 100
    assert report.verdicts["spec"].errors == 150 and report.verdicts["compat"].errors == 150
    assert report.verdicts["spec"].warnings == 1
    assert report.to_json()["capped"] == {"limit": 100, "rules": {"T-ERR": 150}}
    exactly = FindingSink(CATALOG, "spec")
    for i in range(100):
        exactly.add("T-ERR", "m", i)
    filled = exactly.fill(FileReport("f", "fmt", None, "spec", Verdict.VALID))
    assert filled.capped == {} and filled.findings_cap is None and len(filled.findings) == 100


def test_profile_verdicts_by_level_and_structure() -> None:
    sink = FindingSink(CATALOG, "compat")
    sink.add("T-STRUCT-SPEC", "x", 0)  # structural error under spec, a warning under compat
    sink.add("T-INFO", "x", 1)
    got = sink.profile_verdicts()
    assert got["spec"].verdict is Verdict.MALFORMED and got["spec"].errors == 1
    assert got["compat"].verdict is Verdict.VALID and got["compat"].warnings == 1 and got["compat"].infos == 1
    assert sink.verdict() is Verdict.VALID and not sink.structural_error
    sink.add("T-SPEC-ONLY", "x", 2)
    assert sink.profile_verdicts()["compat"].verdict is Verdict.VALID
    sink.add("T-ERR", "x", 3)
    got = sink.profile_verdicts()
    assert got["compat"].verdict is Verdict.INVALID and got["compat"].errors == 1
    assert got["spec"].verdict is Verdict.MALFORMED and got["spec"].errors == 3
    sink.structural_error = True
    assert all(pv.verdict is Verdict.MALFORMED for pv in sink.profile_verdicts().values())


def _filled(profile: str, *adds: str) -> FileReport:
    sink = FindingSink(CATALOG, profile)
    for rid in adds:
        sink.add(rid, "x", 0)
    return sink.fill(FileReport("f", "fmt", None, profile, Verdict.VALID))


def test_late_findings_count_under_every_profile_and_make_a_valid_file_invalid_where_errors() -> None:
    late = [Finding("T-SPEC-ONLY", E, "late", 7), Finding("T-SPEC-ONLY", E, "late", 9)]
    report = _filled("compat", "T-WARN")
    add_late_findings(report, CATALOG["T-SPEC-ONLY"], late)
    assert report.verdicts["spec"].verdict is Verdict.INVALID and report.verdicts["spec"].errors == 2
    assert report.verdicts["spec"].rules["T-SPEC-ONLY"] == 2
    assert report.verdicts["compat"].verdict is Verdict.VALID and "T-SPEC-ONLY" not in report.verdicts["compat"].rules
    assert report.verdict is Verdict.VALID and [f.rule for f in report.findings] == ["T-WARN"]  # off: not stored
    spec = _filled("spec", "T-WARN")
    add_late_findings(spec, CATALOG["T-SPEC-ONLY"], late)
    assert spec.verdict is Verdict.INVALID and [f.offset for f in spec.findings if f.rule == "T-SPEC-ONLY"] == [7, 9]
    broken = _filled("spec", "T-STRUCT")
    add_late_findings(broken, CATALOG["T-ERR"], late[:1])
    assert broken.verdict is Verdict.MALFORMED and broken.verdicts["spec"].errors == 2  # malformed stays malformed
    warned = _filled("spec")
    add_late_findings(warned, CATALOG["T-WARN"], late)
    assert warned.verdict is Verdict.VALID and warned.verdicts["spec"].warnings == 2
    info = _filled("spec")
    add_late_findings(info, CATALOG["T-INFO"], late[:1])
    assert info.verdicts["compat"].infos == 1 and info.verdicts["compat"].errors == 0
    untouched = _filled("spec", "T-ERR")
    add_late_findings(untouched, CATALOG["T-ERR"], [])
    assert untouched.verdicts["spec"].errors == 1


def test_verdict_of_findings() -> None:
    assert verdict_of(True, []) is Verdict.MALFORMED
    assert verdict_of(False, [Finding("T-WARN", W, "m", 0)]) is Verdict.VALID
    assert verdict_of(False, [Finding("T-WARN", W, "m", 0), Finding("T-ERR", E, "m", 1)]) is Verdict.INVALID
    assert verdict_of(False, []) is Verdict.VALID
