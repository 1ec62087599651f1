"""The BSON parser's arrays of doubles made at once (conformance/matrix_smt/_vector_known.py) are the generated
code's: the same parse tree (every attribute), the same links (each object's parent, root and stream, and where
the stream stands), the same error at the same position, the same stream position after, for a document at any
offset of drawn bytes, for arrays one edit away from the shape the known reading takes, for mutated corpus files,
and the same cross-check reports on the Matrix-SMT corpus and the real files. The values are stated here from
the BSON layout (a length, then per element a type byte, a NUL-terminated key and a little-endian double),
not taken from either reading."""

from __future__ import annotations

import gc
import math
import struct
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from kaitaistruct import KaitaiStream, KaitaiStruct
from test_kaitai_memory_stream import MATRIX_SEEDS, mutated
from test_raskat_tar_known import parse_either_way

from helpers import REPO, real_file
from recspec._ksy_fast.bson import Bson
from recspec._ksy_fast.matrix_smt_record import MatrixSmtRecord
from recspec.conformance._kaitai import MemoryStream, stack_for_nesting, unread
from recspec.conformance.matrix_smt import _vector_known
from recspec.conformance.matrix_smt import _xcheck as matrix_x  # installs the known reading
from recspec.pipeline import check_file

assert matrix_x  # imported for its side effect


def _links(root: Any) -> list[tuple[Any, ...]]:
    """Each object of a parse, in the order a walk of its attributes meets it: its attributes' names in the order
    they were set (the order the generated code sets them), where its parent and its root
    are among those objects (or None: outside the tree), and which stream it reads (streams numbered as they
    are met) with that stream's position and size."""
    seen: dict[int, int] = {}
    streams: dict[int, int] = {}
    order: list[Any] = []

    def walk(obj: Any) -> None:
        if id(obj) in seen:
            return
        seen[id(obj)] = len(order)
        order.append(obj)
        for k, v in vars(obj).items():
            if k in ("_io", "_parent", "_root"):
                continue
            for x in v if isinstance(v, list) else [v]:
                if isinstance(x, KaitaiStruct):
                    walk(x)

    walk(root)
    out = []
    for obj in order:
        io = vars(obj).get("_io")
        number = None
        if isinstance(io, KaitaiStream):
            number = streams.setdefault(id(io), len(streams))
        out.append((type(obj).__qualname__, tuple(vars(obj)), seen.get(id(vars(obj).get("_parent"))),
                    seen.get(id(vars(obj).get("_root"))), number,
                    io.pos() if isinstance(io, KaitaiStream) else None,
                    io.size() if isinstance(io, KaitaiStream) else None))
    return out


def _read(cls: type, args: tuple[Any, ...], data: bytes, at: int) -> tuple[Any, ...]:
    stream = MemoryStream(data)
    stream.seek(at)
    obj = unread(cls, *args, stream)
    try:
        obj._read()
    except Exception:  # noqa: BLE001 - the errors are compared by parse_either_way
        pass
    return tuple(_links(obj))


def _both(cls: type, args: tuple[Any, ...], data: bytes, *, at: int = 0) -> Any:
    known = parse_either_way(cls, args, data, at=at, generated=None)
    assert known == parse_either_way(cls, args, data, at=at, generated=_vector_known.generated_documents())
    links = _read(cls, args, data, at)
    with _vector_known.generated_documents():
        assert links == _read(cls, args, data, at)
    return known


def _vector(values: list[float], *, keys: list[bytes] | None = None, types: list[int] | None = None,
            length: int | None = None, end: int = 0) -> bytes:
    """An array as the BSON layout writes it: the length, then per element a type byte, a key and its NUL, and
    the value (a double, or an int32 for type 0x10), then a final byte (NUL unless ``end``)."""
    keys = keys or [str(i).encode() for i in range(len(values))]
    types = types or [1] * len(values)
    body = b"".join(bytes([t]) + k + b"\x00" + (struct.pack("<d", v) if t == 1 else struct.pack("<i", int(v)))
                    for t, k, v in zip(types, keys, values))
    n = 4 + len(body) + 1 if length is None else length
    return struct.pack("<i", n) + body + bytes([end])


def test_the_known_reading_is_installed_and_can_be_put_back() -> None:
    assert Bson.Document._read is _vector_known._document_read
    assert Bson.ElementList._read is _vector_known._element_list_read
    with _vector_known.generated_documents():
        assert Bson.Document._read is _vector_known._GENERATED_READ
        assert Bson.ElementList._read is _vector_known._GENERATED_LIST_READ
    assert Bson.Document._read is _vector_known._document_read
    assert Bson.ElementList._read is _vector_known._element_list_read


