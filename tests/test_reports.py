"""The reports `recspec check --report FORMAT:PATH` writes: schemas, content, determinism, golden files.

Golden files (tests/golden/report.*) hold the five reports of one run over
seed-corpus files and the real CARLA logs, judged against
tests/golden/expectations.json (one known deviation, one stale entry). They
were written by the renderers and then read line by line against the corpus
manifest and the README's examples; a change to a renderer shows up as a diff
to review. To rewrite them after a deliberate change:
``RECSPEC_UPDATE_GOLDEN=1 python -m pytest tests/test_reports.py``.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from helpers import real_file
from helpers import run_cli as run
from recspec.render import write_atomic

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
REPORT_SCHEMA = ROOT / "recspec" / "schemas" / "report-1.schema.json"
#: The SARIF 2.1.0 JSON schema as the SARIF SDK ships it (npm @microsoft/sarif-multitool-linux, a
#: devDependency in package.json): the OASIS standard's schema, "$schema" draft 2020-12.
SARIF_SCHEMA = ROOT / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "sarif-2.1.0.json"
SARIF_MULTITOOL = SARIF_SCHEMA.parent / "Sarif.Multitool"
FORMATS = {"json": "json", "junit": "xml", "sarif": "sarif", "html": "html", "markdown": "md"}

#: The golden run: files whose verdicts no later format can change (all CARLA), named relative to the
#: repository root, which is the working directory of the run.
GOLDEN_INPUTS = [
    "corpus/carla/valid/0.9.15.log",
    "corpus/carla/invalid/CARLA-FRAME-004.log",
    "corpus/carla/invalid/CARLA-STREAM-001.log",
    "corpus/carla/invalid/CARLA-STRING-001.log",
    "corpus/carla/regressions/ue5-physics-control-kind.log",
    "../shared/real/carla_0910_DistanceToLaneCenter.log",
    "../shared/real/carla_0915_crash.log",
]



def report_args(folder: Path, stem: str = "report") -> list[str]:
    return [a for kind, ext in FORMATS.items() for a in ("--report", f"{kind}:{folder / f'{stem}.{ext}'}")]


def read_all(folder: Path, stem: str = "report") -> dict[str, bytes]:
    return {kind: (folder / f"{stem}.{ext}").read_bytes() for kind, ext in FORMATS.items()}


def validate_report(report: dict) -> None:
    schema = json.loads(REPORT_SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(report)


def sarif_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SARIF_SCHEMA.read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path, str]:
    """One `recspec check` over ../shared/real/ writing all five reports."""
    real = real_file("carla_0915_crash.log").parent
    out = tmp_path_factory.mktemp("real")
    code, stdout, err = run("check", str(real), *report_args(out))
    assert err == ""
    return code, out, stdout


# --- the done-when run: ../shared/real/, five reports, schemas ---------------------------------


@pytest.mark.requires_real_samples
def test_one_run_over_the_real_files_writes_all_five_reports(real_run):
    code, out, stdout = real_run
    assert code in (0, 1)
    for kind, ext in FORMATS.items():
        assert (out / f"report.{ext}").stat().st_size > 0, kind
    report = json.loads((out / "report.json").read_text())
    paths = [Path(f["path"]).name for f in report["files"]]
    assert {"carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log"} <= set(paths)
    assert f"{report['summary']['files']} files" in stdout
    # the five reports and nothing else (no temporary file left behind)
    assert sorted(p.name for p in out.iterdir()) == sorted(f"report.{ext}" for ext in FORMATS.values())


@pytest.mark.requires_real_samples
def test_json_report_of_the_real_files_validates_against_the_schema(real_run):
    _, out, _ = real_run
    validate_report(json.loads((out / "report.json").read_text()))


@pytest.mark.requires_real_samples
@pytest.mark.requires_npm_packages
def test_sarif_report_of_the_real_files_validates_against_the_sarif_schema(real_run):
    _, out, _ = real_run
    sarif = json.loads((out / "report.sarif").read_text())
    errors = list(sarif_validator().iter_errors(sarif))
    assert errors == [], [e.message for e in errors[:5]]


@pytest.mark.requires_npm_packages
def test_the_schemas_reject_what_they_should():
    """The validators are not vacuous: a wrong verdict, a missing field, a bad SARIF level fail."""
    _, stdout, _ = run("check", "--json", str(ROOT / "corpus/carla/invalid/CARLA-FRAME-004.log"))
    good = json.loads(stdout)
    validate_report(good)
    for breakage in ({"verdict": "ok"}, {"findings": [{"rule": "X"}]}, {"stats": {}}):
        bad = json.loads(stdout)
        bad["files"][0].update(breakage)
        with pytest.raises(jsonschema.ValidationError):
            validate_report(bad)
    _code, stdout, _ = run("check", str(ROOT / "corpus/carla/invalid/CARLA-FRAME-004.log"), "--report", "sarif:-")
    sarif = json.loads(stdout[stdout.index("{"):])
    assert list(sarif_validator().iter_errors(sarif)) == []
    sarif["runs"][0]["results"][0]["level"] = "fatal"
    assert list(sarif_validator().iter_errors(sarif)) != []


@pytest.mark.requires_real_samples
@pytest.mark.requires_npm_packages
def test_sarif_passes_the_sarif_sdk_validator(tmp_path, real_run):
    """The SARIF SDK's own validator (the Multitool from the same npm package) accepts the log.

    Its remarks are SARIF2005 (no informationUri: recspec names no web page of its own) and SARIF2017
    (no region) on exactly the results about a whole file, which have no byte offset: "400 more findings
    of this rule", say. SARIF leaves the region out for those, and code-scanning pages show them at
    file level."""
    if not os.access(SARIF_MULTITOOL, os.X_OK):
        # The package's postinstall only does this chmod; an npm that skips install scripts leaves it undone.
        os.chmod(SARIF_MULTITOOL, os.stat(SARIF_MULTITOOL).st_mode | stat.S_IXUSR)
    _, out, _ = real_run
    proc = subprocess.run([str(SARIF_MULTITOOL), "validate", str(out / "report.sarif"), "-o",
                           str(tmp_path / "validation.sarif")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    remarks = json.loads((tmp_path / "validation.sarif").read_text())["runs"][0]["results"]
    assert {r["ruleId"] for r in remarks} <= {"SARIF2005", "SARIF2017"}
    results = json.loads((out / "report.sarif").read_text())["runs"][0]["results"]
    flagged = {int(re.search(r"results\[(\d+)\]", r["message"]["arguments"][0]).group(1))
               for r in remarks if r["ruleId"] == "SARIF2017"}
    whole_file = {i for i, r in enumerate(results) if "region" not in r["locations"][0]["physicalLocation"]}
    assert flagged == whole_file
    assert not [r for r in remarks if r.get("level") == "error"]


# --- contents, against the corpus's hand-written expectations ----------------------------------

FRAME_004 = "corpus/carla/invalid/CARLA-FRAME-004.log"


@pytest.fixture()
def frame004(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, _, err = run("check", FRAME_004, "corpus/carla/valid/0.9.15.log", *report_args(tmp_path))
    assert code == 1 and err == ""
    return tmp_path


def test_junit_one_case_per_file_and_rule_family_with_message_offset_and_path(frame004):
    root = ET.parse(frame004 / "report.xml").getroot()
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {FRAME_004, "corpus/carla/valid/0.9.15.log"}
    bad = suites[FRAME_004]
    cases = {c.get("name"): c for c in bad.iter("testcase")}
    # one case per CARLA rule family, each named after it
    assert {"CARLA-FRAME", "CARLA-HEADER", "CARLA-STREAM", "CARLA-ACTOR", "CARLA-PACKET"} <= set(cases)
    [failure] = [c.find("failure") for c in cases.values() if c.find("failure") is not None]
    assert cases["CARLA-FRAME"].find("failure") is failure
    # the README's example finding for this seed: offset 1990, frame[2]/packet[0]:FrameStart.elapsed
    assert failure.get("type") == "CARLA-FRAME-004"
    for part in ("@1990", "frame[2]/packet[0]:FrameStart.elapsed", "elapsed 0.1 != previous elapsed 0.05"):
        assert part in failure.get("message") and part in failure.text
    assert bad.get("failures") == "1" and bad.get("tests") == str(len(cases))
    good = suites["corpus/carla/valid/0.9.15.log"]
    assert good.get("failures") == "0" and not list(good.iter("failure"))
    assert root.get("failures") == "1"
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in suites.values())


def test_sarif_result_per_finding_with_byte_region_and_rule_metadata(frame004):
    sarif = json.loads((frame004 / "report.sarif").read_text())
    [run_] = sarif["runs"]
    assert sarif["version"] == "2.1.0"
    [result] = run_["results"]
    assert result["ruleId"] == "CARLA-FRAME-004" and result["level"] == "error"
    loc = result["locations"][0]
    assert loc["physicalLocation"]["artifactLocation"]["uri"] == FRAME_004
    # line 1 for GitHub code scanning, which places results by line only; the bytes for every other reader
    assert loc["physicalLocation"]["region"] == {"startLine": 1, "byteOffset": 1990, "byteLength": 8}
    assert loc["logicalLocations"][0]["fullyQualifiedName"] == "frame[2]/packet[0]:FrameStart.elapsed"
    rules = run_["tool"]["driver"]["rules"]
    rule = rules[result["ruleIndex"]]
    assert rule["id"] == "CARLA-FRAME-004"
    assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
    assert rule["properties"]["clause"].startswith("docs/formats/carla.md#carla-frame-004 ")
    _, explained, _ = run("explain", "CARLA-FRAME-004")
    # explain's text, less its "document:" line, the path of this installation's copy (no host path in a report)
    assert rule["help"]["text"] == "".join(ln for ln in explained.splitlines(keepends=True)
                                           if not ln.startswith("document:"))
    assert "\ndocument:   " in explained and "\ndocument:" not in rule["help"]["text"]
    assert {r["id"] for r in rules} >= {"RECSPEC-INTERNAL", "RECSPEC-TIMEOUT", "CARLA-HEADER-003"}


def test_html_is_self_contained_with_matrix_explanation_and_hex_window(frame004):
    page = (frame004 / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>")
    # nothing is fetched: no scripts, stylesheets, images, fonts or frames from anywhere
    assert not re.search(r"<(script|link|img|iframe|object|embed)\b", page, re.I)
    assert not re.search(r"(src|href)\s*=\s*\"(?!#)", page, re.I)
    assert "url(" not in page and "@import" not in page
    # the files x rules matrix: one row per file, a column for the rule that fired
    matrix = page[page.index("<h2>Files x rules</h2>"):page.index("</table>")]
    assert matrix.count("<tr>") == 3 and "CARLA-FRAME-004" in matrix
    # the finding: rule, its explanation, and the bytes at 1990 = 0x7c6 marked in the hex window
    assert "elapsed 0.1 != previous elapsed 0.05" in page
    assert "durationThis" in page[page.index('id="rule-CARLA-FRAME-004"'):]
    window = page[page.index("<pre>", page.index("frame[2]/packet[0]")):]
    window = window[:window.index("</pre>")]
    row = next(line for line in window.splitlines() if line.strip().startswith("000007c0"))
    marker = window.splitlines()[window.splitlines().index(row) + 1]
    # byte 0x7c6 is the 7th of its row: the marker starts under it
    assert marker.index("^^") == row.index("000007c0") + 10 + 6 * 3


def test_markdown_summary_names_the_failing_file_and_first_error(frame004):
    md = (frame004 / "report.md").read_text()
    assert md.startswith("## recspec check: FAILED\n")
    assert "2 files, 1 valid, 1 invalid, 0 malformed, 0 unrecognized" in md
    # both profiles' verdicts, then the first error
    assert f"| `{FRAME_004}` | invalid | invalid | `CARLA-FRAME-004` @1990 frame[2]/packet[0]:FrameStart.elapsed:" in md
    assert len(md.splitlines()) < 20


# --- determinism and golden files -------------------------------------------------------------


def golden_run(out: Path, *extra: str) -> int:
    real_file("carla_0915_crash.log")
    code, _, err = run("check", *GOLDEN_INPUTS, "--expectations", "tests/golden/expectations.json",
                       *report_args(out), *extra)
    assert err == ""
    return code


@pytest.mark.requires_real_samples
@pytest.mark.requires_npm_packages
def test_golden_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = golden_run(tmp_path)
    assert code == 1  # the stale expectation fails the run
    got = read_all(tmp_path)
    if os.environ.get("RECSPEC_UPDATE_GOLDEN"):
        for kind, ext in FORMATS.items():
            (GOLDEN / f"report.{ext}").write_bytes(got[kind])
    for kind, data in got.items():
        want = (GOLDEN / f"report.{FORMATS[kind]}").read_bytes()
        assert data == want, f"{kind} report differs from tests/golden/report.{FORMATS[kind]}"
    # verdicts as the corpus manifest and PROVENANCE.md state them (written here by hand)
    verdicts = {f["path"]: f["verdict"] for f in json.loads(got["json"])["files"]}
    assert list(verdicts.values()) == ["valid", "invalid", "malformed", "malformed", "invalid", "valid", "valid"]
    validate_report(json.loads(got["json"]))
    assert list(sarif_validator().iter_errors(json.loads(got["sarif"]))) == []


@pytest.mark.requires_real_samples
def test_two_runs_serial_and_parallel_give_identical_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    golden_run(first)
    golden_run(second, "-j", "2")
    assert read_all(first) == read_all(second)


# --- writing ----------------------------------------------------------------------------------


def test_report_arguments_are_checked_before_the_run(tmp_path):
    code, _, err = run("check", FRAME_004, "--report", "sarf:x.sarif")
    assert code == 2 and "did you mean 'sarif'" in err
    code, _, err = run("check", FRAME_004, "--report", "junit")
    assert code == 2 and "FORMAT:PATH" in err
    code, _, err = run("check", str(ROOT / FRAME_004), "--report", f"junit:{tmp_path}/no/such/x.xml")
    assert code == 2 and "does not exist" in err and not (tmp_path / "no").exists()


def test_write_atomic_keeps_the_old_report_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    target.write_text("old report\n")

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # the run is stopped between writing and renaming

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new report\n" * 1000)
    assert target.read_text() == "old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_killed_run_leaves_no_half_written_report(tmp_path):
    """A real run, killed (SIGKILL) while it still checks a file: the earlier report is intact,
    and no new or partial report appears."""
    old = tmp_path / "old.json"
    old.write_text("{}\n")
    env = {**os.environ, "RECSPEC_TEST_WORKER_FAULT": "hang=0.9.15.log"}
    proc = subprocess.Popen([sys.executable, "-m", "recspec", "check", "--timeout", "60", str(ROOT / FRAME_004),
                             str(ROOT / "corpus/carla/valid/0.9.15.log"), "--report", f"json:{old}",
                             "--report", f"sarif:{tmp_path / 'new.sarif'}"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = 30.0
        import time

        start = time.monotonic()
        # wait until the worker is hanging on the second file (the first one is done by then)
        while time.monotonic() - start < deadline:
            kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
            if kids:
                break
            time.sleep(0.1)
        time.sleep(1.0)
        assert proc.poll() is None, "the run should still be waiting on the hanging file"
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
    assert old.read_text() == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]


def test_the_report_schema_ships_with_the_package():
    import tomllib
    from importlib.resources import files

    assert (files("recspec") / "schemas" / "report-1.schema.json").is_file()
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "schemas/*.json" in cfg["package-data"]["recspec"]
    assert json.loads(REPORT_SCHEMA.read_text())["properties"]["report_schema"] == {"const": 1}
