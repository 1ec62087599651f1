"""Turning decoded values into plain JSON-ready data (dump, reports, cross-check)."""

from __future__ import annotations

import dataclasses
import enum
import math
from typing import Any

__all__ = ["to_plain"]

#: Values that are plain already, by their exact type.
_AS_THEY_ARE = frozenset((str, int, bool, type(None)))


def to_plain(value: Any) -> Any:
    """Dataclasses become dicts (field order kept; a field outside equality only where it is not its
    default), tuples lists, bytes hex,
    enums their names; NaN and infinities become strings so the JSON stays
    standard (``"NaN"``, ``"Infinity"``, ``"-Infinity"``)."""
    kind = type(value)
    if kind in _AS_THEY_ARE:  # the most common values first (exact types: no subclass, no enum)
        return value
    # a container's plain members are kept here, without a call each: most of a report's data is strings
    # and numbers in dicts and lists (detection's nine candidates, three plain values each, on every input)
    if kind is dict:
        return {k if type(k) is str else str(k): v if type(v) in _AS_THEY_ARE else to_plain(v)
                for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _AS_THEY_ARE else to_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # a field of how the value was written (outside equality: NanoVer's order) shows only where it says
        # something, so a canonical file's dump is the content alone
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.compare or getattr(value, f.name) != f.default}
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    return value
