"""``recspec drive``: judge a third-party writer or reader on generated cases, and shrink its failures.

``run_drive`` drives a testee over a format's variants and returns the run
(its :class:`recspec.report.Report`, rendered by ``recspec.render`` like
``recspec check``'s, and the saved failures); the testee is a command
(:class:`CommandWriter`, :class:`CommandReader`) or a Python callable
(:class:`CallableWriter`, :class:`CallableReader`). ``recspec.testing`` is the
pytest-facing API on top of it.

The names load on first use: the CLI imports ``recspec.drive._cli`` to build its
parser for every command, and that must not pay for Hypothesis.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["DRIVE_RULES", "DRIVE_RULES_BY_ID", "CallableReader", "CallableWriter", "CommandReader", "CommandWriter",
           "DriveOptions", "DriveRenderContext", "DriveRun", "case_strategy", "decode_case", "drive_variants",
           "reference_file", "run_drive", "target_name"]

_WHERE = {
    "case_strategy": "_cases", "decode_case": "_cases", "drive_variants": "_cases", "reference_file": "_cases",
    "CallableReader": "_engine", "CallableWriter": "_engine", "CommandReader": "_engine", "CommandWriter": "_engine",
    "DriveOptions": "_engine", "DRIVE_RULES": "_rules", "DRIVE_RULES_BY_ID": "_rules",
    "DriveRenderContext": "_run", "DriveRun": "_run", "run_drive": "_run", "target_name": "_run",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
