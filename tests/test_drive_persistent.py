"""`recspec drive --persistent`: one testee process answers every case (length-prefixed JSON both ways); a crash
or a hang is reported against the case that caused it, the process restarted, and the run goes on. The examples
of docs/testees run in that mode (raSkat's C++ writer and NanoVer's Python one, tested in
tests/test_raskat_signal_drive_persistent.py and test_nanover_drive_persistent.py)."""

from __future__ import annotations

import sys

import pytest

from helpers import TESTEES, drive_report
from recspec.drive import CommandWriter, DriveOptions, run_drive
from recspec.formats import FORMATS, FormatInfo

PY = sys.executable
TESTEE = str(TESTEES / "persistent_testee.py")


def _first_variant(info: FormatInfo) -> str | None:
    """The format's first variant that drive targets by default (``None`` for a format of one layout)."""
    return next((v for v in info.variants if v not in info.legacy_variants), None)


def test_one_process_writes_every_case() -> None:
    info = next(iter(FORMATS.values()))  # one process for the whole run is every format's
    testee = CommandWriter([PY, TESTEE, "spec"], 10.0, persistent=True)
    variant = _first_variant(info)
    run = run_drive("writer", DriveOptions(info, variant, "spec", max_examples=30, seed=1), [variant], testee)
    assert run.ok and run.results[0].examples == 30
    assert testee._process is not None and testee._process.starts == 1 and testee._process.proc is None  # closed


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_the_persistent_reference_passes_as_writer_and_reader(info: FormatInfo) -> None:
    fmt, variant = info.id, _first_variant(info)
    pick = ["--variant", variant] if variant else []
    code, report = drive_report("writer", fmt, *pick, "--max-examples", "10", "--seed", "2", "--persistent",
                                "--byte-exact", "--", PY, TESTEE, "spec")
    assert code == 0, report
    code, report = drive_report("reader", fmt, *pick, "--max-examples", "10", "--seed", "2", "--persistent",
                                "--", PY, TESTEE, "--read", fmt, variant or "")
    assert code == 0, report


def test_a_testee_that_breaks_the_protocol_is_a_crash() -> None:
    code, report = drive_report("writer", next(iter(FORMATS)), "--persistent", "--max-examples", "2", "--seed", "1",
                                "--timeout", "2", "--", PY, "-c",
                                "import sys; sys.stdin.buffer.read(4); print('hello')")
    assert code == 1
    (failure,) = report["files"][0]["evidence"]["drive"]["failures"]
    assert failure["verdicts"] == ["crash"]
    message = next(f["message"] for f in report["files"][0]["findings"] if f["rule"] == "DRIVE-WRITER-001")
    assert "ended without answering" in message or "not JSON" in message or "length" in message
