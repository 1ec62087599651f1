"""The NanoVer cross-check (conformance/nanover/_xcheck.py) on varints wider than their field: protobuf
reads a uint32 (GetFrameResponse.frame_index) and an enum (Value.null_value, int32 on the wire) from the
low 32 bits of a varint of up to 64, as the protobuf runtime's own parse shows here, and the Kaitai
reading must keep the same bits; and on the sample's edges: every record of a file up to 64 KiB is read
(README, "Limits": `SAMPLE_ABOVE`), and a tail too short for a record header is always in the sample.
Recordings are framed by hand (docs/formats/nanover.md) with tests/test_mutants_nanover_xcheck.py's
helpers. Written against the survivors tools/mutate.py found in a fresh sample of the module."""

from __future__ import annotations

import pytest
from test_mutants_nanover_xcheck import (
    HEADER,
    _evidence,
    _kaitai_reading,
    _len,
    _record,
    _traj_of_size,
    _traj_of_sizes,
    _varint,
)

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance import _sample
from recspec.conformance.nanover._xcheck import differential
from recspec.reference.nanover import Kind, StateUpdate


@pytest.mark.parametrize("number, runtime", [(1 << 32, 0), ((1 << 32) + 5, 5), ((1 << 33) + (1 << 31), -(1 << 31))])
def test_a_null_value_wider_than_32_bits_is_a_null(number: int, runtime: int) -> None:
    value = b"\x08" + _varint(number)
    payload = _len(1, _len(1, b"\x0a\x01z" + _len(2, value)))  # StateUpdate.changed_keys.fields["z"]
    assert pb.StateUpdate.FromString(payload).changed_keys.fields["z"].null_value == runtime
    data = HEADER + _record(1, payload)
    assert _kaitai_reading(data, Kind.STATE) == [(16, (1, StateUpdate({"z": None})))]
    assert differential(data, Kind.STATE) == []


@pytest.mark.parametrize("number, runtime", [((1 << 32) + 5, 5), ((1 << 33) + 7, 7), ((1 << 64) - 1, (1 << 32) - 1)])
def test_a_frame_index_wider_than_32_bits_keeps_its_low_32(number: int, runtime: int) -> None:
    payload = b"\x08" + _varint(number)
    assert pb.GetFrameResponse.FromString(payload).frame_index == runtime
    data = HEADER + _record(1, payload)
    ((offset, (timestamp, frame)),) = _kaitai_reading(data)
    assert (offset, timestamp, frame.frame_index) == (16, 1, runtime)
    assert differential(data, Kind.TRAJ) == []


def test_every_record_of_a_file_up_to_64_kib_is_read() -> None:
    assert _evidence(_traj_of_size(65_536)) == "kaitai: agrees (every record of this file is in the sample)"
    assert "on a sample of" in _evidence(_traj_of_size(65_537))


def test_a_tail_too_short_for_a_record_header_is_in_the_sample() -> None:
    # 70 records of 1,000 bytes at most, the hash choosing none of them under its budget (70,010 // 512 bytes),
    # then 10 bytes: the header (16 bytes) and the tail (10) are what the sample reads
    data = _traj_of_size(70_000) + bytes(10)
    evidence = _evidence(data)
    assert evidence.startswith("kaitai: agrees on a sample of 1 of 71 records (26 of 70,010 bytes"), evidence


def test_a_tail_too_short_for_a_record_header_is_in_the_sample_beside_the_hashs_choice() -> None:
    # 300 records, of which the hash (about 1 in 512, counted from 1) takes index 232 alone (100 bytes, within
    # the budget of 74,876 // 512 bytes); the 10-byte tail is taken besides it: 16 + 100 + 10 bytes
    assert [i for i in range(301) if _sample.is_chosen(i + 1, 512)] == [232]
    sizes = [250] * 300
    sizes[232] = 100
    data = _traj_of_sizes(sizes) + bytes(10)
    evidence = _evidence(data)
    assert evidence.startswith("kaitai: agrees on a sample of 2 of 301 records (126 of 74,876 bytes"), evidence
