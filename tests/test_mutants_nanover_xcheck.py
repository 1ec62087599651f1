"""The NanoVer cross-check (conformance/nanover/_xcheck.py): the Kaitai parser's reading of a recording,
turned into protobuf messages the way the protobuf runtime merges fields, compared record by record with
the reference decoder's, and the sample of records the default check reads.

Recordings are framed by hand from docs/formats/nanover.md (a 16-byte header: magic, version 2; records
of a u128 timestamp, a u64 length and the payload); payloads are serialised by the protobuf runtime, or
written byte by byte where the runtime never writes them so (unpacked repeated fields, a map entry with a
field of its own, a message seen twice). The expected values are the ones written. Two readings that
differ are made by construction: the Kaitai side is handed other bytes (``_kaitai_reads``). Written
against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import io
import json
import struct

import pytest
from build_nanover import (
    HEADER,
    cross_check_evidence,
    frame_response,
    kaitai_reading,
    ld,
    record,
    tag,
    traj_of_size,
    traj_of_sizes,
    trajectory,
    varint,
)

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance import _sample
from recspec.conformance.nanover import _xcheck as nanover_x
from recspec.conformance.nanover._xcheck import KaitaiRejected, differential
from recspec.reference.nanover import Array, ArrayKind, Kind, StateUpdate


def _kaitai_reads(monkeypatch: pytest.MonkeyPatch, other: bytes) -> None:
    """The differential's Kaitai side reads ``other`` in place of the recording it is given."""
    real = nanover_x.kaitai_records
    monkeypatch.setattr(nanover_x, "kaitai_records", lambda f, kind: real(io.BytesIO(other), kind))


# --- the Kaitai reading turned into messages ------------------------------------------------------------------


def _every_field() -> bytes:
    msg = pb.GetFrameResponse(frame_index=(1 << 31) + 5)  # a uint32 with its high bit set
    v = msg.frame.values
    v["n"].number_value = 1.5
    v["s"].string_value = "x"
    v["b"].bool_value = True
    v["z"].null_value = 0
    v["st"].struct_value.fields["k"].number_value = 2.0
    v["l"].list_value.values.add().string_value = "y"
    msg.frame.arrays["f"].float_values.values.extend([1.0, 2.5])
    msg.frame.arrays["i"].index_values.values.extend([1, 300])
    msg.frame.arrays["t"].string_values.values.extend(["a", "b"])
    return msg.SerializeToString()


def test_the_kaitai_reading_of_every_field_is_what_was_written() -> None:
    data = trajectory(_every_field())
    ((offset, (timestamp, frame)),) = kaitai_reading(data)
    assert (offset, timestamp) == (16, 1000)
    assert frame.frame_index == (1 << 31) + 5
    assert frame.values == {"n": 1.5, "s": "x", "b": True, "z": None, "st": {"k": 2.0}, "l": ["y"]}
    assert frame.arrays == {"f": Array(ArrayKind.FLOAT, (1.0, 2.5)), "i": Array(ArrayKind.INDEX, (1, 300)),
                            "t": Array(ArrayKind.STRING, ("a", "b"))}
    assert differential(data, Kind.TRAJ) == []


def test_unpacked_repeated_values_are_read_like_packed_ones() -> None:
    """FloatArray and IndexArray values one field each (wire types 5 and 0): the runtime appends them."""
    floats = ld(1, tag(1, 5) + struct.pack("<f", 1.5) + tag(1, 5) + struct.pack("<f", -2.0))
    indices = ld(2, tag(1, 0) + b"\x07" + tag(1, 0) + b"\xac\x02")  # 7 and 300
    # FrameData.arrays (field 2): entries of key (field 1) and ValueArray (field 2)
    frame = ld(2, ld(2, b"\x0a\x01f" + ld(2, floats)) + ld(2, b"\x0a\x01i" + ld(2, indices)))
    data = trajectory(b"\x08\x02" + frame)
    parsed = pb.GetFrameResponse.FromString(b"\x08\x02" + frame)  # the runtime's reading of the same bytes
    assert list(parsed.frame.arrays["i"].index_values.values) == [7, 300]
    ((_, (_, got)),) = kaitai_reading(data)
    assert got.frame_index == 2
    assert got.arrays == {"f": Array(ArrayKind.FLOAT, (1.5, -2.0)), "i": Array(ArrayKind.INDEX, (7, 300))}
    assert differential(data, Kind.TRAJ) == []


