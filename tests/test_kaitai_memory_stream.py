"""``MemoryStream`` (conformance/_kaitai.py) reads as the Kaitai runtime's ``KaitaiStream`` does.

The cross-check reads every file through MemoryStream, and the generated parsers'
sized fields too (``read_in_memory``). Its findings quote the parser's exceptions
and the positions they name, so the two streams must agree on everything a parse
shows: the tree it builds (also when it fails half-way), the exception (class,
message, arguments, position), and where the stream ends. Each generated parser
the cross-check runs is parsed both ways from the corpus's files mutated at
random; then whole cross-check reports are compared, file by file, on the corpus
and the real samples.
"""

from __future__ import annotations

import contextlib
import enum
import io
import re
import struct
import sys
from pathlib import Path
from typing import Any

import kaitaistruct
import pytest
from hypothesis import given
from hypothesis import strategies as st
from kaitaistruct import EndOfStreamError, InvalidArgumentError, KaitaiStream, KaitaiStruct, NoTerminatorFoundError

from helpers import NOT_SHIPPED, REPO, real_file
from recspec._ksy_fast.bson import Bson
from recspec._ksy_fast.carla_recorder import CarlaRecorder
from recspec._ksy_fast.matrix_smt_record import MatrixSmtRecord
from recspec._ksy_fast.nanover_recording import NanoverRecording
from recspec._ksy_fast.protobuf_wire import ProtobufWire
from recspec._ksy_fast.raskat_signal_file import RaskatSignalFile
from recspec.conformance._kaitai import MemoryStream, runtime_streams, stack_for_nesting, unread
from recspec.conformance.carla import _xcheck as carla_x
from recspec.conformance.matrix_smt import _xcheck as matrix_x
from recspec.conformance.nanover import _xcheck as nanover_x
from recspec.conformance.raskat_signal import _xcheck as raskat_x
from recspec.pipeline import check_file
from recspec.reference.carla import VARIANTS
from recspec.reference.raskat_signal import MAX_DEPTH as RASKAT_MAX_DEPTH
from recspec.reference.raskat_signal import MAX_UNPACKED

CORPUS = REPO / "corpus"
#: the cross-checks: importing them points their parsers' modules at MemoryStream (read_in_memory)
XCHECKS = (carla_x, nanover_x, matrix_x, raskat_x)


# --- one parser, both streams ---------------------------------------------------------


def _tree(v: Any) -> Any:
    """What a parse built, comparable with ``==``: every field but the links back
    (``_io``, ``_parent``, ``_root``); floats by their bits (NaN equals itself)."""
    if isinstance(v, KaitaiStruct):
        return type(v).__qualname__, {k: _tree(x) for k, x in vars(v).items() if k not in ("_io", "_parent", "_root")}
    if isinstance(v, list):
        return [_tree(x) for x in v]
    if isinstance(v, float):
        return "float", struct.pack("<d", v)
    if isinstance(v, enum.Enum):
        return type(v).__qualname__, v.value
    if isinstance(v, KaitaiStream):
        return "stream", v.pos(), v.size()
    return v


def _no_address(text: str) -> str:
    """``text`` without object addresses (a validation error quotes the object it rejects)."""
    return re.sub(r" at 0x[0-9a-f]+>", ">", text)


def _error(e: BaseException) -> tuple[Any, ...]:
    io_ = getattr(e, "io", None)
    return (type(e), _no_address(str(e)), _no_address(repr(e.args)), getattr(e, "src_path", None),
            getattr(e, "bytes_needed", None), getattr(e, "bytes_available", None),
            io_.pos() if io_ is not None else None)


def _parse(cls: type, args: tuple[Any, ...], data: bytes, stock: bool) -> tuple[Any, ...]:
    """(tree, error or None, the stream's position at the end) of ``cls(*args)`` over ``data``."""
    with contextlib.ExitStack() as stack:
        if stock:
            stack.enter_context(runtime_streams())
            stream: KaitaiStream = KaitaiStream(io.BytesIO(data))
        else:
            stream = MemoryStream(data)
        obj = unread(cls, *args, stream)
        error = None
        try:
            with stack_for_nesting(200):
                obj._read()
        except Exception as e:  # noqa: BLE001 - every exception must be the same, not only the input errors
            error = _error(e)
        with stack_for_nesting(200):
            return _tree(obj), error, stream.pos()


