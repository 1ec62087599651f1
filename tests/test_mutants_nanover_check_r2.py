"""The NanoVer checker (conformance/nanover/_check.py) after its record walk took kind detection's
walks and its empty records in bulk: the resets a .traj counts (frame index 0 is a reset, proto/
recspec_nanover.proto), a run of one empty record, progress on a one-record file, records of the
other kind (NANOVER-PAYLOAD-001) when no detection ran, unknown fields (NANOVER-PROTO-003) and a
timestamp with an upper half (NANOVER-TIME-001 alone). Files are put together with
tests/witness_nanover.py's helpers (the protobuf runtime). Written against the survivors
tools/mutate.py found in the module when it was measured again."""

from __future__ import annotations

import io
import struct

import pytest
from witness_nanover import File, frame, update

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance.nanover import check_stream
from recspec.conformance.nanover._check import _Walk
from recspec.report import Severity


def _check(f: File, name: str):  # type: ignore[no-untyped-def]
    data = f.bytes()
    return check_stream(io.BytesIO(data), path=name, size=len(data))


def _located(report) -> list[tuple[str, int | None, int | None, str]]:  # type: ignore[no-untyped-def]
    return [(f.rule, f.offset, f.length, f.path) for f in report.findings]


def test_each_frame_of_index_zero_is_one_reset() -> None:
    payloads = [frame(0, {"particle.count": 1}), frame(1), frame(2), frame(0, {"particle.count": 2}), frame(1)]
    report = _check(File("traj", payloads, [10, 20, 30, 40, 50]), "x.traj")
    assert report.findings == []
    assert (report.stats["resets"], report.stats["first_frame_index"], report.stats["last_frame_index"]) == (2, 0, 1)


def test_a_traj_without_a_reset_counts_none() -> None:
    report = _check(File("traj", [frame(3), frame(4)], [10, 20]), "x.traj")
    assert (report.stats["resets"], report.stats["first_frame_index"]) == (0, 3)


def test_one_empty_record_after_an_empty_record() -> None:
    # an empty GetFrameResponse is frame index 0: a reset that touches no key
    payloads = [b"", b"", frame(1, {"particle.count": 1})]
    report = _check(File("traj", payloads, [10, 20, 30]), "x.traj")
    assert report.findings == []
    assert (report.stats["records"], report.stats["resets"], report.stats["last_frame_index"]) == (3, 2, 1)


def test_a_one_record_file_reports_progress() -> None:
    data = File("traj", [frame(0, {"particle.count": 1})], [10]).bytes()
    calls: list[tuple[int, int]] = []
    check_stream(io.BytesIO(data), path="x.traj", size=len(data),
                 progress=lambda done, total: calls.append((done, total)))
    assert calls and all(0 <= done <= total == len(data) for done, total in calls)


def test_a_traj_record_holding_a_state_update_the_fast_path_cannot_prove() -> None:
    # changed_keys written as one field per key: the same StateUpdate, not the bytes upb writes
    split = update({"a": 1.0}) + update({"b": "x"})
    f = File("traj", [frame(0, {"particle.count": 1}), split], [10, 20])
    assert _located(_check(f, "x.traj")) == [("NANOVER-PAYLOAD-001", f.payload_at(1), len(split), "record[1]")]


def test_a_length_delimited_field_one_in_a_traj_record() -> None:
    # GetFrameResponse's field 1 is the uint32 frame index (a varint): 0a 00 is no frame, but it is an
    # empty StateUpdate, so the record holds the other kind
    f = File("traj", [frame(0, {"particle.count": 1}), b"\x0a\x00"], [10, 20])
    assert _located(_check(f, "x.traj")) == [("NANOVER-PAYLOAD-001", f.payload_at(1), 2, "record[1]")]


def test_unknown_fields_are_reported_at_the_first() -> None:
    # fields 9 and 10 (varints: 0x48 0x01, 0x50 0x02) after a frame: in no GetFrameResponse
    payload = frame(1, {"particle.count": 1}) + b"\x48\x01\x50\x02"
    f = File("traj", [frame(0, {"particle.count": 1}), payload], [10, 20])
    report = _check(f, "x.traj")
    at = f.payload_at(1) + len(payload) - 4
    assert _located(report) == [("NANOVER-PROTO-003", at, None, "record[1]:GetFrameResponse")]
    message = report.findings[0].message
    assert "unknown field 9 (wire type 0)" in message and "(and 1 more)" in message


