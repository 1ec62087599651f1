"""Fuzzing raSkat signal files: harnesses, a structure-aware mutator that
reaches through the tar.xz container, seeds and the libFuzzer dictionary.

Harnesses (``TARGETS``), each ``(data: bytes) -> None``, raising when its
invariant does not hold:

* ``ref``: ``check_bytes`` returns a report that renders as standard JSON and
  never raises, under the profile chosen by the input's length (``len & 1``:
  compat, else spec); one walk serves both, as the walk does not depend on
  the profile (it picks only which findings are stored and at which level) and the
  report carries both profiles' verdicts; ``decode`` raises only
  ``DecodeError``;
* ``ksy``: the generated Kaitai parser (``kaitai_read``) raises only
  ``KaitaiRejected``;
* ``diff``: the two readings agree (``differential`` is empty), else
  :class:`Divergent`.

The mutator (:func:`mutate`, atheris' ``custom_mutator`` signature) opens the
container first: a tar.xz input is decompressed (bounded by
``FUZZ_MAX_UNPACKED``), its signal member mutated, and the archive rebuilt and
recompressed, so mutations reach the signal instead of dying at the xz
integrity check. On the signal it edits the model (a v2 field or sample, a
v3/v4 MessagePack field replaced by a value of any type or width, a field
dropped, added or swapped, the version word) and re-encodes; on the
container it swaps raw and tar.xz, adds members, links and '..' names, breaks
a header checksum, cuts or extends the xz stream. Byte mutation is the
fallback, also applied inside the container.
"""

from __future__ import annotations

import functools
import io
import json
import lzma
import math
import random
import struct
import tarfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from recspec.conformance.raskat_signal import RULES as _RULES
from recspec.conformance.raskat_signal import check_bytes
from recspec.conformance.raskat_signal._xcheck import (
    Divergence,
    differential,
    kaitai_read,
)
from recspec.errors import DecodeError
from recspec.reference.raskat_signal import (
    XZ_MAGIC,
    Ext,
    Fixed,
    MsgMap,
    SignalMsgpack,
    SignalV2,
    decode,
    decode_body,
    encode,
    encode_body,
    msgpack_pack,
    signal_member,
    unwrap,
)
from recspec.report import Report

from . import _mutate
from ._contract import ContractViolation, Divergent, refuse_variant
from ._dictionary import render
from ._mutate import BYTE_MUTATION_RATE
from ._oracles import (
    check_located,
    check_model_view,
    check_paths_agree,
    check_profiles,
    check_rederived,
    check_refusal,
    check_round_trip,
    sampled,
)

__all__ = [
    "BYTE_MUTATION_RATE", "EXTENSION", "FUZZ_MAX_UNPACKED", "TARGETS", "ContractViolation", "Divergent",
    "derive_seeds", "describe_input", "dictionary_entries", "dictionary_text", "divergence_kind", "fuzz_diff",
    "fuzz_ksy", "fuzz_ref", "mutate", "synthetic_seeds", "use_variant",
]

#: File extension of saved crashes (``recspec check`` recognises them by content anyway).
EXTENSION = ".sig"
#: The xz output limit of the mutator and the harnesses: an xz bomb among the
#: inputs then costs 1 MiB of work per execution instead of MAX_UNPACKED (8 MiB);
#: the limit's own code path is the same whatever its value.
FUZZ_MAX_UNPACKED = 1 << 20


#: What a :class:`Divergent` broke.
_COMPARED = "recspec.conformance.raskat_signal._xcheck"


def divergence_kind(d: Divergence) -> str:
    """A divergence's signature: its message up to the first detail."""
    return "raskat-diff:" + d.message.split("(")[0].split(":")[0][:60].strip()


# --- harnesses -------------------------------------------------------------------------


#: The rules whose errors make a file malformed (the structural/semantic split, ARCHITECTURE.md).
_STRUCTURAL = frozenset(r.id for r in _RULES if r.structural)