def _seeds(folder: str, *suffixes: str) -> list[bytes]:
    return [p.read_bytes() for p in sorted((CORPUS / folder).rglob("*"))
            if p.is_file() and p.suffix in suffixes and p.relative_to(CORPUS).parts[0] != "real"]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A seed from the corpus, then a few edits: cuts, byte changes, insertions, deletions; or random bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=256))
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["cut", "set", "insert", "delete"]))
        at = draw(st.integers(0, len(data)))
        if op == "cut":
            del data[at:]
        elif op == "set" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 16))]
    return bytes(data)


CARLA_SEEDS = _seeds("carla", ".log")
NANOVER_SEEDS = _seeds("nanover", ".traj", ".state")
MATRIX_SEEDS = _seeds("matrix-smt", ".bson")
RASKAT_SEEDS = _seeds("raskat-signal", ".sig")


def _same_both_ways(cls: type, args: tuple[Any, ...], data: bytes) -> None:
    assert _parse(cls, args, data, stock=False) == _parse(cls, args, data, stock=True)


@given(mutated(CARLA_SEEDS), st.sampled_from(sorted(v.code for v in VARIANTS.values())))
def test_carla_parser_reads_the_same_from_both_streams(data: bytes, code: int) -> None:
    _same_both_ways(CarlaRecorder, (code,), data)


@given(mutated(NANOVER_SEEDS), st.sampled_from(list(NanoverRecording.RecordKind)))
def test_nanover_parser_reads_the_same_from_both_streams(data: bytes, kind: Any) -> None:
    _same_both_ways(NanoverRecording, (kind,), data)


@given(mutated(MATRIX_SEEDS))
def test_matrix_smt_parser_reads_the_same_from_both_streams(data: bytes) -> None:
    _same_both_ways(MatrixSmtRecord, (), data)


@given(mutated(MATRIX_SEEDS))
def test_bson_parser_reads_the_same_from_both_streams(data: bytes) -> None:
    _same_both_ways(Bson, (), data)


@given(mutated(RASKAT_SEEDS))
def test_raskat_parser_reads_the_same_from_both_streams(data: bytes) -> None:
    _same_both_ways(RaskatSignalFile, (MAX_UNPACKED, RASKAT_MAX_DEPTH), data)


def test_the_seeds_cover_every_format() -> None:
    for seeds in (CARLA_SEEDS, NANOVER_SEEDS, MATRIX_SEEDS, RASKAT_SEEDS):
        assert len(seeds) >= 10


def test_every_generated_module_a_cross_check_runs_reads_in_memory() -> None:
    names = ["bson", "carla_recorder", "matrix_smt_record", "msgpack", "nanover_recording", "protobuf_wire",
             "raskat_signal", "raskat_signal_file", "tar"]
    modules = [sys.modules[f"recspec._ksy_fast.{n}"] for n in names]
    assert all(x.__name__ in sys.modules for x in XCHECKS)
    assert [m.KaitaiStream for m in modules] == [MemoryStream] * len(names)
    with runtime_streams():
        assert [m.KaitaiStream for m in modules] == [KaitaiStream] * len(names)
        assert type(carla_x.stream_for(b"")) is KaitaiStream
    assert [m.KaitaiStream for m in modules] == [MemoryStream] * len(names)
    assert type(carla_x.stream_for(b"")) is MemoryStream
    assert type(carla_x.stream_for(io.BytesIO(b""))) is MemoryStream


