"""ruff and mypy pass, as configured in pyproject.toml ([tool.ruff], [tool.mypy]).

ruff checks the checkout. mypy runs over a view of the installed layout
(``helpers.build_view``, the one tests/test_layers.py gives lint-imports): from the
checkout it could not resolve recspec.reference, recspec.conformance and
recspec.fuzz, which [tool.setuptools.package-dir] maps into ``recspec``. Each
test is skipped, with the reason, when its tool is not installed (the test extra
pins both).

Run by hand: ``python tests/test_lint.py`` (both, with their reports).
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


def run_ruff() -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format=concise", str(REPO)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def run_mypy() -> subprocess.CompletedProcess[str]:
    """``mypy -p recspec`` from a temporary folder holding the view (its cache goes with it)."""
    with tempfile.TemporaryDirectory(prefix="recspec-mypy-") as tmp:
        build_view(Path(tmp))
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
        return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
                               "--cache-dir", str(Path(tmp) / ".mypy_cache"), "-p", "recspec"],
                              cwd=tmp, env=env, capture_output=True, text=True, timeout=600)


def test_ruff_check_passes() -> None:
    _require("ruff")
    run = run_ruff()
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_passes_over_the_installed_layout() -> None:
    _require("mypy")
    run = run_mypy()
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    # every package of the view was checked: recspec/ alone is about 35 modules
    checked = re.search(r"(\d+) source files?", report)
    assert checked and int(checked.group(1)) > 80, report


if __name__ == "__main__":
    code = 0
    for name, runner in (("ruff", run_ruff), ("mypy", run_mypy)):
        result = runner()
        sys.stdout.write(f"--- {name}\n{result.stdout}{result.stderr}")
        code = code or result.returncode
    sys.exit(code)
