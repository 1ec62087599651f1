"""pyproject.toml lists every package folder, so `pip install .` ships all of them."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    mapping = {"recspec": "recspec", **cfg["package-dir"]}
    found = set()
    for pkg, folder in mapping.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            found.add(".".join([pkg, *rel.parts]) if rel.parts else pkg)
    assert found - listed == set(), "add these to [tool.setuptools] packages"
    for data_pkg in ("recspec.ksy", "recspec.corpus", "recspec.docs"):
        assert data_pkg in listed
    assert "formats/*.md" in cfg["package-data"]["recspec.docs"]
