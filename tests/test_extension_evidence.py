"""The extension is evidence of a file's format: a recording whose header is damaged is reported as the format
its extension names, malformed, with the header rule that failed and the bytes found, and a damaged byte
that happens to resemble another format's header does not outweigh it.

The damaged-header property runs on each format's own files and header length, in
tests/test_<package>_extension_evidence.py (:func:`damaged_header_report` is its shared part); the
zeroed-file property runs for every extension of every registered format."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st

import recspec
from recspec.formats import FORMATS
from recspec.report import FileReport, Verdict


def _damage(header: int) -> st.SearchStrategy[dict[int, int]]:
    """1 to 3 of the first ``header`` bytes and the values written there (an XOR mask, never 0, so each
    drawn byte changes); drawn small, so a failing example prints in a line."""
    return st.dictionaries(st.integers(0, header - 1), st.integers(1, 255), min_size=1, max_size=3)


def damaged_header_report(fmt: str, path: Path, header: int, extension: str, data: st.DataObject
                          ) -> tuple[FileReport, bytearray, list[int]] | None:
    """Damages 1 to 3 of the first ``header`` bytes of ``path``, checks it named ``recording<extension>`` and
    asserts it is reported as ``fmt``; where the extension decided, that it is malformed or invalid with a
    finding at or before a damaged byte. Returns the report, the damaged bytes and the damaged offsets for the
    format's own assertions, or ``None`` where the content still names the format."""
    damage = data.draw(_damage(header), label="byte offset -> XOR mask")
    damaged = bytearray(path.read_bytes())
    for i, mask in damage.items():
        damaged[i] ^= mask
    spots = list(damage)
    name = "recording" + extension
    report = recspec.check(bytes(damaged), name=name, cross_check="off")
    assert report.format == fmt, (report.format, report.findings)
    assert report.verdict not in (Verdict.UNRECOGNIZED, Verdict.CRASH), report.findings
    if report.evidence.get("format", {}).get("method") != "extension":
        return None  # the content still names the format; the checker judges the damage as any other
    assert report.verdict in (Verdict.MALFORMED, Verdict.INVALID), report.findings
    # a finding (the header rule that failed) is located at or before a damaged byte
    assert any(f.offset is not None and f.offset <= max(spots) for f in report.findings), report.findings
    return report, damaged, spots


#: (a file name with one of the format's extensions, the format) for every extension of every registered format
ZEROED = [(f"recording{ext}", info.id) for info in FORMATS.values() for ext in info.extensions]


@pytest.mark.parametrize(("name", "fmt"), ZEROED)
def test_a_zeroed_file_is_the_format_its_extension_names(name: str, fmt: str) -> None:
    report = recspec.check(bytes(64), name=name)
    assert (report.format, report.verdict) == (fmt, Verdict.MALFORMED)
    assert report.evidence["format"] == {"method": "extension", "extension": Path(name).suffix,
                                         "content": "the first bytes are no format's recognised header"}


def test_without_an_extension_unclaimed_bytes_stay_unrecognised() -> None:
    report = recspec.check(bytes(64), name="notes.txt")
    assert report.verdict is Verdict.UNRECOGNIZED and report.findings[0].rule == "RECSPEC-UNRECOGNIZED"
