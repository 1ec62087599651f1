"""The extension is evidence of a CARLA recorder log (tests/test_extension_evidence.py): a log whose header is
damaged is reported as CARLA, its extension, with the header rule that failed; a header that does not decode
also reports its magic field as found; and a header the sniffer recognises outweighs a wrong extension."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_extension_evidence import damaged_header_report

import recspec
from helpers import SHIPPED_REAL
from recspec.report import Verdict

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: real and generated valid files; the header is 18 bytes (u16 version, u16 length, the 14-byte magic)
BASES = [SHIPPED_REAL / "carla_0910_DistanceToLaneCenter.log", CORPUS / "carla/valid/0.9.15.log"]
HEADER = 18


@pytest.mark.parametrize("path", BASES, ids=[p.name for p in BASES])
@settings(deadline=None)
@given(data=st.data())
def test_a_damaged_header_is_reported_as_the_format_its_extension_names(path: Path, data: st.DataObject) -> None:
    checked = damaged_header_report("carla", path, HEADER, ".log", data)
    if checked is None:
        return
    report, damaged, spots = checked
    if any(4 <= i < 18 for i in spots) and damaged[2:4] == b"\x0e\x00":
        magic = next(f for f in report.findings if f.rule == "CARLA-HEADER-001")
        # the magic is a CARLA string, UTF-8 (docs/formats/carla.md, header): damaged bytes that are UTF-8
        # (0xC3 0x81, "Á") are shown as the character they spell, the others as escapes
        assert repr(bytes(damaged[4:18]).decode("utf-8", "surrogateescape")) in magic.message


def test_a_header_a_sniffer_recognises_outweighs_the_extension() -> None:
    carla = (CORPUS / "carla/valid/0.9.15.log").read_bytes()
    report = recspec.check(carla, name="misnamed.state")
    assert (report.format, report.verdict) == ("carla", Verdict.VALID)
    assert "format" not in report.evidence
