"""A bounded memo: answers kept across files by key, never more than a stated number of them.

The checkers remember what depends on a few bytes alone (a frame's shape, a payload's verdict, a
rule's levels), because a folder's files and a fuzzer's inputs repeat them. Each such memo states
its bound where it is made, with why that number; the memo holds it.
"""

from __future__ import annotations

from typing import TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")


class BoundedMemo(dict[_K, _V]):
    """A dict of at most ``bound`` answers: keeping one more forgets every answer kept before it,
    all at once (no order to keep up on each look-up; a workload that repeats a few keys refills it
    at once). Look-ups are the dict's own (``get``, ``in``, ``[]``); keep answers with :meth:`keep`."""

    __slots__ = ("bound",)

    def __init__(self, bound: int) -> None:
        super().__init__()
        self.bound = bound

    def full(self) -> bool:
        """Whether the next :meth:`keep` of a new key forgets everything first."""
        return len(self) >= self.bound

    def keep(self, key: _K, value: _V) -> _V:
        """``value`` kept under ``key`` (every other answer forgotten first if the memo is full), returned."""
        if len(self) >= self.bound:
            self.clear()
        self[key] = value
        return value
