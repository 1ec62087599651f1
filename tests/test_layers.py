"""The layering contracts of pyproject.toml ([tool.importlinter]) hold: `lint-imports` passes.

grimp, under import-linter, finds the modules of ``recspec`` by walking the folder
that ``importlib.util.find_spec("recspec")`` names, and lint-imports puts its working
directory first on ``sys.path``. recspec.reference, recspec.conformance and
recspec.fuzz are folders beside recspec/ (the package-dir mapping of pyproject.toml,
which an editable install serves from a meta path finder), so lint-imports run from
the checkout would see recspec/ alone. It runs instead from a temporary folder that
holds a view of the installed layout: recspec/ made of links to the checkout's
recspec/ entries and to the mapped package folders. The links keep it cheap (no
copy, no install) and exact (grimp follows them and reads the checkout's files).

Run by hand: ``python tests/test_layers.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from helpers import build_view

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports() -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="recspec-layers-") as tmp:
        build_view(Path(tmp))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        return subprocess.run([str(LINT_IMPORTS), "--no-cache", str(ROOT / "pyproject.toml")], cwd=tmp, env=env,
                              capture_output=True, text=True, timeout=300)


def test_the_view_holds_every_package_of_the_mapping(tmp_path: Path) -> None:
    view = build_view(tmp_path)
    for name in ("reference", "conformance", "fuzz", "pipeline.py", "cli.py", "render"):
        assert (view / name).exists(), name


def test_lint_imports_keeps_every_layering_contract() -> None:
    assert LINT_IMPORTS.is_file(), f"{LINT_IMPORTS} is missing: pip install -e '.[test]'"
    run = lint_imports()
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    assert "0 broken" in report and "No matches for ignored import" not in report, report
    analyzed = next(line for line in report.splitlines() if line.startswith("Analyzed "))
    assert int(analyzed.split()[1]) > 60, analyzed  # recspec/ alone has about 35 modules


def _top_level_modules(view: Path) -> set[str]:
    """Every module and package directly under ``recspec`` in the installed layout."""
    names = {f"recspec.{p.stem}" for p in view.glob("*.py") if p.stem != "__init__"}
    names |= {f"recspec.{p.name}" for p in view.iterdir() if (p / "__init__.py").is_file()}
    return names


def _contract(contract_id: str) -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == contract_id)


def test_the_layers_and_cli_on_top_name_every_module(tmp_path: Path) -> None:
    """A module left out of the layers may import anything and be imported by anything: each one
    has its place in the stack (ARCHITECTURE.md, "Layers and their contracts"), and nothing below
    the CLI imports it."""
    modules = _top_level_modules(build_view(tmp_path))
    assert {"recspec.cli", "recspec.shard", "recspec.reference", "recspec.fuzz"} <= modules  # the view is whole
    layers = _contract("layers")["layers"]
    assert isinstance(layers, list)
    layered = {name.strip() for layer in layers for name in str(layer).split("|")}
    assert modules - layered == set(), "not in the layers contract"
    assert layered - modules == set(), "named in the layers contract but not a module"
    below_cli = _contract("cli-on-top")["source_modules"]
    assert isinstance(below_cli, list)
    assert modules - set(below_cli) - {"recspec.cli", "recspec.__main__"} == set(), "not in cli-on-top"


def test_architecture_names_every_module_in_its_layer_stack() -> None:
    """ARCHITECTURE.md's stack (the block under "Layers and their contracts") names each module."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Layers and their contracts", 1)[1]
    stack = section.split("```", 2)[1]
    modules = {f"recspec.{p.stem}" for p in (ROOT / "recspec").glob("*.py") if p.stem != "__init__"}
    modules |= {f"recspec.{p.name}" for p in (ROOT / "recspec").iterdir() if (p / "__init__.py").is_file()}
    modules |= {"recspec.reference", "recspec.conformance", "recspec.fuzz"}
    named = set()
    for word in stack.replace("→", " ").split():
        word = word.strip("`(),")
        if word.endswith(".py"):
            named.add("recspec." + word.removeprefix("recspec/").removesuffix(".py"))
        elif word.endswith("/"):
            named.add("recspec." + word.removeprefix("recspec/").rstrip("/"))
    assert modules - named == set(), "missing from ARCHITECTURE.md's layer stack"


if __name__ == "__main__":
    result = lint_imports()
    sys.stdout.write(result.stdout + result.stderr)
    sys.exit(result.returncode)


def test_nothing_outside_reference_imports_its_private_modules() -> None:
    """Code outside reference/ uses each reference package's public names (its __init__'s
    __all__); tests may still reach a private module to lower a limit, and say so."""
    import re

    private = re.compile(r"^\s*(from recspec\.reference\.\w+\._\w+ import|from recspec\.reference\.\w+ import _\w+"
                         r"|import recspec\.reference\.\w+\._\w+)", re.M)
    offenders = []
    for folder in ("recspec", "conformance", "fuzz", "benchmarks", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for m in private.finditer(path.read_text(encoding="utf-8")):
                offenders.append(f"{path.relative_to(ROOT)}: {m.group(0).strip()}")
    assert not offenders, "\n".join(offenders)