def test_a_vector_reads_its_documented_values() -> None:
    data = _vector([1.5, -0.0, math.nan])
    assert len(data) == 4 + 3 * 11 + 1  # an element: type, one-digit key, NUL, eight bytes
    tree, error, pos = _both(Bson.Document, (2,), data)
    assert error is None and pos == len(data)
    fields = tree[1]
    assert fields["len_document"] == 38 and fields["terminator"] == 0 and fields["depth"] == 2
    elements = fields["elements"][1]["elements"]
    assert [e[1]["name"] for e in elements] == ["0", "1", "2"]
    assert [e[1]["type_code"] for e in elements] == [("Bson.ElementType", 1)] * 3
    assert [e[1]["value"][1]["value"] for e in elements] == [("float", struct.pack("<d", v))
                                                            for v in (1.5, -0.0, math.nan)]


def test_what_the_known_reading_declines_reads_as_generated() -> None:
    cases = {
        "an int32 among the doubles": _vector([1.0, 2.0], types=[1, 0x10]),
        "a key out of order": _vector([1.0, 2.0], keys=[b"0", b"2"]),
        "a key of two digits": _vector([1.0], keys=[b"00"]),
        "a final byte that is not NUL": _vector([1.0, 2.0], end=1),
        "a declared length one short": _vector([1.0, 2.0], length=26),
        "a declared length one long": _vector([1.0, 2.0], length=28),
        "ten doubles (keys of two digits)": _vector([float(i) for i in range(10)]),
        "an empty array": _vector([]),
        "cut inside the last double": _vector([1.0, 2.0])[:-4],
    }
    for data in cases.values():
        _both(Bson.Document, (0,), data)
    for depth in (99, 100, 101):  # the ksy's bound: a document deeper than 100 is rejected
        error = _both(Bson.Document, (depth,), _vector([1.0]))[1]
        assert (error is None) is (depth <= 100), depth


#: Elements of drawn documents: doubles under their place's key most of the time, else another type or key.
_ELEMENTS = st.lists(st.tuples(st.sampled_from([1, 1, 1, 1, 0x10]), st.floats(allow_nan=True),
                               st.sampled_from([None, None, None, b"x", b"00", b"1"])), max_size=11)


@given(_ELEMENTS, st.integers(-2, 2), st.sampled_from([0, 0, 1]), st.binary(max_size=3), st.integers(0, 6),
       st.integers(98, 101))
def test_a_document_reads_as_generated(elements: list[tuple[int, float, bytes | None]], slack: int, end: int,
                                       before: bytes, cut: int, depth: int) -> None:
    types = [t for t, _, _ in elements]
    values = [v if t == 1 else (0 if math.isnan(v) or math.isinf(v) else max(-2**31, min(2**31 - 1, int(v))))
              for t, v, _ in elements]
    keys = [k if k is not None else str(i).encode() for i, (_, _, k) in enumerate(elements)]
    data = _vector(values, keys=keys, types=types, end=end)
    data = data[:4] if not elements else data  # the bare length field, when no element was drawn
    n = struct.unpack_from("<i", data)[0] + slack
    data = before + struct.pack("<i", n) + data[4:]
    _both(Bson.Document, (depth,), data[:len(data) - cut], at=len(before))


def _element(code: int, key: bytes, value: Any) -> bytes:
    """One element as the BSON layout writes it: the type byte, the key and its NUL, the value's bytes."""
    return bytes([code]) + key + b"\x00" + value


def _nested(depth: int) -> bytes:
    """A document holding a document under the key "d", ``depth`` times, around an empty one (5 bytes: the length
    and the final NUL)."""
    inner = struct.pack("<i", 5) + b"\x00"
    for _ in range(depth):
        body = _element(3, b"d", inner)
        inner = struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"
    return inner


_DEEP = _nested(3)


