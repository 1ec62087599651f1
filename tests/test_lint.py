"""ruff and mypy pass, as configured in pyproject.toml ([tool.ruff], [tool.mypy]).

ruff checks the checkout. mypy runs over a view of the installed layout
(``helpers.build_view``, the one tests/test_layers.py gives lint-imports): from the
checkout it could not resolve recspec.reference, recspec.conformance and
recspec.fuzz, which [tool.setuptools.package-dir] maps into ``recspec``. Each
test is skipped, with the reason, when its tool is not installed (the test extra
pins both).

Run by hand: ``python tests/test_lint.py`` (both, with their reports).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import REPO, build_view


def _require(tool: str) -> None:
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed: pip install -e '.[test]'")


def run_ruff() -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format=concise", str(REPO)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def run_mypy() -> subprocess.CompletedProcess[str]:
    """``mypy -p recspec`` from a temporary folder holding the view (its cache goes with it)."""
    with tempfile.TemporaryDirectory(prefix="recspec-mypy-") as tmp:
        build_view(Path(tmp))
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
        return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
                               "--cache-dir", str(Path(tmp) / ".mypy_cache"), "-p", "recspec"],
                              cwd=tmp, env=env, capture_output=True, text=True, timeout=600)


def test_ruff_check_passes() -> None:
    _require("ruff")
    run = run_ruff()
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_passes_over_the_installed_layout() -> None:
    _require("mypy")
    run = run_mypy()
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    # every package of the view was checked: recspec/ alone is about 35 modules
    checked = re.search(r"(\d+) source files?", report)
    assert checked and int(checked.group(1)) > 80, report


# --- tests that assert ------------------------------------------------------------------

#: pytest's own ways of stating an expectation: ``with pytest.raises(...)`` and the like.
_PYTEST_EXPECTATIONS = frozenset({"raises", "warns", "fail", "deprecated_call"})
_Def = ast.FunctionDef | ast.AsyncFunctionDef


class _TestModules:
    """The functions of tests/ and what each module imports from the others, for :func:`asserts`."""

    def __init__(self, folder: Path) -> None:
        self.trees = {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(folder.rglob("*.py"))}
        by_module = {p.stem: p for p in self.trees if p.parent == folder}
        # file -> name -> the functions of that name it may mean (its own first, then what it imports)
        self.scope: dict[Path, dict[str, list[_Def]]] = {}
        self.modules: dict[Path, dict[str, Path]] = {}  # file -> alias -> tests module it imports
        own = {p: self._defs(t) for p, t in self.trees.items()}
        for path, tree in self.trees.items():
            scope = {name: list(defs) for name, defs in own[path].items()}
            aliases: dict[str, Path] = {}
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and node.module in by_module and not node.level:
                    source = own[by_module[node.module]]
                    for a in node.names:
                        scope.setdefault(a.asname or a.name, []).extend(source.get(a.name, []))
                elif isinstance(node, ast.Import):
                    for a in node.names:
                        if a.name in by_module:
                            aliases[a.asname or a.name] = by_module[a.name]
            self.scope[path] = scope
            self.modules[path] = aliases
        self.owner = {id(d): p for p, defs in own.items() for ds in defs.values() for d in ds}
        self._memo: dict[int, bool] = {}
        self._own = own

    @staticmethod
    def _defs(tree: ast.Module) -> dict[str, list[_Def]]:
        found: dict[str, list[_Def]] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.setdefault(node.name, []).append(node)
        return found

    def _meant(self, path: Path, node: ast.expr) -> list[_Def]:
        """The tests/ functions a name or attribute in ``path`` may refer to."""
        if isinstance(node, ast.Name):
            return self.scope[path].get(node.id, [])
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in ("self", "cls"):
                return self._own[path].get(node.attr, [])
            module = self.modules[path].get(node.value.id)
            if module is not None:
                return self._own[module].get(node.attr, [])
        return []

    def asserts(self, func: _Def, _seen: frozenset[int] = frozenset()) -> bool:
        if id(func) in self._memo:
            return self._memo[id(func)]
        if id(func) in _seen:
            return False
        seen, path, result = _seen | {id(func)}, self.owner[id(func)], False
        for node in _own_nodes(func):
            if isinstance(node, ast.Assert) or _is_pytest_expectation(node) or _raises_assertion_error(node):
                result = True
            elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load):
                result = any(not d.name.startswith("test") and self.asserts(d, seen) for d in self._meant(path, node))
            if result:
                break
        self._memo[id(func)] = result
        return result


def _is_pytest_expectation(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr in _PYTEST_EXPECTATIONS and isinstance(node.func.value, ast.Name) \
        and node.func.value.id == "pytest"


def _raises_assertion_error(node: ast.AST) -> bool:
    if not isinstance(node, ast.Raise) or node.exc is None:
        return False
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    return isinstance(exc, ast.Name) and exc.id == "AssertionError"


def _own_nodes(func: _Def) -> Iterator[ast.AST]:
    """The nodes of a function's body; a nested function's body counts only where the function is named."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    stack: list[ast.AST] = [n for n in func.body if not isinstance(n, scopes)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, scopes))


