"""The NanoVer reference codec from one case table, fed whole, byte by byte and
with trailing junk; the aggregation semantics; the wire walk's limits."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recspec.errors import DecodeError, LimitExceeded, Malformed, Truncated
from recspec.reference.nanover import (
    MAX_NESTING,
    UNSET,
    Array,
    ArrayKind,
    Frame,
    FrameAggregate,
    Kind,
    Record,
    RecordReader,
    StateAggregate,
    StateUpdate,
    _framing,
    decode_payload,
    encode_frame,
    encode_state_update,
    merged,
    read_header,
    scan,
)

MAGIC = bytes.fromhex("e3b78999c4e3715c")

# (message, wire bytes written by hand from the field table of the research notes)
CASES = [
    (Frame(0), b"\x12\x00"),  # a reset frame: index 0 left out, frame present
    (Frame(5), b"\x08\x05\x12\x00"),
    (Frame(0, {"a": False}), b"\x12\x09\x0a\x07\x0a\x01a\x12\x02\x20\x00"),  # false written explicitly
    (Frame(0, {"a": None}), b"\x12\x09\x0a\x07\x0a\x01a\x12\x02\x08\x00"),
    (Frame(0, {}, {"f": Array(ArrayKind.FLOAT, ())}), b"\x12\x09\x12\x07\x0a\x01f\x12\x02\x0a\x00"),
    (Frame(0, {}, {"i": Array(ArrayKind.INDEX, ())}), b"\x12\x09\x12\x07\x0a\x01i\x12\x02\x12\x00"),
    (Frame(0, {}, {"i": Array(ArrayKind.INDEX, (1, 300))}),
     b"\x12\x0e\x12\x0c\x0a\x01i\x12\x07\x12\x05\x0a\x03\x01\xac\x02"),
    (Frame(0, {}, {"s": Array(ArrayKind.STRING, ("N", ""))}),
     b"\x12\x0e\x12\x0c\x0a\x01s\x12\x07\x1a\x05\x0a\x01N\x0a\x00"),
    (StateUpdate(), b"\x0a\x00"),
    (StateUpdate({"k": 1.0}), b"\x0a\x10\x0a\x0e\x0a\x01k\x12\x09\x11" + struct.pack("<d", 1.0)),
]


def _kind(msg: object) -> Kind:
    return Kind.TRAJ if isinstance(msg, Frame) else Kind.STATE


@pytest.mark.parametrize("msg,wire", CASES, ids=[w.hex() for _, w in CASES])
def test_encode(msg: object, wire: bytes) -> None:
    assert (encode_frame(msg) if isinstance(msg, Frame) else encode_state_update(msg)) == wire  # type: ignore[arg-type]


@pytest.mark.parametrize("msg,wire", CASES, ids=[w.hex() for _, w in CASES])
def test_decode(msg: object, wire: bytes) -> None:
    assert decode_payload(_kind(msg), wire) == msg


class _Trickle(io.RawIOBase):
    """A raw stream that returns one byte per read."""

    def __init__(self, data: bytes) -> None:
        self._data, self._pos = data, 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        out = self._data[self._pos:self._pos + 1]
        self._pos += len(out)
        return out


def _file(records: list[tuple[int, bytes]]) -> bytes:
    return MAGIC + struct.pack("<Q", 2) + b"".join(struct.pack("<QQQ", t, 0, len(p)) + p for t, p in records)


@pytest.mark.parametrize("feed", ["whole", "bytewise"])
def test_reader_whole_and_byte_by_byte(feed: str) -> None:
    data = _file([(i, w) for i, (_, w) in enumerate(CASES[:8])])
    f = io.BytesIO(data) if feed == "whole" else _Trickle(data)
    read_header(f)  # type: ignore[arg-type]
    recs = list(RecordReader(f, 16, len(data)))  # type: ignore[arg-type]
    assert [(r.timestamp_us, r.payload) for r in recs] == [(i, w) for i, (_, w) in enumerate(CASES[:8])]


def test_trailing_junk_is_a_truncation_naming_the_last_record() -> None:
    data = _file([(7, b"\x12\x00")]) + b"\x01\x02\x03"
    f = io.BytesIO(data)
    read_header(f)
    reader = RecordReader(f, 16, len(data))
    with pytest.raises(Truncated) as e:
        list(reader)
    assert e.value.offset == 42 and "record[0] at offset 16" in e.value.message and "3 bytes remain" in e.value.message


class _Chunky(io.RawIOBase):
    """A raw stream that returns at most ``step`` bytes per read and cannot seek."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data, self._pos, self._step = data, 0, step

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        out = self._data[self._pos:self._pos + min(n, self._step)]
        self._pos += len(out)
        return out


