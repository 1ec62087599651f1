"""The Matrix-SMT checker through the CLI and its entry points: format detection
and aliases, both profiles, the resource limits with their findings, the fast
path, dump, and the rule catalog."""

from __future__ import annotations

import io
import json
import struct

import pytest

from recspec.cli import main
from recspec.conformance.matrix_smt import RULES, check, check_stream, dump, sniff
from recspec.conformance.matrix_smt._seeds import BASE
from recspec.formats import FORMATS, resolve_format
from recspec.reference import matrix_smt as b

# private on purpose: the limits are read at call time from the modules that enforce them, where the tests lower them
from recspec.reference.matrix_smt import _bson, _walker, encode
from recspec.report import Severity, Verdict

SPEC = encode(BASE, profile="spec")
COMPAT = encode(BASE, profile="compat")


def _check(data: bytes, profile: str = "spec", **kw):  # type: ignore[no-untyped-def]
    return check_stream(io.BytesIO(data), path="x.bson", profile=profile, **kw)


@pytest.mark.parametrize("alias", ["matrix-smt", "matrix", "smt", "MATRIX"])
def test_aliases(alias: str) -> None:
    assert resolve_format(alias).id == "matrix-smt"


def test_sniff_claims_recordings_and_not_other_formats() -> None:
    assert sniff(SPEC[:4096]) == 1.0 and sniff(COMPAT[:4096]) == 1.0
    assert sniff(b"\x00\x00CARLA_RECORDER") == 0.0
    assert sniff(b"") == 0.0
    assert 0 < sniff(b.encode_document({"hello": 1})) < 0.5  # BSON, but not obviously a recording


def test_spec_and_compat_encodings_under_both_profiles() -> None:
    assert _check(SPEC).verdict is Verdict.VALID and _check(SPEC).findings == []
    assert _check(SPEC, "compat").findings == []
    # compat accepts the producer's 'time' key but warns: the viewer does not read it (MATRIX-FRAME-005)
    compat = _check(COMPAT, "compat")
    assert compat.verdict is Verdict.VALID
    assert [(f.rule, f.severity.value, f.path) for f in compat.findings] == [
        ("MATRIX-FRAME-005", "warning", f"frames[{i}].time") for i in range(3)]
    spec = _check(COMPAT)
    assert spec.verdict is Verdict.INVALID
    # written from the decisions: 3 frames with 'time'; 2 frames without commands write cmd "";
    # one 'destroyed' flag (object 12 in frame 1)
    got = sorted((f.rule, f.path) for f in spec.findings)
    assert got == [("MATRIX-FRAME-001", "frames[0].time"), ("MATRIX-FRAME-001", "frames[1].time"),
                   ("MATRIX-FRAME-001", "frames[2].time"), ("MATRIX-FRAME-003", "frames[0].cmd"),
                   ("MATRIX-FRAME-003", "frames[2].cmd"), ("MATRIX-STATE-003", "frames[1].states[3].i")]
    # the same walk judged compat too
    assert spec.verdicts["compat"].verdict is Verdict.VALID and spec.verdicts["compat"].rules == {
        "MATRIX-FRAME-005": 3}


def test_fast_path_takes_the_canonical_frames() -> None:
    report = _check(SPEC)
    assert report.evidence["fast_path_frames"] == 3  # frame 1's debug commands too (_fastpath._commands)
    assert report.stats == {"objects": 4, "frames": 3, "states": 11, "commands": 4, "duration_s": 0.15}


def test_missing_command_fields_take_the_viewers_defaults_under_compat() -> None:
    doc = b.decode_document(SPEC)
    cube = doc.get("frames")[1].get("cmd")[3]
    i = cube.keys.index("rw")
    del cube.keys[i], cube.values[i]
    cube._map = None
    data = b.encode_document(doc)
    assert [f.rule for f in _check(data).findings] == ["MATRIX-CMD-002"]
    # compat: rw defaults to 1, and (1, 0, 0, 1) is not a unit quaternion
    assert [f.rule for f in _check(data, "compat").findings] == ["MATRIX-QUAT-001"]


