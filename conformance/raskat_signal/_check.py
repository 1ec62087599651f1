"""The raSkat signal checker: container, structure, then every value rule.

``check_bytes`` reads a whole file from memory (signal files are small; the
container is bounded by ``MAX_UNPACKED``), collects every finding in a
:class:`FindingSink` and returns a :class:`FileReport` and the decoded signal.
A structural error (one the Kaitai spec enforces too) stops the walk and makes
the file ``malformed``; other errors make it ``invalid``.

Offsets count from the start of the file for a raw signal; inside a tar.xz
they count from the start of the signal member, and the path starts with
``tar:<member name>/`` to say so.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from recspec.conformance._sink import FindingSink
from recspec.errors import DecodeError
from recspec.reference.raskat_signal import (
    FIELD_NAMES,
    HEADER_V1,
    HEADER_V2,
    MAX_UNPACKED,
    VERSIONS,
    XZ_MAGIC,
    Signal,
    SignalMsgpack,
    SignalV2,
    decode_body,
    decode_fields,
    int_elements,
    kind_of,
    msgpack_unpack,
    signal_member,
    unwrap,
)
from recspec.report import FileReport, Verdict
from recspec.trace import enabled as trace_enabled

from ._rules import RULES_BY_ID
from ._sniff import sniff
from ._trace import RaskatTrace

__all__ = ["VARIANTS", "check_bytes", "sniff", "variant_name"]

#: Variant names: the on-disk version word.
VARIANTS = {"v1": 1, "v2": 2, "v3": 3, "v4": 4}

DEFINED_FLAGS = 0x03  # 1 ADC overload, 2 PPS synchronisation
MAX_MICROSECONDS = 1_000_000
LAT_MAX, LON_MAX = 90.0, 180.0
ALT_MIN, ALT_MAX = -500.0, 10_000.0
ADC_BITS_MAX = 16
LOAD_MAX = 0xFFFF
VREF_MAX = 50.0

# v1/v2 field offsets (the version word is at 0)
_OFF_TIME, _OFF_US, _OFF_LON, _OFF_LAT, _OFF_ALT, _OFF_RATE, _OFF_FLAGS = 2, 16, 20, 26, 32, 38, 42


def variant_name(version: int) -> str:
    return f"v{version}"


def _valid_time(raw: bytes) -> str | None:
    """Why a 14-byte time is not %Y%m%d%H%M%S in UTC, or None if it is."""
    if len(raw) != 14:
        return f"{len(raw)} characters, not 14"
    if not (raw.isascii() and raw.isdigit()):
        return f"{raw!r} is not 14 ASCII digits"
    t = raw.decode("ascii")
    try:
        datetime.datetime(int(t[0:4]), int(t[4:6]), int(t[6:8]), int(t[8:10]), int(t[10:12]), int(t[12:14]))
    except ValueError as e:
        return f"{t} is not a real date and time ({e})"
    return None


class _Walk:
    def __init__(self, sink: FindingSink, profile: str, prefix: str) -> None:
        self.sink = sink
        self.profile = profile
        self.prefix = prefix

    def add(self, rule: str, message: str, offset: int | None, length: int | None, path: str,
            expected: Any = None, actual: Any = None, *, only: str | None = None) -> None:
        self.sink.add(rule, message, offset, length, self.prefix + path, expected, actual, only=only)

    # --- shared value rules -------------------------------------------------------
    def time(self, raw: bytes, offset: int, length: int, path: str) -> None:
        why = _valid_time(raw)
        if why is not None:
            self.add("RSIG-TIME-001", f"time: {why}", offset, length, path)

    def microseconds(self, us: int, offset: int, length: int, path: str) -> None:
        if us >= MAX_MICROSECONDS:
            self.add("RSIG-TIME-002", f"{us} microseconds is not below 1,000,000", offset, length, path,
                     "< 1000000", us)

    def coordinates(self, lat: float | None, lat_at: tuple[int, int, str], lon: float | None,
                    lon_at: tuple[int, int, str], alt: float | None, alt_at: tuple[int, int, str], *,
                    only: str | None = None) -> None:
        """Range checks; a coordinate of the wrong type (``None``, reported by RSIG-FIELDS-001) skips
        only its own check. ``only``: the profile whose reading of latitude/longitude this is."""
        if lat is not None and not (math.isfinite(lat) and -LAT_MAX <= lat <= LAT_MAX):
            self.add("RSIG-COORD-002", f"latitude {lat} is not within +-90 degrees", *lat_at, "[-90, 90]", lat,
                     only=only)
        if lon is not None and not (math.isfinite(lon) and -LON_MAX <= lon <= LON_MAX):
            self.add("RSIG-COORD-002", f"longitude {lon} is not within +-180 degrees", *lon_at, "[-180, 180]", lon,
                     only=only)
        if alt is not None and not (math.isfinite(alt) and ALT_MIN <= alt <= ALT_MAX):
            self.add("RSIG-COORD-003", f"altitude {alt} m is not within {ALT_MIN:g} .. {ALT_MAX:g} m", *alt_at,
                     f"[{ALT_MIN:g}, {ALT_MAX:g}]", alt)

    def rate(self, rate: int, offset: int, length: int, path: str) -> None:
        if rate <= 0:
            self.add("RSIG-RATE-001", f"sample rate {rate} Hz is not above 0", offset, length, path, "> 0", rate)

    def flags(self, flags: int, offset: int, length: int, path: str) -> None:
        unknown = flags & ~DEFINED_FLAGS
        if unknown:
            self.add("RSIG-FLAGS-001", f"flags 0x{flags:02x} set undefined bits 0x{unknown:02x} (defined: 0x01 "
                     f"ADC overload, 0x02 PPS sync)", offset, length, path, "bits 0x03 only", flags)

    # --- v1 / v2 -------------------------------------------------------------------
    def fixed_layout(self, s: SignalV2) -> None:
        v = s.version
        if v == 1:
            self.add("RSIG-VERSION-002", "legacy version 1 (big-endian body, no flags byte), read as such", 0, 2,
                     "version")
        self.time(s.time, _OFF_TIME, 14, "time")
        self.microseconds(s.microseconds, _OFF_US, 4, "microseconds")
        for name, c, off in (("longitude", s.longitude, _OFF_LON), ("latitude", s.latitude, _OFF_LAT),
                             ("altitude", s.altitude, _OFF_ALT)):
            if c.frac >= 1_000_000:
                self.add("RSIG-COORD-001", f"{name} fraction {c.frac} is not below 1,000,000 millionths", off + 2,
                         4, f"{name}.frac", "< 1000000", c.frac)
        self.coordinates(s.latitude.value, (_OFF_LAT, 6, "latitude"), s.longitude.value, (_OFF_LON, 6, "longitude"),
                         s.altitude.value, (_OFF_ALT, 6, "altitude"))
        self.rate(s.sample_rate, _OFF_RATE, 4, "sample_rate")
        if s.flags is not None:
            self.flags(s.flags, _OFF_FLAGS, 1, "flags")
        header = HEADER_V2 if v == 2 else HEADER_V1
        for i, x in enumerate(s.samples):
            if x < 0:
                self.add("RSIG-SAMPLES-002", f"stored sample {x} is negative (the document offsets samples by "
                         f"+1000 into positive values)", header + 2 * i, 2, f"samples[{i}]", ">= 0", x)

    # --- v3 / version 4 ---------------------------------------------------------------
    def msgpack_fields(self, s: SignalMsgpack, offsets: tuple[int, ...], buf: bytes) -> None:
        f = s.fields
        ends = offsets[1:] + (len(buf),)

        def at(i: int) -> tuple[int, int, str]:
            return offsets[i], ends[i] - offsets[i], f"field[{i}]:{FIELD_NAMES[i]}"

        def want(i: int, kind: str) -> bool:
            x = f[i]
            if kind == "float" and type(x) is int:
                # msgpack-cxx 4.1.2-6.x packs a whole-number double as an integer; the real readers take it
                self.add("RSIG-FIELDS-003", f"field {i + 1} ({FIELD_NAMES[i]}) is the integer {x}, not a double "
                         "(a whole-number double as msgpack-cxx 4.1.2-6.x packs it)", *at(i), "float", "int")
                return True
            ok = (type(x) is int and (kind == "int" or x >= 0)) if kind in ("uint", "int") else (
                type(x) is float if kind == "float" else type(x) is str if kind == "str" else
                type(x) is tuple and int_elements(x, buf[offsets[i]:ends[i]]))
            if not ok:
                got = kind_of(x)
                shown = repr(x) if got in ("int", "float", "bool", "nil") else got
                wanted = ("a non-negative int" if kind == "uint" else "an array of ints" if kind == "array"
                          else "a " + kind)
                self.add("RSIG-FIELDS-001", f"field {i + 1} ({FIELD_NAMES[i]}) must be {wanted}, not {shown}",
                         *at(i), kind, got)
            return ok

        if s.version == 4:
            self.add("RSIG-VERSION-003", "version 4 (the document's v31: v3 plus a trigger threshold)", 0, 2, "version")
        if want(0, "str"):
            raw = f[0].encode("utf-8", "surrogateescape")
            self.time(raw, *at(0))
        if want(1, "uint"):
            self.microseconds(f[1], *at(1))
        # each coordinate on its own: one of the wrong type no longer skips the others' range checks
        c = {i: float(f[i]) if want(i, "float") else None for i in (2, 3, 4)}
        self.coordinates(None, at(3), None, at(2), c[4], at(4))  # the altitude: the same in both readings
        # latitude and longitude are read both ways in the one walk, each finding tagged with its profile:
        # the document (field 3 longitude, field 4 latitude) and the writer (latitude first)
        self.coordinates(c[3], at(3), c[2], at(2), None, at(4), only="spec")
        self.coordinates(c[2], at(2), c[3], at(3), None, at(4), only="compat")
        if want(5, "uint"):
            self.rate(f[5], *at(5))
        if want(6, "uint") and not 1 <= f[6] <= LOAD_MAX:
            self.add("RSIG-ADC-002", f"load resistance {f[6]} ohm is not within 1 .. {LOAD_MAX}", *at(6),
                     f"[1, {LOAD_MAX}]", f[6])
        bits_ok = want(7, "uint") and 1 <= f[7] <= ADC_BITS_MAX
        if type(f[7]) is int and f[7] >= 0 and not bits_ok:
            self.add("RSIG-ADC-001", f"ADC resolution {f[7]} bits is not within 1 .. {ADC_BITS_MAX}", *at(7),
                     f"[1, {ADC_BITS_MAX}]", f[7])
        if want(8, "float") and not (math.isfinite(float(f[8])) and 0 < f[8] <= VREF_MAX):
            self.add("RSIG-ADC-003", f"reference voltage {f[8]} V is not within (0, {VREF_MAX:g}]", *at(8),
                     f"(0, {VREF_MAX:g}]", f[8])
        if want(9, "uint"):
            self.flags(f[9], *at(9))
        if want(10, "uint") and f[10] > 2:
            self.add("RSIG-ANTENNA-001", f"antenna type {f[10]} is not 0 (unknown), 1 (mini-whip) or 2 (magnetic)",
                     *at(10), "0, 1 or 2", f[10])
        top = (1 << f[7]) - 1 if bits_ok else None
        if want(11, "array"):
            self.samples(f[11], offsets[11], buf, top, ends[11])
        if s.version == 4 and want(12, "int"):
            t = f[12]
            if not -0x8000 <= t <= 0x7FFF or (top is not None and not 0 <= t <= top):
                rng = f"0 .. {top}" if top is not None else "int16"
                self.add("RSIG-THRESHOLD-001", f"threshold {t} is not an ADC code within {rng}", *at(12), rng, t)

    def samples(self, samples: tuple[int, ...], start: int, buf: bytes, top: int | None, end: int) -> None:
        if not samples:
            return
        # elements encoded in bytes below 0x80 only are each a positive fixint, one byte holding 0 .. 127
        # (every longer encoding starts with a byte of 0xc0 or more): in range without a look at each
        if (top is None or top >= 0x7F) and buf[start + _array_head(buf[start]):end].isascii():
            return
        lo, hi = min(samples), max(samples)
        if lo >= -0x8000 and hi <= 0x7FFF and (top is None or (lo >= 0 and hi <= top)):
            return
        bad = [i for i, x in enumerate(samples)
               if not -0x8000 <= x <= 0x7FFF or (top is not None and not 0 <= x <= top)]
        offs = _element_offsets(buf, start)
        for i in bad:
            x = samples[i]
            where = (offs[i], offs[i + 1] - offs[i], f"field[11]:samples[{i}]")
            if not -0x8000 <= x <= 0x7FFF:
                self.add("RSIG-SAMPLES-004", f"sample {x} does not fit int16", *where, "int16", x)
            elif top is not None and not 0 <= x <= top:
                self.add("RSIG-SAMPLES-003", f"sample {x} is not a raw ADC code 0 .. {top}", *where, f"[0, {top}]", x)


def _array_head(lead: int) -> int:
    """The bytes of a MessagePack array's head (fixarray, array 16, array 32) from its lead byte."""
    return 1 if lead <= 0x9F else 3 if lead == 0xDC else 5


