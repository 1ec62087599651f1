"""Helpers shared by the tests: the real files of ../shared/real, and a packet
walker written by hand with struct (independent of the code under test)."""

from __future__ import annotations

import contextlib
import dis
import importlib.util
import os
import struct
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import TYPE_CHECKING, Any
from unittest import mock

import pytest

if TYPE_CHECKING:
    from recspec.formats import FormatInfo
    from recspec.report import FileReport

REPO = Path(__file__).resolve().parents[1]
#: the programs the drive tests run as testees
TESTEES = REPO / "tests" / "testees"
#: The real samples that are not shipped: ../shared/real/ beside the checkout, or RECSPEC_REAL_DIR.
REAL = Path(os.environ.get("RECSPEC_REAL_DIR") or REPO.parent / "shared" / "real")
REAL_SAMPLES_REASON = "needs ../shared/real/ (the real sample files, see README)"
#: The real samples whose licence (MIT) lets the repository ship them (corpus/real/PROVENANCE.md).
SHIPPED_REAL = REPO / "corpus" / "real"
#: Why each real sample that is not shipped is not: the reason a test that needs it is skipped with.
NOT_SHIPPED = {
    "carla_0915_crash.log": "no licence stated by its repository",
    "signal.v3": "GPL-3.0",
    "Scene1.bson": "LGPL-2.1",
}
#: npm devDependencies (package.json), installed by `npm ci`.
NPM_PACKAGES = REPO / "node_modules"


def load_script(relative: str, name: str) -> ModuleType:
    """The repository's script at ``relative`` (tools/, benchmarks/, setup.py: not importable as packages),
    loaded once as module ``name`` and kept in ``sys.modules`` (its dataclasses look their module up there;
    a second test file that loads it under the same name shares the one module)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def build_view(into: Path) -> Path:
    """``into/recspec``: links to recspec/'s entries and to every mapped package folder.

    A view of the installed layout (``[tool.setuptools.package-dir]`` maps reference/,
    conformance/ and fuzz/ into ``recspec``) for the tools that find modules by walking
    folders: lint-imports (tests/test_layers.py) and mypy (tests/test_lint.py).
    """
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    view = into / "recspec"
    view.mkdir()
    for entry in (REPO / "recspec").iterdir():
        if entry.name != "__pycache__":
            (view / entry.name).symlink_to(entry)
    for package, folder in config["tool"]["setuptools"]["package-dir"].items():
        parent, _, name = package.rpartition(".")
        if parent == "recspec" and (REPO / folder / "__init__.py").is_file():  # Python packages, not data
            (view / name).symlink_to(REPO / folder)
    return view


def real_file(name: str) -> Path:
    """A real sample: ``corpus/real/NAME`` when the repository ships it (MIT), else ``../shared/real/NAME``;
    the calling test is skipped, with the reason, when it is in neither."""
    shipped = SHIPPED_REAL / name
    if shipped.is_file():
        return shipped
    path = REAL / name
    if not path.is_file():
        why = NOT_SHIPPED.get(name, "not a shipped sample")
        pytest.skip(f"{REAL_SAMPLES_REASON}: {name} is not shipped with recspec ({why}) and is not in {REAL}")
    return path


def carla_packets(data: bytes) -> list[tuple[int, int, int]]:
    """(offset, id, payload size) of every packet header of a CARLA log, after its
    info header; empty when the info header itself is cut short."""
    if len(data) < 4 or len(data) < 4 + struct.unpack_from("<H", data, 2)[0] + 8 + 2:
        return []
    (n,) = struct.unpack_from("<H", data, 2)
    off = 4 + n + 8
    (m,) = struct.unpack_from("<H", data, off)
    off += 2 + m
    out = []
    while off + 5 <= len(data):
        pid, size = struct.unpack_from("<BI", data, off)
        out.append((off, pid, size))
        off += 5 + size
    return out


def case_file(tmp_path: Path, case: Any, name: str = "case.json") -> Path:
    """``case`` (a case document, or anything else JSON holds) written as JSON to ``tmp_path / name``."""
    import json

    path = tmp_path / name
    path.write_text(json.dumps(case))
    return path


def run_cli(*args: str) -> tuple[int, str, str]:
    """``recspec ARGS`` in this process: (exit code, stdout, stderr); argparse's usage errors included."""
    import io
    import sys

    from recspec.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(list(args))
    except SystemExit as e:
        code = int(e.code or 0)
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def check_json(*args: str) -> tuple[int, dict[str, Any]]:
    """``recspec check --json ARGS`` in this process: the exit code and the JSON report (no traceback on
    stderr)."""
    import json

    code, out, err = run_cli("check", "--json", *args)
    assert "Traceback" not in err
    return code, json.loads(out)


