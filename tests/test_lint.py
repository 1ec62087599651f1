"""mypy passes, as configured in pyproject.toml ([tool.mypy]).

mypy runs over a view of the installed layout
(``helpers.build_view``, the one tests/test_layers.py gives lint-imports): from the
checkout it could not resolve recspec.reference, recspec.conformance and
recspec.fuzz, which [tool.setuptools.package-dir] maps into ``recspec``. The
test is skipped, with the reason, when mypy is not installed (the test extra
pins it).

Run by hand: ``python tests/test_lint.py`` (with the report).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers import REPO, build_view



def _require(tool: str) -> None:
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed: pip install -e '.[test]'")


def run_mypy() -> subprocess.CompletedProcess[str]:
    """``mypy -p recspec`` from a temporary folder holding the view (its cache goes with it)."""
    with tempfile.TemporaryDirectory(prefix="recspec-mypy-") as tmp:
        build_view(Path(tmp))
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
        return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
                               "--cache-dir", str(Path(tmp) / ".mypy_cache"), "-p", "recspec"],
                              cwd=tmp, env=env, capture_output=True, text=True, timeout=600)


def test_mypy_passes_over_the_installed_layout() -> None:
    _require("mypy")
    run = run_mypy()
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    # every package of the view was checked: recspec/ alone is about 35 modules
    checked = re.search(r"(\d+) source files?", report)
    assert checked and int(checked.group(1)) > 80, report


if __name__ == "__main__":
    result = run_mypy()
    sys.stdout.write(result.stdout + result.stderr)
    sys.exit(result.returncode)
