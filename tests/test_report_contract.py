"""A file report's counts as README "Reports" states them: every count is the true total under the
report's profile, from the profile's verdicts where a checker filled them, and from the stored
findings for the reports recspec makes itself (unrecognized, crash, timeout), whose verdict and
findings stand for every profile."""

from __future__ import annotations

from recspec.conformance._sink import FindingSink
from recspec.report import PROFILES, FileReport, Finding, ProfileVerdict, Severity, Tally, Verdict, rule

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def _own_report() -> FileReport:
    """As recspec reports a file no checker could finish: findings, no per-profile verdicts."""
    findings = [Finding("RECSPEC-INTERNAL", E, "boom", None), Finding("X-WARN", W, "w", 3),
                Finding("X-WARN", W, "w", 9), Finding("X-INFO", INFO, "i", 1)]
    return FileReport("f.bin", "alpha", None, "compat", Verdict.CRASH, findings)


def test_a_report_recspec_makes_itself_counts_its_findings_under_every_profile() -> None:
    report = _own_report()
    verdicts = report.profile_verdicts()
    assert sorted(verdicts) == sorted(PROFILES)
    for pv in verdicts.values():
        assert pv.verdict is Verdict.CRASH
        assert pv.rules == {"RECSPEC-INTERNAL": 1, "X-WARN": 2, "X-INFO": 1}
        assert (pv.errors, pv.warnings, pv.infos) == (1, 2, 1)
    assert [report.count(s) for s in (E, W, INFO, Severity.OFF)] == [1, 2, 1, 0]
    assert report.counts_text() == "1/2/1"
    assert report.rule_count("X-WARN") == 2 and report.rule_count("RECSPEC-INTERNAL") == 1
    assert report.rule_count("X-NEVER") == 0
    assert report.failed  # a crash always fails the run
    empty = FileReport("g.bin", None, None, "spec", Verdict.UNRECOGNIZED)
    assert empty.counts_text() == "0/0/0" and empty.rule_count("X-WARN") == 0
    assert all(pv.rules == {} and (pv.errors, pv.warnings, pv.infos) == (0, 0, 0)
               for pv in empty.profile_verdicts().values())


def test_a_checkers_report_counts_from_its_profiles_verdict() -> None:
    rules = {"X-ERR": rule("X-ERR", "t", "c", "e", E, W), "X-WARN": rule("X-WARN", "t", "c", "e", W)}
    sink = FindingSink(rules, "compat", max_per_rule=1)
    for i in range(3):
        sink.add("X-ERR", "m", i)
    sink.add("X-WARN", "m", 7)
    report = sink.fill(FileReport("f", "fmt", None, "compat", Verdict.VALID))
    assert len(report.findings) == 2  # one stored per rule at this cap
    assert report.count(W) == 4 and report.count(E) == 0 and report.count(INFO) == 0  # X-ERR warns under compat
    assert report.counts_text() == "0/4/0"
    assert report.rule_count("X-ERR") == 3 and report.rule_count("X-NEVER") == 0
    assert report.verdicts["spec"].verdict is Verdict.INVALID and report.verdicts["spec"].errors == 3


def test_a_profile_verdict_counts_nothing_by_default() -> None:
    pv = ProfileVerdict(Verdict.VALID)
    assert (pv.errors, pv.warnings, pv.infos) == (0, 0, 0) and dict(pv.rules) == {}
    assert pv.to_json() == {"verdict": "valid", "errors": 0, "warnings": 0, "infos": 0, "rules": {}}


def _checked(path: str, fmt: str | None, variant: str | None, profile: str, verdict: Verdict,
             findings: list[Finding], known: dict[str, str] | None = None, evidence: dict | None = None) -> FileReport:
    return FileReport(path, fmt, variant, profile, verdict, findings, evidence=evidence or {},
                      known_deviations=known or {})


def _files() -> list[FileReport]:
    err, warn = Finding("X-ERR", E, "m", 0), Finding("X-WARN", W, "m", 1)
    return [
        _checked("a.log", "alpha", "0.9.15", "spec", Verdict.VALID, [warn]),
        _checked("deep/b.log", "alpha", None, "compat", Verdict.INVALID, [err, err, warn], known={"X-ERR": "known"}),
        _checked("c.bin", None, None, "spec", Verdict.UNRECOGNIZED, [Finding("RECSPEC-UNRECOGNIZED", E, "m")]),
        _checked("d.traj", "betagamma", None, "spec", Verdict.INVALID, [err],
                 evidence={"cross_check": "sampled: not run (1 file in 16)"}),
    ]


def test_a_tally_counts_what_the_tables_and_summaries_show() -> None:
    t = Tally.of(_files())
    assert t.files == 4
    assert t.verdicts == {Verdict.VALID: 1, Verdict.INVALID: 2, Verdict.UNRECOGNIZED: 1}
    assert t.failed == 2  # b.log's only errors are known deviations; c.bin and d.traj fail
    assert (t.known_findings, t.known_files) == (2, 1)
    assert t.formats == {"alpha": {"spec", "compat"}, "betagamma": {"spec"}}
    assert t.under == {p: {Verdict.VALID: 1, Verdict.INVALID: 2, Verdict.UNRECOGNIZED: 1} for p in PROFILES}
    assert t.rules == {"X-ERR", "X-WARN", "RECSPEC-UNRECOGNIZED"}
    assert t.first == (0, "spec") and t.profile == "spec"
    # the widest path ("deep/b.log"), format ("betagamma"), variant ("0.9.15") and E/W/I text ("2/1/0")
    assert t.widths == (10, 9, 6, 5)
    assert t.not_cross_checked == 1
    empty = Tally.of([])
    assert (empty.files, empty.widths, empty.first, empty.profile) == (0, (0, 0, 0, 0), None, "spec")


def test_tallies_of_parts_merge_into_the_tally_of_the_whole() -> None:
    files = _files()
    whole = Tally.of(files)
    for cut in range(len(files) + 1):
        early, late = Tally(), Tally()
        for i, fr in enumerate(files):
            (early if i < cut else late).add(fr, i)
        for a, b in ((early, late), (late, early)):  # a -j N parent receives batches in any order
            merged = Tally()
            merged.merge(a)
            merged.merge(b)
            assert merged == whole
    shards = [Tally.of(files[:2]), Tally.of(files[2:])]
    combined = Tally.combined(shards, "compat")
    assert combined.files == 4 and combined.first == (0, "compat") and combined.profile == "compat"
    assert combined.verdicts == whole.verdicts and combined.widths == whole.widths
    nothing = Tally.combined([Tally(), Tally()], "compat")
    assert nothing.files == 0 and nothing.first is None and nothing.profile == "spec"
    assert Tally.combined([], None).first is None
