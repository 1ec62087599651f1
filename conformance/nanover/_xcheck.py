"""The second reading: the Kaitai parser generated from ``ksy/nanover_recording.ksy``,
compared with the reference decoder record by record.

The Kaitai tree is turned into the protobuf messages by applying each field
the way the protobuf runtime merges fields on the wire (a singular message
field seen twice is merged, a map entry replaces its key, a oneof member
replaces the others, repeated values append), then into the model with the
reference's own conversion. Unknown fields are not part of the model.

Accept/reject: Kaitai rejects a record exactly when the reference reports a
structural error for it (wire format, nesting limit, truncation); any other
disagreement, or different values where both accept, is a divergence
(``NANOVER-XCHECK-001``).
"""

from __future__ import annotations

import io
import itertools
import json
import struct
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from kaitaistruct import KaitaiStream

from recspec._ksy_fast import nanover_recording, protobuf_wire
from recspec._ksy_fast.nanover_recording import NanoverRecording as KS  # the cross-check: no debug mode
from recspec._pb import recspec_nanover_pb2 as pb
from recspec._plain import to_plain
from recspec.errors import DecodeError, LimitExceeded
from recspec.reference.nanover import (
    HEADER_SIZE,
    MAGIC,
    MAX_PAYLOAD_SIZE,
    Frame,
    Kind,
    RecordReader,
    StateUpdate,
    decode_payload,
    frame_from_message,
    parse_clean,
    read_header,
    same_value,
    scan,
    state_update_from_message,
)
from recspec.report import FileReport, Finding, Severity

from .. import _sample
from .._kaitai import KAITAI_INPUT_ERRORS, Divergence, read_in_memory, stream_for, unread
from .._kaitai import KaitaiRejected as _KaitaiRejected
from .._plugin import RUN_SAMPLE_FROM
from .._sink import add_late_findings
from . import _tag_known

__all__ = ["Divergence", "KaitaiRejected", "cross_check_report", "differential", "dump_kaitai", "kaitai_records"]

# the cross-check reads bytes in memory: the parsers' sized fields too (read_in_memory's docstring)
read_in_memory(nanover_recording, protobuf_wire)
# and makes one-byte field tags at once (_tag_known's docstring)
_tag_known.install()

_KIND_CODE = {Kind.TRAJ: KS.RecordKind.traj, Kind.STATE: KS.RecordKind.state}
_MASK64 = (1 << 64) - 1


class KaitaiRejected(_KaitaiRejected):
    """The Kaitai parser rejected the input (a header or a record)."""

    rule = "NANOVER-XCHECK-REJECT"


def _uint(v: Any, bits: int) -> int:
    value: int = v.value  # a Kaitai varint node's value
    return value & ((1 << bits) - 1)


def _fill_value(target: Any, node: Any) -> None:
    """Apply a Kaitai ``value`` node to a google.protobuf.Value, field by field."""
    for fld in node.fields:
        key, body = fld.tag.key.value, fld.body
        if key == 0x08:
            target.null_value = _uint(body, 32) if _uint(body, 32) < 1 << 31 else _uint(body, 32) - (1 << 32)
        elif key == 0x11:
            target.number_value = body
        elif key == 0x1A:
            target.string_value = body.value
        elif key == 0x20:
            target.bool_value = bool(body.value & _MASK64)
        elif key == 0x2A:
            if target.WhichOneof("kind") != "struct_value":
                target.struct_value.SetInParent()
            _fill_struct(target.struct_value, body.body)
        elif key == 0x32:
            if target.WhichOneof("kind") != "list_value":
                target.list_value.SetInParent()
            for f2 in body.body.fields:
                if f2.tag.key.value == 0x0A:
                    _fill_value(target.list_value.values.add(), f2.body.body)


def _entry(node: Any) -> tuple[str, list[Any]] | None:
    """(key, value nodes) of a map entry; ``None`` when it holds any other field:
    the protobuf runtime then drops the whole entry (keeps it as unknown bytes)."""
    key, values = "", []
    for fld in node.fields:
        if fld.tag.key.value == 0x0A:
            key = fld.body.value
        elif fld.tag.key.value == 0x12:
            values.append(fld.body.body)
        else:
            return None
    return key, values


