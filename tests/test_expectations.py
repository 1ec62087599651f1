"""Known deviations (`recspec check --expectations`): listed findings do not fail the run, stale
entries do, and --update-expectations rewrites the list."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import example_invalid_file, example_valid_file, format_valid_by_default, manifest_files
from helpers import run_cli as run
from recspec.expectations import PLACEHOLDER_REASON

#: the example format: expectations are every format's, shown on one's corpus files (valid by default)
INFO = format_valid_by_default()
VALID = example_valid_file(INFO)
SUF = VALID.suffix
#: the example invalid file and the one rule it breaks
ELAPSED, RULE = example_invalid_file(INFO)
#: the first file of the example's suffix that the manifest expects malformed, and the rule it breaks
_CUT = next(e for e in manifest_files(INFO) if e["path"].endswith(SUF)
            and e["expect"][INFO.default_profile]["verdict"] == "malformed")
CUT, CUT_RULE = VALID.parents[1] / _CUT["path"], _CUT["expect"][INFO.default_profile]["rules"][0]
#: a rule the valid file does not break: an expectation of it is stale
NOT_BROKEN = RULE
GOOD, BAD, SHORT = f"good{SUF}", f"elapsed{SUF}", f"cut{SUF}"


@pytest.fixture()
def writer(tmp_path: Path) -> Path:
    """A writer's output folder: one valid file, one breaking RULE, one malformed."""
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(VALID, out / GOOD)
    shutil.copy(ELAPSED, out / BAD)
    shutil.copy(CUT, out / SHORT)
    return tmp_path


def write_expectations(path: Path, files: dict) -> None:
    path.write_text(json.dumps({"recspec_expectations": 1, "files": files}))


def test_listed_deviations_do_not_fail_the_run(writer):
    exp = writer / "expectations.json"
    write_expectations(exp, {f"out/{BAD}": {RULE: "rounds elapsed"},
                             f"out/{SHORT}": {CUT_RULE: "killed writer"}})
    code, out, err = run("check", "--json", str(writer / "out"), "--expectations", str(exp))
    assert code == 0, out + err
    report = json.loads(out)
    files = {Path(f["path"]).name: f for f in report["files"]}
    # the verdict stays what the file is; the file just does not fail the run
    assert files[BAD]["verdict"] == "invalid" and files[BAD]["failed"] is False
    assert files[BAD]["known_deviations"] == {RULE: "rounds elapsed"}
    assert files[BAD]["findings"][0]["known_deviation"] is True
    assert files[SHORT]["verdict"] == "malformed" and files[SHORT]["failed"] is False
    assert report["summary"]["known_deviations"] == 2 and report["summary"]["stale_expectations"] == 0
    assert report["expectations"] == {"file": str(exp), "stale": []}


def test_an_unlisted_rule_still_fails(writer):
    exp = writer / "expectations.json"
    write_expectations(exp, {f"out/{BAD}": {RULE: "rounds elapsed"}})
    code, out, _ = run("check", str(writer / "out"), "--expectations", str(exp))
    assert code == 1  # the malformed file's truncation is not listed
    assert f"{RULE} (known deviation) @" in out


def test_a_stale_expectation_fails_the_run(writer):
    exp = writer / "expectations.json"
    write_expectations(exp, {f"out/{BAD}": {RULE: "rounds elapsed"},
                             f"out/{SHORT}": {CUT_RULE: "killed writer"},
                             f"out/{GOOD}": {NOT_BROKEN: "old writer wrote 1900-based dates"}})
    code, out, _ = run("check", str(writer / "out"), "--expectations", str(exp))
    assert code == 1
    assert f"STALE {NOT_BROKEN} expected on out/{GOOD}, but it did not occur" in out
    code, out, _ = run("check", "--json", str(writer / "out"), "--expectations", str(exp))
    assert json.loads(out)["expectations"]["stale"] == [
        {"path": f"out/{GOOD}", "rule": NOT_BROKEN, "reason": "old writer wrote 1900-based dates",
         "why": "it did not occur"}]


def test_a_listed_file_that_is_gone_is_stale_but_one_not_checked_is_left_alone(writer):
    exp = writer / "expectations.json"
    write_expectations(exp, {f"out/{BAD}": {RULE: "rounds elapsed"},
                             f"out/{SHORT}": {CUT_RULE: "killed writer"},
                             f"out/deleted{SUF}": {RULE: "rounds elapsed"}})
    code, out, _ = run("check", "--json", str(writer / "out" / BAD), "--expectations", str(exp))
    assert code == 1
    stale = json.loads(out)["expectations"]["stale"]
    assert [(s["path"], s["why"]) for s in stale] == [(f"out/deleted{SUF}", "the file no longer exists")]


