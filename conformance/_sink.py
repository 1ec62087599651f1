"""Collecting findings for one file, with the per-rule cap every format shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from recspec.report import Finding, Rule, Severity, Verdict

__all__ = ["MAX_FINDINGS_PER_RULE", "FindingSink", "verdict_of"]

#: A broken file can break one rule a million times. The first this-many
#: findings of each rule are kept; the rest are counted in one summary finding.
MAX_FINDINGS_PER_RULE = 100


class FindingSink:
    """Gathers every finding of one file (not just the first), at the profile's levels."""

    def __init__(self, rules: Mapping[str, Rule], profile: str, max_per_rule: int = MAX_FINDINGS_PER_RULE) -> None:
        self.rules = rules
        self.profile = profile
        self.max_per_rule = max_per_rule
        self.findings: list[Finding] = []
        self._counts: dict[str, int] = {}
        self.structural_error = False

    def add(self, rule_id: str, message: str, offset: int | None = None, length: int | None = None,
            path: str = "", expected: Any = None, actual: Any = None) -> None:
        rule = self.rules[rule_id]
        severity = rule.level(self.profile)
        if severity is Severity.OFF:
            return
        if rule.structural and severity is Severity.ERROR:
            self.structural_error = True
        n = self._counts.get(rule_id, 0) + 1
        self._counts[rule_id] = n
        if n <= self.max_per_rule:
            self.findings.append(Finding(rule_id, severity, message, offset, length, path, expected, actual))

    def close(self) -> list[Finding]:
        """The findings, plus one note per rule whose findings were capped."""
        for rule_id, n in sorted(self._counts.items()):
            if n > self.max_per_rule:
                rule = self.rules[rule_id]
                self.findings.append(Finding(
                    rule_id, rule.level(self.profile),
                    f"{n - self.max_per_rule} more findings of this rule not listed ({n} in all; "
                    f"the first {self.max_per_rule} are shown)",
                ))
        return self.findings

    def verdict(self) -> Verdict:
        """The verdict of the findings gathered so far (see :func:`verdict_of`)."""
        return verdict_of(self.structural_error, self.findings)


def verdict_of(structural_error: bool, findings: Sequence[Finding]) -> Verdict:
    """The one verdict rule of every format: a structural error makes the file
    ``malformed`` (it cannot be walked), any other error ``invalid``; warnings and
    info findings leave it ``valid``."""
    if structural_error:
        return Verdict.MALFORMED
    if any(f.severity is Severity.ERROR for f in findings):
        return Verdict.INVALID
    return Verdict.VALID
