"""The streaming walk over a Matrix-SMT file (reference/matrix_smt/walker.py): every refusal it
makes, at the offset and with the rule the BSON 1.1 specification and docs/formats/matrix-smt.md
give: a document is an int32 length (at least 5), elements (type byte, NUL-terminated UTF-8 name,
value) and a final NUL; a double is 8 bytes, an int32 4, a boolean one byte 0x00 or 0x01.
MATRIX-BSON-001 a length that does not fit its container, -002 a byte that is no BSON type, -003 a
boolean byte, -005 a name that is not UTF-8, -007 the file ends early; MATRIX-LIMIT-002 a unit over
64 MiB. Valid documents come from pymongo's ``bson``. Written against the survivors
tools/mutate.py found in the module."""

from __future__ import annotations

import struct

import bson
import pytest
from build_matrix_smt import MadeFile, walker

from recspec.errors import DecodeError, LimitExceeded, Malformed, Truncated
from recspec.reference.matrix_smt._walker import RecordingWalker, Section

LENGTH, TYPE, BOOL, UTF8, TRUNCATED = ("MATRIX-BSON-001", "MATRIX-BSON-002", "MATRIX-BSON-003",
                                       "MATRIX-BSON-005", "MATRIX-BSON-007")
T_ARRAY = 0x04


def _doc(body: bytes, declared: int | None = None) -> bytes:
    """A top-level document around ``body`` (elements), its length ``declared`` or the true one."""
    n = 4 + len(body) + 1
    return struct.pack("<i", n if declared is None else declared) + body + b"\x00"


def _raises(kind: type[DecodeError], rule: str, offset: int, fn, path: str | None = None) -> DecodeError:
    with pytest.raises(kind) as e:
        fn()
    assert (e.value.rule, e.value.offset) == (rule, offset)
    if path is not None:
        assert e.value.path == path
    return e.value


def test_a_valid_document_is_walked() -> None:
    data = bson.encode({"objects": [], "frames": [{"t": 1.0}]})
    w = walker(data)
    sections = list(w.sections())
    assert [s.key for s in sections] == ["objects", "frames"]
    assert sections[0].offset == 4 and sections[-1].end == len(data) - 1
    assert [e.value.map() for e in w.entries(sections[1])] == [{"t": 1.0}]


# --- the top-level length ---------------------------------------------------------------------


def test_a_file_shorter_than_the_length_field() -> None:
    e = _raises(Truncated, TRUNCATED, 0, lambda: walker(b"\x05\x00"))
    assert "2 of 4" in e.message


def test_a_declared_length_below_five() -> None:
    _raises(Malformed, LENGTH, 0, lambda: walker(b"\x04\x00\x00\x00"))


# --- element heads --------------------------------------------------------------------------


def test_a_file_that_ends_where_an_element_starts() -> None:
    w = walker(struct.pack("<i", 20))
    _raises(Truncated, TRUNCATED, 4, lambda: list(w.sections()))


def test_a_name_without_its_nul() -> None:
    # declared 10: the name runs from byte 5 to the document's last byte, which is no NUL
    w = walker(b"\x0a\x00\x00\x00\x0aabcde")
    _raises(Malformed, LENGTH, 5, lambda: next(iter(w.sections())))


def test_a_name_that_is_not_utf8() -> None:
    w = walker(_doc(b"\x0a\xff\x00"))
    _raises(Malformed, UTF8, 5, lambda: list(w.sections()))


def test_a_bad_name_after_a_byte_that_is_no_type_is_a_type_fault() -> None:
    w = walker(_doc(b"\x20\xff\x00"))
    _raises(Malformed, TYPE, 4, lambda: list(w.sections()))


def test_a_byte_that_is_no_bson_type() -> None:
    w = walker(_doc(b"\x20a\x00"))
    _raises(Malformed, TYPE, 4, lambda: list(w.sections()), "a")


# --- value lengths at the top level -----------------------------------------------------------


def test_a_binary_whose_length_field_passes_the_document() -> None:
    w = walker(_doc(b"\x05a\x00\x01\x00"))
    _raises(Malformed, LENGTH, 7, lambda: list(w.sections()), "a")


def test_a_string_whose_length_field_passes_the_document() -> None:
    w = walker(_doc(b"\x02a\x00\x01\x00"))
    _raises(Malformed, LENGTH, 7, lambda: list(w.sections()), "a")


def test_a_double_that_passes_the_document() -> None:
    w = walker(_doc(b"\x01a\x00" + b"\x00" * 4))
    _raises(Malformed, LENGTH, 7, lambda: next(iter(w.sections())), "a")


