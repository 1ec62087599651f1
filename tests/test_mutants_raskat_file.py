"""The raSkat whole-file codec (reference/raskat_signal/_file.py): variants, the tar member's name
and mtime as Python's ``tarfile`` writes and reads them, the version check located at the version
word (offset 0, the document's layout), and the file-size limit of ``iter_signals``. The v3 body is
the upstream writer's own file (/work/shared/real/signal.v3, PROVENANCE.md: version 3, 100 samples)."""

from __future__ import annotations

import io
import lzma
import struct
import tarfile
from pathlib import Path

import pytest

from recspec.errors import DecodeError, EncodeError, UsageError
from recspec.reference.raskat_signal import SignalFile, decode, encode, iter_signals, member_name

REAL_V3 = Path("/work/shared/real/signal.v3")
V2 = (b"\x02\x00" + b"20250624100658" + struct.pack("<I", 73755) + struct.pack("<HI", 37, 617635)
      + struct.pack("<HI", 55, 755814) + struct.pack("<HI", 150, 0) + struct.pack("<I", 500000) + b"\x03"
      + struct.pack("<I", 2) + struct.pack("<2h", 1000, 1003))


def _tar_xz(body: bytes, name: str, mtime: int) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        ti = tarfile.TarInfo(name)
        ti.size, ti.mtime = len(body), mtime
        tf.addfile(ti, io.BytesIO(body))
    return lzma.compress(out.getvalue(), format=lzma.FORMAT_XZ)


def _tar_member(data: bytes) -> tarfile.TarInfo:
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(data))) as tf:
        (ti,) = tf.getmembers()
        return ti


def test_a_tarfile_archive_decodes_to_its_member_and_mtime() -> None:
    sf = decode(_tar_xz(V2, "dir/20250624100658.sig", 0o7654321))
    assert (sf.container, sf.member, sf.mtime) == ("tar.xz", "dir/20250624100658.sig", 0o7654321)
    assert sf.signal == decode(V2).signal and sf.signal.version == 2
    raw = decode(V2)
    assert (raw.container, raw.member, raw.mtime) == ("raw", None, 0)


def test_a_decoded_tar_xz_re_encodes_with_its_member_and_mtime() -> None:
    sf = decode(_tar_xz(V2, "kept.sig", 1234567))
    ti = _tar_member(encode(sf))
    assert (ti.name, ti.mtime, ti.size) == ("kept.sig", 1234567, len(V2))
    ti = _tar_member(encode(sf, mtime=99, member="other.sig"))
    assert (ti.name, ti.mtime) == ("other.sig", 99)
    assert encode(sf, container="raw") == V2


def test_a_signal_written_as_tar_xz_without_a_mtime_has_mtime_0() -> None:
    sig = decode(V2).signal
    ti = _tar_member(encode(sig, container="tar.xz"))
    assert (ti.name, ti.mtime) == ("20250624100658.sig", 0)
    ti = _tar_member(encode(SignalFile("tar.xz", sig, "m.sig")))
    assert (ti.name, ti.mtime) == ("m.sig", 0)
    ti = _tar_member(encode(SignalFile("tar.xz", sig)))
    assert ti.name == "20250624100658.sig"
    assert encode(sig) == V2
    assert encode(SignalFile("raw", sig)) == V2


def test_member_names_follow_the_time_field() -> None:
    sig = decode(V2).signal
    assert member_name(sig) == "20250624100658.sig"
    from dataclasses import replace
    assert member_name(replace(sig, time=b"2025-06-24 10:06")) == "2025_06_24_10_06.sig"
    assert member_name(replace(sig, time=b"")) == "signal.sig"
    assert member_name(replace(sig, time=b"7" * 70)) == "7" * 64 + ".sig"


@pytest.mark.parametrize("variant", ["v1", "v3", "v4"])
def test_a_variant_the_file_does_not_hold_is_refused_at_the_version_word(variant: str) -> None:
    with pytest.raises(DecodeError) as e:
        decode(V2, variant=variant)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-VERSION-001", 0, "version")
    with pytest.raises(EncodeError):
        encode(decode(V2).signal, variant=variant)


def test_the_variant_the_file_holds_is_accepted() -> None:
    assert decode(V2, variant="v2").signal.version == 2
    assert encode(decode(V2).signal, variant="v2") == V2
    data = REAL_V3.read_bytes()
    assert decode(data, variant="v3").signal.version == 3
    assert encode(decode(data).signal, variant="v3") == data


@pytest.mark.parametrize("variant", ["v0", "v6", "2", "V2", ""])
def test_an_unknown_variant_is_a_usage_error(variant: str) -> None:
    with pytest.raises(UsageError):
        decode(V2, variant=variant)


def test_an_unknown_container_is_refused() -> None:
    with pytest.raises(EncodeError):
        encode(decode(V2).signal, container="zip")


def test_the_upstream_v3_file_round_trips_inside_a_tar_xz() -> None:
    body = REAL_V3.read_bytes()
    sf = decode(_tar_xz(body, "s.sig", 5))
    assert sf.signal == decode(body).signal and sf.signal.version == 3
    assert lzma.decompress(encode(sf))[512:512 + len(body)] == body


def test_a_v3_body_with_a_wide_lead_keeps_it_in_a_tar_xz() -> None:
    body = REAL_V3.read_bytes()
    # the time string, stored as a fixstr of 14 bytes after the version word, widened to a str 8
    assert body[2] == 0xA0 | 14
    wide = body[:2] + b"\xd9\x0e" + body[3:]
    for data in (wide, _tar_xz(wide, "w.sig", 0)):
        sf = decode(data)
        assert sf.signal.leads, data[:6]
        assert encode(sf, container="raw") == wide


def test_iter_signals_reads_a_file_up_to_its_limit() -> None:
    (sf,) = iter_signals(io.BytesIO(V2), max_unpacked=len(V2))
    assert sf.signal == decode(V2).signal
    with pytest.raises(DecodeError) as e:
        list(iter_signals(io.BytesIO(V2), max_unpacked=len(V2) - 1))
    assert (e.value.rule, e.value.offset) == ("RSIG-LIMIT-001", len(V2) - 1)


def test_the_mtime_field_is_read_whole_as_tarfile_reads_it() -> None:
    data = _tar_xz(V2, "m.sig", 0o77777777777)  # every one of the eleven digits tarfile writes
    assert decode(data).mtime == 0o77777777777
    # twelve digits and no terminator (the whole mtime field, header bytes 136-147): the checksum redone
    tar = bytearray(lzma.decompress(data))
    tar[136:148] = b"777777777776"
    tar[148:156] = b" " * 8
    tar[148:156] = b"%06o\0 " % sum(tar[:512])
    with tarfile.open(fileobj=io.BytesIO(bytes(tar))) as tf:
        want = tf.getmembers()[0].mtime
    assert want == 0o777777777776
    assert decode(lzma.compress(bytes(tar), format=lzma.FORMAT_XZ)).mtime == want
