"""Findings, rules, verdicts and the report contract shared by every format.

The JSON shape produced by :meth:`Report.to_json` is a public contract
(``report_schema`` 1, documented in README.md, "The JSON report", and described
by the JSON Schema ``recspec/schemas/report-1.schema.json``). Fields may be
added; none may be renamed or removed without bumping ``REPORT_SCHEMA``.

Known deviations (``recspec check --expectations``) do not change a file's
verdict: the verdict is what the file is. They change whether the file fails
the run (:attr:`FileReport.failed`), and a listed deviation that did not occur
is a :class:`StaleExpectation` that fails the run.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._plain import to_plain

__all__ = [
    "CORE_RULES",
    "REPORT_SCHEMA",
    "FileReport",
    "Finding",
    "Report",
    "Rule",
    "Severity",
    "StaleExpectation",
    "Verdict",
    "rule",
]

REPORT_SCHEMA = 1


class Severity(enum.Enum):
    """How much a finding matters under the active profile."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    OFF = "off"  # the rule does not apply under this profile

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1, "off": 0}[self.value]


class Verdict(enum.Enum):
    """JHOVE-style verdict of one file, from worst to best within a run.

    ``crash`` and ``timeout`` are given by harnessed runs (the worker died or
    overran); ``crash`` is also what a bug in recspec itself produces, so a
    recspec bug is never reported as the file's fault.
    """

    UNRECOGNIZED = "unrecognized"
    MALFORMED = "malformed"
    INVALID = "invalid"
    VALID = "valid"
    CRASH = "crash"
    TIMEOUT = "timeout"

    @property
    def failed(self) -> bool:
        return self is not Verdict.VALID


@dataclass(frozen=True, slots=True)
class Rule:
    """One conformance rule: a stable id, what it checks, and where the spec says so.

    ``levels`` maps a profile name to the severity the rule's findings get under
    that profile. ``structural`` rules are those the Kaitai spec enforces too:
    a file with an error from a structural rule cannot be walked as the format,
    so its verdict is ``malformed`` and the Kaitai parser must reject it as well.
    """

    id: str
    title: str
    clause: str
    explanation: str
    levels: Mapping[str, Severity]
    structural: bool = False
    deviation: str | None = None  # where the spec document is wrong, what the rule does instead

    def level(self, profile: str) -> Severity:
        return self.levels.get(profile, Severity.OFF)


def rule(id: str, title: str, clause: str, explanation: str, spec: Severity, compat: Severity | None = None,
         *, structural: bool = False, deviation: str | None = None) -> Rule:
    """A rule as the format catalogs write it: its level under ``spec``, and under
    ``compat`` when that differs (otherwise the same)."""
    from types import MappingProxyType

    return Rule(id, title, clause, explanation,
                MappingProxyType({"spec": spec, "compat": spec if compat is None else compat}), structural, deviation)


@dataclass(frozen=True, slots=True)
class Finding:
    """One violation of one rule, with where it is.

    ``offset``/``length`` are bytes from the start of the file; ``path`` is the
    structural path (``frame[12]/packet[3]:Position/record[5].location``).
    """

    rule: str
    severity: Severity
    message: str
    offset: int | None = None
    length: int | None = None
    path: str = ""
    expected: Any = None
    actual: Any = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
            "offset": self.offset,
            "length": self.length,
            "path": self.path,
        }
        if self.expected is not None:
            out["expected"] = to_plain(self.expected)
        if self.actual is not None:
            out["actual"] = to_plain(self.actual)
        return out


@dataclass(slots=True)
class FileReport:
    """Everything recspec concluded about one file."""

    path: str
    format: str | None
    variant: str | None
    profile: str
    verdict: Verdict
    findings: list[Finding] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, Any] = field(default_factory=dict)
    #: rule id -> reason, for the rules an expectations file lists for this file
    #: and that did occur here (set by recspec.expectations; empty otherwise)
    known_deviations: dict[str, str] = field(default_factory=dict)
    #: what the HTML report draws of the file (a recspec.trace object, filled during the check's walk);
    #: not part of the JSON contract, and ignored when comparing reports
    trace: Any = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        known = self.known_deviations
        findings = [f.to_json() for f in self.findings]
        if known:
            for plain in findings:
                if plain["rule"] in known:
                    plain["known_deviation"] = True
        out = {
            "path": self.path,
            "format": self.format,
            "variant": self.variant,
            "profile": self.profile,
            "verdict": self.verdict.value,
            "failed": self.failed,
            "findings": findings,
            "stats": to_plain(self.stats),
        }
        if self.evidence:
            out["evidence"] = to_plain(self.evidence)
        if known:
            out["known_deviations"] = dict(sorted(known.items()))
        return out

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    @property
    def failed(self) -> bool:
        """Whether this file fails the run: its verdict is not ``valid`` and the
        errors behind it are not all known deviations. ``crash`` and ``timeout``
        always fail (they are recspec's fault, so no expectation covers them)."""
        if not self.verdict.failed:
            return False
        if self.verdict in (Verdict.CRASH, Verdict.TIMEOUT) or not self.known_deviations:
            return True
        errors = [f for f in self.findings if f.severity is Severity.ERROR]
        return not errors or any(f.rule not in self.known_deviations for f in errors)


