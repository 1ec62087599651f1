"""A drive run over a format's variants: the targets' results as a recspec Report, saved failures, known deviations.

Each target (``drive/writer/nanover/traj``) is one file entry of the report,
so every report format ``recspec check`` writes (``recspec.render``) serves
``drive`` too: its verdict is ``valid`` when the testee did right on every
example, ``invalid`` otherwise, with the failure's finding (a ``DRIVE-*``
rule) and, for a written file that breaks rules, that file's findings. Known
deviations are keyed by target: an expectations file's ``files`` entry
``drive/writer/nanover`` (every variant) or ``drive/writer/nanover/traj`` lists
rule ids with their reasons, the same entries as for ``recspec check``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from recspec.api import check
from recspec.formats import FormatInfo
from recspec.render import RenderContext, write_atomic
from recspec.report import FileReport, Finding, Report, Rule, Severity, StaleExpectation, Verdict

from ._engine import (
    DriveOptions,
    Example,
    TargetResult,
    drive_target,
    example_json,
    excusing,
    replay_target,
)
from ._limits import DEFAULT_TIMEOUT
from ._rules import DRIVE, DRIVE_RULES
from ._testee import absolute_command, replay_script, shell_line

__all__ = ["DriveRenderContext", "DriveRun", "run_drive", "target_name"]


def target_name(direction: str, info: FormatInfo, variant: str | None) -> str:
    return f"drive/{direction}/{info.id}" + (f"/{variant}" if variant else "")


class DriveRenderContext(RenderContext):
    """The render context of a drive report: the formats' rules and the drive rules."""

    @cached_property
    def rules(self) -> dict[str, tuple[FormatInfo, Rule]]:
        out = dict(super().rules)
        out.update({r.id: (DRIVE, r) for r in DRIVE_RULES})
        return out

    def families(self, fr: FileReport) -> list[str]:
        from recspec.catalog import rule_family

        direction = "WRITER" if "/writer/" in fr.path else "READER"
        return sorted({rule_family(f.rule) for f in fr.findings} | {f"DRIVE-{direction}"})


@dataclass
class DriveRun:
    direction: str
    results: list[TargetResult]
    report: Report
    #: target name -> the folder its failure was saved in
    saved: dict[str, Path] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.report.ok


def _finding(item: Any) -> Finding:
    return Finding(item.rule, item.severity, item.message, None, None, item.path, item.expected, item.actual)


#: The most characters of a case a finding's message quotes; the summary prints the whole case.
_QUOTED = 400


def _describe_case(ex: Example) -> str:
    if ex.source is not None:
        return f"the corpus file {ex.source}"
    text = json.dumps(ex.case, ensure_ascii=False) if ex.case is not None else "(no case)"
    text = text if len(text) <= _QUOTED else text[:_QUOTED - 3] + "..."
    return f"the case {text}" + (f", {ex.mutation}" if ex.mutation and ex.mutation != "none" else "")


def _file_report(direction: str, r: TargetResult) -> FileReport:
    o = r.opts
    name = target_name(direction, o.info, o.variant)
    findings: list[Finding] = []
    failing_rules: set[str] = set()  # rules of error findings no known deviation excuses
    for ex in r.failures:
        how = "minimal input" if ex.shrunk else "input, not shrunk (--max-failures reached)"
        for item in ex.items:
            f = _finding(item)
            findings.append(Finding(f.rule, f.severity, f"{f.message} ({how}: {_describe_case(ex)})",
                                    None, None, f.path, f.expected, f.actual))
            findings += list(item.findings)
            if item.severity is Severity.ERROR and not excusing(item, o.expected):
                failing_rules.add(item.rule)
                failing_rules.update(f.rule for f in item.findings)
    for rule, n in sorted(r.lenient.items()):
        findings.append(Finding("DRIVE-READER-007", Severity.WARNING,
                                f"the reader accepted {n} file(s) breaking {rule} (lenient)", path=rule))
    for rule, n in sorted(r.policy.items()):
        findings.append(Finding("DRIVE-READER-008", Severity.INFO,
                                f"the reader accepted {n} file(s) breaking only recspec's policy rule {rule} "
                                "(a note: the format allows it)", path=rule))
    known: dict[str, str] = {}
    for key in sorted(r.excused):
        rule, _, where = key.partition(":")
        known.setdefault(rule, o.expected.get(key, ""))
        if not any(f.rule == rule for f in findings) or where:
            findings.append(Finding(rule, Severity.ERROR, f"known deviation{f' at {where}' if where else ''}: "
                                    f"occurred on {r.excused[key]} example(s)", path=where))
    verdict = Verdict.INVALID if any(f.severity is Severity.ERROR for f in findings) else Verdict.VALID
    stats: dict[str, Any] = {}
    if r.last_reference is not None:
        stats = check(r.last_reference, format=o.info.id, variant=o.variant, profile=o.profile,
                      cross_check=False).stats
    drive: dict[str, Any] = {"direction": direction, "testee": r.testee, "examples": r.examples, "seed": r.seed,
                             "max_examples": o.max_examples, "tolerances": list(o.tolerances)}
    if direction == "writer":
        drive["byte_exact"] = o.byte_exact
    else:
        drive["compare"] = o.compare
    if r.failures:
        drive["failures"] = [example_json(ex) for ex in r.failures]
    if r.flaky:
        drive["flaky"] = r.flaky
    if r.saved is not None:
        drive["saved"] = str(r.saved)
        drive["replay"] = r.replay
    fr = FileReport(name, o.info.id, o.variant, o.profile, verdict, findings, stats, {"drive": drive})
    # a rule is a known deviation of the target when no error finding of it fails
    fr.known_deviations = {k: v for k, v in known.items() if k not in failing_rules}
    return fr


