"""The raSkat checker's value rules, located where docs/formats/raskat-signal.md puts each field:
the v2 header's offsets (time at 2, microseconds at 16, longitude at 20, latitude at 26, altitude at
32, sample rate at 38, flags at 42, samples from 47), and each v3/v4 field at the offset of its
MessagePack object (computed here with the ``msgpack`` package), with the documented ranges at their
boundaries. Written against the survivors tools/mutate.py found in conformance/raskat_signal/_check.py."""

from __future__ import annotations

import tarfile
from typing import Any

import msgpack
import pytest
from build_raskat_signal import GOOD, field_place, findings, findings_with, msgpack_file, v2
from witness_raskat_signal import tar, xz

from recspec.conformance.raskat_signal._check import check_bytes
from recspec.reference.raskat_signal import Fixed, SignalV2, encode_body


def test_a_good_version_4_file_breaks_no_value_rule() -> None:
    assert findings(msgpack_file(GOOD)[0]) == []


def test_the_v2_header_fields_are_located_at_the_documents_offsets() -> None:
    sig = SignalV2(2, b"20251340100658", 1_000_000, Fixed(10, 1_000_000), Fixed(20, 1_000_000),
                   Fixed(100, 1_000_000), 0, 0x84, (-1, 5))
    found = {(rule, offset, length, path) for rule, offset, length, path, _ in findings(encode_body(sig))}
    assert found == {("RSIG-TIME-001", 2, 14, "time"), ("RSIG-TIME-002", 16, 4, "microseconds"),
                     ("RSIG-COORD-001", 22, 4, "longitude.frac"), ("RSIG-COORD-001", 28, 4, "latitude.frac"),
                     ("RSIG-COORD-001", 34, 4, "altitude.frac"), ("RSIG-RATE-001", 38, 4, "sample_rate"),
                     ("RSIG-FLAGS-001", 42, 1, "flags"), ("RSIG-SAMPLES-002", 47, 2, "samples[0]")}


@pytest.mark.parametrize("i, value, rule", [
    (6, 0, "RSIG-ADC-002"), (6, 0x10000, "RSIG-ADC-002"),  # load resistance 1 .. 65,535 ohm
    (7, 0, "RSIG-ADC-001"), (7, 17, "RSIG-ADC-001"),  # ADC bits 1 .. 16
    (8, 0.0, "RSIG-ADC-003"), (8, 50.5, "RSIG-ADC-003"), (8, float("inf"), "RSIG-ADC-003"),  # vref (0, 50]
    (10, 3, "RSIG-ANTENNA-001"),  # antenna 0, 1 or 2
    (12, 1024, "RSIG-THRESHOLD-001"), (12, -1, "RSIG-THRESHOLD-001"),  # threshold 0 .. 2^10 - 1
    (4, -500.5, "RSIG-COORD-003"), (4, 10_000.5, "RSIG-COORD-003"),  # altitude -500 .. 10,000 m
    (1, 1_000_000, "RSIG-TIME-002"), (5, 0, "RSIG-RATE-001"), (9, 4, "RSIG-FLAGS-001"),
])
def test_a_value_out_of_its_range_is_found_at_its_field(i: int, value: Any, rule: str) -> None:
    found = [(r, o, n, p) for r, o, n, p, _ in findings_with(i, value)]
    assert found == [(rule, *field_place(i, value))]


@pytest.mark.parametrize("i, value", [(6, 1), (6, 0xFFFF), (7, 1), (7, 16), (8, 50.0), (10, 0), (10, 2),
                                      (4, -500.0), (4, 10_000.0), (1, 999_999), (9, 3), (12, 0), (12, 1023)])
def test_a_value_at_the_edge_of_its_range_is_good(i: int, value: Any) -> None:
    fields = list(GOOD)
    fields[i] = value
    if i == 7:  # the samples and the threshold must fit the ADC's codes
        fields[11], fields[12] = [0, 1], 1
    assert findings(msgpack_file(fields)[0]) == []


def test_thresholds_without_a_usable_adc_resolution_are_int16() -> None:
    for threshold, bad in ((0x7FFF, False), (-0x8000, False), (0x8000, True), (-0x8001, True)):
        fields = list(GOOD)
        fields[7], fields[11], fields[12] = 0, [0], threshold  # 0 bits: ADC-001, and no code range
        rules = [r for r, *_ in findings(msgpack_file(fields)[0])]
        assert rules == sorted(["RSIG-ADC-001"] + (["RSIG-THRESHOLD-001"] if bad else []))


def test_samples_outside_the_codes_and_outside_int16_each_at_their_element() -> None:
    fields = list(GOOD)
    fields[11] = [0, 1024, 0x8000, -1, 1023, -0x8001]
    data, offsets = msgpack_file(fields)
    start = offsets[11] + 1  # a fixarray of 6: one byte of header
    sizes = [len(msgpack.packb(x)) for x in fields[11]]
    at = [start + sum(sizes[:k]) for k in range(6)]
    found = [(r, o, n, p) for r, o, n, p, _ in findings(data)]
    assert found == sorted([("RSIG-SAMPLES-003", at[1], sizes[1], "field[11]:samples[1]"),
                            ("RSIG-SAMPLES-004", at[2], sizes[2], "field[11]:samples[2]"),
                            ("RSIG-SAMPLES-003", at[3], sizes[3], "field[11]:samples[3]"),
                            ("RSIG-SAMPLES-004", at[5], sizes[5], "field[11]:samples[5]")])