def fuzz_ref(data: bytes) -> None:
    # Invariant: check_bytes() returns a report for any bytes and never raises
    # (not even a DecodeError), under the profile chosen by the input's length;
    # the report renders as standard JSON; decode() raises only DecodeError
    # subclasses. One walk serves both profiles: check_bytes walks the same way
    # whatever its profile (the profile picks only which findings are stored
    # and at which level; latitude/longitude are judged both ways and tagged), and the
    # report carries every profile's verdict and counts (FileReport.verdicts).
    # The oracles (fuzz/_oracles.py): findings located inside the file (offsets in a tar.xz
    # are in its tar or member, not in the file's bytes), spec never kinder than compat but
    # for the coordinates (read in either order), malformed exactly when decode() refuses,
    # and a valid file's decoded signal re-encodes to a file that checks valid.
    profile = "compat" if len(data) & 1 else "spec"
    report = _check(data, profile)
    json.dumps(Report([report]).to_json(), allow_nan=False)
    try:
        decoded, refused = decode(data, max_unpacked=FUZZ_MAX_UNPACKED), None
    except DecodeError as e:
        decoded, refused = None, e
    check_located(report, len(data) if data[:6] != XZ_MAGIC else None, _UNITS)
    check_profiles(report, _REREAD)
    check_refusal(report, refused, _STRUCTURAL, _LENIENT)
    if sampled(data):  # the C unpacker's proof against the hand-written reader's walk
        check_paths_agree(report, _check(data, profile, fast_path=False))
    if decoded is not None and report.verdict.value != "malformed" and (decoded.container == "raw" or sampled(data)):
        # the second opinion reads the body's bytes itself (a tar.xz's on an eighth of the inputs: unwrapping
        # costs an lzma decompressor)
        signal, raw = decoded.signal, decoded.container == "raw"
        fields = functools.cache(lambda: read_fields(data if raw else _body(data)))
        check_model_view(lambda: _views(signal, fields()), report.variant)
        check_rederived(report, lambda: _rederived_or_none(fields()))
    if decoded is not None and report.verdict.value == "valid":
        # the body, not the container: re-wrapping in tar.xz costs an lzma compressor per valid input
        # (half the execution); only a body that is not canonical is re-wrapped to be checked again
        if decoded.container == "raw":
            body = data
        else:
            u = unwrap(data, FUZZ_MAX_UNPACKED)
            m = signal_member(u)
            assert u.tar is not None
            body = u.tar[m.data_offset:m.data_offset + m.size]
        check_round_trip(body, decoded.signal, encode_body,
                         lambda again: _check(again if decoded.container == "raw" else
                                              encode(replace(decoded, signal=decode_body(again))), profile),
                         report.variant)


def _views(signal: Any, read: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]] | None:
    return None if read is None else (model_view(signal), read)


def _rederived_or_none(read: dict[str, Any] | None) -> dict[str, str | None]:
    return {} if read is None else rederived(read)


def _body(data: bytes) -> bytes:
    u = unwrap(data, FUZZ_MAX_UNPACKED)
    m = signal_member(u)
    assert u.tar is not None
    return u.tar[m.data_offset:m.data_offset + m.size]


# --- the second opinion: docs/formats/raskat-signal.md's layouts, read without the reference decoder ---

#: Versions 1 and 2 after the version word (the document's table): time, microseconds, longitude,
#: latitude and altitude as (u16 integer part, u32 millionths), sample rate, [flags,] sample count.
_FIXED_LAYOUT = {2: struct.Struct("<14sIHIHIHIIBI"), 1: struct.Struct(">14sIHIHIHIII")}
#: Versions 3 and 4: the MessagePack objects in stored order, by the model's names for them.
_MSGPACK_FIELDS = ("time", "microseconds", "coordinate_1", "coordinate_2", "altitude", "sample_rate", "load_ohm",
                   "adc_bits", "vref", "flags", "antenna", "samples", "threshold")
_MSGPACK_COUNT = {3: 12, 4: 13}


