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
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import starmap
from operator import attrgetter
from typing import Any

from ._plain import to_plain

__all__ = [
    "CORE_RULES",
    "PROFILES",
    "REPORT_SCHEMA",
    "SAMPLED_OUT",
    "FileReport",
    "Finding",
    "ProfileVerdict",
    "Report",
    "Rule",
    "Severity",
    "StaleExpectation",
    "Tally",
    "Verdict",
    "rule",
]

REPORT_SCHEMA = 1

#: The profiles every file is judged under in every run (``FileReport.verdicts``); ``--profile``
#: picks which one drives the exit code.
PROFILES = ("spec", "compat")


class Severity(enum.Enum):
    """How much a finding matters under the active profile."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    OFF = "off"  # the rule does not apply under this profile

    # members are singletons compared by identity: hashed by identity too, in C (Enum's own hash is a
    # Python call, and every finding's counts are kept in dicts keyed by severity)
    __hash__ = object.__hash__

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # read back by its value from a dict (calling the enum class costs more): a report's findings are
        # pickled with their severities (FileReport.__reduce__)
        return _severity, (self.value,)

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

    __hash__ = object.__hash__  # as Severity's: identity, in C (a run's tallies count by verdict)

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
    ``policy`` rules are recspec's own choices, not the format's (its document or
    its real readers): a size or nesting limit that bounds recspec's memory, a
    wire form recspec refuses though protobuf runtimes read it, recspec's own
    cross-check. ``recspec drive`` does not fail a reader for accepting a file
    that breaks only policy rules (a note instead).
    """

    id: str
    title: str
    clause: str
    explanation: str
    levels: Mapping[str, Severity]
    structural: bool = False
    deviation: str | None = None  # where the spec document is wrong, what the rule does instead
    policy: bool = False  # recspec's own policy (a limit, a refusal), not the format's

    @property
    def source(self) -> str:
        """Whose rule it is: ``format`` (the document or the format's real readers) or ``recspec`` (policy)."""
        return "recspec" if self.policy else "format"

    def level(self, profile: str) -> Severity:
        return self.levels.get(profile, Severity.OFF)


def rule(id: str, title: str, clause: str, explanation: str, spec: Severity, compat: Severity | None = None,
         *, structural: bool = False, deviation: str | None = None, policy: bool = False) -> Rule:
    """A rule as the format catalogs write it: its level under ``spec``, and under
    ``compat`` when that differs (otherwise the same)."""
    from types import MappingProxyType

    return Rule(id, title, clause, explanation,
                MappingProxyType({"spec": spec, "compat": spec if compat is None else compat}), structural, deviation,
                policy)


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(self, rule: str, severity: Severity, message: str, offset: int | None = None,
                 length: int | None = None, path: str = "", expected: Any = None, actual: Any = None) -> None:
        # A frozen dataclass's own __init__ sets each field with object.__setattr__(self, "name", value): a
        # lookup by name per field, eight a finding, and a check makes about twenty findings an input. The
        # slots' own setters (taken once, _FINDING_SLOTS) store the same values at about half the cost.
        put = _FINDING_SLOTS
        put[0](self, rule)
        put[1](self, severity)
        put[2](self, message)
        put[3](self, offset)
        put[4](self, length)
        put[5](self, path)
        put[6](self, expected)
        put[7](self, actual)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its constructor's arguments: several times faster to read back than the state a
        # slotted dataclass pickles (a run's results are pickled to disk and read back, recspec/spool.py)
        return _finding, (self.rule, self.severity.value, self.message, self.offset, self.length, self.path,
                          self.expected, self.actual)

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


#: The setter of each of Finding's slots, in its fields' order (its __init__ stores through them: the class is
#: frozen, so an assignment would raise).
_FINDING_SLOTS = tuple(Finding.__dict__[f.name].__set__ for f in fields(Finding))