def _fill_struct(target: Any, node: Any) -> None:
    for fld in node.fields:
        if fld.tag.key.value == 0x0A:
            entry = _entry(fld.body.body)
            if entry is None:
                continue
            key, values = entry
            target.fields[key].Clear()
            slot = target.fields[key]
            for v in values:
                _fill_value(slot, v)


def _fill_array(target: Any, node: Any) -> None:
    names = {0x0A: "float_values", 0x12: "index_values", 0x1A: "string_values"}
    for fld in node.fields:
        member = names.get(fld.tag.key.value)
        if member is None:
            continue
        if target.WhichOneof("values") != member:
            getattr(target, member).SetInParent()
        out = getattr(target, member).values
        for f2 in fld.body.body.fields:
            k, b = f2.tag.key.value, f2.body
            if member == "float_values":
                if k == 0x0A:
                    out.extend(b.values.values)
                elif k == 0x0D:
                    out.append(b)
            elif member == "index_values":
                if k == 0x0A:
                    out.extend(_uint(x, 32) for x in b.values.values)
                elif k == 0x08:
                    out.append(_uint(b, 32))
            elif k == 0x0A:
                out.append(b.value)


def _frame_message(node: Any) -> pb.GetFrameResponse:
    msg = pb.GetFrameResponse()
    for fld in node.fields:
        if fld.tag.key.value == 0x08:
            msg.frame_index = _uint(fld.body, 32)
        elif fld.tag.key.value == 0x12:
            msg.frame.SetInParent()
            for f2 in fld.body.body.fields:
                entry = _entry(f2.body.body) if f2.tag.key.value in (0x0A, 0x12) else None
                if entry is None:
                    continue
                if f2.tag.key.value == 0x0A:
                    key, values = entry
                    msg.frame.values[key].Clear()
                    for v in values:
                        _fill_value(msg.frame.values[key], v)
                else:
                    key, arrays = entry
                    msg.frame.arrays[key].Clear()
                    for a in arrays:
                        _fill_array(msg.frame.arrays[key], a)
    return msg


def _state_message(node: Any) -> pb.StateUpdate:
    msg = pb.StateUpdate()
    for fld in node.fields:
        if fld.tag.key.value == 0x0A:
            msg.changed_keys.SetInParent()
            _fill_struct(msg.changed_keys, fld.body.body)
    return msg


def record_model(rec: Any, kind: Kind) -> tuple[int, Frame | StateUpdate]:
    """(timestamp, message) of a Kaitai ``record``."""
    if kind is Kind.TRAJ:
        return rec.timestamp_us, frame_from_message(_frame_message(rec.payload))
    return rec.timestamp_us, state_update_from_message(_state_message(rec.payload))


def kaitai_records(f: BinaryIO, kind: Kind) -> Iterator[tuple[int, Any]]:
    """(offset, (timestamp, message) or KaitaiRejected) per record; the header first checked."""
    io_ = stream_for(f)
    header = unread(KS.Header, io_, None, None)
    try:
        header._read()
    except KAITAI_INPUT_ERRORS as e:
        yield 0, KaitaiRejected(f"Kaitai rejects the header: {e}", 0, "header")
        return
    while not io_.is_eof():
        pos = io_.pos()
        rec = unread(KS.Record, _KIND_CODE[kind], io_, None, None)
        try:
            rec._read()
        except KAITAI_INPUT_ERRORS as e:
            yield pos, KaitaiRejected.from_error(e, "Kaitai rejects the record: ", offset=pos, path="")
            return
        except RecursionError:
            yield pos, KaitaiRejected("Kaitai parser ran out of stack", pos)
            return
        yield pos, record_model(rec, kind)


def _reference_records(f: BinaryIO, kind: Kind, size: int) -> Iterator[tuple[int, Any]]:
    try:
        _, off = read_header(f)
    except DecodeError as e:
        yield 0, e
        return
    reader = RecordReader(f, off, size)
    try:
        for raw in reader:
            try:
                msg = decode_payload(kind, raw.payload, raw.payload_offset, f"record[{raw.index}]")
            except DecodeError as e:
                yield raw.offset, e
                return
            yield raw.offset, (raw.timestamp_us, msg)
    except DecodeError as e:
        yield reader.tell(), e