def test_fields_seen_twice_merge_as_the_runtime_merges_them() -> None:
    """Two messages back to back are one merged message: a map key seen again is replaced, a frame_index
    left out keeps the first, a Value's oneof takes the last member, a Struct seen twice merges."""
    first = pb.GetFrameResponse(frame_index=3)
    first.frame.values["a"].number_value = 1.0
    first.frame.values["b"].string_value = "x"
    first.frame.arrays["f"].float_values.values.append(1.0)
    second = pb.GetFrameResponse()
    second.frame.values["a"].string_value = "y"
    second.frame.arrays["f"].index_values.values.append(4)  # another member of the array's oneof
    one_value = ld(1, b"\x0a\x01s" + ld(2, ld(5, ld(1, b"\x0a\x01p" + ld(2, b"\x20\x01"))))
                     + ld(2, ld(5, ld(1, b"\x0a\x01q" + ld(2, b"\x08\x00")))))
    payload = first.SerializeToString() + second.SerializeToString() + ld(2, one_value)
    data = trajectory(payload)
    ((_, (_, got)),) = kaitai_reading(data)
    assert got.frame_index == 3
    assert got.values == {"a": "y", "b": "x", "s": {"p": True, "q": None}}
    assert got.arrays == {"f": Array(ArrayKind.INDEX, (4,))}
    assert differential(data, Kind.TRAJ) == []


def test_a_map_entry_with_a_field_of_its_own_is_dropped_as_the_runtime_drops_it() -> None:
    entry = b"\x0a\x01k" + ld(2, b"\x11" + struct.pack("<d", 1.0)) + tag(3, 0) + b"\x01"
    payload = ld(2, ld(1, entry) + ld(1, b"\x0a\x01m" + ld(2, b"\x20\x01")))
    data = trajectory(payload)
    assert dict(pb.GetFrameResponse.FromString(payload).frame.values).keys() == {"m"}  # the runtime's own reading
    ((_, (_, got)),) = kaitai_reading(data)
    assert got.values == {"m": True}
    assert differential(data, Kind.TRAJ) == []


@pytest.mark.parametrize("number, runtime", [
    (1 << 30, 1 << 30), (1 << 31, -(1 << 31)), ((1 << 64) - 1, -1),
    # wider than 32 bits: the low 32 are kept
    (1 << 32, 0), ((1 << 32) + 5, 5), ((1 << 33) + (1 << 31), -(1 << 31)),
])
def test_a_null_value_of_any_number_is_a_null(number: int, runtime: int) -> None:
    """``null_value`` is an enum (int32 on the wire as a varint; docs/formats/nanover.md says only 0 is
    written): the runtime keeps the low 32 bits of a varint of up to 64 as a signed number, and either
    reading is a null."""
    value = b"\x08" + varint(number)
    payload = ld(1, ld(1, b"\x0a\x01z" + ld(2, value)))  # StateUpdate.changed_keys.fields["z"]
    assert pb.StateUpdate.FromString(payload).changed_keys.fields["z"].null_value == runtime
    data = HEADER + record(1, payload)
    assert kaitai_reading(data, Kind.STATE) == [(16, (1, StateUpdate({"z": None})))]
    assert differential(data, Kind.STATE) == []


def test_a_state_update_read_by_kaitai_is_what_was_written() -> None:
    msg = pb.StateUpdate()
    msg.changed_keys.fields["gone"].null_value = 0
    msg.changed_keys.fields["pose"].list_value.values.add().number_value = 2.0
    data = HEADER + record(5, msg.SerializeToString())
    ((offset, (timestamp, update)),) = kaitai_reading(data, Kind.STATE)
    assert (offset, timestamp) == (16, 5)
    assert update == StateUpdate({"gone": None, "pose": [2.0]})
    assert differential(data, Kind.STATE) == []


def test_a_header_kaitai_rejects_ends_its_reading_at_offset_0() -> None:
    ((offset, rejected),) = kaitai_reading(struct.pack("<QQ", 1, 2) + record(1, b""))
    assert offset == 0 and isinstance(rejected, KaitaiRejected) and rejected.rule == "NANOVER-XCHECK-REJECT"


# --- the comparison: readings that differ by construction -----------------------------------------------------

