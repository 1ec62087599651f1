"""Verdicts a CI can trust, on raSkat's own files: the writer's v3 layout gets both profiles' verdicts in
every run and every report, a v2 signal of 750 negative samples is counted true past the per-rule cap,
and the dump names every field with its offset. What every format shares is in ``test_verdicts.py``.

Each test here was written against a failure measured on the real files (issue
"Verdicts a CI can trust") and failed before the fix it names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import REPO, check_json
from helpers import run_cli as run
from recspec.reference.raskat_signal import Fixed, SignalV2, encode_body

CARLA_VALID = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"
#: The raSkat writer's own v3 layout: valid under compat, not under spec (raw, latitude first, extra flag bits).
RASKAT_WRITER = REPO / "corpus" / "raskat-signal" / "valid" / "v3-writer.sig"


# --- both profiles in every run ------------------------------------------------------------------


def test_every_file_gets_a_spec_and_a_compat_verdict(tmp_path):
    code, rep = check_json(str(RASKAT_WRITER), str(CARLA_VALID))
    writer, carla = rep["files"]
    assert set(writer["verdicts"]) == {"spec", "compat"}
    assert writer["profile"] == "spec" and writer["verdict"] == "invalid"
    assert writer["verdicts"]["spec"]["verdict"] == "invalid"
    assert writer["verdicts"]["compat"]["verdict"] == "valid"
    assert writer["verdicts"]["spec"]["errors"] == sum(1 for f in writer["findings"] if f["severity"] == "error")
    assert carla["verdicts"]["spec"]["verdict"] == carla["verdicts"]["compat"]["verdict"] == "valid"
    assert code == 1  # spec drives the exit code by default


def test_profile_picks_which_verdict_drives_the_exit_code():
    code, rep = check_json("--profile", "compat", str(RASKAT_WRITER))
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
    _code, rep = check_json("--profile", "compat", str(RASKAT_WRITER))
    f = rep["files"][0]
    assert "RSIG-CONTAINER-001" not in {x["rule"] for x in f["findings"]}
    assert f["verdicts"]["spec"]["rules"]["RSIG-CONTAINER-001"] == 1


# --- counts that are true past the per-rule cap ----------------------------------------------------


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
    _code, rep = check_json(str(many_findings))
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


# --- the dump ------------------------------------------------------------------------------------------


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