def read_fields(body: bytes) -> dict[str, Any] | None:
    """The body's fields read by ``struct`` (versions 1, 2: the header and the samples) or the ``msgpack``
    package (3, 4), at the positions the format document gives; ``None`` when that reading fails (the rules
    then judge the bytes alone). Only plain values are kept (scalars and arrays of them, however nested;
    no maps or ext types)."""
    if len(body) < 2:
        return None
    version = int.from_bytes(body[:2], "little")
    if version in _FIXED_LAYOUT:
        st = _FIXED_LAYOUT[version]
        if len(body) < 2 + st.size:
            return None
        t = st.unpack_from(body, 2)
        out = {"version": version, "time": t[0], "microseconds": t[1], "longitude": (t[2], t[3]),
               "latitude": (t[4], t[5]), "altitude": (t[6], t[7]), "sample_rate": t[8]}
        if version == 2:
            out["flags"] = t[9]
        # the samples: the count's i16 values right after the header, to the end of the body (the byte order
        # of the header's integers)
        count, header = t[-1], 2 + st.size
        if len(body) == header + 2 * count:
            out["samples"] = struct.unpack_from(f"{'<' if version == 2 else '>'}{count}h", body, header)
        return out
    if version not in _MSGPACK_COUNT:
        return None
    import msgpack  # type: ignore[import-untyped]  # the third-party reader, as a second opinion on recspec's own

    unpacker = msgpack.Unpacker(use_list=False, raw=False, strict_map_key=False, max_buffer_size=len(body))
    unpacker.feed(body[2:])
    out = {"version": version}
    try:
        for name in _MSGPACK_FIELDS[:_MSGPACK_COUNT[version]]:
            value = unpacker.unpack()
            if _plain(value):
                out[name] = value
    except Exception:  # any refusal of the third-party reader: no second opinion on this input
        return None
    return out


#: The value classes both readers give a MessagePack scalar (bin is bytes in both; an ext or a map is not
#: compared: each reader has its own class for them).
_SCALARS = frozenset((int, float, str, bool, bytes, type(None)))


def _plain(value: Any) -> bool:
    """A scalar, or an array (a tuple in both readers) of plain values, nested arrays included."""
    if type(value) is tuple:
        return _SCALARS.issuperset(map(type, value)) or all(map(_plain, value))
    return type(value) in _SCALARS


def model_view(signal: Any) -> dict[str, Any]:
    """The decoded signal's named fields, as :func:`read_fields` names them."""
    if isinstance(signal, SignalMsgpack):
        return {"version": signal.version, **{name: getattr(signal, name) for name in _MSGPACK_FIELDS}}
    return {"version": signal.version, "time": signal.time, "microseconds": signal.microseconds,
            "longitude": (signal.longitude.int_part, signal.longitude.frac),
            "latitude": (signal.latitude.int_part, signal.latitude.frac),
            "altitude": (signal.altitude.int_part, signal.altitude.frac), "sample_rate": signal.sample_rate,
            "flags": signal.flags, "samples": signal.samples}


def _uint(x: Any) -> bool:
    return type(x) is int and x >= 0


#: docs/formats/raskat-signal.md's ranges: latitude, longitude (degrees), altitude (m), ADC bits, int16.
_LAT, _LON, _ALT = 90.0, 180.0, (-500.0, 10_000.0)
_ADC_BITS = (1, 16)
_INT16 = (-0x8000, 0x7FFF)


