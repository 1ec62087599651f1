"""The Kaitai parsers committed in recspec/_ksy/ (debug mode) and recspec/_ksy_fast/
(without it) are what the pinned compiler generates from ksy/, one test per spec and
build, and the compile step makes the imports between generated modules relative.

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

from helpers import load_script

REPO = Path(__file__).resolve().parents[1]
COMMITTED = REPO / "recspec" / "_ksy"
#: build name -> (committed folder, debug mode)
BUILDS = {"_ksy": (COMMITTED, True), "_ksy_fast": (REPO / "recspec" / "_ksy_fast", False)}
SPECS = sorted((REPO / "ksy").glob("*.ksy"))

pytestmark = pytest.mark.requires_node


def _load_generator() -> ModuleType:
    return load_script("tools/generate_parsers.py", "_recspec_generate_parsers")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, dict[str, Path]]:
    """One fresh generation of every spec in each build (the generator module, build -> the folder it wrote)."""
    gen = _load_generator()
    outs = {}
    for build, (_, debug) in BUILDS.items():
        outs[build] = tmp_path_factory.mktemp(build)
        try:
            gen.generate(outs[build], debug=debug)
        except gen.ToolchainError as exc:  # node present but `npm ci` not run: a failure, not a skip
            pytest.fail(str(exc))
    return gen, outs


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("ksy", SPECS, ids=lambda p: p.name)
def test_committed_parser_matches_a_fresh_generation(fresh: tuple[ModuleType, dict[str, Path]], ksy: Path,
                                                     build: str) -> None:
    committed_dir = BUILDS[build][0]
    out = fresh[1][build]
    name = f"{ksy.stem}.py"
    assert (committed_dir / name).is_file(), \
        f"recspec/{build}/{name} is missing; run `python tools/generate_parsers.py`"
    committed, regenerated = (committed_dir / name).read_bytes(), (out / name).read_bytes()
    diff = "".join(difflib.unified_diff(
        committed.decode("utf-8", errors="replace").splitlines(keepends=True),
        regenerated.decode("utf-8", errors="replace").splitlines(keepends=True),
        fromfile=f"recspec/{build}/{name} (committed)", tofile=f"recspec/{build}/{name} (regenerated)"))
    if committed != regenerated and not diff:
        diff = "same text, different bytes (line endings?)"
    assert committed == regenerated, f"recspec/{build}/{name} is stale; run `python tools/generate_parsers.py`\n" + diff


@pytest.mark.parametrize("build", BUILDS)
def test_no_committed_parser_lacks_its_spec(fresh: tuple[ModuleType, dict[str, Path]], build: str) -> None:
    gen, outs = fresh
    assert sorted(gen._generated_files(BUILDS[build][0])) == sorted(gen._generated_files(outs[build])) == \
        sorted(f"{p.stem}.py" for p in SPECS)


def test_the_builds_differ_only_in_debug_mode() -> None:
    """The fast build parses in its constructor and keeps no positions; the debug build does the opposite."""
    debug = (COMMITTED / "carla_recorder.py").read_text()
    fast = (BUILDS["_ksy_fast"][0] / "carla_recorder.py").read_text()
    assert "_debug" in debug and "SEQ_FIELDS" in debug and "debug mode)" in debug.splitlines()[1]
    assert "_debug" not in fast and "SEQ_FIELDS" not in fast and "no debug mode)" in fast.splitlines()[1]


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
