#!/usr/bin/env python3
"""Mutation testing: would the tests notice a small bug in this module?

    python tools/mutate.py reference/raskat_signal/_signal.py
    python tools/mutate.py conformance/nanover/_check.py --sample 25 --seed 1 --timeout 300 \\
        --tests tests/test_nanover_properties.py tests/test_rule_witnesses.py --report out/nanover_check.md

Each mutant is one small change made by this module's own AST walk, spliced into the
source at the changed node (so a diff shows only that change):

* ``compare``: a comparison flipped (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``,
  ``in`` and ``not in``, ``is`` and ``is not``);
* ``constant``: an integer constant plus or minus 1 (booleans left alone);
* ``boolop``: ``and`` and ``or`` swapped;
* ``raise``: a ``raise`` statement deleted;
* ``finding``: a call that reports a rule deleted (``x.add("RULE-ID-001", ...)`` and the like:
  a statement whose call's first argument is a rule id);
* ``endian``: a ``struct`` format's ``<`` and ``>`` swapped, ``"little"`` and ``"big"`` swapped;
* ``return``: a returned value replaced: ``return x`` becomes ``return None`` (``True`` and
  ``False`` swapped, since a predicate's ``None`` reads as ``False``); a bare ``return`` and
  ``return None`` are left alone.

A mutant runs the given tests (default ``tests/test_<package>_*.py``) in a fresh
``pytest -x`` process, which imports the mutated source in place of the module (an
import hook: nothing in the checkout is written), under a per-mutant timeout. A mutant
is *killed* when the tests fail, *survived* when they pass, *timed out* past the timeout
(counted as killed: the change made something hang). Survivors listed in
``tools/mutate_equivalent.json`` (module -> mutant key -> reason) are *equivalent*: no
test can kill them, and the reason says why.

The report (Markdown, to ``--report`` or standard output) gives the counts, the score
(killed and timed out over the non-equivalent mutants), the score of deleted raises and
findings, and each survivor's diff. Not part of ``.ci/run``: a module takes minutes to
hours; the scores are recorded in docs/MUTATION.md and re-measured when a module changes.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import difflib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "tools" / "mutate_equivalent.json"
#: The folders [tool.setuptools.package-dir] maps into the recspec package.
_MAPPED = ("reference", "conformance", "fuzz")
KINDS = ("compare", "constant", "boolop", "raise", "finding", "endian", "return")
_RULE_ID = re.compile(r"^[A-Z]+(?:-[A-Z0-9]+)*-\d{3}$")
_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}


@dataclasses.dataclass(frozen=True)
class Mutant:
    kind: str
    line: int
    col: int
    end_line: int
    end_col: int
    original: str
    replacement: str

    @property
    def key(self) -> str:
        """Stable while the lines above do not move: what tools/mutate_equivalent.json names."""
        return f"{self.line}:{self.col}:{self.kind}:{self.original} -> {self.replacement}"

    def apply(self, source: str) -> str:
        lines = source.splitlines(keepends=True)
        start = sum(len(x) for x in lines[:self.line - 1]) + _byte_to_char(lines[self.line - 1], self.col)
        end = sum(len(x) for x in lines[:self.end_line - 1]) + _byte_to_char(lines[self.end_line - 1], self.end_col)
        return source[:start] + self.replacement + source[end:]


def _byte_to_char(line: str, col: int) -> int:
    """ast columns count UTF-8 bytes."""
    return len(line.encode("utf-8")[:col].decode("utf-8", "ignore"))


def _segment(source: str, node: ast.AST) -> str:
    return ast.get_source_segment(source, node) or ast.unparse(node)


def _at(node: ast.AST, kind: str, original: str, replacement: str) -> Mutant:
    return Mutant(kind, node.lineno, node.col_offset, node.end_lineno or node.lineno,  # type: ignore[attr-defined]
                  node.end_col_offset or 0, original, replacement)  # type: ignore[attr-defined]


def _struct_format(text: str) -> bool:
    return len(text) >= 2 and text[0] in "<>" and re.fullmatch(r"[<>][0-9xcbB?hHiIlLqQnNefdspP]+", text) is not None


def _is_finding(node: ast.stmt) -> bool:
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    args = node.value.args
    return bool(args) and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str) \
        and _RULE_ID.match(args[0].value) is not None


def mutants(source: str) -> list[Mutant]:
    """Every mutant of ``source``, in source order."""
    tree = ast.parse(source)
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    out: list[Mutant] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            text = _segment(source, node)
            for i, op in enumerate(node.ops):
                flipped = _FLIP.get(type(op))
                if flipped is not None:
                    changed = ast.Compare(node.left, node.ops[:i] + [flipped()] + node.ops[i + 1:], node.comparators)
                    out.append(_at(node, "compare", text, ast.unparse(changed)))
        elif isinstance(node, ast.BoolOp):
            swapped = ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(), node.values)
            out.append(_at(node, "boolop", _segment(source, node), ast.unparse(swapped)))
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            value = node.value
            if isinstance(value, int) and not isinstance(value, bool):
                out += [_at(node, "constant", _segment(source, node), repr(value + d)) for d in (1, -1)]
            elif isinstance(value, str) and _struct_format(value):
                other = (">" if value[0] == "<" else "<") + value[1:]
                out.append(_at(node, "endian", _segment(source, node), repr(other)))
            elif value in ("little", "big"):
                out.append(_at(node, "endian", _segment(source, node), repr("big" if value == "little" else "little")))
        elif isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            if isinstance(value, ast.Constant) and value.value is None:
                continue
            flipped = (repr(not value.value) if isinstance(value, ast.Constant) and isinstance(value.value, bool)
                       else "None")
            out.append(_at(value, "return", _segment(source, value), flipped))
        elif isinstance(node, ast.Raise):
            out.append(_at(node, "raise", _segment(source, node), "pass"))
        elif isinstance(node, ast.stmt) and _is_finding(node):
            out.append(_at(node, "finding", _segment(source, node), "pass"))
    return sorted(out, key=lambda m: (m.line, m.col, m.kind, m.replacement))


def module_name(path: Path) -> str:
    rel = path.resolve().relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[0] in _MAPPED:
        parts.insert(0, "recspec")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_path(name: str) -> Path:
    """The source file of the module :func:`module_name` names ``name`` (its inverse; a package's name
    gives its ``__init__.py``)."""
    parts = name.split(".")
    if parts[0] == "recspec" and len(parts) > 1 and parts[1] in _MAPPED:
        parts = parts[1:]  # a mapped folder sits at the top of the checkout
    base = ROOT.joinpath(*parts)
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def default_tests(path: Path) -> list[str]:
    rel = path.resolve().relative_to(ROOT)
    package = rel.parts[1] if rel.parts[0] in _MAPPED and len(rel.parts) > 2 else rel.stem
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob(f"test_{package}_*.py"))


#: Run in the child: pytest, with the mutated source imported in place of the module.
_CHILD = r"""
import importlib.abc, importlib.util, sys
name, origin, mutant_path = sys.argv[1:4]
source = open(mutant_path, encoding="utf-8").read()

