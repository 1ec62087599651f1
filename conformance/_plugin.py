"""What every format plugin's entry points share: the cross-check gate and the
streamed JSON of ``recspec dump``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from recspec.errors import DecodeError
from recspec.report import FileReport

__all__ = ["cross_check_within", "decode_error_json", "dump_json_stream"]


def cross_check_within(report: FileReport, *, enabled: bool, size: int, limit: int, run: Callable[[], None],
                       reason: str = "") -> None:
    """Run the cross-check ``run`` when it is enabled and the file is within ``limit``
    bytes; above the limit, say in the report's evidence that it was skipped and why."""
    if not enabled:
        return
    if size <= limit:
        run()
    else:
        report.evidence["cross_check"] = (
            f"skipped: {size} bytes is above the cross-check limit of {limit} bytes"
            + (f" ({reason})" if reason else ""))


def decode_error_json(e: DecodeError, *, path: bool = False) -> dict[str, Any]:
    """A decode error as ``dump`` prints it."""
    out: dict[str, Any] = {"rule": e.rule, "message": e.message, "offset": e.offset}
    if path:
        out["path"] = e.path
    return out


def dump_json_stream(out: TextIO, preamble: str, key: str, items: Iterable[Mapping[str, Any]], *,
                     default: Callable[[Any], Any] | None = None) -> None:
    """Write one JSON object whose ``key`` list gets one item per line as ``items``
    yields it (memory does not grow with the file). ``preamble`` is the opening
    text up to the list (``'{"format": ..., \\n'``). A :class:`DecodeError` raised
    by ``items`` ends the list and is written as the object's ``"error"``."""
    out.write(preamble)
    out.write(f' "{key}": [')
    first = True
    error: DecodeError | None = None
    try:
        for entry in items:
            out.write(("\n  " if first else ",\n  ") + json.dumps(entry, default=default))
            first = False
    except DecodeError as e:
        error = e
    out.write("\n ]")
    if error is not None:
        out.write(',\n "error": %s' % json.dumps(decode_error_json(error)))
    out.write("\n}\n")


#: Where every plugin defines the members of the contract (``recspec.formats.FormatModule``):
#: name -> the plugin's submodule. A plugin adds its own extras to these.
CONTRACT_MEMBERS: Mapping[str, str] = {
    "KAITAI": "_format", "MAX_CROSS_CHECK_SIZE": "_format", "check": "_format", "dump": "_format",
    "RULES": "_rules", "RULES_BY_ID": "_rules",
}


def lazy_members(package: str, members: Mapping[str, str] | None = None) -> Callable[[str], Any]:
    """The module ``__getattr__`` of a format plugin: ``STRATEGIES`` (which imports
    Hypothesis) and ``seeds`` (the corpus builders) load on first use, so checking a
    file never pays for them; so does each member of the contract
    (:data:`CONTRACT_MEMBERS`) and each extra name of ``members`` (name -> the plugin's
    submodule that defines it), so that sniffing a file imports only the plugin's
    light ``_sniff`` module, not its checker and reference codec."""
    import importlib
    import sys

    table = {**CONTRACT_MEMBERS, **(members or {})}

    def __getattr__(name: str) -> Any:
        sub = table.get(name)
        if sub is not None:
            value = getattr(importlib.import_module(f"{package}.{sub}"), name)
            setattr(sys.modules[package], name, value)  # the next lookup is a plain attribute
            return value
        if name == "STRATEGIES":
            mod = importlib.import_module(f"{package}._strategies")
            return {n: getattr(mod, n) for n in mod.__all__}
        if name == "seeds":
            return importlib.import_module(f"{package}._seeds").seeds
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
