"""A self-contained HTML report: a files x rules matrix, then per file a picture of the
recording (``_pictures``) and its findings grouped by rule: one block per rule with its count,
the rule's explanation once, the first few occurrences with a hex window around the offset,
and the rest behind a disclosure.

One file, no scripts, no fonts or styles from the network: it opens from a CI
artifact or an e-mail. The hex windows are read from the checked files when the
report is written (a small window per finding, never the whole file).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Iterator

from .._version import __version__
from ..report import FileReport, Finding, Report, Severity
from ._context import RenderContext, display_value, finding_location, severity_label
from ._hexdump import hex_window
from ._pictures import CSS as _PICTURE_CSS
from ._pictures import picture
from ._verdicts import profile_note, summary_text

__all__ = ["HEX_CONTEXT", "PICTURED_FILES", "SHOWN_PER_RULE", "iter_html", "render_html"]

#: Bytes shown before and after a finding's offset in its hex window.
HEX_CONTEXT = 32
#: Files drawn in a run's HTML report (the first ones, in the files' order); the others get their text
#: alone. A picture is up to PICTURE_BUDGET bytes, so a run of a million files would otherwise write
#: tens of GB of pictures.
PICTURED_FILES = 1000
#: Occurrences of one rule shown in full (message, location, hex window) per file; the others are
#: listed one line each behind a disclosure.
SHOWN_PER_RULE = 3

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
.group{border-left:4px solid #d0d7de;padding-left:.8em;margin:1.2em 0}.group.error{border-color:#cf222e;background:none}
.group.warning{border-color:#bf8700;background:none}.group.info{border-color:#0969da;background:none}
.group h3{margin:.2em 0}.group .finding{border-left:none;padding-left:0;margin:.8em 0}
.group ol{padding-left:2em}.group li{margin:.2em 0}.count{font-weight:normal;color:#57606a}
td.n a{color:inherit;text-decoration:none;display:block}.matrix{overflow-x:auto}
:target{outline:2px solid #0969da;outline-offset:2px}
h2,h3,h4,p,li{overflow-wrap:anywhere}
@media (max-width:40em){body{margin:.8em}th.rule{font-size:10px}}
@media print{body{margin:0;max-width:none;font-size:11px}pre{white-space:pre-wrap;font-size:9px}
figure,.finding,pre{break-inside:avoid}h2{break-before:auto;break-after:avoid}a{color:inherit}}
"""  # noqa: E501 - one stylesheet, kept as the report carries it


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


def _slug(key: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in key)


def _group_id(i: int, rule: str) -> str:
    return f"f{i}-{_slug(rule)}"


def _groups(fr: FileReport) -> list[tuple[str, list[Finding]]]:
    """The file's findings by rule, worst severity first, then by first offset; in a rule, by offset."""
    by_rule: dict[str, list[Finding]] = {}
    for f in fr.findings:
        by_rule.setdefault(f.rule, []).append(f)
    for items in by_rule.values():  # a finding without an offset last
        items.sort(key=lambda f: (f.offset is None, f.offset if f.offset is not None else 0))
    return sorted(by_rule.items(), key=lambda kv: (-max(f.severity.rank for f in kv[1]),
                                                   kv[1][0].offset if kv[1][0].offset is not None else -1, kv[0]))


def _matrix(report: Report, rule_ids: list[str]) -> Iterable[str]:
    yield '<div class="matrix"><table><thead><tr><th>file</th><th>verdict</th>'
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
                yield (f'<td class="n {cls}" title="{_e(rid)}: {n} {worst[rid].value}">'
                       f'<a href="#{_group_id(i, rid)}">{n}</a></td>')
        yield "</tr>"
    yield "</tbody></table></div>"


def _occurrence(fr: FileReport, f: Finding, anchor: str) -> Iterable[str]:
    where = finding_location(f.offset, f.path)
    yield f'<div class="finding {f.severity.value}" id="{anchor}">'
    yield (f'<h4>{_e(severity_label(f.severity))}{" <code>" + _e(where) + "</code>" if where else ""}</h4>'
           f"<p>{_e(f.message)}</p>")
    yield _hex(fr.path, f)
    yield "</div>"


