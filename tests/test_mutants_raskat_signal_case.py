"""raSkat's case codec against facts of the layout (docs/formats/raskat-signal.md), not its own output.

Each case here is written by hand from the case schema's documented fields; the file it must encode to is
packed by hand: v1/v2 with ``struct`` from the layout (version word, 14-byte time, u32 microseconds, three
u16 + u32 coordinates, u32 sample rate, v2's u8 flags, u32 count, i16 samples; v1 big-endian), v3/v4 as the
version word and the fields one after another as MessagePack objects written by the ``msgpack`` package.
"""

from __future__ import annotations

import io
import lzma
import math
import struct
import tarfile
from typing import Any

import jsonschema
import msgpack
import pytest

from recspec._case_json import CaseError
from recspec.errors import EncodeError
from recspec.reference.raskat_signal import (
    CASE_TOLERANCE_CHECKS,
    Fixed,
    SignalFile,
    SignalMsgpack,
    SignalV2,
    case_schema,
    decode,
    encode,
    fixed_from_degrees,
    from_case,
    to_case,
)

_HEAD = {"recspec_case": 2, "format": "raskat-signal"}


def _v2_case(**over: Any) -> dict[str, Any]:
    case = {**_HEAD, "variant": "v2", "container": "raw", "time": "20250624100658", "microseconds": 412345,
            "longitude": 128.012345, "latitude": 70.5, "altitude": 12.0, "sample_rate": 1000000, "flags": 2,
            "samples": [512, 530, 498]}
    case.update(over)
    return case


def _v2_bytes(flags: int = 2, samples: tuple[int, ...] = (512, 530, 498)) -> bytes:
    head = struct.pack("<H14sIHIHIHIIBI", 2, b"20250624100658", 412345, 128, 12345, 70, 500000, 12, 0, 1000000,
                       flags, len(samples))
    return head + struct.pack(f"<{len(samples)}h", *samples)


_V3_FIELDS = ["20250624100658", 412345, 70.54, 128.01, 12.0, 1000000, 50, 10, 3.299999952316284, 2, 1,
              [512, 530, 498]]


def _v3_case(version: int = 4, **over: Any) -> dict[str, Any]:
    names = ("time", "microseconds", "coordinate_1", "coordinate_2", "altitude", "sample_rate", "load_ohm",
             "adc_bits", "vref", "flags", "antenna", "samples", "threshold")
    values = _V3_FIELDS + ([643] if version == 4 else [])
    case = {**_HEAD, "variant": f"v{version}", "container": "raw", **dict(zip(names, values))}
    case.update(over)
    return case


def _v3_bytes(version: int = 4, fields: list[Any] | None = None) -> bytes:
    values = fields if fields is not None else _V3_FIELDS + ([643] if version == 4 else [])
    return struct.pack("<H", version) + b"".join(msgpack.packb(v) for v in values)


# --- v1 / v2 ---------------------------------------------------------------------------------------------


def test_a_v2_case_encodes_to_the_documented_layout_and_back() -> None:
    case = _v2_case()
    assert encode(from_case(case)) == _v2_bytes()
    assert to_case(decode(_v2_bytes())) == case
    assert to_case(decode(_v2_bytes()), canonical=True) == case


def test_a_v1_case_has_no_flags_and_is_big_endian() -> None:
    case = _v2_case(variant="v1")
    del case["flags"]
    data = struct.pack(">H14sIHIHIHIII", 1, b"20250624100658", 412345, 128, 12345, 70, 500000, 12, 0, 1000000, 3)
    data = b"\x01\x00" + data[2:] + struct.pack(">3h", 512, 530, 498)
    assert encode(from_case(case)) == data
    assert to_case(decode(data)) == case
    with pytest.raises(CaseError):  # flags is no v1 field
        from_case({**case, "flags": 2})


