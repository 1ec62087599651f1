"""recspec installed from this checkout as a package (not editable), run away from the checkout: what it
points a user to exists there.

The install takes recspec's dependencies from this test's environment (``--no-deps``, a ``.pth`` file),
so it needs no network and takes seconds.
"""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from helpers import REPO, example_invalid_file
from recspec.formats import FORMATS


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("installed")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                           "--no-build-isolation", "--disable-pip-version-check", str(REPO)],
                          capture_output=True, text=True, timeout=600, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    return {"bin": venv / "bin", "site": site, "cwd": root}


def test_explain_names_the_document_inside_the_installed_package(installed: dict[str, Any]) -> None:
    info = next(iter(FORMATS.values()))  # the same for every built-in format
    _, rule = example_invalid_file(info)
    done = subprocess.run([str(installed["bin"] / "recspec"), "explain", rule], cwd=installed["cwd"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    clause = re.search(r"^clause: +(\S+)", done.stdout, re.M)
    document = re.search(r"^document: +(\S+)#(\S+)$", done.stdout, re.M)
    assert clause and clause.group(1) == f"docs/formats/{info.id}.md#{rule.lower()}"  # the repository's path
    assert document, done.stdout
    path = Path(document.group(1))
    assert path == installed["site"] / "recspec" / "docs" / "formats" / f"{info.id}.md"
    assert f'<a id="{document.group(2)}"></a>' in path.read_text(encoding="utf-8")