def test_the_parsers_sized_fields_read_through_memory_streams_and_stock_ones_when_asked() -> None:
    """The comparison above compares two different streams: the generated CARLA
    parser's payloads are MemoryStreams after ``read_in_memory``, the runtime's
    own under ``runtime_streams``."""
    def payload_streams() -> set[type]:
        streams = set()
        for log in CARLA_SEEDS:
            for v in VARIANTS.values():
                root = unread(CarlaRecorder, v.code, KaitaiStream(io.BytesIO(log)))
                with contextlib.suppress(Exception):
                    root._read()
                streams |= {type(p.payload._io) for p in getattr(root, "packets", None) or []
                            if isinstance(getattr(p, "payload", None), KaitaiStruct)}
        return streams

    assert payload_streams() == {MemoryStream}
    with runtime_streams():
        assert payload_streams() == {KaitaiStream}


# --- the stream's own edges, against the runtime ----------------------------------------------


def _both(data: bytes) -> tuple[KaitaiStream, MemoryStream]:
    return KaitaiStream(io.BytesIO(data)), MemoryStream(data)


def _do(stream: KaitaiStream, calls: list[tuple[str, tuple[Any, ...]]]) -> list[Any]:
    out: list[Any] = []
    for name, args in calls:
        try:
            out.append(("ok", _tree(getattr(stream, name)(*args))))
        except (kaitaistruct.KaitaiStructError, EOFError, ValueError) as e:
            out.append(_error(e))
        out.append((stream.pos(), stream.is_eof(), stream.size(), stream.bits_left))
    return out


READS = ["read_u1", "read_s1", "read_u2le", "read_u2be", "read_s2le", "read_s2be", "read_u4le", "read_u4be",
         "read_s4le", "read_s4be", "read_u8le", "read_u8be", "read_s8le", "read_s8be", "read_f4le", "read_f4be",
         "read_f8le", "read_f8be", "read_bytes_full"]
CALLS = st.one_of(
    st.tuples(st.sampled_from(READS), st.just(())),
    st.tuples(st.just("read_bytes"), st.tuples(st.integers(-2, 40))),
    st.tuples(st.just("seek"), st.tuples(st.integers(-2, 40))),
    st.tuples(st.sampled_from(["read_bits_int_be", "read_bits_int_le"]), st.tuples(st.integers(1, 20))),
    st.tuples(st.just("read_bytes_term"), st.tuples(st.one_of(st.integers(0, 3), st.sampled_from([-1, 255, 256])),
                                                    st.booleans(), st.booleans(), st.booleans())),
    st.tuples(st.just("read_bytes_term_multi"),
              st.tuples(st.sampled_from([b"\0\0", b"\1\0", b"\0\0\0\0"]), st.booleans(), st.booleans(), st.booleans())),
)


@given(st.binary(max_size=32).map(lambda b: b.replace(b"\5", b"\0")), st.lists(CALLS, max_size=12))
def test_every_read_gives_what_the_runtime_gives(data: bytes, calls: list[tuple[str, tuple[Any, ...]]]) -> None:
    stock, mine = _both(data)
    assert _do(mine, calls) == _do(stock, calls)


def _generated_enums() -> list[type[enum.Enum]]:
    """Every enum of the generated parsers the cross-check runs (nested in their classes)."""
    out: list[type[enum.Enum]] = []

    def walk(cls: type) -> None:
        for v in vars(cls).values():
            if isinstance(v, type) and issubclass(v, enum.Enum):
                out.append(v)
            elif isinstance(v, type) and issubclass(v, KaitaiStruct):
                walk(v)

    for root in (Bson, CarlaRecorder, MatrixSmtRecord, NanoverRecording, RaskatSignalFile, ProtobufWire):
        walk(root)
    return out


GENERATED_ENUMS = _generated_enums()


@pytest.mark.parametrize("enum_cls", GENERATED_ENUMS, ids=lambda e: e.__qualname__)
def test_an_enum_resolves_as_the_runtime_resolves_it(enum_cls: type[enum.Enum]) -> None:
    values: list[Any] = [*range(-2, 300), 2**64, *enum_cls, None, "a", True, [1]]
    for v in values:
        mine, stock = MemoryStream.resolve_enum(enum_cls, v), KaitaiStream.resolve_enum(enum_cls, v)
        assert type(mine) is type(stock) and mine == stock, v


