"""`recspec drive` judges a read-back case by the profile's value equivalences (recspec/drive/_equivalences.py):
under compat, what `recspec check --profile compat` accepts as the same value; under spec, exact.

The writers here store values the way real writers do and the compat profile accepts: raSkat's C++ writer packs
a whole-number double as a MessagePack integer (RSIG-FIELDS-003), a Matrix-SMT writer stores whole numbers as
integers (docs/formats/matrix-smt.md decision 2: -0.0 becomes 0), NanoVer's Python recorder writes an empty
array as an index array (NANOVER-FRAME-006). Each passes `drive --profile compat` and fails `--profile spec`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from recspec.cli import main
from recspec.drive._cases import compare
from recspec.drive._equivalences import all_equivalences, equivalences_for
from recspec.formats import FORMATS
from recspec.report import Severity

ROOT = Path(__file__).resolve().parents[1]
TESTEES = ROOT / "tests" / "testees"
PY = sys.executable


def _drive(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["drive", *argv[:2], "--json", *argv[2:]])
    return code, json.loads(capsys.readouterr().out)


def _error_rules(report: dict[str, Any]) -> set[str]:
    return {f["rule"] for fr in report["files"] for f in fr["findings"] if f["severity"] == "error"}


@pytest.mark.parametrize("variant", ["v3", "v4"])
def test_a_raskat_writer_packing_whole_doubles_as_integers_passes_compat_and_fails_spec(
        variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    testee = ["--", PY, str(TESTEES / "raskat_whole_int_writer.py"), "{case}", "{out}"]
    code, report = _drive(capsys, "writer", "raskat-signal", "--variant", variant, "--profile", "compat",
                          "--max-examples", "30", "--seed", "1", *testee)
    assert code == 0, report
    code, report = _drive(capsys, "writer", "raskat-signal", "--variant", variant, "--profile", "spec",
                          "--max-examples", "30", "--seed", "1", *testee)
    assert code == 1
    assert {"RSIG-FIELDS-003", "DRIVE-WRITER-006", "DRIVE-WRITER-007"} <= _error_rules(report)


def test_a_matrix_writer_storing_whole_numbers_as_integers_passes_compat(capsys: pytest.CaptureFixture[str]) -> None:
    """The int64 writer loses the sign of -0.0: a mismatch under spec (tests/test_drive.py), the same value under
    compat, whose producer stores whole numbers as int32."""
    code, report = _drive(capsys, "writer", "matrix-smt", "--profile", "compat", "--max-examples", "60",
                          "--max-size", "2", "--seed", "1", "--",
                          PY, str(TESTEES / "matrix_int64_writer.py"), "{case}", "{out}")
    assert code == 0, report


def test_a_nanover_writer_typing_empty_arrays_as_index_passes_compat(capsys: pytest.CaptureFixture[str]) -> None:
    testee = ["--", PY, str(TESTEES / "nanover_guess_writer.py"), "{case}", "{out}"]
    code, report = _drive(capsys, "writer", "nanover", "--variant", "traj", "--profile", "compat", "--max-examples",
                          "20", "--seed", "1", *testee)
    assert code == 0, report
    code, report = _drive(capsys, "writer", "nanover", "--variant", "traj", "--profile", "spec", "--max-examples",
                          "20", "--seed", "1", *testee)
    assert code == 1 and "DRIVE-WRITER-007" in _error_rules(report)


# --- the table, value by value -------------------------------------------------------------------------


def test_spec_has_no_equivalence_and_each_basis_is_below_an_error_under_its_profiles() -> None:
    assert all("spec" not in e.profiles for e in all_equivalences())
    for e in all_equivalences():
        assert e.format in FORMATS and e.explanation
        if e.basis.startswith("docs/"):
            path, anchor = e.basis.split("#")
            assert f'id="{anchor}"' in (ROOT / path).read_text(encoding="utf-8")
            continue
        rule = FORMATS[e.format].load().RULES_BY_ID[e.basis]
        for profile in e.profiles:
            assert rule.level(profile) is not Severity.ERROR, (e.name, profile)
        assert rule.level("spec") is not rule.level("compat") or rule.level("spec") is not Severity.ERROR


def _same(fmt: str, profile: str, expected: Any, actual: Any) -> bool:
    return compare(FORMATS[fmt], expected, actual, (), profile) is None


def test_raskat_whole_doubles_equal_integers_in_double_fields_only() -> None:
    assert _same("raskat-signal", "compat", {"altitude": 150.0}, {"altitude": 150})
    assert _same("raskat-signal", "compat", {"vref": -0.0}, {"vref": 0})
    assert _same("raskat-signal", "compat", {"coordinate_1": 3}, {"coordinate_1": 3.0})
    assert not _same("raskat-signal", "compat", {"altitude": 150.5}, {"altitude": 150})
    assert not _same("raskat-signal", "compat", {"altitude": 150.0}, {"altitude": 151})
    assert not _same("raskat-signal", "compat", {"sample_rate": 1}, {"sample_rate": 1.0})  # an integer field
    assert not _same("raskat-signal", "spec", {"altitude": 150.0}, {"altitude": 150})


def test_matrix_zero_sign_is_one_value_under_compat_only() -> None:
    a = {"frames": [{"time": -0.0}]}
    b = {"frames": [{"time": 0.0}]}
    assert _same("matrix-smt", "compat", a, b) and not _same("matrix-smt", "spec", a, b)
    assert not _same("matrix-smt", "compat", {"x": [1.0]}, {"x": [-1.0]})


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


@pytest.mark.parametrize(("fmt", "variant"), [("nanover", "traj"), ("raskat-signal", "v4"), ("matrix-smt", None),
                                              ("carla", "0.9.15")])
def test_the_reference_codec_passes_compat_with_nothing_excused(fmt: str, variant: str | None,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    pick = ["--variant", variant] if variant else []
    code, report = _drive(capsys, "writer", fmt, *pick, "--profile", "compat", "--max-examples", "10", "--seed", "3",
                          "--", PY, str(TESTEES / "reference_writer.py"), "{case}", "{out}", "compat")
    assert code == 0, report
    assert not report["files"][0].get("known_deviations")