RECORDS = [frame_response(1, e=1.0), frame_response(2, e=2.0), frame_response(3, e=3.0)]
TRAJ = trajectory(*RECORDS)
STARTS = [16, 16 + 24 + len(RECORDS[0]), 16 + 48 + len(RECORDS[0]) + len(RECORDS[1])]


def test_a_value_that_differs_is_reported_at_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, trajectory(RECORDS[0], frame_response(2, e=2.5), RECORDS[2]))
    (d,) = differential(TRAJ, Kind.TRAJ)
    assert d.offset == STARTS[1] and d.message.startswith("record 1: values differ: reference (2000, ")


def test_a_record_kaitai_reads_at_another_offset_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown field (number 9) makes Kaitai's first record longer: its value is the same (unknown
    fields are not part of the model), the records after it are at other offsets."""
    _kaitai_reads(monkeypatch, trajectory(RECORDS[0] + tag(9, 0) + b"\x01", *RECORDS[1:]))
    got = differential(TRAJ, Kind.TRAJ)
    assert [d.offset for d in got] == STARTS[1:]
    assert all(d.message.startswith(f"record {i}: values differ") for i, d in enumerate(got, 1))


def test_a_divergence_quotes_each_reading_to_300_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, trajectory(frame_response(1, note="b" * 1000)))
    (d,) = differential(trajectory(frame_response(1, note="a" * 1000)), Kind.TRAJ)
    head, kaitai = d.message.split(" / Kaitai ")
    assert head.startswith("record 0: values differ: reference (1000, ")
    assert len(head) == len("record 0: values differ: reference ") + 300 and len(kaitai) == 300


def test_one_reader_rejecting_a_record_the_other_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = trajectory(RECORDS[0], b"\x0f", RECORDS[2])  # a tag of wire type 7: no protobuf reader reads it
    _kaitai_reads(monkeypatch, trajectory(RECORDS[0], b"\x08\x01", RECORDS[2]))
    (d,) = differential(bad, Kind.TRAJ)
    assert d.offset == STARTS[1]
    assert d.message.startswith("record 1: reference rejects: ") and d.message.endswith(", Kaitai accepts")
    monkeypatch.undo()
    _kaitai_reads(monkeypatch, bad)
    (d,) = differential(trajectory(RECORDS[0], b"\x08\x01", RECORDS[2]), Kind.TRAJ)
    assert d.offset == STARTS[1]
    assert d.message.startswith("record 1: reference accepts, Kaitai rejects: ")


def test_a_record_only_one_reader_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    _kaitai_reads(monkeypatch, trajectory(*RECORDS[:2]))
    (d,) = differential(TRAJ, Kind.TRAJ)
    assert d.offset == STARTS[2] and d.message.startswith("record 2: only the reference reads it: ")
    monkeypatch.undo()
    _kaitai_reads(monkeypatch, TRAJ)
    (d,) = differential(trajectory(*RECORDS[:2]), Kind.TRAJ)
    assert d.offset == STARTS[2] and d.message.startswith("record 2: only Kaitai reads it: ")


@pytest.mark.parametrize("limit", [1, 20])
def test_at_most_limit_divergences(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    _kaitai_reads(monkeypatch, trajectory(*(frame_response(i, e=0.5) for i in range(30))))
    got = differential(trajectory(*(frame_response(i, e=1.5) for i in range(30))), Kind.TRAJ, limit)
    assert [d.message.split(":")[0] for d in got] == [f"record {i}" for i in range(limit)]


# --- the sample: which records the second reading is given ----------------------------------------------------


def test_a_recording_of_the_header_alone_is_read_whole() -> None:
    """16 bytes: a valid recording of no records (docs/formats/nanover.md, "Header")."""
    assert cross_check_evidence(HEADER) == "kaitai: agrees (every record of this file is in the sample)"


def test_a_recording_of_exactly_sample_above_bytes_is_read_whole() -> None:
    at = traj_of_size(nanover_x.SAMPLE_ABOVE)
    assert cross_check_evidence(at) == "kaitai: agrees (every record of this file is in the sample)"
    above = traj_of_size(nanover_x.SAMPLE_ABOVE + 1)
    assert "on a sample of" in cross_check_evidence(above)


@pytest.mark.parametrize("keys, left_out", [(8_192, False), (8_193, True)])
def test_a_record_of_more_than_xcheck_max_values_entries_is_left_out(keys: int, left_out: bool) -> None:
    """A state update of ``keys`` keys holds that many map entries; more than XCHECK_MAX_VALUES (8,192)
    and the record is left to the check's own walk."""
    msg = pb.StateUpdate()
    for i in range(keys):
        msg.changed_keys.fields[f"k{i}"].bool_value = True
    data = HEADER + record(1, msg.SerializeToString())
    evidence = cross_check_evidence(data, "state", "full")
    if left_out:
        assert evidence.startswith("kaitai: agrees on every record but 1, each above 8,192 map entries"), evidence
    else:
        assert evidence == "kaitai: agrees"


