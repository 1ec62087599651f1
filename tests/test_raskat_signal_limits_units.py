"""Limits on the units a raSkat file can hold, and findings that must say where (tests/test_limits_units.py):
a tar member that is a link or whose name climbs out is located at its field."""

from __future__ import annotations

import io
import lzma
import tarfile

from test_limits_units import _finding

import recspec

MTIME = 1_750_000_000


def _tar_xz(*members: tuple[str, bytes, bytes, str]) -> tuple[bytes, bytes]:
    """(the tar, its xz) of ustar members (name, typeflag, data, link target)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name, typeflag, data, link in members:
            ti = tarfile.TarInfo(name)
            ti.type, ti.size, ti.mtime, ti.linkname = typeflag, len(data), MTIME, link
            tf.addfile(ti, io.BytesIO(data) if typeflag == tarfile.REGTYPE else None)
    tar = out.getvalue()
    return tar, lzma.compress(tar, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64)


# A v2 signal body is enough: the tar findings do not depend on the signal.
_BODY = b"\x02\x00" + b"20250624101500" + bytes(4) + (b"\x80\x00" + bytes(4)) * 3 + bytes(9)


def test_tar_link_member_finding_points_at_its_typeflag() -> None:
    tar, data = _tar_xz(("20250624101500.sig", tarfile.REGTYPE, _BODY, ""),
                        ("latest.sig", tarfile.SYMTYPE, b"", "/etc/passwd"))
    second_header = 512 + 512  # the first member's header and its one data block
    assert tar[second_header + 156:second_header + 157] == tarfile.SYMTYPE
    f = _finding(recspec.check(data, format="raskat-signal"), "RSIG-TAR-003")
    assert (f.offset, f.length) == (second_header + 156, 1)
    assert f.path == "tar.entry[1].typeflag"


def test_tar_climbing_name_finding_points_at_the_name_field() -> None:
    tar, data = _tar_xz(("x.sig", tarfile.REGTYPE, _BODY, ""), ("../../up.sig", tarfile.SYMTYPE, b"", "x.sig"))
    assert tar[1024:1036] == b"../../up.sig"
    f = _finding(recspec.check(data, format="raskat-signal"), "RSIG-TAR-004")
    assert (f.offset, f.length) == (1024, 100)
