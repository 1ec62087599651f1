"""Verdicts a CI can trust: no broken recording passes a folder run silently, both
profiles' verdicts in every run, and counts that are true past the per-rule cap.

Each test here was written against a failure measured on the real files (issue
"Verdicts a CI can trust") and failed before the fix it names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import REPO, real_file
from helpers import run_cli as run
from recspec.reference.raskat_signal import Fixed, SignalV2, encode_body

CARLA_VALID = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"
NANOVER_VALID = REPO / "corpus" / "nanover" / "valid" / "small.traj"
#: The raSkat writer's own v3 layout: valid under compat, not under spec (raw, latitude first, extra flag bits).
RASKAT_WRITER = REPO / "corpus" / "raskat-signal" / "valid" / "v3-writer.sig"


def json_run(*args: str) -> tuple[int, dict]:
    code, out, err = run("check", "--json", *args)
    assert "Traceback" not in err
    return code, json.loads(out)


# --- 1. a folder run never skips a broken recording silently -----------------------------------


def mixed_folder(root: Path) -> Path:
    """The issue's folder: a good CARLA log, an empty run2.log, a run4.log whose first 34 bytes
    (the whole info header) were zeroed, and a .traj whose magic was zeroed."""
    folder = root / "mixed"
    folder.mkdir()
    good = CARLA_VALID.read_bytes()
    (folder / "run1.log").write_bytes(good)
    (folder / "run2.log").write_bytes(b"")
    (folder / "run4.log").write_bytes(bytes(34) + good[34:])
    traj = bytearray(NANOVER_VALID.read_bytes())
    traj[:8] = bytes(8)
    (folder / "session.traj").write_bytes(bytes(traj))
    return folder


def test_a_folder_run_reports_every_broken_recording_and_fails(tmp_path):
    folder = mixed_folder(tmp_path)
    code, rep = json_run(str(folder))
    assert code == 1
    by_name = {Path(f["path"]).name: f for f in rep["files"]}
    assert set(by_name) == {"run1.log", "run2.log", "run4.log", "session.traj"}
    assert by_name["run1.log"]["verdict"] == "valid"
    for name in ("run2.log", "run4.log", "session.traj"):
        assert by_name[name]["verdict"] == "malformed", name
        assert by_name[name]["failed"] is True
        assert by_name[name]["findings"], name
    # no sniffer claims them, the extension does: checked as that format, with its header rule
    assert by_name["run4.log"]["format"] == "carla"
    assert "CARLA-HEADER-001" in {f["rule"] for f in by_name["run4.log"]["findings"]}
    assert by_name["session.traj"]["format"] == "nanover"
    assert by_name["session.traj"]["findings"][0]["rule"] == "NANOVER-HEADER-001"
    assert rep["summary"]["files"] == 4


def test_the_mixed_folder_table_and_markdown_say_failed(tmp_path):
    folder = mixed_folder(tmp_path)
    md = tmp_path / "r.md"
    code, out, _err = run("check", str(folder), "--report", f"markdown:{md}")
    assert code == 1
    for name in ("run2.log", "run4.log", "session.traj"):
        assert name in out
    assert "4 files" in out and "1 valid" in out
    assert "FAILED" in md.read_text()


def test_files_that_are_clearly_not_recordings_are_counted_and_listed_with_verbose(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "run1.log").write_bytes(CARLA_VALID.read_bytes())
    (folder / "notes.txt").write_text("not a recording\n")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(40))
    code, out, err = run("check", str(folder))
    assert code == 0, out + err
    assert "1 file," in out and "2 unclaimed" in out
    assert "notes.txt" not in out
    code, out, err = run("check", "--verbose", str(folder))
    assert code == 0
    assert "notes.txt" in out and "image.png" in out
    code, rep = json_run(str(folder))
    assert rep["summary"]["unclaimed"] == 2
    assert [Path(p).name for p in rep["unclaimed"]] == ["image.png", "notes.txt"]  # sorted by path


# --- 2. both profiles in every run ------------------------------------------------------------


def test_every_file_gets_a_spec_and_a_compat_verdict(tmp_path):
    code, rep = json_run(str(RASKAT_WRITER), str(CARLA_VALID))
    writer, carla = rep["files"]
    assert set(writer["verdicts"]) == {"spec", "compat"}
    assert writer["profile"] == "spec" and writer["verdict"] == "invalid"
    assert writer["verdicts"]["spec"]["verdict"] == "invalid"
    assert writer["verdicts"]["compat"]["verdict"] == "valid"
    assert writer["verdicts"]["spec"]["errors"] == sum(1 for f in writer["findings"] if f["severity"] == "error")
    assert carla["verdicts"]["spec"]["verdict"] == carla["verdicts"]["compat"]["verdict"] == "valid"
    assert code == 1  # spec drives the exit code by default


def test_profile_picks_which_verdict_drives_the_exit_code():
    code, rep = json_run("--profile", "compat", str(RASKAT_WRITER))
    assert code == 0
    f = rep["files"][0]
    assert f["profile"] == "compat" and f["verdict"] == "valid" and f["failed"] is False
    assert f["verdicts"]["spec"]["verdict"] == "invalid"


def test_the_table_shows_both_verdicts_and_names_the_writer_deviation():
    _code, out, _err = run("check", str(RASKAT_WRITER))
    header = out.splitlines()[0].split()
    assert "SPEC" in header and "COMPAT" in header
    row = next(line for line in out.splitlines() if line.startswith(str(RASKAT_WRITER)))
    assert "invalid" in row and "valid" in row.replace("invalid", "")
    note = next(line for line in out.splitlines() if "passes compat" in line)
    assert "RSIG-CONTAINER-001" in note and "RSIG-COORD-002" in note and "--profile compat" in note


def test_every_report_format_carries_both_verdicts(tmp_path):
    args = []
    for kind, ext in (("junit", "xml"), ("sarif", "sarif"), ("html", "html"), ("markdown", "md")):
        args += ["--report", f"{kind}:{tmp_path / ('r.' + ext)}"]
    run("check", str(RASKAT_WRITER), *args)
    junit = (tmp_path / "r.xml").read_text()
    assert 'name="verdict.spec" value="invalid"' in junit and 'name="verdict.compat" value="valid"' in junit
    sarif = json.loads((tmp_path / "r.sarif").read_text())
    props = sarif["runs"][0]["artifacts"][0]["properties"]
    assert props["verdicts"] == {"spec": "invalid", "compat": "valid"}
    html = (tmp_path / "r.html").read_text()
    assert "compat <span" in html or "compat: valid" in html
    md = (tmp_path / "r.md").read_text()
    assert "| spec | compat |" in md.replace("verdict (spec)", "spec").replace("verdict (compat)", "compat") or \
        "spec invalid, compat valid" in md


def test_a_finding_off_under_the_driving_profile_still_counts_for_the_other(tmp_path):
    """RSIG-CONTAINER-001 is off under compat: a compat run keeps it for the spec verdict."""
    _code, rep = json_run("--profile", "compat", str(RASKAT_WRITER))
    f = rep["files"][0]
    assert "RSIG-CONTAINER-001" not in {x["rule"] for x in f["findings"]}
    assert f["verdicts"]["spec"]["rules"]["RSIG-CONTAINER-001"] == 1


# --- 4. counts that are true past the per-rule cap ----------------------------------------------


@pytest.fixture()
def many_findings(tmp_path) -> Path:
    """A raw v2 signal whose 750 stored samples are negative: 750 RSIG-SAMPLES-002 under spec
    (and RSIG-CONTAINER-001 for the raw storage), 751 errors in all."""
    sig = SignalV2(2, b"20250624100658", 0, Fixed(128, 0), Fixed(70, 0), Fixed(150, 0), 500000, 0,
                   tuple([-5] * 750))
    path = tmp_path / "neg.sig"
    path.write_bytes(encode_body(sig))
    return path


def test_totals_are_never_capped_and_the_cap_is_not_a_finding(many_findings):
    _code, rep = json_run(str(many_findings))
    f = rep["files"][0]
    assert f["verdicts"]["spec"]["errors"] == 751
    assert f["verdicts"]["spec"]["rules"]["RSIG-SAMPLES-002"] == 750
    stored = [x for x in f["findings"] if x["rule"] == "RSIG-SAMPLES-002"]
    assert len(stored) == 100  # the stored findings are capped ...
    assert all(x["offset"] is not None for x in f["findings"])  # ... and no note among them
    assert f["capped"] == {"limit": 100, "rules": {"RSIG-SAMPLES-002": 750}}
    _code, out, _err = run("check", str(many_findings))
    assert re.search(r"\b751/0/0\b", out), out


def test_reports_count_every_finding(many_findings, tmp_path):
    md, html, sarif = tmp_path / "r.md", tmp_path / "r.html", tmp_path / "r.sarif"
    run("check", str(many_findings), "--report", f"markdown:{md}", "--report", f"html:{html}",
        "--report", f"sarif:{sarif}")
    assert "(+750 more)" in md.read_text()
    page = html.read_text()
    assert ">750</a></td>" in page and "&times; 750" in page  # the matrix cell and the rule's group
    assert "650 more of this rule, counted and not stored" in page
    log = json.loads(sarif.read_text())
    results = log["runs"][0]["results"]
    assert len(results) == 101  # the stored findings, no note
    assert all("region" in r["locations"][0]["physicalLocation"] for r in results)


def test_json_stdout_report_is_not_mixed_with_the_table(tmp_path):
    code, out, _err = run("check", str(CARLA_VALID), "--report", "json:-")
    rep = json.loads(out)  # stdout holds the JSON and nothing else (a table line would not parse)
    assert code == 0 and [f["verdict"] for f in rep["files"]] == ["valid"]


def test_scene1_counts_are_true():
    path = real_file("Scene1.bson")
    _code, rep = json_run("--cross-check", "full", str(path))
    spec = rep["files"][0]["verdicts"]["spec"]
    assert spec["errors"] == sum(spec["rules"].values()) >= 1001
    assert rep["files"][0]["verdicts"]["compat"]["verdict"] == "valid"


# --- 10. the smaller things a user hits ------------------------------------------------------------


def test_a_fifo_named_on_the_command_line_is_read(tmp_path):
    import os
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = CARLA_VALID.read_bytes()
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    code, rep = json_run(str(fifo))
    writer.join()
    assert code == 0 and rep["files"][0]["verdict"] == "valid" and rep["files"][0]["format"] == "carla"


def test_a_missing_path_prints_the_error_and_no_empty_table(tmp_path):
    code, out, err = run("check", str(tmp_path / "nope.log"))
    assert code == 2 and out == "" and "no such file" in err


def test_an_unreadable_folder_is_reported(tmp_path, monkeypatch):
    import os

    folder = tmp_path / "d"
    (folder / "locked").mkdir(parents=True)
    (folder / "run1.log").write_bytes(CARLA_VALID.read_bytes())
    real_scandir = os.scandir

    def scandir(path="."):  # as for a folder without read permission (the tests may run as root)
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, err = run("check", str(folder))
    assert code == 2 and "locked: Permission denied" in err
    assert "run1.log" in out  # the rest of the run goes on


def test_an_unknown_profile_is_rejected_even_when_no_file_is_recognised(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("hello\n")
    code, out, err = run("check", "--profile", "nope", str(p))
    assert code == 2 and "no profile 'nope'" in err and out == ""


@pytest.mark.parametrize(("fmt", "name"), [("carla", "run2.log"), ("carla", "run4.log"), ("nanover", "session.traj")])
def test_reproduce_compares_the_kaitai_reading_for_every_format(tmp_path, fmt, name):
    folder = mixed_folder(tmp_path)
    _code, out, err = run("reproduce", "--format", fmt, str(folder / name))
    assert "Traceback" not in err
    assert "kaitai:" in out and "no Kaitai comparison" not in out
    assert "the readings agree" in out


def test_stats_have_no_float_noise():
    _code, rep = json_run(str(REPO / "corpus" / "carla" / "invalid" / "CARLA-FRAME-004.log"))
    assert rep["files"][0]["stats"]["duration_s"] == 0.15  # stored as 0.15000000000000002


def test_sarif_matrix_results_have_byte_length_and_the_tool_an_information_uri(tmp_path):
    sarif = tmp_path / "r.sarif"
    run("check", str(REPO / "corpus" / "matrix-smt" / "valid" / "compat.bson"), "--report", f"sarif:{sarif}")
    log = json.loads(sarif.read_text())
    assert log["runs"][0]["tool"]["driver"]["informationUri"].startswith("https://")
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in log["runs"][0]["results"]]
    assert regions and all(reg["byteLength"] > 0 for reg in regions)
    data = (REPO / "corpus" / "matrix-smt" / "valid" / "compat.bson").read_bytes()
    first = regions[0]
    assert data[first["byteOffset"]:first["byteOffset"] + 6] == b"\x01time\x00" and first["byteLength"] == 14


def test_one_file_is_one_file():
    _code, out, _err = run("check", str(CARLA_VALID))
    assert "\n1 file, 1 valid" in out


# --- 11. real samples in a fresh clone ---------------------------------------------------------------

SHIPPED = REPO / "corpus" / "real"


def test_the_mit_licensed_real_samples_ship_with_provenance_and_licence_notices():
    shipped = sorted(p.name for p in SHIPPED.iterdir() if p.suffix not in (".md",))
    assert shipped == ["carla_0910_DistanceToLaneCenter.log", "hello_vel.traj", "sim-switching-test-recording.state",
                       "sim-switching-test-recording.traj"]
    provenance = (SHIPPED / "PROVENANCE.md").read_text()
    licences = (SHIPPED / "LICENSES.md").read_text()
    for name in shipped:
        row = next(line for line in provenance.splitlines() if line.startswith(f"| {name} |"))
        assert "| MIT |" in row and "@" in row
        assert name in licences
    assert "Copyright (c) 2018 CARLA" in licences
    assert "Copyright (c) 2025 University of Bristol, Intangible Realities Lab" in licences


def test_a_fresh_clone_checks_its_real_samples_under_both_profiles():
    code, rep = json_run("--cross-check", "full", str(SHIPPED))  # real files: the whole second reading
    assert code == 0 and rep["summary"]["files"] == 4 and rep["summary"]["unclaimed"] == 2  # the two .md files
    for f in rep["files"]:
        assert f["verdicts"]["spec"]["verdict"] == f["verdicts"]["compat"]["verdict"] == "valid", f["path"]


def test_raskat_dump_names_every_field_with_its_offset_and_the_v2_time_as_text():
    v3 = REPO / "corpus" / "raskat-signal" / "valid" / "v3-writer.sig"
    _code, out, _err = run("dump", str(v3))
    fields = {f["name"]: f for f in json.loads(out)["fields"]}
    data = v3.read_bytes()
    assert fields["coordinate_1"]["offset"] == 22 and "latitude" in fields["coordinate_1"]["label"]
    assert "longitude" in fields["coordinate_2"]["label"]
    for f in fields.values():  # every field's bytes are where the dump says
        if f["name"] == "time":
            assert f["value"].encode() in data[f["offset"]:f["offset"] + f["length"]]
    v2 = REPO / "corpus" / "raskat-signal" / "valid" / "v2-writer.sig"
    _code, out, _err = run("dump", str(v2))
    time = next(f for f in json.loads(out)["fields"] if f["name"] == "time")
    assert time["offset"] == 2 and time["length"] == 14
    assert v2.read_bytes()[2:16].decode("ascii") == time["value"]  # text, not hex


def test_nanover_dump_ksy_offsets_count_from_the_start_of_the_file():
    traj = REPO / "corpus" / "nanover" / "valid" / "small.traj"
    _code, out, _err = run("dump", "--ksy", str(traj))
    data = traj.read_bytes()
    keys = []

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if isinstance(v, str) and len(v) > 3 and f"{k}@" in o and not k.startswith("_"):
                    keys.append((v, *o[f"{k}@"]))
                walk(v)
        elif isinstance(o, list):
            for x in o:
                walk(x)

    for line in out.splitlines()[1:]:
        walk(json.loads(line))
    assert any(v == "particle.count" for v, _, _ in keys)
    for value, start, end in keys:  # a key string inside a payload is found at its absolute offset
        assert value.encode() in data[start:end], (value, start, end)