def drive_report(*argv: str) -> tuple[int, dict[str, Any]]:
    """``recspec drive DIRECTION FORMAT --json ARGV...`` in this process: the exit code and the JSON report."""
    import json

    code, out, _ = run_cli("drive", *argv[:2], "--json", *argv[2:])
    return code, json.loads(out)


def example_valid_file(info: FormatInfo) -> Path:
    """The format's valid corpus file that the shared tests take as their example (``EXAMPLES.valid_file``),
    in the corpus folder the registry gives (``FormatInfo.corpus`` for a format from another package)."""
    from recspec.conformance.corpus import corpus_folder

    return corpus_folder(info.id) / "valid" / info.load().EXAMPLES.valid_file


def example_invalid_file(info: FormatInfo) -> tuple[Path, str]:
    """The format's invalid corpus file that the shared tests take as their example, and the one rule it breaks
    under the format's default profile (``EXAMPLES.invalid_file``)."""
    from recspec.conformance.corpus import corpus_folder

    name, rule = info.load().EXAMPLES.invalid_file
    return corpus_folder(info.id) / "invalid" / name, rule


def format_valid_by_default() -> FormatInfo:
    """The first registered format whose example valid file is valid under its default profile: the example
    of a behaviour every format has, where a test checks the file as `recspec check` does by default."""
    from recspec.formats import FORMATS

    return next(i for i in FORMATS.values() if i.load().EXAMPLES.valid_profile == i.default_profile)


def manifest_files(info: FormatInfo) -> list[dict[str, Any]]:
    """The entries of the format's corpus manifest (in the corpus folder the registry gives): each file's
    ``path`` (``valid/<name>``), variant and expected verdicts."""
    import json

    from recspec.conformance.corpus import corpus_folder

    return list(json.loads((corpus_folder(info.id) / "manifest.json").read_text())["files"])


def manifest_entry(info: FormatInfo, path: str) -> dict[str, Any]:
    """The format's corpus manifest entry of ``path`` (``valid/<name>``)."""
    return next(e for e in manifest_files(info) if e["path"] == path)


@contextlib.contextmanager
def draws_independent_of_imports() -> Iterator[None]:
    """Hypothesis mixes the constants of every local module imported so far into its draws, even derandomized
    ones: a test asserting what a fixed set of draws covers then depends on which test files ran before it in
    the process (it passed alone and failed in the whole suite). Inside this block the pool is empty, so the
    draws are the strategy's alone. Hypothesis also caches the pools it has filtered per kind of draw
    (``CONSTANTS_CACHE``), filled by every earlier test: the cache is emptied on the way in, so that the
    empty pool is the one drawn from, and on the way out, so that later tests get the real one back."""
    from hypothesis.internal.conjecture import providers

    providers.CONSTANTS_CACHE.cache.clear()
    try:
        with mock.patch.object(providers, "_get_local_constants", return_value=providers.Constants()):
            yield
    finally:
        providers.CONSTANTS_CACHE.cache.clear()


_COMPARES = {"COMPARE_OP", "IS_OP", "CONTAINS_OP"}
_BRANCHES = {name for name in dis.opmap if "JUMP" in name and "IF" in name}


def count_steps(codes: set[CodeType], run: Callable[[], object]) -> tuple[int, int]:
    """The comparisons and conditional jumps the functions of ``codes`` execute while ``run()`` runs (the
    bytecode's own steps, traced opcode by opcode: what a fast path's tests count instead of timing it)."""
    counted = {"compares": 0, "branches": 0}

    def opcodes(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            name = dis.opname[frame.f_code.co_code[frame.f_lasti]]
            if name in _COMPARES:
                counted["compares"] += 1
            elif name in _BRANCHES:
                counted["branches"] += 1
        return opcodes

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code in codes:
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
            return opcodes
        return None

    sys.settrace(calls)
    try:
        run()
    finally:
        sys.settrace(None)
    return counted["compares"], counted["branches"]


def named_for_run_sample(folder: Path, data: bytes, suffix: str, *, picked: bool) -> Path:
    """``data`` written in ``folder`` under a name ending ``suffix`` whose path the cross-check's run sample
    (a hash of the path: ``conformance/_plugin.py``'s ``RUN_SAMPLE``) picks, or does not pick."""
    import zlib

    from recspec.conformance._plugin import RUN_SAMPLE

    for i in range(1000):
        path = folder / f"m{i}{suffix}"
        if (zlib.crc32(os.fsencode(str(path))) % RUN_SAMPLE == 0) == picked:
            path.write_bytes(data)
            return path
    raise AssertionError("no such name")


def check_in_run(path: Path, run_files: int | None, cross_check: bool | str = True) -> FileReport:
    """``path`` checked as a file of a run of ``run_files`` files (``None``: named on its own)."""
    from recspec.pipeline import check_file

    report = check_file(path, fmt=None, variant=None, profile=None, run_files=run_files, cross_check=cross_check)
    assert report is not None
    return report