def _is_smoke(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    return any(isinstance(d, ast.Attribute) and d.attr == "smoke" for d in node.decorator_list)


def assertionless_tests(folder: Path = REPO / "tests") -> list[str]:
    """``file:line: name`` of every test function in ``folder`` that states no expectation."""
    modules = _TestModules(folder)
    found = []
    for path, tree in modules.trees.items():
        if not path.name.startswith("test_"):
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test") and not _is_smoke(node):
                funcs = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                funcs = [node]
            else:
                continue
            found += [f"{path.relative_to(folder.parent)}:{f.lineno}: {f.name}" for f in funcs
                      if f.name.startswith("test") and not _is_smoke(f) and not modules.asserts(f)]
    return found


def test_every_test_states_an_expectation() -> None:
    """A test passes only when what its name says holds, so each one states it.

    The rule, checked on the source with ``ast``: a test function (``test*`` at module level, or in a
    ``Test*`` class) asserts when its own body holds an ``assert`` statement, ``raise AssertionError``,
    ``pytest.raises``, ``pytest.warns``, ``pytest.fail`` or ``pytest.deprecated_call``, or names a
    function of tests/ that asserts by this same rule (called, or handed on as a callback),
    transitively. A name is resolved in its own file (a module-level or nested function, or
    ``self.method``), then through ``from <module> import name`` or ``<module>.name`` for a module of
    tests/ (helpers.py, conftest.py, another test file); a function of recspec or of a library never
    counts. A nested function's body counts only where it is named, so one defined and never called
    does not count; functions named ``test*`` do not count as helpers.

    A test whose point is that something does not raise, and whose name says just that, is marked
    ``@pytest.mark.smoke`` (pyproject.toml) and is exempt.
    """
    missing = assertionless_tests()
    assert not missing, "tests with no assertion (add one, or mark a does-not-raise test smoke):\n" + \
        "\n".join(missing)


def test_the_assertion_rule_sees_through_helpers_and_nowhere_else(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text("def check_it(x):\n    assert x\n\ndef log_it(x):\n    print(x)\n")
    (tmp_path / "test_a.py").write_text(
        "import pytest\nimport helpers\nfrom helpers import check_it, log_it\n\n"
        "def _deeper(x):\n    check_it(x)\n\n"
        "def _raising(x):\n    if not x:\n        raise AssertionError(x)\n\n"
        "def test_raising_helper():\n    _raising(1)\n\n"
        "def test_direct():\n    assert 1\n\n"
        "def test_raises():\n    with pytest.raises(ValueError):\n        int('x')\n\n"
        "def test_through_two_helpers():\n    _deeper(1)\n\n"
        "def test_module_attribute():\n    helpers.check_it(1)\n\n"
        "def test_callback():\n    list(map(check_it, [1]))\n\n"
        "def test_logs_only():\n    log_it(1)\n\n"
        "def test_nested_never_called():\n    def inner():\n        assert 1\n\n"
        "@pytest.mark.smoke\ndef test_smoke():\n    int('1')\n\n"
        "class TestGroup:\n    def _check(self):\n        assert 1\n\n"
        "    def test_method(self):\n        self._check()\n\n"
        "    def test_method_silent(self):\n        pass\n")
    missing = [line.split(": ")[1] for line in assertionless_tests(tmp_path)]
    assert missing == ["test_logs_only", "test_nested_never_called", "test_method_silent"]


if __name__ == "__main__":
    code = 0
    for name, runner in (("ruff", run_ruff), ("mypy", run_mypy)):
        result = runner()
        sys.stdout.write(f"--- {name}\n{result.stdout}{result.stderr}")
        code = code or result.returncode
    sys.exit(code)
