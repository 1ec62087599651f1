"""`recspec drive` judges a read-back raSkat case by the profile's value equivalences
(tests/test_drive_equivalences.py): raSkat's C++ writer packs a whole-number double as a MessagePack integer
(RSIG-FIELDS-003), which passes `drive --profile compat` and fails `--profile spec`."""

from __future__ import annotations

import pytest
from test_drive_equivalences import PY, _error_rules, _same, reference_codec_passes_compat

from helpers import TESTEES, drive_report


@pytest.mark.parametrize("variant", ["v3", "v4"])
def test_a_raskat_writer_packing_whole_doubles_as_integers_passes_compat_and_fails_spec(variant: str) -> None:
    testee = ["--", PY, str(TESTEES / "raskat_whole_int_writer.py"), "{case}", "{out}"]
    code, report = drive_report("writer", "raskat-signal", "--variant", variant, "--profile", "compat",
                                "--max-examples", "30", "--seed", "1", *testee)
    assert code == 0, report
    code, report = drive_report("writer", "raskat-signal", "--variant", variant, "--profile", "spec",
                                "--max-examples", "30", "--seed", "1", *testee)
    assert code == 1
    assert {"RSIG-FIELDS-003", "DRIVE-WRITER-006", "DRIVE-WRITER-007"} <= _error_rules(report)


def test_raskat_whole_doubles_equal_integers_in_double_fields_only() -> None:
    assert _same("raskat-signal", "compat", {"altitude": 150.0}, {"altitude": 150})
    assert _same("raskat-signal", "compat", {"vref": -0.0}, {"vref": 0})
    assert _same("raskat-signal", "compat", {"coordinate_1": 3}, {"coordinate_1": 3.0})
    assert not _same("raskat-signal", "compat", {"altitude": 150.5}, {"altitude": 150})
    assert not _same("raskat-signal", "compat", {"altitude": 150.0}, {"altitude": 151})
    assert not _same("raskat-signal", "compat", {"sample_rate": 1}, {"sample_rate": 1.0})  # an integer field
    assert not _same("raskat-signal", "spec", {"altitude": 150.0}, {"altitude": 150})


def test_the_reference_codec_passes_compat_with_nothing_excused() -> None:
    reference_codec_passes_compat("raskat-signal", "v4")
