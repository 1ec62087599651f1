"""The Matrix-SMT cross-check's sampling and its edges (conformance/matrix_smt/_xcheck.py), held to
the BSON layout: the frame spans read from the lengths alone (``_frame_spans``, ``_same_elements``)
are the (start, end) of each array element, counted by hand from the layout (an element is its type
byte, its NUL-terminated key and its value; an embedded document is an int32 length that counts
itself, its elements and a final NUL); a frame of exactly the walker's largest buffered unit is still
framed; a sample's length field maps back to the original's (both at offset 0); a divergence's two
readings are each cut to 120 characters in its message; and a parse that runs out of Python stack is
a rejection at offset 0, not a traceback."""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import bson
import pytest

from recspec.conformance.matrix_smt import _xcheck
from recspec.conformance.matrix_smt._xcheck import (
    KaitaiRejected,
    _frame_spans,
    _same_elements,
    differential,
    kaitai_parse,
    sample_frames,
)
from recspec.reference.matrix_smt import MAX_BUFFERED_SIZE, decode_document

I32 = struct.Struct("<i")

# {"t": <double>}: int32 length, then 0x01 "t\0" and 8 bytes, then the final NUL
T_DOC = 4 + (1 + 2 + 8) + 1
# {"t": <double>, "x": <int32>}: one more element, 0x10 "x\0" and 4 bytes
TX_DOC = T_DOC + (1 + 2 + 4)
# the frames array's value in {"frames": [...]}: the document's length (4), then 0x04 "frames\0" (8)
FRAMES_AT = 4 + 1 + len(b"frames\x00")


def _element(key: str, doc_size: int) -> int:
    """The size of an array element holding an embedded document: type byte, key, NUL, document."""
    return 1 + len(key) + 1 + doc_size


def test_the_frame_spans_are_the_array_elements_counted_from_the_layout() -> None:
    data = bson.encode({"frames": [{"t": 0.0}, {"t": 1.0}, {"t": 2.0, "x": 1}]})
    assert I32.unpack_from(data, 0)[0] == len(data)
    assert data[FRAMES_AT - 8:FRAMES_AT] == b"\x04frames\x00"
    first = FRAMES_AT + 4  # after the array's own length
    sizes = [_element("0", T_DOC), _element("1", T_DOC), _element("2", TX_DOC)]
    ends = [first + sum(sizes[:i + 1]) for i in range(3)]
    expected = [(first, ends[0]), (ends[0], ends[1]), (ends[1], ends[2])]
    assert [data[s] for s, _ in expected] == [0x03] * 3  # each starts at its type byte: embedded document
    assert data[ends[2]] == 0 and ends[2] == FRAMES_AT + I32.unpack_from(data, FRAMES_AT)[0] - 1  # the array's NUL
    assert _frame_spans(data, FRAMES_AT) == expected


def test_the_frame_spans_of_many_frames_of_one_layout() -> None:
    """Twelve frames of one layout (the column-at-a-time path), keys "0" to "9" then "10", "11"."""
    frames = [{"t": float(i)} for i in range(12)]
    data = bson.encode({"frames": frames})
    pos, expected = FRAMES_AT + 4, []
    for i in range(12):
        end = pos + _element(str(i), T_DOC)
        expected.append((pos, end))
        pos = end
    assert data[pos] == 0 and pos == len(data) - 2  # the array's NUL, then the document's
    assert _frame_spans(data, FRAMES_AT) == expected


def test_the_same_elements_are_counted_up_to_the_first_that_differs() -> None:
    # "0" to "4" hold {"t": ...}; "5" holds {"t": ..., "x": ...}: another document length
    data = bson.encode({"frames": [{"t": float(i)} for i in range(5)] + [{"t": 5.0, "x": 1}]})
    stride = _element("0", T_DOC)
    after_first = FRAMES_AT + 4 + stride
    length = I32.pack(T_DOC)
    assert data[after_first - T_DOC:after_first - T_DOC + 4] == length  # the first frame's document length
    assert _same_elements(data[after_first:after_first + 4 * stride], stride, 1, length) == 4
    # the block running into the sixth element: it is not counted
    assert _same_elements(data[after_first:after_first + 5 * stride], stride, 1, length) == 4
    # a block that starts at an element of another length
    assert _same_elements(data[after_first:after_first + 5 * stride], stride, 1, I32.pack(TX_DOC)) == 0


