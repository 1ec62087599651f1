"""What ``recspec drive`` takes from the toy format: the cases a writer is handed, a case path's field, and
the value equivalences (none: a read-back case must be the case under either profile)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from recspec.formats import Equivalence

__all__ = ["EQUIVALENCES", "drive_cases", "field_path"]

EQUIVALENCES: Sequence[Equivalence] = ()


def drive_cases(variant: str | None, profile: str, max_size: int) -> Any:
    """Canonical cases of valid files of at most ``max_size`` records (the toy has one layout)."""
    from ._strategies import toy_cases

    return toy_cases(max_records=max_size)


def field_path(path: str) -> str:
    """A case path's field: the record index dropped (``records[3].value`` -> ``records.value``)."""
    return re.sub(r"\[\d+\]", "", path)
