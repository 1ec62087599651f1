"""The NanoVer checker's kind detection and rules on inputs its fast paths cannot prove, from the
document (docs/formats/nanover.md: "Kind detection by content reads at most the first 8 records";
the header is 16 bytes, a record head 24). Written against the survivors tools/mutate.py found in
conformance/nanover/_check.py; files are put together with tests/witness_nanover.py's helpers (the
protobuf runtime, not the reference encoder)."""

from __future__ import annotations

import io
import math

import pytest
from witness_nanover import File, frame, update

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance.nanover import check_stream
from recspec.conformance.nanover._check import _Walk
from recspec.report import Severity


def _split_update(changes: dict[str, object]) -> bytes:
    """A StateUpdate whose changed_keys is written as one field per key: the same message when
    parsed (protobuf merges repeated message fields), but not the bytes upb writes, so the fast
    path cannot prove it and the wire walk reads it."""
    return b"".join(update({k: v}) for k, v in changes.items())


def _check(f: File, name: str, profile: str = "spec"):  # type: ignore[no-untyped-def]
    data = f.bytes()
    return check_stream(io.BytesIO(data), path=name, size=len(data), profile=profile)


def test_a_state_file_without_extension_is_detected_from_records_the_walk_reads() -> None:
    payloads = [_split_update({"a": 1.0, "b": "x"}), _split_update({"c": True, "a": None}),
                _split_update({"d": 2.0, "e": 3.0})]
    report = _check(File("state", payloads, [10, 20, 30]), "x.nanover")
    assert report.variant == "state"
    evidence = report.evidence["variant"]
    assert evidence["method"] == "content" and evidence["records_read"] == 3
    assert evidence["fit"]["state"] == "3 of 3 records"


def test_detection_stops_after_eight_records() -> None:
    payloads = [_split_update({f"k{i}": 1.0, f"j{i}": 2.0}) for i in range(12)]
    report = _check(File("state", payloads, list(range(1, 13))), "x.nanover")
    assert report.variant == "state"
    assert report.evidence["variant"]["records_read"] == 8
    assert report.evidence["variant"]["fit"]["state"] == "8 of 8 records"


def test_a_traj_file_without_extension_is_detected_from_frames_the_walk_reads() -> None:
    # frame_index written after the frame: the same message, not upb's field order
    payloads = [frame(1, {"particle.count": 1}, {"particle.positions": ("float", [0.0, 1.0, 2.0])})]
    reordered = [p[2:] + p[:2] if p[:1] == b"\x08" else p for p in payloads]
    report = _check(File("traj", reordered, [5]), "x.nanover")
    assert report.variant == "traj" and report.evidence["variant"]["fit"]["traj"] == "1 of 1 records"


def test_a_record_with_an_unknown_root_field_fits_neither_kind() -> None:
    # field 9, varint 1 (0x48 0x01): in neither StateUpdate nor GetFrameResponse; the walk lists it
    payloads = [_split_update({"a": 1.0, "b": 2.0}) + b"\x48\x01", _split_update({"c": 1.0, "d": 2.0}) + b"\x48\x01"]
    report = _check(File("state", payloads, [10, 20]), "x.nanover")
    assert report.evidence["variant"]["fit"] == {"traj": "0 of 2 records", "state": "0 of 2 records"}


def _frames_of_one_shape(n: int) -> list[bytes]:
    """A reset frame and ``n - 1`` frames moving its one particle: the frames after the second repeat
    the shape of the one before, which the checker's frame templates prove clean in bulk."""
    out = [frame(0, {"particle.count": 1}, {"particle.positions": ("float", [0.0, 0.0, 0.0])})]
    out += [frame(i, arrays={"particle.positions": ("float", [float(i), 0.5, 0.25])}) for i in range(1, n)]
    return out


def _time_findings(report) -> list[tuple[str, int | None, int | None, str]]:  # type: ignore[no-untyped-def]
    return [(f.rule, f.offset, f.length, f.path) for f in report.findings if f.rule.startswith("NANOVER-TIME")]


def test_a_repeated_timestamp_among_repeated_frames_is_not_strictly_increasing() -> None:
    f = File("traj", _frames_of_one_shape(5), [100, 200, 300, 300, 400])
    report = _check(f, "x.traj")
    # TIME-003 (not TIME-002: equal is not before), the record head's 16-byte timestamp
    assert _time_findings(report) == [("NANOVER-TIME-003", f.record_at(3), 16, "record[3].timestamp")]


