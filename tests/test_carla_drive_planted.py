"""`recspec drive` finds the planted bug of a CARLA writer that writes elapsed as durationThis
(tests/testees/carla_duration_writer.py) and shrinks it to its minimal case, by the CLI and by
recspec.testing (tests/test_drive_planted.py says how the seeds were chosen)."""

from __future__ import annotations

from typing import Any

import pytest
from test_drive_planted import PY, TESTEES, _drive, _envelope, _minimal  # puts tests/testees on sys.path

from recspec.testing import DriveFailure, check_writer

# isort: split
import carla_duration_writer  # the testee, from tests/testees

#: CARLA writer writing elapsed as durationThis: one frame, every record packet of 0.9.15 empty.
_CARLA_0915_RECORD_PACKETS = ("EventAdd", "EventDel", "EventParent", "Collision", "Position", "State", "AnimVehicle",
                              "AnimWalker", "VehicleLight", "AnimVehicleWheels", "AnimBiker")
CARLA_MINIMAL = {**_envelope("carla", "0.9.15"),
                 "header": {"version": 1, "magic": "CARLA_RECORDER", "date": 1483228800, "map_name": "Town01"},
                 "frames": [{"frame_id": 1, "duration_this": -1.0, "elapsed": 0.0,
                             "packets": [{"kind": "VisualTime", "time": 0.0},
                                         *({"kind": k, "records": []} for k in _CARLA_0915_RECORD_PACKETS)]}]}


def test_cli_shrinks_the_carla_writer_that_writes_elapsed_as_duration() -> None:
    code, report = _drive("writer", "carla", "--variant", "0.9.15", "--max-examples", "20", "--seed", "2", "--",
                          PY, str(TESTEES / "carla_duration_writer.py"), "{case}", "{out}")
    assert code == 1
    failure = _minimal(report)
    assert (failure["verdicts"], failure["case"]) == (["invalid-file", "mismatch"], CARLA_MINIMAL)
    rules: dict[str, Any] = {}
    for f in report["files"][0]["findings"]:  # the first failure's findings come first
        rules.setdefault(f["rule"], f)
    # the written file's own finding, with its rule id, and the difference
    assert "the last frame (id 1) has durationThis 0.0, expected -1.0" in rules["CARLA-FRAME-006"]["message"]
    # the same bug breaks another rule in a two-frame log (elapsed is not the sum of the durations): a failure of
    # its own, shrunk and reported after the first
    second = report["files"][0]["evidence"]["drive"]["failures"][1]
    assert len(second["case"]["frames"]) == 2
    mismatch = rules["DRIVE-WRITER-007"]
    assert (mismatch["path"], mismatch["expected"], mismatch["actual"]) == ("frames[0].duration_this", -1.0, 0.0)


def test_testing_shrinks_the_carla_writer_that_writes_elapsed_as_duration() -> None:
    with pytest.raises(DriveFailure) as failure:
        check_writer(lambda case, out: carla_duration_writer.write(dict(case), str(out)), format="carla",
                     variant="0.9.15", max_examples=20, seed=2)
    assert (failure.value.verdicts, failure.value.case) == (("invalid-file", "mismatch"), CARLA_MINIMAL)
