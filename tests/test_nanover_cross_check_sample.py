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

    data = traj(3000, "")
    assert len(data) > nanover_x.SAMPLE_ABOVE
    chosen = [i for i in range(3000) if _sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE)]
    assert 0 not in chosen and chosen  # 3000 records at 1 in SAMPLE_STRIDE: the hash takes some, not the first
    width = (len(data) - 16) // 3000  # every record of one size
    within = min(len(chosen), len(data) // nanover_x.SAMPLE_BUDGET // width)
    assert within
    evidence = recspec.check(data, format="nanover", variant="traj").evidence["cross_check"]
    assert f"on a sample of {within} of 3,000 records" in evidence, evidence
    assert (f"the header and about 1 record in {nanover_x.SAMPLE_STRIDE} (the last when the hash chose none)"
            in evidence)
    few = traj(3, "x" * 30_000)
    assert len(few) > nanover_x.SAMPLE_ABOVE
    assert not any(_sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE) for i in range(3))
    # the last record, when the hash chose none, if it is within the sample's budget: here each record holds
    # a third of the file, over 1 byte in SAMPLE_BUDGET, so the header alone is compared
    evidence = recspec.check(few, format="nanover", variant="traj").evidence["cross_check"]
    assert f"on a sample of 0 of 3 records (16 of {len(few):,} bytes" in evidence, evidence
    assert f"at most 1 byte in {nanover_x.SAMPLE_BUDGET} of the file's" in evidence
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


def test_the_nanover_sample_stays_within_its_byte_budget() -> None:
    """The records the hash chose are taken in order while they hold at most len // SAMPLE_BUDGET bytes; the
    ones past it are left to the check, the last record is still counted, and a divergence in a taken record
    is reported at its offset in the file."""
    from recspec.reference.nanover import Frame, encode_frame, encode_header, encode_record

    sizes = [40 + (i * 7919) % 3000 for i in range(2000)]  # records of 50 to 3,000 bytes, irregularly
    data = encode_header() + b"".join(encode_record(1000 * (i + 1), encode_frame(
        Frame(i + 1, {"note": "y" * n}, {}))) for i, n in enumerate(sizes))
    spans = list(nanover_x._record_spans(data))
    budget = len(data) // nanover_x.SAMPLE_BUDGET
    taken, used = [], 0
    for i, (start, end) in enumerate(spans):  # the rule, stated over every record
        if _sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE) and used + end - start <= budget:
            taken.append(i)
            used += end - start
    hashed = [i for i in range(len(spans)) if _sample.is_chosen(i + 1, nanover_x.SAMPLE_STRIDE)]
    assert taken and len(taken) < len(hashed)  # the budget leaves some of the hash's records out
    chosen = list(nanover_x._within_budget(_sample.choose(iter(spans), nanover_x.SAMPLE_STRIDE, len(data),
                                                          ends=False), budget, len(data)))
    assert [i for i, start, _ in chosen if start >= 0] == taken
    assert chosen[-1][0] == len(spans) - 1  # the last record counted: the sample knows how many there are
    sample = _sample.cut_chosen(data, 16, iter(chosen))
    assert sample.units == 2000 and sample.chosen == len(taken)
    assert len(sample.data) == 16 + sum(spans[i][1] - spans[i][0] for i in taken) <= 16 + budget
    evidence = recspec.check(data, format="nanover", variant="traj").evidence["cross_check"]
    assert f"on a sample of {len(taken)} of 2,000 records ({len(sample.data):,} of {len(data):,} bytes" in evidence

