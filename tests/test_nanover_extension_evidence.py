"""The extension is evidence of a NanoVer recording (tests/test_extension_evidence.py): a .traj or .state whose
header is damaged is reported as NanoVer, with the header rule that failed and, for the magic, its found value
in hex."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_extension_evidence import damaged_header_report

from helpers import SHIPPED_REAL

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: real and generated valid files; the header is 16 bytes (u64 magic, u64 version)
BASES = [SHIPPED_REAL / "sim-switching-test-recording.state", SHIPPED_REAL / "hello_vel.traj",
         CORPUS / "nanover/valid/small.traj"]
HEADER = 16


@pytest.mark.parametrize("path", BASES, ids=[p.name for p in BASES])
@settings(deadline=None)
@given(data=st.data())
def test_a_damaged_header_is_reported_as_the_format_its_extension_names(path: Path, data: st.DataObject) -> None:
    checked = damaged_header_report("nanover", path, HEADER, path.suffix, data)
    if checked is None:
        return
    report, damaged, spots = checked
    first = report.findings[0]
    if any(i < 8 for i in spots):  # the magic: its found value in hex
        assert first.rule == "NANOVER-HEADER-001"
        assert f"0x{struct.unpack_from('<Q', damaged)[0]:016x}" in first.message
