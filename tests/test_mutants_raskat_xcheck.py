"""The raSkat Kaitai cross-check (``conformance/raskat_signal/_xcheck.py``) held to facts of its own.

The values the Kaitai reading must give come from outside the code under test: v3/v4 bodies whose
objects are written by hand from the MessagePack specification, one for each lead byte at the edges
of its family, are compared with the ``msgpack`` package's reading of the same bytes; v1/v2 headers
are written with ``struct`` from the format document's layout (v2 little-endian with a flags byte,
v1 big-endian without one) and compared with the values written; tar.xz files are made by Python's
``tarfile`` and ``lzma``, and member names are compared with ``tarfile``'s. The member choice and the
member-size limit are README.md's (one regular member, none over ``MAX_MEMBER_SIZE``).
"""

from __future__ import annotations

import dataclasses
import io
import lzma
import math
import shutil
import struct
import subprocess
import tarfile
from typing import Any

import msgpack
import pytest

from recspec.conformance.raskat_signal import RULES_BY_ID
from recspec.conformance.raskat_signal._xcheck import (
    KaitaiRejected,
    cross_check_report,
    differential,
    kaitai_read,
    same,
)
from recspec.errors import DecodeError, Malformed
from recspec.reference.raskat_signal import MAX_MEMBER_SIZE, Ext, Fixed, MsgMap, SignalV2, decode
from recspec.report import FileReport, Severity, Verdict

V3 = b"\x03\x00"  # the version word, little-endian
V4 = b"\x04\x00"


def _u(fmt: str, *v: Any) -> bytes:
    return struct.pack(">" + fmt, *v)  # MessagePack numbers and lengths are big-endian


#: one object of each lead byte at the edges of its family (the specification's table)
OBJECTS: list[bytes] = [
    b"\x00", b"\x7f",  # positive fixint 0x00-0x7f
    b"\x80", b"\x82\x01\xa1a\x02\xa1b",  # fixmap 0x80-0x8f: {} and {1: "a", 2: "b"}
    b"\x8f" + b"".join(bytes((k, 0x7f - k)) for k in range(15)),  # 15 pairs
    b"\x90", b"\x92\x01\x02",  # fixarray 0x90-0x9f
    b"\x9f" + bytes(range(15)),
    b"\xa0", b"\xa1z", b"\xbf" + b"q" * 31,  # fixstr 0xa0-0xbf
    b"\xc0", b"\xc2", b"\xc3",  # nil, false, true
    b"\xc4\x02xy", b"\xc5" + _u("H", 3) + b"abc", b"\xc6" + _u("I", 1) + b"\x00",  # bin 8/16/32
    b"\xc7\x03\x05abc", b"\xc8" + _u("H", 2) + b"\x06xy", b"\xc9" + _u("I", 1) + b"\x07z",  # ext 8/16/32
    b"\xca" + _u("f", 1.5), b"\xcb" + _u("d", -2.25),  # float 32, float 64
    b"\xcc\x80", b"\xcc\xff", b"\xcd" + _u("H", 0xFFFF), b"\xce" + _u("I", 2**32 - 1),  # uint 8-64
    b"\xcf" + _u("Q", 2**64 - 1),
    b"\xd0\x80", b"\xd1" + _u("h", -0x8000), b"\xd2" + _u("i", -2**31), b"\xd3" + _u("q", -2**63),  # int 8-64
    b"\xd4\x01a", b"\xd5\x02ab", b"\xd6\x03abcd", b"\xd7\x04" + b"8" * 8, b"\xd8\x05" + b"6" * 16,  # fixext
    b"\xd9\x01s", b"\xda" + _u("H", 2) + b"st", b"\xdb" + _u("I", 3) + b"str",  # str 8/16/32
    b"\xdc" + _u("H", 2) + b"\x01\xc3", b"\xdd" + _u("I", 1) + b"\xc0",  # array 16/32
    b"\xde" + _u("H", 2) + b"\x01\x02\x03\x04", b"\xdf" + _u("I", 1) + b"\xa1k\x09",  # map 16/32
    b"\xe0", b"\xff",  # negative fixint 0xe0-0xff: -32, -1
]


