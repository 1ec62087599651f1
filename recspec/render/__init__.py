"""Report renderers: one run's :class:`~recspec.report.Report` as JSON, JUnit XML, SARIF 2.1.0, HTML or Markdown.

``recspec check --report FORMAT:PATH`` (repeatable) renders every requested
format from the same run and writes each one atomically (:func:`write_atomic`).
Every renderer is deterministic: the same files give byte-identical reports
(no timestamps, no host names, no absolute paths that were not on the command
line), so reports can be diffed and kept as golden files.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..report import Report
from ._context import RenderContext, finding_location, severity_label

if TYPE_CHECKING:
    from ._atomic import write_atomic
    from ._hexdump import hex_window
    from ._write import write_report

__all__ = ["RENDERERS", "RenderContext", "finding_location", "hex_window", "render", "render_pieces", "severity_label",
           "write_atomic", "write_report"]

#: report format name -> renderer (the report's text in pieces, to write one after the other); the
#: names `--report FORMAT:PATH` accepts. Each makes its pieces a file at a time from the run's files
#: (a list, or a run kept on disk by recspec/spool.py), so a run over many files never holds its
#: whole report, nor every file's results, in memory.
Renderer = Callable[[Report, RenderContext], Iterable[str]]


def _on_first_use(module: str, name: str) -> Renderer:
    """The renderer ``name`` of ``module``, imported when a run first asks for its report: every
    `recspec check` imports this package (the table), few write HTML (its pictures are the biggest
    import of the command line), JSON, JUnit, SARIF or Markdown."""
    def renderer(report: Report, ctx: RenderContext) -> Iterable[str]:
        actual: Renderer = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        return actual(report, ctx)

    renderer.__name__ = renderer.__qualname__ = name
    return renderer


RENDERERS: dict[str, Renderer] = {
    "json": _on_first_use("_json", "iter_json"),
    "junit": _on_first_use("_junit", "iter_junit"),
    "sarif": _on_first_use("_sarif", "iter_sarif"),
    "html": _on_first_use("_html", "iter_html"),
    "markdown": _on_first_use("_markdown", "iter_markdown"),
}


#: This package's names that live in a module imported when one is first asked for (``__getattr__``): a
#: check that prints its table alone writes no file and draws no hexdump, and every module imported costs
#: each run's start-up some 0.3 ms.
_ON_FIRST_USE = {"write_atomic": "_atomic", "write_report": "_write", "hex_window": "_hexdump"}


def __getattr__(name: str) -> Any:
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def render(name: str, report: Report, ctx: RenderContext | None = None) -> str:
    return "".join(render_pieces(name, report, ctx))


def render_pieces(name: str, report: Report, ctx: RenderContext | None = None) -> Iterable[str]:
    """The report as pieces of text to write one after the other (``write_atomic`` takes them)."""
    return RENDERERS[name](report, ctx or RenderContext(report))
