"""The hand-written BSON layer (reference/matrix_smt/_bson.py and the walker in
_walker.py), on bytes built by hand with struct from the BSON 1.1
specification: every element type, every strictness rule with its rule id and
offset, the encoder, and the streaming walker. The Kaitai parser must accept
and reject the same bytes."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest

from recspec.conformance.matrix_smt._xcheck import KaitaiRejected, differential, kaitai_parse
from recspec.errors import DecodeError, LimitExceeded, Truncated
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import _bson  # private on purpose: MAX_ELEMENTS is read from here at call time


def doc(*elements: bytes) -> bytes:
    body = b"".join(elements)
    return struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"


def el(code: int, key: str, value: bytes) -> bytes:
    return bytes((code,)) + key.encode() + b"\x00" + value


def string(s: str) -> bytes:
    raw = s.encode()
    return struct.pack("<i", len(raw) + 1) + raw + b"\x00"


EVERY_TYPE = doc(
    el(0x01, "d", struct.pack("<d", 1.5)),
    el(0x02, "s", string("h\u00e9")),
    el(0x03, "o", doc(el(0x10, "x", struct.pack("<i", 7)))),
    el(0x04, "a", doc(el(0x10, "0", struct.pack("<i", 1)), el(0x08, "1", b"\x01"))),
    el(0x05, "bin", struct.pack("<i", 3) + b"\x00abc"),
    el(0x05, "old", struct.pack("<i", 6) + b"\x02" + struct.pack("<i", 2) + b"xy"),
    el(0x06, "u", b""),
    el(0x07, "oid", bytes(range(12))),
    el(0x08, "f", b"\x00"),
    el(0x09, "dt", struct.pack("<q", -1)),
    el(0x0A, "n", b""),
    el(0x0B, "re", b"a+\x00i\x00"),
    el(0x0C, "ptr", string("db.c") + bytes(12)),
    el(0x0D, "js", string("f()")),
    el(0x0E, "sym", string("S")),
    el(0x0F, "cws", struct.pack("<i", 4 + 8 + 12) + string("x()") + doc(el(0x10, "v", struct.pack("<i", 1)))),
    el(0x10, "i", struct.pack("<i", -5)),
    el(0x11, "ts", struct.pack("<Q", 2**63)),
    el(0x12, "l", struct.pack("<q", 2**40)),
    el(0x13, "dec", bytes(16)),
    el(0x7F, "max", b""),
    el(0xFF, "min", b""),
)


def test_every_element_type_decodes_to_its_value() -> None:
    d = b.decode_document(EVERY_TYPE)
    m = d.map()
    assert m["d"] == 1.5 and type(m["d"]) is float
    assert m["s"] == "h\u00e9"
    assert m["o"] == b.Document(["x"], [7])
    assert isinstance(m["a"], b.Array) and list(m["a"]) == [1, True] and type(m["a"][1]) is bool
    assert m["bin"] == b.Binary(0, b"abc")
    assert m["old"] == b.Binary(2, struct.pack("<i", 2) + b"xy")
    assert m["u"] == b.Undefined()
    assert m["oid"] == b.ObjectId(bytes(range(12)))
    assert m["f"] is False
    assert m["dt"] == b.DateTime(-1)
    assert m["n"] is None
    assert m["re"] == b.Regex("a+", "i")
    assert m["ptr"] == b.DBPointer("db.c", bytes(12))
    assert m["js"] == b.Code("f()")
    assert m["sym"] == b.Symbol("S")
    assert m["cws"] == b.CodeWithScope("x()", b.Document(["v"], [1]))
    assert m["i"] == -5 and type(m["i"]) is int
    assert m["ts"] == b.Timestamp(2**63)
    assert m["l"] == 2**40 and type(m["l"]) is b.Int64
    assert m["dec"] == b.Decimal128(bytes(16))
    assert m["max"] == b.MaxKey() and m["min"] == b.MinKey()


def test_every_element_type_re_encodes_byte_for_byte() -> None:
    assert b.encode_document(b.decode_document(EVERY_TYPE)) == EVERY_TYPE


def test_the_type_table_agrees_with_the_decoder_and_the_encoder() -> None:
    """BSON_TYPES is the one description of the types: every element decodes to
    its row's class and name, a fixed-size value has its row's size, and the
    encoder writes its row's code."""
    d = b.decode_document(EVERY_TYPE)
    ends = [*d.offsets[1:], len(EVERY_TYPE) - 1]
    codes: set[int] = set()
    for key, value, off, end in zip(d.keys, d.values, d.offsets, ends):
        ty = b.BSON_TYPES[EVERY_TYPE[off]]
        codes.add(ty.code)
        assert type(value) is ty.cls and b.type_name(value) == ty.name, key
        if ty.size is not None:
            assert end - (off + 1 + len(key) + 1) == ty.size, key
        assert b.encode_document(b.Document([key], [value]))[4] == ty.code, key
    assert codes == set(b.BSON_TYPES)
    # the specification's length-prefixed values: string, document, array, binary, DBPointer, code, symbol, code w/s
    assert {c for c, ty in b.BSON_TYPES.items() if ty.length_prefixed} == {2, 3, 4, 5, 12, 13, 14, 15}
    assert len({ty.name for ty in b.BSON_TYPES.values()}) == len(b.BSON_TYPES)


