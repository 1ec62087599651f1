"""A long run's malformed NanoVer file is cross-checked from the record the check found malformed
(conformance/_plugin.py ``malformed_from``, conformance/nanover/_xcheck.py ``_malformed_tail``).

In a run of more than RUN_SAMPLE_FROM files, every malformed file is cross-checked; one that the path's hash
did not pick is read from its first structural finding: the header, then the record that holds it and every
record after it. The records before it passed the check, as a valid file's records do. What stays as it was:
a file named alone, a short run, ``--cross-check full``, a file the hash picked, a file malformed in its first
record or its header, a file above SAMPLE_ABOVE; and in every case the verdict and the check's own findings.
The record layout the tests cut by is the format document's: a 16-byte header, then records of a u128
timestamp, a u64 payload length and the payload.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import check_in_run, named_for_run_sample
from recspec.conformance import _plugin
from recspec.conformance.corpus import corpus_folder
from recspec.conformance.nanover import _xcheck
from recspec.conformance.nanover._rules import RULES_BY_ID
from recspec.formats import Divergence
from recspec.report import FileReport, Finding, Severity, Verdict

LONG = 10_000  # a run's size past RUN_SAMPLE_FROM
SMALL = (corpus_folder("nanover") / "valid" / "small.traj").read_bytes()
HEADER = 16


def _spans(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each whole record, by the document's layout."""
    out, pos = [], HEADER
    while pos + 24 <= len(data):
        (n,) = struct.unpack_from("<Q", data, pos + 16)
        out.append((pos, pos + 24 + n))
        pos += 24 + n
    return out


SPANS = _spans(SMALL)


def _broken(record: int) -> bytes:
    """small.traj with record ``record``'s payload starting with a tag of wire type 7 (no such type)."""
    start = SPANS[record][0]
    return SMALL[:start + 24] + b"\x0f" + SMALL[start + 25:]


def test_the_corpus_file_has_the_layout_the_tests_cut_by() -> None:
    assert len(SPANS) == 4 and SPANS[-1][1] == len(SMALL)


def test_a_long_run_reads_a_malformed_file_from_its_malformed_record(tmp_path: Path) -> None:
    path = named_for_run_sample(tmp_path, _broken(2), ".traj", picked=False)
    report = check_in_run(path, LONG)
    assert report.verdict is Verdict.MALFORMED
    # the wire type 7 is found at the record's payload (24 bytes after the record's start)
    assert [(f.rule, f.offset) for f in report.findings] == [("NANOVER-PROTO-001", SPANS[2][0] + 24)]
    kept = HEADER + (SPANS[3][1] - SPANS[2][0])  # the header, records 2 and 3
    assert report.evidence["cross_check"].startswith(
        f"kaitai: agrees on a sample of 2 of 4 records ({kept:,} of {len(SMALL):,} bytes: the header and every "
        "record from the one the check found malformed")


