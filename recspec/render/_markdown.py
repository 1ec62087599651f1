"""A short Markdown summary, for CI step summaries (``$GITHUB_STEP_SUMMARY``) and PR comments."""

from __future__ import annotations

from ..report import Report, Severity
from ._context import RenderContext, finding_location
from ._verdicts import PROFILES, other_profiles_summary, profile_note, summary_text

__all__ = ["MAX_FILES_LISTED", "render_markdown"]

#: Failing files listed one per row; the rest are counted (the full list is in the other reports).
MAX_FILES_LISTED = 50


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("`", "'")


def render_markdown(report: Report, ctx: RenderContext) -> str:
    s = report.summary()
    head = "passed" if report.ok else "FAILED"
    others = other_profiles_summary(report) if report.files else ""
    lines = [f"## recspec check: {head}", "",
             summary_text(s) + (f" ({others})" if others else ""), ""]
    failing = [fr for fr in report.files if fr.failed]
    if failing:
        lines += [f"### Failing files ({len(failing)})", "",
                  "| file | " + " | ".join(PROFILES) + " | first error |", "|---|" + "---|" * len(PROFILES) + "---|"]
        for fr in failing[:MAX_FILES_LISTED]:
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
            lines.append(f"| `{_cell(fr.path)}` | {cells} | {first} |")
        if len(failing) > MAX_FILES_LISTED:
            lines.append(f"\n... and {len(failing) - MAX_FILES_LISTED} more failing files.")
        lines.append("")
    known = [fr for fr in report.files if fr.known_deviations]
    if known:
        lines += [f"### Known deviations ({len(known)} file{'' if len(known) == 1 else 's'})", ""]
        for fr in known[:MAX_FILES_LISTED]:
            lines.append(f"- `{_cell(fr.path)}`: " + ", ".join(f"`{r}`" for r in sorted(fr.known_deviations)))
        lines.append("")
    if report.stale:
        lines += [f"### Stale expectations ({len(report.stale)})", "",
                  f"Listed in `{_cell(report.expectations or '')}` but not found; fix the entries or run "
                  "`recspec check --update-expectations`.", ""]
        for st in report.stale:
            lines.append(f"- `{_cell(st.path)}`: `{st.rule}` is listed, but {st.why}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