class Mutated(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=origin, is_package=origin.endswith("__init__.py"))
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        module.__file__ = origin
        exec(compile(source, origin, "exec"), module.__dict__)

sys.meta_path.insert(0, Mutated())
import pytest
sys.exit(pytest.main(sys.argv[4:]))
"""


def run_mutant(name: str, path: Path, mutated: str, tests: list[str], timeout: float) -> tuple[str, float]:
    """("killed" | "survived" | "timed out", seconds)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as f:
        f.write(mutated)
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-c", _CHILD, name, str(path.resolve()), f.name,
                               "-x", "-q", "-p", "no:cacheprovider", "--no-header", *tests],
                              cwd=ROOT, capture_output=True, timeout=timeout,
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        status = "survived" if proc.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        status = "timed out"
    finally:
        os.unlink(f.name)
    return status, time.monotonic() - started


def equivalents(name: str) -> dict[str, str]:
    if not EQUIVALENT.is_file():
        return {}
    return dict(json.loads(EQUIVALENT.read_text(encoding="utf-8")).get(name, {}))


def report(name: str, source: str, results: list[tuple[Mutant, str, float]], tests: list[str],
           known: dict[str, str]) -> str:
    counts = {k: 0 for k in ("killed", "timed out", "survived", "equivalent")}
    survivors = []
    for m, status, _ in results:
        if status == "survived" and m.key in known:
            status = "equivalent"
        counts[status] += 1
        if status in ("survived", "equivalent"):
            survivors.append((m, status))
    scored = len(results) - counts["equivalent"]
    caught = counts["killed"] + counts["timed out"]
    deletions = [(m, s) for m, s, _ in results if m.kind in ("raise", "finding") and m.key not in known]
    deleted_caught = sum(1 for _, s in deletions if s != "survived")
    lines = [f"# Mutants of {name}", "",
             f"tests: {' '.join(tests)}", "",
             "| mutants | killed | timed out | survived | equivalent | score | deleted raises and findings |",
             "|---|---|---|---|---|---|---|",
             f"| {len(results)} | {counts['killed']} | {counts['timed out']} | {counts['survived']} | "
             f"{counts['equivalent']} | {_pct(caught, scored)} | {deleted_caught}/{len(deletions)} |", "",
             "| kind | killed or timed out / non-equivalent |", "|---|---|"]
    for kind in KINDS:
        of_kind = [s for m, s, _ in results if m.kind == kind and not (s == "survived" and m.key in known)]
        if of_kind:
            lines.append(f"| {kind} | {_pct(sum(1 for s in of_kind if s != 'survived'), len(of_kind))} |")
    lines.append("")
    for m, status in survivors:
        lines += [f"## {status}: {m.key}", ""]
        if status == "equivalent":
            lines += [f"Why: {known[m.key]}", ""]
        diff = difflib.unified_diff(source.splitlines(keepends=True), m.apply(source).splitlines(keepends=True),
                                    f"a/{name}", f"b/{name}", n=1)
        lines += ["```diff", "".join(diff).rstrip("\n"), "```", ""]
    return "\n".join(lines)


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f} % ({a}/{b})" if b else "-"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="The mutant kinds, the statuses and the equivalents file are described at "
                                       "the top of tools/mutate.py and in ARCHITECTURE.md, 'Mutation testing'.")
    p.add_argument("module", type=Path, help="the module's source file, e.g. reference/carla/_decode.py")
    p.add_argument("--tests", nargs="+",
                   help="the test files to run on each mutant (default: tests/test_<package>_*.py)")
    p.add_argument("-k", dest="select",
                   help="pytest's -k expression over those tests (e.g. RSIG for one format's witnesses)")
    p.add_argument("--sample", type=int, default=0, help="run only N mutants, drawn with --seed (default: all)")
    p.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    p.add_argument("--kinds", nargs="+", choices=KINDS,
                   help="only these kinds of mutant")
    p.add_argument("--match", help="only mutants whose key matches this regular expression (re-running survivors)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant before it counts as timed out")
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    p.add_argument("--report", type=Path, help="write the Markdown report here (default: standard output)")
    args = p.parse_args(argv)
    path = args.module
    source = path.read_text(encoding="utf-8")
    found = [m for m in mutants(source) if (not args.kinds or m.kind in args.kinds)
             and (not args.match or re.search(args.match, m.key))]
    if args.list:
        for m in found:
            print(m.key)
        return 0
    if args.sample and args.sample < len(found):
        found = sorted(random.Random(args.seed).sample(found, args.sample), key=lambda m: (m.line, m.col))
    tests = args.tests or default_tests(path)
    if not tests:
        p.error(f"no tests/test_<package>_*.py for {path}: name them with --tests")
    if args.select:
        tests = [*tests, "-k", args.select]
    name = module_name(path)
    results = []
    for i, m in enumerate(found, 1):
        status, seconds = run_mutant(name, path, m.apply(source), tests, args.timeout)
        results.append((m, status, seconds))
        print(f"[{i}/{len(found)}] {status:9} {seconds:6.1f}s {m.key}", file=sys.stderr, flush=True)
    text = report(name, source, results, tests, equivalents(name))
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
