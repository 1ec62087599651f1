"""`recspec drive` judges a read-back Matrix-SMT case by the profile's value equivalences
(tests/test_drive_equivalences.py): a writer that stores whole numbers as integers (docs/formats/matrix-smt.md
decision 2: -0.0 becomes 0) passes `drive --profile compat`."""

from __future__ import annotations

from test_drive_equivalences import PY, _same, reference_codec_passes_compat

from helpers import TESTEES, drive_report


def test_a_matrix_writer_storing_whole_numbers_as_integers_passes_compat() -> None:
    """The int64 writer loses the sign of -0.0: a mismatch under spec (tests/test_matrix_smt_drive.py), the same
    value under compat, whose producer stores whole numbers as int32."""
    code, report = drive_report("writer", "matrix-smt", "--profile", "compat", "--max-examples", "60",
                                "--max-size", "2", "--seed", "1", "--",
                                PY, str(TESTEES / "matrix_int64_writer.py"), "{case}", "{out}")
    assert code == 0, report


def test_matrix_zero_sign_is_one_value_under_compat_only() -> None:
    a = {"frames": [{"time": -0.0}]}
    b = {"frames": [{"time": 0.0}]}
    assert _same("matrix-smt", "compat", a, b) and not _same("matrix-smt", "spec", a, b)
    assert not _same("matrix-smt", "compat", {"x": [1.0]}, {"x": [-1.0]})


def test_the_reference_codec_passes_compat_with_nothing_excused() -> None:
    reference_codec_passes_compat("matrix-smt", None)