def test_v2_field_ranges_are_the_layouts_widths() -> None:
    """u32 microseconds and sample rate, u8 flags, i16 samples: the last value of each fits, one more does not."""
    top = from_case(_v2_case(microseconds=2**32 - 1, sample_rate=2**32 - 1, flags=255, samples=[-32768, 32767]))
    assert (top.signal.microseconds, top.signal.sample_rate, top.signal.flags) == (2**32 - 1, 2**32 - 1, 255)
    assert top.signal.samples == (-32768, 32767)
    low = from_case(_v2_case(microseconds=0, sample_rate=0, flags=0, samples=[]))
    assert (low.signal.microseconds, low.signal.sample_rate, low.signal.flags, low.signal.samples) == (0, 0, 0, ())
    for field, value in (("microseconds", 2**32), ("microseconds", -1), ("sample_rate", 2**32), ("sample_rate", -1),
                         ("flags", 256), ("flags", -1), ("samples", [32768]), ("samples", [-32769])):
        with pytest.raises(CaseError):
            from_case(_v2_case(**{field: value}))


def test_a_v2_coordinate_with_a_million_millionths_or_more_is_its_stored_parts() -> None:
    """Fixed(1, 1_000_000) is 2.0 by value, which the value splits as (2, 0): the lossless case keeps the parts,
    the canonical one the value."""
    sig = SignalV2(2, b"20250624100658", 0, Fixed(1, 1_000_000), Fixed(65535, 2**32 - 1), Fixed(3, 5), 0, 0, ())
    case = to_case(SignalFile("raw", sig))
    assert case["longitude"] == {"int_part": 1, "frac": 1_000_000}
    assert case["latitude"] == {"int_part": 65535, "frac": 2**32 - 1}
    assert case["altitude"] == 3.000005
    canonical = to_case(SignalFile("raw", sig), canonical=True)
    assert canonical["longitude"] == 2.0
    assert canonical["latitude"] == 65535 + (2**32 - 1) / 1e6
    back = from_case(case).signal
    assert (back.longitude, back.latitude, back.altitude) == (Fixed(1, 1_000_000), Fixed(65535, 2**32 - 1),
                                                              Fixed(3, 5))
    for parts in ({"int_part": 65536, "frac": 0}, {"int_part": 0, "frac": 2**32}, {"int_part": -1, "frac": 0},
                  {"int_part": 1}):
        with pytest.raises(CaseError):
            from_case(_v2_case(longitude=parts))


def test_a_v2_coordinate_of_nan_is_refused() -> None:
    """{"nan": ...} is a float case value, and a NaN is no coordinate the parts can hold."""
    with pytest.raises(EncodeError):
        from_case(_v2_case(latitude={"nan": "0x7ff8000000000001"}))


def test_fixed_from_degrees_bounds() -> None:
    assert fixed_from_degrees(0.0) == Fixed(0, 0)  # the lowest value the unsigned parts hold
    assert fixed_from_degrees(0.000001) == Fixed(0, 1)
    assert fixed_from_degrees(65535.0) == Fixed(65535, 0)
    assert fixed_from_degrees(0.999999) == Fixed(0, 999_999)  # the largest frac: millionths, not parts of 999,999
    with pytest.raises(EncodeError, match=r"^latitude is -1e-06"):
        fixed_from_degrees(-0.000001, "latitude")
    with pytest.raises(EncodeError, match=r"^a v2 coordinate is 65536"):
        fixed_from_degrees(65536.0)
    # 0.9999999 rounds to 1_000_000 millionths: no frac of the parts says it
    with pytest.raises(EncodeError, match=r"^longitude is 0\.9999999, not a whole number"):
        fixed_from_degrees(0.9999999, "longitude")
    with pytest.raises(EncodeError, match=r"^a v2 coordinate is 1\.0000001, not a whole number"):
        fixed_from_degrees(1.0000001)


def test_a_time_that_is_not_ascii_has_no_case() -> None:
    sig = SignalV2(2, b"2025062410065\xff", 0, Fixed(0, 0), Fixed(0, 0), Fixed(0, 0), 0, 0, ())
    with pytest.raises(CaseError, match="RSIG-TIME-001") as e:
        to_case(SignalFile("raw", sig))
    assert e.value.path == "time"  # type: ignore[attr-defined]


# --- containers ------------------------------------------------------------------------------------------


def _tar_member(data: bytes) -> tarfile.TarInfo:
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(data))) as tar:
        (member,) = tar.getmembers()
        return member