def rederived(read: dict[str, Any]) -> dict[str, str | None]:
    """What the fields break, judged on :func:`read_fields`'s reading (``check_rederived``): the
    versions the document does not define (1, 4), doubles stored as integers, and the
    document's ranges of the microseconds, the sample rate, the flags, the coordinates (v1/v2: their
    fractions; v3/v4 read in either field order, as the two profiles do), the altitude, the load
    resistance, the ADC resolution, the reference voltage, the antenna type, the samples (v1/v2 stored
    non-negative; v3/v4 int16 and raw codes of the resolution's range) and version 4's threshold. A
    field of the wrong type is RSIG-FIELDS-001's and is not judged here."""
    out: dict[str, str | None] = {}

    def judge(rule: str, name: str, bad: Callable[[int], bool]) -> None:
        x: Any = read.get(name)
        if _uint(x):
            why = f"{name} is {x}" if bad(x) else None
            if out.get(rule) is None:
                out[rule] = why

    def first(rule: str, why: str | None) -> None:
        if out.get(rule) is None:
            out[rule] = why

    version = read["version"]
    out["RSIG-VERSION-002"] = "version 1" if version == 1 else None  # the legacy layout, which recspec names
    out["RSIG-VERSION-003"] = "version 4" if version == 4 else None  # v31: not in this copy of the document
    judge("RSIG-TIME-002", "microseconds", lambda x: x >= 1_000_000)
    judge("RSIG-RATE-001", "sample_rate", lambda x: x == 0)
    judge("RSIG-FLAGS-001", "flags", lambda x: bool(x & ~0x03))
    if read["version"] >= 3:
        judge("RSIG-ADC-002", "load_ohm", lambda x: not 1 <= x <= 65_535)
        judge("RSIG-ANTENNA-001", "antenna", lambda x: x > 2)
        vref = read.get("vref")
        if type(vref) is float:
            out["RSIG-ADC-003"] = None if math.isfinite(vref) and 0 < vref <= 50 else f"vref is {vref!r}"
        # fields 3 to 5 and 9 are doubles; a whole number packed as a MessagePack integer is RSIG-FIELDS-003's
        ints = [name for name in ("coordinate_1", "coordinate_2", "altitude", "vref") if type(read.get(name)) is int]
        out["RSIG-FIELDS-003"] = f"{ints[0]} is an integer" if ints else None
        bits: Any = read.get("adc_bits")
        judge("RSIG-ADC-001", "adc_bits", lambda x: not _ADC_BITS[0] <= x <= _ADC_BITS[1])
        top = (1 << bits) - 1 if _uint(bits) and _ADC_BITS[0] <= bits <= _ADC_BITS[1] else None
        # a whole-number double packed as an integer is read as the number (RSIG-FIELDS-003 notes it)
        raw: tuple[Any, ...] = (read.get("coordinate_1"), read.get("coordinate_2"), read.get("altitude"))
        c1, c2, alt = (float(x) if type(x) in (int, float) else None for x in raw)
        coordinates = [(name, c) for name, c in (("coordinate_1", c1), ("coordinate_2", c2)) if c is not None]
        if coordinates:
            # spec reads field 3 as longitude and field 4 as latitude, compat the other way round, each
            # coordinate on its own: a finding under either profile counts, so each must be a finite latitude
            wide = [f"{name} is {c!r}" for name, c in coordinates if not (math.isfinite(c) and -_LAT <= c <= _LAT)]
            first("RSIG-COORD-002", wide[0] if wide else None)
        if alt is not None:
            in_range = math.isfinite(alt) and _ALT[0] <= alt <= _ALT[1]
            first("RSIG-COORD-003", None if in_range else f"altitude is {alt!r}")
        samples = read.get("samples")
        if type(samples) is tuple and set(map(type, samples)) <= {int}:  # min and max first: C loops
            lo, hi = (min(samples), max(samples)) if samples else (0, 0)
            not_int16 = lo < _INT16[0] or hi > _INT16[1]
            first("RSIG-SAMPLES-004", f"a sample of {lo} .. {hi} is not an int16" if not_int16 else None)
            if top is not None:
                out_of = (lo < 0 or hi > top) and any(_INT16[0] <= x <= _INT16[1] and not 0 <= x <= top
                                                      for x in samples)
                first("RSIG-SAMPLES-003", f"a sample of {lo} .. {hi} is not a code 0 .. {top}" if out_of else None)
        threshold = read.get("threshold")
        if read["version"] == 4 and type(threshold) is int:
            bad = not _INT16[0] <= threshold <= _INT16[1] or (top is not None and not 0 <= threshold <= top)
            first("RSIG-THRESHOLD-001", f"threshold {threshold} (bits {bits!r})" if bad else None)
    else:
        fractions = [f"{name}'s fraction is {read[name][1]}" for name in ("longitude", "latitude", "altitude")
                     if read[name][1] >= 1_000_000]
        out["RSIG-COORD-001"] = fractions[0] if fractions else None
        # "A coordinate is integer part + fraction / 1,000,000", both unsigned: read longitude first
        lon, lat, alt = (read[name][0] + read[name][1] / 1_000_000 for name in ("longitude", "latitude", "altitude"))
        out["RSIG-COORD-002"] = (f"latitude is {lat!r}" if lat > _LAT else f"longitude is {lon!r}" if lon > _LON
                                 else None)
        out["RSIG-COORD-003"] = f"altitude is {alt!r}" if alt > _ALT[1] else None
        if "samples" in read:
            negative = [x for x in read["samples"] if x < 0]
            out["RSIG-SAMPLES-002"] = f"stored sample {negative[0]} is negative" if negative else None
    return out


