"""`recspec case` on a CARLA file that has no case (a truncated stream)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recspec.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_recspec_case_on_a_file_without_a_case_is_an_error_not_a_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    truncated = ROOT / "corpus" / "carla" / "invalid" / "CARLA-STREAM-001.log"
    assert main(["case", str(truncated)]) == 1
    err = capsys.readouterr().err
    assert "CARLA-STREAM-001" in err and "Traceback" not in err


