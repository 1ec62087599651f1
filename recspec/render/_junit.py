"""JUnit XML: one test suite per file, one test case per rule family.

CI pages (GitLab, Jenkins, GitHub test-report actions) list test cases, so
each (file, rule family) pair is one: ``CARLA-FRAME`` passes or fails for
``run1.log``. A failure's text lists every error finding of the family with
its rule, byte offset and structural path; warnings and info findings go to
the case's ``system-out``. Known deviations make a case ``skipped`` (with the
reason), a crash or timeout is an ``error``, and every stale expectation is a
failing case of its own suite.
"""

from __future__ import annotations

import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from ..catalog import rule_family
from ..report import FileReport, Finding, Report, Severity, Verdict
from ._context import RenderContext, finding_location, severity_label

__all__ = ["iter_junit", "render_junit"]

#: Characters XML 1.0 cannot carry at all; findings may quote bytes from the file.
_XML_BAD = dict.fromkeys(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D))


def _clean(text: str) -> str:
    text = text.translate(_XML_BAD)
    # lone surrogates (undecodable bytes kept with surrogateescape) cannot be encoded either
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _line(f: Finding) -> str:
    where = finding_location(f.offset, f.path)
    return f"{severity_label(f.severity)} {f.rule}{' ' + where if where else ''}: {f.message}"


def _file_suite(fr: FileReport, ctx: RenderContext) -> ET.Element:
    suite = ET.Element("testsuite", name=_clean(fr.path))
    props = ET.SubElement(suite, "properties")
    for key, value in (("format", fr.format), ("variant", fr.variant), ("profile", fr.profile),
                       ("verdict", fr.verdict.value)):
        ET.SubElement(props, "property", name=key, value=_clean(value or "-"))
    for profile, pv in fr.profile_verdicts().items():  # both profiles' verdicts (the run's profile sets pass/fail)
        ET.SubElement(props, "property", name=f"verdict.{profile}", value=pv.verdict.value)
    by_family: dict[str, list[Finding]] = {}
    for f in fr.findings:
        by_family.setdefault(rule_family(f.rule), []).append(f)
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for family in ctx.families(fr):
        findings = by_family.get(family, [])
        case = ET.SubElement(suite, "testcase", classname=_clean(fr.path), name=family, file=_clean(fr.path))
        counts["tests"] += 1
        errors = [f for f in findings if f.severity is Severity.ERROR]
        unexpected = [f for f in errors if f.rule not in fr.known_deviations]
        known = [f for f in errors if f.rule in fr.known_deviations]
        if fr.verdict in (Verdict.CRASH, Verdict.TIMEOUT) and errors:
            first = errors[0]
            el = ET.SubElement(case, "error", message=_clean(first.message), type=fr.verdict.value)
            el.text = _clean("\n".join(_line(f) for f in errors))
            counts["errors"] += 1
        elif unexpected:
            first = unexpected[0]
            head = _line(first) if len(unexpected) == 1 else f"{len(unexpected)} errors; first: {_line(first)}"
            el = ET.SubElement(case, "failure", message=_clean(head), type=first.rule)
            el.text = _clean("\n".join(_line(f) for f in unexpected))
            counts["failures"] += 1
        elif known:
            rules = sorted({f.rule for f in known})
            reasons = "; ".join(f"{r}: {fr.known_deviations[r]}" if fr.known_deviations[r] else r for r in rules)
            ET.SubElement(case, "skipped", message=_clean(f"known deviation ({reasons})"))
            counts["skipped"] += 1
        others = [f for f in findings if f.severity is not Severity.ERROR] + known
        if others:
            ET.SubElement(case, "system-out").text = _clean("\n".join(_line(f) for f in others))
    for key, count in counts.items():
        suite.set(key, str(count))
    return suite


def iter_junit(report: Report, ctx: RenderContext) -> Iterator[str]:
    """The JUnit XML a suite at a time. The root's totals come first in the text and are known only
    after every suite, so the suites are written to a temporary file as they are made (one in
    memory at a time) and copied after the root's start tag."""
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="backslashreplace", newline="\n") as body:
        previous: ET.Element | None = None
        for suite in _suites(report, ctx):
            for key in totals:
                totals[key] += int(suite.get(key, "0"))
            if previous is not None:
                body.write(_text(previous, "\n  "))
            previous = suite
        if previous is not None:
            body.write(_text(previous, "\n"))
        root = ET.Element("testsuites", name="recspec check")
        for key, n in totals.items():
            root.set(key, str(n))
        if previous is None:  # no suite: the empty root, as ElementTree writes it
            yield '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
            return
        root.text = "x"  # a start tag, then the suites, then the end tag
        start, _, end = ET.tostring(root, encoding="unicode").partition("x")
        yield '<?xml version="1.0" encoding="UTF-8"?>\n' + start + "\n  "
        body.seek(0)
        while chunk := body.read(1 << 16):
            yield chunk
        yield end + "\n"


def _text(suite: ET.Element, tail: str) -> str:
    """One suite as ``ET.indent`` of the whole tree gives it (one level in), with its tail."""
    ET.indent(suite, space="  ", level=1)
    suite.tail = tail
    return ET.tostring(suite, encoding="unicode")


def _suites(report: Report, ctx: RenderContext) -> Iterator[ET.Element]:
    for fr in report.files:
        yield _file_suite(fr, ctx)
    if report.stale:
        stale = ET.Element("testsuite", name=_clean(f"expectations {report.expectations}"))
        for s in report.stale:
            case = ET.SubElement(stale, "testcase", classname=_clean(s.path), name=f"expected {s.rule}")
            msg = f"{s.path}: known deviation {s.rule} is listed but {s.why}" + (f" ({s.reason})" if s.reason else "")
            ET.SubElement(case, "failure", message=_clean(msg), type="RECSPEC-STALE-EXPECTATION").text = _clean(
                msg + "\nfix the entry, or rewrite the list with --update-expectations")
        stale.set("tests", str(len(report.stale)))
        stale.set("failures", str(len(report.stale)))
        stale.set("errors", "0")
        stale.set("skipped", "0")
        yield stale


def render_junit(report: Report, ctx: RenderContext) -> str:
    return "".join(iter_junit(report, ctx))
