"""The NanoVer cross-check (conformance/nanover/_xcheck.py) on varints wider than their field: protobuf
reads a uint32 (GetFrameResponse.frame_index) from the low 32 bits of a varint of up to 64, as the protobuf
runtime's own parse shows here, and the Kaitai reading must keep the same bits (the enum Value.null_value's
wide varints are among tests/test_mutants_nanover_xcheck.py's null values); and on the sample's edges: every
record of a file up to 64 KiB is read (README, "Limits": `SAMPLE_ABOVE`), and a tail too short for a record
header is always in the sample. Recordings are framed by hand (docs/formats/nanover.md) with
tests/build_nanover.py. Written against the survivors tools/mutate.py found in a fresh sample of the module."""

from __future__ import annotations

import pytest
from build_nanover import HEADER, cross_check_evidence, kaitai_reading, record, traj_of_size, traj_of_sizes, varint

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance import _sample
from recspec.conformance.nanover._xcheck import differential
from recspec.reference.nanover import Kind


@pytest.mark.parametrize("number, runtime", [((1 << 32) + 5, 5), ((1 << 33) + 7, 7), ((1 << 64) - 1, (1 << 32) - 1)])
def test_a_frame_index_wider_than_32_bits_keeps_its_low_32(number: int, runtime: int) -> None:
    payload = b"\x08" + varint(number)
    assert pb.GetFrameResponse.FromString(payload).frame_index == runtime
    data = HEADER + record(1, payload)
    ((offset, (timestamp, frame)),) = kaitai_reading(data)
    assert (offset, timestamp, frame.frame_index) == (16, 1, runtime)
    assert differential(data, Kind.TRAJ) == []


def test_every_record_of_a_file_up_to_64_kib_is_read() -> None:
    assert cross_check_evidence(traj_of_size(65_536)) == "kaitai: agrees (every record of this file is in the sample)"
    assert "on a sample of" in cross_check_evidence(traj_of_size(65_537))


def test_a_tail_too_short_for_a_record_header_is_in_the_sample() -> None:
    # 70 records of 1,000 bytes at most, the hash choosing none of them under its budget (70,010 // 512 bytes),
    # then 10 bytes: the header (16 bytes) and the tail (10) are what the sample reads
    data = traj_of_size(70_000) + bytes(10)
    evidence = cross_check_evidence(data)
    assert evidence.startswith("kaitai: agrees on a sample of 1 of 71 records (26 of 70,010 bytes"), evidence


def test_a_tail_too_short_for_a_record_header_is_in_the_sample_beside_the_hashs_choice() -> None:
    # 300 records, of which the hash (about 1 in 512, counted from 1) takes index 232 alone (100 bytes, within
    # the budget of 74,876 // 512 bytes); the 10-byte tail is taken besides it: 16 + 100 + 10 bytes
    assert [i for i in range(301) if _sample.is_chosen(i + 1, 512)] == [232]
    sizes = [250] * 300
    sizes[232] = 100
    data = traj_of_sizes(sizes) + bytes(10)
    evidence = cross_check_evidence(data)
    assert evidence.startswith("kaitai: agrees on a sample of 2 of 301 records (126 of 74,876 bytes"), evidence
