"""Every rule's levels and structural mark are the ones its format document gives.

Each rule's section in ``docs/formats/<id>.md`` says "Levels: <spec> / <compat>." (the document's own
convention: "Each rule below gives its level as "spec / compat"") and "Structural." where a file that
breaks the rule cannot be walked. A rule's level decides a verdict (an error under a profile makes the
file invalid there, a structural error malformed), so a catalog entry whose level differs from the
document changes verdicts without any walk noticing; this holds each catalog to its document, one rule
at a time, and fails with the rule id and both readings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recspec.formats import FORMATS
from recspec.report import PROFILES, Severity

DOCS = Path(__file__).resolve().parents[1] / "docs" / "formats"
FORMAT_IDS = sorted(FORMATS)
#: The document's convention, stated before its rules.
CONVENTION = 'Each rule below gives its level as "spec / compat"'
_LEVELS = re.compile(r"Levels: (error|warning|info|off) / (error|warning|info|off)\.( Structural\.)?")
_NAMES = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "off": Severity.OFF}


def sections(text: str) -> dict[str, str]:
    """Each rule section's text by rule id: from its ``<a id>`` anchor to the next anchor."""
    parts = re.split(r'<a id="([^"]+)"></a>\n', text)
    return {anchor.upper(): body for anchor, body in zip(parts[1::2], parts[2::2], strict=True)}


def documented_levels(section: str) -> tuple[Severity, Severity, bool]:
    """(spec, compat, structural) as the section's one "Levels:" line gives them."""
    found = _LEVELS.findall(section)
    assert len(found) == 1, f"{len(found)} 'Levels: spec / compat.' lines in the section"
    spec, compat, structural = found[0]
    return _NAMES[spec], _NAMES[compat], bool(structural)


def test_the_parser_reads_each_form_the_documents_use() -> None:
    assert documented_levels("- Document: x. Levels: error / error. Structural.\n") == (
        Severity.ERROR, Severity.ERROR, True)
    assert documented_levels("- Levels: warning / info.\n- more") == (Severity.WARNING, Severity.INFO, False)
    assert documented_levels("Levels: off / warning.") == (Severity.OFF, Severity.WARNING, False)
    with pytest.raises(AssertionError):
        documented_levels("Levels: error.")
    sample = '<a id="x-a-001"></a>\n#### X-A-001: a\n\nA\n<a id="x-b-002"></a>\n#### X-B-002: b\nB\n'
    assert sections(sample) == {"X-A-001": "#### X-A-001: a\n\nA\n", "X-B-002": "#### X-B-002: b\nB\n"}


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_every_rules_levels_are_its_documents(fid: str) -> None:
    text = (DOCS / f"{fid}.md").read_text(encoding="utf-8")
    assert CONVENTION in text
    by_id = sections(text)
    wrong = []
    for rule in FORMATS[fid].load().RULES:
        assert rule.id in by_id, f"docs/formats/{fid}.md has no section for {rule.id}"
        documented = documented_levels(by_id[rule.id])
        catalog = (rule.level("spec"), rule.level("compat"), rule.structural)
        if catalog != documented:
            wrong.append(f"{rule.id}: catalog {catalog}, document {documented}")
    assert wrong == []


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_no_rule_has_a_profile_the_documents_do_not_name(fid: str) -> None:
    assert PROFILES == ("spec", "compat")  # the two levels of the documents' "Levels:" lines, in that order
    for rule in FORMATS[fid].load().RULES:
        assert set(rule.levels) <= set(PROFILES), rule.id
