"""What `recspec drive` takes from each format's plugin (conformance/*/_drive.py): the field a case path
names, the cases a writer is handed, and the compat profile's value equivalences.

* A field path is the case path without its indices (README.md, "drive": failures are grouped by verdict,
  rule and field path); in NanoVer's open maps (a frame's values and arrays, a state update) a key that is
  not a standard one is data, so every such key is one field, ``*``.
* NanoVer's equivalences (NANOVER-FRAME-006, -005): an empty frame array read back as an empty array of
  another kind ("float", "index" or "string"), and residue.ids written as floats, each a whole number whose
  decimal text is the id.
* raSkat's (RSIG-FIELDS-003): a whole-number double in a double field read back as an integer.
"""

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


@pytest.mark.parametrize(("fmt", "path", "field"), [
    ("carla", "frames[2].packets[0].records[11].location", "frames.packets.records.location"),
    ("matrix-smt", "frames[3].states[0].p", "frames.states.p"),
    ("raskat-signal", "samples[7]", "samples"),
    ("nanover", "records[4].timestamp", "records.timestamp"),
])
def test_a_field_path_is_the_case_path_without_its_indices(fmt: str, path: str, field: str) -> None:
    assert field_path(FORMATS[fmt], path) == field


@pytest.mark.parametrize(("path", "field"), [
    ("records[0].frame.values[0].energy.kinetic", "records.frame.values.energy.kinetic"),  # a standard number
    ("records[1].frame.arrays.particle.positions", "records.frame.arrays.particle.positions"),  # a standard array
    ("records[1].frame.arrays.particle.forces.system", "records.frame.arrays.particle.forces.system"),
    ("records[1].frame.arrays.residue.ids.string[3]", "records.frame.arrays.residue.ids.string"),  # inside one
    ("records[2].frame.values.my.own.value", "records.frame.values.*"),
    ("records[2].frame.arrays.particle", "records.frame.arrays.*"),  # a standard key's head alone is data
    ("records[3].update.anything", "records.update.*"),
])
def test_nanover_data_keys_are_one_field(path: str, field: str) -> None:
    assert field_path(FORMATS["nanover"], path) == field


def _frame(arrays: dict[str, Any]) -> dict[str, Any]:
    return {"records": [{"frame": {"arrays": arrays}}]}


def test_an_empty_array_of_another_kind_is_the_same_in_frame_arrays_only() -> None:
    assert _same("nanover", "compat", _frame({"bond.orders": {"float": []}}), _frame({"bond.orders": {"string": []}}))
    update = {"records": [{"update": {"k": {"string": []}}}]}
    assert not _same("nanover", "compat", update, {"records": [{"update": {"k": {"index": []}}}]})


@pytest.mark.parametrize("other", [
    {"bytes": []},  # no such array kind
    {"index": [], "float": []},  # two kinds
    {"index": ""},  # the values are not a list
    ["index"],  # not a map
])
def test_an_empty_array_is_not_the_same_as_what_is_no_array(other: Any) -> None:
    assert not _same("nanover", "compat", _frame({"particle.names": {"string": []}}), _frame({"particle.names": other}))


@pytest.mark.parametrize("floats", [[1.0], [1.0, 12.0, 5.0], [float("inf"), 12.0], [1.0, float("nan")]])
def test_residue_ids_as_floats_are_whole_finite_and_one_for_one(floats: list[float]) -> None:
    assert not _same("nanover", "compat", _frame({"residue.ids": {"string": ["1", "12"]}}),
                     _frame({"residue.ids": {"float": floats}}))


def test_residue_ids_as_floats_only_for_residue_ids_and_strings_read_as_floats() -> None:
    assert _same("nanover", "compat", _frame({"residue.ids": {"string": ["7"]}}),
                 _frame({"residue.ids": {"float": [7.0]}}))
    assert not _same("nanover", "compat", _frame({"chain.names": {"string": ["7"]}}),
                     _frame({"chain.names": {"float": [7.0]}}))
    assert not _same("nanover", "compat", _frame({"residue.ids": {"float": [7.0]}}),
                     _frame({"residue.ids": {"string": ["7"]}}))


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
