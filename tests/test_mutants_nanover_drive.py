"""What `recspec drive` takes from the NanoVer plugin (conformance/nanover/_drive.py): the field a case path
names and the compat profile's value equivalences.

* A field path is the case path without its indices (README.md, "drive": failures are grouped by verdict,
  rule and field path); in NanoVer's open maps (a frame's values and arrays, a state update) a key that is
  not a standard one is data, so every such key is one field, ``*``.
* The equivalences (NANOVER-FRAME-006, -005): an empty frame array read back as an empty array of another
  kind ("float", "index" or "string"), and residue.ids written as floats, each a whole number whose decimal
  text is the id.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_drive_equivalences import _same

from recspec.drive._cases import field_path
from recspec.formats import FORMATS


def test_a_field_path_is_the_case_path_without_its_indices() -> None:
    assert field_path(FORMATS["nanover"], "records[4].timestamp") == "records.timestamp"


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
