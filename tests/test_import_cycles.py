"""No import cycle between the modules of one package, lazy imports included.

The layering contracts (tests/test_layers.py) order the packages; inside a package
nothing stops ``_format`` importing ``_xcheck`` at module level while ``_xcheck``
imports ``_format`` inside a function. Such a loop works only as long as the lazy
side stays lazy, and it hides which module depends on which. grimp records every
import (module level, inside functions, under TYPE_CHECKING), so this test takes
each package, collapses every module under it to the child of the package it lies
in (``recspec.conformance.carla._check`` is ``_check`` of ``recspec.conformance.carla``,
and ``carla`` of ``recspec.conformance``), and fails on any cycle among the children.

A child importing its own package's ``__init__`` (``from . import x``) is not counted:
that is the package, not a sibling.

Like test_layers.py it runs grimp in a subprocess over a view of the installed layout
(tests/helpers.build_view), where recspec.reference, .conformance and .fuzz are folders
of ``recspec``.

Run by hand: ``python tests/test_import_cycles.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from helpers import build_view

#: Runs in the view's folder: prints every package's cycles as JSON, ``{package: [[child, ...], ...]}``.
_FIND_CYCLES = r"""
import json, sys
import grimp

graph = grimp.build_graph("recspec", include_external_packages=False, cache_dir=None)
modules = sorted(graph.modules)
packages = {m.rpartition(".")[0] for m in modules if "." in m}


def child_of(package, module):
    # the child of `package` that `module` is or lies in; None when outside it or the package itself
    if not module.startswith(package + "."):
        return None
    return package + "." + module[len(package) + 1:].split(".", 1)[0]


def cycles(nodes, edges):
    # the strongly connected components of more than one node (Tarjan, iterative)
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]; counter[0] += 1; stack.append(root); on.add(root)
        while work:
            node, it = work[-1]
            step = next(it, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = counter[0]; counter[0] += 1; stack.append(step); on.add(step)
                    work.append((step, iter(sorted(edges.get(step, ())))))
                elif step in on:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop(); on.discard(top); component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


found = {}
for package in sorted(packages):
    children = sorted({c for m in modules if (c := child_of(package, m))})
    edges = {}
    for module in modules:
        source = child_of(package, module)
        if source is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            target = child_of(package, imported)
            if target is not None and target != source:
                edges.setdefault(source, set()).add(target)
    loops = cycles(children, edges)
    if loops:
        found[package] = loops
print(json.dumps({"modules": len(modules), "cycles": found}))
"""


def find_cycles() -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="recspec-cycles-") as tmp:
        build_view(Path(tmp))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        run = subprocess.run([sys.executable, "-c", _FIND_CYCLES], cwd=tmp, env=env, capture_output=True, text=True,
                             timeout=300)
    assert run.returncode == 0, run.stderr
    result: dict[str, object] = json.loads(run.stdout)
    return result


def test_no_package_has_an_import_cycle_among_its_modules() -> None:
    result = find_cycles()
    assert isinstance(result["modules"], int) and result["modules"] > 60, result  # the view holds every package
    assert result["cycles"] == {}, json.dumps(result["cycles"], indent=2)


if __name__ == "__main__":
    print(json.dumps(find_cycles(), indent=2))
