"""A short Markdown summary, for CI step summaries (``$GITHUB_STEP_SUMMARY``) and PR comments."""

from __future__ import annotations

from collections.abc import Iterator

from ..report import FileReport, Report, Severity
from ._context import RenderContext, finding_location
from ._verdicts import PROFILES, other_profiles_summary, profile_note, summary_text

__all__ = ["MAX_FILES_LISTED", "iter_markdown", "render_markdown"]

#: Failing files listed one per row; the rest are counted (the full list is in the other reports).
MAX_FILES_LISTED = 50


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("`", "'")


def iter_markdown(report: Report, ctx: RenderContext) -> Iterator[str]:
    """The summary; the failing files and those with known deviations are listed up to
    MAX_FILES_LISTED each (one pass over the files), counted from the run's tally."""
    yield "".join(_lines(report, ctx))


def _lines(report: Report, ctx: RenderContext) -> Iterator[str]:
    s = report.summary()
    tally = report.tally()
    head = "passed" if report.ok else "FAILED"
    others = other_profiles_summary(report) if tally.files else ""
    lines = [f"## recspec check: {head}", "",
             summary_text(s) + (f" ({others})" if others else ""), ""]
    failing: list[str] = []
    known: list[str] = []
    if tally.failed or tally.known_files:
        for fr in report.files:
            if fr.failed and len(failing) < MAX_FILES_LISTED:
                failing.append(_failing_row(fr, ctx))
            if fr.known_deviations and len(known) < MAX_FILES_LISTED:
                known.append(f"- `{_cell(fr.path)}`: " + ", ".join(f"`{r}`" for r in sorted(fr.known_deviations)))
            if len(failing) >= min(MAX_FILES_LISTED, tally.failed) and len(known) >= min(MAX_FILES_LISTED,
                                                                                        tally.known_files):
                break
    if failing:
        lines += [f"### Failing files ({tally.failed})", "",
                  "| file | " + " | ".join(PROFILES) + " | first error |", "|---|" + "---|" * len(PROFILES) + "---|"]
        lines += failing
        if tally.failed > MAX_FILES_LISTED:
            lines.append(f"\n... and {tally.failed - MAX_FILES_LISTED} more failing files.")
        lines.append("")
    if known:
        n = tally.known_files
        lines += [f"### Known deviations ({n} file{'' if n == 1 else 's'})", ""]
        lines += known
        lines.append("")
    if report.stale:
        lines += [f"### Stale expectations ({len(report.stale)})", "",
                  f"Listed in `{_cell(report.expectations or '')}` but not found; fix the entries or run "
                  "`recspec check --update-expectations`.", ""]
        for st in report.stale:
            lines.append(f"- `{_cell(st.path)}`: `{st.rule}` is listed, but {st.why}")
        lines.append("")
    yield "\n".join(lines).rstrip("\n") + "\n"


def _failing_row(fr: FileReport, ctx: RenderContext) -> str:
    errors = [f for f in fr.findings if f.severity is Severity.ERROR and f.rule not in fr.known_deviations]
    first = ""
    if errors:
        f = errors[0]
        where = finding_location(f.offset, f.path)
        # every error counts, stored or not (the stored findings are capped per rule)
        total = fr.count(Severity.ERROR) - sum(fr.rule_count(r) for r in fr.known_deviations)
        more = f" (+{total - 1} more)" if total > 1 else ""
        first = f"`{f.rule}` {_cell(where)}: {_cell(f.message)}{more}"
        note = profile_note(fr, ctx)
        if note:
            first += f"<br>{_cell(note)}"
    verdicts = fr.profile_verdicts()
    cells = " | ".join(verdicts[p].verdict.value if p in verdicts else "-" for p in PROFILES)
    return f"| `{_cell(fr.path)}` | {cells} | {first} |"


def render_markdown(report: Report, ctx: RenderContext) -> str:
    return "".join(iter_markdown(report, ctx))