def _framed(data: bytes) -> tuple[list[tuple[int, int, bytes]], str | None]:
    """The records of ``data`` (after its header) walked by hand, and the truncation's message, if any."""
    f = io.BytesIO(data)
    read_header(f)
    reader = RecordReader(f, 16, len(data))
    got = []
    try:
        for raw in reader:
            got.append((raw.offset, raw.timestamp_us, raw.payload))
    except Truncated as e:
        return got, e.message
    return got, None


@given(st.lists(st.tuples(st.integers(0, 2**70), st.sampled_from([0, 1, 7, 23, 24, 40, 41, 63, 64, 65, 150, 300])),
                max_size=12),
       st.integers(0, 30), st.sampled_from([1, 5, 64, 1 << 20]), st.booleans())
@settings(max_examples=300, deadline=None)
def test_the_reader_frames_every_size_whatever_the_reads(records: list[tuple[int, int]], cut: int, step: int,
                                                         seekable: bool) -> None:
    """Blocks of 64 bytes and payloads over 40 read alone (both scaled down), from a file that seeks or
    a stream that returns a few bytes per read: the records (and a cut file's message) are the ones a
    walk over the bytes finds."""
    data = MAGIC + struct.pack("<Q", 2) + b"".join(
        struct.pack("<QQQ", t & (2**64 - 1), t >> 64, n) + bytes([i % 251]) * n for i, (t, n) in enumerate(records))
    if cut:
        data = data[:max(16, len(data) - cut)]
    expected, pos = [], 16
    while pos + 24 <= len(data):
        low, high, n = struct.unpack_from("<QQQ", data, pos)
        if pos + 24 + n > len(data):
            break
        expected.append((pos, low | high << 64, data[pos + 24:pos + 24 + n]))
        pos += 24 + n
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_framing, "READ_BLOCK", 64)
        mp.setattr(_framing, "LARGE_PAYLOAD", 40)
        whole = _framed(data)
        f: io.RawIOBase | io.BytesIO = io.BytesIO(data) if seekable else _Chunky(data, step)
        read_header(f)  # type: ignore[arg-type]
        reader = RecordReader(f, 16, len(data))  # type: ignore[arg-type]
        got: list[tuple[int, int, bytes]] = []
        message = None
        try:
            for r in reader:
                got.append((r.offset, r.timestamp_us, r.payload))
        except Truncated as e:
            message = e.message
    assert whole[0] == expected and (whole[1] is None) == (pos == len(data))
    assert (got, message) == whole


