"""The default cross-check of a NanoVer recording reads a sample of its records (tests/test_cross_check_sample.py):
the last only when the hash chose none, the first (the topology) only as the hash takes any record."""

from __future__ import annotations

import struct

import recspec
from recspec.conformance import _sample
from recspec.conformance.nanover import _xcheck as nanover_x


def test_the_nanover_sample_leaves_the_first_record_to_the_hash() -> None:
    """A trajectory's first record (its topology) costs the Kaitai reading more than the whole check:
    above SAMPLE_ABOVE the default sample takes it only as the hash would take any record, and the
    evidence says so; up to SAMPLE_ABOVE every record is read."""
    from recspec.reference.nanover import Frame, encode_frame, encode_header, encode_record

    def traj(n: int, note: str) -> bytes:
        return encode_header() + b"".join(encode_record(1000 * (i + 1), encode_frame(
            Frame(i + 1, {"energy.kinetic": float(i), "note": note}, {}))) for i in range(n))

    data = traj(300, "x" * 300)
    assert len(data) > nanover_x.SAMPLE_ABOVE
    chosen = [i for i in range(300) if _sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE)]
    assert 0 not in chosen and chosen  # 300 records at 1 in SAMPLE_STRIDE: the hash takes some, not the first
    evidence = recspec.check(data, format="nanover", variant="traj").evidence["cross_check"]
    assert f"on a sample of {len(chosen)} of 300 records" in evidence, evidence
    assert (f"the header and about 1 record in {nanover_x.SAMPLE_STRIDE} (the last when the hash chose none)"
            in evidence)
    few = traj(3, "x" * 30_000)
    assert len(few) > nanover_x.SAMPLE_ABOVE
    assert not any(_sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE) for i in range(3))
    # the last record: a file always has one record read twice
    assert "on a sample of 1 of 3 records" in recspec.check(few, format="nanover", variant="traj").evidence[
        "cross_check"]
    small = traj(300, "")
    assert len(small) <= nanover_x.SAMPLE_ABOVE
    assert recspec.check(small, format="nanover", variant="traj").evidence["cross_check"] == (
        "kaitai: agrees (every record of this file is in the sample)")


def test_nanover_records_are_sampled() -> None:
    from recspec.reference.nanover import Frame, encode_frame, encode_header, encode_record

    data = encode_header() + b"".join(
        encode_record(1000 * (i + 1), encode_frame(Frame(i + 1, {"energy.kinetic": float(i)}, {})))
        for i in range(2000))
    report = recspec.check(data, format="nanover", variant="traj")
    assert "on a sample of" in report.evidence["cross_check"]
    spans = list(nanover_x._record_spans(data))
    assert len(spans) == 2000 and spans[0][0] == 16 and spans[-1][1] == len(data)
    assert struct.unpack_from("<Q", data, 0)[0]  # the header is the magic
