"""The second and third readings: the Kaitai parser generated from
``ksy/matrix_smt_record.ksy`` and pymongo's ``bson``, compared with the
reference walker.

Accept/reject: the reference raises a structural error (``MATRIX-BSON-*``,
``MATRIX-LIMIT-001``) exactly when the Kaitai parser rejects the bytes, and
pymongo agrees too. Two documented exceptions, where a reader does not enforce
a limit that is recspec's own: neither Kaitai nor pymongo counts elements or
buffered bytes (``MATRIX-LIMIT-002``, ``-003``), and pymongo does not bound the
nesting depth (``MATRIX-LIMIT-001``); on such inputs that reader's verdict is
not compared. And pymongo skips the keys of arrays without decoding them, so an
array key that is not UTF-8 (``MATRIX-BSON-005`` at a path ending ``[?]``) is
rejected by the reference and Kaitai only.

Values, where readers accept: the Kaitai reading is converted into the
reference's own values and compared with :func:`typed` (stored types, key order,
duplicate keys, array keys: everything). pymongo builds dicts, so the
comparison with it is on what a dict keeps: the last of duplicate keys, array
values without their keys, and pymongo's own types (a symbol is a ``str``,
undefined is ``None``, a regex is compared by its pattern, binary subtype 2
without its inner length, and documents that
pymongo turns into ``DBRef`` objects, like DBPointers, are compared only as
being DBRefs).
"""

from __future__ import annotations

import io
import json
import struct
from collections.abc import Iterable
from typing import Any, BinaryIO

import bson as pymongo_bson
from bson.code import Code
from bson.codec_options import CodecOptions, DatetimeConversion
from bson.dbref import DBRef
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from bson.objectid import ObjectId
from bson.regex import Regex
from bson.timestamp import Timestamp

from recspec._ksy_fast import bson as bson_ksy
from recspec._ksy_fast import matrix_smt_record
from recspec._ksy_fast.bson import Bson as KB  # the cross-check: no debug mode
from recspec._ksy_fast.matrix_smt_record import MatrixSmtRecord as KS
from recspec.errors import DecodeError
from recspec.reference import matrix_smt as b
from recspec.report import FileReport, Finding

from .. import _sample
from .._kaitai import KAITAI_INPUT_ERRORS, read_in_memory, stack_for_nesting, stream_for
from .._kaitai import Divergence as _Divergence
from .._kaitai import KaitaiRejected as _KaitaiRejected
from .._plugin import RUN_SAMPLE_FROM
from . import _vector_known
from ._json import plain

__all__ = ["Divergence", "KaitaiRejected", "agrees_with_pymongo", "differential", "dump_kaitai", "kaitai_parse",
           "kaitai_value", "pymongo_decode", "pymongo_form"]

# the cross-check reads bytes in memory: the parsers' sized fields too (read_in_memory's docstring),
# and makes the arrays of doubles at once (_vector_known's docstring)
read_in_memory(matrix_smt_record, bson_ksy)
_vector_known.install()

PYMONGO_OPTIONS: CodecOptions[dict[str, Any]] = CodecOptions(datetime_conversion=DatetimeConversion.DATETIME_MS,
                               unicode_decode_error_handler="strict")
#: recspec's own limits, which the other readers do not enforce (see the module docstring).
NOT_ENFORCED = {"kaitai": frozenset(("MATRIX-LIMIT-002", "MATRIX-LIMIT-003")),
                "pymongo": frozenset(("MATRIX-LIMIT-001", "MATRIX-LIMIT-002", "MATRIX-LIMIT-003"))}


class KaitaiRejected(_KaitaiRejected):
    """The Kaitai parser rejected the input."""

    rule = "MATRIX-XCHECK-REJECT"


class Divergence(_Divergence):
    """The shared :class:`recspec.formats.Divergence` (``reader`` is "kaitai" or
    "pymongo"), written reader first: ``recspec reproduce`` and the report's
    ``evidence.cross_check`` show it so."""

    def __str__(self) -> str:
        return f"{self.reader}: {self.message} (@{self.offset} {self.path})"


