"""`recspec drive` and `recspec.testing`: what drive's engine does for every format. The reference codec as a
command passes drive for every registered format and variant; a testee's crash, hang or silence is a verdict,
never a traceback; usage errors are clear. The planted bugs and each format's own examples (a testee of that
format, its rule or field) are in the format's file, tests/test_<package>_drive.py, which takes ``_drive``,
``_failure`` and ``exact`` from here.

The testees are in tests/testees/: each planted-bug module says its bug and its minimal case in its
docstring, and exposes the same writer or reader as a Python function (for ``recspec.testing``) and as a
command (for the CLI)."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from helpers import TESTEES, drive_report
from recspec.cli import main
from recspec.formats import FORMATS, FormatInfo

sys.path.insert(0, str(TESTEES))  # the testees are imported by the format files

PY = sys.executable


def _failure(report: dict[str, Any]) -> dict[str, Any]:
    (fr,) = [f for f in report["files"] if f["failed"]]
    return fr["evidence"]["drive"]["failures"][0]


def exact(value: Any) -> str:
    """``value`` as canonical JSON, to compare cases exactly: ``==`` takes -0.0 for 0.0 and 1 for 1.0."""
    return json.dumps(value, sort_keys=True)


def _variant_args(info: FormatInfo, variant: str | None) -> list[str]:
    return ["--variant", variant] if variant else []


# --- a correct testee passes -------------------------------------------------------------------------


#: Every registered format with each of its variants (``None`` for a format of one layout).
_PAIRS = [(info, v) for info in FORMATS.values() for v in (info.variants or (None,))]


@pytest.mark.parametrize(("info", "variant"), _PAIRS, ids=[f"{i.id}-{v}" for i, v in _PAIRS])
def test_the_reference_codec_as_a_command_passes_drive(info: FormatInfo, variant: str | None) -> None:
    # a legacy variant is an error under spec, for any writer
    profile = "compat" if variant in info.legacy_variants else "spec"
    fmt = info.id
    pick = _variant_args(info, variant)
    code, report = drive_report("writer", fmt, *pick, "--profile", profile, "--max-examples", "4", "--seed", "2",
                                "--byte-exact", "--", PY, str(TESTEES / "reference_writer.py"), "{case}", "{out}",
                                profile)
    assert code == 0, report
    code, report = drive_report("reader", fmt, *pick, "--profile", profile, "--max-examples", "4", "--seed", "2",
                                "--", PY, str(TESTEES / "reference_reader.py"), fmt, variant or "", "{file}", "case",
                                profile)
    assert code == 0, report


# --- a testee's own failures are verdicts ---------------------------------------------------------------

#: Any registered format, on one of its variants: a testee that crashes, hangs or writes nothing fails the same
#: way whatever format it was asked to write.
_ANY = next(iter(FORMATS.values()))
_ANY_VARIANT = _variant_args(_ANY, _ANY.variants[0] if _ANY.variants else None)


@pytest.mark.parametrize(("command", "verdict"), [
    ([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], "crash"),
    ([PY, "-c", "import time; time.sleep(30)"], "timeout"),
    ([PY, "-c", "pass"], "no-output"),
    ([PY, "-c", "import sys; sys.exit(3)"], "refused"),
    (["/nonexistent/writer"], "refused"),
], ids=["crash", "timeout", "no-output", "refused", "missing-program"])
def test_a_writers_crash_hang_or_silence_is_its_verdict(command: list[str], verdict: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, report = drive_report("writer", _ANY.id, *_ANY_VARIANT, "--max-examples", "2", "--seed", "1",
                                "--timeout", "1", "--", *command, "{out}")
    assert code == 1
    assert _failure(report)["verdicts"] == [verdict]
    assert "Traceback" not in capsys.readouterr().err


def test_usage_errors_are_clear(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["drive", "writer", _ANY.id]) == 2
    assert "no testee command" in capsys.readouterr().err
    assert main(["drive", "writer", _ANY.id, "--tolerance", "float16", "--", "true"]) == 2
    assert "float32" in capsys.readouterr().err
