"""Hypothesis strategies for toy files (re-exported by ``recspec.strategies`` as ``toy_*``)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ..reference import Record, ToyFile, checksum_of, encode

__all__ = ["toy_cases", "toy_files", "toy_models"]


@st.composite
def toy_models(draw: Any, *, valid: bool = True, max_records: int = 12) -> ToyFile:
    """A toy file's model: with ``valid``, version 1, no flags, ids increasing, right checksums, zero reserved
    bytes; without it, any stored value (each rule's fault drawn now and then)."""
    ids = sorted(draw(st.sets(st.integers(0, 0xFFFF), max_size=max_records)))
    records = []
    for rid in ids:
        value = draw(st.integers(-(2**31), 2**31 - 1))
        checksum = checksum_of(rid, value)
        reserved = 0
        if not valid:
            checksum = draw(st.sampled_from([checksum, (checksum + 1) & 0xFF]))
            reserved = draw(st.sampled_from([0, 0, 0x5A]))
        records.append(Record(rid, value, checksum, reserved))
    if not valid and draw(st.booleans()):
        records.reverse()
    version = 1 if valid else draw(st.sampled_from([1, 1, 0, 2]))
    flags = 0 if valid else draw(st.sampled_from([0, 0, 1]))
    return ToyFile(version, flags, tuple(records))


def toy_files(*, valid: bool = True, max_records: int = 12) -> st.SearchStrategy[bytes]:
    """A toy file's bytes (see :func:`toy_models`)."""
    return toy_models(valid=valid, max_records=max_records).map(encode)


def toy_cases(*, canonical: bool = True, max_records: int = 12) -> st.SearchStrategy[dict[str, Any]]:
    """A writer's test case: the canonical case of a valid file."""
    from ..reference import to_case

    return toy_models(max_records=max_records).map(lambda m: to_case(m, canonical=canonical))
