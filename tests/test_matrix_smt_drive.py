"""`recspec drive` and `recspec.testing` on Matrix-SMT's planted int64 writer (tests/testees/matrix_int64_writer.py):
the case it shrinks to (a -0.0 vector number written as 0), the reference reader compared on stats, the documented
bson-library writer example (docs/testees/test_matrix_writer.py), and a seed that draws the same Matrix-SMT
examples whatever local modules were imported."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest
from test_drive import PY, _failure, exact  # puts tests/testees on sys.path

from helpers import REPO as ROOT
from helpers import TESTEES, drive_report
from recspec.testing import DriveFailure, check_writer

# isort: split
import matrix_int64_writer  # the testee, from tests/testees

MATRIX_INT64_MINIMAL = {"recspec_case": 2, "format": "matrix-smt", "variant": None, "objects": [],
                        "frames": [{"time": 0.0, "states": [], "commands": [
                            {"kind": "v", "origin": [0.0, 0.0, 0.0], "vector": [0.0, 0.0, -0.0]}]}]}


def assert_minimal_matrix(case: dict[str, Any]) -> None:
    """Exactly MATRIX_INT64_MINIMAL. The shrinker reaches it from every seed tried (1 to 4) since the strategy
    draws each object whole (id with its fields) and a frame's commands before its states, and a drive run
    draws the same examples in any process."""
    assert exact(case) == exact(MATRIX_INT64_MINIMAL)


def test_cli_finds_and_shrinks_the_matrix_int64_writer(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = drive_report("writer", "matrix-smt", "--max-examples", "100", "--max-size", "1", "--seed", "1",
                          "--", PY, str(TESTEES / "matrix_int64_writer.py"), "{case}", "{out}")
    assert code == 1
    failure = _failure(report)
    assert failure["verdicts"] == ["mismatch"]
    assert_minimal_matrix(failure["case"])
    # the first failure's finding (the -0.0 at another field is a failure of its own, also reported)
    finding = next(f for f in report["files"][0]["findings"] if f["rule"] == "DRIVE-WRITER-007")
    assert finding["expected"] == -0.0 and math.copysign(1.0, finding["expected"]) < 0 and finding["actual"] == 0.0
    assert finding["path"] == "frames[0].commands[0].vector[2]"


def test_testing_finds_the_planted_matrix_int64_writer_and_shrinks_it() -> None:
    with pytest.raises(DriveFailure) as matrix:
        check_writer(matrix_int64_writer.write, format="matrix-smt", max_examples=100, max_size=1, seed=1)
    assert matrix.value.verdicts == ("mismatch",)
    assert_minimal_matrix(matrix.value.case)  # type: ignore[arg-type]


def test_the_reference_reader_agrees_on_stats(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = drive_report("reader", "matrix-smt", "--compare", "stats", "--max-examples", "4", "--seed", "2",
                          "--no-corpus", "--", PY, str(TESTEES / "reference_reader.py"), "matrix-smt", "", "{file}",
                          "stats")
    assert code == 0, report


def test_the_bson_library_matrix_writer_example_passes() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "testees"))
    import test_matrix_writer as example

    run = check_writer(example.write, format="matrix-smt", byte_exact=True, max_examples=10, seed=3)
    assert run is not None and run.ok and run.results[0].examples == 10


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
