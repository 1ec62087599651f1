"""No false alarms (and no false pass) on files built the way the formats' real writers build them.

Each test builds its file with the writer's own library or layout, not with recspec's encoder:
MessagePack by the PyPI ``msgpack`` package as msgpack-cxx 4.1.2-6.x packs a raSkat v3 signal; BSON
by pymongo as a writer that stores every number as a double; NanoVer payloads by the protobuf
runtime as NanoVer's Python recorder fills them.
"""

from __future__ import annotations

import struct

import msgpack
import pytest
from bson import encode as bson_encode
from google.protobuf import struct_pb2

import recspec
from recspec._pb import recspec_nanover_pb2 as pb
from recspec.report import Severity

# --- raSkat: msgpack-cxx 4.1.2-6.x packs a whole-number double as an integer ---------------------

#: signal.v3's fields (PROVENANCE.md), latitude first as the writer stores them
V3_FIELDS = ["20250624100658", 73755, 70.54321, 128.012345, 150.0, 500_000, 1000, 10, 3.299999952316284, 138, 1,
             list(range(100))]


def raskat_v3(fields: list, *, whole_doubles_as_ints: bool) -> bytes:
    """A raw v3 signal: the u16 LE version word, then the bare MessagePack objects. With
    ``whole_doubles_as_ints`` the doubles that hold whole numbers are packed as integers, as
    msgpack-cxx 4.1.2 to 6.x does (``msgpack::pack(double)`` writes 150.0 as the fixint 150)."""
    out = [struct.pack("<H", 3)]
    for x in fields:
        if whole_doubles_as_ints and type(x) is float and x.is_integer():
            x = int(x)
        out.append(msgpack.packb(x, use_bin_type=True))
    return b"".join(out)


def test_raskat_whole_number_double_packed_as_int_is_not_an_error_under_compat():
    data = raskat_v3(V3_FIELDS, whole_doubles_as_ints=True)
    assert data[2:].count(b"\xcb") == 3  # three doubles left as float 64; the altitude is the fixint 150
    report = recspec.check(data, format="raskat-signal", profile="compat")
    assert report.verdict.value == "valid"
    assert not [f for f in report.findings if f.severity is Severity.ERROR]
    assert "RSIG-FIELDS-001" not in {f.rule for f in report.findings}
    # spec holds the writer to the document's type, by its own rule
    assert report.verdicts["spec"].rules.get("RSIG-FIELDS-003") == 1


def test_raskat_one_non_float_coordinate_does_not_skip_the_others_range_checks():
    fields = list(V3_FIELDS)
    fields[2] = 95.0  # the writer's latitude, out of range
    fields[4] = None  # the altitude stored as nil: RSIG-FIELDS-001
    report = recspec.check(raskat_v3(fields, whole_doubles_as_ints=False), format="raskat-signal", profile="compat")
    rules = [f.rule for f in report.findings]
    assert "RSIG-FIELDS-001" in rules
    coord = [f for f in report.findings if f.rule == "RSIG-COORD-002"]
    assert [f.actual for f in coord] == [95.0]


# --- Matrix-SMT: every number a double ------------------------------------------------------------


def matrix_all_doubles(state_id: float = 1.0) -> bytes:
    """A recording as a writer that stores every number as a double writes it (pymongo encodes a
    Python float as a BSON double): object ids 0.0 and 1.0."""
    q = [0.0, 0.0, 0.0, 1.0]
    doc = {
        "objects": [
            {"id": 0.0, "name": "ball", "type": "sphere", "color": [1.0, 0.0, 0.0], "radius": 0.5},
            {"id": 1.0, "name": "box", "type": "box", "color": [0.0, 1.0, 0.0], "half_dimentions": [1.0, 1.0, 1.0]},
        ],
        "frames": [
            {"states": [{"id": 0.0, "i": "i", "m": "", "p": [0.0, 1.0, 0.0], "r": q},
                        {"id": state_id, "i": "i", "m": "", "p": [2.0, 0.0, 0.0], "r": q}], "cmd": [], "t": 0.0},
            {"states": [{"id": state_id, "i": "d", "m": "", "p": [2.0, 0.0, 0.0], "r": q}], "cmd": [], "t": 1.0},
        ],
    }
    return bson_encode(doc)


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_matrix_whole_number_ids_stored_as_doubles_are_ids(profile):
    report = recspec.check(matrix_all_doubles(), format="matrix-smt", profile=profile)
    assert report.verdict.value == "valid", [(f.rule, f.message) for f in report.findings]
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_matrix_a_fractional_id_is_still_an_error():
    report = recspec.check(matrix_all_doubles(state_id=1.5), format="matrix-smt")
    assert "MATRIX-STATE-001" in {f.rule for f in report.findings}


@pytest.mark.parametrize("meta", [{"$ref": 1, "$id": 2}, {"$ref": "c", "$id": 2, "$db": 1}, {"$ref": "c"}])
def test_matrix_cross_check_takes_dbrefs_as_pymongo_does(meta):
    """dbref.json of the MongoDB BSON corpus, valid cases 4, 7 and 8: a non-string $ref, a non-string
    $db, or no $id leave a document a document. An ignored extra key holding one is no divergence."""
    from bson import decode

    doc = decode(matrix_all_doubles())
    doc["meta"] = meta
    report = recspec.check(bson_encode(doc), format="matrix-smt")
    assert "MATRIX-XCHECK-001" not in {f.rule for f in report.findings}
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_matrix_cross_check_still_sees_a_real_dbref():
    from bson import decode

    doc = decode(matrix_all_doubles())
    doc["meta"] = {"$ref": "c", "$id": 2}  # pymongo reads this one as a DBRef
    report = recspec.check(bson_encode(doc), format="matrix-smt")
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_matrix_time_key_the_viewer_does_not_read_warns_under_compat():
    """The producer's frames keep their time under 'time' (Scene1.bson); the viewer reads 't'."""
    doc = {"objects": [{"id": 0, "name": "a", "type": "sphere", "color": [1, 0, 0], "radius": 1}],
           "frames": [{"cmd": "", "states": [{"id": 0, "i": "i", "m": "", "p": [0, 0, 0], "r": [0, 0, 0, 1]}],
                       "time": 0.5}]}
    report = recspec.check(bson_encode(doc), format="matrix-smt", profile="compat")
    assert report.verdict.value == "valid"
    assert [(f.rule, f.severity) for f in report.findings] == [("MATRIX-FRAME-005", Severity.WARNING)]


# --- NanoVer -----------------------------------------------------------------------------------------

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