@pytest.mark.parametrize("case", ["alone", "short run", "full", "picked", "first record"])
def test_every_record_is_read_where_the_sample_does_not_apply(tmp_path: Path, case: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    data = _broken(0 if case == "first record" else 2)
    path = named_for_run_sample(tmp_path, data, ".traj", picked=case == "picked")
    run_files = {"alone": None, "short run": _plugin.RUN_SAMPLE_FROM}.get(case, LONG)
    report = check_in_run(path, run_files, "full" if case == "full" else True)
    assert report.verdict is Verdict.MALFORMED
    assert report.evidence["cross_check"] == ("kaitai: agrees" if case == "full"
                                              else "kaitai: agrees (every record of this file is in the sample)")


def test_a_file_above_the_whole_reading_size_keeps_its_default_sample(tmp_path: Path) -> None:
    """Above SAMPLE_ABOVE the default already reads a sample of about 1 record in 512; reading every record
    from the malformed one could read more, so the file keeps that sample."""
    start, end = SPANS[1]
    record = SMALL[start:end]
    many = SMALL[:HEADER] + record * (_xcheck.SAMPLE_ABOVE // len(record) + 2)
    bad = many + record[:24] + b"\x0f" + record[25:]
    path = named_for_run_sample(tmp_path, bad, ".traj", picked=False)
    report = check_in_run(path, LONG)
    assert report.verdict is Verdict.MALFORMED
    assert "about 1 record in 512" in report.evidence["cross_check"]


def test_a_divergence_in_the_read_records_is_reported_at_its_offset_in_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = named_for_run_sample(tmp_path, _broken(2), ".traj", picked=False)
    given_data: list[bytes] = []

    def diverges(data: bytes, kind: object, limit: int = 20) -> list[Divergence]:
        given_data.append(data)
        return [Divergence("record 1: values differ", HEADER + (SPANS[3][0] - SPANS[2][0]))]

    monkeypatch.setattr(_xcheck, "differential", diverges)
    report = check_in_run(path, LONG)
    assert given_data == [SMALL[:HEADER] + _broken(2)[SPANS[2][0]:]]
    xcheck = [f for f in report.findings if f.rule == "NANOVER-XCHECK-001"]
    assert [f.offset for f in xcheck] == [SPANS[3][0]]  # record 3 of the file


def _report(verdict: Verdict, *findings: tuple[str, int | None], path: str = "x.traj") -> FileReport:
    return FileReport(path, "nanover", "traj", "spec", verdict,
                      [Finding(rule, Severity.ERROR, "m", offset) for rule, offset in findings])


def _unpicked_path() -> str:
    return next(p for p in (f"f{i}.traj" for i in range(100)) if zlib.crc32(os.fsencode(p)) % 16)


def test_malformed_from_takes_the_first_structural_finding() -> None:
    path = _unpicked_path()
    assert not RULES_BY_ID["NANOVER-TIME-001"].structural and RULES_BY_ID["NANOVER-PROTO-001"].structural
    fr = _report(Verdict.MALFORMED, ("NANOVER-TIME-001", 20), ("NANOVER-PROTO-001", 900),
                 ("NANOVER-STREAM-001", 700), path=path)
    assert _plugin.malformed_from(fr, LONG, RULES_BY_ID) == 700
    assert _plugin.malformed_from(fr, None, RULES_BY_ID) is None
    assert _plugin.malformed_from(fr, _plugin.RUN_SAMPLE_FROM, RULES_BY_ID) is None
    assert _plugin.malformed_from(_report(Verdict.INVALID, ("NANOVER-TIME-001", 20), path=path), LONG,
                                  RULES_BY_ID) is None
    assert _plugin.malformed_from(_report(Verdict.MALFORMED, ("NANOVER-PROTO-001", None), path=path), LONG,
                                  RULES_BY_ID) is None
    picked = next(p for p in (f"f{i}.traj" for i in range(1000)) if zlib.crc32(os.fsencode(p)) % 16 == 0)
    assert _plugin.malformed_from(_report(Verdict.MALFORMED, ("NANOVER-PROTO-001", 900), path=picked), LONG,
                                  RULES_BY_ID) is None


def _without_xcheck(report: FileReport) -> tuple[Verdict, list[tuple[str, int | None, str]]]:
    return report.verdict, [(f.rule, f.offset, f.message) for f in report.findings
                            if f.rule != "NANOVER-XCHECK-001"]


@given(st.data())
def test_the_check_is_the_same_and_the_comparison_starts_at_the_malformed_record(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """On small.traj with bytes changed or cut: the verdict and the check's findings are those of the file
    named alone; a malformed file's comparison findings lie in the records read."""
    buf = bytearray(SMALL)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(HEADER, len(buf) - 1))
        buf[at] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        del buf[data.draw(st.integers(HEADER + 1, len(buf) - 1)):]
    folder = tmp_path_factory.mktemp("m")
    path = named_for_run_sample(folder, bytes(buf), ".traj", picked=False)
    alone, in_run = check_in_run(path, None), check_in_run(path, LONG)
    assert _without_xcheck(in_run) == _without_xcheck(alone)
    start = _plugin.malformed_from(in_run, LONG, RULES_BY_ID)
    if start is not None:
        first = next((s for s, e in _spans(bytes(buf)) + [(len(buf), len(buf) + 1)] if e > start), None)
        for f in in_run.findings:
            if f.rule == "NANOVER-XCHECK-001" and first is not None and first > SPANS[0][0]:
                assert f.offset is None or f.offset >= first or f.offset < HEADER
