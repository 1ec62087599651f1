"""The BSON decoder's strided reading of long arrays (``_Reader.wide_arrays``: an array of at least
``WIDE_ARRAY_MIN`` int32s or doubles under the keys "0", "1", ... read a column of bytes at a time):
on valid bytes and on bytes one edit away it gives exactly what the element-by-element loop gives,
the same values (bit for bit), keys and offsets, or the same error with the same rule, offset and
path; and the checker's reports agree with and without it."""

from __future__ import annotations

import io
import struct
from typing import Any

from build_matrix_smt import decoded_both_ways, document, element, shortcut_off
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import check_stream
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import _bson  # private on purpose: what it reads at call time is patched

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


_PACK = {0x10: struct.Struct("<i").pack, 0x01: struct.Struct("<d").pack}


@st.composite
def _wide_bytes(draw: st.DrawFn) -> bytes:
    """``{p: [x0, x1, ...]}`` of 60 to 1,100 int32s or doubles (across the 2- and 3- and 4-digit keys),
    or one edit away: a type byte, a key byte, the length field, the final NUL, a cut, any byte."""
    code = draw(st.sampled_from([0x10, 0x01]))
    k = draw(st.integers(60, 1100))
    some = draw(st.lists(st.integers(-(2**31), 2**31 - 1) if code == 0x10 else
                         st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1, max_size=8))
    body = bytearray(b"".join(bytes((code,)) + str(i).encode() + b"\x00" + _PACK[code](some[i % len(some)])
                              for i in range(k)))
    length = 4 + len(body) + 1
    tail = b"\x00"
    edit = draw(st.sampled_from(["none", "type", "key", "key", "length", "nul", "cut", "byte", "extra"]))
    if edit in ("type", "key", "byte"):
        at = draw(st.integers(0, len(body) - 1))
        if edit == "type":  # the type byte of an element: walk to it
            at = sum(2 + len(str(i)) + (4 if code == 0x10 else 8) for i in range(draw(st.integers(0, k - 1))))
            body[at] = draw(st.sampled_from([0x01, 0x02, 0x08, 0x10, 0x12, 0x00]))
        elif edit == "key":
            i = draw(st.integers(0, k - 1))
            at = sum(2 + len(str(j)) + (4 if code == 0x10 else 8) for j in range(i)) + 1
            at += draw(st.integers(0, len(str(i))))  # a digit or the NUL after them
            body[at] = draw(st.sampled_from([c for c in b"0159a\x00" if c != body[at]]))
        else:
            body[at] = draw(st.integers(0, 255))
    elif edit == "length":
        length += draw(st.sampled_from([-9, -7, -1, 1, 7]))
    elif edit == "nul":
        tail = draw(st.sampled_from([b"\x01", b""]))
    elif edit == "extra":  # one more element of another type at the end
        body += b"\x08" + str(k).encode() + b"\x00\x01"
        length += 3 + len(str(k))
    array = struct.pack("<i", length) + bytes(body) + tail
    if edit == "cut":
        array = array[:draw(st.integers(0, len(array)))]
    return document(element(0x04, b"p", array))


@SLOW
@given(_wide_bytes())
def test_the_strided_reading_agrees_with_the_loop(data: bytes) -> None:
    fast, loop = decoded_both_ways(data, "wide_arrays")
    assert fast == loop


@SLOW
@given(_wide_bytes())
def test_the_checker_reports_agree_with_and_without_the_strided_reading(data: bytes) -> None:
    states = data[4 + 3:-1]  # the array of _wide_bytes, under the key "states"
    frame = document(element(0x01, b"t", struct.pack("<d", 0.0)), element(0x04, b"states", states))
    frames = document(element(0x03, b"0", frame))
    file = document(element(0x04, b"objects", document()), element(0x04, b"frames", frames))
    report = check_stream(io.BytesIO(file), path="x", profile="spec", fast_path=False)
    with shortcut_off("wide_arrays"):
        again = check_stream(io.BytesIO(file), path="x", profile="spec", fast_path=False)
    assert report == again


def test_the_strided_reading_takes_a_wide_array_and_its_keys_offsets_and_values() -> None:
    values = list(range(-500, 1500))  # 2,000 int32s: keys of 1 to 4 digits
    data = b.encode_document(b.Document.of(("p", b.Array.of_values(values))))
    calls = []
    real = _bson._wide_array

    def counting(*a: Any) -> Any:
        calls.append(a[3])
        return real(*a)

    _bson._wide_array = counting  # type: ignore[assignment]
    try:
        got = b.decode_document(data).get("p")
    finally:
        _bson._wide_array = real  # type: ignore[assignment]
    assert calls == [0x10]
    assert got.values == values and got.keys == [str(i) for i in range(2000)]
    # the array's elements start after its 4-byte length: the document's 4, the element's type, "p\0"
    first = 4 + 1 + 2 + 4
    assert got.offsets[:3] == [first, first + 7, first + 14]  # "\x10" "0" "\0" and 4 bytes: 7 each
    assert got.offsets[10] == first + 70 and got.offsets[11] == first + 78  # key "10": 8 bytes
    fast, loop = decoded_both_ways(data, "wide_arrays")
    assert fast == loop


def test_the_element_limit_names_the_same_place(monkeypatch: Any) -> None:
    data = b.encode_document(b.Document.of(("p", b.Array.of_values([0] * 100))))
    for limit in (101, 100, 99):
        monkeypatch.setattr(_bson, "MAX_ELEMENTS", limit)
        fast, loop = decoded_both_ways(data, "wide_arrays")
        assert fast == loop
        assert (fast[0] if fast[0] == "ok" else (fast[2], fast[5])) == \
            ("ok" if limit == 101 else ("MATRIX-LIMIT-003", "" if limit == 100 else "p"))