#: Element values by type: the scalars the list reading makes at once (a double, an int32, an int64, a
#: string: its length counting the NUL, its bytes, the NUL), documents and arrays (whose element it makes, the
#: document the generated class reads) and others it leaves to the generated element.
_VALUES = st.one_of(
    st.floats(allow_nan=True).map(lambda v: (1, struct.pack("<d", v))),
    st.integers(-2**31, 2**31 - 1).map(lambda v: (0x10, struct.pack("<i", v))),
    st.integers(-2**63, 2**63 - 1).map(lambda v: (0x12, struct.pack("<q", v))),
    st.text(max_size=5).map(lambda t: (2, struct.pack("<i", len(t.encode()) + 1) + t.encode() + b"\x00")),
    st.sampled_from([(2, struct.pack("<i", 0) + b"\x00"), (2, struct.pack("<i", 3) + b"ab\x01"),
                     (2, struct.pack("<i", 3) + b"\xff\xfe\x00"), (2, struct.pack("<i", 9) + b"ab\x00"),
                     (8, b"\x01"), (8, b"\x02"), (0x0A, b""), (0x13, b"\x00" * 16), (0x21, b""),
                     (3, _vector([1.0])), (4, _vector([1.0, 2.0])), (4, _vector([1.0], end=1)),
                     # documents the list makes the element of: nested, empty, a length below 5, past the
                     # stream's end, a length field cut short, a final byte that is not NUL
                     (3, _DEEP), (4, struct.pack("<i", 5) + b"\x00"), (3, struct.pack("<i", 4) + b"\x00"),
                     (4, struct.pack("<i", 64) + b"\x00"), (3, b"\x05\x00"), (3, struct.pack("<i", 5) + b"\x01")]),
)
_KEYS = st.sampled_from([b"t", b"id", b"0", b"states", b"\xff", b""])


@given(st.lists(st.tuples(_VALUES, _KEYS), max_size=6), st.binary(max_size=3), st.integers(0, 12),
       st.sampled_from([b"", b"\x01", b"\x02x"]))
def test_an_element_list_reads_as_generated(elements: list[tuple[tuple[int, bytes], bytes]], before: bytes,
                                            cut: int, tail: bytes) -> None:
    """Elements of every scalar type the list reading makes at once and of others, with keys that are not UTF-8,
    strings whose length, NUL or bytes are wrong, cut anywhere (the list reads to its stream's end)."""
    data = before + b"".join(_element(code, key, value) for (code, value), key in elements) + tail
    _both(Bson.ElementList, (3,), data[:max(len(before), len(data) - cut)], at=len(before))


def test_an_element_list_reads_its_documented_values() -> None:
    data = (_element(1, b"t", struct.pack("<d", 0.25)) + _element(0x10, b"id", struct.pack("<i", -7))
            + _element(0x12, b"n", struct.pack("<q", 2**40)) + _element(2, b"i", struct.pack("<i", 3) + b"hi\x00"))
    tree, error, pos = _both(Bson.ElementList, (1,), data)
    assert error is None and pos == len(data)
    elements = [e[1] for e in tree[1]["elements"]]
    assert [(e["name"], e["type_code"][1], e["depth"]) for e in elements] == [("t", 1, 1), ("id", 16, 1), ("n", 18, 1),
                                                                             ("i", 2, 1)]
    values = [e["value"][1]["value"] for e in elements]
    assert values[:3] == [("float", struct.pack("<d", 0.25)), -7, 2**40]
    assert values[3][1] == {"len_value": 3, "value": "hi", "terminator": 0}


def _counted(calls: dict[str, int], key: str, read: Callable[[Any], None]) -> Callable[[Any], None]:
    """``read`` (a generated class's ``_read``), counting its calls in ``calls[key]``."""

    def counted(self: Any) -> None:
        calls[key] += 1
        read(self)

    return counted


def test_an_element_list_makes_its_documents_and_arrays_at_once() -> None:
    """An element holding a document (type 3) or an array (type 4) is made by the list reading, the document
    itself by the generated ``Bson.Document``: no generated ``element`` or ``element_value`` reading."""
    data = (_element(3, b"pose", _vector([1.0, 2.0])) + _element(4, b"states", _vector([3.0]))
            + _element(3, b"nest", _nested(3)))
    calls = {"element": 0, "value": 0}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Bson.Element, "_read", _counted(calls, "element", Bson.Element._read))
        patch.setattr(Bson.ElementValue, "_read", _counted(calls, "value", Bson.ElementValue._read))
        parse_either_way(Bson.ElementList, (1,), data, at=0, generated=None)
    assert calls == {"element": 0, "value": 0}
    tree, error, pos = _both(Bson.ElementList, (1,), data)
    assert error is None and pos == len(data)
    elements = [e[1] for e in tree[1]["elements"]]
    assert [(e["name"], e["type_code"][1], e["depth"]) for e in elements] == [("pose", 3, 1), ("states", 4, 1),
                                                                             ("nest", 3, 1)]
    # each value's document one level deeper, its declared length the bytes it spans
    documents = [e["value"][1]["value"][1] for e in elements]
    assert [(d["depth"], d["len_document"]) for d in documents] == [(2, 5 + 11 * 2), (2, 5 + 11), (2, 5 + 3 * 8)]