def test_a_timestamp_before_the_previous_among_repeated_frames() -> None:
    f = File("traj", _frames_of_one_shape(5), [100, 200, 300, 299, 400])
    assert _time_findings(_check(f, "x.traj")) == [("NANOVER-TIME-002", f.record_at(3), 16, "record[3].timestamp")]


def test_a_timestamp_upper_half_is_its_last_eight_bytes() -> None:
    f = File("traj", _frames_of_one_shape(3), [100, (1 << 64) + 200, (1 << 64) + 300])
    found = _time_findings(_check(f, "x.traj"))
    assert ("NANOVER-TIME-001", f.record_at(1) + 8, 8, "record[1].timestamp") in found
    assert ("NANOVER-TIME-001", f.record_at(2) + 8, 8, "record[2].timestamp") in found


def test_a_state_update_repeating_the_one_before_is_judged_again() -> None:
    # the second deletion of "a" deletes a key the state no longer holds, although its bytes repeat a
    # clean update's: only frames are proved by the shape of the one before
    f = File("state", [update({"a": 1.0}), update({"a": 1.0}), update({"a": None}), update({"a": None})],
             [10, 20, 30, 40])
    found = [(x.rule, x.offset, x.path) for x in _check(f, "x.state").findings]
    assert found == [("NANOVER-STATE-001", f.payload_at(3), "record[3]/changed_keys['a']")]


def test_a_state_update_like_the_one_before_deleting_an_unset_key() -> None:
    f = File("state", [update({"a": 1.0}), update({"a": 2.0}), update({"b": None})], [10, 20, 30])
    found = [(x.rule, x.offset, x.path) for x in _check(f, "x.state").findings]
    assert found == [("NANOVER-STATE-001", f.payload_at(2), "record[2]/changed_keys['b']")]


def test_repeated_timestamps_of_empty_records_past_the_stored_findings_are_all_counted() -> None:
    # 1 empty record, then 150 more at the same timestamp: 150 NANOVER-TIME-003 warnings (a warning
    # under spec), of which the report stores the first 100 (MAX_FINDINGS_PER_RULE) and counts the rest
    f = File("traj", [b""] * 151, [1000] * 151)
    report = _check(f, "x.traj")
    stored = [x for x in report.findings if x.rule == "NANOVER-TIME-003"]
    assert len(stored) == 100 and stored[0].offset == f.record_at(1)
    assert report.count(Severity.WARNING) == 150
    assert {x.rule for x in report.findings} == {"NANOVER-TIME-003"}


def _findings(report) -> list[tuple[str, int | None, str, object, object]]:  # type: ignore[no-untyped-def]
    return [(x.rule, x.offset, x.path, x.expected, x.actual) for x in report.findings]


def test_a_header_version_other_than_two_is_its_eight_bytes_at_eight() -> None:
    f = File("traj", _frames_of_one_shape(1), [5], version=3)
    found = [(x.rule, x.offset, x.length, x.path, x.expected, x.actual) for x in _check(f, "x.traj").findings]
    assert found == [("NANOVER-HEADER-002", 8, 8, "header.version", 2, 3)]


def _bonded(orders: int) -> bytes:
    # 3 particles, bonds 0-1 and 1-2: bond.pairs holds 2B = 4 indices, bond.orders B = 2 floats
    return frame(0, {"particle.count": 3}, {"particle.positions": ("float", [0.0] * 9),
                                            "bond.pairs": ("index", [0, 1, 1, 2]),
                                            "bond.orders": ("float", [1.0] * orders)})


def test_bond_orders_hold_one_float_per_bond() -> None:
    assert _check(File("traj", [_bonded(2)], [5]), "x.traj").findings == []
    f = File("traj", [_bonded(3)], [5])
    assert _findings(_check(f, "x.traj")) == [("NANOVER-FRAME-002", f.payload_at(0), "record[0]/arrays['bond.orders']",
                                              2, 3)]


def _with_unset_in_list(msg_map, key: str) -> None:  # type: ignore[no-untyped-def]
    """``key`` set to a list holding a number and a Value with no kind set (an empty Value on the wire)."""
    lst = msg_map[key].list_value
    lst.values.add().number_value = 1.0
    lst.values.add()