def test_one_unknown_field() -> None:
    payload = frame(1, {"particle.count": 1}) + b"\x50\x02"
    f = File("traj", [frame(0, {"particle.count": 1}), payload], [10, 20])
    report = _check(f, "x.traj")
    assert _located(report) == [("NANOVER-PROTO-003", f.payload_at(1) + len(payload) - 2, None,
                                 "record[1]:GetFrameResponse")]
    assert "unknown field 10 (wire type 0)" in report.findings[0].message and "more" not in report.findings[0].message


def test_a_timestamp_with_an_upper_half_is_time_001_alone() -> None:
    # the u128 timestamp's upper half is its last eight bytes (record offset + 8); the gap it makes is no
    # NANOVER-TIME-003 of its own
    f = File("traj", [frame(0, {"particle.count": 1}), frame(1)], [100, (1 << 64) + 200])
    time = [x for x in _located(_check(f, "x.traj")) if x[0].startswith("NANOVER-TIME")]
    assert time == [("NANOVER-TIME-001", f.record_at(1) + 8, 8, "record[1].timestamp")]


def test_a_record_detection_read_and_refused_is_located_in_the_file() -> None:
    # a frame, then a frame whose last field (frame, tag 0x12) declares 5 bytes that are not there: kind
    # detection reads and refuses it; the walk gives its finding at the length's field, in the file
    good = frame(0, {"particle.count": 1})
    bad = frame(1, {"particle.count": 1}) + b"\x12\x05"
    f = File("traj", [good, bad], [10, 20])
    for name in ("x.nanover", "x.traj"):
        report = _check(f, name)
        assert [(x.rule, x.offset) for x in report.findings] == [("NANOVER-PROTO-001", f.payload_at(1) + len(bad) - 2)]
        assert report.findings[0].path.startswith("record[1]")
    assert _check(f, "x.nanover").variant == "traj"


def test_an_inconsistent_aggregate_is_reported_at_each_frame_that_touches_it() -> None:
    # particle.count 2 needs 6 position floats; each frame holds 3 and changes nothing else
    positions = ("float", [0.0, 0.0, 0.0])
    payloads = [frame(0, {"particle.count": 2}, {"particle.positions": positions}),
                frame(1, arrays={"particle.positions": positions}), frame(2, arrays={"particle.positions": positions})]
    f = File("traj", payloads, [1, 2, 3])
    assert _located(_check(f, "x.traj")) == [
        ("NANOVER-FRAME-001", f.payload_at(i), len(payloads[i]), f"record[{i}]/arrays['particle.positions']")
        for i in range(3)]


@pytest.mark.parametrize("fast_rules", [True, False])
def test_a_key_deleted_twice(monkeypatch: pytest.MonkeyPatch, fast_rules: bool) -> None:
    monkeypatch.setattr(_Walk, "fast_rules", fast_rules)
    payloads = [update({"a": 1.0, "b": 2.0}), update({"a": None}), update({"a": None})]
    f = File("state", payloads, [1, 2, 3])
    report = _check(f, "x.state")
    assert _located(report) == [("NANOVER-STATE-001", f.payload_at(2), len(payloads[2]), "record[2]/changed_keys['a']")]
    assert report.stats["state_keys"] == 1


def test_positions_emptied_by_an_empty_index_array() -> None:
    # NanoVer's Python recorder writes an empty list as an empty index array (NANOVER-FRAME-006): read as
    # no positions, which particle.count 1 (3 floats) no longer matches (NANOVER-FRAME-001)
    payloads = [frame(0, {"particle.count": 1}, {"particle.positions": ("float", [0.0, 0.0, 0.0])}),
                frame(1, arrays={"particle.positions": ("index", [])})]
    f = File("traj", payloads, [1, 2])
    where = "record[1]/arrays['particle.positions']"
    assert _located(_check(f, "x.traj")) == [("NANOVER-FRAME-006", f.payload_at(1), len(payloads[1]), where),
                                            ("NANOVER-FRAME-001", f.payload_at(1), len(payloads[1]), where)]