def _package_values(body: bytes, count: int) -> tuple[Any, ...]:
    """The ``msgpack`` package's reading, in the model's terms (arrays as tuples, maps as pairs in
    stored order, ext values as :class:`Ext`)."""
    unpacker = msgpack.Unpacker(use_list=False, raw=False, strict_map_key=False,
                                object_pairs_hook=lambda pairs: MsgMap(tuple(pairs)), ext_hook=Ext)
    unpacker.feed(body)
    values = tuple(unpacker.unpack() for _ in range(count))
    assert unpacker.tell() == len(body)
    return values


def _typed(v: Any) -> Any:
    """``v`` with the type of every value kept: 1, 1.0 and True compare different."""
    if isinstance(v, tuple):
        return ("tuple", tuple(_typed(x) for x in v))
    if isinstance(v, MsgMap):
        return ("map", tuple((_typed(k), _typed(x)) for k, x in v.pairs))
    return (type(v).__name__, repr(v))


@pytest.mark.parametrize(("version", "count"), [(V3, 12), (V4, 13)])
def test_every_lead_byte_reads_as_the_msgpack_package_reads_it(version: bytes, count: int) -> None:
    objects = OBJECTS + [b"\xc0"] * (-len(OBJECTS) % count)  # nil to fill the last body
    for i in range(0, len(objects), count):
        body = b"".join(objects[i:i + count])
        ks = kaitai_read(version + body)
        assert ks.container == "raw" and ks.signal.version == version[0]
        assert _typed(ks.signal.fields) == _typed(_package_values(body, count))
        assert differential(version + body) == []


def test_float_32_and_64_are_floats_and_wide_ints_ints() -> None:
    body = b"".join((b"\xca" + _u("f", 2.0), b"\xcb" + _u("d", 3.0), b"\xcc\x05", b"\xd0\x05")) + b"\xc0" * 8
    fields = kaitai_read(V3 + body).signal.fields
    assert [(type(x), x) for x in fields[:4]] == [(float, 2.0), (float, 3.0), (int, 5), (int, 5)]


V2_HEADER = (b"20250624100658" + struct.pack("<I", 73755) + struct.pack("<HI", 37, 617635)
             + struct.pack("<HI", 55, 755814) + struct.pack("<HI", 150, 7) + struct.pack("<I", 500000))


def test_a_v2_file_reads_as_its_layout() -> None:
    data = V2_HEADER.join((b"\x02\x00", b"\x03" + struct.pack("<I", 3) + struct.pack("<3h", 1000, -5, 7)))
    assert len(data) == 47 + 6  # the document's 47-byte header, then three int16 samples
    expected = SignalV2(2, b"20250624100658", 73755, Fixed(37, 617635), Fixed(55, 755814), Fixed(150, 7),
                        500000, 3, (1000, -5, 7))
    assert kaitai_read(data).signal == expected
    assert differential(data) == []


def test_a_v1_file_reads_big_endian_without_flags() -> None:
    data = (b"\x01\x00" + b"20240201120000" + struct.pack(">I", 12) + struct.pack(">HI", 1, 2)
            + struct.pack(">HI", 3, 4) + struct.pack(">HI", 5, 6) + struct.pack(">I", 1000)
            + struct.pack(">I", 2) + struct.pack(">2h", -1, 300))
    expected = SignalV2(1, b"20240201120000", 12, Fixed(1, 2), Fixed(3, 4), Fixed(5, 6), 1000, None, (-1, 300))
    assert kaitai_read(data).signal == expected
    assert decode(data).signal == expected
    assert differential(data) == []


def _tar_xz(members: list[tuple[tarfile.TarInfo, bytes]], fmt: int = tarfile.USTAR_FORMAT) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=fmt) as tf:
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            tf.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return lzma.compress(out.getvalue(), format=lzma.FORMAT_XZ)


def _info(name: str, kind: bytes = tarfile.REGTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    if kind == tarfile.SYMTYPE:
        info.linkname = "elsewhere"
    return info


BODY = V3 + b"\xa1t" + b"\x01" * 10 + b"\x92\x01\x02"  # twelve v3 objects


def _names_by_tarfile(data: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(data))) as tf:
        return tf.getnames()


