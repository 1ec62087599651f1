"""No false alarms (and no false pass) on NanoVer files built the way the format's real writers build them:
payloads by the protobuf runtime as NanoVer's Python recorder fills them, not with recspec's encoder."""

from __future__ import annotations

import struct

import pytest
from google.protobuf import struct_pb2

import recspec
from recspec._pb import recspec_nanover_pb2 as pb
from recspec.report import Severity

MAGIC = bytes.fromhex("e3b78999c4e3715c")


def nanover_file(payloads: list[bytes]) -> bytes:
    """The NanoVer v2 container: magic, u64 version 2, then (u128 timestamp, u64 length, payload)."""
    out = [MAGIC, struct.pack("<Q", 2)]
    for i, p in enumerate(payloads):
        out.append(struct.pack("<QQQ", 1000 * (i + 1), 0, len(p)) + p)
    return b"".join(out)


def recorder_frame(index: int, arrays: dict[str, list], values: dict[str, float]) -> bytes:
    """A GetFrameResponse as NanoVer's Python recorder fills it: each array's kind is picked from its
    first element (a float array for floats, a string array for strings), so an empty list becomes an
    index array."""
    msg = pb.GetFrameResponse(frame_index=index)
    for key, items in arrays.items():
        va = msg.frame.arrays[key]
        if items and isinstance(items[0], float):
            va.float_values.values.extend(items)
        elif items and isinstance(items[0], str):
            va.string_values.values.extend(items)
        else:
            va.index_values.SetInParent()
            va.index_values.values.extend(items)
    for key, x in values.items():
        msg.frame.values[key].number_value = x
    return msg.SerializeToString()


def test_nanover_empty_arrays_typed_as_index_arrays_are_at_most_a_warning_under_compat():
    frames = [recorder_frame(0, {"particle.positions": [0.0, 0.0, 0.0], "particle.names": ["A"],
                                 "forces.user.index": [], "forces.user.sparse": []}, {"particle.count": 1.0}),
              recorder_frame(1, {"particle.positions": [1.0, 0.0, 0.0], "particle.names": []}, {"particle.count": 1.0})]
    data = nanover_file(frames)
    report = recspec.check(data, format="nanover", variant="traj", profile="compat")
    assert report.verdict.value != "malformed"
    errors = [(f.rule, f.message) for f in report.findings if f.severity is Severity.ERROR]
    # particle.names really is one name short in frame 1 (the empty list replaced the names)
    assert errors == [("NANOVER-FRAME-001", errors[0][1])] and "particle.names" in errors[0][1]
    empty = [f for f in report.findings if f.rule == "NANOVER-FRAME-006"]
    assert len(empty) == 2 and all(f.severity is Severity.WARNING for f in empty)
    assert "NANOVER-FRAME-004" not in {f.rule for f in report.findings}


def nested_struct_state(levels: int) -> bytes:
    """A .state whose update holds a value of ``levels`` nested Structs, as protobuf's struct_pb2 (which
    NanoVer's Python server uses for its shared state) serialises it."""
    update = pb.StateUpdate()
    cur = update.changed_keys.fields["deep"].struct_value
    for _ in range(levels - 1):
        cur = cur.fields["d"].struct_value
    cur.fields["x"].number_value = 1.0
    return nanover_file([update.SerializeToString()])


@pytest.mark.parametrize("levels", [16, 31])
def test_nanover_nesting_counts_each_struct_once(levels):
    data = nested_struct_state(levels)
    pb.StateUpdate.FromString(data[16 + 24:])  # the protobuf runtime reads it
    report = recspec.check(data, format="nanover", variant="state")
    assert report.verdict.value == "valid", [(f.rule, f.message) for f in report.findings]
    assert report.evidence["cross_check"].startswith("kaitai: agrees")  # a one-record file: all of it is read


def test_nanover_nesting_past_the_limit_is_still_rejected_by_both_readers():
    report = recspec.check(nested_struct_state(40), format="nanover", variant="state")
    assert report.verdict.value == "malformed"
    assert [f.rule for f in report.findings] == ["NANOVER-LIMIT-002"]
    assert report.evidence["cross_check"].startswith("kaitai: agrees")  # a one-record file: all of it is read
    assert struct_pb2 is not None