def _check(data: bytes, profile: str, *, fast_path: bool = True) -> Any:
    try:
        report, _ = check_bytes(data, path="<fuzz>", variant=None, profile=profile, max_unpacked=FUZZ_MAX_UNPACKED,
                                fast_path=fast_path)
    except DecodeError as e:
        raise ContractViolation(f"check_bytes raised {type(e).__name__}: {e}") from e
    return report


#: The coordinates are read in the document's order under spec and the writer's under compat.
_REREAD = frozenset({"RSIG-COORD-002"})
#: Structural rules decode() accepts on purpose: none known yet.
_LENIENT: frozenset[str] = frozenset()
#: A path's field index is one of the 13 v3/v4 fields.
_UNITS = {r"^(?:tar:[^/]*/)?field\[(\d+)\]": 13}


def fuzz_ksy(data: bytes) -> None:
    # Invariant: the generated parser returns a reading or raises KaitaiRejected
    # (a DecodeError); no other exception leaves it.
    try:
        kaitai_read(data, max_unpacked=FUZZ_MAX_UNPACKED)
    except DecodeError:
        pass


def fuzz_diff(data: bytes) -> None:
    # Invariant: both readers accept with equal values, or both reject.
    divergences = differential(data, max_unpacked=FUZZ_MAX_UNPACKED)
    if divergences:
        raise Divergent(divergences, _version_label(data), _COMPARED, divergence_kind)


TARGETS: dict[str, Callable[[bytes], None]] = {"ref": fuzz_ref, "ksy": fuzz_ksy, "diff": fuzz_diff}


def use_variant(name: str | None) -> None:
    """Only ``None``: raSkat signal layouts are chosen by the input's own bytes, so a campaign cannot fix one."""
    refuse_variant("raskat-signal", name)


def _version_label(data: bytes) -> str | None:
    return f"v{data[0] | data[1] << 8}" if len(data) >= 2 and data[:6] != XZ_MAGIC else None


def describe_input(data: bytes) -> dict[str, Any]:
    container = "tar.xz" if data[:6] == XZ_MAGIC else "raw"
    out: dict[str, Any] = {"container": container, "variant": _version_label(data)}
    try:
        sf = decode(data)
        out["variant"] = f"v{sf.signal.version}"
    except DecodeError as e:
        out["reference"] = f"{e.rule}: {e.message}"
    return out


# --- the container --------------------------------------------------------------------------


def _open(data: bytes) -> tuple[str, bytes, str]:
    """(container, signal bytes, member name); raises DecodeError when the container does not open."""
    u = unwrap(data, FUZZ_MAX_UNPACKED)
    if u.container == "raw":
        return "raw", data, ""
    m = signal_member(u)
    assert u.tar is not None
    return "tar.xz", u.tar[m.data_offset:m.data_offset + m.size], m.name


