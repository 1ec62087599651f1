"""The profile's value equivalences: which read-back values ``recspec drive`` takes as the case's own.

A writer is judged by what its file is under ``--profile``. Under ``compat``,
``recspec check`` accepts some ways of storing a value that read back as a
different case value (a whole-number double packed as an integer, an empty
array of another kind: each format's rules say which). Comparing the read-back
case exactly would report those files as holding another case, which the
profile says they do not. Under ``spec`` the comparison is exact.

Each format's plugin declares its own (``EQUIVALENCES``, ``conformance/<package>/_drive.py``; a
``recspec.formats.Equivalence`` each); this module gathers them. Each entry names the rule or
decision it follows, the profiles it holds under, and the test of one pair of
values (at one JSON path of the case). An equivalence holds only where its
basis (a rule) is not an error under the profile (``tests/test_drive_equivalences.py``
holds the table to the catalogs), so a writer that passes ``check --profile
P`` on every file it wrote and reads back as the case under P's equivalences
passes ``drive --profile P``. The README's "Validating your writer or reader"
and docs/testees/README.md list them; ``recspec drive --help`` too.
"""

from __future__ import annotations

from functools import cache

from recspec.formats import FORMATS, Equivalence

__all__ = ["Equivalence", "all_equivalences", "equivalences_for"]


@cache
def all_equivalences() -> tuple[Equivalence, ...]:
    """Every equivalence of every registered format. ``spec`` has none: under spec the read-back case must
    be the case."""
    return tuple(e for info in FORMATS.values() for e in info.load().EQUIVALENCES)


def equivalences_for(format_id: str, profile: str) -> tuple[Equivalence, ...]:
    """The equivalences in force for a format under a profile (none under spec)."""
    return tuple(e for e in FORMATS[format_id].load().EQUIVALENCES if profile in e.profiles)
