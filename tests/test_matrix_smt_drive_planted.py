"""`recspec drive` finds the planted bug of a Matrix-SMT reader that keeps destroyed objects
(tests/testees/matrix_presence_reader.py) and shrinks it to its minimal case, by the CLI and by
recspec.testing; why seed 13, in the CLI test's docstring."""

from __future__ import annotations

import pytest
from test_drive_planted import PY, TESTEES, _drive, _envelope, _minimal  # puts tests/testees on sys.path

from recspec.testing import DriveFailure, check_reader

# isort: split
import matrix_presence_reader  # the testee, from tests/testees

#: Matrix-SMT reader reading "d" as instantiated: one object, destroyed in the one frame.
MATRIX_MINIMAL = {**_envelope("matrix-smt", None),
                  "objects": [{"id": 0, "name": "", "type": "box", "color": [0.0, 0.0, 0.0], "static": False,
                               "half_dimentions": [1.0, 1.0, 1.0]}],
                  "frames": [{"time": 0.0, "commands": [],
                              "states": [{"id": 0, "presence": "d", "metadata": "", "position": [0.0, 0.0, 0.0],
                                          "rotation": [0.0, 0.0, 0.0, 1.0]}]}]}


def test_cli_shrinks_the_matrix_reader_that_keeps_destroyed_objects() -> None:
    """Found from every seed tried (1 to 14), but shrunk to the minimal case from some only (1, 9, 10, 13): from
    the others Hypothesis stops one step short, with a second object no state mentions, or with the destroyed
    object a sphere instead of a box. A state is drawn against the objects that exist, so deleting an object
    or changing its geometry changes how every later choice reads, and the shrinker does not always find the
    way. Seed 13 reaches the minimal case (and a drive run with a seed is the same in any process)."""
    code, report = _drive("reader", "matrix-smt", "--no-corpus", "--max-size", "2", "--max-examples", "100",
                          "--seed", "13", "--", PY, str(TESTEES / "matrix_presence_reader.py"), "{file}")
    assert code == 1
    failure = _minimal(report)
    assert (failure["verdicts"], failure["mutation"], failure["case"]) == (["disagrees"], "none", MATRIX_MINIMAL)
    (finding,) = [f for f in report["files"][0]["findings"] if f["severity"] == "error"]
    assert (finding["path"], finding["expected"], finding["actual"]) == ("frames[0].states[0].presence", "d", "i")


def test_testing_shrinks_the_matrix_reader_that_keeps_destroyed_objects() -> None:
    """As by the CLI (its docstring says why seed 13)."""
    with pytest.raises(DriveFailure) as failure:
        check_reader(lambda path: matrix_presence_reader.read(str(path)), format="matrix-smt", corpus=False,
                     max_size=2, max_examples=100, seed=13)
    assert (failure.value.verdicts, failure.value.case) == (("disagrees",), MATRIX_MINIMAL)