def _tar(members: Sequence[tuple[str, bytes, bytes, str]]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name, typeflag, data, link in members:
            ti = tarfile.TarInfo(name)
            ti.type, ti.size, ti.linkname = typeflag, len(data) if typeflag == tarfile.REGTYPE else 0, link
            tf.addfile(ti, io.BytesIO(data) if typeflag == tarfile.REGTYPE else None)
    return out.getvalue()


#: The mutator's xz preset: 0 sets up a 256 KiB dictionary instead of preset 6's 8 MiB, which
#: costs more than compressing a signal file (any preset makes a valid stream for the readers).
_XZ_PRESET = 0


def _xz(tar: bytes, check: int = lzma.CHECK_CRC64) -> bytes:
    return lzma.compress(tar, format=lzma.FORMAT_XZ, check=check, preset=_XZ_PRESET)


def _wrap(body: bytes, name: str = "signal.sig") -> bytes:
    return _xz(_tar([(name or "signal.sig", tarfile.REGTYPE, body, "")]))


def _container_op(rng: random.Random, body: bytes, name: str) -> bytes:
    op = rng.randrange(10)
    if op == 0:
        return body  # raw
    if op == 1:
        return _xz(_tar([(name, tarfile.REGTYPE, body, ""),
                         ("b.sig", tarfile.REGTYPE, body[: rng.randrange(len(body) + 1)], "")]))
    if op == 2:
        kind = rng.choice((tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.DIRTYPE, tarfile.CHRTYPE))
        return _xz(_tar([(name, tarfile.REGTYPE, body, ""), ("x", kind, b"", rng.choice(("/etc/passwd", "../a", "")))]))
    if op == 3:
        return _wrap(body, rng.choice(("../x.sig", "/abs.sig", "a/../../b.sig", "C:/x.sig", "é.sig")))
    if op == 4:
        tar = bytearray(_tar([(name, tarfile.REGTYPE, body, "")]))
        tar[rng.randrange(512)] ^= 1 << rng.randrange(8)
        return _xz(bytes(tar))
    if op == 5:
        tar = bytearray(_tar([(name, tarfile.REGTYPE, body, "")]))
        field = rng.choice(((100, 108), (124, 136), (136, 148), (148, 156)))
        width = field[1] - field[0]
        tar[field[0]:field[1]] = rng.choice((b" " * 8, b"\0" * 12, b"7" * 12, b"0000000 \0\0\0\0", b"1_0\0" * 3,
                                             b"\x80" + b"\0" * 11))[:width].ljust(width, b"\0")
        return _xz(bytes(tar))
    if op == 6:
        whole = _tar([(name, tarfile.REGTYPE, body, "")])
        return _xz(whole[: rng.choice((len(whole) - 512, len(whole) - 1024, 600, len(whole) + 1))]
                   + rng.choice((b"", b"\x01")))
    w = _wrap(body, name)
    if op == 7:
        return w + rng.choice((w, b"\0\0\0\0", b"x"))
    if op == 8:
        return w[: rng.randrange(len(w))]
    return _xz(_tar([(name, tarfile.REGTYPE, body, "")]), rng.choice((lzma.CHECK_NONE, lzma.CHECK_CRC32,
                                                                     lzma.CHECK_SHA256)))


# --- the signal ---------------------------------------------------------------------------------

_INTS = (0, 1, 2, 3, 4, 7, 8, 10, 16, 17, 127, 128, 255, 256, 643, 999_999, 1_000_000, 0x7FFF, 0x8000, 0xFFFF,
         0x10000, 0xFFFFFFFF, 2**32, 2**63, 2**64 - 1, -1, -32, -33, -128, -129, -32768, -32769, -2**63)
_FLOATS = (0.0, -0.0, 1.0, -1.0, 90.0, 90.000001, 180.0, -180.5, 3.3, 1e308, float("inf"), float("nan"))
_TIMES = ("20250624100658", "20250230120000", "19700101000000", "99991231235959", "2025062410065",
          "202506241006589", "2025o624100658", "")


def _any_value(rng: random.Random) -> Any:
    k = rng.randrange(9)
    if k == 0:
        return rng.choice(_INTS)
    if k == 1:
        return rng.choice(_FLOATS)
    if k == 2:
        return rng.choice(_TIMES)
    if k == 3:
        return rng.choice((None, True, False))
    if k == 4:
        return bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 14, 300))))
    if k == 5:
        return tuple(rng.choice(_INTS) for _ in range(rng.choice((0, 1, 15, 16, 100))))
    if k == 6:
        return MsgMap(((rng.choice(_INTS), rng.choice(_TIMES)),))
    if k == 7:
        return Ext(rng.randrange(-128, 128), bytes(rng.choice((1, 2, 3, 4, 8, 16, 17))))
    return "x" * rng.choice((31, 32, 255, 256))


def _wide(value: Any, rng: random.Random) -> bytes:
    """A non-minimal encoding of an int (or float32 of a float), else the canonical one."""
    if type(value) is int and 0 <= value <= 0xFFFFFFFF:
        return rng.choice((b"\xcf" + struct.pack(">Q", value), b"\xce" + struct.pack(">I", value)))
    if type(value) is float:
        return b"\xca" + struct.pack(">f", value)
    if type(value) is tuple and len(value) < 16:
        return b"\xdc" + struct.pack(">H", len(value)) + b"".join(msgpack_pack(x) for x in value)
    return msgpack_pack(value)