@dataclass(frozen=True, slots=True)
class ProfileVerdict:
    """A file's verdict under one profile, with true totals: ``rules`` counts every finding of each
    rule at a level other than off under this profile, however many were stored."""

    verdict: Verdict
    rules: Mapping[str, int] = field(default_factory=dict)
    errors: int = 0
    warnings: int = 0
    infos: int = 0

    def __reduce__(self) -> tuple[Any, ...]:
        return _profile_verdict, (self.verdict.value, self.rules, self.errors, self.warnings, self.infos)

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict.value, "errors": self.errors, "warnings": self.warnings,
                "infos": self.infos, "rules": dict(sorted(self.rules.items()))}


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
    #: profile -> the verdict and true counts under it, from the same findings (filled by the
    #: format's FindingSink); empty for reports recspec makes itself (unrecognized, crash,
    #: timeout), whose verdict is the same under every profile (see :meth:`profile_verdicts`)
    verdicts: dict[str, ProfileVerdict] = field(default_factory=dict)
    #: rule id -> total findings, for the rules with more findings than the per-rule cap stores
    capped: dict[str, int] = field(default_factory=dict)
    #: the per-rule cap on stored findings that ``capped`` refers to
    findings_cap: int | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # the findings as rows of their fields, made in C: a finding's own __reduce__ is a Python call per finding
        # (a run's reports are pickled to disk as they come, recspec/spool.py)
        return _file_report, (self.path, self.format, self.variant, self.profile, self.verdict.value,
                              list(map(_finding_row, self.findings)),
                              self.stats, self.evidence, self.known_deviations, self.trace, self.verdicts, self.capped,
                              self.findings_cap)

    def profile_verdicts(self) -> dict[str, ProfileVerdict]:
        """Both profiles' verdicts; for a report without them (recspec's own: unrecognized, crash,
        timeout) the verdict and the stored findings stand for every profile."""
        if self.verdicts:
            return self.verdicts
        counts: dict[str, int] = {}
        for f in self.findings:
            counts[f.rule] = counts.get(f.rule, 0) + 1
        same = ProfileVerdict(self.verdict, counts, *(sum(1 for f in self.findings if f.severity is s)
                                                      for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)))
        return {p: same for p in PROFILES}

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
            "stats": self.plain_stats(),
        }
        out["verdicts"] = {p: v.to_json() for p, v in self.profile_verdicts().items()}
        if self.capped:
            out["capped"] = {"limit": self.findings_cap, "rules": dict(sorted(self.capped.items()))}
        if self.evidence:
            out["evidence"] = to_plain(self.evidence)
        if known:
            out["known_deviations"] = dict(sorted(known.items()))
        return out

    def plain_stats(self) -> dict[str, Any]:
        """The stats as every report gives them: plain JSON values, floats without rounding noise."""
        tidy: dict[str, Any] = _tidy_floats(to_plain(self.stats))
        return tidy

    def count(self, severity: Severity) -> int:
        """Findings of this severity under the report's profile: the true total, stored or not."""
        pv = self.verdicts.get(self.profile)
        if pv is not None:
            return {Severity.ERROR: pv.errors, Severity.WARNING: pv.warnings, Severity.INFO: pv.infos}.get(severity, 0)
        return sum(1 for f in self.findings if f.severity is severity)

    def counts_text(self) -> str:
        """``E/W/I``: the true error, warning and info counts under the report's profile."""
        pv = self.verdicts.get(self.profile)
        if pv is not None:  # every file a checker reports: one lookup, not three (a table row and a tally per file)
            return f"{pv.errors}/{pv.warnings}/{pv.infos}"
        return f"{self.count(Severity.ERROR)}/{self.count(Severity.WARNING)}/{self.count(Severity.INFO)}"

    def rule_count(self, rule_id: str) -> int:
        """Findings of one rule under the report's profile: the true total, stored or not."""
        pv = self.verdicts.get(self.profile)
        if pv is not None:
            return pv.rules.get(rule_id, 0)
        return sum(1 for f in self.findings if f.rule == rule_id)

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


# Unpickling: an enum member by its value from a dict (calling the enum class costs more than the rest)
_SEVERITIES = {s.value: s for s in Severity}
_VERDICTS = {v.value: v for v in Verdict}


def _severity(value: str) -> Severity:
    return _SEVERITIES[value]


def _finding(rule: str, severity: str, *rest: Any) -> Finding:
    return Finding(rule, _SEVERITIES[severity], *rest)


def _profile_verdict(verdict: str, *rest: Any) -> ProfileVerdict:
    return ProfileVerdict(_VERDICTS[verdict], *rest)


#: A finding's fields, in its constructor's order (FileReport.__reduce__).
_finding_row = attrgetter(*(f.name for f in fields(Finding)))


