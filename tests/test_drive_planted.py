"""`recspec drive` finds the planted bugs of the other four format x direction pairs (a NanoVer, a raSkat and a
Matrix-SMT reader, a CARLA writer) and shrinks each to its minimal case, by the CLI and by recspec.testing.

Each testee in tests/testees/ states its bug and its minimal case in its docstring; the minimal cases are
written out in the format's own test file (tests/test_<package>_drive_planted.py) once and asserted exactly.
A drive run with a fixed seed draws the same examples in any process, so the CLI and ``recspec.testing`` with
the same seed and number of examples reach the same case. The NanoVer, raSkat and CARLA searches shrink to
their minimal case from every seed tried (1 to 4); the seeds there are the ones that find the bug in the
fewest examples (each example of the CLI runs the testee as a process). The Matrix-SMT reader is the
exception, see its tests. This module holds what those files share: where the testees are, and reading a
drive report.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]
TESTEES = ROOT / "tests" / "testees"
sys.path.insert(0, str(TESTEES))  # the testees are imported by the format files

PY = sys.executable


def _drive(*argv: str) -> tuple[int, dict[str, Any]]:
    """``recspec drive DIRECTION FORMAT --json ARGV...``: the exit code and the JSON report."""
    code, out, _ = run_cli("drive", *argv[:2], "--json", *argv[2:])
    return code, json.loads(out)


def _minimal(report: dict[str, Any]) -> dict[str, Any]:
    """The one failing target's first shrunk failure (the report's drive evidence; other distinct failures follow
    it)."""
    (target,) = [f for f in report["files"] if f["failed"]]
    return target["evidence"]["drive"]["failures"][0]  # type: ignore[no-any-return]


def _envelope(fmt: str, variant: str | None) -> dict[str, Any]:
    return {"recspec_case": 2, "format": fmt, "variant": variant}