def test_a_file_that_ends_inside_a_value() -> None:
    # declared 20: the double (bytes 7 to 14) fits the document, the file ends at byte 11
    w = walker(struct.pack("<i", 20) + b"\x01a\x00" + b"\x00" * 4)
    _raises(Truncated, TRUNCATED, 11, lambda: list(w.sections()), "a")


def test_a_file_that_ends_before_the_final_nul() -> None:
    data = bson.encode({"a": 1.5})
    w = walker(data[:-1])
    # the value of "a" is whole: the fault is the document's final NUL, not the value
    _raises(Truncated, TRUNCATED, len(data) - 1, lambda: list(w.sections()), "")


def test_a_document_whose_last_byte_is_not_nul() -> None:
    data = bson.encode({"a": 1.5})
    w = walker(data[:-1] + b"\x01")
    _raises(Malformed, LENGTH, len(data) - 1, lambda: list(w.sections()))


def test_a_value_declared_over_the_buffer_limit() -> None:
    # a top-level document declared 64 MiB + 1 bytes long, in a document declared longer still
    body = b"\x03a\x00" + struct.pack("<i", 64 * 1024 * 1024 + 1) + b"\x00"
    w = walker(struct.pack("<i", 0x7FFFFFF0) + body)
    section = next(iter(w.sections()))
    e = _raises(LimitExceeded, "MATRIX-LIMIT-002", 7, lambda: w.value(section))
    assert e.path == "a"


def test_a_regex_without_its_nul_is_a_length_fault() -> None:
    w = walker(_doc(b"\x0ba\x00ab"))
    with pytest.raises(DecodeError) as e:
        list(w.sections())
    assert e.value.rule in (LENGTH, TRUNCATED)


# --- streamed entries -------------------------------------------------------------------------


def _array(elements: bytes, declared: int | None = None, terminator: bytes = b"\x00") -> bytes:
    n = 4 + len(elements) + 1
    return struct.pack("<i", n if declared is None else declared) + elements + terminator


def _entries(data: bytes, section: Section | None = None) -> list:
    w = walker(data)
    s = section if section is not None else next(iter(w.sections()))
    return list(w.entries(s))


def test_an_entry_double_that_passes_its_array() -> None:
    data = _doc(b"\x04f\x00" + _array(b"\x010\x00" + b"\x00" * 3))
    _raises(DecodeError, LENGTH, 14, lambda: _entries(data), "f[0]")


def test_an_entry_int32_that_passes_its_array() -> None:
    data = _doc(b"\x04f\x00" + _array(b"\x100\x00" + b"\x00" * 3))
    _raises(DecodeError, LENGTH, 14, lambda: _entries(data), "f[0]")


def test_an_entry_boolean_that_passes_its_array() -> None:
    data = _doc(b"\x04f\x00" + _array(b"\x080\x00"))
    _raises(DecodeError, LENGTH, 14, lambda: _entries(data), "f[0]")


def test_an_entry_boolean_byte_of_two() -> None:
    data = _doc(b"\x04f\x00" + _array(b"\x080\x00\x02"))
    _raises(Malformed, BOOL, 14, lambda: _entries(data), "f[0]")
    # 0x00 and 0x01 are the two booleans
    assert [e.value for e in _entries(_doc(b"\x04f\x00" + _array(b"\x080\x00\x01\x081\x00\x00")))] == [True, False]


def test_an_array_length_cut_by_the_file() -> None:
    data = struct.pack("<i", 255) + b"\x04a\x00\x05\x00"
    _raises(Truncated, TRUNCATED, 7, lambda: _entries(data, Section(4, T_ARRAY, "a", 7, 0)), "a")


def test_an_array_length_below_five() -> None:
    data = _doc(b"\x04a\x00" + struct.pack("<i", 4) + b"\x00")
    _raises(Malformed, LENGTH, 7, lambda: _entries(data, Section(4, T_ARRAY, "a", 7, 0)), "a")


def test_an_array_that_passes_the_document() -> None:
    data = _doc(b"\x04a\x00" + _array(b"\x0a0\x00", declared=40))
    _raises(Malformed, LENGTH, 7, lambda: _entries(data, Section(4, T_ARRAY, "a", 7, 0)), "a")


def test_a_file_that_ends_before_an_arrays_final_nul() -> None:
    # the array (bytes 7 to 14) fits the declared document; the file ends at byte 14, its final NUL
    data = struct.pack("<i", 64) + b"\x04a\x00" + _array(b"\x0a0\x00")[:-1]
    _raises(Truncated, TRUNCATED, 14, lambda: _entries(data), "a")