def test_update_expectations_writes_the_list_and_keeps_reasons(writer):
    exp = writer / "expectations.json"
    write_expectations(exp, {f"out/{BAD}": {RULE: "rounds elapsed"},
                             f"out/{GOOD}": {NOT_BROKEN: "stale"}})
    code, _, err = run("check", str(writer / "out"), "--expectations", str(exp), "--update-expectations")
    assert f"wrote {exp}" in err and "1 without a reason" in err
    assert json.loads(exp.read_text()) == {"recspec_expectations": 1, "files": {
        f"out/{SHORT}": {CUT_RULE: PLACEHOLDER_REASON},
        f"out/{BAD}": {RULE: "rounds elapsed"}}}
    assert code == 1  # the new entry's reason is still the placeholder
    code, out, _ = run("check", "--json", str(writer / "out"), "--expectations", str(exp))
    assert code == 1
    assert [(s["path"], s["why"]) for s in json.loads(out)["expectations"]["stale"]] == [
        (f"out/{SHORT}", "its reason is not written yet")]
    written = json.loads(exp.read_text())
    written["files"][f"out/{SHORT}"][CUT_RULE] = "the writer is killed at the end of the run"
    exp.write_text(json.dumps(written))
    code, _, _ = run("check", str(writer / "out"), "--expectations", str(exp))
    assert code == 0


def test_an_empty_reason_fails_the_run_like_the_placeholder(writer):
    exp = writer / "expectations.json"
    write_expectations(exp, {f"out/{BAD}": {RULE: " "},
                             f"out/{SHORT}": {CUT_RULE: "killed writer"}})
    code, out, _ = run("check", str(writer / "out"), "--expectations", str(exp))
    assert code == 1
    assert f"{RULE} (known deviation) @" in out  # still marked: the reason alone is missing
    assert "its reason is not written yet" in out


def test_update_creates_a_missing_file_and_paths_are_relative_to_it(writer, monkeypatch):
    (writer / "ci").mkdir()
    exp = writer / "ci" / "expectations.json"
    monkeypatch.chdir(writer / "out")
    code, _, _ = run("check", BAD, "--expectations", str(exp), "--update-expectations")
    assert code == 1  # until the reason is written
    assert json.loads(exp.read_text())["files"] == {f"../out/{BAD}": {RULE: PLACEHOLDER_REASON}}


def test_a_crash_is_never_a_known_deviation(writer, monkeypatch):
    exp = writer / "expectations.json"
    write_expectations(exp, {f"out/{BAD}": {RULE: "rounds", "RECSPEC-INTERNAL": "never"}})
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", f"crash={BAD}")
    code, out, _ = run("check", "--json", "-j", "2", str(writer / "out" / BAD), "--expectations", str(exp))
    assert code == 1
    [f] = json.loads(out)["files"]
    assert f["verdict"] == "crash" and f["failed"] is True and "known_deviations" not in f


@pytest.mark.parametrize(("content", "message"), [
    ("not json", "is not JSON"),
    ('{"files": {}}', "not a version 1 expectations file"),
    ('{"recspec_expectations": 1, "files": {"a.log": ["X-RULE-001"]}}', "'files' must map paths"),
], ids=["not-json", "no-version", "rules-as-list"])
def test_a_bad_expectations_file_is_a_usage_error(tmp_path, content, message):
    exp = tmp_path / "e.json"
    exp.write_text(content)
    code, _, err = run("check", str(VALID), "--expectations", str(exp))
    assert code == 2 and message in err and "Traceback" not in err


def test_missing_expectations_file_and_update_without_a_file(tmp_path):
    code, _, err = run("check", str(VALID), "--expectations", str(tmp_path / "none.json"))
    assert code == 2 and "does not exist" in err and "--update-expectations" in err
    code, _, err = run("check", str(VALID), "--update-expectations")
    assert code == 2 and "needs --expectations" in err


# --- bounded and strict reading (each failed before: silently accepted, RecursionError, 9.8 GB) ---


def test_unknown_top_level_keys_are_rejected(tmp_path):
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({"recspec_expectations": 1, "files": {}, "file": {"a.log": {}}}))
    code, _, err = run("check", "--expectations", str(exp), str(tmp_path))
    assert code == 2
    assert "unknown top-level key(s) 'file'; the keys are recspec_expectations, files" in err


def test_deeply_nested_json_is_a_usage_error_not_a_traceback(tmp_path):
    exp = tmp_path / "exp.json"
    exp.write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = run("check", "--expectations", str(exp), str(tmp_path))
    assert code == 2
    assert "nests arrays or objects too deeply" in err and "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_expectations_from_dev_zero_are_read_up_to_the_limit_and_refused(tmp_path, monkeypatch):
    from recspec import expectations

    monkeypatch.setattr(expectations, "MAX_EXPECTATIONS_SIZE", 1 << 20)
    code, _, err = run("check", "--expectations", "/dev/zero", str(tmp_path))
    assert code == 2
    assert "cannot read expectations file: /dev/zero: the stream did not end within 1048576 bytes" in err