# --- Kaitai -------------------------------------------------------------------------------


def kaitai_parse(data: bytes) -> KS:
    """The Kaitai parse of a whole file; :class:`KaitaiRejected` when it fails."""
    try:
        with stack_for_nesting(b.MAX_DEPTH):  # the ksy bounds the depth at MAX_DEPTH too
            root = KS(stream_for(data))  # parses (no debug mode)
        return root
    except RecursionError as e:  # pragma: no cover - bounded by the depth limit in the ksy
        raise KaitaiRejected(f"recursion: {e}", 0) from None
    except KAITAI_INPUT_ERRORS as e:
        raise KaitaiRejected.from_error(e) from None


def _k_doc(d: Any, cls: type[b.Document] = b.Document) -> b.Document:
    els = d.elements.elements
    return cls([e.name for e in els], [_k_value(e.value) for e in els])


def _k_value(ev: Any) -> Any:
    code, v = ev.code, ev.value
    if code == 0x01 or code == 0x10:
        return v
    if code == 0x02:
        return v.value
    if code == 0x03:
        return _k_doc(v)
    if code == 0x04:
        return _k_doc(v, b.Array)
    if code == 0x08:
        return v.value == 1
    if code == 0x0A:
        return None
    if code == 0x12:
        return b.Int64(v)
    if code == 0x05:
        data = v.data
        if isinstance(data, KB.BinaryOld):
            data = struct.pack("<i", data.len_inner) + data.data
        return b.Binary(v.subtype, bytes(data))
    if code == 0x06:
        return b.Undefined()
    if code == 0x07:
        return b.ObjectId(bytes(v.value))
    if code == 0x09:
        return b.DateTime(v)
    if code == 0x0B:
        return b.Regex(v.pattern, v.options)
    if code == 0x0C:
        return b.DBPointer(v.namespace.value, bytes(v.pointer))
    if code == 0x0D:
        return b.Code(v.value)
    if code == 0x0E:
        return b.Symbol(v.value)
    if code == 0x0F:
        return b.CodeWithScope(v.body.code.value, _k_doc(v.body.scope))
    if code == 0x11:
        return b.Timestamp(v)
    if code == 0x13:
        return b.Decimal128(bytes(v.value))
    if code == 0x7F:
        return b.MaxKey()
    if code == 0xFF:
        return b.MinKey()
    raise AssertionError(f"type code {code:#x} passed the ksy's in-enum check")  # pragma: no cover


def kaitai_value(root: KS) -> b.Document:
    """The Kaitai reading as the reference's values (the top-level document)."""
    keys, values = [], []
    for s in root.sections.sections:
        keys.append(s.name)
        if s.is_frames or s.is_objects:
            lst = s.frames if s.is_frames else s.objects
            ekeys, evalues = [], []
            for e in lst.entries.entries:
                ekeys.append(e.name)
                if e.type_code == KB.ElementType.document:
                    evalues.append(_k_doc(e.frame if s.is_frames else e.scene_object))
                else:
                    evalues.append(_k_value(e.other))
            values.append(b.Array(ekeys, evalues))
        else:
            values.append(_k_value(s.other))
    return b.Document(keys, values)


# --- pymongo ------------------------------------------------------------------------------


def pymongo_decode(data: bytes) -> Any:
    return pymongo_bson.decode(data, PYMONGO_OPTIONS)


_DBREF = ("dbref",)
_F64 = struct.Struct("<d").pack
_I32_AT = struct.Struct("<i").unpack_from