@pytest.mark.parametrize("payload,offset,exc", [
    (b"\x0b\x0c", 0, Malformed),                 # a group (NANOVER-PROTO-006)
    (b"\x12\x00\x0e", 2, Malformed),             # wire type 6
    (b"\x00\x00", 0, Malformed),                 # field number 0
    (b"\x08" + b"\xff" * 10 + b"\x01", 1, Malformed),  # an 11-byte varint
    (b"\x12\x05\x0a", 0, Malformed),             # a length past the end
    (b"\x08", 1, Truncated),
    (b"\x12", 1, Truncated),                     # a length-delimited field with no length
    (b"\x12\x80", 1, Truncated),                 # its length cut inside a two-byte varint
    (b"\x80\x01", 2, Truncated),                 # a two-byte tag (field 16) with no value
    (b"\x80", 0, Truncated),                     # a tag cut inside its varint
])
def test_wire_walk_rejects_with_the_offset(payload: bytes, offset: int, exc: type) -> None:
    with pytest.raises(exc) as e:
        scan(payload, 0, len(payload), "traj", 100)
    group = payload.startswith(b"\x0b")
    assert e.value.offset == 100 + offset
    assert e.value.rule == ("NANOVER-PROTO-006" if group else "NANOVER-PROTO-001")


def test_ten_byte_varint_is_accepted_and_unknown_fields_listed() -> None:
    s = scan(b"\x08" + b"\xff" * 9 + b"\x01" + b"\x78\x01", 0, 13, "traj")
    assert [(u.field_number, u.wire_type, u.offset) for u in s.unknown] == [(15, 0, 11)]


def test_nesting_limit() -> None:
    value: object = 1.0
    for _ in range(MAX_NESTING):
        value = [value]
    with pytest.raises(LimitExceeded):
        decode_payload(Kind.STATE, encode_state_update(StateUpdate({"k": value})))


def test_packed_and_unpacked_floats_read_the_same() -> None:
    packed = decode_payload(Kind.TRAJ, encode_frame(Frame(0, {}, {"p": Array(ArrayKind.FLOAT, (1.0, 2.0))})))
    body = b"\x0d" + struct.pack("<f", 1.0) + b"\x0d" + struct.pack("<f", 2.0)
    va = b"\x0a" + bytes([len(body)]) + body
    entry = b"\x0a\x01p\x12" + bytes([len(va)]) + va
    fd = b"\x12" + bytes([len(entry)]) + entry
    unpacked_wire = b"\x12" + bytes([len(fd)]) + fd
    s = scan(unpacked_wire, 0, len(unpacked_wire), "traj")
    assert s.unpacked and not s.unknown
    assert decode_payload(Kind.TRAJ, unpacked_wire) == packed


def test_value_array_with_no_member_and_value_with_no_kind_are_kept_apart() -> None:
    f = decode_payload(Kind.TRAJ, b"\x12\x13\x12\x05\x0a\x01x\x12\x00\x0a\x05\x0a\x01v\x12\x00\x12\x03\x0a\x01y")
    assert f.arrays == {"x": Array(None, ()), "y": Array(None, ())} and f.values == {"v": UNSET}


def test_frame_aggregate_replaces_per_key_and_resets_on_zero() -> None:
    agg = FrameAggregate()
    agg.apply(Frame(0, {"a": 1.0, "b": 2.0}, {"p": Array(ArrayKind.FLOAT, (1.0,))}))
    agg.apply(Frame(3, {"a": 5.0}, {"p": Array(ArrayKind.FLOAT, ())}))
    assert agg.values == {"a": 5.0, "b": 2.0} and agg.arrays == {"p": Array(ArrayKind.FLOAT, ())}
    agg.apply(Frame(0, {"c": 1.0}))
    assert agg.values == {"c": 1.0} and agg.arrays == {} and agg.resets == 2


def test_state_aggregate_null_deletes_and_reports_missing() -> None:
    agg = StateAggregate()
    assert agg.apply(StateUpdate({"a": {"x": 1.0}, "b": True})) == []
    assert agg.apply(StateUpdate({"a": None, "zz": None, "b": False})) == ["zz"]
    assert agg.state == {"b": False}


def test_merged_interleaves_and_pairs_equal_timestamps() -> None:
    traj = [Record(1, Frame(0)), Record(5, Frame(1)), Record(9, Frame(2))]
    state = [Record(5, StateUpdate({"a": 1.0})), Record(12, StateUpdate())]
    out = list(merged(traj, state))
    assert [(t, f is not None, s is not None) for t, f, s in out] == [
        (1, True, False), (5, True, True), (9, True, False), (12, False, True)]


