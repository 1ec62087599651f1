"""What ``recspec drive`` takes from the raSkat plugin: the cases a writer is handed, a case path's field, and
the profiles' value equivalences."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from recspec.formats import Equivalence

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EQUIVALENCES", "drive_cases", "field_path"]

_DOUBLES = frozenset({"coordinate_1", "coordinate_2", "altitude", "vref"})


def _whole_double_as_integer(expected: Any, actual: Any, path: str) -> bool:
    """A v3/v4 double field holding a whole number, read back as a MessagePack integer (or the other way
    round); the integer has no sign of zero, so -0.0 and 0 are the same."""
    if path not in _DOUBLES:
        return False
    pair = (expected, actual) if isinstance(expected, float) else (actual, expected)
    x, n = pair
    return (isinstance(x, float) and type(n) is int and math.isfinite(x) and x.is_integer() and int(x) == n)


EQUIVALENCES: tuple[Equivalence, ...] = (
    Equivalence("whole-double-as-integer", "raskat-signal", frozenset({"compat"}), "RSIG-FIELDS-003",
                "a v3/v4 double field (coordinate_1, coordinate_2, altitude, vref) holding a whole number may be "
                "stored as a MessagePack integer, as raSkat's C++ writer does; 150.0 and 150 are the same value, "
                "and -0.0 is 0", _whole_double_as_integer),
)


def drive_cases(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import raskat_cases

    # the document's container is tar.xz; what the raSkat writer (and compat) writes is the raw signal.
    # --max-size counts blocks of 8 samples, at least one (README "drive"): a signal of a few samples says
    # little, and a size of 0 still draws a signal
    version = int(variant[1:]) if variant else None
    return raskat_cases(version, container="tar.xz" if profile == "spec" else "raw",
                        max_samples=8 * max(max_size, 1), negative_coordinates=True)


def field_path(path: str) -> str:
    return path  # every key of a raSkat case is a field name
