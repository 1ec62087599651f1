"""The second reading: the Kaitai parser generated from ``ksy/carla_recorder.ksy``,
compared with the reference decoder packet by packet.

The adapter is mechanical because the ksy's seq field names are the model's
field names: a Kaitai object becomes the model class of the same name
(``TrafficLight`` -> ``TrafficLightState``), Kaitai ``String`` objects become
their text, lists become tuples, and fields the model has but the ksy does not
read (the 36-byte wheel layout's stiffness fields) become ``None``.

Accept/reject: the Kaitai parser rejects exactly what the reference reports
under a *structural* rule (wrong magic, payload size != layout size, invalid
UTF-8, truncation). Any other disagreement, or different values where both
accept, is a divergence (``CARLA-XCHECK-001``): a bug in recspec or a gap in
the spec, never silently ignored.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import struct
from collections.abc import Callable, Iterator
from itertools import compress, count, repeat
from operator import gt, sub
from typing import Any, BinaryIO

from kaitaistruct import KaitaiStream, KaitaiStruct

from recspec._ksy_fast import carla_recorder
from recspec._ksy_fast.carla_recorder import CarlaRecorder as KS  # the cross-check: no debug mode
from recspec._plain import to_plain
from recspec.errors import DecodeError, Malformed, Truncated
from recspec.reference import carla as dec
from recspec.reference import carla as m
from recspec.reference.carla import PacketKind as K
from recspec.reference.carla import Variant
from recspec.report import FileReport, Finding

from .. import _sample
from .._kaitai import KAITAI_INPUT_ERRORS, Divergence, read_in_memory, stream_for, unread
from .._kaitai import KaitaiRejected as _KaitaiRejected
from .._sink import add_late_findings

__all__ = ["Divergence", "KaitaiRejected", "differential", "dump_kaitai", "kaitai_packets", "kaitai_parse", "same"]

# the cross-check reads bytes in memory: the parsers' sized fields too (read_in_memory's docstring)
read_in_memory(carla_recorder)

# the loaded names only (``vars``): the package's case codec loads on first use, and is no model class
_MODEL_OF = {name: vars(m)[name] for name in m.__all__ if dataclasses.is_dataclass(vars(m).get(name))}
_MODEL_OF["TrafficLight"] = m.TrafficLightState


class KaitaiRejected(_KaitaiRejected):
    """The Kaitai parser rejected the input (its message, ksy path and offset)."""

    rule = "CARLA-XCHECK-REJECT"


#: dataclass -> its fields' names, in order (``dataclasses.fields`` makes its tuple anew at every call,
#: and the cross-check asks it for every record of every packet)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _convert(obj: Any) -> Any:
    if isinstance(obj, KS.String):
        return obj.value
    if isinstance(obj, list):
        return tuple(_convert(x) for x in obj)
    if isinstance(obj, KaitaiStruct):
        cls = _MODEL_OF[type(obj).__name__]
        return cls(*(_convert(getattr(obj, name, None)) for name in _field_names(cls)))
    return obj


def _packet_to_model(p: Any, variant: Variant) -> m.Packet:
    kind = K(int(p.kind)) if int(p.kind) in K._value2member_map_ else K.RAW
    if kind is K.RAW and variant.wheel_physics_size is None and variant.ids.get(p.id) is K.PHYSICS_CONTROL:
        # UE5: the PhysicsControl layout is not known, so both readers keep the
        # payload as bytes; the ksy calls that packet raw, the reference keeps its kind.
        kind = K.PHYSICS_CONTROL
    payload = p.payload
    if isinstance(payload, (bytes, bytearray)):
        body: Any = bytes(payload)
    elif isinstance(payload, KS.RecordList):
        body = _convert(payload.records)
    else:
        body = _convert(payload)
    return m.Packet(kind, body, p.id)


def _rejected(e: BaseException, offset: int, what: str) -> KaitaiRejected:
    return KaitaiRejected.from_error(e, f"Kaitai parser rejects the {what}: ", offset=offset)


def kaitai_packets(f: BinaryIO, variant: Variant) -> Iterator[tuple[int, m.Packet | KaitaiRejected]]:
    """(offset, packet) pairs read by the Kaitai parser, packet by packet from ``f``.

    A packet whose payload the parser rejects yields the error and the walk goes
    on (the framing is intact); a rejected header or framing ends the walk.
    """
    ks_io = stream_for(f)
    try:
        header = unread(KS.Header, ks_io)
        header._read()
    except KAITAI_INPUT_ERRORS as e:
        yield 0, _rejected(e, 0, "header")
        return
    code = variant.code
    while not ks_io.is_eof():
        start = ks_io.pos()
        p = unread(KS.Packet, code, ks_io)
        try:
            p._read()
        except KAITAI_INPUT_ERRORS as e:
            framed = getattr(p, "len_payload", None) is not None and ks_io.pos() == start + 5 + p.len_payload
            yield start, _rejected(e, start, "packet")
            if not framed:
                return
            continue
        yield start, _packet_to_model(p, variant)


def kaitai_parse(data: bytes, variant: Variant) -> m.Recording:
    """The whole log by the Kaitai parser, as the reference model.

    Raises :class:`KaitaiRejected` (a :class:`DecodeError`) for anything the
    parser rejects; no other exception is expected (the fuzz target ``ksy``
    checks that).
    """
    ks_io = stream_for(data)
    try:
        root = unread(KS, variant.code, ks_io)
        root._read()
    except KAITAI_INPUT_ERRORS as e:
        raise _rejected(e, ks_io.pos(), "file") from None
    h = root.header
    header = m.Header(h.version, h.magic.value, h.date, h.map_name.value)
    return m.Recording(header, tuple(_packet_to_model(p, variant) for p in root.packets))


def same(a: Any, b: Any) -> bool:
    """Model equality where NaN equals NaN (the same float bits read twice).

    ``==`` first, in C: the model's dataclasses compare every field, with their
    classes (none leaves a field out of ``__eq__``: tests/test_carla_xcheck_same.py),
    so where ``==`` holds the walk below would too; it fails on a NaN, which the
    walk then accepts, or on a difference, which the walk finds. A packet of
    many fields costs one comparison instead of a call per field."""
    if a == b:
        return True
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(
            same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if dataclasses.is_dataclass(a) and dataclasses.is_dataclass(b) and type(a) is type(b):
        for f in dataclasses.fields(a):
            if not same(getattr(a, f.name), getattr(b, f.name)):
                return _first_difference(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            return f"{path} (length {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b)):
            if not same(x, y):
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: reference {a!r} vs Kaitai {b!r}"


def _has_bad_text(value: Any) -> bool:
    """Whether a string in ``value`` (a model object, walked) is not UTF-8 (holds surrogates)."""
    kind = type(value)
    if kind is float or kind is int:  # most of a packet: no text
        return False
    if isinstance(value, str):
        if value.isascii():
            return False
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if hasattr(kind, "__dataclass_fields__"):  # a dataclass instance (a dataclass itself has type ``type``)
        return any(_has_bad_text(getattr(value, name)) for name in _field_names(kind))
    if isinstance(value, tuple):
        return any(map(_has_bad_text, value))
    return False


def _reference_packets(f: BinaryIO, variant: Variant, offset: int, size: int
                       ) -> Iterator[tuple[int, m.Packet | DecodeError]]:
    f.seek(offset)
    reader = dec.PacketReader(f, variant, offset, size)
    try:
        for i, raw in enumerate(reader):
            try:
                body = dec.decode_body(raw.kind, raw.payload, variant, raw.payload_offset, f"packet[{i}]")
            except DecodeError as e:
                yield raw.offset, e
                continue
            p = m.Packet(raw.kind, body, raw.packet_id)
            if _has_bad_text(body):
                yield raw.offset, Malformed("string is not UTF-8", raw.offset, f"packet[{i}]", rule="CARLA-STRING-001")
                continue
            yield raw.offset, p
    except DecodeError as e:
        yield reader.tell(), e  # a framing error belongs to the packet that starts here


def differential(data: bytes, variant: Variant, limit: int = 20,
                 progress: Callable[[int, int], None] | None = None) -> list[Divergence]:
    """Compare both readings of one log held in memory; at most ``limit`` divergences.

    ``progress(done_bytes, total_bytes)`` is called every 512 packets, at the start of the 512th."""
    out: list[Divergence] = []
    try:
        header, offset = dec.decode_header(data, 0)
        ref_header_ok = header.magic == "CARLA_RECORDER" and not _has_bad_text(header)
    except DecodeError:
        offset, ref_header_ok = 0, False
    ks_all = kaitai_packets(io.BytesIO(data), variant)
    first = next(ks_all, None)
    ks_header_rejected = first is not None and first[0] == 0 and isinstance(first[1], KaitaiRejected) \
        and "header" in first[1].message
    if ks_header_rejected == ref_header_ok:
        out.append(Divergence("reference " + ("accepts" if ref_header_ok else "rejects") + " the header, Kaitai " +
                              ("rejects" if ks_header_rejected else "accepts") + " it", 0, "header"))
        return out
    if not ref_header_ok:
        return out
    pending = [first] if first is not None else []
    for n, (ref_off, ref_p) in enumerate(_reference_packets(io.BytesIO(data), variant, offset, len(data)), 1):
        if progress is not None and not n % 512:
            progress(ref_off, len(data))
        ks = pending.pop() if pending else next(ks_all, None)
        if ks is None:
            out.append(Divergence("reference reads a packet here, Kaitai has ended", ref_off, "packet"))
            break
        ks_off, ks_p = ks
        ref_bad = isinstance(ref_p, DecodeError)
        ks_bad = isinstance(ks_p, KaitaiRejected)
        if ref_bad and ks_bad and ks_off == ref_off:
            if isinstance(ref_p, Truncated):
                break
            continue
        if ref_bad != ks_bad or ks_off != ref_off:
            why = (f"reference {'rejects' if ref_bad else 'accepts'} ({ref_p}), "
                   f"Kaitai {'rejects' if ks_bad else 'accepts'}" + (f" ({ks_p})" if ks_bad else ""))
            if ks_off != ref_off:
                why += f"; Kaitai is at offset {ks_off}"
            out.append(Divergence(why, ref_off, "packet"))
            if len(out) >= limit or isinstance(ref_p, Truncated) or ks_off != ref_off:
                break
            continue
        if not same(ref_p, ks_p):
            out.append(Divergence(_first_difference(ref_p, ks_p), ref_off, f"packet:{ref_p.kind.label}"))  # type: ignore[union-attr]
            if len(out) >= limit:
                break
    else:
        extra = pending.pop() if pending else next(ks_all, None)
        if extra is not None:
            out.append(Divergence(f"Kaitai reads more than the reference: {extra[1]}", extra[0], "packet"))
    return out


#: The default cross-check reads about one packet in this many (and the header,
#: the first and last packet, any tail the framing refuses): a full second reading
#: costs 60-70 times the check on real logs (Kaitai without debug mode, the adapter
#: and the comparison; the check proves most frames clean in bulk), and framing every
#: packet to cut the sample costs half the check on its own (6,456 packets of a real
#: log: 1.6 ms against 3.1 ms), so the default check with its sample takes less than
#: twice the check alone.
SAMPLE_STRIDE = 1024
#: The Kaitai reading holds up to about 100 bytes per payload byte (an EventAdd of empty
#: attributes: several Python objects per 5-byte attribute), so a packet of more payload
#: bytes than this is left out of the second reading (about 100 MiB at most); the check's
#: own walk reads it, up to CARLA-LIMIT-001's MAX_PACKET_SIZE.
XCHECK_MAX_PACKET = 1024 * 1024
_PACKET_HEAD = struct.Struct("<BI")  # u8 id, u32 payload size


def _packet_spans(data: bytes, offset: int) -> Iterator[tuple[int, int]]:
    """(start, end) of every framed packet; the last may end past the data (truncated).
    The spans are framed ``_SPAN_CHUNK`` at a time in a tight loop (memory does not grow
    with the file; a yield per packet of the framing loop would cost more)."""
    unpack = _PACKET_HEAD.unpack_from
    n = len(data)
    most = dec.MAX_PACKET_SIZE
    pos = offset
    while True:
        spans: list[tuple[int, int]] = []
        add = spans.append
        for _ in range(_SPAN_CHUNK):
            if pos + 5 > n:
                if pos < n:
                    add((pos, n + 1))  # a cut packet header: the tail
                yield from spans
                return
            end = pos + 5 + unpack(data, pos)[1]
            if end > n or end - pos - 5 > most:
                add((pos, n + 1))  # truncated, or a size the framing refuses: the tail
                yield from spans
                return
            add((pos, end))
            pos = end
        yield from spans


_SPAN_CHUNK = 4096


def _chosen_packets(data: bytes, offset: int, stride: int) -> Iterator[tuple[int, int, int]]:
    """``_sample.choose`` of ``_packet_spans``: the packets the sample takes, as (index, start,
    end). The packets are framed ``_SPAN_BYTES`` of the file at a time by ``frame_packets`` (a
    loop that only steps from packet to packet) and chosen by C loops over their indices, so a
    packet costs no Python work of its own beyond its framing step (the tests compare the two)."""
    n = len(data)
    most = dec.MAX_PACKET_SIZE
    pos = offset
    i = 0  # the index of the packet at pos
    last: tuple[int, int, int] | None = None  # the last packet framed, if it was not taken
    while True:
        run, width = _header_run(data, pos, _RUN_MIN)
        if run:  # packets of one id and size: framed by arithmetic, however many
            taken = _sample.chosen_indices(i, i + run, stride)
            for j in taken:
                at = pos + (j - i) * width
                yield j, at, at + width
            last = None if taken and taken[-1] == i + run - 1 else (
                i + run - 1, pos + (run - 1) * width, pos + run * width)
            i += run
            pos += run * width
            continue
        ends = _frame_ends(data, pos, min(n, pos + _SPAN_BYTES), most)
        if not ends:  # the packet at pos does not lie whole in the window: larger, refused, cut, or none
            size = _PACKET_HEAD.unpack_from(data, pos)[1] if pos + 5 <= n else -1
            if 0 <= size <= most and pos + 5 + size <= n:
                ends = [pos + 5 + size]
            else:
                if pos < n:
                    yield i, pos, n + 1  # truncated, or a size the framing refuses: the tail, the last
                elif last is not None:
                    yield last
                return
        m = len(ends)
        taken = _sample.chosen_indices(i, i + m, stride)
        for j in taken:
            k = j - i
            yield j, ends[k - 1] if k else pos, ends[k]
        last = None if taken and taken[-1] == i + m - 1 else (i + m - 1, ends[-2] if m > 1 else pos, ends[-1])
        i += m
        pos = ends[-1]


def _frame_ends(buf: bytes, start: int, end: int, limit: int) -> list[int]:
    """Where each packet ends that ``frame_packets(buf, start, end, limit)`` frames (the same packets: whole
    within ``buf[:end]``, up to the first of more than ``limit`` payload bytes), in a loop that keeps only the
    ends (each packet starts where the one before it ends): the sample needs no ids, and the lists and the
    header tuples ``frame_packets`` keeps for the check cost as much as the stepping."""
    ends: list[int] = []
    add = ends.append
    size_at = _SIZE_AT
    j = start
    try:
        while j < end:
            j += 5 + size_at(buf, j)[0]  # raises where a header runs past the buffer
            add(j)
    except struct.error:
        pass
    if ends and ends[-1] > end:
        ends.pop()  # only the last one can end past ``end``
    if ends:
        widths = list(map(sub, ends, [start, *ends[:-1]]))
        if max(widths) > limit + 5:
            del ends[next(compress(count(), map(gt, widths, repeat(limit + 5)))):]
    return ends


_SIZE_AT = struct.Struct("<xI").unpack_from  # a packet's payload size, after its id


#: ``_chosen_packets`` frames this many bytes of the file at a time (its lists hold at most
#: about 1 MiB for the tiniest packets).
_SPAN_BYTES = 1 << 16
#: A run of at least this many packets of one header (id and payload size) is framed by arithmetic.
_RUN_MIN = 64
#: ``_header_run`` compares the headers of this many packets at a time (memory: 5 columns of as many bytes).
_RUN_BLOCK = 1 << 16


def _header_run(data: bytes, pos: int, least: int) -> tuple[int, int]:
    """``(count, width)`` of the packets from ``pos`` on that have the header (id and payload size) of the
    one at ``pos``, each whole within ``data`` and within ``MAX_PACKET_SIZE`` as ``frame_packets`` frames
    them: ``(0, 0)`` when there are fewer than ``least``. Each of the 5 header bytes is a strided column of
    the run's bytes, compared with that byte repeated (C speed, no Python step per packet); the framing is
    what stepping packet by packet gives, since each packet of such a run ends where the next one starts."""
    n = len(data)
    if pos + 5 > n:
        return 0, 0
    head = data[pos:pos + 5]
    width = 5 + _PACKET_HEAD.unpack_from(head)[1]
    if width - 5 > dec.MAX_PACKET_SIZE or pos + least * width > n or \
            data[pos + (least - 1) * width:pos + (least - 1) * width + 5] != head:
        return 0, 0
    count = 0
    most = (n - pos) // width  # whole packets only: a last one cut short is the tail, framed as before
    while count < most:
        take = min(_RUN_BLOCK, most - count)
        at = pos + count * width
        same = min(take - len(data[at + k:at + take * width:width].lstrip(head[k:k + 1])) for k in range(5))
        count += same
        if same < take:
            break
    return (count, width) if count >= least else (0, 0)



def cross_check_report(f: BinaryIO, report: FileReport, variant: Variant, size: int,
                       progress: Callable[[int, int], None] | None = None, *, full: bool = False) -> None:
    """Add a ``CARLA-XCHECK-001`` finding per divergence to ``report``: every packet with
    ``full``, else a sample (``conformance/_sample.py``)."""
    from ._rules import RULES_BY_ID

    rule = RULES_BY_ID["CARLA-XCHECK-001"]
    severity = rule.level(report.profile)
    f.seek(0)
    data = f.read()
    sample = None
    try:
        _, header_end = dec.decode_header(data, 0)
    except DecodeError:
        header_end = None  # the header is the finding; compare the readings of it in full
    if header_end is not None:
        sample = _sample.cut_chosen(data, header_end,
                                    _chosen_packets(data, header_end, 1 if full else SAMPLE_STRIDE),
                                    leave_out=lambda start, end: end - start - 5 > XCHECK_MAX_PACKET)
        if full and not sample.left_out:
            sample = None  # every packet: the sample is the file
    divergences = differential(data if sample is None else sample.data, variant, progress=progress)
    # counted under every profile, each profile's verdict updated (not only the driving one's)
    add_late_findings(report, rule, [Finding(
        "CARLA-XCHECK-001", severity, f"reference decoder and Kaitai parser disagree: {d.message}",
        d.offset if sample is None else sample.original_offset(d.offset), None, d.path) for d in divergences])
    outcome = "agrees" if not divergences else f"{len(divergences)} divergences"
    if sample is not None and full:
        report.evidence["cross_check"] = (f"kaitai: {outcome} on every packet but {sample.left_out:,}, each "
                                          f"above {XCHECK_MAX_PACKET:,} payload bytes (XCHECK_MAX_PACKET; the "
                                          f"check reads them)")
    else:
        report.evidence["cross_check"] = (f"kaitai: {outcome}" if sample is None
                                          else _sample.evidence(sample, len(data), "packet", SAMPLE_STRIDE, outcome))


# --- dump --ksy --------------------------------------------------------------------


def _debug_parser() -> Any:
    """The parser's debug build, which keeps every field's position: ``dump --ksy`` only (a check
    does not import it)."""
    from recspec._ksy.carla_recorder import CarlaRecorder

    return CarlaRecorder


def _tree(obj: Any, base: int) -> Any:
    KS_DEBUG = _debug_parser()
    if isinstance(obj, KS_DEBUG.String):
        return obj.value
    if isinstance(obj, list):
        return [_tree(x, base) for x in obj]
    if not hasattr(obj, "SEQ_FIELDS"):
        return to_plain(obj)
    out: dict[str, Any] = {"_type": type(obj).__name__}
    sub_base = base
    for name in obj.SEQ_FIELDS:
        if not hasattr(obj, name):
            continue
        dbg = obj._debug.get(name, {})
        value = getattr(obj, name)
        if name == "payload" and hasattr(obj, "len_payload"):
            sub_base = dbg.get("start", 0) + base  # the payload is parsed from its own substream
            out[name] = {"start": sub_base, "end": sub_base + obj.len_payload, "value": _tree(value, sub_base)}
            continue
        out[name] = {"start": base + dbg["start"] if "start" in dbg else None,
                     "end": base + dbg["end"] if "end" in dbg else None,
                     "value": _tree(value, base)}
    if hasattr(obj, "kind") and isinstance(obj, KS_DEBUG.Packet):
        out["kind"] = getattr(obj.kind, "name", obj.kind)
    return out


def dump_kaitai(f: BinaryIO, out: Any, variant: Variant) -> None:
    """The Kaitai parse tree with absolute byte offsets, one packet per line."""
    KS_DEBUG = _debug_parser()
    ks_io = KaitaiStream(f)
    out.write('{"parser": "recspec._ksy.carla_recorder", "variant": %s,\n' % json.dumps(variant.name))
    try:
        header = KS_DEBUG.Header(ks_io)
        header._read()
    except KAITAI_INPUT_ERRORS as e:
        out.write(' "error": %s\n}\n' % json.dumps(f"{type(e).__name__}: {e}"))
        return
    out.write(' "header": %s,\n "packets": [' % json.dumps(_tree(header, 0)))
    first = True
    error = None
    while not ks_io.is_eof():
        p = KS_DEBUG.Packet(variant.code, ks_io)
        try:
            p._read()
        except KAITAI_INPUT_ERRORS as e:
            error = f"{type(e).__name__} at offset {ks_io.pos()}: {e}"
            break
        out.write(("\n  " if first else ",\n  ") + json.dumps(_tree(p, 0)))
        first = False
    out.write("\n ]")
    if error:
        out.write(',\n "error": %s' % json.dumps(error))
    out.write("\n}\n")
