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
    invalid_file=("NANOVER-TIME-002.traj", "NANOVER-TIME-002"),
    explain=("NANOVER-FRAME-005", ("residue.ids", "Rust")),
    corpus_rules_more_than=15,
    case_targets=(("traj", {}), ("state", {})),
    small_cases=_small_cases,
    malformed_case=({"recspec_case": 1, "format": "nanover", "variant": "traj", "records": [
        {"timestamp_us": 1, "frame": {"frame_index": 0, "values": {}, "arrays": {"a": {"double": []}}}}]},
        "records[0].frame.arrays.a"),
    unseeded_rules={
        "NANOVER-PROTO-004": "an info-level rule; seeded as valid/unpacked-floats.traj",
        "NANOVER-LIMIT-001": "needs a file over 64 MiB (in a smaller file a longer length is a damaged length, "
                             "NANOVER-STREAM-001); tested on a sparse file in tests/test_nanover_messages.py",
        "NANOVER-LIMIT-003": "needs a payload of 262,145 map entries (4 MB); tested in "
                             "tests/test_nanover_limits_units.py",
        "NANOVER-LIMIT-004": "needs a state of 65,537 keys (1 MB); tested in tests/test_nanover_limits_units.py",
        "NANOVER-XCHECK-001": "fires only when recspec's readers disagree, which the corpus must never show",
    },
)