def test_a_tar_xz_case_keeps_its_member_name_and_mtime() -> None:
    case = _v2_case(container="tar.xz", member="x.sig", mtime=1750759618)
    data = encode(from_case(case))
    assert data[:6] == b"\xfd7zXZ\x00"  # the xz magic
    member = _tar_member(data)
    assert (member.name, member.mtime) == ("x.sig", 1750759618)
    assert to_case(decode(data)) == case
    canonical = to_case(decode(data), canonical=True)
    assert "mtime" not in canonical and canonical["member"] == "x.sig"
    # an mtime of 0 is the default and left out
    zero = _v2_case(container="tar.xz", member="x.sig")
    assert _tar_member(encode(from_case(zero))).mtime == 0
    assert to_case(decode(encode(from_case(zero)))) == zero
    # the mtime field is 11 octal digits
    assert from_case(_v2_case(container="tar.xz", member="x.sig", mtime=8**11 - 1)).mtime == 8**11 - 1
    assert from_case(_v2_case(container="tar.xz", member="x.sig", mtime=0)).mtime == 0
    with pytest.raises(CaseError):
        from_case(_v2_case(container="tar.xz", member="x.sig", mtime=8**11))
    with pytest.raises(CaseError):
        from_case(_v2_case(container="tar.xz", member="x.sig", mtime=-1))


def test_member_and_mtime_of_a_raw_case_are_not_read() -> None:
    sf = from_case(_v2_case(member="x.sig", mtime=5))
    assert (sf.container, sf.member, sf.mtime) == ("raw", None, 0)


def test_a_raw_file_has_no_member_in_its_case() -> None:
    assert "member" not in to_case(decode(_v2_bytes()))


def test_the_container_is_raw_or_tar_xz() -> None:
    assert from_case({k: v for k, v in _v2_case().items() if k != "container"}).container == "raw"
    with pytest.raises(CaseError, match="container") as e:
        from_case(_v2_case(container="zip"))
    assert e.value.path == "container"  # type: ignore[attr-defined]


# --- v3 / v4 ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [3, 4])
def test_a_v3_v4_case_encodes_to_its_msgpack_fields_in_stored_order(version: int) -> None:
    case = _v3_case(version)
    data = _v3_bytes(version)
    assert encode(from_case(case)) == data
    assert to_case(decode(data)) == case


def test_a_v4_field_keeps_its_json_type() -> None:
    """coordinate_1 given as 70 is a MessagePack positive fixint (0x46), given as 70.0 a float 64 (0xcb)."""
    as_int = encode(from_case(_v3_case(coordinate_1=70)))
    fields = _V3_FIELDS[:2] + [70] + _V3_FIELDS[3:] + [643]
    assert as_int == _v3_bytes(4, fields)
    back = to_case(decode(as_int))
    assert back["coordinate_1"] == 70 and isinstance(back["coordinate_1"], int)
    as_float = encode(from_case(_v3_case(coordinate_1=70.0)))
    assert b"\xcb" + struct.pack(">d", 70.0) in as_float
    # a float where the document has an integer stays a float
    assert b"\xcb" + struct.pack(">d", 1.0) in encode(from_case(_v3_case(antenna=1.0)))


def test_non_finite_doubles_only_in_a_doubles_place() -> None:
    data = encode(from_case(_v3_case(vref="Infinity", altitude="-Infinity", coordinate_1="NaN",
                                     coordinate_2={"nan": "0x7ff8000000000001"})))
    body = data[2:]
    assert b"\xcb" + struct.pack(">d", math.inf) in body
    assert b"\xcb" + struct.pack(">d", -math.inf) in body
    assert b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x01" in body
    back = to_case(decode(data))
    assert (back["vref"], back["altitude"], back["coordinate_1"]) == ("Infinity", "-Infinity", "NaN")
    assert back["coordinate_2"] == {"nan": "0x7ff8000000000001"}
    # in a string's place "NaN" is the string, stored as a fixstr of 3 (0xa3)
    assert struct.pack("<H", 4) + msgpack.packb("NaN") == encode(from_case(_v3_case(time="NaN")))[:6]
    # {"nan": ...} outside the doubles is still a NaN double
    assert b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x01" in encode(from_case(_v3_case(
        threshold={"nan": "0x7ff8000000000001"})))
    # a list of values keeps each value's type
    mixed = encode(from_case(_v3_case(samples=[1, 2.5, "a", None, True, [3]])))
    assert msgpack.packb([1, 2.5, "a", None, True, [3]]) in mixed


