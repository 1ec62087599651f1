"""The Kaitai parsers committed in recspec/_ksy/ are what the pinned compiler
generates from ksy/, one test per spec, and the compile step makes the imports
between generated modules relative.

Needs node and ``npm ci``: the tests skip only when node itself is absent; with
node present, a missing ``npm ci`` fails them.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import subprocess
import sys
from io import BytesIO
from pathlib import Path
from types import ModuleType

import pytest
from kaitaistruct import KaitaiStream

REPO = Path(__file__).resolve().parents[1]
COMMITTED = REPO / "recspec" / "_ksy"
SPECS = sorted((REPO / "ksy").glob("*.ksy"))

pytestmark = pytest.mark.requires_node


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_recspec_generate_parsers", REPO / "tools" / "generate_parsers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path]:
    """One fresh generation of every spec (the generator module, the folder it wrote)."""
    gen = _load_generator()
    out = tmp_path_factory.mktemp("ksy")
    try:
        gen.generate(out)
    except gen.ToolchainError as exc:  # node present but `npm ci` not run: a failure, not a skip
        pytest.fail(str(exc))
    return gen, out


@pytest.mark.parametrize("ksy", SPECS, ids=lambda p: p.name)
def test_committed_parser_matches_a_fresh_generation(fresh: tuple[ModuleType, Path], ksy: Path) -> None:
    _, out = fresh
    name = f"{ksy.stem}.py"
    assert (COMMITTED / name).is_file(), f"recspec/_ksy/{name} is missing; run `python tools/generate_parsers.py`"
    committed, regenerated = (COMMITTED / name).read_bytes(), (out / name).read_bytes()
    diff = "".join(difflib.unified_diff(
        committed.decode("utf-8", errors="replace").splitlines(keepends=True),
        regenerated.decode("utf-8", errors="replace").splitlines(keepends=True),
        fromfile=f"recspec/_ksy/{name} (committed)", tofile=f"recspec/_ksy/{name} (regenerated)"))
    if committed != regenerated and not diff:
        diff = "same text, different bytes (line endings?)"
    assert committed == regenerated, f"recspec/_ksy/{name} is stale; run `python tools/generate_parsers.py`\n" + diff


def test_no_committed_parser_lacks_its_spec(fresh: tuple[ModuleType, Path]) -> None:
    gen, out = fresh
    assert sorted(gen._generated_files(COMMITTED)) == sorted(gen._generated_files(out)) == \
        sorted(f"{p.stem}.py" for p in SPECS)


def test_imports_of_generated_modules_become_relative(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "inner.ksy").write_text("meta:\n  id: inner\n  endian: le\nseq:\n  - id: b\n    type: u2\n")
    (specs / "outer.ksy").write_text(
        "meta:\n  id: outer\n  endian: le\n  imports:\n    - inner\nseq:\n  - id: a\n    type: inner\n"
    )
    pkg = tmp_path / "ksytestpkg"
    subprocess.run(
        ["node", str(REPO / "tools" / "ksy_compile.mjs"), "--ksy-dir", str(specs), "--out", str(pkg),
         str(specs / "outer.ksy")],
        check=True, capture_output=True, cwd=REPO,
    )
    outer = (pkg / "outer.py").read_text()
    assert "\nfrom . import inner\n" in outer
    assert "\nimport inner\n" not in outer
    assert outer.startswith("# Generated from specs/outer.ksy by tools/ksy_compile.mjs\n")
    assert "\r" not in outer and outer.endswith("\n") and not outer.endswith("\n\n")
    (pkg / "__init__.py").write_text("")
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("ksytestpkg.outer")
        parsed = mod.Outer(KaitaiStream(BytesIO(b"\x05\x00")))
        parsed._read()
        assert parsed.a.b == 5
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("ksytestpkg")]:
            del sys.modules[name]
