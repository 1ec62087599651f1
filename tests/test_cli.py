"""The command line: exit codes, the JSON contract, errors without tracebacks."""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recspec.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "carla"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(list(args))
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_valid_file_exits_0_and_table_names_it():
    code, out, _ = run("check", str(CORPUS / "valid" / "0.9.15.log"))
    assert code == 0
    assert "0.9.15.log" in out and " valid " in out.splitlines()[1] + " "


def test_invalid_file_exits_1_with_rule_offset_and_path():
    code, out, _ = run("check", "--json", str(CORPUS / "invalid" / "CARLA-ACTOR-001.log"))
    assert code == 1
    [f] = json.loads(out)["files"]
    [finding] = f["findings"]
    assert finding["rule"] == "CARLA-ACTOR-001" and finding["severity"] == "error"
    assert isinstance(finding["offset"], int) and finding["path"].startswith("frame[1]/packet[")
    assert finding["path"].endswith(".database_id")


def test_json_contract_shape():
    code, out, _ = run("check", "--json", str(CORPUS / "valid"))
    assert code == 0
    report = json.loads(out)
    assert set(report) == {"recspec_version", "report_schema", "files", "summary"}
    assert report["summary"]["files"] == len(report["files"]) == len(list((CORPUS / "valid").glob("*.log")))
    for f in report["files"]:
        assert {"path", "format", "variant", "profile", "verdict", "findings", "stats"} <= set(f)
        assert {"frames", "packets", "duration_s", "map", "actors_added", "position_records"} <= set(f["stats"])