def pymongo_form(value: Any) -> Any:
    """A pymongo-decoded value in the comparable form :func:`reference_form` also gives."""
    t = type(value)  # the exact types first (most values), then the subclasses in their order
    if t is float:
        return ("double", _F64(value))
    if t is int:
        return ("int", value)
    if t is str:
        return ("str", value)
    if t is list:
        return ("arr", [pymongo_form(v) for v in value])
    if t is dict:
        return ("doc", [(k, pymongo_form(v)) for k, v in value.items()])
    if isinstance(value, DBRef):
        return _DBREF
    if isinstance(value, dict):
        return ("doc", [(k, pymongo_form(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("arr", [pymongo_form(v) for v in value])
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, Int64):
        return ("long", int(value))
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("double", struct.pack("<d", value))
    if isinstance(value, Code):  # before str: Code is a str subclass
        scope = None if value.scope is None else pymongo_form(value.scope)
        return ("code", str(value), scope)
    if isinstance(value, str):
        return ("str", value)
    if value is None:
        return ("null",)
    if isinstance(value, pymongo_bson.Binary):  # before bytes: Binary is a bytes subclass
        return ("bin", value.subtype, bytes(value))
    if isinstance(value, bytes):
        return ("bin", 0, value)
    if isinstance(value, ObjectId):
        return ("oid", value.binary)
    if isinstance(value, pymongo_bson.DatetimeMS):
        return ("date", int(value))
    if isinstance(value, Regex):
        return ("regex", value.pattern)
    if isinstance(value, Timestamp):
        return ("ts", (value.time << 32) | value.inc)
    if isinstance(value, Decimal128):
        return ("dec", value.bid)
    if isinstance(value, MinKey):
        return ("min",)
    if isinstance(value, MaxKey):
        return ("max",)
    return ("?", repr(value))


def agrees_with_pymongo(value: Any, read: Any, *, embedded: bool = True) -> bool:
    """``reference_form(value, embedded=embedded) == pymongo_form(read)``, without building either
    form: a reference document and pymongo's ``dict`` (an array and its ``list``) are walked side by
    side, their doubles, ints, strings and booleans compared in place as the forms compare them (a
    double by its bytes); anything else (a DBRef, a long, a binary, a subclass) by the forms themselves."""
    t, u = type(value), type(read)
    if t is b.Document and u is dict:
        keys = value.keys
        if len(keys) == len(read) and "$ref" not in read and keys == list(read):
            # the stored keys are the dict's, in its order: none repeats (a dict's do not), so the dict a reader
            # builds holds every stored value in place, and with no "$ref" pymongo made no DBRef of it
            return _agree_in_order(value.values, read.values())
        m = value.map()
        if embedded and _pymongo_reads_as_dbref(m):
            return bool(reference_form(value, embedded=embedded) == pymongo_form(read))
        return len(m) == len(read) and list(m) == list(read) and _agree_in_order(m.values(), read.values())
    if t is b.Array and u is list:
        xs = value.values
        return len(xs) == len(read) and _agree_in_order(xs, read)
    if t is u and (t is str or t is int or t is bool):
        return bool(value == read)
    if t is float and u is float:
        return (value == read and value != 0.0) or _F64(value) == _F64(read)
    return bool(reference_form(value, embedded=embedded) == pymongo_form(read))


def _agree_in_order(values: Iterable[Any], reads: Iterable[Any]) -> bool:
    """``agrees_with_pymongo`` of each pair (embedded), the scalars :func:`agrees_with_pymongo` compares in
    place compared here without a call each (most of a recording's values: doubles, ints, strings)."""
    for x, y in zip(values, reads):
        t = type(x)
        if t is not type(y):
            if not agrees_with_pymongo(x, y):
                return False
        elif t is float:
            if not ((x == y and x != 0.0) or _F64(x) == _F64(y)):
                return False
        elif t is str or t is int or t is bool:
            if x != y:
                return False
        elif not agrees_with_pymongo(x, y):
            return False
    return True


def _pymongo_reads_as_dbref(m: dict[str, Any]) -> bool:
    """Whether pymongo turns an embedded document into a ``DBRef``: a string ``$ref``, an ``$id``, and a
    ``$db`` that is a string or absent (pymongo reads absent, null and undefined alike as ``None``). Anything
    else with those keys stays a document (the MongoDB BSON corpus's dbref.json, valid cases 4, 7 and 8)."""
    ref, db = m.get("$ref"), m.get("$db")
    return (type(ref) in (str, b.Symbol) and "$id" in m
            and (db is None or type(db) in (str, b.Symbol, b.Undefined)))


def reference_form(value: Any, *, embedded: bool = True) -> Any:
    """A reference value as a dict-building reader (pymongo) would keep it. ``embedded=False`` for the
    top-level document and a code's scope, which pymongo never turns into a DBRef."""
    t = type(value)
    if t is b.Array:
        return ("arr", [reference_form(v) for v in value.values])
    if t is b.Document:
        m = value.map()
        if embedded and _pymongo_reads_as_dbref(m):
            return _DBREF
        return ("doc", [(k, reference_form(v)) for k, v in m.items()])
    if t is bool:
        return ("bool", value)
    if t is b.Int64:
        return ("long", int(value))
    if t is int:
        return ("int", value)
    if t is float:
        return ("double", _F64(value))
    if t is str:
        return ("str", value)
    if value is None or t is b.Undefined:
        return ("null",)
    if t is b.Binary:  # pymongo drops the inner length of subtype 2 (the old binary layout)
        return ("bin", value.subtype, value.data[4:] if value.subtype == 2 else value.data)
    if t is b.ObjectId:
        return ("oid", value.data)
    if t is b.DateTime:
        return ("date", value.ms)
    if t is b.Regex:
        return ("regex", value.pattern)
    if t is b.DBPointer:
        return _DBREF
    if t is b.Code:
        return ("code", value.code, None)
    if t is b.Symbol:
        return ("str", value.value)
    if t is b.CodeWithScope:
        return ("code", value.code, reference_form(value.scope, embedded=False))
    if t is b.Timestamp:
        return ("ts", value.value)
    if t is b.Decimal128:
        return ("dec", value.data)
    if t is b.MinKey:
        return ("min",)
    if t is b.MaxKey:
        return ("max",)
    return ("?", repr(value))  # pragma: no cover


# --- the comparison ----------------------------------------------------------------------


def _first_difference(a: Any, c: Any, path: str = "") -> str:
    """Where two comparable forms first differ (for the message)."""
    if type(a) is tuple and type(c) is tuple and a[:1] == c[:1] and a[:1] in (("doc",), ("arr",), ("Document",),
                                                                              ("Array",)):
        xs, ys = a[-1], c[-1]
        for i, (x, y) in enumerate(zip(xs, ys)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
        if len(xs) != len(ys):
            return f"{path}: {len(xs)} vs {len(ys)} entries"
    return f"{path or 'top'}: {str(a)[:120]} vs {str(c)[:120]}"


def _not_compared(reader: str, ref_error: DecodeError | None) -> bool:
    """Whether ``reader``'s verdict is left out of the comparison when the reference rejects with ``ref_error``
    (the module's docstring): a limit of recspec's own that the reader does not enforce, or, for pymongo, an
    array key that is not UTF-8, which it skips undecoded. Where the reference accepts, every reader is compared."""
    if ref_error is None:
        return False
    if ref_error.rule in NOT_ENFORCED[reader]:
        return True
    return reader == "pymongo" and ref_error.rule == "MATRIX-BSON-005" and ref_error.path.endswith("[?]")


def differential(data: bytes) -> list[Divergence]:
    """Where the Kaitai and pymongo readings of ``data`` part from the reference's."""
    out: list[Divergence] = []
    ref: b.Document | None = None
    ref_error: DecodeError | None = None
    try:
        ref = b.decode_document(data)
    except DecodeError as e:
        ref_error = e
    # a reader whose verdict is not compared (_not_compared) does not read
    read_kaitai, read_pymongo = not _not_compared("kaitai", ref_error), not _not_compared("pymongo", ref_error)
    # Kaitai
    kval: b.Document | None = None
    k_error: DecodeError | None = None
    if read_kaitai:
        try:
            kval = kaitai_value(kaitai_parse(data))
        except KaitaiRejected as e:
            k_error = e
    # pymongo
    pval: Any = None
    p_error: str | None = None
    if read_pymongo:
        try:
            pval = pymongo_decode(data)
        except Exception as e:  # noqa: BLE001 - any pymongo failure is a rejection
            p_error = f"{type(e).__name__}: {e}"
    for reader, read, accepted, why in (("kaitai", read_kaitai, k_error is None, k_error),
                                        ("pymongo", read_pymongo, p_error is None, p_error)):
        if not read:
            continue
        if ref_error is None and not accepted:
            out.append(Divergence(f"rejects what the reference accepts: {why}", reader=reader))
        elif ref_error is not None and accepted:
            out.append(Divergence(f"accepts what the reference rejects ({ref_error.rule}: {ref_error.message})",
                                  ref_error.offset, ref_error.path, reader))
    # the trees side by side; the comparable forms are built only to say where they differ
    if ref is not None and kval is not None and not b.same_typed(ref, kval):
        out.append(Divergence("reads other values: " + _first_difference(b.typed(ref), b.typed(kval)), reader="kaitai"))
    if ref is not None and p_error is None and not agrees_with_pymongo(ref, pval, embedded=False):
        a, c = reference_form(ref, embedded=False), pymongo_form(pval)
        out.append(Divergence("reads other values: " + _first_difference(a, c), reader="pymongo"))
    return out


#: The default cross-check reads every frame of a file up to this size, and above it a
#: sample: the other top-level values (objects), the first and the last frame, and about one
#: frame in SAMPLE_STRIDE. The three-way reading costs about 0.3 ms a frame (the Kaitai parser
#: most of it) against 2-4 us a frame for the check (frames in runs of one layout), so about
#: 100 times; the objects and the first and last frame already cost about as much as
#: Scene1.bson's whole check (1.8 ms since its frames are checked in runs and decoded subtrees
#: with no irregular key are passed by), so the stride is 1,024: there the default cross-check
#: costs a little less than the check; at 512 it cost 2.01 times the check alone
#: (benchmarks/bench_ratios.py, "cross-check").
SAMPLE_ABOVE = 64 * 1024
SAMPLE_STRIDE = 1024


def _frame_spans(data: bytes, v: int) -> list[tuple[int, int]] | None:
    """``(start, end)`` of each element of the array at ``v`` when each is a document with an ASCII
    key inside the array, as the walker frames them, read from the lengths alone (not a walk: the
    elements after one that have its key length and document length are found a column of bytes at a
    time); ``None`` for anything else, which the walker frames (or rejects)."""
    (n,) = _I32_AT(data, v)
    last = v + n - 1
    if n < 5 or last >= len(data) or data[last] != 0:
        return None
    spans: list[tuple[int, int]] = []
    pos = v + 4
    find = data.find
    while pos < last:
        k = find(b"\x00", pos + 1, last)
        if data[pos] != b.T_DOCUMENT or k < 0 or k + 5 > last or not data[pos + 1:k].isascii():
            return None
        (dn,) = _I32_AT(data, k + 1)
        end = k + 1 + dn
        if dn < 5 or end > last or dn > b.MAX_BUFFERED_SIZE:
            return None
        spans.append((pos, end))
        stride = end - pos
        same = _same_elements(data[end:end + (last - end) // stride * stride], stride, k - pos - 1, data[k + 1:k + 5])
        if same:
            stop = end + same * stride
            spans.extend(zip(range(end, stop, stride), range(end + stride, stop + stride, stride)))
            end = stop
        pos = end
    return spans if pos == last else None


def _same_elements(block: bytes, stride: int, key_len: int, length: bytes) -> int:
    """How many elements of ``stride`` bytes from the start of ``block`` are, like the one before
    them, a document (type 3) with an ASCII key of ``key_len`` bytes and the ``length`` bytes."""
    m = len(block) // stride
    for at, byte in ((0, 3), (1 + key_len, 0), *((2 + key_len + i, x) for i, x in enumerate(length))):
        column = block[at:m * stride:stride]
        m -= len(column.lstrip(bytes((byte,))))  # up to the first element that differs
    for at in range(1, 1 + key_len):
        column = block[at:m * stride:stride]
        if 0 in column or not column.isascii():
            return 0  # the walk one element at a time says where
    return m


def sample_frames(data: bytes, stride: int = SAMPLE_STRIDE) -> _sample.Sample | None:
    """The document with every top-level value but the frames arrays byte for byte, and each
    top-level frames array (the key may be repeated: the checker reads each, the last as the
    recording) cut to its first, its last and about one frame in ``stride`` (their bytes, keys
    included, unchanged; the lengths around them recomputed). ``None`` when the reference walk
    cannot frame the file up to its first frames array (a structural error): then every byte is
    read. A structural error after it ends the search for more frames arrays: what follows is
    copied byte for byte, and the second reading meets the error there."""
    arrays: list[tuple[b.Section, list[tuple[int, int]]]] = []
    try:
        w = b.RecordingWalker(io.BytesIO(data), len(data))
        if w.declared != len(data):
            return None
        sections = w.sections()
        while True:
            try:
                s = next(sections, None)
            except DecodeError:
                if not arrays:
                    raise
                break
            if s is None:
                break
            if s.key == "frames" and s.type_code == b.T_ARRAY:
                spans = _frame_spans(data, s.value_offset) or [(e.offset, e.end) for e in w.entries(s, raw=True)]
                arrays.append((s, spans))
    except DecodeError:
        return None
    if not arrays:
        return None
    parts: list[bytes] = []
    runs = [(0, 0)]  # (offset in the sample, offset in the original) of each copied run
    pos = 4  # the sample's length so far (its own length field comes last)

    def copy(start: int, end: int) -> None:
        nonlocal pos
        if start != runs[-1][1] + (pos - runs[-1][0]):  # not contiguous with the previous copy
            runs.append((pos, start))
        parts.append(data[start:end])
        pos += end - start

    copied = 4  # the original's bytes up to here are in the sample
    units = chosen = 0
    for frames, spans in arrays:
        v = frames.value_offset
        copy(copied, v + 4)  # the top-level elements before this array, its type, key and length
        length_at, length_part = pos - 4, len(parts) - 1
        for i, (start, end) in enumerate(spans):
            if i == 0 or i == len(spans) - 1 or _sample.is_chosen(i, stride):
                copy(start, end)
                chosen += 1
        units += len(spans)
        copied = frames.end - 1  # the array's final NUL, then what follows it
        copy(copied, copied + 1)
        copied += 1
        piece = parts[length_part]
        parts[length_part] = piece[:-4] + struct.pack("<i", pos - length_at)
    copy(copied, len(data))
    body = b"".join(parts)
    return _sample.Sample(struct.pack("<i", len(body) + 4) + body, units, chosen, runs)


#: What a long run's malformed file's sample takes (``evidence.cross_check``; :func:`malformed_tail`), and why
#: (a long run's malformed file that the path's hash did not pick: conformance/_plugin.py malformed_from).
MALFORMED_SAMPLE = "the top-level values from the one the check found malformed"
MALFORMED_WHY = (f"since in a run of more than {RUN_SAMPLE_FROM} files a malformed file is cross-checked where it is "
                 "malformed, and the values before that passed the check")


def malformed_tail(data: bytes, start: int) -> _sample.Sample | None:
    """The document cut to the top-level element that holds offset ``start`` (or the first to end past it) and
    everything after it, byte for byte (the document's final NUL and any bytes after the document included); its
    length field the declared length less the bytes left out, so a length that disagreed with the bytes still
    does. ``units`` counts the elements left out. The elements are framed by the reference's walk; where it
    fails, the cut is at the end of the last element it framed. ``None`` where nothing would be left out (the
    first element holds ``start``, or ``start`` is in the length field), or the file is above SAMPLE_ABOVE
    (whose default sample reads fewer frames than this could): the file is then read as any other file."""
    if start < 4 or not 5 <= len(data) <= SAMPLE_ABOVE:
        return None
    cut_at = 4
    left_out = 0
    try:
        w = b.RecordingWalker(io.BytesIO(data), len(data))
        for s in w.sections():
            if s.end > start:
                break
            cut_at = s.end
            left_out += 1
    except DecodeError:
        pass  # the element the walk could not frame holds the error: cut before it
    if not left_out:
        return None
    (declared,) = _I32_AT(data, 0)
    body = data[cut_at:]
    return _sample.Sample(struct.pack("<i", declared - (cut_at - 4)) + body, left_out, 0, [(0, 0), (4, cut_at)])


def cross_check_report(f: BinaryIO, report: FileReport, size: int, *, full: bool = False,
                       malformed_from: int | None = None) -> None:
    """Run the three-way comparison and add what it finds to ``report``: on the whole file
    with ``full`` or up to SAMPLE_ABOVE bytes, else on :func:`sample_frames`. ``malformed_from``: the
    offset of a long run's malformed file's first structural finding (``conformance/_plugin.py``
    ``malformed_from``): the comparison reads the document from the top-level value that holds it
    (:func:`malformed_tail`)."""
    f.seek(0)
    data = f.read()
    tail = malformed_tail(data, malformed_from) if malformed_from is not None and not full else None
    sample = tail
    if sample is None:
        sample = None if full or len(data) <= SAMPLE_ABOVE else sample_frames(data)
    if sample is not None and tail is None and sample.full:
        sample = None  # every frame is in it: the file itself is the reading
    divergences = differential(data if sample is None else sample.data)
    if sample is not None:
        divergences = [Divergence(d.message, sample.original_offset(d.offset), d.path, d.reader)
                       for d in divergences]
    if tail is not None:
        outcome = "agrees; pymongo: agrees" if not divergences else f"{len(divergences)} divergence(s)"
        report.evidence["cross_check"] = (
            f"kaitai: {outcome} on the document without its first {tail.units:,} top-level value(s) "
            f"({len(tail.data):,} of {len(data):,} bytes: {MALFORMED_SAMPLE}, {MALFORMED_WHY}; "
            "--cross-check full reads every byte)")
        if not divergences:
            return
    elif not divergences:
        report.evidence["cross_check"] = ("kaitai: agrees; pymongo: agrees" if sample is None
                                          else _sample.evidence(sample, len(data), "frame", SAMPLE_STRIDE,
                                                                "agrees; pymongo: agrees"))
        return
    if tail is None:
        report.evidence["cross_check"] = "; ".join(str(d) for d in divergences)[:2000]
    from .._sink import add_late_findings
    from ._rules import RULES_BY_ID

    # counted under every profile, each profile's verdict updated (not only the driving one's)
    add_late_findings(report, RULES_BY_ID["MATRIX-XCHECK-001"], [
        Finding("MATRIX-XCHECK-001", report_level(report), f"{d.reader}: {d.message}", d.offset, None, d.path)
        for d in divergences])


def report_level(report: FileReport) -> Any:
    from ._rules import RULES_BY_ID

    return RULES_BY_ID["MATRIX-XCHECK-001"].level(report.profile)


def dump_kaitai(f: BinaryIO, out: Any, limit: int) -> None:
    """The Kaitai reading of a whole file as JSON (the values, with the section layout); a file
    above ``limit`` bytes (the cross-check's, ``_format.MAX_CROSS_CHECK_SIZE``) is not read."""
    f.seek(0, 2)
    size = f.tell()
    if size > limit:
        out.write(json.dumps({"format": "matrix-smt", "reader": "kaitai", "error":
                              f"{size} bytes is above the Kaitai reading's limit of {limit} bytes "
                              "(the debug-mode parser holds about 250 bytes per input byte); use recspec dump "
                              "without --ksy for the streamed reference reading"}) + "\n")
        return
    f.seek(0)
    data = f.read()
    try:
        root = kaitai_parse(data)
    except KaitaiRejected as e:
        out.write(json.dumps({"format": "matrix-smt", "reader": "kaitai", "error": str(e), "offset": e.offset}) + "\n")
        return
    sections = []
    for s, value in zip(root.sections.sections, kaitai_value(root).values):
        kind = "frames" if s.is_frames else "objects" if s.is_objects else "other"
        sections.append({"name": s.name, "type_code": int(s.type_code.value), "read_as": kind, "value": plain(value)})
    out.write(json.dumps({"format": "matrix-smt", "reader": "kaitai", "length": root.len_document,
                          "sections": sections}, default=str) + "\n")


