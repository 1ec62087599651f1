"""The project's format documents (docs/formats/<id>.md) and the citations into them.

Every rule's clause cites ``docs/formats/<id>.md#<rule id, lower case>``, and
that anchor must exist as an explicit ``<a id="...">`` in the document, so a
citation never depends on a Markdown renderer's heading slugs. The ksy
``doc-ref``s into docs/formats resolve the same way, and no rule, ksy or
README text sends a reader to documents that are not in the repository (the
user's ``spec/`` copies, the research notes).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from recspec._paths import docs_dir
from recspec.formats import FORMATS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "formats"

_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
_CITATION = re.compile(r"docs/formats/([\w.-]+\.md)#([\w-]+)")
_LOCAL_LINK = re.compile(r"\]\(#([^)\s]+)\)")
#: Citations of documents a user of the repository does not have.
_FOREIGN = [
    (re.compile(r"(?<![\w/])spec/[\w.-]+\.md"), "a spec/ path"),
    (re.compile(r"research notes", re.I), "the research notes"),
    (re.compile(r"(?<![\w/])formats/[\w.-]+\.md"), "a formats/ path outside docs/"),
    (re.compile(r"\bA\.5\.\d|\bB\.[345]\b"), "a research-notes section number"),
]

FORMAT_IDS = sorted(FORMATS)


@cache
def anchors(name: str) -> frozenset[str]:
    return frozenset(_ANCHOR.findall((DOCS / name).read_text(encoding="utf-8")))


def foreign_citations(text: str) -> list[str]:
    return [f"{what}: {m.group(0)!r}" for rx, what in _FOREIGN for m in rx.finditer(text)]


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_every_format_has_its_document(fid):
    assert (DOCS / f"{fid}.md").is_file(), f"docs/formats/{fid}.md is missing"


def test_docs_dir_is_the_folder_that_ships():
    assert docs_dir() == ROOT / "docs"
    assert sorted(p.name for p in (docs_dir() / "formats").glob("*.md")) == sorted(f"{f}.md" for f in FORMAT_IDS)


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_every_rule_cites_its_anchor_in_its_format_document(fid):
    doc = f"{fid}.md"
    for rule in FORMATS[fid].load().RULES:
        anchor = rule.id.lower()
        assert rule.clause.startswith(f"docs/formats/{doc}#{anchor} ("), (rule.id, rule.clause)
        assert anchor in anchors(doc), f"{rule.id}: no <a id=\"{anchor}\"> in docs/formats/{doc}"
        # every citation in the rule's texts resolves, not only the clause's own
        for text in (rule.clause, rule.explanation, rule.deviation or ""):
            for name, target in _CITATION.findall(text):
                assert target in anchors(name), f"{rule.id} cites docs/formats/{name}#{target}, which does not exist"


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_every_rule_has_a_section_with_its_title(fid):
    text = (DOCS / f"{fid}.md").read_text(encoding="utf-8")
    for rule in FORMATS[fid].load().RULES:
        heading = f'<a id="{rule.id.lower()}"></a>\n#### {rule.id}: {rule.title}\n'
        assert heading in text, f"docs/formats/{fid}.md lacks the section of {rule.id} ({rule.title})"


@pytest.mark.parametrize("fid", FORMAT_IDS)
def test_links_inside_a_document_resolve(fid):
    doc = f"{fid}.md"
    text = (DOCS / doc).read_text(encoding="utf-8")
    assert sorted(set(_LOCAL_LINK.findall(text)) - anchors(doc)) == []
    ids = _ANCHOR.findall(text)
    assert len(ids) == len(set(ids)), "duplicate anchors"


@pytest.mark.parametrize("ksy", sorted((ROOT / "ksy").glob("*.ksy")), ids=lambda p: p.name)
def test_ksy_doc_refs_into_docs_formats_resolve(ksy):
    text = ksy.read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip().startswith("doc-ref:"):
            for name, target in _CITATION.findall(line):
                assert (DOCS / name).is_file(), line
                assert target in anchors(name), f"{ksy.name}: {line.strip()} does not resolve"


def _rule_texts():
    for fid in FORMAT_IDS:
        for rule in FORMATS[fid].load().RULES:
            yield rule.id, " ".join((rule.title, rule.clause, rule.explanation, rule.deviation or ""))


def test_no_rule_cites_documents_outside_the_repository():
    bad = {rid: found for rid, text in _rule_texts() if (found := foreign_citations(text))}
    assert bad == {}


@pytest.mark.parametrize("path", ["README.md", *(f"ksy/{p.name}" for p in sorted((ROOT / "ksy").glob("*.ksy")))])
def test_no_ksy_or_readme_text_cites_documents_outside_the_repository(path):
    assert foreign_citations((ROOT / path).read_text(encoding="utf-8")) == []