def test_a_case_value_that_is_no_json_value_is_refused() -> None:
    with pytest.raises(CaseError, match="not a JSON value") as e:
        from_case(_v3_case(antenna={"x": 1}))
    assert e.value.path == "antenna"  # type: ignore[attr-defined]
    with pytest.raises(CaseError, match="not a JSON value") as e:
        from_case(_v3_case(samples=[1, {"x": 1}]))
    assert e.value.path == "samples[1]"  # type: ignore[attr-defined]


def test_a_decoded_value_of_no_json_type_has_no_case() -> None:
    """MessagePack's bin type decodes to bytes, which no case value is."""
    data = _v3_bytes(4, _V3_FIELDS[:10] + [b"\x01"] + _V3_FIELDS[11:] + [643])
    with pytest.raises(CaseError, match="bytes value has no case") as e:
        to_case(decode(data))
    assert e.value.path == "antenna"  # type: ignore[attr-defined]
    nested = _v3_bytes(4, _V3_FIELDS[:11] + [[512, b"\x01"], 643])
    with pytest.raises(CaseError) as e:
        to_case(decode(nested))
    assert e.value.path == "samples[1]"  # type: ignore[attr-defined]


def test_wide_leads_are_kept_by_path() -> None:
    """sample_rate 1000000 written as a uint 32 is the smallest form; 5 as a uint 32 (0xce) is wider than a fixint."""
    fields = [msgpack.packb(v) for v in _V3_FIELDS[:5]] + [b"\xce" + struct.pack(">I", 5)] + [
        msgpack.packb(v) for v in _V3_FIELDS[6:]] + [msgpack.packb(643)]
    data = b"\x04\x00" + b"".join(fields)
    case = to_case(decode(data))
    assert case["sample_rate"] == 5 and case["msgpack"] == {"sample_rate": "0xce"}
    assert "msgpack" not in to_case(decode(data), canonical=True)
    assert encode(from_case(case)) == data
    assert encode(from_case({**case, "msgpack": {"sample_rate": "0XCE"}})) == data
    assert encode(from_case({**case, "msgpack": {}})) == _v3_bytes(4, _V3_FIELDS[:5] + [5] + _V3_FIELDS[6:] + [643])
    assert from_case({**case, "msgpack": {}}).signal.leads is None
    assert "msgpack" not in to_case(decode(_v3_bytes()))


def test_a_lead_byte_may_be_any_byte_0x00_included() -> None:
    """The schema's pattern ``^0[xX][0-9a-fA-F]{2}$`` takes every byte; from_case reads it as that byte."""
    assert from_case(_v3_case(msgpack={"sample_rate": "0x00"})).signal.leads == (("sample_rate", 0),)
    assert from_case(_v3_case(msgpack={"sample_rate": "0xff"})).signal.leads == (("sample_rate", 255),)


@pytest.mark.parametrize("lead", ["0x1", "0xcee", "ce", "1xce", "0xzz", "0x-1", ""])
def test_a_lead_byte_is_0x_and_two_hex_digits(lead: str) -> None:
    with pytest.raises(CaseError, match="a lead byte is 0x and 2 hex digits") as e:
        from_case(_v3_case(msgpack={"sample_rate": lead}))
    assert e.value.path == "msgpack.sample_rate"  # type: ignore[attr-defined]


def test_v3_has_twelve_fields_and_v4_thirteen() -> None:
    with pytest.raises(CaseError):
        from_case(_v3_case(3, threshold=643))
    with pytest.raises(CaseError):
        from_case({k: v for k, v in _v3_case(4).items() if k != "threshold"})
    assert len(from_case(_v3_case(3)).signal.fields) == 12
    assert isinstance(from_case(_v3_case(4)).signal, SignalMsgpack)


# --- the schema and the tolerance ------------------------------------------------------------------------