@pytest.mark.parametrize("depth", [98, 99, 100, 101])
def test_nested_documents_read_as_generated_up_to_the_ksy_depth_bound(depth: int) -> None:
    """Documents nested to the ksy's bound (a document's depth at most 100) and one past it, which the
    generated reading refuses at the innermost document's length field."""
    body = _element(3, b"d", _nested(depth - 1))
    data = struct.pack("<i", 4 + len(body) + 1) + body + b"\x00"
    with stack_for_nesting(100):  # as the cross-check reads (the trees are compared by recursive walks too)
        _tree, error, _pos = _both(Bson.Document, (0,), data)
    assert (error is None) == (depth <= 100)


@given(mutated(MATRIX_SEEDS))
def test_a_matrix_smt_file_reads_as_generated(data: bytes) -> None:
    _both(MatrixSmtRecord, (), data)


def test_the_corpus_files_hold_vectors_the_known_reading_takes() -> None:
    """spec.bson's states (a position of 3 doubles, a rotation of 4) and objects (colours, sizes) are read at
    once; its other documents (frames, states, objects, the arrays of them), whose lengths and final NULs are in
    place, without the generated document reading: none of spec.bson's documents takes it."""
    spec = (REPO / "corpus" / "matrix-smt" / "valid" / "spec.bson").read_bytes()
    calls = {"documents": 0, "generated": 0}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Bson.Document, "_read", _counted(calls, "documents", _vector_known._document_read))
        patch.setattr(_vector_known, "_GENERATED_READ", _counted(calls, "generated", _vector_known._GENERATED_READ))
        MatrixSmtRecord(MemoryStream(spec))
    # the top level, 2 top-level arrays, 3 frames with their states arrays and commands arrays, 4 objects: 16
    # documents at least besides the vectors
    assert calls["documents"] >= 16 + 10
    assert calls["generated"] == 0
    _both(MatrixSmtRecord, (), spec)


@pytest.mark.parametrize("fault", ["final byte", "length below 5", "length past the end"])
def test_a_document_whose_length_or_final_nul_is_wrong_reads_the_generated_way(fault: str) -> None:
    """A document that is no vector is read without the generated reading only where its length (at least 5,
    within the stream) and its final NUL are in place; else the generated reading raises its own error."""
    body = _element(0x10, b"id", struct.pack("<i", 7)) + _element(2, b"n", struct.pack("<i", 2) + b"a\x00")
    n = 4 + len(body) + 1
    data = {"final byte": struct.pack("<i", n) + body + b"\x01",
            "length below 5": struct.pack("<i", 4) + body + b"\x00",
            "length past the end": struct.pack("<i", n + 1) + body + b"\x00"}[fault]
    calls = {"generated": 0}
    generated = _vector_known._GENERATED_READ

    def counted_generated(self: Any) -> None:
        calls["generated"] += 1
        generated(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_vector_known, "_GENERATED_READ", counted_generated)
        _tree, error, _pos = parse_either_way(Bson.Document, (0,), data, at=0, generated=None)
    assert calls["generated"] == 1 and error is not None
    _both(Bson.Document, (0,), data)


def test_the_known_reading_leaves_the_collector_no_more_objects_than_the_generated_one() -> None:
    """The objects are made with their attributes set one by one in the generated order, as the generated
    constructors set them, so each keeps its attributes inline as those do: no dictionary of its own for the
    garbage collector to track (a parse tree is cycles, which only the collector frees)."""
    spec = (REPO / "corpus" / "matrix-smt" / "valid" / "spec.bson").read_bytes()

    def tracked() -> int:
        MatrixSmtRecord(MemoryStream(spec))  # first-use caches, outside the count
        gc.collect()
        gc.disable()
        try:
            before = len(gc.get_objects())
            tree = MatrixSmtRecord(MemoryStream(spec))  # alive while its objects are counted
            made = len(gc.get_objects()) - before
            del tree
            return made
        finally:
            gc.enable()

    known = tracked()
    with _vector_known.generated_documents():
        generated = tracked()
    assert 500 < known <= generated


def test_every_matrix_smt_corpus_file_reports_the_same_either_way() -> None:
    files = sorted((REPO / "corpus" / "matrix-smt").rglob("*.bson"))
    for path in files:
        with _vector_known.generated_documents():
            slow = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        fast = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        assert fast is not None and slow is not None
        assert fast.to_json() == slow.to_json(), path
    assert len(files) > 30


def test_the_real_matrix_smt_file_reports_the_same_either_way() -> None:
    path = real_file("Scene1.bson")
    with _vector_known.generated_documents():
        slow = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
    fast = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
    assert fast is not None and slow is not None
    assert fast.evidence["cross_check"].startswith("kaitai: agrees")
    assert fast.to_json() == slow.to_json()
