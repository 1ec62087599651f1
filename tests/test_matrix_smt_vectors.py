"""The BSON decoder's shortcut for arrays of doubles (``_Reader.double_arrays``: an array of
1 to 9 doubles under the keys "0".."k-1" read with one pattern match and one struct call):
on valid and invalid bytes it gives exactly what the element-by-element loop gives, the
same values (bit for bit), keys and offsets, or the same error with the same rule, offset
and path; and the checker's reports do not change with it."""

from __future__ import annotations

import io
import struct
from typing import Any

from build_matrix_smt import decoded_both_ways, document, element, shortcut_off
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import check_stream
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import _bson  # private on purpose: what it reads at call time is patched
from recspec.strategies import matrix_files

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


_DOUBLES = st.floats(allow_nan=True, allow_infinity=True, width=64)


@st.composite
def _vector_bytes(draw: st.DrawFn) -> bytes:
    """An array of doubles under "0".."k-1", or one edit away from it: a key, a type byte
    (to a type of the same width or not), the length field, the final NUL, a cut."""
    k = draw(st.integers(1, 10))
    elements = [element(1, str(i).encode(), struct.pack("<d", draw(_DOUBLES))) for i in range(k)]
    body = bytearray(b"".join(elements))
    length = 4 + len(body) + 1
    tail = b"\x00"
    edit = draw(st.sampled_from(["none", "key", "type", "length", "nul", "cut", "byte"]))
    if edit == "key":
        at = 11 * draw(st.integers(0, k - 1)) + 1
        body[at] = draw(st.sampled_from(b"019a\x00\xff"))
    elif edit == "type":
        at = 11 * draw(st.integers(0, k - 1))
        body[at] = draw(st.sampled_from([0x00, 0x02, 0x09, 0x10, 0x11, 0x12, 0x13, 0x7F, 0xFF]))
    elif edit == "length":
        length += draw(st.sampled_from([-12, -11, -1, 1, 11]))
    elif edit == "nul":
        tail = draw(st.sampled_from([b"\x01", b""]))
    elif edit == "byte" and body:
        body[draw(st.integers(0, len(body) - 1))] = draw(st.integers(0, 255))
    array = struct.pack("<i", length) + bytes(body) + tail
    if edit == "cut":
        array = array[:draw(st.integers(0, len(array)))]
    return document(element(4, b"p", array))


@SLOW
@given(_vector_bytes())
def test_the_double_array_shortcut_reads_what_the_loop_reads(data: bytes) -> None:
    fast, loop = decoded_both_ways(data, "double_arrays")
    assert fast == loop


@SLOW
@given(st.one_of(matrix_files(max_frames=3), matrix_files(max_frames=3, valid=False)), st.integers(0, 2**32 - 1))
def test_the_double_array_shortcut_changes_no_decode_and_no_report(file: tuple[bytes, str], seed: int) -> None:
    data = mutate(file[0], 1 << 16, seed) if seed % 3 else file[0]
    fast, loop = decoded_both_ways(data, "double_arrays")
    assert fast == loop
    report = check_stream(io.BytesIO(data), path="x", profile=file[1], fast_path=False)
    with shortcut_off("double_arrays"):
        again = check_stream(io.BytesIO(data), path="x", profile=file[1], fast_path=False)
    assert report == again


def test_the_shortcut_takes_part_and_its_edges() -> None:
    # a recording's vectors are arrays of doubles under "0".."k-1": the shortcut reads them
    vec = b.encode_document(b.Document.of(("p", b.Array.of_values([1.0, -0.0, float("inf")]))))
    calls = 0
    pattern = _bson._DOUBLE_ARRAYS[38][1]

    class Counting:
        def fullmatch(self, *a: Any) -> Any:
            nonlocal calls
            calls += 1
            return pattern.fullmatch(*a)

    _bson._DOUBLE_ARRAYS[38] = (3, Counting(), *_bson._DOUBLE_ARRAYS[38][2:])  # type: ignore[assignment]
    try:
        got = b.decode_document(vec)
    finally:
        _bson._DOUBLE_ARRAYS[38] = (3, pattern, *_bson._DOUBLE_ARRAYS[38][2:])
    assert calls == 1
    p = got.get("p")
    assert p.keys == ["0", "1", "2"] and p.offsets == [11, 22, 33]
    assert [struct.pack("<d", x) for x in p.values] == [struct.pack("<d", x) for x in (1.0, -0.0, float("inf"))]
    # an int32 among the doubles, or a key out of order: the loop reads it, the same as without the shortcut
    for data in (b.encode_document(b.Document.of(("p", b.Array.of_values([1.0, 2, 3.0])))),
                 b.encode_document(b.Document.of(("p", b.Array(["0", "2", "1"], [1.0, 2.0, 3.0]))))):
        fast, loop = decoded_both_ways(data, "double_arrays")
        assert fast == loop and fast[0] == "ok"


