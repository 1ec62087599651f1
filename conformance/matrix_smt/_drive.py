"""What ``recspec drive`` takes from the Matrix-SMT plugin: the cases a writer is handed, a case path's field,
and the profiles' value equivalences."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recspec.formats import Equivalence

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EQUIVALENCES", "drive_cases", "field_path"]


def _zero_sign(expected: Any, actual: Any, path: str) -> bool:
    """0.0 and -0.0: a whole number stored as int32 loses the sign of zero."""
    return type(expected) is float and type(actual) is float and expected == 0.0 and actual == 0.0


EQUIVALENCES: tuple[Equivalence, ...] = (
    Equivalence("zero-sign", "matrix-smt", frozenset({"compat"}), "docs/formats/matrix-smt.md#decision-2",
                "a whole number may be stored as int32, as the producer does (docs/formats/matrix-smt.md, "
                "decision 2), and int32 has no negative zero: -0.0 and 0.0 are the same value",
                _zero_sign),
)


def drive_cases(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import matrix_cases

    return matrix_cases(max_frames=max_size)


def field_path(path: str) -> str:
    return path  # every key of a Matrix-SMT case is a field name