def test_folder_is_recursive_and_skips_unrecognised_members(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.log").write_bytes((CORPUS / "valid" / "0.9.14.log").read_bytes())
    (tmp_path / "notes.txt").write_text("not a recording")
    code, out, _ = run("check", "--json", str(tmp_path))
    assert code == 0
    assert [f["path"] for f in json.loads(out)["files"]] == [str(tmp_path / "sub" / "a.log")]


def test_named_unrecognised_file_is_reported(tmp_path):
    p = tmp_path / "x.log"
    p.write_bytes(b"hello, not a CARLA log at all")
    code, out, _ = run("check", "--json", str(p))
    assert code == 1
    f = json.loads(out)["files"][0]
    assert f["verdict"] == "unrecognized" and "--format carla" in f["findings"][0]["message"]


def test_forced_format_on_garbage_gives_malformed_not_traceback(tmp_path):
    p = tmp_path / "x.log"
    p.write_bytes(b"\x01\x00\x0e\x00CARLA_RECORDEX" + bytes(range(256)) * 3)
    code, out, err = run("check", "--json", "--format", "carla", "--variant", "0.9.15", str(p))
    assert code == 1 and "Traceback" not in err
    assert json.loads(out)["files"][0]["verdict"] == "malformed"


def test_missing_path_is_exit_2_but_other_files_are_still_checked(tmp_path):
    code, out, err = run("check", "--json", str(tmp_path / "missing.log"), str(CORPUS / "valid" / "0.9.15.log"))
    assert code == 2
    assert "missing.log" in err
    assert json.loads(out)["summary"]["valid"] == 1


@pytest.mark.parametrize("args, message", [
    (("check", "--format", "nope", "x"), "unknown format"),
    (("check", "--format", "carla", "--variant", "0.9.99", "x"), "no variant"),
    (("check", "--variant", "0.9.15", "x"), "--variant needs --format"),
    (("check", "--format", "carla", "--profile", "strict", "x"), "no profile"),
    (("explain", "CARLA-NOPE-1"), "no rule"),
], ids=["format", "variant", "variant-without-format", "profile", "explain"])
def test_usage_errors_exit_2_with_a_message(args, message):
    code, _, err = run(*args)
    assert code == 2 and message in err


def test_rules_and_explain():
    code, out, _ = run("rules", "carla")
    assert code == 0 and "CARLA-FRAME-004" in out
    code, out, _ = run("explain", "carla-packet-001")
    assert code == 0 and "size is 14" in out and "roll, pitch, yaw" in out


def test_profile_changes_levels():
    path = str(CORPUS / "invalid" / "CARLA-HEADER-002.log")
    assert run("check", path)[0] == 1
    assert run("check", "--profile", "compat", path)[0] == 0


def test_dump_has_offsets_and_ksy_dump_parses():
    code, out, _ = run("dump", str(CORPUS / "valid" / "0.9.15.log"))
    assert code == 0
    doc = json.loads(out)
    assert doc["packets"][0] == {**doc["packets"][0], "offset": doc["header"]["length"], "kind": "FrameStart"}
    code, out, _ = run("dump", "--ksy", str(CORPUS / "valid" / "0.9.15.log"))
    assert code == 0
    tree = json.loads(out)
    assert tree["packets"][0]["payload"]["start"] == doc["header"]["length"] + 5


def test_reproduce_shows_hex_window():
    code, out, _ = run("reproduce", str(CORPUS / "invalid" / "CARLA-PACKET-001.log"))
    assert code == 0  # both readings reject it: they agree
    assert "CARLA-PACKET-001" in out and "^^" in out and "the readings agree" in out


def test_console_script_help_teaches():
    run_ = subprocess.run([sys.executable, "-m", "recspec", "check", "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"})
    assert run_.returncode == 0
    assert "exit codes:" in run_.stdout and "examples:" in run_.stdout


def test_corpus_command_matches_manifest():
    code, out, _ = run("corpus")
    assert code == 0, out
    assert "0 not" in out.splitlines()[-1]


def test_every_reported_rule_can_be_explained(tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00" * 64)
    code, out, _ = run("check", "--json", str(CORPUS), str(junk))
    assert code == 1
    ids = {f["rule"] for fr in json.loads(out)["files"] for f in fr["findings"]}
    assert "RECSPEC-UNRECOGNIZED" in ids and len(ids) > 20
    for rule in sorted(ids):
        assert run("explain", rule)[0] == 0, rule


_HEADER = (CORPUS / "valid" / "0.9.15.log").read_bytes()[:40]  # version, magic, date, map name "Town10HD_Opt"


_FRAME_STARTS = st.builds(lambda i, d, e: (0, struct.pack("<Qdd", i, d, e)),
                          st.integers(0, 2**64 - 1), st.floats(), st.floats())


@given(st.lists(st.one_of(st.tuples(st.integers(0, 25), st.binary(max_size=40)), _FRAME_STARTS), max_size=6),
       st.sampled_from(["spec", "compat"]))
@settings(max_examples=200, deadline=None)
def test_json_report_is_standard_json_for_any_packets(packets, profile):
    """Any values a file holds (NaN, infinities, odd bytes) end up in standard JSON."""
    from recspec.conformance.carla import check_stream
    from recspec.report import Report

    data = _HEADER + b"".join(struct.pack("<BI", pid, len(p)) + p for pid, p in packets)
    report = check_stream(io.BytesIO(data), path="x", variant=None, profile=profile)
    json.dumps(Report([report]).to_json(), allow_nan=False)


def test_table_lists_a_few_findings_per_rule_and_counts_the_rest():
    """Scene1.bson breaks MATRIX-FRAME-001 in each of its 500 frames under spec (it keys frame time
    as 'time'): the table shows the first TABLE_FINDINGS_PER_RULE, --all-findings every stored one."""
    from recspec.cli import TABLE_FINDINGS_PER_RULE
    from recspec.conformance._sink import MAX_FINDINGS_PER_RULE

    from helpers import real_file

    scene = real_file("Scene1.bson")
    code, out, _ = run("check", "--profile", "spec", str(scene))
    assert code == 1
    lines = [ln for ln in out.splitlines() if "MATRIX-FRAME-001" in ln]
    assert len([ln for ln in lines if "ERROR" in ln]) == TABLE_FINDINGS_PER_RULE
    stored = MAX_FINDINGS_PER_RULE + 1  # the listed findings and the line counting the other 400
    assert lines[-1].strip() == (f"...   MATRIX-FRAME-001: {stored - TABLE_FINDINGS_PER_RULE} more lines not shown "
                                 "(--all-findings lists them)")
    code, out, _ = run("check", "--profile", "spec", "--all-findings", str(scene))
    lines = [ln for ln in out.splitlines() if "MATRIX-FRAME-001" in ln]
    assert len(lines) == stored and "400 more findings of this rule not listed (500 in all" in lines[-1]
