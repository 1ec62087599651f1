"""What the shared tests (tests/test_cli.py, test_case.py, ...) take from the Matrix-SMT plugin: facts about its
own corpus, rules and cases (``recspec.formats.FormatExamples``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recspec.formats import FormatExamples

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EXAMPLES"]


def _small_cases(variant: str | None) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import matrix_cases

    return matrix_cases(max_frames=3)


EXAMPLES = FormatExamples(
    valid_file="spec.bson",
    # the producer's own files break the spec profile (see the corpus manifest)
    valid_profile="compat",
    invalid_file=("MATRIX-FRAME-002.bson", "MATRIX-FRAME-002"),
    explain=("MATRIX-FRAME-001", ("under t", "docs/formats/matrix-smt.md#matrix-frame-001")),
    corpus_rules_more_than=20,
    # the encoder writes either form: every number as a double (spec) or whole numbers as int32 (compat)
    case_targets=((None, {"profile": "spec"}), (None, {"profile": "compat"})),
    small_cases=_small_cases,
    malformed_case=({"recspec_case": 1, "format": "matrix-smt", "variant": None, "objects": [],
                     "frames": [{"time": "soon", "states": [], "commands": []}]}, "frames[0].time"),
    unseeded_rules={
        "MATRIX-LIMIT-002": "needs a value over 64 MiB; tests/test_matrix_smt_check.py lowers the limit instead",
        "MATRIX-LIMIT-003": "needs a million elements; tests/test_matrix_smt_check.py lowers the limit instead",
        "MATRIX-XCHECK-001": "fires only when recspec's readers disagree, which the corpus must never show",
    },
)
