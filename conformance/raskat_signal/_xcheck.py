"""The Kaitai cross-check: the generated parser reads the file a second time.

``kaitai_read`` parses a whole file with ``recspec._ksy_fast.raskat_signal_file``
(xz by the ``recspec_xz`` process routine, tar by ``tar.ksy``, the signal by
``raskat_signal.ksy``/``msgpack.ksy``) and converts the parse tree into the
reference model, choosing the signal member by the same decision as the
reference (exactly one regular member, no larger than ``MAX_MEMBER_SIZE``).
``differential`` compares it with the reference decoder: both must reject the
same inputs (the reference with a structural error) and read the same values
where both accept.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from recspec._ksy_fast import msgpack, raskat_signal, raskat_signal_file, tar
from recspec._ksy_fast.raskat_signal import RaskatSignal  # the cross-check: no debug mode
from recspec._ksy_fast.raskat_signal_file import RaskatSignalFile
from recspec.errors import DecodeError
from recspec.reference.raskat_signal import (
    MAX_DEPTH,
    MAX_MEMBER_SIZE,
    MAX_UNPACKED,
    REGULAR,
    Ext,
    Fixed,
    MsgMap,
    Signal,
    SignalFile,
    SignalMsgpack,
    SignalV2,
    decode,
)
from recspec.report import FileReport, Finding

from .._kaitai import KAITAI_RUNTIME_ERRORS, Divergence, read_in_memory, stream_for
from .._kaitai import KaitaiRejected as _KaitaiRejected
from . import _tar_known

__all__ = ["Divergence", "KaitaiRejected", "cross_check_report", "differential", "kaitai_read", "same"]

# the cross-check reads bytes in memory: the parsers' sized fields too (read_in_memory's docstring)
read_in_memory(raskat_signal_file, tar, raskat_signal, msgpack)
# and makes the tar headers' octal characters and byte sums at once (_tar_known's docstring)
_tar_known.install()

#: What the generated parser raises for bad input: the runtime's own errors and the
#: process routine's, which derive from KaitaiStructError. Not the wider
#: ``_kaitai.KAITAI_INPUT_ERRORS``: this parser decodes no text, so a
#: ``ValueError`` or ``UnicodeDecodeError`` from it is a bug (the ``ksy`` fuzz
#: target reports it), not the input's fault.
KAITAI_INPUT_ERRORS = KAITAI_RUNTIME_ERRORS


class KaitaiRejected(_KaitaiRejected):
    """The Kaitai parser rejected the input."""

    rule = "RSIG-XCHECK-REJECT"


def _value(o: Any) -> Any:
    """A parsed msgpack object as the reference's value (by the lead byte: the
    ``is_*`` instances cost more than the parse itself on sample arrays)."""
    b = o.b1
    if b <= 0x7F:
        return b
    if b >= 0xE0:
        return b - 0x100
    if 0xCA <= b <= 0xD3:
        v = o.num_value
        return float(v) if b <= 0xCB else v
    if 0xA0 <= b <= 0xBF or 0xD9 <= b <= 0xDB:
        return bytes(o.data).decode("utf-8", "surrogateescape")
    if b <= 0x9F or b >= 0xDC:  # containers
        items = [_value(x) for x in o.items]
        if b <= 0x8F or b >= 0xDE:
            return MsgMap(tuple(zip(items[0::2], items[1::2])))
        return tuple(items)
    if b == 0xC0:
        return None
    if b in (0xC2, 0xC3):
        return b == 0xC3
    if 0xC4 <= b <= 0xC6:
        return bytes(o.data)
    return Ext(o.ext_type, bytes(o.data))


def _signal(k: Any) -> Signal:
    b = k.body
    if k.version in (1, 2):
        return SignalV2(k.version, bytes(b.time), b.microseconds, Fixed(b.lon_int, b.lon_frac),
                        Fixed(b.lat_int, b.lat_frac), Fixed(b.alt_int, b.alt_frac), b.sample_rate,
                        b.flags if k.version == 2 else None, tuple(b.samples))
    return SignalMsgpack(k.version, tuple(_value(x) for x in b.fields))


def _cstr(raw: bytes) -> str:
    return bytes(raw).split(b"\0", 1)[0].decode("utf-8", "surrogateescape")


def kaitai_read(data: bytes, *, max_unpacked: int = MAX_UNPACKED) -> SignalFile:
    """The file as the Kaitai parser reads it; :class:`KaitaiRejected` if it does not."""
    try:
        root = RaskatSignalFile(max_unpacked, MAX_DEPTH, stream_for(data))  # parses (no debug mode)
        if not root.is_xz:
            return SignalFile("raw", _signal(root.raw))
        members = []
        for e in root.container.entries[:-1]:
            h = e.header
            name = _cstr(h.name)
            if h.is_ustar and h.prefix[:1] != b"\0":
                name = _cstr(h.prefix) + "/" + name
            members.append((name, bytes([h.typeflag]), h.size.value, e))
        for name, _typeflag, size, e in members:
            if e.has_data and size > MAX_MEMBER_SIZE:
                raise KaitaiRejected(f"member {name!r} is larger than MAX_MEMBER_SIZE", 0, "tar")
        regular = [m for m in members if m[1] in REGULAR]
        if len(regular) != 1:
            raise KaitaiRejected(f"{len(regular)} regular tar members", 0, "tar")
        name, _, _, e = regular[0]
        sig = RaskatSignal(MAX_DEPTH, stream_for(e.body))  # parses (no debug mode)
        return SignalFile("tar.xz", _signal(sig), name)
    except KAITAI_INPUT_ERRORS as e:
        raise KaitaiRejected.from_error(e, "kaitai: ", offset=0) from None


def same(a: Any, b: Any) -> bool:
    """Model equality where NaN equals NaN (the same bits read twice)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return a == b or (len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)))
    if isinstance(a, (SignalV2, SignalMsgpack, SignalFile, MsgMap, Ext, Fixed)):
        # the fields of content: a field of how the file was written (SignalFile.mtime) takes no part
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a) if f.compare)
    return bool(a == b)


