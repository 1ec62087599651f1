"""What ``recspec drive`` takes from the CARLA plugin: the cases a writer is handed, a case path's field, and
the profiles' value equivalences (none: a read-back CARLA case must be the case under every profile)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recspec.formats import Equivalence

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["EQUIVALENCES", "drive_cases", "field_path"]

EQUIVALENCES: tuple[Equivalence, ...] = ()


def drive_cases(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from ._strategies import carla_cases

    return carla_cases(variant, max_frames=max_size)


def field_path(path: str) -> str:
    return path  # every key of a CARLA case is a field name
