"""The raSkat checker (conformance/raskat_signal/_check.py), a second round: the time's digits as the
document's ``%Y%m%d%H%M%S`` has them (ASCII digits only), the v2 coordinates located at their 6-byte
fields (longitude at 20, latitude at 26, altitude at 32: a 2-byte whole part and a 4-byte fraction), a
stored v2 sample of 0 and the antenna's value in its finding (the v3 longitude under each profile is among
tests/test_mutants_raskat_check.py's coordinates). Bodies are packed with the ``msgpack`` package
(tests/build_raskat_signal.py); written against the survivors of tools/mutate.py's sample (seed 7)."""

from __future__ import annotations

import pytest
from build_raskat_signal import GOOD, field_place, findings, findings_with, msgpack_file, v2

from recspec.conformance.raskat_signal._check import check_bytes
from recspec.reference.raskat_signal import Fixed


@pytest.mark.parametrize("time", [b"2025+6+1100658", b"2025 6 1100658", b"+2025062410065", b"2025062410065_"])
def test_a_time_with_signs_spaces_or_other_ascii_is_not_digits(time: bytes) -> None:
    # each piece reads as a number to int() ('+6', ' 6'), but %Y%m%d%H%M%S is 14 digits
    found = [(r, o, n, p) for r, o, n, p, _ in findings(v2(time=time))]
    assert found == [("RSIG-TIME-001", 2, 14, "time")]


@pytest.mark.parametrize(("field", "offset", "value"), [
    ("longitude", 20, Fixed(181, 0)), ("latitude", 26, Fixed(91, 0)), ("altitude", 32, Fixed(10_001, 0)),
])
def test_a_v2_coordinate_out_of_range_covers_its_six_bytes(field: str, offset: int, value: Fixed) -> None:
    rule = "RSIG-COORD-003" if field == "altitude" else "RSIG-COORD-002"
    found = [(r, o, n, p) for r, o, n, p, _ in findings(v2(**{field: value}))]
    assert found == [(rule, offset, 6, field)]


def test_a_stored_v2_sample_of_zero_is_not_negative() -> None:
    assert findings(v2(samples=(0, 1, 0))) == []


def test_the_antenna_finding_names_the_stored_type() -> None:
    fields = list(GOOD)
    fields[10] = 7
    report, _ = check_bytes(msgpack_file(fields)[0], path="x.sig", variant=None, profile="spec")
    (antenna,) = [f for f in report.findings if f.rule == "RSIG-ANTENNA-001"]
    assert antenna.actual == 7 and "antenna type 7 " in antenna.message


@pytest.mark.parametrize("i", [5, 6])  # the sample rate and the load resistance: non-negative ints
@pytest.mark.parametrize("value", [-1, "500000", None, 2.5])
def test_a_count_field_of_another_type_is_one_fields_finding_at_that_field(i: int, value: object) -> None:
    found = [(r, o, n, p) for r, o, n, p, _ in findings_with(i, value)]
    assert found == [("RSIG-FIELDS-001", *field_place(i, value))]


def test_a_variant_asked_for_that_is_not_the_version_word_is_found_at_the_word() -> None:
    data, _ = msgpack_file(GOOD)  # 13 fields: version word 4 (little-endian u16 at 0)
    assert data[:2] == b"\x04\x00"
    report, _ = check_bytes(data, path="x.sig", variant="v3", profile="spec")
    found = [(f.offset, f.length, f.path, f.expected, f.actual) for f in report.findings
             if f.rule == "RSIG-VERSION-001"]
    assert found == [(0, 2, "version", 3, 4)]
    assert report.variant == "v3"