def differential(data: bytes, *, max_unpacked: int = MAX_UNPACKED, reference: SignalFile | None = None,
                 reference_error: DecodeError | None = None) -> list[Divergence]:
    """Where the two readings disagree (empty when they agree). ``reference``: the reference's
    reading of ``data`` when the caller has it (``decode(data, max_unpacked=max_unpacked)``);
    ``reference_error``: the error that ``decode`` raises on it, when the caller has that instead."""
    ref: SignalFile | None = reference
    ref_err: DecodeError | None = reference_error
    if ref is None and ref_err is None:
        try:
            ref = decode(data, max_unpacked=max_unpacked)
        except DecodeError as e:
            ref_err = e
    try:
        ks = kaitai_read(data, max_unpacked=max_unpacked)
    except KaitaiRejected as e:
        if ref is not None:
            return [Divergence(f"Kaitai rejects what the reference reads ({e.message})", 0, "file")]
        return []
    if ref is None:
        assert ref_err is not None
        return [Divergence(f"Kaitai reads what the reference rejects ({ref_err.rule}: {ref_err.message})",
                           ref_err.offset, ref_err.path)]
    if not same(ref, ks):
        return [Divergence(f"values differ: reference {ref!r:.300} vs Kaitai {ks!r:.300}", 0, "signal")]
    return []


def cross_check_report(data: bytes, report: FileReport, *, max_unpacked: int = MAX_UNPACKED,
                       reference: SignalFile | None = None, reference_error: DecodeError | None = None) -> None:
    """Run the differential and put its outcome into the report (``reference``, ``reference_error``: see
    :func:`differential`)."""
    divergences = differential(data, max_unpacked=max_unpacked, reference=reference,
                               reference_error=reference_error)
    if not divergences:
        report.evidence["cross_check"] = "kaitai: agrees"
        return
    report.evidence["cross_check"] = f"kaitai: {len(divergences)} divergence(s)"
    from .._sink import add_late_findings
    from ._rules import RULES_BY_ID

    # counted under every profile, each profile's verdict updated (not only the driving one's)
    add_late_findings(report, RULES_BY_ID["RSIG-XCHECK-001"], [
        Finding("RSIG-XCHECK-001", report_severity(report), d.message, d.offset, None, d.path) for d in divergences])


def report_severity(report: FileReport) -> Any:
    from ._rules import RULES_BY_ID

    return RULES_BY_ID["RSIG-XCHECK-001"].level(report.profile)
