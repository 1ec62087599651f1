"""Both profiles' verdicts, as every report and the table show them.

Every file is judged under ``spec`` and ``compat`` in one walk
(:attr:`recspec.report.FileReport.verdicts`); ``--profile`` picks the one that
drives the exit code, the findings listed and E/W/I. These helpers say the rest
the same way everywhere: the other profile's verdict, and, when a file fails the
driving profile but passes the other, which rules make the difference (for the
common case, a writer's known deviations from the document: the file fails
``spec`` and loads in the real readers, ``compat``).
"""

from __future__ import annotations

from ..report import PROFILES, FileReport, Report, Severity, Verdict
from ._context import RenderContext

__all__ = ["PROFILES", "driving_profile", "other_profiles_summary", "profile_difference", "profile_note",
           "summary_text"]


def driving_profile(report: Report) -> str:
    """The profile that drives the run's exit code (``--profile``; every file has the same)."""
    return report.tally().profile


def profile_difference(fr: FileReport, ctx: RenderContext) -> tuple[str, list[str]] | None:
    """``(other profile, rule ids)`` when ``fr`` fails its own profile but passes the other one:
    the rules that are errors under the file's profile and not under the other."""
    verdicts = fr.profile_verdicts()
    mine = verdicts.get(fr.profile)
    if mine is None or mine.verdict not in (Verdict.INVALID, Verdict.MALFORMED):
        return None
    for other in PROFILES:
        theirs = verdicts.get(other)
        if other == fr.profile or theirs is None or theirs.verdict is not Verdict.VALID:
            continue
        rules = []
        for rid in sorted(mine.rules):
            rule = ctx.rule(rid)
            if rule is None or rule.level(fr.profile) is not Severity.ERROR:
                continue
            if not theirs.rules.get(rid) or rule.level(other) is not Severity.ERROR:
                rules.append(rid)
        return other, rules
    return None


def profile_note(fr: FileReport, ctx: RenderContext) -> str | None:
    """One line for a file that fails its profile and passes the other, naming the rules."""
    diff = profile_difference(fr, ctx)
    if diff is None:
        return None
    other, rules = diff
    named = ", ".join(rules) if rules else "no rule"
    if fr.profile == "spec":
        return (f"passes compat: {named} {'is an error' if len(rules) == 1 else 'are errors'} only under spec, "
                "known deviations of real writers that the real readers accept (--profile compat)")
    return (f"passes {other}: {named} {'is an error' if len(rules) == 1 else 'are errors'} only under "
            f"{fr.profile}; --profile {other} checks the other reading")


def other_profiles_summary(report: Report) -> str:
    """``under compat: 7 valid`` (the verdict counts under each profile that does not drive the run)."""
    tally = report.tally()
    mine = tally.profile
    parts = []
    for other in PROFILES:
        if other == mine:
            continue
        counts = tally.under.get(other, {})
        order = (Verdict.VALID, Verdict.INVALID, Verdict.MALFORMED, Verdict.UNRECOGNIZED, Verdict.CRASH,
                 Verdict.TIMEOUT)
        shown = ", ".join(f"{counts[v]} {v.value}" for v in order if counts.get(v))
        parts.append(f"under {other}: {shown or 'no files'}")
    return "; ".join(parts)


#: Summary keys whose words are not the key's (``not_cross_checked``: README, "Batch runs").
_SUMMARY_LABELS = {"not_cross_checked": "not cross-checked (a long run's sample; --cross-check full reads all)"}


def summary_text(summary: dict[str, int]) -> str:
    """``1 file, 1 valid, 0 invalid, ...`` (the summary's counts, singular where one)."""
    parts = []
    for key, n in summary.items():
        label = _SUMMARY_LABELS.get(key) or key.replace("_", " ")
        if n == 1 and label.endswith("s") and key in ("files", "known_deviations", "stale_expectations"):
            label = label[:-1]
        parts.append(f"{n} {label}")
    return ", ".join(parts)
