"""`recspec drive --persistent` with the Python example of docs/testees, a NanoVer writer
(tests/test_drive_persistent.py is the mode on every format)."""

from __future__ import annotations

import sys

from helpers import REPO, TESTEES, drive_report

PY = sys.executable
TESTEE = str(TESTEES / "persistent_testee.py")


def test_the_python_persistent_example_passes() -> None:
    code, report = drive_report("writer", "nanover", "--persistent", "--max-examples", "20", "--seed", "3", "--",
                                PY, str(REPO / "docs" / "testees" / "persistent_writer.py"))
    assert code == 0, report

