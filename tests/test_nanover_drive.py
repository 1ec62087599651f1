"""`recspec drive` and `recspec.testing` on NanoVer's planted empty-array writer
(tests/testees/nanover_guess_writer.py): the one-record trajectory it shrinks to, the NANOVER-FRAME-006 finding
its files carry, known deviations keyed by that rule, and the documented Python callable example
(docs/testees/test_nanover_writer.py)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from test_drive import PY, _failure  # puts tests/testees on sys.path

from helpers import REPO as ROOT
from helpers import TESTEES, drive_report
from recspec.testing import DriveFailure, check_writer

# isort: split
import nanover_guess_writer  # the testee, from tests/testees


def assert_minimal_nanover(case: dict[str, Any]) -> None:
    """A trajectory of one record: a reset frame with no particles and no extra keys."""
    assert case["variant"] == "traj"
    (record,) = case["records"]
    frame = record["frame"]
    assert frame["frame_index"] == 0 and frame["values"]["particle.count"] == 0.0
    assert frame["arrays"]["particle.positions"] == {"float": []}
    assert set(frame["arrays"]) == {"particle.positions", "particle.elements", "particle.names", "particle.residues",
                                    "residue.names", "residue.ids", "residue.chains", "chain.names", "bond.pairs"}


def test_cli_finds_and_shrinks_the_nanover_empty_array_writer(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = drive_report("writer", "nanover", "--max-examples", "20", "--seed", "1", "--",
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


def test_testing_finds_the_planted_nanover_empty_array_writer_and_shrinks_it() -> None:
    with pytest.raises(DriveFailure) as nanover:
        check_writer(nanover_guess_writer.write, format="nanover", max_examples=30, seed=1)
    assert "mismatch" in nanover.value.verdicts
    assert_minimal_nanover(nanover.value.case)  # type: ignore[arg-type]


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


def test_the_python_callable_example_passes() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "testees"))
    import test_nanover_writer as example

    run = check_writer(example.write, format="nanover", max_examples=10, seed=3)
    assert run is not None and run.ok and run.results[0].examples == 10
