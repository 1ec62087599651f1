"""What the shared tests (tests/test_cli.py, test_case.py, ...) take from the raSkat plugin: facts about its
own corpus, rules and cases (``recspec.formats.FormatExamples``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recspec.formats import FORMATS, FormatExamples

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EXAMPLES"]


def _small_cases(variant: str | None) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import raskat_cases

    return raskat_cases(int(variant[1:]) if variant else None, max_samples=8)


EXAMPLES = FormatExamples(
    valid_file="v4.tar.xz.sig",
    # the raSkat writer's own files break the spec profile (see the corpus manifest)
    valid_profile="compat",
    invalid_file=("RSIG-SAMPLES-003.sig", "RSIG-SAMPLES-003"),
    # the shared rule (tests/test_run_sample.py; raw and tar.xz alike: tests/test_raskat_signal_cli.py)
    run_sample="default",
    explain=("RSIG-SAMPLES-002", ("+1000", "docs/formats/raskat-signal.md#decision-2")),
    corpus_rules_more_than=20,
    # a version 4 signal in the document's tar.xz container; its field 13 (the trigger threshold, list index 12)
    # holds 643
    dump_facts=(("container", "tar.xz"), ("version", 4), ("signal.fields.12", 643)),
    ksy_dump_facts=(("container", "tar.xz"), ("version", 4), ("signal.fields.12", 643)),
    case_targets=tuple((v, {}) for v in FORMATS["raskat-signal"].variants),
    small_cases=_small_cases,
    malformed_case=({"recspec_case": 1, "format": "raskat-signal", "variant": "v9"}, "variant"),
    unseeded_rules={
        "RSIG-VERSION-003": "an info-level rule; seeded as the version 4 files of valid/",
        "RSIG-XCHECK-001": "fires only when recspec's readers disagree, which the corpus must never show",
    },
)