@dataclass(frozen=True, slots=True)
class StaleExpectation:
    """A deviation an expectations file lists that this run did not find."""

    path: str  # the file, as the expectations file names it
    rule: str
    reason: str
    why: str  # "did not occur", "file no longer exists"

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "rule": self.rule, "reason": self.reason, "why": self.why}


@dataclass(slots=True)
class Report:
    """A run over many files."""

    files: list[FileReport] = field(default_factory=list)
    #: the expectations file this run was judged against (as named on the command line), if any
    expectations: str | None = None
    stale: list[StaleExpectation] = field(default_factory=list)
    #: set on one shard of a run (`recspec check --shard K/N`): the JSON report's ``shard`` section,
    #: what `recspec merge` needs to put the shards back together (see recspec/shard.py)
    shard: dict[str, Any] | None = None
    #: folder members that are not regular files (FIFOs, sockets, devices), not opened
    skipped: int = 0

    def summary(self) -> dict[str, int]:
        """Counts per verdict, in the contract's order; ``crash``, ``timeout`` and ``skipped`` only
        when non-zero; the expectation counts only with an expectations file."""
        out = {"files": len(self.files)}
        for verdict in (Verdict.VALID, Verdict.INVALID, Verdict.MALFORMED, Verdict.UNRECOGNIZED,
                        Verdict.CRASH, Verdict.TIMEOUT):
            n = sum(1 for f in self.files if f.verdict is verdict)
            if n or verdict not in (Verdict.CRASH, Verdict.TIMEOUT):
                out[verdict.value] = n
        if self.skipped:
            out["skipped"] = self.skipped
        if self.expectations is not None:
            out["known_deviations"] = sum(
                1 for fr in self.files if fr.known_deviations for f in fr.findings if f.rule in fr.known_deviations)
            out["stale_expectations"] = len(self.stale)
        return out

    @property
    def ok(self) -> bool:
        """The run passes: no file fails and no listed deviation went stale."""
        return not self.stale and all(not f.failed for f in self.files)

    def to_json(self) -> dict[str, Any]:
        from ._version import __version__

        out: dict[str, Any] = {
            "recspec_version": __version__,
            "report_schema": REPORT_SCHEMA,
            "files": [f.to_json() for f in self.files],
            "summary": self.summary(),
        }
        if self.expectations is not None:
            out["expectations"] = {"file": self.expectations, "stale": [s.to_json() for s in self.stale]}
        if self.shard is not None:
            out["shard"] = self.shard
        return out


def _everywhere(level: Severity) -> Mapping[str, Severity]:
    from types import MappingProxyType

    return MappingProxyType({"spec": level, "compat": level})


#: Findings recspec itself makes about a file, whatever its format.
CORE_RULES: tuple[Rule, ...] = (
    Rule("RECSPEC-UNRECOGNIZED", "The file is in a format recspec knows", "recspec",
         "No format's sniffer recognises the content (the extension is only a hint). If the file should be one, "
         "force it with --format: recspec then reports why it does not fit.", _everywhere(Severity.ERROR)),
    Rule("RECSPEC-INTERNAL", "recspec finished the file", "recspec",
         "recspec itself failed on this file: a bug in recspec, never a finding about the file. The verdict is "
         "'crash' and the other files' results are kept. Please report it with the file.",
         _everywhere(Severity.ERROR)),
    Rule("RECSPEC-TIMEOUT", "recspec finished the file within the per-file time limit", "recspec",
         "With -j N each file is checked in a worker process under a time limit (--timeout). A file whose check "
         "overran it gets the verdict 'timeout'; its worker is stopped and replaced, and the other files' results "
         "are kept. Like a crash this is recspec's fault, not the file's: please report it with the file.",
         _everywhere(Severity.ERROR)),
    Rule("RECSPEC-STALE-EXPECTATION", "Every known deviation listed for a file still occurs", "recspec",
         "An expectations file (--expectations) lists, per file, the rules a writer is known to break; those "
         "findings do not fail the run. A listed rule that no longer fires on its file (or a listed file that no "
         "longer exists) fails the run, so the list cannot go stale silently: fix the file's entry, or rewrite the "
         "list from this run with --update-expectations.", _everywhere(Severity.ERROR)),
)
