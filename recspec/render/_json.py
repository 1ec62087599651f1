"""The JSON report: the documented contract (README "The JSON report"; schemas/report-1.schema.json).

:func:`iter_json` yields the report a file at a time, so writing the report of a
run over many files never holds the whole text, nor its plain tree, in memory
(``json.dumps`` with ``indent`` runs the pure-Python encoder, which keeps a list of
every token); the text is exactly ``json.dumps(report.to_json(), indent=2)``.

That encoder also makes a generator step of every token, about half of a small
file's writing in a run of many (``--json`` over a folder). :func:`dumps_indented`
writes the same text with one Python call a container and the C string encoder
for every string, and hands anything else to ``json.dumps`` itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from json.encoder import encode_basestring_ascii
from typing import Any

from ..report import Report

__all__ = ["Lazy", "dumps_indented", "iter_dumps", "iter_json", "render_json"]


class Lazy:
    """A JSON array for :func:`iter_dumps` whose items are made as they are written."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


class _NotPlain(Exception):
    """A value :func:`dumps_indented` leaves to ``json.dumps``."""


_INT_TEXT = int.__repr__  # what json writes for an int
_FLOAT_TEXT = float.__repr__  # and for a finite float
_INFINITY = float("inf")


def dumps_indented(value: Any, end: str = "\n") -> str:
    """``json.dumps(value, indent=2, allow_nan=False).replace("\n", end)``, the same text made faster.

    Only the types ``to_json`` makes are written here: dicts with ``str`` keys, lists, tuples, ``str``,
    ``int``, finite ``float``, ``bool`` and ``None``, each of exactly that type. Anything else (a subclass, a
    non-``str`` key, NaN or an infinity, a cycle, nesting past the interpreter's recursion limit) goes to
    ``json.dumps`` whole, which writes it or raises as it always does."""
    parts: list[str] = []
    append = parts.append

    def write(v: Any, end: str) -> None:
        t = type(v)
        if t is str:
            append(encode_basestring_ascii(v))
        elif t is dict:
            if not v:
                append("{}")
                return
            pad = end + "  "
            sep = "{" + pad
            for key, item in v.items():
                if type(key) is not str:
                    raise _NotPlain
                append(sep + encode_basestring_ascii(key) + ": ")
                write(item, pad)
                sep = "," + pad
            append(end + "}")
        elif t is list or t is tuple:
            if not v:
                append("[]")
                return
            pad = end + "  "
            sep = "[" + pad
            for item in v:
                append(sep)
                write(item, pad)
                sep = "," + pad
            append(end + "]")
        elif t is int:
            append(_INT_TEXT(v))
        elif v is None:
            append("null")
        elif v is True:
            append("true")
        elif v is False:
            append("false")
        elif t is float and v == v and v != _INFINITY and v != -_INFINITY:
            append(_FLOAT_TEXT(v))
        else:
            raise _NotPlain

    try:
        write(value, end)
    except (_NotPlain, RecursionError):
        # JSON text holds no raw newline (strings escape it), so re-indenting by line is exact
        return json.dumps(value, indent=2, allow_nan=False).replace("\n", end)
    return "".join(parts)


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
        yield dumps_indented(value, end)


def iter_json(report: Report, ctx: object = None) -> Iterator[str]:
    head = Report([], report.expectations, report.stale, report.shard, unclaimed=report.unclaimed,
                  not_regular=report.not_regular).to_json()  # every key, in order
    head["summary"] = report.summary()
    yield "{"
    for i, (key, value) in enumerate(head.items()):
        yield ("," if i else "") + "\n  " + json.dumps(key) + ": "
        if key != "files":
            yield dumps_indented(value, "\n  ")
        elif not report.files:
            yield "[]"
        else:
            yield "["
            for j, fr in enumerate(report.files):
                yield ("," if j else "") + "\n    " + dumps_indented(fr.to_json(), "\n    ")
            yield "\n  ]"
    yield "\n}\n"


def render_json(report: Report, ctx: object = None) -> str:
    return "".join(iter_json(report))
