"""Lossless cases of Matrix-SMT recordings (tests/test_case_lossless.py): drawn files of either form, whole
numbers stored as integers in a spec file, Scene1.bson as the producer's compat form, the real file byte for
byte."""

from __future__ import annotations

import struct
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_case_lossless import _SETTINGS, _through_the_case, real_file_comes_back

from helpers import real_file
from recspec.formats import FORMATS
from recspec.strategies import (
    matrix_files,
    matrix_recordings,
)


@pytest.mark.parametrize("valid", [True, False], ids=["valid", "invalid"])
@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_matrix_drawn_files_of_either_form_come_back_byte_for_byte(profile: str, valid: bool) -> None:
    @_SETTINGS
    @given(matrix_files(profile, max_frames=3, valid=valid))
    def roundtrip(drawn: tuple[bytes, str]) -> None:
        data, _ = drawn
        again = _through_the_case("matrix-smt", data, None)
        assert again is None or again == data

    roundtrip()


def test_matrix_whole_numbers_stored_as_integers_in_a_spec_file_come_back_byte_for_byte() -> None:
    """BSON stores a number as double (type 0x01), int32 (0x10) or int64 (0x12); a spec writer may store a
    whole frame time as int32: the lossless case names each such number under ``numbers``."""
    codec = FORMATS["matrix-smt"].load_reference()

    @_SETTINGS
    @given(matrix_recordings(min_frames=1, max_frames=3), st.data())
    def roundtrip(rec: Any, data: Any) -> None:
        times = [float(data.draw(st.integers(0, 1000))) for _ in rec.frames]
        frames = tuple(replace(f, time=t) for f, t in zip(rec.frames, times))
        kinds = [data.draw(st.sampled_from(["double", "int32", "int64"])) for _ in frames]
        numbers = tuple((f"frames[{i}].t", k) for i, k in enumerate(kinds) if k != "double")
        file = codec.encode(replace(rec, frames=frames, numbers=numbers or None))
        for (_, kind), t in zip(numbers, (t for t, k in zip(times, kinds) if k != "double")):
            element = (b"\x10t\x00" + struct.pack("<i", int(t)) if kind == "int32"
                       else b"\x12t\x00" + struct.pack("<q", int(t)))
            assert element in file
        assert _through_the_case("matrix-smt", file, None) == file

    roundtrip()


def test_scene1_is_the_producers_compat_form() -> None:
    """Scene1.bson's keys are sorted and its whole numbers int32 (PROVENANCE: four int32 times): the
    lossless case says ``form: compat``; the canonical case, encoded the document's way, is 1,248 bytes
    shorter (whole numbers as 8-byte doubles replace ..., "t" replaces "time")."""
    path = real_file("Scene1.bson")
    codec = FORMATS["matrix-smt"].load_reference()
    rec = codec.decode(path.read_bytes())
    assert codec.to_case(rec)["form"] == "compat"
    canonical = codec.to_case(rec, canonical=True)
    assert "form" not in canonical
    assert path.stat().st_size - len(codec.encode(codec.from_case(canonical))) == 1248


# --- real files ----------------------------------------------------------------------------------

REAL_FILES = ["Scene1.bson"]


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_files_come_back_byte_for_byte_through_recspec_case_and_encode(
        name: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    real_file_comes_back(name, "matrix-smt", tmp_path, capsys)
