"""The raSkat signal codec's messages and edges that tools/mutate.py's survivors showed untested:
what a located error's message says (the byte counts and the version word, as the document's layout
gives them), a model holding a version it has no layout for, and a model with more fields than the
v4 layout names (docs/formats/raskat-signal.md: samples are int16, the version word is a
little-endian u16, v3 has 12 fields and v4 13)."""

from __future__ import annotations

import struct

import pytest

from recspec.errors import EncodeError, Malformed, Truncated
from recspec.reference.raskat_signal import Fixed, SignalMsgpack, SignalV2, decode_body, encode_body

V2_HEADER = 47  # the version word and the fixed fields up to the sample count


def test_a_short_sample_run_says_its_byte_counts() -> None:
    body = bytearray(encode_body(SignalV2(2, b"20250624100658", 1, Fixed(1, 0), Fixed(2, 0), Fixed(3, 0), 100, 0,
                                          (1, 2))))
    struct.pack_into("<I", body, V2_HEADER - 4, 7)  # 7 int16 samples said: 14 bytes; 2 there: 4 bytes
    with pytest.raises(Truncated) as e:
        decode_body(bytes(body))
    assert "says 7 samples (14 bytes) but 4 bytes follow" in str(e.value)


def test_an_unknown_version_word_is_read_little_endian_in_the_message() -> None:
    # 02 01: the u16 0x0102 = 258, not 2 (the low byte alone) nor any other combination of the two bytes
    with pytest.raises(Malformed) as e:
        decode_body(b"\x02\x01" + bytes(60))
    assert "unknown version word 258" in str(e.value) and e.value.rule == "RSIG-VERSION-001"


@pytest.mark.parametrize("version", [1, 2, 5])
def test_a_msgpack_model_of_another_version_is_not_encoded(version: int) -> None:
    with pytest.raises(EncodeError, match="version 3 or 4"):
        encode_body(SignalMsgpack(version, ("20250624100658",) + (0,) * 11))


def test_fields_past_the_named_ones_are_encoded_with_their_leads() -> None:
    fields = ("20250624100658", 1, 2.5, 3.5, 4.5, 5, 6, 7, 8.5, 0, 1, (9,), 10, 11)  # 14: one past v4's 13
    sig = SignalMsgpack(4, fields, leads=(("field[13]", 0xCE), ("sample_rate", 0xCE)))
    body = encode_body(sig)
    assert body[:2] == b"\x04\x00"
    assert body.endswith(b"\x0a\xce\x00\x00\x00\x0b")  # threshold 10 as a fixint, field[13] 11 as a uint 32