def _group(i: int, fr: FileReport, rule_id: str, items: list[Finding], ctx: RenderContext) -> Iterable[str]:
    gid = _group_id(i, rule_id)
    worst = max(items, key=lambda f: f.severity.rank).severity
    known = rule_id in fr.known_deviations
    rule = ctx.rule(rule_id)
    n = fr.rule_count(rule_id) or len(items)  # the true count: the stored findings are capped per rule
    yield f'<section class="group {worst.value}" id="{gid}">'
    yield (f'<h3>{_e(severity_label(worst))} <a href="#{_anchor("rule-", rule_id)}"><code>{_e(rule_id)}</code></a> '
           f'<span class="count">&times; {n}</span>{" &middot; known deviation" if known else ""}'
           f'{" &middot; " + _e(rule.title) if rule is not None else ""}</h3>')
    if known and fr.known_deviations[rule_id]:
        yield f"<p><em>expected: {_e(fr.known_deviations[rule_id])}</em></p>"
    if rule is not None:
        yield f'<p class="explain">{_e(rule.explanation)}</p>'
    for k, f in enumerate(items[:SHOWN_PER_RULE]):
        yield from _occurrence(fr, f, f"{gid}-{k}")
    rest = items[SHOWN_PER_RULE:]
    if rest:
        yield f"<details><summary>{len(rest)} more of this rule</summary><ol start=\"{SHOWN_PER_RULE + 1}\">"
        for k, f in enumerate(rest, SHOWN_PER_RULE):
            where = finding_location(f.offset, f.path)
            yield (f'<li id="{gid}-{k}">{"<code>" + _e(where) + "</code> " if where else ""}{_e(f.message)}</li>')
        yield "</ol></details>"
    if n > len(items):
        yield (f"<p>... and {n - len(items)} more of this rule, counted and not stored (the reports store up to "
               f"{fr.findings_cap} per rule).</p>")
    yield "</section>"


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
        # as the JSON report has them (NaN and infinities as words, tuples as lists), so a report
        # read back by `recspec merge` renders the same page
        stats = ", ".join(f"{_e(k)} {_e(display_value(v))}" for k, v in fr.plain_stats().items())
        yield f"<p>stats: {stats}</p>"
    groups = _groups(fr)
    if ctx.pictures and i < PICTURED_FILES:
        anchors = {id(f): f"{_group_id(i, rid)}-{k}" for rid, items in groups for k, f in enumerate(items)}
        yield picture(fr, lambda f: anchors[id(f)])
    if not fr.findings:
        yield "<p>No findings.</p>"
        return
    total = sum(fr.rule_count(rid) or len(items) for rid, items in groups)  # past the per-rule cap too
    yield f"<p>{total} findings of {len(groups)} rules:</p>"
    for rule_id, items in groups:
        yield from _group(i, fr, rule_id, items, ctx)


def iter_html(report: Report, ctx: RenderContext) -> Iterator[str]:
    """The page a file at a time (two passes over the files: the matrix, then the sections)."""
    summary = report.summary()
    rule_ids = sorted(report.tally().rules)
    verdict = "PASSED" if report.ok else "FAILED"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>recspec check: {_e(verdict)}</title>",
        f"<style>{_CSS}{_PICTURE_CSS if ctx.pictures else ''}</style></head><body>",
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
    yield "\n".join(parts) + "\n"
    yield "\n".join(_matrix(report, rule_ids)) + "\n"
    if ctx.pictures and report.tally().files > PICTURED_FILES:
        yield (f"<p>Pictures are drawn for the first {PICTURED_FILES:,} files of the {report.tally().files:,} "
               "(PICTURED_FILES); the others have their findings alone.</p>\n")
    for i, fr in enumerate(report.files):
        yield "\n".join(_file_section(i, fr, ctx)) + "\n"
    parts = []
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
    yield "\n".join(parts) + "\n"


def render_html(report: Report, ctx: RenderContext) -> str:
    return "".join(iter_html(report, ctx))
