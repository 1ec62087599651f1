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
"""

from __future__ import annotations

import lzma

from kaitaistruct import KaitaiStructError

__all__ = ["RecspecXz", "XzRejected"]

#: liblzma's own memory limit (the dictionary the stream header declares).
MAX_XZ_MEMORY = 128 * 1024 * 1024
#: Bytes of compressed input fed to the decompressor per step.
_STEP = 64 * 1024


class XzRejected(KaitaiStructError):  # type: ignore[misc]  # kaitaistruct has no types: its base is Any
    """The input is not one complete, intact xz stream within the limit."""

    def __init__(self, msg: str, kind: str) -> None:
        super().__init__(msg, "recspec_xz")
        self.kind = kind  # "corrupt", "truncated", "trailing" or "limit"


class RecspecXz:
    def __init__(self, max_unpacked: int) -> None:
        self.max_unpacked = int(max_unpacked)

    def decode(self, data: bytes) -> bytes:
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
