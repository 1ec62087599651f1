"""The raSkat seed corpus, built by the reference encoder.

``seeds()`` yields every corpus file with what a correct checker must say about
it under each profile. The expectations are written here by hand from the
decisions in ``_rules.py`` (what each file was built to break), not computed by
the checker; ``tools/make_corpus.py`` writes the files and
``corpus/raskat-signal/manifest.json``.

Valid files: one per version in the tar.xz container the document describes
(valid under both profiles), and raw files as the raSkat writer emits them
(valid under compat; under spec they break exactly the rules the decisions
predict). Invalid files: each named after the rule it breaks, wrapped in tar.xz
so that under spec nothing else fires.
"""

from __future__ import annotations

import io
import lzma
import struct
import tarfile
from collections.abc import Iterator
from dataclasses import replace

from recspec.formats import HeaderDamage, Seed
from recspec.reference.raskat_signal import (
    Fixed,
    SignalMsgpack,
    SignalV2,
    encode,
    encode_body,
)
from recspec.reference.raskat_signal import msgpack_pack as pack

__all__ = ["DAMAGED_HEADERS", "Seed", "edges_v2", "seeds", "spec_v2", "spec_v3", "spec_v4", "writer_v2", "writer_v3",
           "writer_v4"]

TIME = b"20250624100658"
MTIME = 1750759618  # the same instant, for tar headers


# --- base signals ---------------------------------------------------------------------

def spec_v2() -> SignalV2:
    """A v2 signal the document accepts: samples stored with the +1000 offset, flags 1|2."""
    samples = tuple(1000 + s for s in (0, 3, -7, 12, -20, 45, -90, 130, -60, 22, -5, 0))
    return SignalV2(2, TIME, 73755, Fixed(37, 617635), Fixed(55, 755814), Fixed(150, 0), 500_000, 0x03, samples)


def writer_v2() -> SignalV2:
    """A v2 signal as the raSkat writer emits it: signed samples without the offset."""
    return replace(spec_v2(), samples=(0, 3, -7, 12, -20, 45, -90, 130, -60, 22, -5, 0), flags=0x02)


def _v3(c1: float, c2: float, flags: int, samples: tuple[int, ...], threshold: int | None = None) -> SignalMsgpack:
    return SignalMsgpack.build(time=TIME.decode(), microseconds=73755, coordinate_1=c1, coordinate_2=c2,
                               altitude=150.0, sample_rate=500_000, load_ohm=1000, adc_bits=10,
                               vref=3.299999952316284, flags=flags, antenna=1, samples=samples,
                               threshold=threshold)


_CODES = tuple(512 + d for d in (0, 4, -9, 30, -61, 131, -240, 300, -120, 44, -10, 1))


def spec_v3() -> SignalMsgpack:
    """Both coordinates within +-90, so either field order reads a valid position."""
    return _v3(37.617635, 55.755814, 0x03, tuple(range(0, 100, 7)))


def writer_v3() -> SignalMsgpack:
    """As the raSkat writer emits it: latitude first (70.54), longitude 128.01, flags 0x8a."""
    return _v3(70.54321, 128.012345, 0x8A, tuple(range(0, 100, 7)))


def spec_v4() -> SignalMsgpack:
    return _v3(37.617635, 55.755814, 0x02, _CODES, threshold=643)


def writer_v4() -> SignalMsgpack:
    return _v3(70.54321, 128.012345, 0x82, _CODES, threshold=643)