def test_the_three_readers_agree_on_every_type() -> None:
    assert differential(EVERY_TYPE) == []


def test_offsets_are_those_of_the_type_bytes() -> None:
    data = doc(el(0x10, "a", struct.pack("<i", 1)), el(0x02, "bb", string("x")))
    d = b.decode_document(data, base=100)
    assert d.offsets == [104, 104 + 1 + 2 + 4]


def test_typed_tells_stored_widths_apart() -> None:
    assert 1 == 1.0 == b.Int64(1)
    assert len({repr(b.typed(v)) for v in (1, 1.0, b.Int64(1), True)}) == 4
    assert b.typed(float("nan")) == b.typed(float("nan"))


def _reject(data: bytes, rule: str, offset: int) -> DecodeError:
    with pytest.raises(DecodeError) as info:
        b.decode_document(data)
    assert info.value.rule == rule, info.value
    assert info.value.offset == offset, info.value
    with pytest.raises(KaitaiRejected):
        kaitai_parse(data)
    return info.value


# (name, bytes, rule, offset of the fault)
BAD = [
    ("length-below-5", struct.pack("<i", 4) + b"\x00", "MATRIX-BSON-001", 0),
    ("element-past-end", struct.pack("<i", 10) + doc(el(0x10, "i", struct.pack("<i", 1)))[4:],
     "MATRIX-BSON-001", 7),
    ("nested-claims-more", doc(el(0x03, "o", struct.pack("<i", 99) + b"\x00")), "MATRIX-BSON-001", 7),
    ("no-final-nul", doc(el(0x10, "i", struct.pack("<i", 1)))[:-1] + b"\x07", "MATRIX-BSON-001", 11),
    ("unknown-type", doc(el(0x14, "x", b"")), "MATRIX-BSON-002", 4),
    ("type-zero-early", doc(b"\x00\x00\x00"), "MATRIX-BSON-002", 4),
    ("bool-2", doc(el(0x08, "b", b"\x02")), "MATRIX-BSON-003", 7),
    ("string-length-0", doc(el(0x02, "s", struct.pack("<i", 0))), "MATRIX-BSON-004", 7),
    ("string-no-nul", doc(el(0x02, "s", struct.pack("<i", 2) + b"ab")), "MATRIX-BSON-004", 12),
    ("string-not-utf8", doc(el(0x02, "s", struct.pack("<i", 2) + b"\xff\x00")), "MATRIX-BSON-005", 11),
    ("key-not-utf8", doc(b"\x10\xc3\x00" + struct.pack("<i", 1)), "MATRIX-BSON-005", 5),
    ("binary-negative", doc(el(0x05, "b", struct.pack("<i", -1) + b"\x00")), "MATRIX-BSON-001", 7),
    ("binary-old-inner", doc(el(0x05, "b", struct.pack("<i", 5) + b"\x02" + struct.pack("<i", 2) + b"x")),
     "MATRIX-BSON-001", 12),
    ("cws-below-14", doc(el(0x0F, "c", struct.pack("<i", 13) + bytes(9))), "MATRIX-BSON-001", 7),
    ("cws-total-mismatch", doc(el(0x0F, "c", struct.pack("<i", 4 + 5 + 5 + 1) + string("") + doc() + b"\x00")),
     "MATRIX-BSON-001", 7),
    ("trailing", doc() + b"\x00", "MATRIX-BSON-006", 5),
]


@pytest.mark.parametrize(("name", "data", "rule", "offset"), BAD, ids=[c[0] for c in BAD])
def test_strictness(name: str, data: bytes, rule: str, offset: int) -> None:
    _reject(data, rule, offset)
    assert differential(data) == []