def test_samples_in_int16_need_no_code_range_without_adc_bits() -> None:
    fields = list(GOOD)
    fields[7], fields[12] = 0, 0
    fields[11] = [-0x8000, 0x7FFF]
    assert [r for r, *_ in findings(msgpack_file(fields)[0])] == ["RSIG-ADC-001"]


def test_a_long_sample_array_is_located_past_its_array_16_header() -> None:
    fields = list(GOOD)
    fields[11] = [1] * 20 + [2000]  # 21 elements: an array 16 (0xdc and a 2-byte count)
    data, offsets = msgpack_file(fields)
    found = [(r, o, p) for r, o, _, p, _ in findings(data)]
    assert found == [("RSIG-SAMPLES-003", offsets[11] + 3 + 20, "field[11]:samples[20]")]


@pytest.mark.parametrize("time, good", [(b"20240229235959", True), (b"20250229100658", False),
                                        (b"20250231100658", False), (b"20250431100658", False),
                                        (b"20251301000000", False), (b"20250101240000", False)])
def test_the_time_is_a_real_calendar_date(time: bytes, good: bool) -> None:
    rules = [(r, o) for r, o, *_ in findings(v2(time=time))]
    assert rules == ([] if good else [("RSIG-TIME-001", 2)])


def test_one_hertz_is_a_sample_rate() -> None:
    assert findings(v2(sample_rate=1)) == []
    assert [(r, o) for r, o, *_ in findings(v2(sample_rate=0))] == [("RSIG-RATE-001", 38)]


def test_each_negative_v2_sample_at_its_two_bytes() -> None:
    found = [(r, o, n, p) for r, o, n, p, _ in findings(v2(samples=(5, -1, 7, -2)))]
    assert found == [("RSIG-SAMPLES-002", 47 + 2, 2, "samples[1]"), ("RSIG-SAMPLES-002", 47 + 6, 2, "samples[3]")]


def test_a_negative_count_field_must_be_a_non_negative_int() -> None:
    report, _ = check_bytes(msgpack_file(["20250624100658", -1, *GOOD[2:]])[0], path="x.sig", variant=None,
                            profile="spec")
    found = [f for f in report.findings if f.rule == "RSIG-FIELDS-001"]
    assert len(found) == 1 and "must be a non-negative int" in found[0].message


@pytest.mark.parametrize("profile, field, value", [
    # 95 degrees is a longitude but not a latitude: in coordinate_1 it breaks the writer's reading (latitude
    # first), in coordinate_2 the document's
    ("spec", 3, 95.0), ("compat", 2, 95.0),
    # 181 degrees is neither: each profile reports the field it reads as the longitude (the other reading's
    # latitude finding is tagged with the other profile), located at that field's MessagePack object
    ("spec", 2, 181.0), ("compat", 3, 181.0),
])
def test_each_profile_reads_its_own_field_as_the_latitude_and_the_longitude(profile: str, field: int,
                                                                           value: float) -> None:
    # the document's order is longitude (coordinate_1), latitude; the writer's is latitude, longitude
    fields = list(GOOD)
    fields[field] = value
    found = [(r, o, n, p) for r, o, n, p, _ in findings(msgpack_file(fields)[0], profile)]
    assert found == [("RSIG-COORD-002", *field_place(field, value))]


def test_a_flags_field_of_another_type_is_only_that() -> None:
    fields = list(GOOD)
    fields[9] = float("inf")
    assert [(r, p) for r, _, _, p, _ in findings(msgpack_file(fields)[0])] == [("RSIG-FIELDS-001",
                                                                                    "field[9]:flags")]


def test_the_lowest_int16_sample_is_outside_the_codes_but_inside_int16() -> None:
    fields = list(GOOD)
    fields[11] = [-0x8000]
    data, offsets = msgpack_file(fields)
    assert [(r, o) for r, o, *_ in findings(data)] == [("RSIG-SAMPLES-003", offsets[11] + 1)]


def test_a_broken_xz_file_is_still_called_a_tar_xz() -> None:
    report, _ = check_bytes(xz(tar(("signal.sig", tarfile.REGTYPE, v2())))[:40], path="x.sig", variant=None,
                            profile="spec")
    assert report.stats["container"] == "tar.xz"


def test_tar_members_located_at_their_header_fields() -> None:
    body = v2()
    data = xz(tar(("extra", tarfile.SYMTYPE, b""), ("C:signal.sig", tarfile.REGTYPE, body)))
    found = [(r, o, n, p) for r, o, n, p, _ in findings(data) if r.startswith("RSIG-TAR")]
    # ustar: the name is the header's first 100 bytes, the typeflag its byte 156; headers are 512 bytes
    assert found == sorted([("RSIG-TAR-003", 156, 1, "tar.entry[0].typeflag"),
                            ("RSIG-TAR-004", 512, 100, "tar.entry[1].name")])


def test_a_reference_voltage_out_of_range_is_named_in_the_message() -> None:
    fields = list(GOOD)
    fields[8] = 60.0
    report, _ = check_bytes(msgpack_file(fields)[0], path="x.sig", variant=None, profile="spec")
    (adc,) = [f for f in report.findings if f.rule == "RSIG-ADC-003"]
    assert "reference voltage 60.0 V" in adc.message


def test_a_one_character_member_name_is_not_a_drive() -> None:
    data = xz(tar(("s", tarfile.REGTYPE, v2())))
    assert [r for r, *_ in findings(data) if r.startswith("RSIG-TAR")] == []
