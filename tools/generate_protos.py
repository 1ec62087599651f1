#!/usr/bin/env python3
"""Generate the protobuf modules in ``recspec/_pb/`` from ``proto/*.proto``.

Usage::

    python tools/generate_protos.py            # regenerate recspec/_pb/
    python tools/generate_protos.py --check    # exit 1 with a diff on drift

protoc is the one bundled with ``grpcio-tools``, pinned in the ``test`` extra of
``pyproject.toml`` (so the generated code's protobuf version is fixed and the
runtime bound ``protobuf>=7.35.1,<8`` fits it). ``recspec/_pb/__init__.py`` is
hand-written and never compared or touched. protoc writes each module's type stub
(``.pyi``) beside it; the stubs need ``types-protobuf`` (the test extra) for the
runtime's own types.

Exit codes: 0 success (or no drift), 1 drift found by ``--check``, 2 protoc is
missing or failed.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from pathlib import Path

__all__ = ["DEFAULT_OUT", "PROTO_DIR", "ToolchainError", "diff_trees", "generate", "main"]

REPO = Path(__file__).resolve().parents[1]
PROTO_DIR = REPO / "proto"
DEFAULT_OUT = REPO / "recspec" / "_pb"
HAND_WRITTEN = frozenset({"__init__.py"})


class ToolchainError(RuntimeError):
    """grpcio-tools is not installed or protoc reported an error."""


def generate(out: Path) -> list[Path]:
    """Compile every ``proto/*.proto`` into ``out``: the generated files, a module and its
    type stub (``.pyi``, what mypy checks the module's importers against) for each."""
    try:
        from importlib.resources import files

        from grpc_tools import protoc
    except ImportError as e:
        raise ToolchainError(f"grpcio-tools is not installed ({e}); run `pip install -e '.[test]'`") from None
    includes = str(files("grpc_tools") / "_proto")  # google/protobuf/struct.proto and friends
    protos = sorted(PROTO_DIR.glob("*.proto"))
    out.mkdir(parents=True, exist_ok=True)
    args = ["protoc", f"-I{PROTO_DIR}", f"-I{includes}", f"--python_out={out}", f"--pyi_out={out}",
            *(str(p) for p in protos)]
    if protoc.main(args) != 0:
        raise ToolchainError(f"protoc failed on {', '.join(p.name for p in protos)}")
    return [out / f"{p.stem}_pb2{ext}" for p in protos for ext in (".py", ".pyi")]


def _generated(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted([*folder.glob("*.py"), *folder.glob("*.pyi")])
            if p.name not in HAND_WRITTEN}


def diff_trees(fresh: Path, committed: Path) -> str:
    """Unified diff from the committed modules to a fresh generation ('' when equal)."""
    a, b = _generated(committed), _generated(fresh)
    chunks = []
    for name in sorted(a.keys() | b.keys()):
        if a.get(name) != b.get(name):
            chunks.append("".join(difflib.unified_diff(
                a.get(name, b"").decode().splitlines(keepends=True),
                b.get(name, b"").decode().splitlines(keepends=True),
                fromfile=f"recspec/_pb/{name} (committed)", tofile=f"recspec/_pb/{name} (regenerated)"))
                or f"recspec/_pb/{name}: different bytes\n")
    return "".join(chunks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: recspec/_pb/)")
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary folder and exit 1 with a diff if --out differs")
    args = parser.parse_args(argv)
    try:
        if args.check:
            with tempfile.TemporaryDirectory(prefix="recspec-pb-") as tmp:
                generate(Path(tmp))
                diff = diff_trees(Path(tmp), args.out)
            if diff:
                sys.stdout.write(diff)
                print("generated protobuf modules are out of date; run `python tools/generate_protos.py`",
                      file=sys.stderr)
                return 1
            print(f"{args.out}: generated protobuf modules are up to date")
            return 0
        for path in generate(args.out):
            print(path)
        return 0
    except ToolchainError as e:
        print(f"generate_protos: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