def _file_report(path: str, format: str | None, variant: str | None, profile: str, verdict: str,
                 rows: list[tuple[Any, ...]], *rest: Any) -> FileReport:
    return FileReport(path, format, variant, profile, _VERDICTS[verdict], list(starmap(Finding, rows)), *rest)


def _tidy_floats(value: Any) -> Any:
    """Stats floats without rounding noise: a value within 2 units in the last place of a 15-digit
    decimal is given as that decimal (a sum of frame durations, 0.15000000000000002, reads 0.15); any
    other value is kept exact (15.880943656899035 stays). Findings keep their values as stored."""
    if type(value) is float:
        short = float(f"{value:.15g}")
        return short if math.isfinite(value) and abs(short - value) <= 2 * math.ulp(value) else value
    if isinstance(value, dict):
        return {k: _tidy_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tidy_floats(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class StaleExpectation:
    """A deviation an expectations file lists that this run did not find."""

    path: str  # the file, as the expectations file names it
    rule: str
    reason: str
    why: str  # "did not occur", "file no longer exists"

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "rule": self.rule, "reason": self.reason, "why": self.why}


#: How ``evidence.cross_check`` begins for a file that a long run's sampled cross-check left out
#: (conformance/_plugin.py ``run_sampled_out``): the summary counts them.
SAMPLED_OUT = "sampled: not run"


@dataclass(slots=True)
class Tally:
    """What a run's tables and summaries need from every file, counted one file at a time, so a run
    kept on disk (``recspec/spool.py``) has them without reading its files back."""

    files: int = 0
    #: verdict -> files
    verdicts: dict[Verdict, int] = field(default_factory=dict)
    #: files that fail the run (:attr:`FileReport.failed`)
    failed: int = 0
    #: findings of a rule listed as a known deviation of their file, and the files with any
    known_findings: int = 0
    known_files: int = 0
    #: format -> the profiles its files were checked under
    formats: dict[str, set[str]] = field(default_factory=dict)
    #: profile -> verdict -> files, for every profile of :data:`PROFILES`
    under: dict[str, dict[Verdict, int]] = field(default_factory=dict)
    #: the rule ids of the stored findings
    rules: set[str] = field(default_factory=set)
    #: (index, profile) of the first file in the files' order
    first: tuple[int, str] | None = None
    #: the longest path, format, variant and E/W/I count text (``3/0/1``) of a file: the widths of the
    #: table's columns, so it is printed in one pass over the files
    widths: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: files whose cross-check a long run's sample left out (their evidence begins with SAMPLED_OUT)
    not_cross_checked: int = 0

    def add(self, fr: FileReport, index: int | None = None) -> None:
        """Count one more file (``index``: its place in the files' order; default: after the others)."""
        at = self.files if index is None else index
        self.files += 1
        self.verdicts[fr.verdict] = self.verdicts.get(fr.verdict, 0) + 1
        if fr.failed:
            self.failed += 1
        if fr.known_deviations:
            n = sum(1 for f in fr.findings if f.rule in fr.known_deviations)
            self.known_findings += n
            self.known_files += 1
        if fr.format:
            self.formats.setdefault(fr.format, set()).add(fr.profile)
        pvs = fr.profile_verdicts()
        for p in PROFILES:
            pv = pvs.get(p)
            v = pv.verdict if pv is not None else fr.verdict
            counts = self.under.setdefault(p, {})
            counts[v] = counts.get(v, 0) + 1
        for f in fr.findings:
            self.rules.add(f.rule)
        if self.first is None or at < self.first[0]:
            self.first = (at, fr.profile)
        row = (len(fr.path), len(fr.format or "-"), len(fr.variant or "-"), len(fr.counts_text()))
        self.widths = tuple(max(a, b) for a, b in zip(self.widths, row))  # type: ignore[assignment]
        xcheck = fr.evidence.get("cross_check")
        if isinstance(xcheck, str) and xcheck.startswith(SAMPLED_OUT):
            self.not_cross_checked += 1

    def merge(self, other: Tally) -> None:
        """Count ``other``'s files too: the tally of other files of the same run (their indices in
        the same files' order, as a ``-j N`` worker counts the files of a batch)."""
        self.files += other.files
        for v, n in other.verdicts.items():
            self.verdicts[v] = self.verdicts.get(v, 0) + n
        self.failed += other.failed
        self.known_findings += other.known_findings
        self.known_files += other.known_files
        for fmt, profiles in other.formats.items():
            self.formats.setdefault(fmt, set()).update(profiles)
        for p, counts in other.under.items():
            mine = self.under.setdefault(p, {})
            for v, n in counts.items():
                mine[v] = mine.get(v, 0) + n
        self.rules |= other.rules
        if other.first is not None and (self.first is None or other.first[0] < self.first[0]):
            self.first = other.first
        self.widths = tuple(max(a, b) for a, b in zip(self.widths, other.widths))  # type: ignore[assignment]
        self.not_cross_checked += other.not_cross_checked

    @classmethod
    def combined(cls, tallies: Iterable[Tally], first: str | None) -> Tally:
        """The counts of runs put together; ``first``: the profile of the combined run's first file."""
        out = cls()
        for t in tallies:
            out.merge(t)
        out.first = (0, first) if first is not None and out.files else None
        return out

    @classmethod
    def of(cls, files: Iterable[FileReport]) -> Tally:
        t = cls()
        for fr in files:
            t.add(fr)
        return t

    @property
    def profile(self) -> str:
        """The profile of the run's first file (the one that drives the exit code), ``spec`` if none."""
        return self.first[1] if self.first is not None else "spec"


@dataclass(slots=True)
class Report:
    """A run over many files."""

    #: a list, or a run's files kept on disk (a ``recspec.spool.Spool``, which keeps their :class:`Tally`)
    files: Sequence[FileReport] = field(default_factory=list)
    #: the expectations file this run was judged against (as named on the command line), if any
    expectations: str | None = None
    stale: list[StaleExpectation] = field(default_factory=list)
    #: set on one shard of a run (`recspec check --shard K/N`): the JSON report's ``shard`` section,
    #: what `recspec merge` needs to put the shards back together (see recspec/shard.py)
    shard: dict[str, Any] | None = None
    #: Folder members a run passes over, two kinds, each counted in the summary (only when there
    #: are any), listed in the JSON report and by ``check --verbose``, sorted by path:
    #: regular files that no format claims, by content or by extension (clearly not recordings) ...
    unclaimed: list[str] = field(default_factory=list)
    #: ... and members that are not regular files (FIFOs, sockets, devices), never opened, since
    #: reading one could block or never end (a FIFO or device named on the command line is read)
    not_regular: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, int]:
        """Counts per verdict, in the contract's order; ``crash``, ``timeout``, ``unclaimed``,
        ``not_regular`` and ``not_cross_checked`` only when non-zero; the expectation counts only with an
        expectations file."""
        tally = self.tally()
        out = {"files": tally.files}
        for verdict in (Verdict.VALID, Verdict.INVALID, Verdict.MALFORMED, Verdict.UNRECOGNIZED,
                        Verdict.CRASH, Verdict.TIMEOUT):
            n = tally.verdicts.get(verdict, 0)
            if n or verdict not in (Verdict.CRASH, Verdict.TIMEOUT):
                out[verdict.value] = n
        if self.unclaimed:  # like crash and timeout: only when there are any
            out["unclaimed"] = len(self.unclaimed)
        if self.not_regular:
            out["not_regular"] = len(self.not_regular)
        if tally.not_cross_checked:  # a long run's sampled cross-check (README, "Batch runs")
            out["not_cross_checked"] = tally.not_cross_checked
        if self.expectations is not None:
            out["known_deviations"] = tally.known_findings
            out["stale_expectations"] = len(self.stale)
        return out

    def tally(self) -> Tally:
        """The counts over the files: kept by a spool, counted here for a list."""
        kept = getattr(self.files, "tally", None)
        return kept if isinstance(kept, Tally) else Tally.of(self.files)

    @property
    def ok(self) -> bool:
        """The run passes: no file fails and no listed deviation went stale."""
        if self.stale:
            return False
        kept = getattr(self.files, "tally", None)
        return kept.failed == 0 if isinstance(kept, Tally) else all(not f.failed for f in self.files)

    def to_json(self) -> dict[str, Any]:
        from ._version import __version__

        out: dict[str, Any] = {
            "recspec_version": __version__,
            "report_schema": REPORT_SCHEMA,
            "files": [f.to_json() for f in self.files],
            "summary": self.summary(),
        }
        if self.unclaimed:
            out["unclaimed"] = list(self.unclaimed)
        if self.not_regular:
            out["not_regular"] = list(self.not_regular)
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
