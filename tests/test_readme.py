"""The README is a guide to find things in: a short top (what recspec is, the set-up, one example per use)
with contents that reach every section; its examples are commands recspec takes; the extras are named
where a command needs them; the test set-up is what CI runs."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from helpers import REPO
from recspec.cli import _parser

README = (REPO / "README.md").read_text(encoding="utf-8")
USES = "Three ways to use it"
#: The top, what a new user reads before the reference: what it is, the set-up, the three uses.
TOP_LINES = 150


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _headings(level: str) -> list[str]:
    text = re.sub(r"```.*?```", "", README, flags=re.S)  # a shell comment is no heading
    return re.findall(rf"^{level} (.+)$", text, re.M)


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end >= 0 else None]


def _contents() -> str:
    start = README.index("**Contents.**")
    return README[start:README.index("\n## ", start)]


def test_the_contents_reach_every_section_in_order() -> None:
    anchors = {_slug(h) for level in ("##", "###") for h in _headings(level)}
    linked = re.findall(r"\]\(#([^)]+)\)", _contents())
    assert linked and set(linked) <= anchors, set(linked) - anchors
    sections = [_slug(h) for h in _headings("##")]
    assert [a for a in linked if a in sections] == sections  # every section, in the README's order


def test_every_link_inside_the_readme_resolves() -> None:
    anchors = {_slug(h) for level in ("##", "###", "####") for h in _headings(level)}
    missing = sorted({a for a in re.findall(r"\]\(#([^)]+)\)", README)} - anchors)
    assert missing == []


def test_the_top_is_short_and_the_reference_follows() -> None:
    sections = _headings("##")
    assert sections[:2] == ["Set up on a fresh machine", USES]
    reference = README.index(f"\n## {sections[2]}\n")
    assert README[:reference].count("\n") <= TOP_LINES
    assert "## Validating your writer or reader" in README[:README.index("\n## CARLA recorder logs\n")]


def _commands(text: str) -> list[str]:
    """The ``recspec`` command lines of a section's ``sh`` blocks, continuation lines joined."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith("recspec "):
                found.append(line.strip())
    return found


@pytest.mark.parametrize("command", _commands(_section(USES)))
def test_every_example_of_the_three_uses_is_a_command_recspec_takes(command: str) -> None:
    argv = shlex.split(command)[1:]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            _parser().parse_args(argv)
        except SystemExit as e:  # argparse's usage error
            raise AssertionError(f"{command}: {err.getvalue()}") from e


def test_the_three_uses_cover_a_check_a_report_a_drive_and_a_fuzz_campaign() -> None:
    commands = [shlex.split(c)[1] for c in _commands(_section(USES))]
    assert {"check", "drive", "fuzz", "reproduce"} <= set(commands)
    assert any("--report" in c for c in _commands(_section(USES)))


@pytest.mark.parametrize("section", [USES, "Using it"])
def test_the_fuzz_extra_is_named_where_recspec_fuzz_is_shown(section: str) -> None:
    text = _section(section)
    assert "recspec fuzz" in text and "[fuzz]" in text


def test_the_set_up_names_the_extras_and_its_test_command_is_what_ci_runs() -> None:
    setup = _section("Set up on a fresh machine")
    assert "'.[test]'" in setup and "[fuzz]" in setup
    ci = (REPO / ".ci" / "run").read_text()
    [command] = [ln for ln in ci.splitlines() if ln.startswith("python3 -m venv")]
    assert f"```sh\n{command}\n```" in setup


def test_benchmark_history_lives_in_the_benchmarks_readme() -> None:
    section = _section("Benchmarks")
    assert section.count("\n") <= 12 and "benchmarks/README.md" in section
    assert "Where the ratios stand" in Path(REPO / "benchmarks" / "README.md").read_text(encoding="utf-8")
