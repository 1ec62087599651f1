"""A malformed raSkat file is decoded once by the reference, not again by its cross-check.

Without ``--variant`` the check decodes a file as the reference's ``decode`` does (container, the one
regular member, the body), so the error one of those steps ends with is the error ``decode`` raises
(``tests/test_raskat_signal_properties.py`` holds the two equal on drawn and mutated files). The
default cross-check takes it instead of decoding the file a second time: a tar.xz signal would be
inflated, untarred and its body decoded twice otherwise.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from recspec.conformance.raskat_signal import _format, _xcheck
from recspec.reference.raskat_signal import decode

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "raskat-signal"
XZ_MAGIC = b"\xfd7zXZ\x00"  # the xz stream header's magic bytes (xz file format, section 2.1.1.1)


def _cross_checked(monkeypatch: pytest.MonkeyPatch, data: bytes) -> tuple[object, int]:
    """The report of ``data`` with the default cross-check, and how many times the cross-check decoded it."""
    calls = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return decode(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_xcheck, "decode", counted)
    report = _format.check(io.BytesIO(data), path="x.sig", variant=None, profile="spec", size=len(data),
                           cross_check=True)
    return report, len(calls)


@pytest.mark.parametrize("name, rule", [
    ("RSIG-FIELDS-002.sig", "RSIG-FIELDS-002"),  # the body: nine fields, the draft v3 layout
    ("RSIG-STREAM-001.sig", "RSIG-STREAM-001"),  # the body: cut short
    ("RSIG-TAR-002.sig", "RSIG-TAR-002"),
])
def test_a_tar_xz_signal_that_the_reference_refuses_is_decoded_once(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                    rule: str) -> None:
    data = (CORPUS / "invalid" / name).read_bytes()
    assert data.startswith(XZ_MAGIC)
    with pytest.raises(Exception) as refusal:
        decode(data)
    assert getattr(refusal.value, "rule", None) == rule
    report, decodes = _cross_checked(monkeypatch, data)
    assert decodes == 0
    assert rule in {f.rule for f in report.findings}
    assert report.evidence["cross_check"] == "kaitai: agrees"  # both readers refuse it


def test_a_raw_signal_cut_short_is_decoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (CORPUS / "regressions" / "array-wide-elements-past-end.sig").read_bytes()
    assert not data.startswith(XZ_MAGIC)
    report, decodes = _cross_checked(monkeypatch, data)
    assert decodes == 0
    assert "RSIG-STREAM-001" in {f.rule for f in report.findings}


def test_a_forced_variant_still_decodes_the_file_as_the_reference_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``--variant`` the check reads the body in that layout, not as ``decode`` does: the cross-check
    decodes the file itself."""
    data = (CORPUS / "invalid" / "RSIG-FIELDS-002.sig").read_bytes()
    calls = []
    monkeypatch.setattr(_xcheck, "decode", lambda *a, **k: calls.append(a) or decode(*a, **k))
    _format.check(io.BytesIO(data), path="x.sig", variant="v3", profile="spec", size=len(data), cross_check=True)
    assert len(calls) == 1
