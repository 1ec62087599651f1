"""What the shared tests take from the toy format (``recspec.formats.FormatExamples``)."""

from __future__ import annotations

from typing import Any

from recspec.formats import FormatExamples

__all__ = ["EXAMPLES"]


def _small_cases(variant: str | None) -> Any:
    from ._strategies import toy_cases

    return toy_cases(max_records=3)


EXAMPLES = FormatExamples(
    valid_file="three.toy",  # ids 1, 2, 7 with values 10, -5, 70000 (_seeds.py)
    valid_profile="spec",
    invalid_file=("checksum.toy", "TOY-CHECKSUM-001"),
    run_sample="none",  # its check reads every file (no sample)
    explain=("TOY-CHECKSUM-001", ("guards", "id and value")),
    corpus_rules_more_than=6,  # the corpus breaks MAGIC, SIZE, VERSION, FLAGS, CHECKSUM, RESERVED, ORDER
    dump_facts=(("header.count", 3), ("records.1.value", -5), ("records.2.record_id", 7)),
    ksy_dump_facts=(("header.count", 3), ("records.2.value", 70000)),
    small_cases=_small_cases,
    malformed_case=({"recspec_case": 2, "format": "toy", "variant": None, "version": 1, "flags": 0,
                     "records": [{"id": 70000, "value": 1}]}, "records[0].id"),
    unseeded_rules={"TOY-XCHECK-001": "the Kaitai parser and the reference agree on every file the seeds build; "
                                      "a divergence is a bug in one of them (the fuzz diff target looks for one)"},
)