def _edges_msgpack(bits: int, threshold: int | None) -> SignalMsgpack:
    """v3 (no threshold) or v4 with every field a range rule judges at an edge of its range
    (docs/formats/raskat-signal.md): microseconds 999,999, coordinates at +-90 (valid in either field order),
    altitude 10,000 m, sample rate 1 Hz, load 65,535 ohm, vref 50 V, both defined flags, antenna 2 (the
    last type), samples from 0 to the largest code ``bits`` allow (at most int16's 32,767)."""
    top = min((1 << bits) - 1, 0x7FFF)
    return SignalMsgpack.build(time=TIME.decode(), microseconds=999_999, coordinate_1=90.0, coordinate_2=-90.0,
                               altitude=10_000.0, sample_rate=1, load_ohm=0xFFFF, adc_bits=bits, vref=50.0,
                               flags=0x03, antenna=2, samples=(0, top, top // 2, 1, top - 1),
                               threshold=threshold)


def edges_v2() -> SignalV2:
    """A v2 signal with every judged field at an edge: microseconds 999,999, fractions of 999,999
    millionths (longitude 179.999999, altitude 9,999.999999 m), latitude 90, sample rate 1 Hz, both
    defined flags, stored samples 0 (the offset's -1000) and 32,767 (int16's top)."""
    return SignalV2(2, TIME, 999_999, Fixed(179, 999_999), Fixed(90, 0), Fixed(9_999, 999_999), 1, 0x03,
                    (0, 32_767, 1000, 1, 999))


# --- containers --------------------------------------------------------------------------

def _xz(tar: bytes) -> bytes:
    return lzma.compress(tar, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64)


def _tar(*members: tuple[str, bytes, bytes, str]) -> bytes:
    """A ustar archive of (name, typeflag, data, linkname) members, deterministic."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name, typeflag, data, link in members:
            ti = tarfile.TarInfo(name)
            ti.type, ti.size, ti.mtime, ti.mode, ti.linkname = typeflag, len(data), MTIME, 0o644, link
            ti.uname = ti.gname = ""
            tf.addfile(ti, io.BytesIO(data) if typeflag == tarfile.REGTYPE else None)
    return out.getvalue()


def _wrapped(sig: SignalV2 | SignalMsgpack) -> bytes:
    return encode(sig, container="tar.xz", mtime=MTIME)


def _v3_fields(sig: SignalMsgpack, **changes: bytes) -> bytes:
    """v3/v4 body bytes with some fields replaced by hand-made MessagePack bytes."""
    from recspec.reference.raskat_signal import FIELD_NAMES

    parts = [changes.get(FIELD_NAMES[i], pack(v)) for i, v in enumerate(sig.fields)]
    return struct.pack("<H", sig.version) + b"".join(parts)


def _with(sig: SignalMsgpack, i: int, value: object) -> SignalMsgpack:
    return SignalMsgpack(sig.version, sig.fields[:i] + (value,) + sig.fields[i + 1:])


# --- expectations -------------------------------------------------------------------------

def _both(verdict: str, *rules: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {"spec": (verdict, rules), "compat": (verdict, rules)}


def _spec_only(verdict: str, rules: tuple[str, ...], compat: tuple[str, tuple[str, ...]] = ("valid", ())
               ) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {"spec": (verdict, rules), "compat": compat}


def _invalid_cases() -> Iterator[tuple[str, bytes, str | None, dict[str, tuple[str, tuple[str, ...]]], str]]:
    v2, v3, v4 = spec_v2(), spec_v3(), spec_v4()
    body3 = encode_body(v3)

    def w(body: bytes) -> bytes:
        return _xz(_tar(("20250624100658.sig", tarfile.REGTYPE, body, "")))

    yield ("RSIG-CONTAINER-001", encode_body(v3), "v3", _spec_only("invalid", ("RSIG-CONTAINER-001",)),
           "a v3 signal the document accepts, stored raw instead of tar.xz")
    yield ("RSIG-VERSION-001", w(b"\x07\x00" + body3[2:]), None, _both("malformed", "RSIG-VERSION-001"),
           "version word 7")
    v1 = SignalV2(1, TIME, 73755, v2.longitude, v2.latitude, v2.altitude, 500_000, None, v2.samples)
    yield ("RSIG-VERSION-002", _wrapped(v1), "v1",
           _spec_only("invalid", ("RSIG-VERSION-002",), ("valid", ("RSIG-VERSION-002",))),
           "legacy version 1: big-endian body, no flags byte")
    yield ("RSIG-STREAM-001", w(body3[:40]), "v3", _both("malformed", "RSIG-STREAM-001"),
           "v3 cut inside the fourth field")
    yield ("RSIG-STREAM-002", w(encode_body(v2) + b"\x00\x00\x00"), "v2", _both("malformed", "RSIG-STREAM-002"),
           "three bytes after the last v2 sample")
    short = bytearray(encode_body(v2))
    short[43:47] = struct.pack("<I", len(v2.samples) + 2)
    yield ("RSIG-SAMPLES-001", w(bytes(short)), "v2", _both("malformed", "RSIG-SAMPLES-001"),
           "the sample count says 2 more samples than follow")
    yield ("RSIG-MSGPACK-001", w(_v3_fields(v3, antenna=b"\xc1")), "v3", _both("malformed", "RSIG-MSGPACK-001"),
           "the never-used lead byte 0xc1 in place of the antenna type")
    yield ("RSIG-MSGPACK-002", w(_v3_fields(v3, microseconds=b"\xcf" + struct.pack(">Q", 73755))), "v3",
           _spec_only("valid", ("RSIG-MSGPACK-002",)), "microseconds stored as uint 64 instead of uint 32")
    yield ("RSIG-FIELDS-001", w(encode_body(_with(v3, 5, "500000"))), "v3", _both("invalid", "RSIG-FIELDS-001"),
           "the sample rate stored as a str")
    yield ("RSIG-FIELDS-003", w(encode_body(_with(v3, 4, 150))), "v3", _spec_only("invalid", ("RSIG-FIELDS-003",)),
           "the altitude 150.0 packed as the integer 150, as msgpack-cxx 4.1.2-6.x writes a whole-number double")
    draft = SignalMsgpack(3, v3.fields[:6] + v3.fields[9:])
    yield ("RSIG-FIELDS-002", w(encode_body(draft)), "v3", _both("malformed", "RSIG-FIELDS-002"),
           "the 9-field draft v3 of June 2025 (no load, bits, Vref)")
    yield ("RSIG-TIME-001", _wrapped(replace(v2, time=b"20250230120000")), "v2", _both("invalid", "RSIG-TIME-001"),
           "30 February")
    yield ("RSIG-TIME-002", _wrapped(_with(v3, 1, 1_000_000)), "v3", _both("invalid", "RSIG-TIME-002"),
           "1,000,000 microseconds")
    yield ("RSIG-COORD-001", _wrapped(replace(v2, latitude=Fixed(45, 1_000_000))), "v2",
           _both("invalid", "RSIG-COORD-001"), "latitude fraction 1,000,000")
    yield ("RSIG-COORD-002", _wrapped(replace(v2, latitude=Fixed(91, 0))), "v2", _both("invalid", "RSIG-COORD-002"),
           "latitude 91 degrees")
    yield ("RSIG-COORD-003", _wrapped(_with(v3, 4, 20_000.0)), "v3",
           _spec_only("valid", ("RSIG-COORD-003",)), "altitude 20 km")
    yield ("RSIG-RATE-001", _wrapped(replace(v2, sample_rate=0)), "v2", _both("invalid", "RSIG-RATE-001"),
           "sample rate 0 Hz")
    yield ("RSIG-FLAGS-001", _wrapped(replace(v2, flags=0x83)), "v2", _spec_only("invalid", ("RSIG-FLAGS-001",)),
           "flags 0x83: bit 7 is not defined")
    yield ("RSIG-SAMPLES-002", _wrapped(writer_v2()), "v2", _spec_only("invalid", ("RSIG-SAMPLES-002",)),
           "negative stored v2 samples (no +1000 offset), flags 2")
    yield ("RSIG-SAMPLES-003", _wrapped(_with(v4, 11, _CODES + (1024,))), "v4",
           _spec_only("invalid", ("RSIG-SAMPLES-003",), ("valid", ("RSIG-SAMPLES-003",))),
           "sample 1024 from a 10-bit ADC")
    yield ("RSIG-SAMPLES-004", _wrapped(_with(v3, 11, (1, 2, 40_000))), "v3", _both("invalid", "RSIG-SAMPLES-004"),
           "sample 40000 does not fit int16")
    yield ("RSIG-ANTENNA-001", _wrapped(_with(v3, 10, 3)), "v3", _both("invalid", "RSIG-ANTENNA-001"),
           "antenna type 3")
    yield ("RSIG-ADC-001", _wrapped(_with(v3, 7, 0)), "v3", _both("invalid", "RSIG-ADC-001"), "0-bit ADC")
    yield ("RSIG-ADC-002", _wrapped(_with(v3, 6, 0)), "v3", _both("invalid", "RSIG-ADC-002"), "load 0 ohm")
    yield ("RSIG-ADC-003", _wrapped(_with(v3, 8, 0.0)), "v3", _both("invalid", "RSIG-ADC-003"), "Vref 0 V")
    yield ("RSIG-THRESHOLD-001", _wrapped(_with(v4, 12, 2000)), "v4", _both("invalid", "RSIG-THRESHOLD-001"),
           "threshold 2000 from a 10-bit ADC")
    good = _wrapped(v3)
    yield ("RSIG-XZ-001", good[:-10], None, _both("malformed", "RSIG-XZ-001"), "the xz stream cut 10 bytes short")
    yield ("RSIG-XZ-002", good + good, None, _both("malformed", "RSIG-XZ-002"), "two xz streams back to back")
    bomb = _xz(_tar(("bomb.sig", tarfile.REGTYPE, b"\x03\x00" + b"\x00" * (65 * 1024 * 1024), "")))
    yield ("RSIG-LIMIT-001", bomb, None, _both("malformed", "RSIG-LIMIT-001"),
           "an xz bomb: about 10 KB that inflate to 65 MiB, past the 8 MiB limit")
    tar = bytearray(_tar(("20250624100658.sig", tarfile.REGTYPE, body3, "")))
    tar[148:154] = b"000001"
    yield ("RSIG-TAR-001", _xz(bytes(tar)), None, _both("malformed", "RSIG-TAR-001"), "a wrong header checksum")
    yield ("RSIG-TAR-002", _xz(_tar(("a.sig", tarfile.REGTYPE, body3, ""), ("b.sig", tarfile.REGTYPE, body3, ""))),
           None, _both("malformed", "RSIG-TAR-002"), "two regular members")
    yield ("RSIG-TAR-003", _xz(_tar(("20250624100658.sig", tarfile.REGTYPE, body3, ""),
                                    ("latest.sig", tarfile.SYMTYPE, b"", "/etc/passwd"))),
           "v3", _both("invalid", "RSIG-TAR-003"), "a symlink member beside the signal")
    yield ("RSIG-TAR-004", _xz(_tar(("../../20250624100658.sig", tarfile.REGTYPE, body3, ""))), "v3",
           _both("invalid", "RSIG-TAR-004"), "a member name that climbs out with '..'")
    big = bytearray(_tar(("20250624100658.sig", tarfile.REGTYPE, body3, "")))
    big[124:136] = b"%011o\0" % (41 * 1024 * 1024)
    big[148:156] = b"        "
    big[148:156] = b"%06o\0 " % sum(big[:512])
    yield ("RSIG-TAR-005", _xz(bytes(big)), None, _both("malformed", "RSIG-TAR-005"),
           "a member header declaring 41 MiB")


def seeds() -> Iterator[Seed]:
    """Every raSkat corpus file, valid ones first, in a stable order."""
    for name, sig in (("v2", spec_v2()), ("v3", spec_v3()), ("v4", spec_v4())):
        yield Seed(f"valid/{name}.tar.xz.sig", _wrapped(sig), name, _both("valid"),
                   f"{name} in the document's tar.xz container; valid under both profiles")
    yield Seed("valid/v2-writer.sig", encode(writer_v2()), "v2",
               _spec_only("invalid", ("RSIG-CONTAINER-001", "RSIG-SAMPLES-002")),
               "v2 raw as raSkat writes it: signed samples without the +1000 offset")
    yield Seed("valid/v3-writer.sig", encode(writer_v3()), "v3",
               _spec_only("invalid", ("RSIG-CONTAINER-001", "RSIG-COORD-002", "RSIG-FLAGS-001")),
               "v3 raw as raSkat writes it: latitude first (longitude 128 read as latitude under spec), flags 0x8a")
    yield Seed("valid/v4-writer.sig", encode(writer_v4()), "v4",
               _spec_only("invalid", ("RSIG-CONTAINER-001", "RSIG-COORD-002", "RSIG-FLAGS-001")),
               "version 4 raw: raw 10-bit codes near 512, threshold 643, flags 0x82")
    # v3 and version 4 at 16 bits (samples and threshold at int16's top), version 4 at 12 (at 2^12 - 1)
    for name, sig in (("v2", edges_v2()), ("v3", _edges_msgpack(16, None)), ("v4", _edges_msgpack(12, 4095)),
                      ("v4-16-bits", _edges_msgpack(16, 0x7FFF))):
        yield Seed(f"valid/{name}-edges.sig", encode(sig), name[:2], _spec_only("invalid", ("RSIG-CONTAINER-001",)),
                   f"{name} raw, every field a range rule judges at an edge of its range (antenna 2, microseconds "
                   "999,999, coordinates at their limits, the largest sample code): valid but for the container")
    for rule, data, variant, expect, description in _invalid_cases():
        yield Seed(f"invalid/{rule}.sig", data, variant, expect, description)


#: Valid seeds with a damaged header: no sniffer recognises the first bytes, and the extension names the
#: format, whose header rule reports the bytes found (``corpus/raskat-signal/damaged/``).
DAMAGED_HEADERS: tuple[HeaderDamage, ...] = (
    HeaderDamage("damaged/xz-magic-damaged.sig", "valid/v3.tar.xz.sig", 1, b"8",
                 {"spec": ("malformed", ("RSIG-CONTAINER-001", "RSIG-VERSION-001")),
                  "compat": ("malformed", ("RSIG-VERSION-001",))},
                 "the xz magic's second byte 7 made 8: read as a raw file, its version word is 14589"),
    HeaderDamage("damaged/time-damaged.sig", "valid/v3-writer.sig", 2, b"\x00",
                 {"spec": ("malformed", ("RSIG-CONTAINER-001", "RSIG-STREAM-002")),
                  "compat": ("malformed", ("RSIG-STREAM-002",))},
                 "the time's fixstr marker 0xae made 0x00, so the time string is not where v3 puts it",
                 variant="v3"),
)
