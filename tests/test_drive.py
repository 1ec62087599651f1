"""`recspec drive` and `recspec.testing`: planted bugs are found and shrunk to their minimal case, a correct
testee passes for every format and variant, a testee's crash, hang or silence is a verdict, never a traceback.

The testees are in tests/testees/: each planted-bug module says its bug and its minimal case in its
docstring, and exposes the same writer or reader as a Python function (for ``recspec.testing``) and as a
command (for the CLI)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from recspec.cli import main
from recspec.testing import DriveFailure, check_reader, check_writer

ROOT = Path(__file__).resolve().parents[1]
TESTEES = ROOT / "tests" / "testees"
sys.path.insert(0, str(TESTEES))

import carla_truncated_reader  # noqa: E402
import matrix_int64_writer  # noqa: E402
import nanover_guess_writer  # noqa: E402
import raskat_negative_writer  # noqa: E402

PY = sys.executable


def _drive(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["drive", *argv[:2], "--json", *argv[2:]])
    return code, json.loads(capsys.readouterr().out)


def _failure(report: dict[str, Any]) -> dict[str, Any]:
    (fr,) = [f for f in report["files"] if f["failed"]]
    return fr["evidence"]["drive"]["failures"][0]


# --- the minimal cases, stated once ---------------------------------------------------------------


def assert_minimal_raskat(case: dict[str, Any]) -> None:
    """A v2 case whose longitude is one millionth west, every other value at its smallest."""
    assert case["variant"] == "v2" and case["longitude"] == -1e-06
    assert case["latitude"] == 0.0 and case["altitude"] == 0.0 and case["samples"] == []
    assert case["microseconds"] == 0 and case["flags"] == 0 and case["sample_rate"] == 1


def assert_minimal_nanover(case: dict[str, Any]) -> None:
    """A trajectory of one record: a reset frame with no particles and no extra keys."""
    assert case["variant"] == "traj"
    (record,) = case["records"]
    frame = record["frame"]
    assert frame["frame_index"] == 0 and frame["values"]["particle.count"] == 0.0
    assert frame["arrays"]["particle.positions"] == {"float": []}
    assert set(frame["arrays"]) == {"particle.positions", "particle.elements", "particle.names", "particle.residues",
                                    "residue.names", "residue.ids", "residue.chains", "chain.names", "bond.pairs"}


def exact(value: Any) -> str:
    """``value`` as canonical JSON, to compare cases exactly: ``==`` takes -0.0 for 0.0 and 1 for 1.0."""
    return json.dumps(value, sort_keys=True)


#: The int64 writer's minimal case: no object, one frame at 0.0 with one vector command whose last vector
#: number is -0.0 (the first command kind, the zero origin, no colour or opacity).
MATRIX_INT64_MINIMAL = {"recspec_case": 2, "format": "matrix-smt", "variant": None, "objects": [],
                        "frames": [{"time": 0.0, "states": [], "commands": [
                            {"kind": "v", "origin": [0.0, 0.0, 0.0], "vector": [0.0, 0.0, -0.0]}]}]}


def assert_minimal_matrix(case: dict[str, Any]) -> None:
    """Exactly MATRIX_INT64_MINIMAL. The shrinker reaches it from every seed tried (1 to 4) since the strategy
    draws each object whole (id with its fields) and a frame's commands before its states, and a drive run
    draws the same examples in any process."""
    assert exact(case) == exact(MATRIX_INT64_MINIMAL)


#: The truncation reader's minimal input: the smallest valid 0.9.15 log (no frame) ...
CARLA_EMPTY_LOG = {"recspec_case": 2, "format": "carla", "variant": "0.9.15", "frames": [],
                   "header": {"version": 1, "magic": "CARLA_RECORDER", "date": 1483228800, "map_name": "Town01"}}


def assert_minimal_carla(failure: dict[str, Any]) -> None:
    """... with one byte appended, so that the log ends inside a packet header (the byte is 0: the caller
    checks it where it has the bytes). Reached from every seed tried (1 to 4): drive's mutations put appending
    before cutting, so the shrinker does not stop at a one-frame log cut short by one byte."""
    assert exact(failure["case"]) == exact(CARLA_EMPTY_LOG)
    assert failure["mutation"] == "1 byte(s) appended"


# --- planted bugs, by the CLI ----------------------------------------------------------------------


def test_cli_finds_and_shrinks_the_raskat_negative_coordinate_writer(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    code, report = _drive(capsys, "writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
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


def test_cli_finds_and_shrinks_the_nanover_empty_array_writer(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _drive(capsys, "writer", "nanover", "--max-examples", "20", "--seed", "1", "--",
                          PY, str(TESTEES / "nanover_guess_writer.py"), "{case}", "{out}")
    assert code == 1
    traj, state = report["files"]
    assert traj["path"] == "drive/writer/nanover/traj" and traj["failed"]
    assert state["path"] == "drive/writer/nanover/state" and not state["failed"]
    failure = _failure(report)
    assert "mismatch" in failure["verdicts"]
    assert_minimal_nanover(failure["case"])
    # the written file's own findings travel with the report, with their rule ids
    assert "NANOVER-FRAME-006" in {f["rule"] for f in traj["findings"]}


def test_cli_finds_and_shrinks_the_matrix_int64_writer(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _drive(capsys, "writer", "matrix-smt", "--max-examples", "100", "--max-size", "1", "--seed", "1",
                          "--", PY, str(TESTEES / "matrix_int64_writer.py"), "{case}", "{out}")
    assert code == 1
    failure = _failure(report)
    assert failure["verdicts"] == ["mismatch"]
    assert_minimal_matrix(failure["case"])
    # the first failure's finding (the -0.0 at another field is a failure of its own, also reported)
    finding = next(f for f in report["files"][0]["findings"] if f["rule"] == "DRIVE-WRITER-007")
    assert finding["expected"] == -0.0 and math.copysign(1.0, finding["expected"]) < 0 and finding["actual"] == 0.0
    assert finding["path"] == "frames[0].commands[0].vector[2]"


def test_cli_finds_and_shrinks_the_carla_truncation_reader(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _drive(capsys, "reader", "carla", "--variant", "0.9.15", "--max-examples", "20", "--seed", "1",
                          "--", PY, str(TESTEES / "carla_truncated_reader.py"), "0.9.15", "{file}")
    assert code == 1
    fr = report["files"][0]
    corpus = [f for f in fr["evidence"]["drive"]["failures"] if "source" in f]
    # the corpus's own truncated log is accepted too, and reported by its name
    assert any(f["source"].endswith("CARLA-STREAM-001.log") for f in corpus)
    generated = next(f for f in fr["evidence"]["drive"]["failures"] if "case" in f)
    assert generated["verdicts"] == ["accepts-malformed"]
    assert_minimal_carla(generated)


# --- planted bugs, by recspec.testing ----------------------------------------------------------------


def test_testing_finds_the_planted_bugs_and_shrinks_them() -> None:
    with pytest.raises(DriveFailure) as raskat:
        check_writer(raskat_negative_writer.write, format="raskat-signal", variant="v2", profile="compat",
                     max_examples=50, seed=1)
    assert raskat.value.verdicts == ("wrote-unrepresentable",)
    assert_minimal_raskat(raskat.value.case)  # type: ignore[arg-type]

    with pytest.raises(DriveFailure) as nanover:
        check_writer(nanover_guess_writer.write, format="nanover", max_examples=30, seed=1)
    assert "mismatch" in nanover.value.verdicts
    assert_minimal_nanover(nanover.value.case)  # type: ignore[arg-type]

    with pytest.raises(DriveFailure) as matrix:
        check_writer(matrix_int64_writer.write, format="matrix-smt", max_examples=100, max_size=1, seed=1)
    assert matrix.value.verdicts == ("mismatch",)
    assert_minimal_matrix(matrix.value.case)  # type: ignore[arg-type]

    with pytest.raises(DriveFailure) as carla:
        check_reader(lambda p: carla_truncated_reader.read(p, "0.9.15"), format="carla", variant="0.9.15",
                     corpus=False, max_examples=30, seed=1)
    assert carla.value.verdicts == ("accepts-malformed",)
    run = carla.value.run
    assert run is not None
    assert_minimal_carla({"case": run.results[0].failure.case,  # type: ignore[union-attr]
                          "mutation": run.results[0].failure.mutation})  # type: ignore[union-attr]
    from recspec.drive import reference_file
    from recspec.formats import FORMATS

    assert carla.value.data == reference_file(FORMATS["carla"], CARLA_EMPTY_LOG, "spec").data + b"\x00"  # type: ignore[operator]


def test_testing_inside_a_hypothesis_test_judges_the_drawn_case() -> None:
    from hypothesis import given, settings

    from recspec.strategies import raskat_cases

    @settings(max_examples=40, deadline=None, database=None)
    @given(raskat_cases(2, container="raw", negative_coordinates=True))
    def my_test(case: dict[str, Any]) -> None:
        check_writer(raskat_negative_writer.write, format="raskat-signal", profile="compat", case=case)

    with pytest.raises(DriveFailure, match="wrote-unrepresentable"):
        my_test()


def test_known_deviations_excuse_a_rule_and_fail_when_stale() -> None:
    # the empty-array writer's files break NANOVER-FRAME-006 and do not hold their case: listing only the
    # rule is not enough (the mismatch still fails) ...
    with pytest.raises(DriveFailure, match="mismatch"):
        check_writer(nanover_guess_writer.write, format="nanover", variant="traj", max_examples=10, seed=1,
                     expected={"NANOVER-FRAME-006": "empty arrays are typed by guess"})
    # ... listing both is
    run = check_writer(nanover_guess_writer.write, format="nanover", variant="traj", max_examples=10, seed=1,
                       expected=["NANOVER-FRAME-006", "DRIVE-WRITER-007"])
    assert run is not None and run.ok and run.report.files[0].known_deviations
    # a deviation that never occurs is stale
    with pytest.raises(DriveFailure, match="stale"):
        check_writer(nanover_guess_writer.write, format="nanover", variant="state", max_examples=5, seed=1,
                     expected=["NANOVER-FRAME-006"])


# --- a correct testee passes -------------------------------------------------------------------------


_VARIANTS = {"carla": ["0.9.4-0.9.5", "0.9.6-0.9.9", "0.9.10-0.9.11", "0.9.12-0.9.13", "0.9.14", "0.9.15",
                       "dev-2023", "0.9.16", "ue5"],
             "nanover": ["traj", "state"], "raskat-signal": ["v1", "v2", "v3", "v4"], "matrix-smt": [None]}
_PAIRS = [(f, v) for f, vs in _VARIANTS.items() for v in vs]


@pytest.mark.parametrize(("fmt", "variant"), _PAIRS, ids=[f"{f}-{v}" for f, v in _PAIRS])
def test_the_reference_codec_as_a_command_passes_drive(fmt: str, variant: str | None,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    profile = "compat" if variant == "v1" else "spec"  # v1 is legacy: an error under spec, for any writer
    pick = ["--variant", variant] if variant else []
    code, report = _drive(capsys, "writer", fmt, *pick, "--profile", profile, "--max-examples", "4", "--seed", "2",
                          "--byte-exact", "--", PY, str(TESTEES / "reference_writer.py"), "{case}", "{out}", profile)
    assert code == 0, report
    code, report = _drive(capsys, "reader", fmt, *pick, "--profile", profile, "--max-examples", "4", "--seed", "2",
                          "--", PY, str(TESTEES / "reference_reader.py"), fmt, variant or "", "{file}", "case",
                          profile)
    assert code == 0, report


def test_the_reference_reader_agrees_on_stats(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _drive(capsys, "reader", "matrix-smt", "--compare", "stats", "--max-examples", "4", "--seed", "2",
                          "--no-corpus", "--", PY, str(TESTEES / "reference_reader.py"), "matrix-smt", "", "{file}",
                          "stats")
    assert code == 0, report


# --- a testee's own failures are verdicts ---------------------------------------------------------------


@pytest.mark.parametrize(("command", "verdict"), [
    ([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], "crash"),
    ([PY, "-c", "import time; time.sleep(30)"], "timeout"),
    ([PY, "-c", "pass"], "no-output"),
    ([PY, "-c", "import sys; sys.exit(3)"], "refused"),
    (["/nonexistent/writer"], "refused"),
], ids=["crash", "timeout", "no-output", "refused", "missing-program"])
def test_a_writers_crash_hang_or_silence_is_its_verdict(command: list[str], verdict: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _drive(capsys, "writer", "matrix-smt", "--max-examples", "2", "--seed", "1", "--timeout", "1",
                          "--", *command, "{out}")
    assert code == 1
    assert _failure(report)["verdicts"] == [verdict]
    assert "Traceback" not in capsys.readouterr().err


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
    code, report = _drive(capsys, "writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
                          "--max-examples", "20", "--seed", "1", "--expectations", str(exp), "--",
                          PY, str(TESTEES / "raskat_negative_writer.py"), "{case}", "{out}")
    assert code == 1
    assert report["files"][0]["known_deviations"] == {
        "DRIVE-WRITER-005": "negative coordinates are written as the C++ writer does"}
    assert [(s["rule"], s["why"]) for s in report["expectations"]["stale"]] == [("RSIG-COORD-001", "it did not occur")]


def test_usage_errors_are_clear(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["drive", "writer", "nanover"]) == 2
    assert "no testee command" in capsys.readouterr().err
    assert main(["drive", "writer", "nanover", "--tolerance", "float16", "--", "true"]) == 2
    assert "float32" in capsys.readouterr().err


# --- the examples of docs/testees/ run ------------------------------------------------------------------


def test_the_python_callable_example_passes() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "testees"))
    import test_nanover_writer as example

    run = check_writer(example.write, format="nanover", max_examples=10, seed=3)
    assert run is not None and run.ok and run.results[0].examples == 10


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
    code, report = _drive(capsys, "writer", "raskat-signal", "--variant", "v2", "--profile", "compat",
                          "--max-examples", "25", "--seed", "4", "--", str(exe), "{case}", "{out}")
    assert code == 0, report


def test_the_command_line_carla_writer_example_passes(capsys: pytest.CaptureFixture[str]) -> None:
    for variant in ("0.9.15", "ue5"):  # a UE4 build (f32 vectors) and a UE5 build (f64 vectors)
        code, report = _drive(capsys, "writer", "carla", "--variant", variant, "--max-examples", "6", "--seed", "3",
                              "--byte-exact", "--", PY, str(ROOT / "docs" / "testees" / "carla_writer.py"), "{case}",
                              "{out}")
        assert code == 0, report
        assert report["files"][0]["evidence"]["drive"]["examples"] == 6


def test_the_bson_library_matrix_writer_example_passes() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "testees"))
    import test_matrix_writer as example

    run = check_writer(example.write, format="matrix-smt", byte_exact=True, max_examples=10, seed=3)
    assert run is not None and run.ok and run.results[0].examples == 10


# --- tolerances, a flaky testee, judging given bytes ------------------------------------------------------


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


def test_check_reader_judges_the_bytes_it_is_given() -> None:
    from recspec.drive import reference_file
    from recspec.formats import FORMATS

    log = reference_file(FORMATS["carla"], CARLA_EMPTY_LOG, "spec").data
    assert log is not None

    def read(path: Path) -> Any:
        return carla_truncated_reader.read(str(path), "0.9.15")

    assert check_reader(read, format="carla", variant="0.9.15", data=log) is None  # valid, read right
    with pytest.raises(DriveFailure) as failure:
        check_reader(read, format="carla", variant="0.9.15", data=log + b"\x00")
    assert (failure.value.verdicts, failure.value.data, failure.value.run) == (("accepts-malformed",), log + b"\x00",
                                                                               None)
    assert "CARLA-STREAM-001" in str(failure.value)
    # a reader that rejects the valid log
    with pytest.raises(DriveFailure, match="rejects-valid"):
        check_reader(lambda path: 1 / 0, format="carla", variant="0.9.15", data=log)


def test_the_same_seed_draws_the_same_examples_whatever_was_imported(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Hypothesis draws now and then a constant from the source of the local modules imported so far; a drive
    run must not depend on them (else --seed does not reproduce a run in another process)."""
    sys.path.insert(0, str(ROOT / "docs" / "testees"))
    import test_matrix_writer as correct

    def search() -> bytes | None:
        run = check_writer(correct.write, format="matrix-smt", max_examples=20, seed=7)
        assert run is not None
        return run.results[0].last_reference  # the last case's file: another example, another file

    before = search()
    module = tmp_path / "drive_constants_module.py"
    module.write_text("CONSTANTS = [" + ", ".join(f"{x / 7!r}, {x}, {str(x)!r}" for x in range(1, 200)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.import_module("drive_constants_module")
    assert search() == before