@pytest.mark.parametrize("name", [
    "signal.sig",
    "a" * 100,  # the whole name field
    "d" * 120 + "/s.sig",  # tarfile puts "ddd..." in the ustar prefix field
])
def test_the_member_name_is_the_one_tarfile_reads(name: str) -> None:
    data = _tar_xz([(_info(name), BODY)])
    assert _names_by_tarfile(data) == [name]
    ks = kaitai_read(data)
    assert (ks.container, ks.member, ks.signal.fields[0]) == ("tar.xz", name, "t")
    assert differential(data) == []


def test_the_prefix_field_of_a_gnu_header_is_not_part_of_the_name() -> None:
    # GNU headers keep the access time where ustar has its prefix (byte 345); GNU tar fills it in some modes
    tar = bytearray(lzma.decompress(_tar_xz([(_info("g.sig"), BODY)], tarfile.GNU_FORMAT)))
    assert tar[257:265] == b"ustar  \0"  # the GNU magic, not ustar's
    tar[345:357] = b"14712345670\0"
    tar[148:156] = b" " * 8
    tar[148:156] = b"%06o\0 " % sum(tar[:512])
    data = lzma.compress(bytes(tar), format=lzma.FORMAT_XZ)
    # Python's tarfile joins that field to the name whatever the magic; GNU tar, whose format it is, does not
    if shutil.which("tar"):
        listing = subprocess.run(["tar", "-tf", "-"], input=bytes(tar), capture_output=True, check=True).stdout
        assert listing == b"g.sig\n"
    assert kaitai_read(data).member == "g.sig"
    assert differential(data) == []


@pytest.mark.parametrize("kinds", [
    [tarfile.DIRTYPE, tarfile.REGTYPE],
    [tarfile.REGTYPE, tarfile.DIRTYPE],
    [tarfile.SYMTYPE, tarfile.REGTYPE, tarfile.DIRTYPE],
    [tarfile.CONTTYPE],  # type 7, a contiguous file: regular
])
def test_the_one_regular_member_is_read(kinds: list[bytes]) -> None:
    members = [(_info(f"m{i}", kind), BODY) for i, kind in enumerate(kinds)]
    data = _tar_xz(members)
    regular = [f"m{i}" for i, kind in enumerate(kinds) if kind in (tarfile.REGTYPE, tarfile.CONTTYPE)]
    assert kaitai_read(data).member == regular[0]
    assert differential(data) == []


@pytest.mark.parametrize("kinds", [[tarfile.REGTYPE, tarfile.REGTYPE], [tarfile.DIRTYPE], []])
def test_other_than_one_regular_member_is_rejected(kinds: list[bytes]) -> None:
    data = _tar_xz([(_info(f"m{i}", kind), BODY) for i, kind in enumerate(kinds)])
    with pytest.raises(Malformed):
        decode(data)
    with pytest.raises(KaitaiRejected) as e:
        kaitai_read(data)
    assert (e.value.rule, e.value.offset) == ("RSIG-XCHECK-REJECT", 0)  # the archive as a whole: offset 0
    assert differential(data) == []


def _sized_signal(size: int) -> bytes:
    """A v3 signal of ``size`` bytes: eleven nils, then a bin 32 filling the rest."""
    n = size - 2 - 11 - 5
    return V3 + b"\xc0" * 11 + b"\xc6" + _u("I", n) + b"\x00" * n


BIG = 16 * 1024 * 1024  # an unpacked limit that admits a member of MAX_MEMBER_SIZE and its tar framing


def test_a_member_of_max_member_size_is_read_and_one_byte_more_is_rejected() -> None:
    assert MAX_MEMBER_SIZE == 8 * 1024 * 1024 - 3 * 512  # README.md's limit
    at_limit = _tar_xz([(_info("s.sig"), _sized_signal(MAX_MEMBER_SIZE))])
    ks = kaitai_read(at_limit, max_unpacked=BIG)
    assert len(ks.signal.fields[11]) == MAX_MEMBER_SIZE - 18
    over = _tar_xz([(_info("s.sig"), _sized_signal(MAX_MEMBER_SIZE + 1))])
    with pytest.raises(DecodeError):
        decode(over, max_unpacked=BIG)
    with pytest.raises(KaitaiRejected) as e:
        kaitai_read(over, max_unpacked=BIG)
    assert e.value.offset == 0


