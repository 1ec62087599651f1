"""The raSkat model and body codec against the document's layout (docs/formats/raskat-signal.md):
which field each property names, the v1/v2 byte layout, and what a located error says (offset,
needed and available bytes). Written to kill the mutants tools/mutate.py found surviving."""

from __future__ import annotations

import struct

import pytest

from recspec.errors import EncodeError, Malformed, Truncated
from recspec.reference.raskat_signal import Fixed, SignalMsgpack, SignalV2, decode_body, encode_body
from recspec.reference.raskat_signal._case import fixed_from_degrees

#: v3/v4 field order, from the document
ORDER = ("time", "microseconds", "coordinate_1", "coordinate_2", "altitude", "sample_rate", "load_ohm", "adc_bits",
         "vref", "flags", "antenna", "samples", "threshold")
V2_HEADER, V1_HEADER = 47, 46  # version word + fixed fields up to the sample count (v1: no flags byte)


def _v4() -> SignalMsgpack:
    return SignalMsgpack.build(time="20250624100658", microseconds=11, coordinate_1=22.5, coordinate_2=33.5,
                               altitude=44.5, sample_rate=55, load_ohm=66, adc_bits=7, vref=8.5, flags=1,
                               antenna=2, samples=(3, 4), threshold=99)


def test_each_property_names_its_field() -> None:
    sig = _v4()
    expected = ("20250624100658", 11, 22.5, 33.5, 44.5, 55, 66, 7, 8.5, 1, 2, (3, 4), 99)
    assert sig.fields == expected
    assert {name: getattr(sig, name) for name in ORDER} == dict(zip(ORDER, expected))


def test_a_v3_signal_has_no_threshold() -> None:
    v3 = SignalMsgpack(3, _v4().fields[:12])
    assert v3.threshold is None and v3.samples == (3, 4)
    short = SignalMsgpack(3, ("20250624100658",))  # a model of fewer fields answers None past them
    assert short.time == "20250624100658" and short.microseconds is None and short.threshold is None


@pytest.mark.parametrize("degrees, parts", [(0.0, (0, 0)), (0.5, (0, 500_000)), (37.25, (37, 250_000)),
                                            (1.0, (1, 0))])
def test_fixed_from_degrees(degrees: float, parts: tuple[int, int]) -> None:
    assert fixed_from_degrees(degrees) == Fixed(*parts)
    assert Fixed(*parts).value == degrees


@pytest.mark.parametrize("degrees", [-0.5, -1.0, float("nan")])
def test_negative_degrees_do_not_fit(degrees: float) -> None:
    with pytest.raises(EncodeError):
        fixed_from_degrees(degrees)


def _v2(samples: tuple[int, ...] = (1000, 1003, 993)) -> SignalV2:
    return SignalV2(2, b"20250624100658", 73755, Fixed(37, 617635), Fixed(55, 755814), Fixed(150, 0), 500_000, 3,
                    samples)


def test_the_v2_layout() -> None:
    body = encode_body(_v2())
    assert body[:2] == b"\x02\x00" and body[2:16] == b"20250624100658"
    assert struct.unpack_from("<IHIHIHIIBI", body, 16) == (73755, 37, 617635, 55, 755814, 150, 0, 500_000, 3, 3)
    assert body[V2_HEADER:] == struct.pack("<3h", 1000, 1003, 993)
    assert decode_body(body) == _v2()


def test_the_v1_layout_is_big_endian_without_flags() -> None:
    v1 = SignalV2(1, b"20250624100658", 5, Fixed(1, 2), Fixed(3, 4), Fixed(5, 6), 7, None, (1, -2))
    body = encode_body(v1)
    assert body[:2] == b"\x01\x00"
    assert struct.unpack_from(">IHIHIHIII", body, 16) == (5, 1, 2, 3, 4, 5, 6, 7, 2)
    assert body[V1_HEADER:] == struct.pack(">2h", 1, -2)
    assert decode_body(body) == v1