def test_the_generated_enums_are_found() -> None:
    names = {e.__qualname__ for e in GENERATED_ENUMS}
    assert {"Bson.ElementType", "CarlaRecorder.PacketKind", "ProtobufWire.WireType"} <= names


def test_an_enum_with_its_own_missing_is_asked_itself() -> None:
    class Lenient(enum.IntEnum):
        ONE = 1

        @classmethod
        def _missing_(cls, value: object) -> Lenient:
            return cls.ONE

    assert MemoryStream.resolve_enum(Lenient, 7) is Lenient.ONE is KaitaiStream.resolve_enum(Lenient, 7)


@given(st.one_of(st.binary(max_size=600), st.integers(0, 600).map(bytes)), st.integers(-700, 700))
def test_the_byte_array_helpers_give_what_the_runtime_gives(b: bytes, i: int) -> None:
    def outcome(f: Any, *args: Any) -> Any:
        try:
            return "ok", f(*args)
        except Exception as e:  # noqa: BLE001 - the same exception, whatever it is
            return type(e), str(e)

    assert outcome(MemoryStream.byte_array_max, b) == outcome(KaitaiStream.byte_array_max, b)
    assert outcome(MemoryStream.byte_array_index, b, i) == outcome(KaitaiStream.byte_array_index, b, i)


def test_a_read_past_the_end_says_how_many_bytes_were_there() -> None:
    s = MemoryStream(b"\1\2\3")
    s.read_u1()
    with pytest.raises(EndOfStreamError, match="requested 4 bytes, but only 2 bytes available") as e:
        s.read_u4le()
    assert (e.value.bytes_needed, e.value.bytes_available, s.pos()) == (4, 2, 3)  # the runtime reads what is there
    s.seek(10)  # past the end, as a BytesIO allows
    assert s.read_bytes(0) == b"" and s.is_eof()
    with pytest.raises(EndOfStreamError, match="only 0 bytes available"):
        s.read_bytes(1)
    with pytest.raises(EndOfStreamError, match="requested 8388608 bytes, but only -7 bytes available"):
        s.read_bytes(8 * 1024 * 1024)  # the runtime's own count for a request this large
    with pytest.raises(InvalidArgumentError):
        s.seek(-1)
    with pytest.raises(NoTerminatorFoundError):
        MemoryStream(b"abc").read_bytes_term(0, False, True, True)


def test_a_bytesio_is_read_from_its_position() -> None:
    f = io.BytesIO(b"\0\1\2\3")
    f.seek(2)
    s = MemoryStream(f)
    assert (s.pos(), s.read_u2be(), s.is_eof(), f.tell()) == (2, 0x0203, True, 2)


def test_writing_is_refused() -> None:
    with pytest.raises(io.UnsupportedOperation):
        MemoryStream(b"\0\0").write_u1(1)


# --- whole reports, both streams -------------------------------------------------------------------


REPORT_FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file() and not p.name.startswith(".")
                      and p.relative_to(CORPUS).parts[0] != "real" and p.suffix != ".md")
REAL_NAMES = sorted({p.name for p in (CORPUS / "real").iterdir() if p.suffix != ".md"} | set(NOT_SHIPPED))


def _report(path: Path, stock: bool) -> Any:
    with runtime_streams() if stock else contextlib.nullcontext():
        fr = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
    return None if fr is None else fr.to_json()


def test_cross_check_reports_are_the_same_with_either_stream_on_the_corpus() -> None:
    differ = [str(p.relative_to(CORPUS)) for p in REPORT_FILES if _report(p, False) != _report(p, True)]
    assert differ == []
    assert len(REPORT_FILES) > 100


@pytest.mark.parametrize("name", REAL_NAMES)
def test_cross_check_reports_are_the_same_with_either_stream_on_a_real_file(name: str) -> None:
    path = real_file(name)
    mine = _report(path, False)
    assert "cross_check" in mine["evidence"]
    assert mine == _report(path, True)
