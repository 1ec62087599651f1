"""What ``recspec drive`` takes from the NanoVer plugin: the cases a writer is handed, a case path's field
(a frame's and a state update's keys are data, not field names), and the profiles' value equivalences."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from recspec.formats import Equivalence

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EQUIVALENCES", "drive_cases", "field_path"]

_FRAME_ARRAY = re.compile(r"records\[\d+\]\.frame\.arrays\.(.+)")


def _array_values(v: Any) -> tuple[str, list[Any]] | None:
    if isinstance(v, Mapping) and len(v) == 1:
        (kind, values), = v.items()
        if kind in ("float", "index", "string") and isinstance(values, list):
            return kind, values
    return None


def _empty_array_any_kind(expected: Any, actual: Any, path: str) -> bool:
    """An empty frame array read back as an empty array of another kind."""
    if not _FRAME_ARRAY.fullmatch(path):
        return False
    a, b = _array_values(expected), _array_values(actual)
    return a is not None and b is not None and not a[1] and not b[1]


def _residue_ids_as_floats(expected: Any, actual: Any, path: str) -> bool:
    """residue.ids written as floats (the Rust server): each float a whole number whose decimal text is the id."""
    m = _FRAME_ARRAY.fullmatch(path)
    if m is None or m.group(1) != "residue.ids":
        return False
    a, b = _array_values(expected), _array_values(actual)
    if a is None or b is None or a[0] != "string" or b[0] != "float" or len(a[1]) != len(b[1]):
        return False
    return all(isinstance(x, float) and math.isfinite(x) and x.is_integer() and str(int(x)) == s
               for s, x in zip(a[1], b[1]))


_COMPAT = frozenset({"compat"})

EQUIVALENCES: tuple[Equivalence, ...] = (
    Equivalence("empty-array-kind", "nanover", _COMPAT, "NANOVER-FRAME-006",
                "an empty frame array may be written as an empty array of another kind, as NanoVer's Python "
                "recorder does (it picks the kind from the first element); NanoVer's readers read an empty list "
                "either way", _empty_array_any_kind),
    Equivalence("residue-ids-as-floats", "nanover", _COMPAT, "NANOVER-FRAME-005",
                "residue.ids may be written as a float array, as NanoVer's Rust server does: the float 12.0 is "
                "the id \"12\"", _residue_ids_as_floats),
)


def drive_cases(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import nanover_cases

    return nanover_cases(variant, max_records=max_size)


#: The open maps: a frame's values and arrays, a state update. Their keys are data, except the standard ones.
_OPEN_MAPS = re.compile(r"(records\.frame\.values|records\.frame\.arrays|records\.update)\.(.*)")


def field_path(path: str) -> str:
    m = _OPEN_MAPS.fullmatch(path)
    if m is None:
        return path
    from ._check import STANDARD_ARRAYS, STANDARD_NUMBERS

    head, rest = m.groups()
    for key in sorted((*STANDARD_ARRAYS, *STANDARD_NUMBERS), key=len, reverse=True):
        if rest == key or rest.startswith(key + "."):
            return f"{head}.{rest}"
    return f"{head}.*"  # any other key: one field, whatever its name and content
