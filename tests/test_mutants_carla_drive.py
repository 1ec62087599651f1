"""What `recspec drive` takes from the CARLA plugin (conformance/carla/_drive.py): the field a case path names,
the case path without its indices (README.md, "drive": failures are grouped by verdict, rule and field path)."""

from __future__ import annotations

from recspec.drive._cases import field_path
from recspec.formats import FORMATS


def test_a_field_path_is_the_case_path_without_its_indices() -> None:
    path = "frames[2].packets[0].records[11].location"
    assert field_path(FORMATS["carla"], path) == "frames.packets.records.location"
