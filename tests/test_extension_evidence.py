"""The extension is evidence of a file's format: a recording whose header is damaged is reported as the format
its extension names, malformed, with the header rule that failed and the bytes found, and a damaged byte
that happens to resemble another format's header does not outweigh it."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import recspec
from helpers import SHIPPED_REAL
from recspec.report import Verdict

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: format -> real and generated valid files, and how many leading bytes are its header
#: (CARLA: u16 version, u16 length, the 14-byte magic; NanoVer: u64 magic, u64 version; raSkat: the
#: version word and the 14-digit time; BSON: the document length, the first element's type and name).
BASES = {
    "carla": ([SHIPPED_REAL / "carla_0910_DistanceToLaneCenter.log", CORPUS / "carla/valid/0.9.15.log"], 18),
    "nanover": ([SHIPPED_REAL / "sim-switching-test-recording.state", SHIPPED_REAL / "hello_vel.traj",
                 CORPUS / "nanover/valid/small.traj"], 16),
    "raskat-signal": ([CORPUS / "raskat-signal/valid/v3-writer.sig", CORPUS / "raskat-signal/valid/v2-writer.sig",
                       CORPUS / "raskat-signal/valid/v4.tar.xz.sig"], 17),
    "matrix-smt": ([CORPUS / "matrix-smt/valid/spec.bson"], 13),
}
EXTENSION = {"carla": ".log", "raskat-signal": ".sig", "matrix-smt": ".bson"}
CASES = [(fmt, path) for fmt, (paths, _) in BASES.items() for path in paths]


def _damage(header: int) -> st.SearchStrategy[dict[int, int]]:
    """1 to 3 of the first ``header`` bytes and the values written there (an XOR mask, never 0, so each
    drawn byte changes); drawn small, so a failing example prints in a line."""
    return st.dictionaries(st.integers(0, header - 1), st.integers(1, 255), min_size=1, max_size=3)


@pytest.mark.parametrize(("fmt", "path"), CASES, ids=[f"{fmt}:{p.name}" for fmt, p in CASES])
@settings(deadline=None)
@given(data=st.data())
def test_a_damaged_header_is_reported_as_the_format_its_extension_names(fmt: str, path: Path,
                                                                        data: st.DataObject) -> None:
    damage = data.draw(_damage(BASES[fmt][1]), label="byte offset -> XOR mask")
    damaged = bytearray(path.read_bytes())
    for i, mask in damage.items():
        damaged[i] ^= mask
    spots = list(damage)
    name = "recording" + EXTENSION.get(fmt, path.suffix)
    report = recspec.check(bytes(damaged), name=name, cross_check="off")
    assert report.format == fmt, (report.format, report.findings)
    assert report.verdict not in (Verdict.UNRECOGNIZED, Verdict.CRASH), report.findings
    if report.evidence.get("format", {}).get("method") != "extension":
        return  # the content still names the format; the checker judges the damage as any other
    assert report.verdict in (Verdict.MALFORMED, Verdict.INVALID), report.findings
    # a finding (the header rule that failed) is located at or before a damaged byte
    assert any(f.offset is not None and f.offset <= max(spots) for f in report.findings), report.findings
    first = report.findings[0]
    if fmt == "nanover" and any(i < 8 for i in spots):  # the magic: its found value in hex
        assert first.rule == "NANOVER-HEADER-001"
        assert f"0x{struct.unpack_from('<Q', damaged)[0]:016x}" in first.message
    if fmt == "carla" and any(4 <= i < 18 for i in spots) and damaged[2:4] == b"\x0e\x00":
        magic = next(f for f in report.findings if f.rule == "CARLA-HEADER-001")
        assert repr(bytes(damaged[4:18]).decode("ascii", "surrogateescape")) in magic.message


@pytest.mark.parametrize(("name", "fmt"), [("session.state", "nanover"), ("run.log", "carla"),
                                           ("strike.sig", "raskat-signal"), ("scene.bson", "matrix-smt")])
def test_a_zeroed_file_is_the_format_its_extension_names(name: str, fmt: str) -> None:
    report = recspec.check(bytes(64), name=name)
    assert (report.format, report.verdict) == (fmt, Verdict.MALFORMED)
    assert report.evidence["format"] == {"method": "extension", "extension": Path(name).suffix,
                                         "content": "the first bytes are no format's recognised header"}


def test_a_header_a_sniffer_recognises_outweighs_the_extension() -> None:
    carla = (CORPUS / "carla/valid/0.9.15.log").read_bytes()
    report = recspec.check(carla, name="misnamed.state")
    assert (report.format, report.verdict) == ("carla", Verdict.VALID)
    assert "format" not in report.evidence


def test_without_an_extension_unclaimed_bytes_stay_unrecognised() -> None:
    report = recspec.check(bytes(64), name="notes.txt")
    assert report.verdict is Verdict.UNRECOGNIZED and report.findings[0].rule == "RECSPEC-UNRECOGNIZED"
