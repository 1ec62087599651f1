"""The one public Matrix-SMT recording, ../shared/real/Scene1.bson.

The facts asserted here are PROVENANCE.md's and the research notes' (B.3),
written by hand. Under ``compat`` the file is valid with no finding; under
``spec`` it gets exactly the findings the profile decisions predict (written
here from the decisions, not captured from the checker):

* every one of the 500 frames stores its time under ``time`` (MATRIX-FRAME-001),
* every frame's ``cmd`` is the empty string (MATRIX-FRAME-003),
* the one ``"destroyed"`` flag, object 4 in frame 1 (MATRIX-STATE-003),

and nothing else: int32 colours, vertices and times are numbers (decision
B.5.2), ``frames`` before ``objects`` is fine (B.5.1), the static object's
states are fine (B.5.8), the unlisted object 4 after frame 1 keeps nothing
(B.5.6).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter

import pytest

from recspec.conformance.matrix_smt import check, check_stream
from recspec.conformance.matrix_smt._xcheck import differential
from recspec.reference.matrix_smt import (
    Geometry,
    Presence,
    RecordingWalker,
    decode,
    decode_document,
    encode,
    iter_frames,
)
from recspec.report import Severity, Verdict
from tests.helpers import real_file, run_cli

pytestmark = pytest.mark.requires_real_samples

SIZE = 280_376


@pytest.fixture(scope="module")
def scene1() -> bytes:
    return real_file("Scene1.bson").read_bytes()


def test_provenance_facts(scene1: bytes) -> None:
    assert len(scene1) == SIZE
    assert int.from_bytes(scene1[:4], "little") == SIZE  # declared length equals the file size
    doc = decode_document(scene1)
    assert doc.keys == ["frames", "objects"]
    objects = doc.get("objects")
    assert [o.get("id") for o in objects] == [0, 1, 2, 3, 4]
    assert [o.get("type") for o in objects] == ["box", "box", "sphere", "capsule", "convex"]
    assert objects[0].get("name") == "UAV-With-Lidar" and objects[4].get("name") == "Convex"
    assert objects[4].get("static") is True
    assert list(objects[0].get("half_dimentions")) == [0.15000000596046448, 0.07500000298023224, 0.15000000596046448]
    assert list(objects[1].get("half_dimentions")) == [0.25, 0.25, 0.25]
    assert objects[2].get("radius") == 0.4000000059604645
    assert (objects[3].get("radius"), objects[3].get("half_height")) == (0.5, 0.5)
    assert len(objects[4].get("vertices")) == 5
    assert [type(c) for c in objects[0].get("color")] == [int, int, int]  # int32 colours
    frames = doc.get("frames")
    assert len(frames) == 500
    assert all(f.keys == ["cmd", "states", "time"] for f in frames)
    assert all(f.get("cmd") == "" for f in frames)
    times = [f.get("time") for f in frames]
    assert times[0] == 0.01666666753590107 and times[-1] == 8.333333969116211
    assert sorted(t for t in times if type(t) is int) == [1, 2, 4, 8]
    flags = Counter(s.get("i") for f in frames for s in f.get("states"))
    assert flags == {"i": 2001, "destroyed": 1}
    assert sum(len(f.get("states")) for f in frames) == 2002
    ids_after_1 = {s.get("id") for f in frames[2:] for s in f.get("states")}
    assert ids_after_1 == {0, 1, 2, 3}  # object 4: instantiated in frame 0, destroyed in frame 1, then not mentioned


def test_compat_profile_valid_with_no_finding(scene1: bytes) -> None:
    report = check(io.BytesIO(scene1), path="Scene1.bson", variant=None, profile="compat", size=SIZE,
                   cross_check=True)
    assert report.verdict is Verdict.VALID
    # every frame keeps its time under 'time', which the viewer does not read: a warning under compat
    assert {f.rule for f in report.findings} == {"MATRIX-FRAME-005"}
    assert report.verdicts["compat"].warnings == 500 and report.verdicts["compat"].errors == 0
    assert report.stats == {"objects": 5, "frames": 500, "states": 2002, "commands": 0,
                            "duration_s": 8.333333969116211}
    # above 64 KiB the default cross-check reads a sample of the frames (tests/test_matrix_smt_sample.py)
    assert report.evidence["cross_check"].startswith("kaitai: agrees; pymongo: agrees on a sample of ")


def test_spec_profile_gets_exactly_the_predicted_findings(scene1: bytes) -> None:
    report = check_stream(io.BytesIO(scene1), path="Scene1.bson", profile="spec")
    assert report.verdict is Verdict.INVALID
    assert all(f.severity is Severity.ERROR for f in report.findings)
    listed = report.findings
    assert all(f.offset is not None for f in listed)  # the cap is a field of the report, not a finding
    by_rule = Counter(f.rule for f in listed)
    # 500 of each frame rule, capped at 100 stored; the totals are the report's
    assert by_rule == {"MATRIX-FRAME-001": 100, "MATRIX-FRAME-003": 100, "MATRIX-STATE-003": 1}
    assert report.capped == {"MATRIX-FRAME-001": 500, "MATRIX-FRAME-003": 500} and report.findings_cap == 100
    assert report.verdicts["spec"].errors == 1001
    assert report.verdicts["compat"].verdict is Verdict.VALID
    (destroyed,) = [f for f in listed if f.rule == "MATRIX-STATE-003"]
    assert destroyed.path == "frames[1].states[4].i" and destroyed.actual == "destroyed"
    assert scene1[destroyed.offset:destroyed.offset + 3] == b"\x02i\x00"  # located at the element
    first_time = next(f for f in listed if f.rule == "MATRIX-FRAME-001")
    assert first_time.path == "frames[0].time"
    assert scene1[first_time.offset:first_time.offset + 6] == b"\x01time\x00"
    first_cmd = next(f for f in listed if f.rule == "MATRIX-FRAME-003")
    assert scene1[first_cmd.offset:first_cmd.offset + 5] == b"\x02cmd\x00"


def test_the_three_readers_agree(scene1: bytes) -> None:
    assert differential(scene1) == []


def test_typed_model_and_compat_encoder_reproduce_the_file(scene1: bytes) -> None:
    rec = decode(scene1)
    assert [o.geometry for o in rec.objects] == [Geometry.BOX, Geometry.BOX, Geometry.SPHERE, Geometry.CAPSULE,
                                                 Geometry.CONVEX]
    assert rec.objects[3].half_height == 0.5
    assert rec.frames[1].states[4].presence is Presence.DESTROYED
    assert encode(rec, profile="compat") == scene1  # byte for byte
    assert decode(encode(rec, profile="spec")) == rec


def test_streaming_frames(scene1: bytes) -> None:
    times = [f.time for f in iter_frames(io.BytesIO(scene1))]
    assert len(times) == 500 and times[-1] == 8.333333969116211
    w = RecordingWalker(io.BytesIO(scene1))
    assert next((s.key, s.offset) for s in w.sections()) == ("frames", 4)


def _corrupt_cases(data: bytes) -> list[tuple[str, bytes, str]]:
    states_at = data.index(b"\x04states\x00")
    bool_at = data.index(b"\x08static\x00") + len(b"\x08static\x00")
    return [
        ("truncated-half", data[: len(data) // 2], "MATRIX-BSON-007"),
        ("truncated-1", data[:-1], "MATRIX-BSON-007"),
        ("trailing", data + b"\x00", "MATRIX-BSON-006"),
        ("states-length+1", data[:states_at + 8] + bytes([data[states_at + 8] + 1]) + data[states_at + 9:],
         "MATRIX-BSON-001"),  # one extra byte cannot hold an element: it runs past the end
        ("bool-byte", data[:bool_at] + b"\x07" + data[bool_at + 1:], "MATRIX-BSON-003"),
    ]


def test_corrupted_copies_get_located_findings_and_exit_code_1(scene1: bytes, tmp_path) -> None:
    for name, data, rule in _corrupt_cases(scene1):
        path = tmp_path / f"{name}.bson"
        path.write_bytes(data)
        run = subprocess.run([sys.executable, "-m", "recspec.cli", "check", "--json", "--profile", "compat",
                              "--no-cross-check", str(path)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 1, (name, run.stderr)
        (file_report,) = json.loads(run.stdout)["files"]
        assert file_report["verdict"] == "malformed", name
        rules = [f["rule"] for f in file_report["findings"]]
        assert rule in rules, (name, rules)
        finding = next(f for f in file_report["findings"] if f["rule"] == rule)
        assert isinstance(finding["offset"], int) and 0 <= finding["offset"] <= len(data), name


def test_table_lists_a_few_findings_per_rule_and_counts_the_rest():
    """Scene1.bson breaks MATRIX-FRAME-001 in each of its 500 frames under spec (it keys frame time
    as 'time'): the table shows the first TABLE_FINDINGS_PER_RULE, --all-findings every stored one."""
    from recspec.cli import TABLE_FINDINGS_PER_RULE
    from recspec.conformance._sink import MAX_FINDINGS_PER_RULE

    scene = real_file("Scene1.bson")
    code, out, _ = run_cli("check", "--profile", "spec", str(scene))
    assert code == 1
    lines = [ln for ln in out.splitlines() if "MATRIX-FRAME-001" in ln]
    assert len([ln for ln in lines if "ERROR" in ln]) == TABLE_FINDINGS_PER_RULE
    assert lines[-1].strip().startswith("=     passes compat: MATRIX-FRAME-001")
    # the count is of every finding, not of the stored ones
    assert lines[-2].strip() == (
        f"...   MATRIX-FRAME-001: {500 - TABLE_FINDINGS_PER_RULE} more not shown (500 in all; --all-findings "
        f"lists the stored ones, at most {MAX_FINDINGS_PER_RULE} per rule)")
    code, out, _ = run_cli("check", "--profile", "spec", "--all-findings", str(scene))
    lines = [ln for ln in out.splitlines() if "MATRIX-FRAME-001" in ln]
    assert len(lines) == MAX_FINDINGS_PER_RULE + 2  # the stored findings, the count of the rest, the compat note
    assert lines[-2].strip() == (f"...   MATRIX-FRAME-001: 400 more not shown (500 in all; at most "
                                 f"{MAX_FINDINGS_PER_RULE} per rule are stored)")
