"""What a rule witness is, shared by the per-format witness modules (tests/witness_<package>.py, found by the
format's package name).

A witness is a file drawn to break exactly one rule: valid under the rule's profile
but for that one break, with the offset and structural path of the break worked out
while the file is built (from the format's layout, never from the checker's report).
``tests/test_rule_witnesses.py`` checks each one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st


@dataclass(frozen=True)
class Witness:
    """One drawn file and where the rule it breaks must be reported.

    ``offset``/``path``: what a finding of ``rule`` must carry (at least one of its
    findings); ``also``: rules that are allowed to fire at warning level or above beside it
    (the break itself implies them; each is named with the reason where it is drawn)."""

    rule: str
    data: bytes
    profile: str
    offset: int | None
    path: str
    variant: str | None = None
    name: str = "witness"
    also: frozenset[str] = frozenset()
    #: (module, attribute, value): a recspec limit lowered while the file is checked, where the
    #: limit's own rule needs a unit too big for a test (the limits are read at call time for this)
    limits: tuple[tuple[str, str, int], ...] = ()


#: rule id -> a function returning the strategy that draws its witnesses
Witnesses = dict[str, Callable[[], st.SearchStrategy[Witness]]]
