"""A short Markdown summary, for CI step summaries (``$GITHUB_STEP_SUMMARY``) and PR comments."""

from __future__ import annotations

from ..report import Report, Severity
from ._context import RenderContext, finding_location

__all__ = ["MAX_FILES_LISTED", "render_markdown"]

#: Failing files listed one per row; the rest are counted (the full list is in the other reports).
MAX_FILES_LISTED = 50


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("`", "'")


def render_markdown(report: Report, ctx: RenderContext) -> str:
    s = report.summary()
    head = "passed" if report.ok else "FAILED"
    lines = [f"## recspec check: {head}", "",
             ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in s.items()), ""]
    failing = [fr for fr in report.files if fr.failed]
    if failing:
        lines += [f"### Failing files ({len(failing)})", "", "| file | verdict | first error |", "|---|---|---|"]
        for fr in failing[:MAX_FILES_LISTED]:
            errors = [f for f in fr.findings if f.severity is Severity.ERROR and f.rule not in fr.known_deviations]
            first = ""
            if errors:
                f = errors[0]
                where = finding_location(f.offset, f.path)
                more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
                first = f"`{f.rule}` {_cell(where)}: {_cell(f.message)}{more}"
            lines.append(f"| `{_cell(fr.path)}` | {fr.verdict.value} | {first} |")
        if len(failing) > MAX_FILES_LISTED:
            lines.append(f"\n... and {len(failing) - MAX_FILES_LISTED} more failing files.")
        lines.append("")
    known = [fr for fr in report.files if fr.known_deviations]
    if known:
        lines += [f"### Known deviations ({len(known)} files)", ""]
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