def test_the_schema_takes_the_cases_above_and_the_layouts_limits() -> None:
    schema = case_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)  # checked once, not per document
    for case in (_v2_case(), _v3_case(3), _v3_case(4),
                 _v2_case(longitude={"int_part": 65535, "frac": 4294967295}, samples=[-32768, 32767], flags=255,
                          microseconds=4294967295, sample_rate=4294967295),
                 _v2_case(longitude={"int_part": 0, "frac": 0}, flags=0, microseconds=0, sample_rate=0,
                          container="tar.xz", member="m", mtime=0),
                 _v2_case(container="tar.xz", member="m", mtime=8**11 - 1, msgpack={"sample_rate": "0xCE"})):
        validator.validate({k: v for k, v in case.items() if k not in _HEAD})
    for bad in (_v2_case(samples=[32768]), _v2_case(samples=[-32769]), _v2_case(flags=256), _v2_case(flags=-1),
                _v2_case(microseconds=2**32), _v2_case(microseconds=-1), _v2_case(sample_rate=2**32),
                _v2_case(longitude={"int_part": 65536, "frac": 0}), _v2_case(longitude={"int_part": -1, "frac": 0}),
                _v2_case(longitude={"int_part": 0, "frac": 2**32}), _v2_case(longitude={"int_part": 0}),
                _v2_case(container="zip"), _v2_case(mtime=8**11), _v2_case(mtime=-1), _v2_case(variant="v3"),
                _v2_case(msgpack={"sample_rate": "0xc"}), _v2_case(msgpack={"sample_rate": "ce"}),
                {k: v for k, v in _v2_case().items() if k != "time"},
                {k: v for k, v in _v3_case(3).items() if k != "samples"}):
        assert not validator.is_valid({k: v for k, v in bad.items() if k not in _HEAD}), bad


def test_the_millionth_floor_tolerance() -> None:
    """A v1/v2 coordinate may come back exactly one millionth below the case's, nowhere else and no further."""
    floor = CASE_TOLERANCE_CHECKS["millionth-floor"]
    assert floor(70.000001, 70.0, "latitude")
    assert floor(128.012345, 128.012344, "longitude")
    assert floor(12.5, 12.499999, "altitude")
    assert not floor(70.0, 70.000001, "latitude")  # above, not below
    assert not floor(70.000002, 70.0, "latitude")  # two millionths
    assert not floor(70.0, 70.0, "latitude")
    assert not floor(70.000001, 70.0, "coordinate_1")  # a v3 double
    assert not floor(70.000001, 70.0, "samples[0]")
    assert not floor({"int_part": 70, "frac": 1}, 70.0, "latitude")
    assert not floor(70.000001, {"int_part": 70, "frac": 0}, "latitude")


def test_the_schema_numbers_the_v3_fields_in_stored_order() -> None:
    """The v3/v4 body stores time first and threshold 13th (docs/formats/raskat-signal.md)."""
    v3 = case_schema()["oneOf"][1]["properties"]
    assert v3["time"]["description"] == "MessagePack field 1"
    assert v3["coordinate_1"]["description"] == "MessagePack field 3"
    assert v3["threshold"]["description"] == "MessagePack field 13"


def test_a_string_in_a_doubles_place_is_a_string_of_the_wrong_type() -> None:
    """Each v3/v4 field keeps its JSON type: a coordinate given as text is written as a MessagePack string."""
    fields = _V3_FIELDS[:2] + ["north"] + _V3_FIELDS[3:] + [643]
    assert encode(from_case(_v3_case(coordinate_1="north"))) == _v3_bytes(4, fields)


def test_stored_parts_take_zero_and_refuse_a_negative_frac() -> None:
    for parts, fixed in (({"int_part": 0, "frac": 1_000_000}, Fixed(0, 1_000_000)),
                         ({"int_part": 5, "frac": 0}, Fixed(5, 0))):
        assert from_case(_v2_case(longitude=parts)).signal.longitude == fixed
    with pytest.raises(CaseError) as e:
        from_case(_v2_case(longitude={"int_part": 1, "frac": -1}))
    assert e.value.path == "longitude.frac"  # type: ignore[attr-defined]
