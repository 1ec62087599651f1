"""The extension is evidence of a raSkat .sig file (tests/test_extension_evidence.py): a file whose header is
damaged is reported as raSkat, malformed, with a finding at or before a damaged byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_extension_evidence import damaged_header_report

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: generated valid files; the header is 17 bytes (the version word and the 14-digit time)
BASES = [CORPUS / "raskat-signal/valid/v3-writer.sig", CORPUS / "raskat-signal/valid/v2-writer.sig",
         CORPUS / "raskat-signal/valid/v4.tar.xz.sig"]
HEADER = 17


@pytest.mark.parametrize("path", BASES, ids=[p.name for p in BASES])
@settings(deadline=None)
@given(data=st.data())
def test_a_damaged_header_is_reported_as_the_format_its_extension_names(path: Path, data: st.DataObject) -> None:
    damaged_header_report("raskat-signal", path, HEADER, ".sig", data)