def _array_of_one_frame(doc_size: int) -> bytes:
    """A BSON array with one element "0": a document of ``doc_size`` bytes holding one binary "b"."""
    payload = doc_size - (4 + (1 + 2 + 4 + 1) + 1)  # length, 0x05 "b\0" int32 subtype, NUL
    doc = I32.pack(doc_size) + b"\x05b\x00" + I32.pack(payload) + b"\x00" + bytes(payload) + b"\x00"
    assert len(doc) == doc_size
    body = b"\x030\x00" + doc
    return I32.pack(4 + len(body) + 1) + body + b"\x00"


def test_a_frame_of_the_largest_buffered_size_is_framed_and_one_byte_more_is_not() -> None:
    """MAX_BUFFERED_SIZE is the largest unit the walker reads (larger is MATRIX-LIMIT-002): a frame
    of exactly that size has its span; one byte more is left to the walker, which rejects it."""
    at_limit = _array_of_one_frame(MAX_BUFFERED_SIZE)
    assert _frame_spans(at_limit, 0) == [(4, 4 + 3 + MAX_BUFFERED_SIZE)]
    del at_limit
    assert _frame_spans(_array_of_one_frame(MAX_BUFFERED_SIZE + 1), 0) is None


def test_the_samples_length_field_maps_to_the_originals() -> None:
    """The sample is a document of its own: its int32 length at offset 0 stands for the original's,
    at offset 0 too, byte for byte (a divergence located in it is located there)."""
    data = bson.encode({"objects": [], "frames": [{"t": float(i)} for i in range(40)]})
    s = sample_frames(data, 8)
    assert s is not None and 0 < s.chosen < s.units == 40
    assert I32.unpack_from(s.data, 0)[0] == len(s.data) < len(data)
    assert [s.original_offset(i) for i in range(4)] == [0, 1, 2, 3]
    # the frames array's type byte follows the objects array (0x04 "objects\0" and 5 bytes) in both
    frames_at = 4 + 1 + len(b"objects\x00") + 5
    assert s.data[frames_at:frames_at + 8] == data[frames_at:frames_at + 8] == b"\x04frames\x00"
    assert s.original_offset(frames_at) == frames_at


def test_each_reading_in_a_divergence_message_is_cut_to_120_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    data = bson.encode({"objects": [], "frames": [], "s": "a" * 300})
    monkeypatch.setattr(_xcheck, "pymongo_decode", lambda _: {"objects": [], "frames": [], "s": "b" * 300})
    (divergence,) = differential(data)
    prefix = "reads other values: [2]: "  # the top-level document's third value
    assert divergence.message.startswith(prefix)
    ours, theirs = divergence.message[len(prefix):].split(" vs ")
    assert (len(ours), len(theirs)) == (120, 120)
    assert ours.endswith("a" * 100) and theirs.endswith("b" * 100)


def _nested(levels: int) -> bytes:
    """A valid recording whose "x" is ``levels`` documents deep (each holding the next as "d")."""
    doc: dict = {}
    for _ in range(levels):
        doc = {"d": doc}
    return bson.encode({"objects": [], "frames": [], "x": doc})


def test_a_parse_that_runs_out_of_stack_is_a_rejection_at_offset_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Kaitai parse is given room for MAX_DEPTH levels; should the stack still run out, the
    input is rejected (MATRIX-XCHECK-REJECT at offset 0, "recursion: ..."), never a RecursionError."""
    data = _nested(60)
    assert decode_document(data).keys == ["objects", "frames", "x"]  # valid: 61 levels, below MAX_DEPTH

    def depth() -> int:
        frame, n = sys._getframe(), 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        return n

    @contextmanager
    def little_room(levels: int) -> Iterator[None]:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(depth() + 40)  # far less than 60 levels need
        try:
            yield
        finally:
            sys.setrecursionlimit(old)

    monkeypatch.setattr(_xcheck, "stack_for_nesting", little_room)
    with pytest.raises(KaitaiRejected) as caught:
        kaitai_parse(data)
    assert caught.value.rule == "MATRIX-XCHECK-REJECT"
    assert caught.value.offset == 0
    assert str(caught.value.message).startswith("recursion: ")
