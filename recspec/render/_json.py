"""The JSON report: the documented contract (README "The JSON report"; schemas/report-1.schema.json).

:func:`iter_json` yields the report a file at a time, so writing the report of a
run over many files never holds the whole text, nor its plain tree, in memory
(``json.dumps`` with ``indent`` runs the pure-Python encoder, which keeps a list of
every token); the text is exactly ``json.dumps(report.to_json(), indent=2)``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from ..report import Report

__all__ = ["iter_json", "render_json"]


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
