"""Findings, rules, verdicts and the report contract shared by every format.

The JSON shape produced by :meth:`Report.to_json` is a public contract
(``report_schema`` 1, documented in README.md, "The JSON report"). Fields may
be added; none may be renamed or removed without bumping ``REPORT_SCHEMA``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping

from ._plain import to_plain

__all__ = [
    "CORE_RULES",
    "REPORT_SCHEMA",
    "FileReport",
    "Finding",
    "Report",
    "Rule",
    "Severity",
    "Verdict",
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

    def to_json(self) -> dict[str, Any]:
        out = {
            "path": self.path,
            "format": self.format,
            "variant": self.variant,
            "profile": self.profile,
            "verdict": self.verdict.value,
            "findings": [f.to_json() for f in self.findings],
            "stats": to_plain(self.stats),
        }
        if self.evidence:
            out["evidence"] = to_plain(self.evidence)
        return out

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)


@dataclass(slots=True)
class Report:
    """A run over many files."""

    files: list[FileReport] = field(default_factory=list)

    def summary(self) -> dict[str, int]:
        """Counts per verdict, in the contract's order; ``crash`` and ``timeout`` only when non-zero."""
        out = {"files": len(self.files)}
        for verdict in (Verdict.VALID, Verdict.INVALID, Verdict.MALFORMED, Verdict.UNRECOGNIZED,
                        Verdict.CRASH, Verdict.TIMEOUT):
            n = sum(1 for f in self.files if f.verdict is verdict)
            if n or verdict not in (Verdict.CRASH, Verdict.TIMEOUT):
                out[verdict.value] = n
        return out

    @property
    def ok(self) -> bool:
        return all(not f.verdict.failed for f in self.files)

    def to_json(self) -> dict[str, Any]:
        from . import __version__

        return {
            "recspec_version": __version__,
            "report_schema": REPORT_SCHEMA,
            "files": [f.to_json() for f in self.files],
            "summary": self.summary(),
        }


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
)
