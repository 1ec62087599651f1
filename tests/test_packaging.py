"""setup.py finds every package folder, so `pip install .` ships all of them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import ModuleType

from helpers import load_script

ROOT = Path(__file__).resolve().parents[1]


def _setup_module() -> ModuleType:
    return load_script("setup.py", "recspec_setup")  # guarded: setup() runs only as __main__


def test_every_package_folder_is_shipped():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    setup = _setup_module()
    listed = set(setup.packages())
    mapping = {"recspec": "recspec", **cfg["package-dir"]}
    assert {k: v for k, v in mapping.items() if k in setup.CODE_PACKAGES} == setup.CODE_PACKAGES
    found = set()
    for pkg, folder in mapping.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            found.add(".".join([pkg, *rel.parts]) if rel.parts else pkg)
    assert found - listed == set(), "setup.py does not find these packages"
    for data_pkg in ("recspec.ksy", "recspec.corpus", "recspec.docs"):
        assert data_pkg in listed and data_pkg in cfg["package-dir"]
    assert "formats/*.md" in cfg["package-data"]["recspec.docs"]


def test_every_registered_format_is_shipped():
    from recspec.formats import FORMATS

    listed = set(_setup_module().packages())
    for info in FORMATS.values():
        assert info.module in listed and info.reference_module in listed
