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

import xml.etree.ElementTree as ET

from ..catalog import rule_family
from ..report import FileReport, Finding, Report, Severity, Verdict
from ._context import RenderContext, finding_location

__all__ = ["render_junit"]

#: Characters XML 1.0 cannot carry at all; findings may quote bytes from the file.
_XML_BAD = dict.fromkeys(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D))


def _clean(text: str) -> str:
    text = text.translate(_XML_BAD)
    # lone surrogates (undecodable bytes kept with surrogateescape) cannot be encoded either
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _line(f: Finding) -> str:
    where = finding_location(f.offset, f.path)
    return f"{f.severity.value.upper()} {f.rule}{' ' + where if where else ''}: {f.message}"


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


def render_junit(report: Report, ctx: RenderContext) -> str:
    root = ET.Element("testsuites", name="recspec check")
    suites = [_file_suite(fr, ctx) for fr in report.files]
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
        suites.append(stale)
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(sum(int(s.get(key, "0")) for s in suites)))
    root.extend(suites)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
