"""`recspec drive` and `recspec.testing` on raSkat's planted negative-coordinate writer
(tests/testees/raskat_negative_writer.py) and raSkat's writer habits: the v2 case it shrinks to, its replay
script, the reports and expectations of its run, a Hypothesis test drawing raSkat cases, the documented C++
driver example, the one-millionth floor tolerance and a flaky writer. Every expectation here (the variant, the
coordinate fields, DRIVE-WRITER-005 for a negative v2 coordinate, RSIG-COORD-001) is a raSkat fact."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_drive import PY, _failure, exact  # puts tests/testees on sys.path

from helpers import REPO as ROOT
from helpers import TESTEES, drive_report
from recspec.cli import main
from recspec.testing import DriveFailure, check_writer

# isort: split
import raskat_negative_writer  # the testee, from tests/testees


def assert_minimal_raskat(case: dict[str, Any]) -> None:
    """A v2 case whose longitude is one millionth west, every other value at its smallest."""
    assert case["variant"] == "v2" and case["longitude"] == -1e-06
    assert case["latitude"] == 0.0 and case["altitude"] == 0.0 and case["samples"] == []
    assert case["microseconds"] == 0 and case["flags"] == 0 and case["sample_rate"] == 1


def test_cli_finds_and_shrinks_the_raskat_negative_coordinate_writer(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    code, report = drive_report("writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
                          "--max-examples", "30", "--seed", "1", "--out", str(tmp_path), "--",
                          PY, str(TESTEES / "raskat_negative_writer.py"), "{case}", "{out}")
    assert code == 1
    failure = _failure(report)
    assert failure["verdicts"] == ["wrote-unrepresentable"]
    assert_minimal_raskat(failure["case"])
    saved = tmp_path / "writer-raskat-signal-v2"
    assert json.loads((saved / "case.json").read_text()) == failure["case"]
    assert (saved / "written.sig").stat().st_size == 47 and (saved / "report.json").is_file()
    # the one command that replays it, run from another folder, fails the same way
    import shlex
    import subprocess

    script = (saved / "replay.sh").read_text()
    words = shlex.split(script.splitlines()[-1])
    assert words[:4] == ["exec", sys.executable, "-m", "recspec"] and "--replay" in words
    assert words[words.index("--") + 1:][:2] == [PY, str(TESTEES / "raskat_negative_writer.py")]
    assert f"cd {shlex.quote(str(Path.cwd()))} || exit 2" in script.splitlines()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(["sh", str(saved / "replay.sh")], cwd=elsewhere, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "DRIVE-WRITER-005" in done.stdout and '"longitude": -1e-06' in done.stdout


def test_testing_finds_the_planted_raskat_negative_coordinate_writer_and_shrinks_it() -> None:
    with pytest.raises(DriveFailure) as raskat:
        check_writer(raskat_negative_writer.write, format="raskat-signal", variant="v2", profile="compat",
                     max_examples=50, seed=1)
    assert raskat.value.verdicts == ("wrote-unrepresentable",)
    assert_minimal_raskat(raskat.value.case)  # type: ignore[arg-type]


def test_testing_inside_a_hypothesis_test_judges_the_drawn_case() -> None:
    from hypothesis import given, settings

    from recspec.strategies import raskat_cases

    @settings(max_examples=40, deadline=None, database=None)
    @given(raskat_cases(2, container="raw", negative_coordinates=True))
    def my_test(case: dict[str, Any]) -> None:
        check_writer(raskat_negative_writer.write, format="raskat-signal", profile="compat", case=case)

    with pytest.raises(DriveFailure, match="wrote-unrepresentable"):
        my_test()


def test_reports_are_written_like_checks_and_valid(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["drive", "writer", "raskat-signal", "--variant", "v2", "--profile", "compat", "--max-examples", "20",
            "--seed", "1"]
    for kind, name in (("json", "r.json"), ("junit", "r.xml"), ("sarif", "r.sarif"), ("html", "r.html"),
                       ("markdown", "r.md")):
        args += ["--report", f"{kind}:{tmp_path / name}"]
    testee = ["--", PY, str(TESTEES / "raskat_negative_writer.py"), "{case}", "{out}"]
    assert main([*args, *testee]) == 1
    capsys.readouterr()
    report = json.loads((tmp_path / "r.json").read_text())
    schema = json.loads((ROOT / "recspec" / "schemas" / "report-1.schema.json").read_text())
    jsonschema.validate(report, schema)
    assert "DRIVE-WRITER-005" in (tmp_path / "r.xml").read_text()
    sarif = json.loads((tmp_path / "r.sarif").read_text())
    assert any(r["ruleId"] == "DRIVE-WRITER-005" for r in sarif["runs"][0]["results"])
    assert "DRIVE-WRITER-005" in (tmp_path / "r.html").read_text() and (tmp_path / "r.md").read_text()
    # deterministic with --seed: the same run writes the same report
    first = (tmp_path / "r.json").read_bytes()
    assert main([*args, *testee]) == 1
    capsys.readouterr()
    assert (tmp_path / "r.json").read_bytes() == first


def test_expectations_file_keys_targets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({"recspec_expectations": 1, "files": {
        "drive/writer/raskat-signal": {"DRIVE-WRITER-005": "negative coordinates are written as the C++ writer does"},
        "drive/writer/raskat-signal/v2": {"RSIG-COORD-001": "never happens: stale"}}}))
    code, report = drive_report("writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
                          "--max-examples", "20", "--seed", "1", "--expectations", str(exp), "--",
                          PY, str(TESTEES / "raskat_negative_writer.py"), "{case}", "{out}")
    assert code == 1
    assert report["files"][0]["known_deviations"] == {
        "DRIVE-WRITER-005": "negative coordinates are written as the C++ writer does"}
    assert [(s["rule"], s["why"]) for s in report["expectations"]["stale"]] == [("RSIG-COORD-001", "it did not occur")]


def test_the_cpp_driver_example_passes_and_refuses_negative_coordinates(capsys: pytest.CaptureFixture[str],
                                                                        tmp_path: Path) -> None:
    import shutil
    import subprocess

    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("needs a C++ compiler (g++) to build docs/testees/raskat_v2_writer.cpp")
    exe = tmp_path / "raskat_v2_writer"
    subprocess.run([compiler, "-std=c++17", "-O2", "-o", str(exe), str(ROOT / "docs" / "testees" /
                                                                       "raskat_v2_writer.cpp")], check=True)
    code, report = drive_report("writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
                          "--max-examples", "25", "--seed", "4", "--", str(exe), "{case}", "{out}")
    assert code == 0, report


def _floor_fixed(x: float) -> tuple[int, int]:
    """The raSkat writer's other habit: the fraction computed in floating point and floored (0.000003 is
    stored as 0.000002); negative coordinates refused."""
    if x < 0:
        raise ValueError(f"{x} is negative: a v2 coordinate cannot hold it")
    whole = math.floor(x)
    return whole, math.floor((x - whole) * 1_000_000)


def _floor_write(case: Any, out: Path) -> None:
    raskat_negative_writer.write(case, str(out), to_fixed=_floor_fixed)


def test_the_millionth_floor_tolerance_accepts_a_coordinate_one_millionth_low() -> None:
    with pytest.raises(DriveFailure) as failure:
        check_writer(_floor_write, format="raskat-signal", variant="v2", profile="compat", max_examples=30, seed=1)
    run = failure.value.run
    assert run is not None
    mismatches = [f for f in run.report.files[0].findings if f.rule == "DRIVE-WRITER-007"]
    assert mismatches and len({f.path for f in mismatches}) == len(mismatches)  # one per coordinate at most
    for finding in mismatches:
        assert finding.path in ("longitude", "latitude", "altitude")
        assert round(finding.expected * 1_000_000) - round(finding.actual * 1_000_000) == 1  # one millionth low
    # the same cases pass when that one-millionth loss is declared
    run = check_writer(_floor_write, format="raskat-signal", variant="v2", profile="compat", max_examples=30, seed=1,
                       tolerances=["millionth-floor"])
    assert run is not None and run.ok and run.results[0].examples == 30
    assert run.report.files[0].evidence["drive"]["tolerances"] == ["millionth-floor"]


def test_a_flaky_writer_is_reported_with_its_failure() -> None:
    failed = []

    def flaky(case: Any, out: Path) -> None:
        """Refuses the first case it can write, once: that case passes when Hypothesis replays it."""
        if not failed and min(case["longitude"], case["latitude"], case["altitude"]) >= 0:
            failed.append(case)
            raise RuntimeError("out of file handles")
        _floor_write(case, out)

    with pytest.raises(DriveFailure) as failure:
        check_writer(flaky, format="raskat-signal", variant="v2", profile="compat", tolerances=["millionth-floor"],
                     max_examples=10, seed=1)
    assert failure.value.verdicts == ("refused",)
    assert "out of file handles" in str(failure.value)
    assert exact(failure.value.case) == exact(failed[0])  # not shrunk: no smaller case fails
    # the failure and the report say the testee is flaky
    flaky = "it failed on this input, then did not when the input was run again"
    assert f"the testee is flaky: {flaky}" in str(failure.value)
    assert failure.value.run.report.files[0].evidence["drive"]["flaky"] == flaky  # type: ignore[union-attr]
