"""The JSON report: the documented contract (README "The JSON report"; schemas/report-1.schema.json).

:func:`iter_json` yields the report a file at a time, so writing the report of a
run over many files never holds the whole text, nor its plain tree, in memory
(``json.dumps`` with ``indent`` runs the pure-Python encoder, which keeps a list of
every token); the text is exactly ``json.dumps(report.to_json(), indent=2)``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..report import Report

__all__ = ["Lazy", "iter_dumps", "iter_json", "render_json"]


class Lazy:
    """A JSON array for :func:`iter_dumps` whose items are made as they are written."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


def _has_lazy(value: Any) -> bool:
    if isinstance(value, Lazy):
        return True
    if isinstance(value, dict):
        return any(_has_lazy(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_lazy(v) for v in value)
    return False


def iter_dumps(value: Any, level: int = 0) -> Iterator[str]:
    """``json.dumps(value, indent=2, allow_nan=False)`` in pieces, a :class:`Lazy` array's items
    made one at a time; ``level``: how deep the value sits (its lines are indented to match)."""
    end = "\n" + "  " * level
    pad = end + "  "
    if isinstance(value, Lazy):
        first = True
        for item in value.items:
            yield ("[" if first else ",") + pad
            yield from iter_dumps(item, level + 1)
            first = False
        yield "[]" if first else end + "]"
    elif isinstance(value, dict) and _has_lazy(value):
        for i, (key, item) in enumerate(value.items()):
            yield ("{" if i == 0 else ",") + pad + json.dumps(key) + ": "
            yield from iter_dumps(item, level + 1)
        yield end + "}"
    elif isinstance(value, list) and _has_lazy(value):
        for i, item in enumerate(value):
            yield ("[" if i == 0 else ",") + pad
            yield from iter_dumps(item, level + 1)
        yield end + "]"
    else:
        # JSON text holds no raw newline (strings escape it), so re-indenting by line is exact
        yield json.dumps(value, indent=2, allow_nan=False).replace("\n", end)


def iter_json(report: Report, ctx: object = None) -> Iterator[str]:
    head = Report([], report.expectations, report.stale, report.shard, unclaimed=report.unclaimed,
                  not_regular=report.not_regular).to_json()  # every key, in order
    head["summary"] = report.summary()
    yield "{"
    for i, (key, value) in enumerate(head.items()):
        yield ("," if i else "") + "\n  " + json.dumps(key) + ": "
        if key != "files":
            yield json.dumps(value, indent=2, allow_nan=False).replace("\n", "\n  ")
        elif not report.files:
            yield "[]"
        else:
            yield "["
            for j, fr in enumerate(report.files):
                # JSON text holds no raw newline (strings escape it), so re-indenting by line is exact
                yield ("," if j else "") + "\n    " + json.dumps(fr.to_json(), indent=2, allow_nan=False).replace(
                    "\n", "\n    ")
            yield "\n  ]"
    yield "\n}\n"


def render_json(report: Report, ctx: object = None) -> str:
    return "".join(iter_json(report))
