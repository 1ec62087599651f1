"""`recspec drive --persistent` with the Python example of docs/testees, a NanoVer writer
(tests/test_drive_persistent.py is the mode on every format)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from recspec.cli import main

ROOT = Path(__file__).resolve().parents[1]
TESTEES = ROOT / "tests" / "testees"
PY = sys.executable
TESTEE = str(TESTEES / "persistent_testee.py")


def _drive(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["drive", *argv[:2], "--json", *argv[2:]])
    return code, json.loads(capsys.readouterr().out)


def test_the_python_persistent_example_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _drive(capsys, "writer", "nanover", "--persistent", "--max-examples", "20", "--seed", "3", "--",
                          PY, str(ROOT / "docs" / "testees" / "persistent_writer.py"))
    assert code == 0, report

