"""What renderers share about a run: the rule catalog of the formats in it, and rule families."""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cached_property

from ..catalog import rule_family, rules_for
from ..formats import FormatInfo
from ..report import FileReport, Report, Rule, Severity

__all__ = ["DISPLAY_DIGITS", "SEVERITY_LABELS", "RenderContext", "display_value", "finding_location",
           "severity_label"]


class RenderContext:
    """Built once per run (not per file); the catalogs of the formats present are loaded on first use."""

    def __init__(self, report: Report, *, pictures: bool = True, formats: Iterable[str | None] | None = None) -> None:
        self.report = report
        #: whether the HTML report draws each file (``recspec check --no-pictures`` turns it off)
        self.pictures = pictures
        #: the formats whose rules :attr:`rules` holds; None: those of the report's files
        self._formats = None if formats is None else tuple(formats)

    @cached_property
    def rules(self) -> dict[str, tuple[FormatInfo, Rule]]:
        return rules_for(self.report.tally().formats if self._formats is None else self._formats)

    def rule(self, rule_id: str) -> Rule | None:
        entry = self.rules.get(rule_id)
        return entry[1] if entry else None

    def families(self, fr: FileReport) -> list[str]:
        """The rule families one file is tested against: its format's whole catalog (so a clean
        family shows as a passing test case) plus any family a finding names; a file recspec did
        not get through (unrecognized, crash, timeout) is tested only on the findings it has."""
        fams = {rule_family(f.rule) for f in fr.findings}
        if fr.format and fr.verdict.value not in ("unrecognized", "crash", "timeout"):
            fams.update(rule_family(rid) for rid, (info, _) in self.rules.items() if info.id == fr.format)
        return sorted(fams)


#: Every severity as the text outputs spell it, made once: the check table spells each finding's (several
#: a file in a folder of small files), and an Enum's ``value`` is a Python-level property.
SEVERITY_LABELS: dict[Severity, str] = {s: s.value.upper() for s in Severity}


def severity_label(severity: Severity) -> str:
    """A severity as every text output spells it (the check table, ``reproduce``, JUnit, HTML):
    ERROR, WARNING, INFO, OFF, the JSON report's value in capitals."""
    return SEVERITY_LABELS[severity]


#: Significant digits of a float in a report a person reads (HTML): the stats' floats come from float32
#: fields (8.33333396911621 is the float32 8.333334 widened) or sums of them, so digits past the sixth are
#: the storage's noise, not the recording's. The JSON report keeps every value exact.
DISPLAY_DIGITS = 6


def display_value(value: object) -> str:
    """A stats value as a report shows it to a person: a float to :data:`DISPLAY_DIGITS` significant digits
    (8.33333396911621 -> 8.33333, 48000.0 -> 48000), anything else as it is."""
    if type(value) is float and math.isfinite(value):
        return f"{value:.{DISPLAY_DIGITS}g}"
    return str(value)


def finding_location(offset: int | None, path: str) -> str:
    """``@1990 frame[2]/packet[0]:FrameStart.elapsed``, or whichever part is known."""
    parts = []
    if offset is not None:
        parts.append(f"@{offset}")
    if path:
        parts.append(path)
    return " ".join(parts)
