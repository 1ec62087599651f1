"""`recspec drive` finds the planted bug of a raSkat reader that swaps v3 coordinates
(tests/testees/raskat_swapped_reader.py) and shrinks it to its minimal case, by the CLI and by
recspec.testing (tests/test_drive_planted.py says how the seeds were chosen)."""

from __future__ import annotations

import pytest
from test_drive_planted import PY, TESTEES, _drive, _envelope, _minimal  # puts tests/testees on sys.path

from recspec.testing import DriveFailure, check_reader

# isort: split
import raskat_swapped_reader  # the testee, from tests/testees

#: raSkat reader swapping v3 coordinates: the smallest v3 signal whose coordinates differ.
RASKAT_MINIMAL = {**_envelope("raskat-signal", "v3"), "container": "raw", "time": "20000101000000",
                  "microseconds": 0, "coordinate_1": 0.0, "coordinate_2": 1.0, "altitude": 0.0, "sample_rate": 1,
                  "load_ohm": 1, "adc_bits": 1, "vref": 1.0, "flags": 0, "antenna": 0, "samples": []}


def test_cli_shrinks_the_raskat_reader_that_swaps_v3_coordinates() -> None:
    code, report = _drive("reader", "raskat-signal", "--variant", "v3", "--profile", "compat", "--no-corpus",
                          "--max-examples", "20", "--seed", "2", "--",
                          PY, str(TESTEES / "raskat_swapped_reader.py"), "{file}")
    assert code == 1
    failure = _minimal(report)
    assert (failure["verdicts"], failure["mutation"], failure["case"]) == (["disagrees"], "none", RASKAT_MINIMAL)
    (finding,) = [f for f in report["files"][0]["findings"] if f["severity"] == "error"]
    assert (finding["path"], finding["expected"], finding["actual"]) == ("coordinate_1", 0.0, 1.0)


def test_testing_shrinks_the_raskat_reader_that_swaps_v3_coordinates() -> None:
    with pytest.raises(DriveFailure) as failure:
        check_reader(lambda path: raskat_swapped_reader.read(str(path)), format="raskat-signal", variant="v3",
                     profile="compat", corpus=False, max_examples=20, seed=2)
    assert (failure.value.verdicts, failure.value.case) == (("disagrees",), RASKAT_MINIMAL)
