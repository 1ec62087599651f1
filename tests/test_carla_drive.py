"""`recspec drive` and `recspec.testing` on CARLA's planted truncation reader
(tests/testees/carla_truncated_reader.py): the empty 0.9.15 log plus one byte it shrinks to, the corpus's own
truncated log (CARLA-STREAM-001) reported by name, judging given bytes, and the documented command-line CARLA
writer example (docs/testees/carla_writer.py) on a UE4 and a UE5 variant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_drive import PY, exact  # puts tests/testees on sys.path

from helpers import REPO as ROOT
from helpers import TESTEES, drive_report
from recspec.testing import DriveFailure, check_reader

# isort: split
import carla_truncated_reader  # the testee, from tests/testees

CARLA_EMPTY_LOG = {"recspec_case": 2, "format": "carla", "variant": "0.9.15", "frames": [],
                   "header": {"version": 1, "magic": "CARLA_RECORDER", "date": 1483228800, "map_name": "Town01"}}


def assert_minimal_carla(failure: dict[str, Any]) -> None:
    """... with one byte appended, so that the log ends inside a packet header (the byte is 0: the caller
    checks it where it has the bytes). Reached from every seed tried (1 to 4): drive's mutations put appending
    before cutting, so the shrinker does not stop at a one-frame log cut short by one byte."""
    assert exact(failure["case"]) == exact(CARLA_EMPTY_LOG)
    assert failure["mutation"] == "1 byte(s) appended"


def test_cli_finds_and_shrinks_the_carla_truncation_reader(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = drive_report("reader", "carla", "--variant", "0.9.15", "--max-examples", "20", "--seed", "1",
                          "--", PY, str(TESTEES / "carla_truncated_reader.py"), "0.9.15", "{file}")
    assert code == 1
    fr = report["files"][0]
    corpus = [f for f in fr["evidence"]["drive"]["failures"] if "source" in f]
    # the corpus's own truncated log is accepted too, and reported by its name
    assert any(f["source"].endswith("CARLA-STREAM-001.log") for f in corpus)
    generated = next(f for f in fr["evidence"]["drive"]["failures"] if "case" in f)
    assert generated["verdicts"] == ["accepts-malformed"]
    assert_minimal_carla(generated)


def test_testing_finds_the_planted_carla_truncation_reader_and_shrinks_it() -> None:
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


def test_the_command_line_carla_writer_example_passes(capsys: pytest.CaptureFixture[str]) -> None:
    for variant in ("0.9.15", "ue5"):  # a UE4 build (f32 vectors) and a UE5 build (f64 vectors)
        code, report = drive_report("writer", "carla", "--variant", variant, "--max-examples", "6", "--seed", "3",
                              "--byte-exact", "--", PY, str(ROOT / "docs" / "testees" / "carla_writer.py"), "{case}",
                              "{out}")
        assert code == 0, report
        assert report["files"][0]["evidence"]["drive"]["examples"] == 6


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