_NUMBERS_AND_NOT = st.one_of(_DOUBLES, st.integers(-(2**31), 2**31 - 1), st.integers(-(2**63), 2**63 - 1).map(b.Int64),
                             st.text(max_size=2), st.none(), st.booleans())


def _bits(xs: list[float] | None) -> list[bytes] | None:
    return None if xs is None else [struct.pack("<d", x) for x in xs]


@st.composite
def _vectors(draw: st.DrawFn) -> list[Any]:
    """Mostly doubles (finite or not), now and then another value among them."""
    n = draw(st.integers(0, 5))
    return [draw(_NUMBERS_AND_NOT if draw(st.integers(0, 5)) == 0 else _DOUBLES) for _ in range(n)]


@given(_vectors(), st.sampled_from([0, 0, 0, -1, 1]), st.booleans())
def test_the_checker_reads_a_vector_of_finite_doubles_as_its_loop_does(values: list[Any], extra: int,
                                                                       placed: bool) -> None:
    # _Walk.vector proves a vector of finite doubles in C; anything else takes the number()
    # loop: the same numbers and the same findings as the loop alone, element by element
    from recspec.conformance._sink import FindingSink
    from recspec.conformance.matrix_smt._check import _Walk
    from recspec.conformance.matrix_smt._rules import RULES_BY_ID

    arr = b.Array.of_values(values)
    if placed:
        arr.offsets = [100 + 11 * i for i in range(len(values))]
    n = len(values) + (extra if extra and values else 0)  # mostly the vector's own length
    walk = _Walk(FindingSink(RULES_BY_ID, "spec"), "spec")
    got = walk.vector(arr, n, "p", 7, "MATRIX-STATE-001")
    loop = _Walk(FindingSink(RULES_BY_ID, "spec"), "spec")
    expected: list[float] | None = None
    if len(values) != n:
        loop.vector(arr, n, "p", 7, "MATRIX-STATE-001")  # the length finding: not what is compared here
    else:
        expected = []
        for i, x in enumerate(values):
            num = loop.number(x, f"p[{i}]", arr.offsets[i] if arr.offsets else 7)
            if num is None:
                expected = None
                break
            expected.append(num)
    assert _bits(got) == _bits(expected)
    assert [(f.rule, f.message, f.offset, f.path) for f in walk.sink.findings] == \
        [(f.rule, f.message, f.offset, f.path) for f in loop.sink.findings]


def _nested(levels: int, inner: b.Document) -> bytes:
    doc = inner
    for _ in range(levels):
        doc = b.Document.of(("a", doc))
    return b.encode_document(doc)


def test_the_shortcut_keeps_the_depth_and_element_limits(monkeypatch: Any) -> None:
    vec = b.Document.of(("p", b.Array.of_values([1.0, 2.0, 3.0])))
    # the vector at the deepest level read and one level below it: read, then the depth finding
    outcomes = []
    for levels in (_bson.MAX_DEPTH - 1, _bson.MAX_DEPTH):
        fast, loop = decoded_both_ways(_nested(levels, vec), "double_arrays")
        assert fast == loop
        outcomes.append(fast[0] if fast[0] == "ok" else fast[2])
    assert outcomes == ["ok", "MATRIX-LIMIT-001"]
    # the element count (four in all): within the limit, passed by the outer document, or already
    # by the vector's three elements (then the vector is the place named)
    data = b.encode_document(vec)
    for limit in (4, 3, 2):
        monkeypatch.setattr(_bson, "MAX_ELEMENTS", limit)
        fast, loop = decoded_both_ways(data, "double_arrays")
        assert fast == loop
        assert (fast[0] if fast[0] == "ok" else fast[2]) == ("ok" if limit == 4 else "MATRIX-LIMIT-003")