@pytest.mark.parametrize("over", [0, 1])
def test_the_sample_s_records_hold_at_most_1_byte_in_512_of_the_file_s(over: int) -> None:
    """README, "Kaitai cross-check": the sampled records hold at most 1 byte in 512 of the file's (floor).
    300 records, of which the hash (about 1 in 512, counted from 1) takes index 232 alone; that record
    holds exactly ``len // 512`` bytes (taken) or one byte more (left out: the header alone is read)."""
    chosen = [i for i in range(300) if _sample.is_chosen(i + 1, 512)]
    assert chosen == [232]
    # a size whose budget would be a byte less with 1 in 513 (for the record that fits), or a byte more with
    # 1 in 511 (for the one that does not)
    size = next(n for n in range(70_000, 80_000) if (n // 512 < n // 511 if over else n // 513 < n // 512))
    budget = size // 512
    record = budget + over
    filler, rest = divmod(size - 16 - record, 299)
    sizes = [filler] * 299
    sizes[0] += rest
    sizes.insert(232, record)
    data = traj_of_sizes(sizes)
    evidence = cross_check_evidence(data)
    if over:
        assert f"on a sample of 0 of 300 records (16 of {size:,} bytes" in evidence, evidence
    else:
        assert f"on a sample of 1 of 300 records ({16 + record:,} of {size:,} bytes" in evidence, evidence


def test_the_records_within_the_byte_budget_are_taken_in_order() -> None:
    """``_within_budget``: records of 10 bytes under a budget of 20 bytes: the first two fill it exactly
    (at most the budget), the third is left out but counted as the file's last; a tail is always taken."""
    chosen = [(0, 16, 26), (1, 26, 36), (2, 36, 46)]
    assert list(nanover_x._within_budget(iter(chosen), 20, 46)) == [(0, 16, 26), (1, 26, 36), (2, -1, 46)]
    assert list(nanover_x._within_budget(iter(chosen), 19, 46)) == [(0, 16, 26), (2, -1, 46)]
    assert list(nanover_x._within_budget(iter([(0, 16, 26), (1, 26, 47)]), 0, 46)) == [(1, 26, 47)]
    assert list(nanover_x._within_budget(iter(chosen[:2]), 100, 36)) == chosen[:2]


def test_every_record_of_a_file_up_to_sample_above_is_cut_into_the_sample() -> None:
    spans = list(nanover_x._record_spans(TRAJ))
    assert spans == [(STARTS[0], STARTS[1]), (STARTS[1], STARTS[2]), (STARTS[2], len(TRAJ))]
    sample = _sample.cut_chosen(TRAJ, 16, _sample.choose(iter(spans), 1, len(TRAJ), ends=False))
    assert sample.data == TRAJ and sample.chosen == sample.units == 3


# --- dump --ksy -------------------------------------------------------------------------------------------------


def test_the_ksy_dump_places_each_field_at_its_bytes() -> None:
    data = trajectory(_every_field())
    out = io.StringIO()
    nanover_x.dump_kaitai(io.BytesIO(data), out, Kind.TRAJ)
    header, line = (json.loads(x) for x in out.getvalue().splitlines())
    assert header == {"header": {"magic": 0x5C71E3C49989B7E3, "version": 2}}
    record = line["record"]
    assert line["offset"] == 16
    assert (record["timestamp_low@"], record["timestamp_high@"], record["len_payload@"]) == (
        [16, 24], [24, 32], [32, 40])
    first, second = record["payload"]["fields"]  # frame_index (field 1), frame (field 2)
    assert first["tag"]["key"] == 0x08 and first["tag@"] == [40, 41]
    assert first["body"] == (1 << 31) + 5 and first["body@"] == [41, 46]  # a varint of 32 bits: 5 bytes
    assert second["tag"]["key"] == 0x12 and second["tag@"] == [46, 47]
    entries = second["body"]["body"]["fields"]
    assert len(entries) == 9  # six values, three arrays
