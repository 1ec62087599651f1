"""`recspec drive` judges a read-back NanoVer case by the profile's value equivalences
(tests/test_drive_equivalences.py): NanoVer's Python recorder writes an empty array as an index array
(NANOVER-FRAME-006), which passes `drive --profile compat` and fails `--profile spec`."""

from __future__ import annotations

from typing import Any

from test_drive_equivalences import PY, _error_rules, _same, reference_codec_passes_compat

from helpers import TESTEES, drive_report
from recspec.drive._equivalences import equivalences_for


def test_a_nanover_writer_typing_empty_arrays_as_index_passes_compat() -> None:
    testee = ["--", PY, str(TESTEES / "nanover_guess_writer.py"), "{case}", "{out}"]
    code, report = drive_report("writer", "nanover", "--variant", "traj", "--profile", "compat", "--max-examples",
                                "20", "--seed", "1", *testee)
    assert code == 0, report
    code, report = drive_report("writer", "nanover", "--variant", "traj", "--profile", "spec", "--max-examples",
                                "20", "--seed", "1", *testee)
    assert code == 1 and "DRIVE-WRITER-007" in _error_rules(report)


def test_nanover_empty_arrays_and_float_residue_ids_under_compat() -> None:
    def frame(arrays: dict[str, Any]) -> dict[str, Any]:
        return {"records": [{"frame": {"arrays": arrays}}]}

    empty_names, empty_index = frame({"particle.names": {"string": []}}), frame({"particle.names": {"index": []}})
    assert _same("nanover", "compat", empty_names, empty_index)
    assert not _same("nanover", "compat", frame({"particle.names": {"string": ["C"]}}),
                     frame({"particle.names": {"index": [0]}}))
    assert not _same("nanover", "spec", empty_names, empty_index)
    ids = frame({"residue.ids": {"string": ["1", "12"]}})
    assert _same("nanover", "compat", ids, frame({"residue.ids": {"float": [1.0, 12.0]}}))
    assert not _same("nanover", "compat", ids, frame({"residue.ids": {"float": [1.0, 12.5]}}))
    assert not _same("nanover", "compat", ids, frame({"residue.ids": {"index": [1, 12]}}))  # another kind: FRAME-004
    assert not _same("nanover", "spec", ids, frame({"residue.ids": {"float": [1.0, 12.0]}}))
    assert [e.name for e in equivalences_for("carla", "compat")] == []


def test_the_reference_codec_passes_compat_with_nothing_excused() -> None:
    reference_codec_passes_compat("nanover", "traj")
