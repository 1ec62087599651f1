"""Rule witnesses for raSkat signal files (see tests/witness_common.py).

Files are wrapped by the standard library (``tarfile``, ``lzma``), not by the
reference's container writer, and v3/v4 field offsets come from the PyPI ``msgpack``
packer: the body layout (u16 version, then v2's fixed little-endian layout or the
MessagePack fields) is from docs/formats/raskat-signal.md. Findings inside the member
are located in the member's bytes, with the path under ``tar:<member name>/``.
"""

from __future__ import annotations

import functools
import io
import lzma
import struct
import tarfile
from dataclasses import replace

import msgpack
from hypothesis import strategies as st
from witness_common import Witness, Witnesses

from recspec.reference.raskat_signal import FIELD_NAMES, SignalMsgpack, SignalV2, encode_body
from recspec.strategies import raskat_signals

MEMBER = "signal.sig"
MTIME = 1750759618
# v2 body offsets: u16 version, 14s time, u32 microseconds, (u16, u32) longitude, latitude, altitude,
# u32 sample rate, u8 flags, u32 sample count, then int16 samples; v1 has no flags byte
OFF_TIME, OFF_US, OFF_LON, OFF_LAT, OFF_ALT, OFF_RATE, OFF_FLAGS, OFF_COUNT_V2, OFF_SAMPLES_V2 = (
    2, 16, 20, 26, 32, 38, 42, 43, 47)
DEFINED_FLAGS = 0x03  # ADC overload, PPS sync


