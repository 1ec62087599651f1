"""What a format's plugin hands the corpus tools, the shared tests and ``recspec drive``: its seed files
(:class:`Seed`), damaged headers (:class:`HeaderDamage`), equivalences (:class:`Equivalence`) and examples
(:class:`FormatExamples`). Part of the contract of ``recspec.formats``, which gives these names: they live
here so that a command that uses none of them (every `recspec check`, ``--help``) does not build their
classes at start-up (about 2.5 ms; a plugin's ``_seeds``, ``_drive`` and ``_examples`` modules load on first
use too)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Equivalence", "FormatExamples", "HeaderDamage", "Seed"]


@dataclass(frozen=True)
class Seed:
    """One generated corpus file and what recspec must say about it.

    ``expect`` maps a profile to (verdict, the rule ids reported at warning level
    or above, and no others); ``variant`` is the variant the file holds (``None``
    for a format with one layout, or a file not checked with a forced variant)."""

    name: str  # path under corpus/<format id>/
    data: bytes
    variant: str | None = None
    expect: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    description: str = ""


@dataclass(frozen=True)
class HeaderDamage:
    """A valid seed with some of its first bytes overwritten, and what checking it must report (a plugin's
    ``DAMAGED_HEADERS``: files under ``corpus/<id>/damaged/`` whose header no sniffer recognises, so that the
    extension names the format, whose header rule reports the bytes found)."""

    name: str  # under damaged/, with the format's extension
    base: str  # the valid seed it damages
    at: int
    written: bytes
    #: profile -> (verdict, every rule at warning level or above)
    expect: Mapping[str, tuple[str, tuple[str, ...]]]
    description: str
    #: The variant detected from what the damage left (``None``: the header does not say).
    variant: str | None = None


@dataclass(frozen=True)
class Equivalence:
    """Two stored forms of one value that a profile takes as the same, when ``recspec drive`` compares a
    read-back case with the case a writer was given (a plugin's ``EQUIVALENCES``;
    ``recspec/drive/_equivalences.py``)."""

    name: str
    format: str
    profiles: frozenset[str]
    #: why the profile allows it: the rule whose level under ``profiles`` is below an error, or the format
    #: document's decision (its anchor) where the stored form is allowed in every profile
    basis: str
    explanation: str
    #: (expected, actual, JSON path) -> whether ``actual`` is ``expected`` stored the other way
    same: Callable[[Any, Any, str], bool]


@dataclass(frozen=True)
class FormatExamples:
    """What the shared tests take from a format (a plugin's ``EXAMPLES``), so that a new format needs no
    edit to them: facts about the format's own corpus, rules and cases, written by the format's author."""

    #: A file of ``corpus/<id>/valid/`` (its name there).
    valid_file: str
    #: A profile under which every file of ``corpus/<id>/valid/`` is valid.
    valid_profile: str
    #: A rule id ``recspec explain`` is asked about (in any case) and words its explanation holds.
    explain: tuple[str, tuple[str, ...]]
    #: A check of the whole seed corpus reports more distinct rule ids than this.
    corpus_rules_more_than: int
    #: ``(name, rule)``: a file of ``corpus/<id>/invalid/`` that is invalid under the format's default profile,
    #: and the one rule it breaks there (its ``manifest.json`` entry's).
    invalid_file: tuple[str, str] = ("", "")
    #: How the default cross-check of a long run (more than ``RUN_SAMPLE_FROM`` files) samples this format's
    #: files: ``"default"``, the shared rule (conformance/_plugin.py ``run_sampled_out``: about 1 file in
    #: ``RUN_SAMPLE`` by a hash of its path, and every malformed file); ``"own"``, a rule of the format's own,
    #: tested in its own tests; ``"none"``, every file is read.
    run_sample: str = "default"
    #: ``(path, value)`` pairs the reference dump of ``valid_file`` holds (``recspec dump``; a path is
    #: dot-separated keys and list indices, ``packets.0.kind``), and the same for the Kaitai dump (``--ksy``).
    dump_facts: tuple[tuple[str, Any], ...] = ()
    ksy_dump_facts: tuple[tuple[str, Any], ...] = ()
    #: ``(variant, encode options)``: what the case round-trip property is run on (every variant, and
    #: each set of encoder options that writes another form).
    case_targets: tuple[tuple[str | None, Mapping[str, Any]], ...] = ((None, {}),)
    #: variant -> a Hypothesis strategy of small valid cases of that variant that the format can hold.
    small_cases: Callable[[str | None], Any] | None = None
    #: A malformed case and the JSON path of its first fault (``CaseError.path``).
    malformed_case: tuple[Mapping[str, Any], str] | None = None
    #: The rules no generated corpus file can break (no ``invalid/<RULE>`` file), each with why.
    unseeded_rules: Mapping[str, str] = field(default_factory=dict)