def test_buffered_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_walker, "MAX_BUFFERED_SIZE", 200)
    report = _check(SPEC)
    assert report.verdict is Verdict.MALFORMED
    limits = [f for f in report.findings if f.rule == "MATRIX-LIMIT-002"]
    # objects (about 600 bytes) is not read; the frames walk stops at the first frame over the limit
    assert [(f.path, f.offset) for f in limits] == [
        ("objects", 4 + len(b"\x04objects\x00")),
        ("frames[0]", SPEC.index(b"\x04frames\x00") + len(b"\x04frames\x00") + 4 + len(b"\x030\x00"))]


def test_element_count_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_bson, "MAX_ELEMENTS", 20)
    report = _check(SPEC, fast_path=False)
    assert report.verdict is Verdict.MALFORMED
    assert "MATRIX-LIMIT-003" in {f.rule for f in report.findings}


def test_depth_limit_finding() -> None:
    deep: object = 1
    for _ in range(b.MAX_DEPTH + 1):
        deep = b.Document.of(("d", deep))
    doc = b.decode_document(SPEC)
    doc.keys.append("extra")
    doc.values.append(deep)
    report = _check(b.encode_document(doc))
    assert report.verdict is Verdict.MALFORMED
    (finding,) = [f for f in report.findings if f.rule == "MATRIX-LIMIT-001"]
    assert finding.path.startswith("extra") and finding.expected == b.MAX_DEPTH


def test_cross_check_is_skipped_above_its_limit_with_a_note() -> None:
    report = check(io.BytesIO(SPEC), path="x", variant=None, profile="spec", size=len(SPEC), cross_check=True,
                   cross_check_limit=100)
    assert report.evidence["cross_check"].startswith("skipped: ")
    assert "--cross-check-limit" in report.evidence["cross_check"]
    report = check(io.BytesIO(SPEC), path="x", variant=None, profile="spec", size=len(SPEC), cross_check=True)
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_cli_exit_codes_and_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    good, bad = tmp_path / "good.bson", tmp_path / "bad.bson"
    good.write_bytes(SPEC)
    bad.write_bytes(SPEC[:-10])
    assert main(["check", str(good)]) == 0
    capsys.readouterr()
    assert main(["check", "--json", str(good), str(bad)]) == 1
    out = json.loads(capsys.readouterr().out)
    verdicts = {f["path"].rsplit("/", 1)[-1]: f["verdict"] for f in out["files"]}
    assert verdicts == {"good.bson": "valid", "bad.bson": "malformed"}
    assert main(["check", "--profile", "compat", "--format", "smt", str(good)]) == 0


def test_dump_streams_frames_as_json(capsys) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    dump(io.BytesIO(SPEC), out, variant=None, ksy=False)
    doc = json.loads(out.getvalue())
    assert [s["key"] for s in doc["sections"]] == ["objects", "frames"]
    frames = doc["sections"][1]["entries"]
    assert [f["value"]["t"] for f in frames] == [0.05, 0.1, 0.15]
    assert frames[0]["offset"] == doc["sections"][1]["offset"] + len(b"\x04frames\x00") + 4
    out = io.StringIO()
    dump(io.BytesIO(SPEC), out, variant=None, ksy=True)
    kdoc = json.loads(out.getvalue())
    assert [s["read_as"] for s in kdoc["sections"]] == ["objects", "frames"]
    out = io.StringIO()
    dump(io.BytesIO(SPEC[:40]), out, variant=None, ksy=False)
    assert json.loads(out.getvalue())["error"]["rule"] == "MATRIX-BSON-007"


def test_rule_catalog() -> None:
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    assert all(r.levels.keys() == {"spec", "compat"} for r in RULES)
    structural = {r.id for r in RULES if r.structural}
    assert structural == {f"MATRIX-BSON-00{i}" for i in range(1, 8)} | {f"MATRIX-LIMIT-00{i}" for i in (1, 2, 3)}
    levels = {r.id: (r.levels["spec"], r.levels["compat"]) for r in RULES}
    assert levels["MATRIX-DOC-002"] == (Severity.INFO, Severity.INFO)
    assert levels["MATRIX-BSON-009"] == (Severity.ERROR, Severity.WARNING)
    assert "matrix-smt" in FORMATS