def tar(*members: tuple[str, bytes, bytes]) -> bytes:
    """A ustar archive of (name, typeflag, data) members."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name, typeflag, data in members:
            ti = tarfile.TarInfo(name)
            ti.type, ti.size, ti.mtime, ti.mode = typeflag, len(data), MTIME, 0o644
            if typeflag in (tarfile.SYMTYPE, tarfile.LNKTYPE):
                ti.linkname = "target.sig"
            tf.addfile(ti, io.BytesIO(data) if typeflag == tarfile.REGTYPE else None)
    return out.getvalue()


def xz(data: bytes) -> bytes:
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64)


def wrapped(body: bytes) -> bytes:
    return xz(tar((MEMBER, tarfile.REGTYPE, body)))


def inside(rule: str, body: bytes, offset: int, path: str, *, profile: str = "spec",
           also: frozenset[str] = frozenset()) -> Witness:
    """A break in the member's bytes, the file in the document's tar.xz container."""
    return Witness(rule, wrapped(body), profile, offset, f"tar:{MEMBER}/{path}", also=also)


def field_starts(fields: tuple[object, ...]) -> list[int]:
    """Offsets of each v3/v4 field in the body, and the body's end (PyPI msgpack's minimal packing)."""
    out = [2]
    for value in fields:
        out.append(out[-1] + len(msgpack.packb(value)))
    return out


def msgpack_body(version: int, fields: tuple[object, ...]) -> bytes:
    return struct.pack("<H", version) + b"".join(msgpack.packb(v) for v in fields)


def v2s() -> st.SearchStrategy[SignalV2]:
    return raskat_signals(2, max_samples=8)


def v3s(*versions: int) -> st.SearchStrategy[SignalMsgpack]:
    return st.sampled_from(versions or (3, 4)).flatmap(lambda v: raskat_signals(v, max_samples=8))


def with_field(sig: SignalMsgpack, i: int, value: object) -> tuple[object, ...]:
    return sig.fields[:i] + (value,) + sig.fields[i + 1:]


def msgpack_break(rule: str, i: int, value: object, *, versions: tuple[int, ...] = (3, 4),
                  also: frozenset[str] = frozenset()) -> st.SearchStrategy[Witness]:
    """Field ``i`` of a drawn v3/v4 signal set to ``value``, reported at that field."""
    def make(sig: SignalMsgpack) -> Witness:
        fields = with_field(sig, i, value)
        return inside(rule, msgpack_body(sig.version, fields), field_starts(fields)[i], f"field[{i}]:{FIELD_NAMES[i]}",
                      also=also)
    return v3s(*versions).map(make)


def v2_break(rule: str, change: st.SearchStrategy[tuple[dict[str, object], int, str]]) -> st.SearchStrategy[Witness]:
    """A drawn v2 signal with fields replaced; ``change`` draws (replacements, offset, path)."""
    @st.composite
    def draw(d: st.DrawFn) -> Witness:
        sig = d(v2s())
        fields, offset, path = d(change)
        return inside(rule, encode_v2(replace(sig, **fields)), offset, path)
    return draw()


def encode_v2(sig: SignalV2) -> bytes:
    """The v2 body by hand (the document's layout)."""
    head = struct.pack("<H14sIHIHIHIIBI", 2, sig.time, sig.microseconds, sig.longitude.int_part, sig.longitude.frac,
                       sig.latitude.int_part, sig.latitude.frac, sig.altitude.int_part, sig.altitude.frac,
                       sig.sample_rate, sig.flags, len(sig.samples))
    return head + struct.pack(f"<{len(sig.samples)}h", *sig.samples)


# --- the witnesses ----------------------------------------------------------------------

def _container() -> st.SearchStrategy[Witness]:
    # a signal the document accepts, stored without the tar.xz container: spec only (compat: off)
    return st.one_of(v2s(), v3s()).map(lambda s: Witness("RSIG-CONTAINER-001", encode_body(s), "spec", 0, ""))


@st.composite
def _xz_cut(d: st.DrawFn) -> Witness:
    good = wrapped(encode_body(d(v3s())))
    cut = d(st.integers(1, 12))  # inside the 12-byte stream footer: the stream ends early
    return Witness("RSIG-XZ-001", good[:-cut], "spec", len(good) - cut, "xz")


@st.composite
def _xz_two(d: st.DrawFn) -> Witness:
    first = wrapped(encode_body(d(v3s())))
    second = d(st.one_of(st.just(first), v3s().map(lambda s: wrapped(encode_body(s)))))
    return Witness("RSIG-XZ-002", first + second, "spec", len(first), "xz")


@functools.cache
def _bomb_tar() -> bytes:
    # 65 MiB member: a file of about 10 KB that inflates past MAX_UNPACKED (8 MiB)
    return xz(tar(("bomb.sig", tarfile.REGTYPE, b"\x03\x00" + bytes(65 * 1024 * 1024))))


def _limit() -> st.SearchStrategy[Witness]:
    return st.just(Witness("RSIG-LIMIT-001", _bomb_tar(), "spec", 0, "xz"))


@st.composite
def _tar_checksum(d: st.DrawFn) -> Witness:
    archive = bytearray(tar((MEMBER, tarfile.REGTYPE, encode_body(d(v3s())))))
    right = int(archive[148:154], 8)
    wrong = d(st.integers(0, 0o777777).filter(lambda c: c != right))
    archive[148:156] = b"%06o\0 " % wrong
    return Witness("RSIG-TAR-001", xz(bytes(archive)), "spec", 148, "tar.entry[0].chksum")


@st.composite
def _tar_two(d: st.DrawFn) -> Witness:
    bodies = d(st.lists(v3s().map(encode_body), min_size=2, max_size=3))
    members = [(f"s{i}.sig", tarfile.REGTYPE, b) for i, b in enumerate(bodies)]
    return Witness("RSIG-TAR-002", xz(tar(*members)), "spec", 0, "tar")


@st.composite
def _tar_special(d: st.DrawFn) -> Witness:
    body = encode_body(d(v3s()))
    kind = d(st.sampled_from((tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.DIRTYPE, tarfile.CHRTYPE, tarfile.FIFOTYPE)))
    first = d(st.booleans())
    special = ("extra" + ("/" if kind == tarfile.DIRTYPE else ""), kind, b"")
    members = [special, (MEMBER, tarfile.REGTYPE, body)] if first else [(MEMBER, tarfile.REGTYPE, body), special]
    # headers are 512 bytes and a member's data is padded to 512: the special member's typeflag is byte 156
    at = 156 if first else 512 + -(-len(body) // 512) * 512 + 156
    return Witness("RSIG-TAR-003", xz(tar(*members)), "spec", at, f"tar.entry[{0 if first else 1}].typeflag")


@st.composite
def _tar_name(d: st.DrawFn) -> Witness:
    name = d(st.sampled_from(("../signal.sig", "a/../../signal.sig", "/signal.sig", "/tmp/signal.sig", "x/..")))
    return Witness("RSIG-TAR-004", xz(tar((name, tarfile.REGTYPE, encode_body(d(v3s()))))), "spec", 0,
                   "tar.entry[0].name")


@st.composite
def _tar_size(d: st.DrawFn) -> Witness:
    archive = bytearray(tar((MEMBER, tarfile.REGTYPE, encode_body(d(v3s())))))
    size = d(st.integers(8 * 1024 * 1024 - 3 * 512 + 1, 0o77777777777))  # above MAX_MEMBER_SIZE
    archive[124:136] = b"%011o\0" % size
    archive[148:156] = b"        "
    archive[148:156] = b"%06o\0 " % sum(archive[:512])
    return Witness("RSIG-TAR-005", xz(bytes(archive)), "spec", 124, "tar.entry[0].size")


@st.composite
def _version(d: st.DrawFn) -> Witness:
    body = encode_body(d(v3s()))
    # neither reading of the word (little-endian; v1's big-endian) is a known version
    word = d(st.integers(0, 0xFFFF).filter(lambda w: w not in (1, 2, 3, 4) and w >> 8 not in (1, 2, 3, 4)
                                            if w & 0xFF == 0 else w not in (1, 2, 3, 4)))
    return inside("RSIG-VERSION-001", struct.pack("<H", word) + body[2:], 0, "version")


def _legacy() -> st.SearchStrategy[Witness]:
    return raskat_signals(1, max_samples=8).map(
        lambda s: inside("RSIG-VERSION-002", encode_body(s), 0, "version"))


def _version4() -> st.SearchStrategy[Witness]:
    return raskat_signals(4, max_samples=8).map(
        lambda s: inside("RSIG-VERSION-003", msgpack_body(4, s.fields), 0, "version"))


@st.composite
def _cut(d: st.DrawFn) -> Witness:
    sig = d(v3s())
    starts = field_starts(sig.fields)
    i = d(st.sampled_from([i for i in range(11) if starts[i + 1] - starts[i] > 1]))
    cut = d(st.integers(starts[i] + 1, starts[i + 1] - 1))  # inside field i
    return inside("RSIG-STREAM-001", msgpack_body(sig.version, sig.fields)[:cut], starts[i],
                  f"field[{i}]:{FIELD_NAMES[i]}")


@st.composite
def _trailing(d: st.DrawFn) -> Witness:
    body = d(st.one_of(v2s().map(encode_v2), v3s().map(lambda s: msgpack_body(s.version, s.fields))))
    return inside("RSIG-STREAM-002", body + d(st.binary(min_size=1, max_size=8)), len(body), "end")


@st.composite
def _count(d: st.DrawFn) -> Witness:
    body = bytearray(encode_v2(d(v2s())))
    present = (len(body) - OFF_SAMPLES_V2) // 2
    body[OFF_COUNT_V2:OFF_COUNT_V2 + 4] = struct.pack("<I", d(st.integers(present + 1, present + 1000)))
    return inside("RSIG-SAMPLES-001", bytes(body), OFF_COUNT_V2, "num_samples")


@st.composite
def _never_used(d: st.DrawFn) -> Witness:
    sig = d(v3s())
    i = d(st.integers(0, len(sig.fields) - 1))
    starts = field_starts(sig.fields)
    body = msgpack_body(sig.version, sig.fields)
    body = body[:starts[i]] + b"\xc1" + body[starts[i + 1]:]  # 0xc1: the one lead byte MessagePack never uses
    return inside("RSIG-MSGPACK-001", body, starts[i], f"field[{i}]:{FIELD_NAMES[i]}")


_WIDER = ((0xCC, ">B", 0xFF), (0xCD, ">H", 0xFFFF), (0xCE, ">I", 0xFFFFFFFF), (0xCF, ">Q", 2**64 - 1))


@st.composite
def _wide(d: st.DrawFn) -> Witness:
    sig = d(v3s())
    i = d(st.sampled_from((1, 5, 6, 7, 9, 10)))  # the unsigned int fields
    x = sig.fields[i]
    minimal = len(msgpack.packb(x))
    lead, fmt, _ = d(st.sampled_from([w for w in _WIDER if w[2] >= x and 1 + struct.calcsize(w[1]) > minimal]))
    starts = field_starts(sig.fields)
    body = msgpack_body(sig.version, sig.fields)
    body = body[:starts[i]] + bytes([lead]) + struct.pack(fmt, x) + body[starts[i + 1]:]
    return inside("RSIG-MSGPACK-002", body, starts[i], "msgpack")


# field 12 (the threshold) is a signed int: -1 is its type (RSIG-THRESHOLD-001's case, not this rule's)
_WRONG = {0: (None, True, 5, b"\x00", 1.5), 11: (None, True, "x", 7, b"\x00"),
          12: (None, True, "x", b"\x00", (1, 2), 1.5)}


def _wrong_type() -> st.SearchStrategy[Witness]:
    @st.composite
    def draw(d: st.DrawFn) -> Witness:
        sig = d(v3s())
        i = d(st.integers(0, len(sig.fields) - 1))
        # a double field given an int is RSIG-FIELDS-003's case, not this rule's
        value = d(st.sampled_from(_WRONG.get(i, (None, True, "x", b"\x00", (1, 2)) if i in (2, 3, 4, 8)
                                             else (None, True, "x", b"\x00", (1, 2), 1.5, -1))))
        fields = with_field(sig, i, value)
        # a wrong adc_bits type leaves the samples and threshold without a range: no other rule
        return inside("RSIG-FIELDS-001", msgpack_body(sig.version, fields), field_starts(fields)[i],
                      f"field[{i}]:{FIELD_NAMES[i]}")
    return draw()


@st.composite
def _int_double(d: st.DrawFn) -> Witness:
    sig = d(v3s())
    i = d(st.sampled_from((2, 3, 4, 8)))
    value = d({2: st.integers(-90, 90), 3: st.integers(-90, 90), 4: st.integers(-500, 10_000),
               8: st.integers(1, 50)}[i])
    fields = with_field(sig, i, value)
    return inside("RSIG-FIELDS-003", msgpack_body(sig.version, fields), field_starts(fields)[i],
                  f"field[{i}]:{FIELD_NAMES[i]}")


def _draft() -> st.SearchStrategy[Witness]:
    # the June 2025 draft: 9 fields (no load, bits, Vref); the walk stops where a 10th field would start
    def make(sig: SignalMsgpack) -> Witness:
        fields = sig.fields[:6] + sig.fields[9:12]
        return inside("RSIG-FIELDS-002", msgpack_body(3, fields), field_starts(fields)[9], "field[9]")
    return v3s(3).map(make)


_BAD_TIMES = (b"20250230120000", b"2025o624100658", b"20251301000000", b"20250101240000", b"20250101236000",
              b"20250100000000", b"2025062410065 ")


def _time() -> st.SearchStrategy[Witness]:
    v2 = v2_break("RSIG-TIME-001", st.sampled_from(_BAD_TIMES).map(lambda t: ({"time": t}, OFF_TIME, "time")))
    v3 = st.sampled_from(_BAD_TIMES).flatmap(lambda t: msgpack_break("RSIG-TIME-001", 0, t.decode()))
    return st.one_of(v2, v3)


def _microseconds() -> st.SearchStrategy[Witness]:
    us = st.integers(1_000_000, 0xFFFFFFFF)
    return st.one_of(v2_break("RSIG-TIME-002", us.map(lambda x: ({"microseconds": x}, OFF_US, "microseconds"))),
                     us.flatmap(lambda x: msgpack_break("RSIG-TIME-002", 1, x)))


def _fraction() -> st.SearchStrategy[Witness]:
    from recspec.reference.raskat_signal import Fixed

    # integer part 0 and a fraction that keeps the value (int + frac / 1e6) within range, so that only the
    # fraction's own rule fires
    lat = st.integers(1_000_000, 89_000_000).map(lambda f: ({"latitude": Fixed(0, f)}, OFF_LAT + 2, "latitude.frac"))
    lon = st.integers(1_000_000, 179_000_000).map(
        lambda f: ({"longitude": Fixed(0, f)}, OFF_LON + 2, "longitude.frac"))
    return v2_break("RSIG-COORD-001", st.one_of(lat, lon))


def _coordinate() -> st.SearchStrategy[Witness]:
    from recspec.reference.raskat_signal import Fixed

    lat = st.integers(91, 0xFFFF).map(lambda x: ({"latitude": Fixed(x, 0)}, OFF_LAT, "latitude"))
    lon = st.integers(181, 0xFFFF).map(lambda x: ({"longitude": Fixed(x, 0)}, OFF_LON, "longitude"))
    # v3/v4 under spec: field 3 (coordinate_1) is the longitude, field 4 (coordinate_2) the latitude
    v3_lon = st.floats(180.0, 1e6, exclude_min=True).flatmap(lambda x: msgpack_break("RSIG-COORD-002", 2, x))
    v3_lat = st.floats(90.0, 179.0, exclude_min=True).flatmap(lambda x: msgpack_break("RSIG-COORD-002", 3, x))
    return st.one_of(v2_break("RSIG-COORD-002", st.one_of(lat, lon)), v3_lon, v3_lat)


def _altitude() -> st.SearchStrategy[Witness]:
    alt = st.one_of(st.floats(10_000.0, 1e7, exclude_min=True), st.floats(-1e7, -500.0, exclude_max=True),
                    st.just(float("inf")), st.just(float("nan")))
    return alt.flatmap(lambda x: msgpack_break("RSIG-COORD-003", 4, x))


def _rate() -> st.SearchStrategy[Witness]:
    return st.one_of(v2_break("RSIG-RATE-001", st.just(({"sample_rate": 0}, OFF_RATE, "sample_rate"))),
                     msgpack_break("RSIG-RATE-001", 5, 0))


def _flags() -> st.SearchStrategy[Witness]:
    bad = st.integers(0, 0xFF).filter(lambda f: f & ~DEFINED_FLAGS)
    return st.one_of(v2_break("RSIG-FLAGS-001", bad.map(lambda f: ({"flags": f}, OFF_FLAGS, "flags"))),
                     bad.flatmap(lambda f: msgpack_break("RSIG-FLAGS-001", 9, f)))


@st.composite
def _negative_v2(d: st.DrawFn) -> Witness:
    sig = d(v2s())
    j = d(st.integers(0, len(sig.samples)))
    samples = sig.samples[:j] + (d(st.integers(-0x8000, -1)),) + sig.samples[j:]
    return inside("RSIG-SAMPLES-002", encode_v2(replace(sig, samples=samples)), OFF_SAMPLES_V2 + 2 * j,
                  f"samples[{j}]")


def _sample_offsets(fields: tuple[object, ...]) -> list[int]:
    start = field_starts(fields)[11]
    samples = fields[11]
    assert isinstance(samples, tuple)
    at = start + len(msgpack.packb(samples)) - sum(len(msgpack.packb(x)) for x in samples)
    out = []
    for x in samples:
        out.append(at)
        at += len(msgpack.packb(x))
    return out


def _sample_break(rule: str, bad: st.SearchStrategy[int], *,
                  bits: st.SearchStrategy[int]) -> st.SearchStrategy[Witness]:
    @st.composite
    def draw(d: st.DrawFn) -> Witness:
        sig = d(v3s())
        b = d(bits)
        top = (1 << b) - 1
        # the other samples and the threshold within the drawn resolution
        samples = tuple(min(x, top) for x in sig.samples)
        j = d(st.integers(0, len(samples)))
        x = d(bad.filter(lambda x: rule == "RSIG-SAMPLES-004" or not 0 <= x <= top))
        samples = samples[:j] + (x,) + samples[j:]
        fields = with_field(sig, 7, b)
        fields = with_field(SignalMsgpack(sig.version, fields), 11, samples)
        if sig.version == 4:
            fields = with_field(SignalMsgpack(4, fields), 12, min(fields[12], top))
        return inside(rule, msgpack_body(sig.version, fields), _sample_offsets(fields)[j], f"field[11]:samples[{j}]")
    return draw()


def _threshold() -> st.SearchStrategy[Witness]:
    @st.composite
    def draw(d: st.DrawFn) -> Witness:
        sig = d(v3s(4))
        b = d(st.integers(1, 15))
        top = (1 << b) - 1
        fields = with_field(sig, 7, b)
        fields = with_field(SignalMsgpack(4, fields), 11, tuple(min(x, top) for x in sig.samples))
        t = d(st.one_of(st.integers(top + 1, 2**32), st.integers(-2**32, -1)))
        fields = with_field(SignalMsgpack(4, fields), 12, t)
        return inside("RSIG-THRESHOLD-001", msgpack_body(4, fields), field_starts(fields)[12], "field[12]:threshold")
    return draw()


WITNESSES: Witnesses = {
    "RSIG-CONTAINER-001": _container,
    "RSIG-XZ-001": _xz_cut,
    "RSIG-XZ-002": _xz_two,
    "RSIG-LIMIT-001": _limit,
    "RSIG-TAR-001": _tar_checksum,
    "RSIG-TAR-002": _tar_two,
    "RSIG-TAR-003": _tar_special,
    "RSIG-TAR-004": _tar_name,
    "RSIG-TAR-005": _tar_size,
    "RSIG-VERSION-001": _version,
    "RSIG-VERSION-002": _legacy,
    "RSIG-VERSION-003": _version4,
    "RSIG-STREAM-001": _cut,
    "RSIG-STREAM-002": _trailing,
    "RSIG-SAMPLES-001": _count,
    "RSIG-MSGPACK-001": _never_used,
    "RSIG-MSGPACK-002": _wide,
    "RSIG-FIELDS-001": _wrong_type,
    "RSIG-FIELDS-003": _int_double,
    "RSIG-FIELDS-002": _draft,
    "RSIG-TIME-001": _time,
    "RSIG-TIME-002": _microseconds,
    "RSIG-COORD-001": _fraction,
    "RSIG-COORD-002": _coordinate,
    "RSIG-COORD-003": _altitude,
    "RSIG-RATE-001": _rate,
    "RSIG-FLAGS-001": _flags,
    "RSIG-SAMPLES-002": _negative_v2,
    "RSIG-SAMPLES-003": lambda: _sample_break("RSIG-SAMPLES-003", st.integers(0, 0x7FFF), bits=st.integers(1, 14)),
    "RSIG-SAMPLES-004": lambda: _sample_break("RSIG-SAMPLES-004", st.one_of(st.integers(0x8000, 2**32),
                                                                            st.integers(-2**32, -0x8001)),
                                              bits=st.integers(1, 16)),
    "RSIG-THRESHOLD-001": _threshold,
    "RSIG-ANTENNA-001": lambda: st.integers(3, 0xFFFF).flatmap(lambda x: msgpack_break("RSIG-ANTENNA-001", 10, x)),
    "RSIG-ADC-001": lambda: st.one_of(st.just(0), st.integers(17, 0xFFFF)).flatmap(
        lambda x: msgpack_break("RSIG-ADC-001", 7, x)),
    "RSIG-ADC-002": lambda: st.one_of(st.just(0), st.integers(0x10000, 2**32)).flatmap(
        lambda x: msgpack_break("RSIG-ADC-002", 6, x)),
    "RSIG-ADC-003": lambda: st.one_of(st.floats(max_value=0.0), st.floats(min_value=50.0, exclude_min=True),
                                      st.just(float("nan"))).flatmap(lambda x: msgpack_break("RSIG-ADC-003", 8, x)),
}

#: rules no file can break while recspec is right, with the reason
UNWITNESSABLE = {
    "RSIG-XCHECK-001": "fires when recspec's own two readers disagree: a bug in recspec, not a property of a file",
}


def valid_files() -> st.SearchStrategy[Witness]:
    """The unbroken files the witnesses start from (rule ""; nothing may fire)."""
    return st.one_of(v2s().map(encode_v2), v3s().map(lambda s: msgpack_body(s.version, s.fields))).map(
        lambda body: Witness("", wrapped(body), "spec", None, ""))
