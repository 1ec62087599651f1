"""Lossless cases of raSkat signal files (tests/test_case_lossless.py): drawn files of every version,
MessagePack objects stored wider than they need, the real file byte for byte."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_case_lossless import _SETTINGS, _through_the_case, real_file_comes_back

from recspec.formats import FORMATS
from recspec.reference.raskat_signal import FIELD_NAMES
from recspec.strategies import (
    raskat_files,
    raskat_signals,
)


@pytest.mark.parametrize("valid", [True, False], ids=["valid", "invalid"])
@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_raskat_drawn_files_come_back_byte_for_byte(version: int, valid: bool) -> None:
    codec = FORMATS["raskat-signal"].load_reference()

    @_SETTINGS
    @given(raskat_files(version, max_samples=8, valid=valid), st.integers(0, 8**11 - 1))
    def roundtrip(drawn: tuple[bytes, int, str], mtime: int) -> None:
        data, _, container = drawn
        if container == "tar.xz":  # the member's mtime is the writer's choice too
            data = codec.encode(codec.decode(data), mtime=mtime)
        again = _through_the_case("raskat-signal", data, None)
        assert again is None or again == data

    roundtrip()


@pytest.mark.parametrize("version", [3, 4])
def test_raskat_msgpack_objects_stored_wider_come_back_byte_for_byte(version: int) -> None:
    """MessagePack lets a writer store 5 as uint 32 (ce 00 00 00 05) or a short string as str 8: the
    lossless case names each such lead byte under ``msgpack``."""
    from recspec.reference.raskat_signal import SignalFile, SignalMsgpack

    codec = FORMATS["raskat-signal"].load_reference()
    unsigned = {0xCC: 0xFF, 0xCD: 0xFFFF, 0xCE: 0xFFFFFFFF, 0xCF: 2**64 - 1}

    @_SETTINGS
    @given(raskat_signals(version, max_samples=6), st.data())
    def roundtrip(sig: Any, data: Any) -> None:
        leads = []
        for i, value in enumerate(sig.fields):
            if type(value) is int and value >= 0:
                fits = [lead for lead, top in unsigned.items() if value <= top]
                leads.append((FIELD_NAMES[i], data.draw(st.sampled_from(fits))))
        wide = SignalMsgpack(sig.version, sig.fields, tuple(leads))
        file = codec.encode(SignalFile("raw", wide))
        for _, lead in leads:  # each named field starts with its lead byte
            assert bytes([lead]) in file
        assert _through_the_case("raskat-signal", file, None) == file

    roundtrip()


# --- real files ----------------------------------------------------------------------------------

REAL_FILES = ["signal.v3"]


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_files_come_back_byte_for_byte_through_recspec_case_and_encode(
        name: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    real_file_comes_back(name, "raskat-signal", tmp_path, capsys)