def _mutate_msgpack(rng: random.Random, sig: SignalMsgpack) -> bytes:
    fields = list(sig.fields)
    version = sig.version
    op = rng.randrange(8)
    i = rng.randrange(len(fields))
    if op == 0:
        fields[i] = _any_value(rng)
    elif op == 1:
        del fields[i]
    elif op == 2:
        fields.insert(i, _any_value(rng))
    elif op == 3:
        j = rng.randrange(len(fields))
        fields[i], fields[j] = fields[j], fields[i]
    elif op == 4 and isinstance(fields[11 if len(fields) > 11 else -1], tuple):
        k = 11 if len(fields) > 11 else len(fields) - 1
        s = list(fields[k])
        if s and rng.random() < 0.5:
            s[rng.randrange(len(s))] = rng.choice(_INTS)
        else:
            s.append(rng.choice(_INTS))
        fields[k] = tuple(s)
    elif op == 5:
        version = rng.choice((1, 2, 3, 4, 5, 0x0300, 0xFFFF))
    elif op == 6:  # the 9-field draft
        fields = fields[:6] + fields[9:12]
    else:
        parts = [msgpack_pack(v) for v in fields]
        parts[i] = _wide(fields[i], rng)
        return struct.pack("<H", version) + b"".join(parts)
    return struct.pack("<H", version) + b"".join(msgpack_pack(v) for v in fields)


def _mutate_v2(rng: random.Random, sig: SignalV2) -> bytes:
    op = rng.randrange(9)
    s = sig
    if op == 0:
        s = SignalV2(s.version, rng.choice(_TIMES).encode()[:14].ljust(14, b"0"), *_rest(s, 2))
    elif op == 1:
        s = SignalV2(s.version, s.time, rng.choice(_INTS) & 0xFFFFFFFF, *_rest(s, 3))
    elif op == 2:
        c = Fixed(rng.choice(_INTS) & 0xFFFF, rng.choice(_INTS) & 0xFFFFFFFF)
        which = rng.randrange(3)
        coords = [s.longitude, s.latitude, s.altitude]
        coords[which] = c
        lon, lat, alt = coords
        s = SignalV2(s.version, s.time, s.microseconds, lon, lat, alt, s.sample_rate, s.flags, s.samples)
    elif op == 3:
        s = SignalV2(s.version, s.time, s.microseconds, s.longitude, s.latitude, s.altitude,
                     rng.choice(_INTS) & 0xFFFFFFFF, s.flags, s.samples)
    elif op == 4 and s.version == 2:
        s = replace(s, flags=rng.randrange(256))  # version 2 already
    elif op == 5:
        samples = list(s.samples) + [rng.randrange(-0x8000, 0x8000) for _ in range(rng.choice((1, 2, 50)))]
        s = replace(s, samples=tuple(samples))
    body = encode_body(s)
    if op == 6:  # the count says something else
        at = 43 if s.version == 2 else 42
        return body[:at] + struct.pack("<I" if s.version == 2 else ">I", rng.choice(_INTS) & 0xFFFFFFFF) + body[at + 4:]
    if op == 7:
        return struct.pack("<H", rng.choice((1, 2, 3, 4, 9))) + body[2:]
    if op == 8:
        return body + bytes(rng.randrange(256) for _ in range(rng.choice((1, 2, 3))))
    return body


def _rest(s: SignalV2, start: int) -> tuple[Any, ...]:
    values = (s.version, s.time, s.microseconds, s.longitude, s.latitude, s.altitude, s.sample_rate, s.flags,
              s.samples)
    return values[start:]


def _mutate_structure(rng: random.Random, opened: tuple[str, bytes, str], max_size: int) -> bytes | None:
    container, body, name = opened
    if rng.random() < 0.25:
        out = _container_op(rng, body, name or "signal.sig")
    else:
        try:
            sig = decode_body(body)
        except DecodeError:
            return None
        new_body = _mutate_msgpack(rng, sig) if isinstance(sig, SignalMsgpack) else _mutate_v2(rng, sig)
        out = new_body if container == "raw" else _wrap(new_body, name)
    return out if len(out) <= max_size else None


