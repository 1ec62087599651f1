"""SARIF 2.1.0: one result per finding, located by artifact and byte region.

Code-scanning pages read SARIF: each result names its rule (``ruleId`` and
``ruleIndex`` into the driver's rules, which carry the title, the explanation,
the full `recspec explain` text as help and the spec clause), the file as a
relative URI (as named on the command line) and a region; the structural path is
a logical location.

GitHub code scanning places a result by line (its validator rule GH1003 requires
``region.startLine``) and shows a result without one at no place at all. A
recording has no lines, so every result's region is line 1, the file's start,
beside the ``byteOffset``/``byteLength`` of the bytes the finding is about (a
reader of SARIF that knows binary regions uses those); the message names the
offset and the structural path too, since that is what GitHub shows of them. Known deviations are
results with an external suppression carrying the reason; stale expectations
are results of ``RECSPEC-STALE-EXPECTATION`` located in the expectations file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from .._version import __version__
from ..catalog import explain_text
from ..report import FileReport, Report, Rule, Severity, Verdict
from ._context import RenderContext
from ._json import Lazy, iter_dumps

__all__ = ["INFORMATION_URI", "SARIF_SCHEMA_URI", "iter_sarif", "render_sarif"]

#: Where a code-scanning page links the tool's name. The project has no public home yet, so this uses the
#: same reserved host as the report schema's ``$id`` (``recspec.invalid``, RFC 2606); change both together
#: when it has one.
INFORMATION_URI = "https://recspec.invalid/"

SARIF_VERSION = "2.1.0"
#: The $schema a SARIF 2.1.0 log names (the OASIS standard's schema).
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.OFF: "none"}


def artifact_uri(path: str) -> str:
    """A file as a URI reference: relative paths stay relative (code scanning resolves them against
    the checkout), absolute ones become ``file://`` URIs."""
    p = PurePath(path)
    if p.is_absolute():
        return "file://" + quote(p.as_posix(), errors="surrogateescape")
    # a name that is not UTF-8 keeps its bytes, percent-encoded (surrogateescape gives them back)
    return quote(p.as_posix() if os.sep == "/" else path.replace(os.sep, "/"), errors="surrogateescape")


def _name(title: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in re.findall(r"[A-Za-z0-9]+", title))


def _descriptor(info_id: str, rule: Rule, explain: str, profile: str) -> dict[str, Any]:
    full = rule.explanation + (f" Where the document is wrong: {rule.deviation}" if rule.deviation else "")
    return {
        "id": rule.id,
        "name": _name(rule.title),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": full},
        "help": {"text": explain},
        "defaultConfiguration": {"level": _LEVEL[rule.level(profile)]},
        "properties": {
            "format": info_id,
            "clause": rule.clause,
            "structural": rule.structural,
            "levels": {k: v.value for k, v in rule.levels.items()},
            "tags": [info_id, "structural" if rule.structural else "semantic"],
        },
    }


def iter_sarif(report: Report, ctx: RenderContext) -> Iterator[str]:
    """The SARIF log in pieces: the artifacts and the results a file at a time (two passes over the
    files), the counts from the run's tally."""
    # the rules the run can mention: recspec's own, then each present format's catalog, in catalog order
    tally = report.tally()
    profile = tally.profile
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for rule_id, (info, rule) in ctx.rules.items():
        index[rule_id] = len(rules)
        rules.append(_descriptor(info.id, rule, explain_text(info, rule), profile))
    harness_failures = tally.verdicts.get(Verdict.CRASH, 0) + tally.verdicts.get(Verdict.TIMEOUT, 0)
    log = {
        "$schema": SARIF_SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "recspec",
                "informationUri": INFORMATION_URI,
                "version": __version__,
                "semanticVersion": __version__,
                "rules": rules,
            }},
            "invocations": [{
                # a crash or timeout means recspec itself did not finish every file
                "executionSuccessful": not harness_failures,
            }],
            "artifacts": Lazy(_artifact(fr) for fr in report.files),
            "results": Lazy(_results(report, index)),
            "properties": {"summary": report.summary()},
        }],
    }
    yield from iter_dumps(log)
    yield "\n"


def _artifact(fr: FileReport) -> dict[str, Any]:
    return {"location": {"uri": artifact_uri(fr.path)}, "properties": {
        "format": fr.format, "variant": fr.variant, "profile": fr.profile, "verdict": fr.verdict.value,
        "verdicts": {p: pv.verdict.value for p, pv in fr.profile_verdicts().items()}}}


def _results(report: Report, index: dict[str, int]) -> Iterator[dict[str, Any]]:
    for art_index, fr in enumerate(report.files):
        uri = artifact_uri(fr.path)
        for f in fr.findings:
            if f.severity is Severity.OFF:
                continue
            region: dict[str, Any] = {"startLine": 1}  # GitHub's place for a file without lines: its start
            if f.offset is not None:
                region["byteOffset"] = f.offset
                if f.length is not None:
                    region["byteLength"] = f.length
            phys: dict[str, Any] = {"artifactLocation": {"uri": uri, "index": art_index}, "region": region}
            location: dict[str, Any] = {"physicalLocation": phys}
            if f.path:
                location["logicalLocations"] = [{"fullyQualifiedName": f.path}]
            where = ", ".join(([f"byte {f.offset}"] if f.offset is not None else []) + ([f.path] if f.path else []))
            text = f.message + (f" (at {where})" if where else "")
            result: dict[str, Any] = {
                "ruleId": f.rule,
                "level": _LEVEL[f.severity],
                "message": {"text": text},
                "locations": [location],
            }
            if f.rule in index:
                result["ruleIndex"] = index[f.rule]
            if f.rule in fr.known_deviations:
                result["suppressions"] = [{"kind": "external", "status": "accepted",
                                           "justification": fr.known_deviations[f.rule] or "known deviation"}]
            props: dict[str, Any] = {"verdict": fr.verdict.value}
            if f.expected is not None or f.actual is not None:
                plain = f.to_json()
                props.update({k: plain[k] for k in ("expected", "actual") if k in plain})
            result["properties"] = props
            yield result
    for s in report.stale:
        msg = f"known deviation {s.rule} is listed for {s.path} but {s.why}" + (f" ({s.reason})" if s.reason else "")
        result = {"ruleId": "RECSPEC-STALE-EXPECTATION", "level": "error", "message": {"text": msg},
                  "locations": [{"physicalLocation": {
                                     "artifactLocation": {"uri": artifact_uri(report.expectations or "")},
                                     "region": {"startLine": 1}},
                                 "logicalLocations": [{"fullyQualifiedName": f"{s.path}/{s.rule}"}]}]}
        if "RECSPEC-STALE-EXPECTATION" in index:
            result["ruleIndex"] = index["RECSPEC-STALE-EXPECTATION"]
        yield result


def render_sarif(report: Report, ctx: RenderContext) -> str:
    return "".join(iter_sarif(report, ctx))
