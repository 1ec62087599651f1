"""`recspec drive --persistent` on raSkat .sig writers: a crash and a hang of the testee, each against the case
that caused it (a sample rate, a flags value), and the C++ example of docs/testees, whose driver reads subnormal
doubles (tests/test_drive_persistent.py is the mode on every format)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO, TESTEES, drive_report

PY = sys.executable
TESTEE = str(TESTEES / "persistent_testee.py")


def test_a_crash_and_a_hang_are_reported_against_their_cases() -> None:
    """The testee dies (SIGSEGV) on a sample rate above 1000 and stops answering on flags 2 or more: each is a
    failure of its own, shrunk to its smallest case, and the examples in between are judged by a new process."""
    code, report = drive_report("writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
                                "--persistent", "--timeout", "1", "--max-examples", "40", "--seed", "1", "--",
                                PY, TESTEE, "--crash-above-sample-rate", "1000", "--hang-from-flags", "2", "compat")
    assert code == 1
    drive = report["files"][0]["evidence"]["drive"]
    assert drive["examples"] == 40
    by_verdict = {tuple(f["verdicts"]): f["case"] for f in drive["failures"]}
    assert set(by_verdict) == {("crash",), ("timeout",)}
    crash, hang = by_verdict[("crash",)], by_verdict[("timeout",)]
    assert (crash["sample_rate"], crash["flags"]) == (1001, 0)
    assert (hang["sample_rate"], hang["flags"]) == (1, 2)
    rules = {f["rule"] for f in report["files"][0]["findings"]}
    assert {"DRIVE-WRITER-001", "DRIVE-WRITER-002"} <= rules


def _compiler() -> str:
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("needs a C++ compiler (g++) to build docs/testees/raskat_v2_writer.cpp")
    return compiler


def _build(tmp_path: Path) -> Path:
    exe = tmp_path / "raskat_v2_writer"
    subprocess.run([_compiler(), "-std=c++17", "-O2", "-o", str(exe),
                    str(REPO / "docs" / "testees" / "raskat_v2_writer.cpp")], check=True)
    return exe


def test_the_cpp_example_runs_persistent(tmp_path: Path) -> None:
    exe = _build(tmp_path)
    code, report = drive_report("writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
                                "--persistent", "--max-examples", "40", "--seed", "4", "--", str(exe), "--persistent")
    assert code == 0, report
    assert report["files"][0]["evidence"]["drive"]["examples"] == 40


def test_the_cpp_driver_reads_a_subnormal_double(tmp_path: Path) -> None:
    """5e-324 is a double (the smallest subnormal); std::stod threw on it (out_of_range), so the driver called the
    case malformed (exit 2). Read right, it is a coordinate v2 cannot hold (not a whole number of millionths):
    refused, exit 1, as the reference encoder refuses it."""
    exe = _build(tmp_path)
    case = {"recspec_case": 1, "format": "raskat-signal", "variant": "v2", "container": "raw",
            "time": "20000101000000", "microseconds": 0, "longitude": 5e-324, "latitude": 0.0, "altitude": 0.0,
            "sample_rate": 1, "flags": 0, "samples": []}
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case))
    done = subprocess.run([str(exe), str(path), str(tmp_path / "out.sig")], capture_output=True, text=True)
    assert (done.returncode, done.stderr.split(":")[0]) == (1, "refused")
