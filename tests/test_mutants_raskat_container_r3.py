"""The raSkat tar.xz container (reference/raskat_signal/_container.py), a second round: archives
written by Python's ``tarfile`` with one numeric header field made not octal, located at that field's
offset in the ustar layout (mode 100, uid 108, gid 116, size 124, mtime 136, chksum 148). Written
against the survivors of tools/mutate.py's sample (seed 7)."""

from __future__ import annotations

import io
import tarfile

import pytest

from recspec.errors import Malformed
from recspec.reference.raskat_signal import untar

BLOCK = 512
#: The ustar header's numeric fields: name, offset, width (POSIX pax/ustar "Header Block").
NUMERIC_FIELDS = [("mode", 100, 8), ("uid", 108, 8), ("gid", 116, 8), ("size", 124, 12), ("mtime", 136, 12),
                  ("chksum", 148, 8)]


def _archive(*names: str) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name in names:
            ti = tarfile.TarInfo(name)
            ti.size = 3
            tf.addfile(ti, io.BytesIO(b"abc"))
    return out.getvalue()


def _with_byte(tar: bytes, at: int, byte: int) -> bytes:
    """``tar`` with one header byte changed and that header's checksum written again (the byte sum with
    the checksum field as eight spaces), so only the changed field is wrong."""
    header = at - at % BLOCK
    h = bytearray(tar[header:header + BLOCK])
    h[at - header] = byte
    if not 148 <= at - header < 156:
        h[148:156] = b" " * 8
        h[148:156] = b"%06o\0 " % sum(h)
    return tar[:header] + bytes(h) + tar[header + BLOCK:]


@pytest.mark.parametrize(("field", "offset", "width"), NUMERIC_FIELDS)
@pytest.mark.parametrize("where", ["first", "fourth", "last"])
def test_a_numeric_field_that_is_not_octal_is_located_at_its_byte(field: str, offset: int, width: int,
                                                                  where: str) -> None:
    index = {"first": 0, "fourth": 3, "last": width - 1}[where]  # the last byte is the field's terminator
    tar = _archive("a.sig", "b.sig")
    second = 2 * BLOCK  # a.sig's header and its one data block come first
    assert untar(tar)[1].header_offset == second
    bad = _with_byte(tar, second + offset + index, ord("9"))  # 9 is no octal digit
    with pytest.raises(Malformed) as e:
        untar(bad)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-001", second + offset + index, f"tar.{field}")
