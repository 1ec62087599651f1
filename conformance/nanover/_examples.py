"""What the shared tests (tests/test_cli.py, test_case.py, ...) take from the NanoVer plugin: facts about its
own corpus, rules and cases (``recspec.formats.FormatExamples``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recspec.formats import FormatExamples

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EXAMPLES"]


def _small_cases(variant: str | None) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import nanover_cases

    return nanover_cases(variant, max_records=3)


EXAMPLES = FormatExamples(
    valid_file="small.traj",
    valid_profile="spec",
    explain=("NANOVER-FRAME-005", ("residue.ids", "Rust")),
    corpus_rules_more_than=15,
    case_targets=(("traj", {}), ("state", {})),
    small_cases=_small_cases,
    malformed_case=({"recspec_case": 1, "format": "nanover", "variant": "traj", "records": [
        {"timestamp_us": 1, "frame": {"frame_index": 0, "values": {}, "arrays": {"a": {"double": []}}}}]},
        "records[0].frame.arrays.a"),
)