def test_a_list_holding_a_value_with_no_kind_in_a_state_update() -> None:
    msg = pb.StateUpdate()
    _with_unset_in_list(msg.changed_keys.fields, "a")
    f = File("state", [update({"b": 1.0}), msg.SerializeToString()], [10, 20])
    assert _findings(_check(f, "x.state")) == [("NANOVER-PROTO-005", f.payload_at(1), "record[1]/changed_keys['a']",
                                               None, None)]


def test_a_list_holding_a_value_with_no_kind_in_a_frame() -> None:
    msg = pb.GetFrameResponse(frame_index=0)
    _with_unset_in_list(msg.frame.values, "user.list")
    f = File("traj", [msg.SerializeToString()], [10])
    assert _findings(_check(f, "x.traj")) == [("NANOVER-PROTO-005", f.payload_at(0), "record[0]/values['user.list']",
                                              None, None)]


def test_a_frame_touching_no_standard_key_does_not_repeat_the_aggregate_findings() -> None:
    # record 0: particle.count 2 with 3 positions (6 needed): FRAME-001; record 1 sets only a key of its
    # own, so the aggregate frame's counts and shapes are what record 0 left and nothing is re-reported
    f = File("traj", [frame(0, {"particle.count": 2}, {"particle.positions": ("float", [0.0, 1.0, 2.0])}),
                      frame(1, {"user.score": 7.0})], [10, 20])
    assert _findings(_check(f, "x.traj")) == [("NANOVER-FRAME-001", f.payload_at(0),
                                              "record[0]/arrays['particle.positions']", 6, 3)]


@pytest.fixture(params=[True, False], ids=["fast_rules", "general_rules"])
def rules_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Each frame-rule test twice: with the checker's inline shortcuts, and with its general code only
    (``_Walk.fast_rules`` off); the two must make the same findings."""
    monkeypatch.setattr(_Walk, "fast_rules", request.param)
    return bool(request.param)


@pytest.mark.parametrize("count, whole", [(0, True), (3, True), (2.5, False), (-1, False), (math.inf, False)])
def test_a_count_is_a_whole_non_negative_number(rules_path: bool, count: float, whole: bool) -> None:
    f = File("traj", [frame(0, {"particle.count": count})], [10])
    expected = [] if whole else [("NANOVER-FRAME-004", f.payload_at(0), "record[0]/values['particle.count']",
                                  "a whole number >= 0", count)]
    assert _findings(_check(f, "x.traj")) == expected


def test_a_standard_array_of_another_kind(rules_path: bool) -> None:
    f = File("traj", [frame(0, {"particle.count": 1}, {"particle.positions": ("index", [1, 2, 3])})], [10])
    assert _findings(_check(f, "x.traj")) == [("NANOVER-FRAME-004", f.payload_at(0),
                                              "record[0]/arrays['particle.positions']", "float_values",
                                              "index_values")]


def test_an_empty_index_array_where_floats_are_documented(rules_path: bool) -> None:
    # FRAME-006 (as the Python recorder writes an empty list), read as an empty float array: 0 floats is
    # 3 * particle.count for no particle, but not the 9 system.box.vectors holds
    f = File("traj", [frame(0, {"particle.count": 0}, {"particle.positions": ("index", []),
                                                       "system.box.vectors": ("index", [])})], [10])
    found = [(x.rule, x.path, x.expected, x.actual) for x in _check(f, "x.traj", profile="compat").findings]
    assert sorted(found) == [
        ("NANOVER-FRAME-004", "record[0]/arrays['system.box.vectors']", 9, 0),
        ("NANOVER-FRAME-006", "record[0]/arrays['particle.positions']", "float_values", "index_values"),
        ("NANOVER-FRAME-006", "record[0]/arrays['system.box.vectors']", "float_values", "index_values")]


def test_a_bond_past_the_last_particle(rules_path: bool) -> None:
    f = File("traj", [frame(0, {"particle.count": 2}, {"particle.positions": ("float", [0.0] * 6),
                                                       "bond.pairs": ("index", [0, 2])})], [10])
    assert _findings(_check(f, "x.traj")) == [("NANOVER-FRAME-002", f.payload_at(0), "record[0]/arrays['bond.pairs']",
                                              "< 2", 2)]
