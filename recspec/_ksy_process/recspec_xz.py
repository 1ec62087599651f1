"""``process: recspec_xz(max_unpacked)``: one strict, bounded xz stream.

Kaitai's own ``zlib`` process has no xz counterpart, and a plain
``lzma.decompress`` is wrong for a conformance reader twice over: it inflates
without bound (a few kilobytes can expand to gigabytes) and it silently reads
concatenated streams and stream padding. This routine accepts exactly one
complete xz stream whose integrity check (CRC32, CRC64 or SHA-256, as the
stream header names it) verifies, with nothing after it, and refuses to
produce more than ``max_unpacked`` bytes. It decompresses in bounded steps
with ``lzma.LZMADecompressor(max_length=...)`` so memory stays bounded by the
limit whatever the input claims.

A stream whose index (read from its footer first, :func:`declared_size`)
declares more than ``max_unpacked`` bytes is refused before any of it is
inflated: liblzma checks the index against the blocks it decodes, so such a
stream either inflates past the limit or fails that check, and is refused
either way. An xz bomb that honestly declares its size then costs a few
dozen bytes of reading instead of the limit's worth of decompression.
"""

from __future__ import annotations

import lzma

from kaitaistruct import KaitaiStructError

__all__ = ["RecspecXz", "XzRejected", "declared_size"]

#: liblzma's own memory limit (the dictionary the stream header declares).
MAX_XZ_MEMORY = 128 * 1024 * 1024
#: Bytes of compressed input fed to the decompressor per step.
_STEP = 64 * 1024
#: The stream footer (CRC32, backward size, stream flags, magic) and its magic.
_FOOTER = 12
_FOOTER_MAGIC = b"YZ"


def _vli(data: bytes, pos: int, end: int) -> tuple[int, int] | None:
    """An xz variable-length integer at ``pos`` (at most 9 bytes, 7 bits each, low first): (value, next)."""
    value = 0
    for i in range(9):
        if pos >= end:
            return None
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << (7 * i)
        if not byte & 0x80:
            return value, pos
    return None


def declared_size(data: bytes) -> int | None:
    """The uncompressed size that the index of the xz stream ending ``data`` declares (the sum of its
    records'), or ``None`` where the footer or index cannot be read that way (the decoder then says why).
    Only a bound to refuse early by: nothing here is trusted to accept a stream."""
    if len(data) < _FOOTER or data[-2:] != _FOOTER_MAGIC:
        return None
    index_size = (int.from_bytes(data[-8:-4], "little") + 1) * 4
    start = len(data) - _FOOTER - index_size
    end = len(data) - _FOOTER - 4  # the index's own CRC32 ends it
    if start < 0 or data[start] != 0:  # the index indicator
        return None
    got = _vli(data, start + 1, end)
    if got is None:
        return None
    records, pos = got
    total = 0
    for _ in range(records):
        unpadded = _vli(data, pos, end)
        if unpadded is None:
            return None
        size = _vli(data, unpadded[1], end)
        if size is None:
            return None
        total += size[0]
        pos = size[1]
    return total


class XzRejected(KaitaiStructError):  # type: ignore[misc]  # kaitaistruct has no types: its base is Any
    """The input is not one complete, intact xz stream within the limit."""

    def __init__(self, msg: str, kind: str) -> None:
        super().__init__(msg, "recspec_xz")
        self.kind = kind  # "corrupt", "truncated", "trailing" or "limit"


class RecspecXz:
    def __init__(self, max_unpacked: int) -> None:
        self.max_unpacked = int(max_unpacked)

    def decode(self, data: bytes) -> bytes:
        declared = declared_size(data)
        if declared is not None and declared > self.max_unpacked:
            raise XzRejected(f"xz: the stream's index declares {declared} bytes, past the limit of "
                             f"{self.max_unpacked} bytes", "limit")
        d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=MAX_XZ_MEMORY)
        out: list[bytes] = []
        produced = 0
        pos = 0
        pending = b""
        try:
            while not d.eof:
                if d.needs_input:
                    if pos >= len(data):
                        raise XzRejected(f"xz: the stream ends early (after {len(data)} bytes)", "truncated")
                    pending = data[pos:pos + _STEP]
                    pos += len(pending)
                else:
                    pending = b""
                # one byte more than allowed tells "too big"; 1 MiB steps keep buffer growth small
                room = min(1 << 20, self.max_unpacked - produced + 1)
                chunk = d.decompress(pending, max_length=room)
                produced += len(chunk)
                if produced > self.max_unpacked:
                    raise XzRejected(f"xz: inflates past the limit of {self.max_unpacked} bytes", "limit")
                out.append(chunk)
        except lzma.LZMAError as e:
            if "memory" in str(e).lower():
                raise XzRejected(f"xz: needs more than {MAX_XZ_MEMORY} bytes of decoder memory", "limit") from None
            raise XzRejected(f"xz: corrupt stream ({e})", "corrupt") from None
        extra = len(d.unused_data) + (len(data) - pos)
        if extra:
            raise XzRejected(f"xz: {extra} bytes follow the end of the stream", "trailing")
        return b"".join(out)
