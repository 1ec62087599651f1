"""What `recspec drive` takes from the raSkat plugin (conformance/raskat_signal/_drive.py): the field a case path
names (the case path without its indices: README.md, "drive"), the cases a writer is handed, and the compat
profile's value equivalence (RSIG-FIELDS-003): a whole-number double in a double field read back as an
integer."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import find, settings
from hypothesis.errors import NoSuchExample
from test_drive_equivalences import _same

from recspec.conformance.raskat_signal import _drive as raskat_drive
from recspec.drive._cases import field_path
from recspec.formats import FORMATS


def test_a_field_path_is_the_case_path_without_its_indices() -> None:
    assert field_path(FORMATS["raskat-signal"], "samples[7]") == "samples"


@pytest.mark.parametrize(("expected", "actual"), [(float("inf"), 5), (1.0, True), (-2.0, -1)])
def test_raskat_whole_doubles_only_equal_their_integer(expected: float, actual: Any) -> None:
    assert not _same("raskat-signal", "compat", {"altitude": expected}, {"altitude": actual})


def _samples_found(variant: str, max_size: int, at_least: int) -> bool:
    """Whether a case drawn for ``drive --max-size max_size`` holds ``at_least`` samples (a search of 300)."""
    try:
        find(raskat_drive.drive_cases(variant, "compat", max_size), lambda c: len(c["samples"]) >= at_least,
             settings=settings(max_examples=300, database=None), random=random.Random(0))
    except NoSuchExample:
        return False
    return True


@pytest.mark.parametrize(("max_size", "most"), [(0, 8), (1, 8), (2, 16)])
def test_a_raskat_case_holds_up_to_8_samples_a_size_step(max_size: int, most: int) -> None:
    """raSkat's plugin reads --max-size as blocks of 8 samples, at least one block (a size of 0 still draws a
    signal with samples): the search finds a case of ``most`` samples, and none of more."""
    assert _samples_found("v4", max_size, most)
    assert not _samples_found("v4", max_size, most + 1)
