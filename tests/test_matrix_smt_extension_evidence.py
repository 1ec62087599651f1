"""The extension is evidence of a Matrix-SMT recording (tests/test_extension_evidence.py): a .bson whose header
is damaged is reported as Matrix-SMT, malformed, with a finding at or before a damaged byte (a damaged type
byte is reported at its offset even when a damaged key after it runs on: tests/test_matrix_smt_bson_edges.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_extension_evidence import damaged_header_report

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: the header is 13 bytes (the document length, the first element's type and name)
BASES = [CORPUS / "matrix-smt/valid/spec.bson"]
HEADER = 13


@pytest.mark.parametrize("path", BASES, ids=[p.name for p in BASES])
@settings(deadline=None)
@given(data=st.data())
def test_a_damaged_header_is_reported_as_the_format_its_extension_names(path: Path, data: st.DataObject) -> None:
    damaged_header_report("matrix-smt", path, HEADER, ".bson", data)
