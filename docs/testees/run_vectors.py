"""Run recspec's test vectors against a reader, as a test suite outside recspec would: no recspec import,
the standard library only, so it reads as the C++ sketch in vectors.md does.

    recspec corpus export vectors/
    python docs/testees/run_vectors.py vectors/ -- ./my_reader {format} {variant} {file}

For every vector whose file has a case and is valid under the spec profile, the reader command is run
and must print that file's canonical case as JSON (exit 0). The comparison is the one `recspec drive
reader` makes, without tolerances: objects by key, arrays in order, numbers by value with integers apart
from floats and -0.0 apart from 0.0, strings and the non-finite "NaN", "Infinity", "-Infinity" exactly.
Prints one line per mismatch (the file and the JSON path of the first difference) and exits 1 when any.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any


def first_difference(expected: Any, actual: Any, path: str = "") -> str | None:
    """The JSON path where ``actual`` first differs from ``expected`` and how, or None."""
    if isinstance(expected, bool) or isinstance(actual, bool) or type(expected) is not type(actual):
        if expected == actual and type(expected) is type(actual):
            return None
        return f"{path or '(the case)'}: expected {expected!r}, got {actual!r}"
    if isinstance(expected, dict):
        for key in expected:
            if key not in actual:
                return f"{path}.{key}: expected {expected[key]!r}, got nothing"
            d = first_difference(expected[key], actual[key], f"{path}.{key}" if path else key)
            if d:
                return d
        extra = [k for k in actual if k not in expected]
        return f"{path}.{extra[0]}: expected nothing, got {actual[extra[0]]!r}" if extra else None
    if isinstance(expected, list):
        for i, (x, y) in enumerate(zip(expected, actual)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} elements, got {len(actual)}"
        return None
    if isinstance(expected, float):
        same = expected == actual and math.copysign(1.0, expected) == math.copysign(1.0, actual)
        return None if same else f"{path}: expected {expected!r}, got {actual!r}"
    return None if expected == actual else f"{path}: expected {expected!r}, got {actual!r}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vectors", type=Path, help="the folder `recspec corpus export` wrote")
    ap.add_argument("--format", help="only this format's vectors")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per file (default 30)")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args, command = ap.parse_args(argv[:cut]), argv[cut + 1:]
    if not command:
        ap.error("name the reader command after --: READER {format} {variant} {file}")
    manifest = json.loads((args.vectors / "manifest.json").read_text(encoding="utf-8"))
    if manifest.get("recspec_vectors") != 1:
        print(f"this runner reads recspec_vectors 1, not {manifest.get('recspec_vectors')!r}", file=sys.stderr)
        return 2
    ran = failed = 0
    for vector in manifest["vectors"]:
        if args.format and vector["format"] != args.format:
            continue
        sidecar = json.loads((args.vectors / vector["sidecar"]).read_text(encoding="utf-8"))
        if sidecar["canonical_case"] is None or sidecar["expect"]["spec"]["verdict"] != "valid":
            continue
        fields = {"format": vector["format"], "variant": vector["variant"] or "",
                  "file": str(args.vectors / vector["file"])}
        ran += 1
        try:
            done = subprocess.run([part.format(**fields) for part in command], capture_output=True,
                                  timeout=args.timeout)
        except subprocess.TimeoutExpired:
            failed += 1
            print(f"FAIL {vector['file']}: no answer in {args.timeout} s")
            continue
        if done.returncode != 0:
            failed += 1
            print(f"FAIL {vector['file']}: the reader exited {done.returncode}: "
                  f"{done.stderr.decode(errors='replace').strip()[-200:]}")
            continue
        try:
            printed = json.loads(done.stdout)
        except json.JSONDecodeError as e:
            failed += 1
            print(f"FAIL {vector['file']}: the reader printed no JSON ({e.msg})")
            continue
        difference = first_difference(sidecar["canonical_case"], printed)
        if difference:
            failed += 1
            print(f"FAIL {vector['file']}: {difference}")
    print(f"{ran - failed} of {ran} vectors read as expected ({shlex.join(command)})")
    return 1 if failed or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
