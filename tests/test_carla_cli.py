"""The command line on CARLA logs: exit codes, findings located by offset and path, errors without
tracebacks, profiles, reproduce, and standard JSON for any packets (what every format shares is in
tests/test_cli.py)."""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import run_cli as run

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "carla"


def test_invalid_file_exits_1_with_rule_offset_and_path():
    code, out, _ = run("check", "--json", str(CORPUS / "invalid" / "CARLA-ACTOR-001.log"))
    assert code == 1
    [f] = json.loads(out)["files"]
    [finding] = f["findings"]
    assert finding["rule"] == "CARLA-ACTOR-001" and finding["severity"] == "error"
    assert isinstance(finding["offset"], int) and finding["path"].startswith("frame[1]/packet[")
    assert finding["path"].endswith(".database_id")


def test_folder_is_recursive_and_skips_unrecognised_members(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.log").write_bytes((CORPUS / "valid" / "0.9.14.log").read_bytes())
    (tmp_path / "notes.txt").write_text("not a recording")
    code, out, _ = run("check", "--json", str(tmp_path))
    assert code == 0
    assert [f["path"] for f in json.loads(out)["files"]] == [str(tmp_path / "sub" / "a.log")]


def test_named_unrecognised_file_is_reported(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes(b"hello, not a CARLA log at all")
    code, out, _ = run("check", "--json", str(p))
    assert code == 1
    f = json.loads(out)["files"][0]
    assert f["verdict"] == "unrecognized" and "--format" in f["findings"][0]["message"]


def test_a_file_no_header_claims_is_checked_as_the_format_its_extension_names(tmp_path):
    p = tmp_path / "x.log"
    p.write_bytes(b"hello, not a CARLA log at all")
    code, out, _ = run("check", "--json", str(p))
    assert code == 1
    f = json.loads(out)["files"][0]
    assert (f["format"], f["verdict"]) == ("carla", "malformed")
    assert f["evidence"]["format"]["method"] == "extension"
    magic = next(x for x in f["findings"] if x["rule"] == "CARLA-HEADER-001")
    assert magic["offset"] == 2 and "llo, not a CARL" in magic["message"]  # the bytes found where the magic is


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


def test_profile_changes_levels():
    path = str(CORPUS / "invalid" / "CARLA-HEADER-002.log")
    assert run("check", path)[0] == 1
    assert run("check", "--profile", "compat", path)[0] == 0


def test_reproduce_shows_hex_window():
    code, out, _ = run("reproduce", str(CORPUS / "invalid" / "CARLA-PACKET-001.log"))
    assert code == 0  # both readings reject it: they agree
    assert "CARLA-PACKET-001" in out and "^^" in out and "the readings agree" in out


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
    text = json.dumps(Report([report]).to_json(), allow_nan=False)
    # standard JSON has no NaN or Infinity token (RFC 8259, section 6): a strict parser reads it back
    back = json.loads(text, parse_constant=_refuse_constant)
    assert [(f["path"], f["format"], f["profile"]) for f in back["files"]] == [("x", "carla", profile)]


def _refuse_constant(token: str) -> None:
    raise AssertionError(f"{token} is not standard JSON")


@pytest.mark.parametrize("data", [b"", b"\x01", b"\x01\x00"])
def test_a_file_too_short_for_the_magic_is_located_inside_its_bytes(tmp_path, data):
    # the magic field starts at byte 2 (after the u16 version); a file of 0..2 bytes holds none of it,
    # so the finding that names it must still point inside the file: at most its end
    p = tmp_path / "x.log"
    p.write_bytes(data)
    code, out, err = run("check", "--json", "--format", "carla", str(p))
    assert code == 1 and "Traceback" not in err
    f = json.loads(out)["files"][0]
    magic = next(x for x in f["findings"] if x["rule"] == "CARLA-HEADER-001")
    assert magic["offset"] >= 0 and magic["offset"] + (magic["length"] or 0) <= len(data)


@pytest.mark.parametrize(("name", "rule", "index"), [("CARLA-FRAME-006.log", "CARLA-FRAME-006", 3),
                                                      ("CARLA-FRAME-008.log", "CARLA-FRAME-008", 1)])
def test_a_duration_finding_names_the_frame_id_as_an_id_beside_the_frames_index(name: str, rule: str,
                                                                              index: int) -> None:
    """The path counts frames from 0 (frame[3]); the message quotes the FrameStart's id field, which a recorder
    starts at 1: the two must not both read "frame N" for different N."""
    path = CORPUS / "invalid" / name
    data = path.read_bytes()
    code, out, _ = run("check", "--json", "--profile", "spec", str(path))
    assert code == 1
    finding = next(f for f in json.loads(out)["files"][0]["findings"] if f["rule"] == rule)
    assert finding["path"] == f"frame[{index}]/packet[0]:FrameStart.duration_this"
    # the id as stored: FrameStart's payload is id (u64), durationThis (f64), elapsed (f64)
    frame_id = struct.unpack_from("<Q", data, finding["offset"] - 8)[0]
    assert frame_id != index and f"id {frame_id}" in finding["message"]
    assert f"frame {frame_id} " not in finding["message"]


def test_a_known_deviation_keeps_its_place_in_the_table(tmp_path: Path) -> None:
    """invalid/CARLA-FRAME-004.log breaks the rule at byte 1990; listed as a known deviation (--expectations,
    tests/test_expectations.py), the table still says where."""
    (tmp_path / "elapsed.log").write_bytes((CORPUS / "invalid" / "CARLA-FRAME-004.log").read_bytes())
    exp = tmp_path / "expectations.json"
    exp.write_text(json.dumps({"recspec_expectations": 1, "files": {"elapsed.log": {"CARLA-FRAME-004": "rounds"}}}))
    code, out, _ = run("check", str(tmp_path / "elapsed.log"), "--expectations", str(exp))
    assert code == 0
    assert "CARLA-FRAME-004 (known deviation) @1990" in out


def test_a_stats_float_with_rounding_noise_renders_the_same_after_a_merge(tmp_path: Path) -> None:
    """The JSON report gives duration_s 0.15000000000000002 as 0.15; the HTML report of the run
    must say the same, or the merged run's page (read from the JSON) differs from it."""
    log = CORPUS / "valid" / "0.9.15.log"
    run("check", str(log), "--shard", "1/1", f"--report=json:{tmp_path / '1.json'}")
    run("check", str(log), "--no-pictures", f"--report=html:{tmp_path / 'whole.html'}")
    code, _, err = run("merge", str(tmp_path / "1.json"), f"--report=html:{tmp_path / 'merged.html'}")
    assert code == 0, err
    page = (tmp_path / "whole.html").read_text()
    assert "duration_s 0.15," in page
    assert (tmp_path / "merged.html").read_text() == page
