"""Collecting findings for one file, with the per-rule cap every format shares, under
every profile at once.

A checker walks a file once. Every finding it makes is a rule id plus where; the
profile only decides the finding's level (``Rule.levels``). So the sink keeps the
findings at the driving profile's levels (the one ``--profile`` picked, which the
table, the reports and the exit code show) and, for every profile, the true
number of findings of each rule at a level other than off. That is all the other
profile's verdict needs, so both verdicts come from one walk. A rule that is off
under the driving profile is still counted for the other one (RSIG-CONTAINER-001
is off under compat, an error under spec).

Where a format's semantics (not only a level) differ between profiles (which of
two raSkat doubles is the latitude; which Matrix-SMT flags exist), the checker
judges the value both ways and tags each finding with the profile it belongs to
(``add(..., only="spec")``); the walk is still one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from recspec._memo import BoundedMemo
from recspec.report import PROFILES, FileReport, Finding, ProfileVerdict, Rule, Severity, Verdict

__all__ = ["MAX_FINDINGS_PER_RULE", "FindingSink", "add_late_findings", "verdict_of"]

#: A broken file can break one rule a million times. The first this-many
#: findings of each rule are stored; every one is counted (``FileReport.capped``).
MAX_FINDINGS_PER_RULE = 100


class FindingSink:
    """Gathers every finding of one file (not just the first), at the driving profile's levels,
    and counts them under every profile."""

    def __init__(self, rules: Mapping[str, Rule], profile: str, max_per_rule: int = MAX_FINDINGS_PER_RULE,
                 profiles: Sequence[str] = PROFILES) -> None:
        self.rules = rules
        self.profile = profile
        self.max_per_rule = max_per_rule
        self.profiles = tuple(profiles) if profile in profiles else (profile, *profiles)
        self.findings: list[Finding] = []
        #: profile -> rule id -> findings of that rule at a level other than off (the true totals)
        self.counts: dict[str, dict[str, int]] = {p: {} for p in self.profiles}
        self._forced_structural = False
        #: per rule id: the counts (of ``counts``) a finding of it adds to, and its level under ``profile``
        self._plans: dict[str, tuple[tuple[dict[str, int], ...], Severity]] = {}

    def copy(self) -> FindingSink:
        """A sink holding what this one holds so far, that goes on on its own (a second walk of the rest
        of a file from the same point)."""
        twin = FindingSink(self.rules, self.profile, self.max_per_rule, self.profiles)
        twin.findings = list(self.findings)
        twin.counts = {p: dict(c) for p, c in self.counts.items()}
        twin._forced_structural = self._forced_structural
        return twin

    @property
    def structural_error(self) -> bool:
        """A structural error under the driving profile: the file cannot be walked as the format."""
        return self.structural_under(self.profile)

    @structural_error.setter
    def structural_error(self, value: bool) -> None:
        # a checker that knows the file could not be walked says so for every profile
        self._forced_structural = self._forced_structural or value

    def structural_under(self, profile: str) -> bool:
        if self._forced_structural:
            return True
        rules = self.rules
        return any(rules[r].structural and rules[r].level(profile) is Severity.ERROR for r in self.counts[profile])

    def add(self, rule_id: str, message: str, offset: int | None = None, length: int | None = None,
            path: str = "", expected: Any = None, actual: Any = None, *, only: str | None = None) -> None:
        """One finding. ``only`` restricts it to one profile: the checker judged the value under
        that profile's reading and the other reading does not see a fault here."""
        if only is None:  # the common case: the rule's levels looked up once per sink (``_plan``)
            plan = self._plans.get(rule_id)
            if plan is None:
                plan = self._plan(rule_id)
            for counts in plan[0]:
                counts[rule_id] = counts.get(rule_id, 0) + 1
            if plan[1] is not Severity.OFF and self.counts[self.profile][rule_id] <= self.max_per_rule:
                self.findings.append(Finding(rule_id, plan[1], message, offset, length, path, expected, actual))
            return
        rule = self.rules[rule_id]  # here ``only`` names one profile (None returned above)
        if only in self.profiles and rule.level(only) is not Severity.OFF:
            counts = self.counts[only]
            counts[rule_id] = counts.get(rule_id, 0) + 1
        if only != self.profile:
            return
        severity = rule.level(self.profile)
        if severity is Severity.OFF:
            return
        if self.counts[self.profile][rule_id] <= self.max_per_rule:
            self.findings.append(Finding(rule_id, severity, message, offset, length, path, expected, actual))

    def _plan(self, rule_id: str) -> tuple[tuple[dict[str, int], ...], Severity]:
        """What :meth:`add` does with a finding of ``rule_id`` (without ``only``), made once per sink
        from the rule's levels (:func:`_levels`, made once per run)."""
        levels = _levels(self.rules[rule_id], self.profiles)
        plan = self._plans[rule_id] = (tuple(self.counts[p] for p, level in zip(self.profiles, levels)
                                             if level is not Severity.OFF), levels[self.profiles.index(self.profile)])
        return plan

    def counts_now(self) -> dict[str, dict[str, int]]:
        """A copy of the counts (profile -> rule id -> total), for :meth:`counted_since`."""
        return {p: dict(c) for p, c in self.counts.items()}

    def counted_since(self, before: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
        """Per profile, the findings of each rule added since :meth:`counts_now` returned ``before``."""
        return {p: {r: n - before[p].get(r, 0) for r, n in c.items() if n != before[p].get(r, 0)}
                for p, c in self.counts.items()}

    def only_counted(self, rules: Iterable[str]) -> bool:
        """Whether the next finding of each of ``rules`` would only be counted, not stored
        (its rule has its ``max_per_rule`` stored findings under the driving profile)."""
        driving = self.counts[self.profile]
        return all(driving.get(r, 0) >= self.max_per_rule for r in rules)

    def only_counted_one(self, rule_id: str) -> bool:
        """:meth:`only_counted` of one rule: the next finding of ``rule_id`` would be counted, not
        stored, so a walk may :meth:`count` it without making its message (the report is the same)."""
        return self.counts[self.profile].get(rule_id, 0) >= self.max_per_rule

    def room(self, rule_id: str) -> int:
        """How many more findings of ``rule_id`` would be stored (under the driving profile)
        before :meth:`only_counted` holds for it."""
        return max(0, self.max_per_rule - self.counts[self.profile].get(rule_id, 0))

    def count(self, rule_id: str, times: int = 1) -> None:
        """``times`` more findings of ``rule_id``, counted under every profile where it is not off
        and not stored: for a walk that knows :meth:`only_counted` holds and spares the messages."""
        plan = self._plans.get(rule_id)  # the profiles where it is not off, as add() counts them
        if plan is None:
            plan = self._plan(rule_id)
        for counts in plan[0]:
            counts[rule_id] = counts.get(rule_id, 0) + times

    def count_again(self, added: Mapping[str, Mapping[str, int]], times: int) -> None:
        """Count ``times`` more the findings ``added`` (a :meth:`counted_since`), as if a unit
        that made them were walked ``times`` more: for a format's fast path over a run of
        identical units, once :meth:`only_counted` holds for every rule of ``added``."""
        for p, rules in added.items():
            counts = self.counts[p]
            for r, n in rules.items():
                counts[r] = counts.get(r, 0) + times * n

    def close(self) -> list[Finding]:
        """The stored findings (at most ``max_per_rule`` per rule; :meth:`fill` records the totals)."""
        return self.findings

    def verdict(self) -> Verdict:
        """The driving profile's verdict of the findings gathered so far (see :func:`verdict_of`)."""
        return self.verdict_under(self.profile)

    def verdict_under(self, profile: str) -> Verdict:
        if self.structural_under(profile):
            return Verdict.MALFORMED
        rules = self.rules
        if any(rules[r].level(profile) is Severity.ERROR for r in self.counts[profile]):
            return Verdict.INVALID
        return Verdict.VALID

    def profile_verdicts(self) -> dict[str, ProfileVerdict]:
        """Every profile's verdict and counts, in one pass over each profile's counted rules (the
        verdict as :meth:`verdict_under` gives it)."""
        out = {}
        rules = self.rules
        profiles = self.profiles
        forced = self._forced_structural
        for i, p in enumerate(profiles):
            counts = self.counts[p]
            errors = warnings = infos = 0
            structural = forced
            erred = False  # a rule counted that is an error here (whatever its count)
            for r, n in counts.items():
                rule = rules[r]
                level = _levels(rule, profiles)[i]
                if level is Severity.ERROR:
                    errors += n
                    erred = True
                    structural = structural or rule.structural
                elif level is Severity.WARNING:
                    warnings += n
                elif level is Severity.INFO:
                    infos += n
            verdict = Verdict.MALFORMED if structural else Verdict.INVALID if erred else Verdict.VALID
            out[p] = ProfileVerdict(verdict, dict(counts), errors, warnings, infos)
        return out

    def fill(self, report: FileReport) -> FileReport:
        """Put the findings, the verdict under every profile and the capped rules' totals into ``report``."""
        report.findings = self.findings
        report.verdicts = self.profile_verdicts()
        report.verdict = report.verdicts[self.profile].verdict
        report.capped = {r: n for r, n in self.counts[self.profile].items() if n > self.max_per_rule}
        report.findings_cap = self.max_per_rule if report.capped else None
        return report


#: (rule id, profiles) -> (the rule, its level under each profile): a rule's levels looked up once per
#: run, not once per file; a rule object other than the one kept (a test's own catalog) is looked up again.
#: Up to 4,097 of them (then forgotten all at once): catalogs made on the fly (tests) do not pile up.
_LEVELS: BoundedMemo[tuple[str, tuple[str, ...]], tuple[Rule, tuple[Severity, ...]]] = BoundedMemo(4097)


def _levels(rule: Rule, profiles: tuple[str, ...]) -> tuple[Severity, ...]:
    """``rule``'s level under each of ``profiles``."""
    key = (rule.id, profiles)
    kept = _LEVELS.get(key)
    if kept is None or kept[0] is not rule:
        kept = _LEVELS.keep(key, (rule, tuple(rule.level(p) for p in profiles)))
    return kept[1]


def add_late_findings(report: FileReport, rule: Rule, findings: Sequence[Finding]) -> None:
    """Findings made after the walk (the cross-check's divergences, one rule) added to a filled
    report: stored at the report's profile's level, counted under every profile, and each
    profile's verdict made ``invalid`` when the rule is an error there and it was ``valid``."""
    if not findings:
        return
    verdicts = report.profile_verdicts()
    for p, pv in list(verdicts.items()):
        level = rule.level(p)
        if level is Severity.OFF:
            continue
        rules = dict(pv.rules)
        rules[rule.id] = rules.get(rule.id, 0) + len(findings)
        n = len(findings)
        verdicts[p] = ProfileVerdict(
            Verdict.INVALID if level is Severity.ERROR and pv.verdict is Verdict.VALID else pv.verdict, rules,
            pv.errors + n * (level is Severity.ERROR), pv.warnings + n * (level is Severity.WARNING),
            pv.infos + n * (level is Severity.INFO))
    report.verdicts = verdicts
    level = rule.level(report.profile)
    if level is not Severity.OFF:
        report.findings.extend(findings)
    report.verdict = verdicts[report.profile].verdict


def verdict_of(structural_error: bool, findings: Sequence[Finding]) -> Verdict:
    """The one verdict rule of every format: a structural error makes the file
    ``malformed`` (it cannot be walked), any other error ``invalid``; warnings and
    info findings leave it ``valid``."""
    if structural_error:
        return Verdict.MALFORMED
    if any(f.severity is Severity.ERROR for f in findings):
        return Verdict.INVALID
    return Verdict.VALID
