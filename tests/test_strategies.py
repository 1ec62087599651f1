"""What every format's Hypothesis strategies share: one public module
(``recspec.strategies``) exports them all, and no strategies module leans on
Hypothesis internals. Each format's own strategies are tested in
tests/test_<format>_strategies.py (and the raSkat ones in
tests/test_raskat_signal_properties.py)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from hypothesis import strategies as st

import recspec.strategies
from recspec.formats import FORMATS

#: Each format's strategies module's own list, in registry order: what recspec.strategies exports.
PUBLIC = [name for info in FORMATS.values()
          for name in importlib.import_module(f"{info.module}._strategies").__all__]

#: The public module and each format's strategies module.
MODULES = {"recspec.strategies": "recspec.strategies",
           **{info.id: f"{info.module}._strategies" for info in FORMATS.values()}}


def test_public_module_exports_the_strategies() -> None:
    # One module for every format's strategies, one section each, and every format declares some.
    assert recspec.strategies.__all__ == PUBLIC
    for info in FORMATS.values():
        assert importlib.import_module(f"{info.module}._strategies").__all__, info.id
    for name in PUBLIC:
        assert isinstance(getattr(recspec.strategies, name)(), st.SearchStrategy)


@pytest.mark.parametrize("module", MODULES.values(), ids=MODULES.keys())
def test_no_hypothesis_internals_imported(module: str) -> None:
    tree = ast.parse(Path(importlib.import_module(module).__file__).read_text())
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("hypothesis.internal")]