@pytest.mark.parametrize("version, header", [(2, V2_HEADER), (1, V1_HEADER)])
def test_a_header_cut_short_says_how_much_is_there(version: int, header: int) -> None:
    body = encode_body(_v2() if version == 2 else SignalV2(1, b"20250624100658", 5, Fixed(1, 2), Fixed(3, 4),
                                                           Fixed(5, 6), 7, None, ()))
    for n in (2, 20, header - 1):
        with pytest.raises(Truncated) as e:
            decode_body(body[:n])
        assert (e.value.offset, e.value.needed, e.value.available, e.value.rule) == (n, header, n, "RSIG-STREAM-001")


def test_a_sample_count_past_the_samples_is_located_at_the_count() -> None:
    body = bytearray(encode_body(_v2()))
    struct.pack_into("<I", body, V2_HEADER - 4, 5)  # 5 samples said, 3 there
    with pytest.raises(Truncated) as e:
        decode_body(bytes(body))
    assert (e.value.offset, e.value.needed, e.value.available, e.value.rule) == (V2_HEADER - 4, 10, 6,
                                                                                  "RSIG-SAMPLES-001")
    assert e.value.path == "num_samples"


def test_bytes_after_the_samples_are_located_after_the_last() -> None:
    body = encode_body(_v2()) + b"\x01"
    with pytest.raises(Malformed) as e:
        decode_body(body)
    assert (e.value.offset, e.value.rule, e.value.path) == (V2_HEADER + 6, "RSIG-STREAM-002", "end")


@pytest.mark.parametrize("word", [0, 5, 0x0100, 0xFFFF])
def test_unknown_version_words(word: int) -> None:
    with pytest.raises(Malformed) as e:
        decode_body(struct.pack("<H", word) + bytes(60))
    assert (e.value.offset, e.value.rule) == (0, "RSIG-VERSION-001")


def test_a_version_word_cut_short() -> None:
    for n in (0, 1):
        with pytest.raises(Truncated) as e:
            decode_body(b"\x03"[:n])
        assert (e.value.offset, e.value.needed, e.value.available) == (0, 2, n)


def test_the_draft_needs_nine_fields_with_the_samples_last() -> None:
    v3 = SignalMsgpack(3, _v4().fields[:12])
    draft = SignalMsgpack(3, v3.fields[:6] + v3.fields[9:12])  # 9 fields, samples last
    with pytest.raises(Malformed) as e:
        decode_body(encode_body(draft), fast_path=False)
    assert e.value.rule == "RSIG-FIELDS-002" and e.value.path == "field[9]"
    not_draft = SignalMsgpack(3, v3.fields[:9])  # 9 fields, the 9th a double: a cut v3
    with pytest.raises(Truncated) as e:
        decode_body(encode_body(not_draft), fast_path=False)
    assert e.value.rule == "RSIG-STREAM-001" and e.value.path == "field[9]:flags"
    eight = SignalMsgpack(3, v3.fields[:5] + v3.fields[9:12])
    with pytest.raises(Truncated) as e:
        decode_body(encode_body(eight), fast_path=False)
    assert e.value.rule == "RSIG-STREAM-001" and e.value.path == "field[8]:vref"


def test_every_version_decodes() -> None:
    v4 = _v4()
    v3 = SignalMsgpack(3, v4.fields[:12])
    v1 = SignalV2(1, b"20250624100658", 5, Fixed(1, 2), Fixed(3, 4), Fixed(5, 6), 7, None, (1, -2))
    for sig in (v1, _v2(), v3, v4):
        for fast_path in (True, False):
            assert decode_body(encode_body(sig), fast_path=fast_path) == sig


@pytest.mark.parametrize("fields", [1, 5, 11])
def test_a_body_cut_between_fields_names_the_next(fields: int) -> None:
    import msgpack

    v3 = SignalMsgpack(3, _v4().fields[:12])
    body = b"\x03\x00" + b"".join(msgpack.packb(x) for x in v3.fields[:fields])
    with pytest.raises(Truncated) as e:
        decode_body(body, fast_path=False)
    assert (e.value.offset, e.value.needed, e.value.available) == (len(body), 1, 0)
    assert e.value.path == f"field[{fields}]:{ORDER[fields]}"
