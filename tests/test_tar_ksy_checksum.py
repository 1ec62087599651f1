"""ksy/tar.ksy's header checksum (the sum of the 512 header bytes, the checksum field counted as eight spaces)
and end marker (an all-zero block), on archives written by Python's own tarfile module: the byte sums run over
64 u8 words and the end marker is found by the block's largest byte, without the sums."""

from __future__ import annotations

import io
import tarfile

import pytest
from kaitaistruct import KaitaiStream, KaitaiStructError

from recspec._ksy import tar as tar_debug
from recspec._ksy_fast import tar as tar_fast


def _archive(name: str = "signal.sig", data: bytes = b"\x04" * 37) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        info.mtime = 1_700_000_000
        t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _parse(module: object, raw: bytes) -> object:
    t = module.Tar(KaitaiStream(io.BytesIO(raw)))  # type: ignore[attr-defined]
    if hasattr(t, "_read") and not hasattr(t, "entries"):
        t._read()  # the debug build reads on demand
    return t


@pytest.mark.parametrize("module", [tar_fast, tar_debug], ids=["fast", "debug"])
def test_the_checksum_tarfile_wrote_is_the_one_computed(module: object) -> None:
    raw = _archive()
    written = int(raw[148:154], 8)  # tarfile writes six octal digits, NUL, space
    assert written == sum(raw[:148]) + 8 * 32 + sum(raw[156:512])
    t = _parse(module, raw)
    header = t.entries[0].header  # type: ignore[attr-defined]
    assert header.computed_checksum == written
    assert header.chksum_field_sum == sum(raw[148:156])
    assert not header.is_zero_block
    assert t.entries[-1].is_end and t.entries[-1].header.is_zero_block  # type: ignore[attr-defined]
    assert len(t.entries) == 2  # type: ignore[attr-defined]
    assert t.entries[0].body == b"\x04" * 37  # type: ignore[attr-defined]


@pytest.mark.parametrize("module", [tar_fast, tar_debug], ids=["fast", "debug"])
@pytest.mark.parametrize("at", [0, 99, 147, 156, 300, 511])  # name, its end, either side of the checksum, the pad
def test_a_header_byte_changed_breaks_the_checksum(module: object, at: int) -> None:
    raw = bytearray(_archive())
    raw[at] ^= 0x01
    with pytest.raises(KaitaiStructError):
        _parse(module, bytes(raw))


@pytest.mark.parametrize("module", [tar_fast, tar_debug], ids=["fast", "debug"])
def test_a_single_nonzero_byte_is_not_an_end_marker(module: object) -> None:
    raw = bytearray(_archive())
    end = 1024  # the header and one block of data, then the end marker
    assert raw[end:end + 512] == bytes(512)
    raw[end + 511] = 1  # the last byte of the would-be end marker: now a header whose checksum fails
    with pytest.raises(KaitaiStructError):
        _parse(module, bytes(raw))
