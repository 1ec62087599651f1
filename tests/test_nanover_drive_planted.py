"""`recspec drive` finds the planted bug of a NanoVer reader that drops key removals
(tests/testees/nanover_removal_reader.py) and shrinks it to its minimal case, by the CLI and by
recspec.testing (tests/test_drive_planted.py says how the seeds were chosen)."""

from __future__ import annotations

import pytest
from test_drive_planted import PY, TESTEES, _drive, _envelope, _minimal  # puts tests/testees on sys.path

from recspec.testing import DriveFailure, check_reader

# isort: split
import nanover_removal_reader  # the testee, from tests/testees

#: NanoVer reader dropping key removals: a key set, then removed.
NANOVER_MINIMAL = {**_envelope("nanover", "state"),
                   "records": [{"timestamp_us": 1, "update": {"": []}}, {"timestamp_us": 2, "update": {"": None}}]}


def test_cli_shrinks_the_nanover_reader_that_drops_key_removals() -> None:
    code, report = _drive("reader", "nanover", "--variant", "state", "--no-corpus", "--max-examples", "30",
                          "--seed", "2", "--", PY, str(TESTEES / "nanover_removal_reader.py"), "state", "{file}")
    assert code == 1
    failure = _minimal(report)
    assert (failure["verdicts"], failure["mutation"], failure["case"]) == (["disagrees"], "none", NANOVER_MINIMAL)
    (finding,) = [f for f in report["files"][0]["findings"] if f["severity"] == "error"]
    assert (finding["rule"], finding["path"]) == ("DRIVE-READER-005", "records[1].update.")


def test_testing_shrinks_the_nanover_reader_that_drops_key_removals() -> None:
    with pytest.raises(DriveFailure) as failure:
        check_reader(lambda path: nanover_removal_reader.read(str(path), "state"), format="nanover",
                     variant="state", corpus=False, max_examples=30, seed=2)
    assert (failure.value.verdicts, failure.value.case) == (("disagrees",), NANOVER_MINIMAL)