def differential(data: bytes, kind: Kind, limit: int = 20) -> list[Divergence]:
    """Where the two readings of ``data`` differ (empty when they agree).

    The readings are compared record by record as they are made (memory does not
    grow with the number of records)."""
    out: list[Divergence] = []
    pairs = itertools.zip_longest(_reference_records(io.BytesIO(data), kind, len(data)),
                                  kaitai_records(io.BytesIO(data), kind))
    for i, (r, k) in enumerate(pairs):
        if r is None or k is None:
            out.append(Divergence(f"record {i}: only {'the reference' if k is None else 'Kaitai'} "
                                  f"reads it: {(r or k)[1]}", (r or k)[0]))
            break
        rv, kv = r[1], k[1]
        if isinstance(rv, DecodeError) != isinstance(kv, KaitaiRejected):
            by_ref = f"rejects: {rv}" if isinstance(rv, DecodeError) else "accepts"
            by_ksy = f"rejects: {kv}" if isinstance(kv, KaitaiRejected) else "accepts"
            out.append(Divergence(f"record {i}: reference {by_ref}, Kaitai {by_ksy}", r[0]))
            break
        if isinstance(rv, DecodeError):
            break
        if r[0] != k[0] or not same_value(rv, kv):
            out.append(Divergence(f"record {i}: values differ: reference {str(rv)[:300]} / Kaitai {str(kv)[:300]}",
                                  r[0]))
        if len(out) >= limit:
            break
    return out


#: The default cross-check reads about one record in this many, chosen by a hash of its
#: index (and the header, any tail the framing refuses, and the last record when the hash
#: chose none): the check proves a repeated frame against a template in about 2 us, and the
#: Kaitai reading of a record costs 150-300 times that (a 1.2 kB frame about 0.33 ms, a 4.5 kB
#: frame of packed floats about 0.7 ms, the first frame, the topology, 1.5-2.1 ms: more than
#: the whole check of a 0.8 MB trajectory, so the first record is not always read, unlike a
#: CARLA log's first packet). The sample then costs about as much as the check
#: (``conformance/_sample.py``; benchmarks/bench_ratios.py, "cross-check"). One in 512, as
#: SAMPLE_BUDGET: on a file of records of one size the hash's choice is about the budget.
SAMPLE_STRIDE = 512
#: ... and the records it reads hold at most one byte in this many of the file's (the records the hash
#: chose that would pass it are left to the check, as the last record is): a record's Kaitai reading
#: costs 0.3-0.9 us a byte (a 4.5 kB frame of packed floats 1.4 ms, the 3 kB topology frame 2 ms) against
#: about 2 ns a byte for the check of a trajectory, so a sample of count alone read a record of 4.5 kB
#: of the 0.5 MB ``hello_vel.traj`` (114 records, the hash chose none, so the last) at 1.4 times the
#: check. A file whose records are all larger than its budget is compared on its header alone.
SAMPLE_BUDGET = 512
#: Files up to this size get every record read twice by default (a small file's whole reading
#: costs little in all), as Matrix-SMT's do.
SAMPLE_ABOVE = 64 * 1024
_RECORD_HEAD = struct.Struct("<QQQ")  # timestamp low, high, payload length
#: The Kaitai reading holds several KB per map entry or list element (about 4.9 GB for a payload
#: of 1,000,000 entries), so a record holding more than this many is left out of the second
#: reading (about 40 MB and 0.6 s at most per record); the check's own walk covers it, and
#: stops at NANOVER-LIMIT-003's larger MAX_VALUES.
XCHECK_MAX_VALUES = 8_192