def _expected_for(expectations: Mapping[str, Mapping[str, str]], name: str) -> tuple[dict[str, str], dict[str, str]]:
    """The known deviations listed for a target: its format's entry (every variant) and its own."""
    parts = name.split("/")
    return dict(expectations.get("/".join(parts[:3]), {})), dict(expectations.get(name, {}))


def run_drive(direction: str, base: DriveOptions, variants: Sequence[str | None], testee: Any, *,
              expectations: Mapping[str, Mapping[str, str]] | None = None, expectations_name: str | None = None,
              out_dir: Path | None = None, replay_prefix: Sequence[str] = (),
              progress: Callable[[str, str], None] | None = None,
              replay: Path | None = None) -> DriveRun:
    """Drive every variant, then build the report (known deviations applied, stale ones listed) and save
    each failure in ``out_dir``. ``replay``: judge that one saved input instead of drawing any.

    A known deviation listed for the format (``base.expected``, or the expectations file's
    ``drive/writer/FORMAT``) is stale when it occurs in none of the variants driven, and is reported under the
    format's name; one listed for a variant (``drive/writer/FORMAT/VARIANT``) when it does not occur there."""
    import dataclasses

    results: list[TargetResult] = []
    saved: dict[str, Path] = {}
    own: list[dict[str, str]] = []  # per target: the deviations listed for that variant alone
    everywhere = dict(base.expected)
    try:
        for variant in variants:
            name = target_name(direction, base.info, variant)
            expected = dict(base.expected)
            mine: dict[str, str] = {}
            if expectations is not None:
                for_format, mine = _expected_for(expectations, name)
                everywhere.update(for_format)
                expected.update(for_format)
                expected.update(mine)
            own.append({k: v for k, v in mine.items() if k not in everywhere})
            opts = dataclasses.replace(base, variant=variant, expected=expected,
                                       progress=None if progress is None else partial(progress, name))
            r = (replay_target(direction, opts, testee, replay) if replay is not None
                 else drive_target(direction, opts, testee))
            if out_dir is not None and r.failures:
                _save(direction, r, out_dir / name.replace("/", "-").removeprefix("drive-"), testee, replay_prefix)
                saved[name] = r.saved_each[0]
            results.append(r)
    finally:
        close = getattr(testee, "close", None)
        if close is not None:
            close()  # a persistent testee's process ends with the run
    report = Report([_file_report(direction, r) for r in results])
    stale: list[StaleExpectation] = []
    for r, fr, mine in zip(results, report.files, own):
        stale += [StaleExpectation(fr.path, key, why, "it did not occur") for key, why in mine.items()
                  if key not in r.excused]
    if results:
        format_name = "/".join(report.files[0].path.split("/")[:3])
        stale += [StaleExpectation(format_name, key, why, "it did not occur in any variant driven")
                  for key, why in everywhere.items() if not any(key in r.excused for r in results)]
    if expectations is not None or base.expected:
        report.expectations = expectations_name or "expected="
        report.stale = sorted(stale, key=lambda s: (s.path, s.rule))
    return DriveRun(direction, results, report, saved)


def _save(direction: str, r: TargetResult, folder: Path, testee: Any, replay_prefix: Sequence[str]) -> None:
    """Save each failure's input: the case, the file, the report, and ``replay.sh``, the command that replays it
    from any folder. The first failure goes to ``folder``, the k-th to ``folder.k``."""
    for k, ex in enumerate(r.failures):
        where = folder if k == 0 else folder.with_name(f"{folder.name}.{k + 1}")
        where.mkdir(parents=True, exist_ok=True)
        suffix = r.opts.suffix
        if ex.case is not None:
            write_atomic(where / "case.json", json.dumps(ex.case, indent=1, ensure_ascii=False) + "\n")
        if ex.data is not None:
            (where / ("written" if direction == "writer" else "input")).with_suffix(suffix).write_bytes(ex.data)
        command = getattr(testee, "command", None)
        replay = None
        if command is not None and ((direction == "writer" and ex.case is not None) or (direction == "reader"
                                    and ex.data is not None)):
            target = (where / ("case.json" if direction == "writer" else f"input{suffix}")).resolve()
            words = [*replay_prefix, direction, r.opts.info.id,
                     *(["--variant", r.opts.variant] if r.opts.variant else []),
                     "--profile", r.opts.profile, *[w for t in r.opts.tolerances for w in ("--tolerance", t)],
                     *(["--byte-exact"] if direction == "writer" and r.opts.byte_exact else []),
                     *(["--compare", "stats"] if direction == "reader" and r.opts.compare == "stats" else []),
                     "--timeout", f"{getattr(testee, 'timeout', DEFAULT_TIMEOUT):g}",
                     *(["--persistent"] if getattr(testee, "persistent", False) else []),
                     "--replay", str(target), "--", *absolute_command(command)]
            replay = shell_line(words)
            write_atomic(where / "replay.sh", replay_script(replay))
            (where / "replay.sh").chmod(0o755)
        r.saved_each.append(where)
        r.replays.append(replay)
    fr = _file_report(direction, r)
    write_atomic(folder / "report.json", json.dumps(fr.to_json(), indent=1, ensure_ascii=False) + "\n")
