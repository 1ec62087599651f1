"""A self-contained HTML report: a files x rules matrix, then every file's findings with the
rule's explanation and a hex window around the offset.

One file, no scripts, no fonts or styles from the network: it opens from a CI
artifact or an e-mail. The hex windows are read from the checked files when the
report is written (a small window per finding, never the whole file).
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Iterable

from .._version import __version__
from ..report import FileReport, Finding, Report, Severity
from ._context import RenderContext, finding_location
from ._hexdump import hex_window
from ._verdicts import profile_note, summary_text

__all__ = ["HEX_CONTEXT", "MAX_FINDINGS_SHOWN_PER_FILE", "render_html"]

#: Bytes shown before and after a finding's offset in its hex window.
HEX_CONTEXT = 32
#: Findings shown in full (with hex window) per file; the rest are counted. Keeps a report of
#: thousands of findings readable and its size bounded.
MAX_FINDINGS_SHOWN_PER_FILE = 200

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em;color:#1b1f24;max-width:90em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #d0d7de}h3{font-size:1em}
code,pre{font:12px/1.35 ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto;border-radius:4px}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #d0d7de;padding:.25em .5em;text-align:left}
th.rule{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:normal;font-size:12px}
td.n{text-align:center;min-width:1.6em}
.valid{background:#dafbe1}.invalid,.error{background:#ffebe9}.malformed{background:#ffd8b5}
.unrecognized{background:#eaeef2}.crash,.timeout{background:#f5d0fe}.warning{background:#fff8c5}.info{background:#ddf4ff}
.known{background:#eaeef2;text-decoration:line-through}.fail{color:#cf222e;font-weight:bold}.pass{color:#1a7f37;font-weight:bold}
.finding{border-left:4px solid #d0d7de;padding-left:.8em;margin:1em 0}.finding.error{border-color:#cf222e;background:none}
.finding.warning{border-color:#bf8700;background:none}.finding.info{border-color:#0969da;background:none}
details summary{cursor:pointer}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _anchor(prefix: str, key: str) -> str:
    return prefix + "".join(c if c.isalnum() or c in "-_" else "_" for c in key)


def _hex(path: str, f: Finding) -> str:
    if f.offset is None:
        return ""
    base = max(0, (f.offset - HEX_CONTEXT) // 16 * 16)
    try:
        with open(path, "rb") as fh:
            fh.seek(base)
            data = fh.read(f.offset - base + min(f.length or 1, 16) + HEX_CONTEXT + 16)
    except OSError as e:
        return f"<p><em>hex window unavailable: {_e(e.strerror or e)}</em></p>"
    return f"<pre>{_e(hex_window(data, f.offset, f.length, HEX_CONTEXT, base=base))}</pre>"


def _matrix(report: Report, rule_ids: list[str]) -> Iterable[str]:
    yield "<table><thead><tr><th>file</th><th>verdict</th>"
    for rid in rule_ids:
        yield f'<th class="rule"><a href="#{_anchor("rule-", rid)}">{_e(rid)}</a></th>'
    yield "</tr></thead><tbody>"
    for i, fr in enumerate(report.files):
        # the true count of each rule (stored findings are capped per rule)
        counts = {rid: fr.rule_count(rid) for rid in Counter(f.rule for f in fr.findings)}
        worst: dict[str, Severity] = {}
        for f in fr.findings:
            if f.rule not in worst or f.severity.rank > worst[f.rule].rank:
                worst[f.rule] = f.severity
        yield (f'<tr><td><a href="#file-{i}">{_e(fr.path)}</a></td>'
               f'<td class="{fr.verdict.value}">{_e(fr.verdict.value)}</td>')
        for rid in rule_ids:
            n = counts.get(rid)
            if not n:
                yield '<td class="n"></td>'
            else:
                cls = "known" if rid in fr.known_deviations else worst[rid].value
                yield f'<td class="n {cls}" title="{_e(rid)}: {n} {worst[rid].value}">{n}</td>'
        yield "</tr>"
    yield "</tbody></table>"


def _file_section(i: int, fr: FileReport, ctx: RenderContext) -> Iterable[str]:
    status = '<span class="fail">fails the run</span>' if fr.failed else '<span class="pass">passes</span>'
    yield f'<h2 id="file-{i}">{_e(fr.path)}</h2>'
    yield (f'<p><span class="{fr.verdict.value}">{_e(fr.verdict.value)}</span> &middot; {status} &middot; '
           f'format <code>{_e(fr.format or "-")}</code> &middot; variant <code>{_e(fr.variant or "-")}</code> '
           f'&middot; profile <code>{_e(fr.profile)}</code></p>')
    # both profiles' verdicts (the run's profile sets pass/fail), and what makes them differ
    yield "<p>verdicts: " + " &middot; ".join(
        f'{_e(p)} <span class="{pv.verdict.value}">{_e(pv.verdict.value)}</span>'
        for p, pv in fr.profile_verdicts().items()) + "</p>"
    note = profile_note(fr, ctx)
    if note:
        yield f"<p>{_e(note)}</p>"
    if fr.stats:
        stats = ", ".join(f"{_e(k)} {_e(v)}" for k, v in fr.stats.items())
        yield f"<p>stats: {stats}</p>"
    if not fr.findings:
        yield "<p>No findings.</p>"
        return
    shown = sorted(fr.findings, key=lambda f: (-f.severity.rank, f.offset if f.offset is not None else -1))
    for f in shown[:MAX_FINDINGS_SHOWN_PER_FILE]:
        known = f.rule in fr.known_deviations
        where = finding_location(f.offset, f.path)
        yield f'<div class="finding {f.severity.value}">'
        yield (f'<h3>{_e(f.severity.value.upper())} <a href="#{_anchor("rule-", f.rule)}"><code>{_e(f.rule)}</code></a>'
               f'{" <code>" + _e(where) + "</code>" if where else ""}'
               f'{" &middot; known deviation" if known else ""}</h3>')
        yield f"<p>{_e(f.message)}</p>"
        if known and fr.known_deviations[f.rule]:
            yield f"<p><em>expected: {_e(fr.known_deviations[f.rule])}</em></p>"
        rule = ctx.rule(f.rule)
        if rule is not None:
            yield f"<details><summary>{_e(rule.title)}</summary><p>{_e(rule.explanation)}</p></details>"
        yield _hex(fr.path, f)
        yield "</div>"
    total = sum(fr.rule_count(r) for r in {f.rule for f in fr.findings})  # past the per-rule cap too
    listed = min(len(shown), MAX_FINDINGS_SHOWN_PER_FILE)
    if total > listed:
        stored = f"; the JSON report stores up to {fr.findings_cap} per rule" if fr.capped else " (see the JSON report)"
        yield f"<p>... and {total - listed} more findings ({total} in all{stored}).</p>"


def render_html(report: Report, ctx: RenderContext) -> str:
    summary = report.summary()
    rule_ids = sorted({f.rule for fr in report.files for f in fr.findings})
    verdict = "PASSED" if report.ok else "FAILED"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>recspec check: {_e(verdict)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f'<h1>recspec check: <span class="{"pass" if report.ok else "fail"}">{verdict}</span></h1>',
        "<p>" + _e(summary_text(summary))
        + f" &middot; recspec {_e(__version__)}</p>",
    ]
    if report.stale:
        parts.append(f"<h2>Stale expectations ({_e(report.expectations)})</h2><ul>")
        for s in report.stale:
            parts.append(f"<li><code>{_e(s.path)}</code>: <code>{_e(s.rule)}</code> is listed, but {_e(s.why)}"
                         f"{' (' + _e(s.reason) + ')' if s.reason else ''}</li>")
        parts.append("</ul>")
    parts.append("<h2>Files x rules</h2>")
    if rule_ids:
        parts.append("<p>Each cell counts one rule's findings in one file, coloured by the worst severity; "
                     "struck-through cells are known deviations.</p>")
    parts.extend(_matrix(report, rule_ids))
    for i, fr in enumerate(report.files):
        parts.extend(_file_section(i, fr, ctx))
    if rule_ids:
        parts.append("<h2>Rules</h2>")
        for rid in rule_ids:
            rule = ctx.rule(rid)
            parts.append(f'<h3 id="{_anchor("rule-", rid)}"><code>{_e(rid)}</code>'
                         f'{": " + _e(rule.title) if rule else ""}</h3>')
            if rule is not None:
                parts.append(f"<p>clause: {_e(rule.clause)} &middot; levels: "
                             + ", ".join(f"{_e(k)} {_e(v.value)}" for k, v in rule.levels.items()) + "</p>")
                parts.append(f"<p>{_e(rule.explanation)}</p>")
                if rule.deviation:
                    parts.append(f"<p><strong>Where the document is wrong:</strong> {_e(rule.deviation)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