def _record_spans(data: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of every framed record after the header; the last may end past the data."""
    n = len(data)
    pos = HEADER_SIZE
    while pos < n:
        if pos + _RECORD_HEAD.size > n:
            yield pos, n + 1
            return
        length = _RECORD_HEAD.unpack_from(data, pos)[2]
        end = pos + _RECORD_HEAD.size + length
        yield pos, (end if end <= n and length <= MAX_PAYLOAD_SIZE else n + 1)
        if end > n or length > MAX_PAYLOAD_SIZE:
            return
        pos = end


def _within_budget(chosen: Iterator[tuple[int, int, int]], budget: int,
                   size: int) -> Iterator[tuple[int, int, int]]:
    """``chosen`` (``_sample.choose``'s ``(index, start, end)``) but for the whole records that would take
    the sample's records past ``budget`` bytes: the last record, if it is one of them, is counted and not
    copied (``(index, -1, end)``); a tail the framing refuses (ending past ``size``) is always taken."""
    used = 0
    last = None
    for unit in chosen:
        index, start, end = unit
        if start >= 0 and end <= size:
            if used + (end - start) > budget:
                last = (index, -1, end)
                continue
            used += end - start
        last = None
        yield unit
    if last is not None:
        yield last  # a record left out may have been the file's last: cut_chosen counts the records by it


def _over_budget(data: bytes, start: int, end: int, kind: Kind) -> bool:
    """Whether the record at ``data[start:end]`` holds more than XCHECK_MAX_VALUES values (left out)."""
    if (end - start - _RECORD_HEAD.size <= 2 * XCHECK_MAX_VALUES
            and parse_clean(data[start + _RECORD_HEAD.size:end], kind.value) is not None):
        # the walk has nothing to say (parse_clean), and a payload this short cannot hold more than
        # XCHECK_MAX_VALUES values: every map entry or list element takes at least 2 bytes
        return False
    try:
        scan(data, start + _RECORD_HEAD.size, end, kind.value, max_values=XCHECK_MAX_VALUES)
    except LimitExceeded:
        return True
    except DecodeError:
        return False  # the differential compares how both readings reject it
    return False


#: What a long run's malformed file's sample takes (``evidence.cross_check``; ``_malformed_tail``).
MALFORMED_SAMPLE = "the header and every record from the one the check found malformed"
#: ... and why (a long run's malformed file that the path's hash did not pick: conformance/_plugin.py malformed_from)
MALFORMED_WHY = (f"since in a run of more than {RUN_SAMPLE_FROM} files a malformed file is cross-checked where it is "
                 "malformed, and the records before that passed the check")


def _malformed_tail(data: bytes, start: int, kind: Kind) -> _sample.Sample | None:
    """The header and every framed record that ends past ``start`` (the one holding it, and those after it),
    but a record over XCHECK_MAX_VALUES, which the default sample leaves out too; ``None`` where that is every
    record, or none (``start`` in the header or past the records), or the header is not NanoVer's, or the file
    is above SAMPLE_ABOVE (whose default sample reads fewer records than this could): the file is then read as
    any other file."""
    if (start < HEADER_SIZE or not HEADER_SIZE <= len(data) <= SAMPLE_ABOVE
            or data[:8] != MAGIC.to_bytes(8, "little")):
        return None
    spans = list(_record_spans(data))
    first = next((i for i, (_, end) in enumerate(spans) if end > start), None)
    if first is None or first == 0:
        return None
    chosen = ((i, s, e) for i, (s, e) in enumerate(spans) if i >= first)
    return _sample.cut_chosen(data, HEADER_SIZE, chosen,
                              leave_out=lambda s, e: _over_budget(data, s, e, kind))


def cross_check_report(f: BinaryIO, report: FileReport, kind: Kind, size: int,
                       progress: Callable[[int, int], None] | None = None, *, full: bool = False,
                       malformed_from: int | None = None) -> None:
    """Add NANOVER-XCHECK-001 findings and ``evidence.cross_check`` to a report: every record
    with ``full``, else a sample (``conformance/_sample.py``). ``malformed_from``: the offset of a long
    run's malformed file's first structural finding (``conformance/_plugin.py`` ``malformed_from``): the
    sample is the header and every record from the one that holds it (or ends past it)."""
    data = f.read()
    sample = None
    tail = _malformed_tail(data, malformed_from, kind) if malformed_from is not None and not full else None
    if tail is not None:
        sample = tail
    elif data[:8] == MAGIC.to_bytes(8, "little") and len(data) >= HEADER_SIZE:
        every = full or len(data) <= SAMPLE_ABOVE
        chosen = _sample.choose(_record_spans(data), 1 if every else SAMPLE_STRIDE, len(data), ends=False)
        if not every:
            chosen = _within_budget(chosen, len(data) // SAMPLE_BUDGET, len(data))
        sample = _sample.cut_chosen(data, HEADER_SIZE, chosen,
                                    leave_out=lambda start, end: _over_budget(data, start, end, kind))
        if full and not sample.left_out:
            sample = None  # every record: the sample is the file
    diffs = differential(data if sample is None else sample.data, kind)
    if diffs:
        from ._rules import RULES_BY_ID

        # counted under every profile, each profile's verdict updated (not only the driving one's)
        add_late_findings(report, RULES_BY_ID["NANOVER-XCHECK-001"], [Finding(
            "NANOVER-XCHECK-001", Severity.ERROR, d.message,
            d.offset if sample is None else sample.original_offset(d.offset)) for d in diffs])
        outcome = f"{len(diffs)} divergence(s)"
    else:
        outcome = "agrees"
    if sample is not None and sample.left_out and sample.units == sample.chosen + sample.left_out:
        # every record but those over the budget (--cross-check full, a file up to SAMPLE_ABOVE, or a sample
        # that took them all)
        report.evidence["cross_check"] = (f"kaitai: {outcome} on every record but {sample.left_out:,}, each "
                                          f"above {XCHECK_MAX_VALUES:,} map entries and list elements "
                                          f"(XCHECK_MAX_VALUES; the check reads them)")
    else:
        report.evidence["cross_check"] = (
            f"kaitai: {outcome}" if sample is None
            else _sample.evidence(sample, len(data), "record", SAMPLE_STRIDE, outcome, ends=False,
                                  which=MALFORMED_SAMPLE if tail is not None
                                  else f"the header and about 1 record in {SAMPLE_STRIDE} (the last when the "
                                       f"hash chose none), as long as they hold at most 1 byte in "
                                       f"{SAMPLE_BUDGET} of the file's",
                                  why=MALFORMED_WHY if tail is not None else _sample.AS_MUCH_AS_THE_CHECK))
    if progress is not None:
        progress(size, size)


def _tree(obj: Any, base: int = 0) -> Any:
    """An object of the Kaitai parse as JSON, every field's ``[start, end]`` (the ``name@`` keys) in bytes
    from the start of the file: an object parsed from a size-delimited substream (a record's payload, a
    length-delimited protobuf field) counts from where that substream starts in its parent, plus the
    parent's own base."""
    if isinstance(obj, list):
        return [_tree(x, base) for x in obj]
    if hasattr(obj, "groups") and hasattr(obj, "SEQ_FIELDS"):  # a varint: its value
        return obj.value
    if hasattr(obj, "SEQ_FIELDS"):
        out: dict[str, Any] = {"_type": type(obj).__name__}
        dbg = getattr(obj, "_debug", {})
        own_io = getattr(obj, "_io", None)
        for name in obj.SEQ_FIELDS:
            if hasattr(obj, name):
                value = getattr(obj, name)
                d = dbg.get(name, {})
                start = d.get("start")
                if isinstance(value, list):
                    arr = d.get("arr", [])
                    out[name] = [_tree(v, _child_base(v, own_io, base, arr[i] if i < len(arr) else {}))
                                 for i, v in enumerate(value)]
                else:
                    out[name] = _tree(value, _child_base(value, own_io, base, d))
                if start is not None:
                    out[name + "@"] = [base + start, base + d["end"] if "end" in d else None]
        return out
    return to_plain(obj)


def _child_base(value: Any, parent_io: Any, base: int, dbg: dict[str, Any]) -> int:
    """Where ``value``'s positions count from: its parent's base, or, when it was parsed from a substream
    of its own, the start of that substream's bytes in the parent."""
    io_ = getattr(value, "_io", None)
    if io_ is not None and io_ is not parent_io and "start" in dbg:
        return base + int(dbg["start"])
    return base


def dump_kaitai(f: BinaryIO, out: Any, kind: Kind) -> None:
    """The Kaitai parse tree, one record per line, every position in bytes from the start of the file."""
    # the parser's debug build, which keeps every field's position: dump --ksy only (a check does not import it)
    from recspec._ksy.nanover_recording import NanoverRecording as KS_DEBUG

    kind_code = {Kind.TRAJ: KS_DEBUG.RecordKind.traj, Kind.STATE: KS_DEBUG.RecordKind.state}[kind]
    io_ = KaitaiStream(f)
    header = KS_DEBUG.Header(io_, None, None)
    try:
        header._read()
    except KAITAI_INPUT_ERRORS as e:
        out.write(json.dumps({"error": str(e)}) + "\n")
        return
    out.write(json.dumps({"header": {"magic": header.magic, "version": header.version}}) + "\n")
    while not io_.is_eof():
        pos = io_.pos()
        rec = KS_DEBUG.Record(kind_code, io_, None, None)
        try:
            rec._read()
        except KAITAI_INPUT_ERRORS as e:
            out.write(json.dumps({"offset": pos, "error": f"{type(e).__name__}: {e}"}) + "\n")
            return
        out.write(json.dumps({"offset": pos, "record": _tree(rec)}) + "\n")



