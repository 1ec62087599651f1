"""What the NanoVer walk keeps between records, bounded (README, "Limits").

The walk's aggregate frame needs, per standard array, only its member kind,
its length and (for the index arrays) its largest index. Keeping the protobuf
container instead would keep the whole message it came from alive (a upb
container holds its message's arena), so a recording whose every standard
array arrives in a different large record would keep all of them in memory:
:func:`shape` keeps the numbers and lets the message go.

The shared state of a ``.state`` recording is kept to check deletions
(NANOVER-STATE-001); :data:`MAX_STATE_KEYS` bounds it (NANOVER-LIMIT-004).
"""

from __future__ import annotations

from collections.abc import Sized
from typing import Any

__all__ = ["INDEX_ARRAYS", "MAX_STATE_KEYS", "ArrayShape", "shape"]

#: Live state keys kept for NANOVER-STATE-001; past this many the walk stops keeping them.
MAX_STATE_KEYS = 65_536

#: The standard arrays whose largest index a consistency rule compares with a count.
INDEX_ARRAYS = frozenset(("bond.pairs", "forces.user.index", "particle.residues", "residue.chains"))


class ArrayShape(Sized):
    """An array's length and, for :data:`INDEX_ARRAYS`, its largest element (-1 when empty)."""

    __slots__ = ("_n", "maximum")

    def __init__(self, n: int, maximum: int) -> None:
        self._n = n
        self.maximum = maximum

    def __len__(self) -> int:
        return self._n


def shape(key: str, values: Any) -> ArrayShape:
    """The shape of a repeated container, taken now (the maximum only where a rule needs it)."""
    n = len(values)
    return ArrayShape(n, (max(values) if n else -1) if key in INDEX_ARRAYS else -1)