def test_an_array_whose_last_byte_is_not_nul() -> None:
    data = _doc(b"\x04a\x00" + _array(b"\x0a0\x00", terminator=b"\x01"))
    _raises(Malformed, LENGTH, 14, lambda: _entries(data), "a")


def _short_reads(head: bytes, fill: bytes, size: int) -> MadeFile:
    """A file of ``size`` bytes, ``head`` then ``fill`` repeated, whose reads return at most 4,096 bytes
    (a raw read may return fewer bytes than asked): a regex longer than the 64 MiB limit without
    holding hundreds of MiB."""
    return MadeFile(size, lambda pos, n: bytes(head[i] if i < len(head) else fill[0] for i in range(pos, pos + n)),
                    most=4096)


def test_a_regex_longer_than_the_buffer_limit() -> None:
    # a 300 MiB document whose one element is a regex named "a" whose pattern never ends
    size = 300 * 1024 * 1024
    f = _short_reads(struct.pack("<i", size) + b"\x0ba\x00", b"a", size)
    w = RecordingWalker(f, size)
    e = _raises(LimitExceeded, "MATRIX-LIMIT-002", 7, lambda: list(w.sections()))
    assert e.path == "a"


def test_trailing_bytes_are_what_follows_the_declared_document() -> None:
    data = bson.encode({"a": 1.5})
    assert walker(data + b"\x01\x02\x03").trailing == 3
    assert walker(data).trailing == 0
    assert walker(data[:-1]).trailing == 0  # a file shorter than declared has nothing after it
    assert walker(data[:-5]).trailing == 0


def test_sections_skim_values_and_value_judges_them() -> None:
    # a binary of length 0 (int32 length, subtype byte: 5 bytes) of subtype 2, which needs an inner
    # length, and an empty document (5 bytes) whose last byte is not NUL: the skim steps over both by
    # their lengths; decoding the value finds the fault
    for body, fault in ((b"\x05a\x00" + struct.pack("<i", 0) + b"\x02", 12),
                        (b"\x03a\x00" + struct.pack("<i", 5) + b"\x01", 11)):
        w = walker(_doc(body))
        sections = list(w.sections())
        assert [(s.key, s.value_offset, s.end) for s in sections] == [("a", 7, 12)]
        with pytest.raises(Malformed) as e:
            w.value(sections[0])
        assert (e.value.rule, e.value.offset) == (LENGTH, fault)


def test_a_string_length_field_that_fits_but_whose_value_does_not() -> None:
    # the length field (bytes 7 to 10) ends at the final NUL (byte 11); the string of length 1
    # needs 4 + 1 bytes from byte 7, where 4 are left
    w = walker(_doc(b"\x02a\x00" + struct.pack("<i", 1)))
    e = _raises(Malformed, LENGTH, 7, lambda: list(w.sections()), "a")
    assert "5 bytes needed, 4 left" in e.message


def test_streamed_entries_of_each_fixed_size_type_end_where_the_next_begins() -> None:
    # {"a": [1.5, 2, True, None, "x"]}: the array's value at 7, its elements from 11: a double
    # (type, "0\0", 8 bytes) 11 bytes, an int32 7, a boolean 4, a null 3, the string "x" (int32
    # length 2, "x\0") 9; the array's final NUL at 45
    data = bson.encode({"a": [1.5, 2, True, None, "x"]})
    w = walker(data)
    entries = list(w.entries(next(iter(w.sections()))))
    assert [e.value for e in entries] == [1.5, 2, True, None, "x"]
    assert [e.index for e in entries] == [0, 1, 2, 3, 4]
    assert [(e.offset, e.value_offset, e.end) for e in entries] == [
        (11, 14, 22), (22, 25, 29), (29, 32, 33), (33, 36, 36), (36, 39, 45)]
    assert data[45] == 0


@pytest.mark.parametrize("empty", [3, 4096])  # 4,096: the run fills the walker's first block of comparisons
def test_skip_empty_documents_steps_over_a_run_of_empty_frames(empty: int) -> None:
    from recspec.reference.matrix_smt._walker import decode_raw

    data = bson.encode({"frames": [{"t": 0.0}] + [{}] * empty + [{"t": 1.0}]})
    w = walker(data)
    walk = w.entries(next(iter(w.sections())), raw=True)
    first = next(walk)
    assert first.index == 0
    assert w.skip_empty_documents(first) == empty
    following = next(walk)
    assert following.index == empty + 1 and following.key == str(empty + 1)
    assert decode_raw(following, "frames[%d]" % following.index).map() == {"t": 1.0}
    assert list(walk) == []
