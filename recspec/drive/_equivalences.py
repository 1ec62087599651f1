"""The profile's value equivalences: which read-back values ``recspec drive`` takes as the case's own.

A writer is judged by what its file is under ``--profile``. Under ``compat``,
``recspec check`` accepts some ways of storing a value that read back as a
different case value: raSkat's C++ writer packs a whole-number double as a
MessagePack integer (RSIG-FIELDS-003 is info under compat), Matrix-SMT's
producer stores a whole number as int32, which has no negative zero
(docs/formats/matrix-smt.md decision 2), NanoVer's Python recorder writes
every empty array as an index array (NANOVER-FRAME-006 is a warning under
compat). Comparing the read-back case exactly would report those files as
holding another case, which the profile says they do not. Under ``spec`` the
comparison is exact.

This table is the one place they are declared. Each entry names the rule or
decision it follows, the profiles it holds under, and the test of one pair of
values (at one JSON path of the case). An equivalence holds only where its
basis (a rule) is not an error under the profile (``tests/test_drive_equivalences.py``
holds the table to the catalogs), so a writer that passes ``check --profile
P`` on every file it wrote and reads back as the case under P's equivalences
passes ``drive --profile P``. The README's "Validating your writer or reader"
and docs/testees/README.md list them; ``recspec drive --help`` too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["EQUIVALENCES", "Equivalence", "equivalences_for"]


@dataclass(frozen=True)
class Equivalence:
    """Two stored forms of one value that a profile takes as the same."""

    name: str
    format: str
    profiles: frozenset[str]
    #: why the profile allows it: the rule whose level under ``profiles`` is below an error, or the format
    #: document's decision (its anchor) where the stored form is allowed in every profile
    basis: str
    explanation: str
    #: (expected, actual, JSON path) -> whether ``actual`` is ``expected`` stored the other way
    same: Callable[[Any, Any, str], bool]


def _whole_double_as_integer(expected: Any, actual: Any, path: str) -> bool:
    """A v3/v4 double field holding a whole number, read back as a MessagePack integer (or the other way
    round); the integer has no sign of zero, so -0.0 and 0 are the same."""
    if path not in _RASKAT_DOUBLES:
        return False
    pair = (expected, actual) if isinstance(expected, float) else (actual, expected)
    x, n = pair
    return (isinstance(x, float) and type(n) is int and math.isfinite(x) and x.is_integer() and int(x) == n)


_RASKAT_DOUBLES = frozenset({"coordinate_1", "coordinate_2", "altitude", "vref"})


def _zero_sign(expected: Any, actual: Any, path: str) -> bool:
    """0.0 and -0.0: a whole number stored as int32 loses the sign of zero."""
    return type(expected) is float and type(actual) is float and expected == 0.0 and actual == 0.0


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

#: Every equivalence of every format. ``spec`` has none: under spec the read-back case must be the case.
EQUIVALENCES: tuple[Equivalence, ...] = (
    Equivalence("whole-double-as-integer", "raskat-signal", _COMPAT, "RSIG-FIELDS-003",
                "a v3/v4 double field (coordinate_1, coordinate_2, altitude, vref) holding a whole number may be "
                "stored as a MessagePack integer, as raSkat's C++ writer does; 150.0 and 150 are the same value, "
                "and -0.0 is 0", _whole_double_as_integer),
    Equivalence("zero-sign", "matrix-smt", _COMPAT, "docs/formats/matrix-smt.md#decision-2",
                "a whole number may be stored as int32, as the producer does (docs/formats/matrix-smt.md, "
                "decision 2), and int32 has no negative zero: -0.0 and 0.0 are the same value",
                _zero_sign),
    Equivalence("empty-array-kind", "nanover", _COMPAT, "NANOVER-FRAME-006",
                "an empty frame array may be written as an empty array of another kind, as NanoVer's Python "
                "recorder does (it picks the kind from the first element); NanoVer's readers read an empty list "
                "either way", _empty_array_any_kind),
    Equivalence("residue-ids-as-floats", "nanover", _COMPAT, "NANOVER-FRAME-005",
                "residue.ids may be written as a float array, as NanoVer's Rust server does: the float 12.0 is "
                "the id \"12\"", _residue_ids_as_floats),
)


def equivalences_for(format_id: str, profile: str) -> tuple[Equivalence, ...]:
    """The equivalences in force for a format under a profile (none under spec)."""
    return tuple(e for e in EQUIVALENCES if e.format == format_id and profile in e.profiles)