def _element_offsets(buf: bytes, start: int) -> list[int]:
    """Offsets of the elements of the array at ``start`` (and the end), for locating sample findings."""
    b = buf[start]
    pos = start + _array_head(b)
    n = b & 0x0F if b <= 0x9F else int.from_bytes(buf[start + 1:pos], "big")
    out = [pos]
    for _ in range(n):
        _, pos = msgpack_unpack(buf, pos, depth=1)
        out.append(pos)
    return out


def check_bytes(data: bytes, *, path: str, variant: str | None, profile: str, max_unpacked: int = MAX_UNPACKED,
                fast_path: bool = True) -> tuple[FileReport, Signal | None]:
    """The report of one file and its signal. ``fast_path=False`` walks every v3/v4 body with the
    hand-written MessagePack reader instead of letting the C unpacker prove it clean first (the
    report is the same either way)."""
    report, signal, _refused = check_reading(data, path=path, variant=variant, profile=profile,
                                             max_unpacked=max_unpacked, fast_path=fast_path)
    return report, signal


class _DecodeStep:
    """``with step: ...`` around a step of ``decode``'s own reading in :func:`check_reading`: the
    :class:`DecodeError` it raises, the one ``decode`` raises, is kept in ``error`` and raised on."""

    error: DecodeError | None = None

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: BaseException | None, tb: object) -> None:
        if isinstance(error, DecodeError):
            self.error = error


