"""Frame templates (conformance/nanover/_template.py): frames serialised by the protobuf runtime, and
bytes written by hand from the wire format, matched against a template made from one clean frame.
Both ways of matching are held to the module's claim separately: the template frame's own order on the
payload's bytes (no parse: the skeleton parse is replaced by one that fails the test) and the sorted
skeleton parse (the first way switched off). A map entry's key field (``0a``, a one-byte length, the
key) and a float array's packed run (ValueArray field 1, FloatArray field 1) are read from bytes laid
out by hand. Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import pytest
from build_nanover import frame_entries as entries

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance.nanover._template import FrameTemplate, _float_data, _key
from recspec.reference.nanover import encode_varint

#: The count whose number a rule reads (the template keeps its bytes); the other numbers may change.
LITERAL = frozenset({b"particle.count"})


def frame_msg(index: int, *, count: float = 2.0, time: float = 0.5, floats: tuple[float, ...] = (0.0,) * 6,
              pairs: tuple[int, ...] = (0, 1), name: str = "water", seven: str = "seven!!") -> pb.GetFrameResponse:
    m = pb.GetFrameResponse(frame_index=index)
    v = m.frame.values
    v["particle.count"].number_value = count
    v["system.time"].number_value = time
    v["a.name"].string_value = name
    v["b.seven"].string_value = seven  # a 7-byte string: its entry is as long as a number's
    a = m.frame.arrays
    a["particle.positions"].float_values.values.extend(floats)
    a["bond.pairs"].index_values.values.extend(pairs)
    a["particle.names"].string_values.values.extend(["O", "H"])
    return m


def payload(index_bytes: bytes, fields: list[bytes]) -> bytes:
    body = b"".join(fields)
    return index_bytes + b"\x12" + encode_varint(len(body)) + body


def canonical(index: int, **kw: object) -> bytes:
    return frame_msg(index, **kw).SerializeToString(deterministic=True)  # type: ignore[arg-type]


def fresh() -> FrameTemplate:
    t = FrameTemplate.of(canonical(7), LITERAL)
    assert t is not None
    return t


class _NoParse:
    def ParseFromString(self, data: bytes) -> None:
        raise AssertionError("the template frame's order is matched without a parse")


def ordered_only() -> FrameTemplate:
    t = fresh()
    t._new = _NoParse  # type: ignore[assignment]
    return t


def sorted_only() -> FrameTemplate:
    t = fresh()
    t._ordered = None
    return t


def test_the_runtime_writes_the_entries_as_this_file_lays_them_out() -> None:
    assert canonical(7) == payload(b"\x08\x07", entries(frame_msg(7)))


INDICES = [1, 7, 127, 128, 16_383, 16_384, 2**21, 2**28 - 1, 2**28, 2**32 - 1]


@pytest.mark.parametrize("index", INDICES)
def test_a_frame_in_the_templates_order_is_matched_without_a_parse(index: int) -> None:
    new = canonical(index, time=9.25, floats=(1.0, -1.0, 2.0, 3.0, 4.0, 5.0))
    assert ordered_only().match(new) == index


@pytest.mark.parametrize("index", INDICES)
def test_a_frame_in_any_order_is_matched_by_the_sorted_parse(index: int) -> None:
    m = frame_msg(index, time=-3.0, floats=(7.5,) * 6)
    index_bytes = b"\x08" + encode_varint(index)
    for fields in (entries(m), entries(m)[::-1], entries(m)[1:] + entries(m)[:1]):
        assert sorted_only().match(payload(index_bytes, fields)) == index
        assert fresh().match(payload(index_bytes, fields)) == index


def test_a_frame_index_after_the_frame_is_matched_by_the_sorted_parse() -> None:
    body = b"".join(entries(frame_msg(7)))
    assert fresh().match(b"\x12" + encode_varint(len(body)) + body + b"\x08\x07") == 7


def _rejected() -> list[bytes]:
    e = entries(frame_msg(7))
    return [
        b"",
        canonical(0),                                  # frame 0: a reset, no frame_index on the wire
        payload(b"\x08\x00", e),                       # frame 0 written out
        payload(b"\x08" + encode_varint(2**32), e),    # past uint32
        payload(b"\x08\x87\x00", e),                   # 7, overlong by a byte
        payload(b"\x08" + encode_varint(2**32 - 1), e)[:-1],  # one byte short
        canonical(7)[:-1],
        canonical(7) + b"\x18\x01",                    # an unknown field 3
        canonical(7, count=3.0),                       # a count a rule reads
        canonical(7, name="wateR"),                    # a string, same length
        canonical(7, seven="seven!?"),                 # the last byte of a number-long string
        canonical(7, seven="Seven!!"),
        canonical(7, floats=(0.0,) * 9),               # more floats
        canonical(7, pairs=(1, 0)),                    # an index array's contents
        payload(b"\x09" + bytes(8), e),                # another field where frame_index stands
    ]


@pytest.mark.parametrize("bad", _rejected())
def test_what_is_not_of_the_shape_is_not_matched(bad: bytes) -> None:
    assert fresh().match(bad) is None
    assert sorted_only().match(bad) is None


def test_a_failed_match_keeps_the_templates_order() -> None:
    t = fresh()
    assert t.match(canonical(7, name="wateR")) is None
    t._new = _NoParse  # type: ignore[assignment]
    assert t.match(canonical(8)) == 8


def test_a_key_twice_or_an_entry_without_its_key_makes_no_template() -> None:
    number = b"\x12\x09\x11" + bytes(8)
    with pytest.raises(ValueError):
        FrameTemplate([b"\x0a\x01k" + number, b"\x0a\x01k" + number], [], LITERAL)
    with pytest.raises(ValueError):
        FrameTemplate([number], [], LITERAL)
    twice = b"\x0a\x0e\x0a\x01k" + number
    assert FrameTemplate.of(b"\x08\x01\x12\x1c" + twice + twice, LITERAL) is None
    assert FrameTemplate.of(b"\x08\x01\x12\x0e" + number + b"\x0a\x01k", LITERAL) is None
    assert FrameTemplate.of(b"\x08\x01\x12\x05", LITERAL) is None  # a length past the payload
    assert FrameTemplate.of(b"\x08\x01\x12\x10" + twice, LITERAL) is not None


@pytest.mark.parametrize(("contents", "key"), [
    (b"\x0a\x03abcXYZ", b"abc"),
    (b"\x0a\x03abc", b"abc"),
    (b"\x0a\x00", b""),
    (b"\x0a\x7f" + b"a" * 127, b"a" * 127),
    (b"\x0a\x80\x01" + b"a" * 128, None),  # a two-byte length: not the one-byte form
    (b"\x0a\x05abcd", None),               # cut
    (b"\x0a\x05abc", None),
    (b"\x0a", None),
    (b"", None),
    (b"\x12\x01a", None),                  # the value field first
    (b"\x0b\x01a", None),
])
def test_the_key_field_of_an_entry(contents: bytes, key: bytes | None) -> None:
    assert _key(contents) == key


def _array_entry(**member: list[object]) -> bytes:
    one = pb.FrameData()
    for name, values in member.items():
        getattr(one.arrays["p"], name).values.extend(values)
    if not member:
        one.arrays["p"].SetInParent()
    data = one.SerializeToString()  # FrameData.arrays (0x12), the entry's length, its contents
    for n in (1, 2):
        if data[0] == 0x12 and data[1:1 + n] == encode_varint(len(data) - 1 - n):
            return data[1 + n:]
    raise AssertionError(data.hex())


def test_the_float_run_of_an_arrays_entry() -> None:
    assert _float_data(_array_entry(float_values=[1.0, 2.0, 3.0]), b"p") == 12
    assert _float_data(_array_entry(float_values=[1.0] * 40), b"p") == 160  # lengths of two bytes
    assert _float_data(_array_entry(float_values=[]), b"p") == 0
    assert _float_data(_array_entry(index_values=[1, 2, 3, 4]), b"p") == 0
    assert _float_data(_array_entry(string_values=["abcd"]), b"p") == 0
    assert _float_data(_array_entry(), b"p") == 0
    # by hand: key p, value ValueArray{float_values: FloatArray{values: run}}
    assert _float_data(b"\x0a\x01p\x12\x06\x0a\x04\x0a\x02\x00\x00", b"p") == 0       # 2 bytes: no float
    assert _float_data(b"\x0a\x01p\x12\x07\x0a\x05\x0a\x03\x00\x00\x00", b"p") == 0   # 3 bytes
    assert _float_data(b"\x0a\x01p\x12\x08\x0a\x06\x0a\x04\x00\x00\x80\x3f", b"p") == 4
    assert _float_data(b"\x0a\x01p\x12\x08\x0a\x06\x0a\x04\x00\x00\x80\x3f\x00", b"p") == 0  # a byte after
    assert _float_data(b"\x0a\x01p\x12\x0a\x0a\x06\x0a\x04\x00\x00\x80\x3f\x10\x01", b"p") == 0  # a field after
    assert _float_data(b"\x0a\x01p\x12\x80", b"p") == 0  # a cut length
    assert _float_data(b"\x0a\x01p", b"p") == 0