def test_truncation_is_its_own_rule() -> None:
    data = doc(el(0x02, "s", string("hello")))
    with pytest.raises(Truncated) as info:
        b.decode_document(data[:-4])
    assert info.value.rule == "MATRIX-BSON-007"


def nested(depth: int) -> bytes:
    inner = doc(el(0x10, "x", struct.pack("<i", 1)))
    for _ in range(depth):
        inner = doc(el(0x03, "d", inner))
    return inner


def test_depth_limit_is_explicit_and_shared_with_the_ksy() -> None:
    b.decode_document(nested(b.MAX_DEPTH))  # the deepest document read: depth 100
    kaitai_parse(nested(b.MAX_DEPTH))
    with pytest.raises(LimitExceeded) as info:
        b.decode_document(nested(b.MAX_DEPTH + 1))
    assert info.value.rule == "MATRIX-LIMIT-001" and info.value.maximum == b.MAX_DEPTH
    with pytest.raises(KaitaiRejected):
        kaitai_parse(nested(b.MAX_DEPTH + 1))
    ksy = Path(__file__).resolve().parents[1] / "ksy" / "bson.ksy"
    assert f"depth <= {b.MAX_DEPTH}" in ksy.read_text(encoding="utf-8")


def test_element_count_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_bson, "MAX_ELEMENTS", 10)
    data = doc(*(el(0x0A, str(i), b"") for i in range(11)))
    with pytest.raises(LimitExceeded) as info:
        b.decode_document(data)
    assert info.value.rule == "MATRIX-LIMIT-003" and info.value.value == 11


def test_encoder_writes_plain_python_values() -> None:
    data = b.encode_document({"a": [1, 2.0], "b": {"c": None}, "big": 2**40})
    assert data == doc(el(0x04, "a", doc(el(0x10, "0", struct.pack("<i", 1)), el(0x01, "1", struct.pack("<d", 2.0)))),
                       el(0x03, "b", doc(el(0x0A, "c", b""))), el(0x12, "big", struct.pack("<q", 2**40)))
    with pytest.raises(ValueError):
        b.encode_document({"a\x00b": 1})


def test_walker_skims_sections_and_streams_entries() -> None:
    frames = doc(*(el(0x03, str(i), doc(el(0x01, "t", struct.pack("<d", i)))) for i in range(3)))
    data = doc(el(0x04, "frames", frames), el(0x04, "objects", doc()))
    w = b.RecordingWalker(io.BytesIO(data))
    sections = list(w.sections())
    assert [(s.key, s.type_code, s.offset) for s in sections] == [("frames", 4, 4), ("objects", 4, 12 + len(frames))]
    entries = list(w.entries(sections[0]))
    assert [e.value.get("t") for e in entries] == [0.0, 1.0, 2.0]
    assert entries[1].offset == 12 + 4 + (len(frames) - 5) // 3
    raw = list(w.entries(sections[0], raw=True))
    assert [b.decode_raw(e, "f") for e in raw] == [e.value for e in entries]
    assert w.value(sections[1]) == b.Array()


def test_walker_reports_truncation_with_the_file_end() -> None:
    frames = doc(*(el(0x03, str(i), doc(el(0x01, "t", struct.pack("<d", i)))) for i in range(3)))
    data = doc(el(0x04, "frames", frames))
    w = b.RecordingWalker(io.BytesIO(data[:30]))
    section = next(iter(w.sections()))
    with pytest.raises(Truncated):
        list(w.entries(section))


@pytest.mark.parametrize(("code", "width", "what"), [(0x01, 8, "a double"), (0x10, 4, "an int32")])
@pytest.mark.parametrize("left", [0, 1, 3])
def test_a_number_running_past_its_document_is_named_where_it_starts(code: int, width: int, what: str,
                                                                     left: int) -> None:
    # the decoder reads a double or an int32 before it compares its end with the document's:
    # a number whose document ends first is still reported as the bounds check would, at the
    # number, with its path, whether bytes of the file follow (inside an outer document) or not
    head = bytes((code,)) + b"x\x00"
    value = bytes(range(1, width + 1))
    cut = head + value[:left]
    inner = struct.pack("<i", 4 + len(cut) + 1) + cut + b"\x00"  # declares `left` bytes of the number
    outer = doc(el(0x03, "o", inner), el(0x10, "after", struct.pack("<i", 5)))
    alone = inner
    for data, path, at in ((outer, "o.x", 4 + 3 + 4 + 3), (alone, "x", 4 + 3)):
        e = _reject(data, "MATRIX-BSON-001", at)
        assert e.path == path
        assert e.message == f"{what} runs past the end of its container ({width} bytes needed, {left} left)"