def _inside(data: bytes) -> tuple[bytes, Callable[[bytes], bytes]] | None:
    """The signal member of a tar.xz input and how to wrap it again (byte mutations go there)."""
    container, body, name = _open(data)
    return (body, lambda new: _wrap(new, name)) if container == "tar.xz" else None


def mutate(data: bytes, max_size: int, seed: int, *,
           byte_mutate: Callable[[bytes, int], bytes] | None = None) -> bytes:
    """atheris custom mutator: at most ``max_size`` bytes; never raises.

    Structure-aware when the container opens and the signal decodes; otherwise
    (and with probability ``BYTE_MUTATION_RATE``) byte mutation, applied to the
    signal member inside a tar.xz (re-wrapped after) or to the raw bytes
    (``recspec.fuzz._mutate``: the same outer logic for every format).
    """
    return _mutate.mutate(data, max_size, seed, parse=_open, mutate_structure=_mutate_structure, tokens=_TOKENS,
                          byte_mutate=byte_mutate, inside=_inside)


# --- seeds and dictionary ------------------------------------------------------------------------


def synthetic_seeds() -> list[tuple[str, bytes]]:
    from recspec.conformance.raskat_signal import _seeds as s

    v1 = SignalV2(1, s.TIME, 1, Fixed(1, 2), Fixed(3, 4), Fixed(5, 6), 7, None, (1, -1))
    out = [("v1.sig", encode_body(v1))]
    for name, sig in (("v2", s.spec_v2()), ("v2w", s.writer_v2()), ("v3", s.spec_v3()), ("v3w", s.writer_v3()),
                      ("v4", s.spec_v4()), ("v4w", s.writer_v4())):
        out.append((f"{name}.sig", encode_body(sig)))
        out.append((f"{name}.tar.xz.sig", _wrap(encode_body(sig), f"{name}.sig")))
    return out


def derive_seeds(data: bytes, max_len: int) -> list[bytes]:
    """The raw signal inside a tar.xz seed (so both layers get seeds of their own)."""
    try:
        container, body, _ = _open(data)
    except DecodeError:
        return []
    return [body] if container == "tar.xz" and body and len(body) <= max_len else []


def dictionary_entries() -> list[tuple[str, bytes]]:
    entries = [
        ("xz_magic", XZ_MAGIC), ("xz_footer", b"YZ"), ("ustar", b"ustar\x00"), ("gnu_magic", b"ustar  \x00"),
        ("version_1", b"\x01\x00"), ("version_2", b"\x02\x00"), ("version_3", b"\x03\x00"), ("version_4", b"\x04\x00"),
        ("time_str", b"\xae20250624100658"), ("time", b"20250624100658"),
        ("mp_f64", b"\xcb"), ("mp_f32", b"\xca"), ("mp_u16", b"\xcd"), ("mp_u32", b"\xce"), ("mp_u64", b"\xcf"),
        ("mp_array16", b"\xdc\x00\x64"), ("mp_array32", b"\xdd\x00\x00\x00\x10"), ("mp_map16", b"\xde\x00\x01"),
        ("mp_never", b"\xc1"), ("mp_str8", b"\xd9\x0e"), ("mp_bin8", b"\xc4\x01"), ("mp_fixext1", b"\xd4\x01"),
        ("mp_ext8", b"\xc7\x03\x01"), ("us_1e6", b"\xce\x00\x0f\x42\x40"),
        ("vref", b"\xcb\x40\x0a\x66\x66\x60\x00\x00\x00"),
        ("threshold", b"\xcd\x02\x83"), ("count_100", struct.pack("<I", 100)), ("frac_1e6", struct.pack("<I", 10**6)),
    ]
    return entries


def dictionary_text() -> str:
    return render([
        "libFuzzer dictionary for raSkat signal files: the xz and tar magics, version",
        "words, MessagePack lead bytes and the values the rules look at.",
        "Generated by recspec.fuzz.raskat_signal.dictionary_text(); tests/test_fuzz_raskat_signal.py",
        "checks that this file matches it. Do not edit by hand.",
    ], dictionary_entries())


_TOKENS = tuple(value for _, value in dictionary_entries())