#: (payload, kind, the error it raises at which offset, or None where it decodes to the empty message).
#: Protobuf wire facts: a varint byte with its high bit set needs another byte; 0x0a is field 1 as
#: length-delimited, and ten varint bytes ending 0x01 make the length 2**64 - 1; 0x12 is field 2 (the
#: frame of a GetFrameResponse, unknown to a StateUpdate) and 0x1a field 3 (unknown to both), and a
#: reader accepts unknown fields (the research notes' advice, item 6).
_JUNK_PAYLOADS = [
    (b"\xff", Kind.TRAJ, Truncated, 0),
    (b"\xff", Kind.STATE, Truncated, 0),
    (b"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", Kind.TRAJ, Malformed, 0),
    (b"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", Kind.STATE, Malformed, 0),
    (b"\x12\x03\x0a\x01\xff", Kind.TRAJ, Truncated, 4),  # the frame's values entry is a cut varint
    (b"\x12\x03\x0a\x01\xff", Kind.STATE, None, None),
    (b"\x1a\x01\xc0", Kind.TRAJ, None, None),
    (b"\x1a\x01\xc0", Kind.STATE, None, None),
]


@pytest.mark.parametrize(("junk", "kind", "error", "offset"), _JUNK_PAYLOADS,
                         ids=[f"{j.hex()}-{k.value}" for j, k, _, _ in _JUNK_PAYLOADS])
def test_only_decode_errors_leave_decode_payload(junk: bytes, kind: Kind, error: type[DecodeError] | None,
                                                  offset: int | None) -> None:
    if error is None:
        assert decode_payload(kind, junk) == (Frame(0) if kind is Kind.TRAJ else StateUpdate())
        return
    with pytest.raises(error) as raised:
        decode_payload(kind, junk)
    assert raised.value.offset == offset and raised.value.rule == "NANOVER-PROTO-001"


def _field(number: int, body: bytes) -> bytes:
    """A length-delimited protobuf field (tag number << 3 | 2, a one-byte length: bodies under 128 bytes)."""
    return bytes((number << 3 | 2, len(body))) + body


_UNPACKED_ONE = _field(1, b"\x0d" + struct.pack("<f", 1.0))  # ValueArray.float_values, its number a field
_PACKED_TWO = _field(1, _field(1, struct.pack("<f", 2.0)))  # ValueArray.float_values, packed
_STRINGS = _field(3, b"")  # ValueArray.string_values: another member of the oneof


@pytest.mark.parametrize("frame_data", [
    # the key written twice: unpacked, then packed (protobuf keeps the last entry)
    _field(2, _field(1, b"p") + _field(2, _UNPACKED_ONE)) + _field(2, _field(1, b"p") + _field(2, _PACKED_TWO)),
    # the key written twice, unpacked both times: one array, named once
    _field(2, _field(1, b"p") + _field(2, _UNPACKED_ONE)) * 2,
    # one entry, its value twice: unpacked floats, then a string member that replaces them (a oneof)
    _field(2, _field(1, b"p") + _field(2, _UNPACKED_ONE) + _field(2, _STRINGS)),
], ids=["unpacked-then-packed", "unpacked-twice", "then-strings"])
def test_a_decoded_frame_says_only_the_arrays_it_holds_unpacked(frame_data: bytes) -> None:
    """A frame that decodes re-encodes, and what it encodes decodes to the same frame; the arrays said
    to be written unpacked are float or index arrays of the frame, each named once."""
    frame = decode_payload(Kind.TRAJ, _field(2, frame_data))
    for key in frame.unpacked or ():
        assert frame.arrays[key].kind in (ArrayKind.FLOAT, ArrayKind.INDEX)
    assert len(set(frame.unpacked or ())) == len(frame.unpacked or ())
    assert decode_payload(Kind.TRAJ, encode_frame(frame)) == frame
