"""The streaming walk over a Matrix-SMT file (reference/matrix_smt/walker.py) at the edges the BSON
1.1 specification fixes: the document's int32 length (4 bytes, at least 5: the empty document
``05 00 00 00 00``), element names of any length, a binary's int32 length, a document's length of at
least 5, decimal128's 16 bytes; and MATRIX-LIMIT-002 (docs/formats/matrix-smt.md: no unit over
``MAX_BUFFERED_SIZE``, 64 MiB, is read into memory) for a top-level regex. Valid documents and the
values to compare with come from pymongo's ``bson``; broken ones are written by hand."""

from __future__ import annotations

import struct

import bson
import pytest
from bson.decimal128 import Decimal128
from build_matrix_smt import MadeFile, walker

from recspec.errors import LimitExceeded, Malformed, Truncated
from recspec.reference.matrix_smt._walker import MAX_BUFFERED_SIZE, RecordingWalker


def test_a_file_shorter_than_the_length_field_says_4_bytes_are_needed() -> None:
    with pytest.raises(Truncated) as e:
        walker(b"\x05\x00")
    assert (e.value.rule, e.value.offset, e.value.needed, e.value.available) == ("MATRIX-BSON-007", 0, 4, 2)


def test_the_empty_document_is_walked() -> None:
    data = bson.encode({})
    assert data == b"\x05\x00\x00\x00\x00"  # the smallest document
    w = walker(data)
    assert (w.declared, w.trailing, list(w.sections())) == (5, 0, [])


def test_a_name_longer_than_the_first_read_is_read_on() -> None:
    data = bson.encode({"k" * 5000: 1, "frames": []})
    w = walker(data)
    sections = list(w.sections())
    assert [s.key for s in sections] == ["k" * 5000, "frames"]
    assert (sections[0].offset, sections[0].value_offset) == (4, 4 + 1 + 5000 + 1)
    assert w.value(sections[0]) == 1


def test_a_file_that_ends_inside_a_binarys_length_field() -> None:
    # a document declared 100 bytes long, cut 3 bytes into the binary length of element "b" (at 4 + 1 + 2)
    data = struct.pack("<i", 100) + b"\x05b\x00" + b"\x01\x00\x00"
    with pytest.raises(Truncated) as e:
        list(walker(data).sections())
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-BSON-007", 7, "b")


@pytest.mark.parametrize(("code", "length"), [(0x03, 3), (0x04, 4), (0x03, 0)])
def test_a_top_level_document_length_below_five(code: int, length: int) -> None:
    body = bytes((code,)) + b"a\x00" + struct.pack("<i", length) + b"\x00"
    data = struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"
    with pytest.raises(Malformed) as e:
        list(walker(data).sections())
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-001", 7)  # at the length field, after "\x03a\x00"


def test_a_top_level_decimal128_is_read_whole() -> None:
    data = bson.encode({"a": Decimal128("1.5"), "b": 2})
    w = walker(data)
    sections = list(w.sections())
    assert [(s.key, s.value_offset, s.end) for s in sections] == [("a", 7, 23), ("b", 26, 30)]
    assert w.value(sections[0]).data == data[7:23]  # the 16 bytes pymongo wrote
    assert w.value(sections[1]) == 2


def _regex(pattern: int) -> MadeFile:
    """A document whose one element, "a", is a regex of ``pattern`` bytes "x" and no options; its bytes made
    on demand (the test holds no copy of the file)."""
    head = b"\x0ba\x00"
    size = 4 + len(head) + pattern + 2 + 1
    pattern_end = 4 + len(head) + pattern

    def piece(pos: int, n: int) -> bytes:
        out = bytearray(b"x") * n
        for i, byte in enumerate(struct.pack("<i", size) + head):  # the head
            if pos <= i < pos + n:
                out[i - pos] = byte
        for i in (pattern_end, pattern_end + 1, size - 1):  # the two cstrings' NULs, the final NUL
            if pos <= i < pos + n:
                out[i - pos] = 0
        return bytes(out)

    return MadeFile(size, piece)


def test_a_regex_under_the_buffer_limit_is_read() -> None:
    f = _regex(2 * 1024 * 1024)
    w = RecordingWalker(f, f.size)
    (s,) = w.sections()
    assert (s.key, s.value_offset, s.end) == ("a", 7, f.size - 1)


def test_a_regex_over_the_buffer_limit_is_refused_though_the_file_holds_it() -> None:
    # pattern + its NUL + the options' NUL: one byte more than MAX_BUFFERED_SIZE
    f = _regex(MAX_BUFFERED_SIZE - 1)
    w = RecordingWalker(f, f.size)
    with pytest.raises(LimitExceeded) as e:
        list(w.sections())
    assert (e.value.rule, e.value.offset, e.value.path) == ("MATRIX-LIMIT-002", 7, "a")


def _nested(level: int) -> dict[str, object]:
    """``{"a": {"a": ... {}}}`` whose deepest document is ``level`` levels below the top-level document."""
    x: dict[str, object] = {}
    for _ in range(level - 1):
        x = {"a": x}
    return {"a": x}


def test_a_top_level_value_nests_100_levels_below_the_top_level_document() -> None:
    # MATRIX-LIMIT-001: at most 100 levels below the top-level document
    w = walker(bson.encode(_nested(100)))
    (s,) = w.sections()
    w.value(s)
    w = walker(bson.encode(_nested(101)))
    (s,) = w.sections()
    with pytest.raises(LimitExceeded) as e:
        w.value(s)
    # each level is "\x03a\x00" (3 bytes) and a length field (4) on: the 101st document starts at 7 * 101
    assert (e.value.rule, e.value.offset) == ("MATRIX-LIMIT-001", 7 * 101)


def test_the_bytes_of_the_last_top_level_value() -> None:
    # the last element's value ends where the top-level document's final NUL is: still inside the document
    data = bson.encode({"frames": [], "objects": [{"id": 1}]})
    w = walker(data)
    frames, objects = w.sections()
    assert objects.end == len(data) - 1
    assert w.value_bytes(objects) == data[objects.value_offset:-1] == bson.encode({"0": {"id": 1}})
    assert w.value_bytes(frames) == b"\x05\x00\x00\x00\x00"
