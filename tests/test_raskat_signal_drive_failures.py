"""`recspec drive` reports every distinct failure: it goes on after the first until --max-examples, groups
failures by signature (verdict, rule, field), shrinks each (up to --max-failures) and reports them all; known
deviations are keyed by rule and field path and by variant, stale ones per variant, and the summary's last line
agrees with the exit code.

The testee (tests/testees/raskat_two_bugs_writer.py) has two independent bugs: v3/v4 antenna 0 written as 1,
and a v4 threshold written one higher. Before, drive stopped at the antenna and never showed the threshold.
Every expectation here (the antenna and threshold fields, v3/v4, the expectation keys) is a raSkat fact, so the
file is raSkat's own."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from recspec.cli import main
from recspec.testing import DriveFailure, check_writer

ROOT = Path(__file__).resolve().parents[1]
TESTEES = ROOT / "tests" / "testees"
sys.path.insert(0, str(TESTEES))

import raskat_two_bugs_writer  # noqa: E402

PY = sys.executable
COMMAND = ["--", PY, str(TESTEES / "raskat_two_bugs_writer.py"), "{case}", "{out}"]


def _write(case: Any, out: Path) -> None:
    raskat_two_bugs_writer.write(dict(case), str(out))


def _mismatch_paths(failures: list[dict[str, Any]], report_file: dict[str, Any]) -> list[str]:
    return [f["path"] for f in report_file["findings"] if f["rule"] == "DRIVE-WRITER-007"]


def test_both_bugs_are_found_and_each_is_shrunk(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["drive", "writer", "raskat-signal", "--variant", "v4", "--json", "--max-examples", "30", "--seed",
                 "1", *COMMAND]) == 1
    (fr,) = json.loads(capsys.readouterr().out)["files"]
    failures = fr["evidence"]["drive"]["failures"]
    paths = _mismatch_paths(failures, fr)
    assert "antenna" in paths and "threshold" in paths
    assert all(f["shrunk"] for f in failures)
    first = failures[0]["case"]  # the antenna: the simplest v4 case
    assert (first["antenna"], first["samples"], first["threshold"], first["adc_bits"]) == (0, [], 0, 1)
    threshold = next(f["case"] for f, p in zip(failures, paths) if p == "threshold")
    assert threshold["antenna"] != 0 and threshold["samples"] == []  # shrunk, with the antenna bug out of the way


def test_failures_beyond_max_failures_are_reported_unshrunk(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["drive", "writer", "raskat-signal", "--variant", "v4", "--json", "--max-examples", "30", "--seed",
                 "1", "--max-failures", "1", *COMMAND]) == 1
    (fr,) = json.loads(capsys.readouterr().out)["files"]
    failures = fr["evidence"]["drive"]["failures"]
    assert len(failures) >= 2 and failures[0]["shrunk"] and not any(f["shrunk"] for f in failures[1:])
    assert "threshold" in _mismatch_paths(failures, fr)


def test_the_summary_prints_every_failure_with_its_whole_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["drive", "writer", "raskat-signal", "--variant", "v4", "--max-examples", "30", "--seed", "1",
                 *COMMAND]) == 1
    out = capsys.readouterr().out
    n = out.count("  failure ")
    assert n >= 2 and f"failure {n} of {n}:" in out
    cases = [json.loads(line.split("minimal input: ", 1)[1]) for line in out.splitlines() if "minimal input: " in line]
    assert len(cases) == n and all(c["variant"] == "v4" and "threshold" in c for c in cases)  # whole, parsed back
    assert out.rstrip().endswith("1 target(s), 1 failed")


def test_known_deviations_by_rule_and_field_path() -> None:
    with pytest.raises(DriveFailure) as failure:
        check_writer(_write, format="raskat-signal", variant="v4", max_examples=30, seed=1,
                     expected={"DRIVE-WRITER-007:antenna": "antenna 0 defaults to the mini-whip"})
    message = str(failure.value)
    assert "threshold" in message and "antenna: expected" not in message  # the other bug is still reported
    run = check_writer(_write, format="raskat-signal", variant="v4", max_examples=30, seed=1,
                       expected=["DRIVE-WRITER-007:antenna", "DRIVE-WRITER-007:threshold"])
    assert run is not None and run.ok


def test_a_deviation_listed_for_the_format_is_stale_only_where_no_variant_shows_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The threshold bug is v4's alone: listed for the format, it is not stale because v3 lacks it (before, v3
    reported it stale: exit 1 with "0 failed" printed)."""
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({"recspec_expectations": 1, "files": {"drive/writer/raskat-signal": {
        "DRIVE-WRITER-007:antenna": "defaults to the mini-whip", "DRIVE-WRITER-007:threshold": "off by one"}}}))
    args = ["drive", "writer", "raskat-signal", "--variant", "{v}", "--max-examples", "30", "--seed", "1",
            "--expectations", str(exp), *COMMAND]
    code = main(["drive", "writer", "raskat-signal", "--max-examples", "30", "--seed", "1",
                 "--expectations", str(exp), *COMMAND])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "STALE" not in out and out.rstrip().endswith("3 target(s), 0 failed")
    # listed for v3 alone, the threshold is stale there: reported for that variant, and the last line says so
    exp.write_text(json.dumps({"recspec_expectations": 1, "files": {
        "drive/writer/raskat-signal": {"DRIVE-WRITER-007:antenna": "defaults to the mini-whip"},
        "drive/writer/raskat-signal/v3": {"DRIVE-WRITER-007:threshold": "off by one"}}}))
    code = main([w.replace("{v}", "v3") for w in args])
    out = capsys.readouterr().out
    assert code == 1
    assert "STALE DRIVE-WRITER-007:threshold expected on drive/writer/raskat-signal/v3" in out
    assert out.rstrip().endswith("1 target(s), 0 failed, 1 stale known deviation(s)")