def check_reading(data: bytes, *, path: str, variant: str | None, profile: str, max_unpacked: int = MAX_UNPACKED,
                  fast_path: bool = True) -> tuple[FileReport, Signal | None, DecodeError | None]:
    """:func:`check_bytes`, and the error that ``decode(data)`` raises, or None: without ``variant`` the
    check decodes as ``decode`` does, step by step (``unwrap``, ``signal_member``, the body), and an error
    of one of these steps is the one ``decode`` raises, so the cross-check need not read the file again (an
    xz bomb inflates to the limit in each reading; a malformed tar.xz signal is inflated, untarred and
    decoded twice otherwise). None also where the check read the file but its walk of the values raised."""
    step = _DecodeStep()  # decode's own steps, whose error is decode's
    sink = FindingSink(RULES_BY_ID, profile)
    stats: dict[str, Any] = {"version": None, "container": "raw", "samples": None, "sample_rate_hz": None}
    evidence: dict[str, Any] = {}
    signal: Signal | None = None
    stored_version: int | None = None
    forced = VARIANTS[variant] if variant is not None else None
    prefix = ""
    body = data
    stats["container"] = "tar.xz" if data[:6] == XZ_MAGIC else "raw"
    try:
        with step:
            u = unwrap(data, max_unpacked)
        stats["container"] = u.container
        if u.container == "raw":
            sink.add("RSIG-CONTAINER-001", "the signal is stored raw, not in the tar.xz container the document "
                     "describes", 0, min(len(data), 2), "")
        else:
            assert u.tar is not None
            for m in u.members:
                mpath = f"tar.entry[{m.index}]"
                if not m.is_regular:
                    kind = {b"1": "a hard link", b"2": "a symlink", b"3": "a character device", b"4": "a block device",
                            b"5": "a folder", b"6": "a FIFO"}.get(m.typeflag, f"a member of type {m.typeflag!r}")
                    target = f" to {m.linkname!r}" if m.typeflag in (b"1", b"2") else ""
                    # offsets in a tar.xz are offsets in the decompressed tar, as for every tar finding
                    sink.add("RSIG-TAR-003", f"member {m.name!r} is {kind}{target}", m.header_offset + 156, 1,
                             mpath + ".typeflag")
                parts = m.name.replace("\\", "/").split("/")
                if m.name.startswith(("/", "\\")) or ".." in parts or (len(m.name) > 1 and m.name[1] == ":"):
                    sink.add("RSIG-TAR-004", f"member name {m.name!r} is absolute or climbs out with '..'",
                             m.header_offset, 100, mpath + ".name")
            with step:
                member = signal_member(u)
            body = u.tar[member.data_offset:member.data_offset + member.size]
            prefix = f"tar:{member.name}/"
            evidence["member"] = member.name
        if len(body) >= 2:
            stored_version = body[0] | body[1] << 8
            stats["version"] = stored_version
        if forced is not None and stored_version is not None and stored_version != forced:
            sink.add("RSIG-VERSION-001", f"version word {stored_version}, but --variant {variant} was asked for",
                     0, 2, prefix + "version", forced, stored_version)
        walk = _Walk(sink, profile, prefix)
        if (forced or stored_version) in (3, 4):
            notes: list[tuple[int, int, str]] = []
            v = forced or stored_version
            assert v is not None
            with step:  # decode_body's own step for a v3/v4 body: the notes are the only difference
                fields, offsets = decode_fields(body, v, note=lambda o, b, msg: notes.append((o, b, msg)),
                                                fast_path=fast_path)
            signal = SignalMsgpack(v, fields)
            for o, _b, msg in notes:
                sink.add("RSIG-MSGPACK-002", msg, o, None, prefix + "msgpack")
            walk.msgpack_fields(signal, offsets, body)
        else:
            with step:
                signal = decode_body(body, version=forced, fast_path=fast_path)
            assert isinstance(signal, SignalV2)
            walk.fixed_layout(signal)
        stats["samples"] = len(signal.samples) if isinstance(signal.samples, tuple) else None
        stats["sample_rate_hz"] = signal.sample_rate if type(signal.sample_rate) is int else None
    except DecodeError as e:
        where = e.path if not prefix or e.path.startswith("tar") else prefix + e.path
        sink.add(e.rule if e.rule in RULES_BY_ID else "RSIG-STREAM-001", e.message, e.offset, None, where)
        if not sink.structural_error:  # every decoder error is structural; keep the verdict honest regardless
            sink.structural_error = True
        signal = None
    version = forced or stored_version
    report = FileReport(path, "raskat-signal", variant_name(version) if version in VERSIONS else None, profile,
                        Verdict.VALID, [], stats, evidence)
    sink.fill(report)  # the findings, and the verdict under every profile
    report.trace = RaskatTrace.of(signal) if signal is not None and trace_enabled() else None
    if variant is None:
        report.evidence["variant"] = {"method": "version word", "version": stored_version}
    else:
        report.evidence["variant"] = {"method": "--variant"}
    return report, signal, step.error
