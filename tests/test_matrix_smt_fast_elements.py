"""The BSON decoder's element loop (``_Reader.fast_elements``: names found and looked up by C calls
that raise, the bounds of doubles and int32s checked once at the document's end, the length field's
bounds in one comparison) against ``_Reader.element`` alone, element after element, one check at a
time: on valid, invalid, mutated and cut recordings and on bytes one edit away from each kind of
element, the same values (bit for bit), keys, offsets, regularity and sections handed on (``units``),
or the same error with the same rule, message, offset and path; an element name not yet cached, or
not UTF-8, is read by ``element`` and the loop goes on."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from build_matrix_smt import document, element, shortcut_off, value_shape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.errors import DecodeError
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import _bson  # private on purpose: what it reads at call time is patched
from recspec.strategies import matrix_files

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _outcome(data: bytes) -> Any:
    units: dict[int, b.Document] = {}
    try:
        got: Any = ("ok", value_shape(b.decode_document(data, units=units), regular=True))
    except DecodeError as e:
        got = ("error", type(e).__name__, e.rule, e.message, e.offset, e.path, getattr(e, "value", None))
    return got, {at: value_shape(u, regular=True) for at, u in units.items()}


def _both(data: bytes) -> tuple[Any, Any]:
    fast = _outcome(data)
    with shortcut_off("fast_elements"):
        careful = _outcome(data)
    return fast, careful


#: One element of each kind the loop reads on its own (and the rarer ones it hands to ``other``).
_KINDS = {
    "double": element(0x01, b"t", struct.pack("<d", 0.5)),
    "int32": element(0x10, b"id", struct.pack("<i", 7)),
    "string": element(0x02, b"m", struct.pack("<i", 3) + b"md\x00"),
    "empty string": element(0x02, b"m", struct.pack("<i", 1) + b"\x00"),
    "vector": element(0x04, b"p", document(*(element(0x01, b"%d" % i, struct.pack("<d", i)) for i in range(3)))),
    "array": element(0x04, b"cmd", document(element(0x10, b"0", struct.pack("<i", 1)))),
    "document": element(0x03, b"o", document(element(0x08, b"static", b"\x01"))),
    "bool": element(0x08, b"static", b"\x00"),
    "null": element(0x0A, b"n", b""),
    "int64": element(0x12, b"l", struct.pack("<q", -3)),
}


@st.composite
def _edited(draw: st.DrawFn) -> bytes:
    """A document of a few elements of every kind, then one edit: a byte, the length field of the
    document or of a value, a cut, the final NUL."""
    kinds = draw(st.lists(st.sampled_from(sorted(_KINDS)), min_size=1, max_size=5))
    body = bytearray(b"".join(_KINDS[k] for k in kinds))
    change = draw(st.sampled_from([0, 0, 0, -9, -4, -1, 1, 4]))
    doc = bytearray(document(bytes(body), length_change=change))
    edit = draw(st.sampled_from(["none", "byte", "byte", "cut", "nul", "value length"]))
    if edit == "byte":
        doc[draw(st.integers(0, len(doc) - 1))] = draw(st.sampled_from([0x00, 0x01, 0x02, 0x05, 0x7F, 0x80, 0xFF]))
    elif edit == "cut":
        del doc[draw(st.integers(0, len(doc))):]
    elif edit == "nul":
        doc[-1] = 1
    elif edit == "value length" and len(doc) > 8:
        at = draw(st.integers(4, len(doc) - 4))
        struct.pack_into("<i", doc, at, draw(st.sampled_from([-1, 0, 1, 2, 5, 40, 2**31 - 1])))
    return bytes(doc)


@SLOW
@given(_edited())
def test_the_loop_reads_every_kind_of_element_as_element_does(data: bytes) -> None:
    fast, careful = _both(data)
    assert fast == careful


@SLOW
@given(st.one_of(matrix_files(max_frames=3), matrix_files(max_frames=3, valid=False)), st.integers(0, 2**32 - 1),
       st.integers(0, 3))
def test_the_loop_changes_no_decode_of_a_recording(file: tuple[bytes, str], seed: int, cut: int) -> None:
    data = mutate(file[0], 1 << 16, seed) if seed % 3 else file[0]
    if cut:  # the end of the file inside a frame, a value or a name
        data = data[:len(data) * (4 - cut) // 4]
    fast, careful = _both(data)
    assert fast == careful


@pytest.mark.parametrize(("what", "data", "rule", "offset"), [
    # a double and an int32 that run past their document's end: found at the end of the loop, reported at
    # the value (MATRIX-BSON-001), as element() reports it
    ("double", document(element(0x01, b"t", struct.pack("<d", 1.0)[:7])), "MATRIX-BSON-001", 7),
    ("int32", document(element(0x10, b"id", b"\x07\x00\x00")), "MATRIX-BSON-001", 8),
    # a string whose declared length leaves out its final NUL, and one of length 0
    ("string NUL", document(element(0x02, b"m", struct.pack("<i", 2) + b"md\x00")), "MATRIX-BSON-004", 12),
    ("string 0", document(element(0x02, b"m", struct.pack("<i", 0) + b"\x00")), "MATRIX-BSON-004", 7),
    # a name with no NUL before the document's end
    ("name", document(element(0x01, b"t", b"")[:-1] + b"abc"), "MATRIX-BSON-001", 5),
])
def test_a_fault_is_reported_where_element_reports_it(what: str, data: bytes, rule: str, offset: int) -> None:
    fast, careful = _both(data)
    assert fast == careful, what
    assert fast[0][0] == "error" and fast[0][2] == rule and fast[0][4] == offset, (what, fast[0])


def test_a_name_not_yet_cached_or_not_utf8_goes_through_element(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_bson, "_KEY_CACHE", {})
    calls = 0
    read_element = _bson._Reader.element

    def counting(self: Any, *a: Any) -> Any:
        nonlocal calls
        calls += 1
        return read_element(self, *a)

    monkeypatch.setattr(_bson._Reader, "element", counting)
    data = document(_KINDS["double"], _KINDS["int32"], _KINDS["double"])
    got = b.decode_document(data)
    # the first "t" and "id" are read by element() and cached, the second "t" by the loop
    assert calls == 2 and got.keys == ["t", "id", "t"] and got.offsets == [4, 15, 23]
    assert _bson._KEY_CACHE == {b"t": "t", b"id": "id"}
    bad = document(element(0x01, b"\xff", struct.pack("<d", 1.0)))
    with pytest.raises(DecodeError) as e:
        b.decode_document(bad)
    assert (e.value.rule, e.value.offset) == ("MATRIX-BSON-005", 5)


def test_the_element_limit_is_met_at_the_vector_that_passes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # MATRIX-LIMIT-003 at the element where the count passes the limit: with a limit of 5, the second
    # vector of three doubles (3 + 3 elements), at its length field, under its own path
    monkeypatch.setattr(_bson, "MAX_ELEMENTS", 5)
    vec = document(*(element(0x01, str(i).encode(), struct.pack("<d", i)) for i in range(3)))
    data = document(element(0x04, b"p", vec), element(0x04, b"q", vec))
    fast, careful = _both(data)
    assert fast == careful
    assert fast[0][:3] == ("error", "LimitExceeded", "MATRIX-LIMIT-003")
    assert fast[0][4:6] == (4 + 3 + len(vec) + 3, "q")