def test_repeated_timestamps_of_frames_past_the_stored_findings_are_all_counted() -> None:
    # 151 frames (not empty: each record takes the record walk) at one timestamp: 150 NANOVER-TIME-003
    # warnings, of which the report stores the first 100 (MAX_FINDINGS_PER_RULE) and counts the rest
    payloads = [frame(0, {"particle.count": 1})] + [frame(i, {"particle.count": 1}) for i in range(1, 151)]
    report = _check(File("traj", payloads, [1000] * 151), "x.traj")
    assert len([x for x in report.findings if x.rule == "NANOVER-TIME-003"]) == 100
    assert report.count(Severity.WARNING) == 150
    assert {x.rule for x in report.findings} == {"NANOVER-TIME-003"}


@pytest.mark.parametrize("n", [6, 8, 10])
def test_box_vectors_of_another_length_than_nine(n: int) -> None:
    # system.box.vectors: three vectors of three floats (docs/formats/nanover.md)
    payloads = [frame(0, {"particle.count": 1}, {"system.box.vectors": ("float", [1.0] * n)})]
    f = File("traj", payloads, [1])
    report = _check(f, "x.traj")
    assert _located(report) == [("NANOVER-FRAME-004", f.payload_at(0), len(payloads[0]),
                                 "record[0]/arrays['system.box.vectors']")]
    assert (report.findings[0].expected, report.findings[0].actual) == (9, n)


@pytest.mark.parametrize(("index", "bad"), [([0, 1], False), ([0, 2], True), ([3], True)])
def test_user_forces_index_particles_below_the_count(index: list[int], bad: bool) -> None:
    # docs/formats/nanover.md: forces.user.sparse holds 3 floats per forces.user.index entry, and those
    # indices are below N (particle.count 2 here)
    arrays = {"forces.user.index": ("index", index), "forces.user.sparse": ("float", [0.5] * (3 * len(index)))}
    payloads = [frame(0, {"particle.count": 2}, arrays)]
    f = File("traj", payloads, [1])
    expected = [("NANOVER-FRAME-001", f.payload_at(0), len(payloads[0]), "record[0]/arrays['forces.user.index']")]
    assert _located(_check(f, "x.traj")) == (expected if bad else [])


def test_dump_detects_an_unnamed_state_file_the_fast_path_cannot_prove() -> None:
    # no name to take the kind from: dump reads it from the first records' content, here an update whose
    # map entry holds its value field (12) before its key field (0a): the same message, not the order upb
    # writes, so the wire walk reads it
    from recspec.conformance.nanover._format import dump

    entry = b"\x12\x09\x11" + struct.pack("<d", 1.0) + b"\x0a\x01a"
    struct_ = b"\x0a" + bytes((len(entry),)) + entry
    payload = b"\x0a" + bytes((len(struct_),)) + struct_
    out = io.StringIO()
    dump(io.BytesIO(File("state", [payload, payload], [10, 20]).bytes()), out, variant=None, ksy=False)
    text = out.getvalue()
    assert '"variant": "state"' in text and text.count('"changes": {"a": 1.0}') == 2


def test_per_particle_arrays_without_a_particle_count() -> None:
    # docs/formats/nanover.md NANOVER-FRAME-001: per-particle arrays are sized by particle.count
    payloads = [frame(0, arrays={"particle.positions": ("float", [0.0, 0.0, 0.0])})]
    f = File("traj", payloads, [1])
    assert _located(_check(f, "x.traj")) == [("NANOVER-FRAME-001", f.payload_at(0), len(payloads[0]), "record[0]")]


@pytest.mark.parametrize("fast_rules", [True, False])
def test_a_state_key_holding_a_value_with_no_kind(monkeypatch: pytest.MonkeyPatch, fast_rules: bool) -> None:
    monkeypatch.setattr(_Walk, "fast_rules", fast_rules)
    msg = pb.StateUpdate()
    msg.changed_keys.fields["a"].number_value = 1.0
    msg.changed_keys.fields["k"].SetInParent()  # a Value with none of its kinds set
    payload = msg.SerializeToString()
    f = File("state", [update({"a": 2.0}), payload], [1, 2])
    assert _located(_check(f, "x.state")) == [("NANOVER-PROTO-005", f.payload_at(1), len(payload),
                                                "record[1]/changed_keys['k']")]