def test_frames_array_keys_degenerate_is_a_warning() -> None:
    data = SPEC.replace(b"\x030\x00", b"\x039\x00", 1)  # the first object... or frame: key "0" becomes "9"
    report = _check(data)
    assert {f.rule for f in report.findings} == {"MATRIX-BSON-008"}
    assert report.verdict is Verdict.VALID


def test_time_in_int32_and_int64_is_a_number() -> None:
    doc = b.decode_document(SPEC)
    frames = doc.get("frames")
    for i, v in enumerate((0, b.Int64(1), 2)):
        f = frames[i]
        f.values[f.keys.index("t")] = v
        f._map = None
    assert _check(b.encode_document(doc)).findings == []


def test_struct_edit_of_a_state_quaternion_is_located() -> None:
    doc = b.decode_document(SPEC)
    r = doc.get("frames")[0].get("states")[2].get("r")
    r.values[3] = 0.5
    data = b.encode_document(doc)
    (finding,) = _check(data).findings
    assert finding.rule == "MATRIX-QUAT-001" and finding.path == "frames[0].states[2].r"
    assert data[finding.offset:finding.offset + 3] == b"\x04r\x00"
    assert struct.unpack_from("<i", data, finding.offset + 3)[0] == 49


def test_reproduce_shows_all_three_readings(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bool.bson"
    path.write_bytes(SPEC.replace(b"\x08static\x00\x00", b"\x08static\x00\x02", 1))
    assert main(["reproduce", str(path)]) == 0
    out = capsys.readouterr().out
    assert "MATRIX-BSON-003" in out and "kaitai:    rejects" in out and "pymongo:   rejects" in out
    assert "the readings agree" in out


@pytest.mark.parametrize(("points", "volume"), [
    ([[0, 1, 0], [-1, 0, 0], [1, 0, 0], [0, 0, -1], [0, 0, 1]], True),  # Scene1's convex
    ([[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]], False),  # a square
    ([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]], False),  # a line
    ([[5, 5, 5]] * 4, False),  # one point
    ([[0, 0, 0], [1e-3, 0, 0], [0, 1e-3, 0], [0, 0, 1e-3]], True),  # small but solid
    ([[1e6, 0, 0], [1e6 + 1, 0, 0], [1e6, 1, 0], [1e6, 0, 1]], True),  # far from the origin
], ids=["scene1", "square", "line", "point", "small", "far"])
def test_convex_hull_volume(points: list, volume: bool) -> None:
    from recspec.conformance.matrix_smt._check import _spans_volume

    assert _spans_volume([[float(c) for c in p] for p in points]) is volume


def test_typed_reader_rejects_an_unhashable_flag_with_a_model_error() -> None:
    from recspec.reference.matrix_smt import ModelError, from_document

    doc = b.decode_document(SPEC)
    state = doc.get("frames")[0].get("states")[0]
    state.values[state.keys.index("i")] = b.Array.of_values([1.0])
    state._map = None
    with pytest.raises(ModelError):
        from_document(doc)


def _document(body: bytes) -> bytes:
    """A BSON document: int32 length (itself, the body and the final NUL), the body, NUL."""
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


@pytest.mark.parametrize("element, rule", [
    (b"\x03" + b"7\x00" + struct.pack("<i", 0), "MATRIX-BSON-001"),  # an embedded document of declared length 0
    (b"\x00" + b"7\x00", "MATRIX-BSON-002"),  # element type 0x00 inside the array
], ids=["length-0", "type-0"])
def test_a_break_inside_a_frames_element_names_its_place_not_its_key(element: bytes, rule: str) -> None:
    """The frames array's first element (index 0) carries key '7'; the break lies inside it, so the finding
    names frames[0], the unit the walk entered (and counts: no frame before it is complete)."""
    frames = _document(element + b"\x00" * 8)  # padding: the element's bytes lie inside the array
    data = _document(b"\x04frames\x00" + frames)
    report = _check(data)
    broken = [f for f in report.findings if f.rule == rule]
    assert broken and broken[0].path == "frames[0]", [(f.rule, f.path) for f in report.findings]
    assert report.stats["frames"] == 0
