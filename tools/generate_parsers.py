#!/usr/bin/env python3
"""Generate the Kaitai Struct parsers in ``recspec/_ksy/`` and ``recspec/_ksy_fast/`` from ``ksy/*.ksy``.

Usage::

    python tools/generate_parsers.py            # regenerate both folders
    python tools/generate_parsers.py --out DIR  # write the debug build somewhere else
    python tools/generate_parsers.py --check    # exit 1 with a diff on drift (both folders)

Two builds of the same specs: ``recspec/_ksy/`` in the compiler's debug mode
(field positions in ``_debug``, used where offsets are shown: ``recspec dump
--ksy``, the ksy tests), and ``recspec/_ksy_fast/`` without it (``--no-debug``:
the constructor parses and keeps no positions; 2-5 times faster and a fifth of
the memory), which the cross-check of ``recspec check`` runs.

The work is done by ``tools/ksy_compile.mjs`` with the npm
``kaitai-struct-compiler`` pinned in ``package-lock.json`` (run ``npm ci``
once). This script finds node, runs the compiler, and for ``--check`` compares
a fresh generation with the committed files. ``recspec/_ksy/__init__.py`` is
hand-written and never compared or touched.

Exit codes: 0 success (or no drift), 1 drift found by ``--check``, 2 the
toolchain is missing or the compiler failed.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["DEFAULT_OUT", "FAST_OUT", "REPO", "ToolchainError", "diff_trees", "generate", "main"]

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "recspec" / "_ksy"
#: The same parsers compiled without debug mode (the cross-check's).
FAST_OUT = REPO / "recspec" / "_ksy_fast"
SCRIPT = REPO / "tools" / "ksy_compile.mjs"
HAND_WRITTEN = frozenset({"__init__.py"})
# First line of every generated module (written by ksy_compile.mjs); only files
# carrying it are ever deleted as stale.
GENERATED_MARK = "# Generated from "
REQUIRED_MODULES = ("kaitai-struct-compiler", "js-yaml")


class ToolchainError(RuntimeError):
    """node, node_modules or the compiler itself failed."""


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise ToolchainError("node is not on PATH; install Node.js 20, then run `npm ci` first")
    missing = [m for m in REQUIRED_MODULES if not (REPO / "node_modules" / m / "package.json").is_file()]
    if missing:
        raise ToolchainError(
            f"node_modules lacks {', '.join(missing)}; run `npm ci` first (in {REPO})"
        )
    return node


def generate(out: Path, specs: list[Path] | None = None, *, debug: bool = True) -> list[Path]:
    """Compile the specs (default: every ``ksy/*.ksy``) into ``out``, in debug mode or not.

    Returns the generated files. Raises :class:`ToolchainError` when node or
    the npm packages are missing or the compiler reports an error.
    """
    node = _node()
    cmd = [node, str(SCRIPT), "--out", str(out), *(() if debug else ("--no-debug",)), *(str(s) for s in specs or ())]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip()
        raise ToolchainError(detail or f"{' '.join(cmd)} exited with {proc.returncode}")
    return [Path(line) for line in proc.stdout.splitlines() if line.strip()]


def _generated_files(folder: Path) -> dict[str, Path]:
    if not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.glob("*.py")) if p.name not in HAND_WRITTEN}


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(REPO).as_posix()
    except ValueError:
        return str(path)


def diff_trees(expected: Path, actual: Path) -> str:
    """Unified diff from the committed folder ``actual`` to a fresh ``expected``.

    Empty when both hold the same generated modules with the same bytes.
    """
    fresh, committed = _generated_files(expected), _generated_files(actual)
    chunks: list[str] = []
    for name in sorted(fresh.keys() | committed.keys()):
        old_bytes = committed[name].read_bytes() if name in committed else None
        new_bytes = fresh[name].read_bytes() if name in fresh else None
        if old_bytes == new_bytes:
            continue
        old = (old_bytes or b"").decode("utf-8", errors="replace")
        new = (new_bytes or b"").decode("utf-8", errors="replace")
        rel = _display(actual / name)
        diff = difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"{rel} (committed)" if name in committed else "/dev/null",
            tofile=f"{rel} (regenerated)" if name in fresh else "/dev/null",
        )
        text = "".join(diff)
        if not text:  # same text, different bytes (line endings)
            text = f"{rel}: same text, different bytes (line endings?)\n"
        chunks.append(text if text.endswith("\n") else text + "\n")
    return "".join(chunks)


def _remove_stale(out: Path, written: list[Path]) -> None:
    keep = {p.name for p in written}
    for name, path in _generated_files(out).items():
        if name in keep:
            continue
        with path.open(encoding="utf-8") as f:
            first = f.readline()
        if first.startswith(GENERATED_MARK):
            path.unlink()
            print(f"removed stale {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT,
        help="output folder (default: recspec/_ksy/)",
    )
    parser.add_argument(
        "--check", action="store_true",
        help="regenerate into a temporary folder and exit 1 with a diff if --out differs",
    )
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()

    builds = [(out, True)] + ([(FAST_OUT, False)] if out == DEFAULT_OUT.resolve() else [])
    try:
        if args.check:
            stale = False
            for folder, debug in builds:
                with tempfile.TemporaryDirectory(prefix="recspec-ksy-") as tmp:
                    generate(Path(tmp), debug=debug)
                    diff = diff_trees(Path(tmp), folder)
                if diff:
                    sys.stdout.write(diff)
                    stale = True
                else:
                    print(f"{folder}: generated parsers are up to date")
            if stale:
                print(
                    "generated parsers are out of date; run `python tools/generate_parsers.py`",
                    file=sys.stderr,
                )
                return 1
            return 0
        for folder, debug in builds:
            written = generate(folder, debug=debug)
            _remove_stale(folder, written)
            for path in written:
                print(path)
        return 0
    except ToolchainError as exc:
        print(f"generate_parsers: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