@pytest.mark.parametrize("data", [b"", b"\x03", b"\x09\x00", b"\xfd7zXZ\x00garbage", V3 + b"\xc1" * 12])
def test_bytes_the_parser_cannot_read_are_rejected_at_offset_0(data: bytes) -> None:
    with pytest.raises(KaitaiRejected) as e:
        kaitai_read(data)
    assert e.value.offset == 0
    assert differential(data) == []


def test_same_holds_nan_to_nan_and_types_apart() -> None:
    nan_a, nan_b = float("nan"), float("nan")
    assert same(nan_a, nan_b) and same(1.5, 1.5) and same("a", "a")
    assert not same(1.5, 2.5) and not same(1.5, nan_b) and not same(nan_a, 1.5)
    assert not same(1, 1.0) and not same(True, 1) and not same("a", "b") and not same(None, 0)
    assert same((1, nan_a), (1, nan_b)) and same((nan_a,), (nan_b,))
    assert not same((1, 2), (1,)) and not same((1,), (1, 2)) and not same((1, 2), (1, 3))
    assert not same((nan_a, 1), (nan_b, 2)) and not same((nan_a,), (nan_b, 1))
    assert same(MsgMap(((1, nan_a),)), MsgMap(((1, nan_b),))) and not same(MsgMap(((1, 2),)), MsgMap(((1, 3),)))
    assert same(Ext(1, b"a"), Ext(1, b"a")) and not same(Ext(1, b"a"), Ext(2, b"a"))


def test_same_compares_the_contents_of_a_file_not_its_mtime() -> None:
    a = decode(V3 + b"\xcb" + _u("d", math.nan) + b"\x01" * 11)
    assert same(a, dataclasses.replace(a, mtime=5))
    assert same(a, decode(V3 + b"\xcb" + _u("d", math.nan) + b"\x01" * 11))
    assert not same(a, decode(V3 + b"\xcb" + _u("d", 1.0) + b"\x01" * 11))
    assert not same(a, dataclasses.replace(a, member="x.sig"))


def test_differential_uses_the_reading_it_is_given() -> None:
    data = V3 + b"\x01" * 12
    other = decode(V3 + b"\x02" * 12)
    [d] = differential(data, reference=other)
    assert (d.offset, d.path) == (0, "signal")
    assert differential(data, reference=decode(data)) == []


def test_differential_when_only_one_side_reads() -> None:
    data = V3 + b"\x01" * 12
    refused = Malformed("a reading that refuses", 9, "field[3]")
    [d] = differential(data, reference_error=refused)  # Kaitai reads it: located where the reference refused
    assert (d.offset, d.path) == (9, "field[3]")
    [d] = differential(b"\x09\x00", reference=decode(data))  # Kaitai refuses what the reference read
    assert (d.offset, d.path) == (0, "file")
    assert differential(b"\x09\x00", reference_error=refused) == []


@pytest.mark.parametrize(("profile", "severity"), [("spec", Severity.ERROR), ("compat", Severity.ERROR)])
def test_a_divergence_is_an_rsig_xcheck_001_finding(profile: str, severity: Severity) -> None:
    data = V3 + b"\x01" * 12
    report = FileReport("x.sig", "raskat-signal", "v3", profile, Verdict.VALID)
    cross_check_report(data, report, reference=decode(V3 + b"\x02" * 12))
    assert report.evidence["cross_check"] == "kaitai: 1 divergence(s)"
    [f] = report.findings
    assert (f.rule, f.severity, f.offset, f.path) == ("RSIG-XCHECK-001", severity, 0, "signal")
    assert RULES_BY_ID["RSIG-XCHECK-001"].policy
    agrees = FileReport("x.sig", "raskat-signal", "v3", profile, Verdict.VALID)
    cross_check_report(data, agrees)
    assert agrees.evidence["cross_check"] == "kaitai: agrees" and agrees.findings == []
