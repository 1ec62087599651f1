"""What an xz stream declares about its own size, read from its index without inflating it.

An xz stream ends with an index (one record per block: the block's compressed size, "unpadded", and
its uncompressed size) and a footer that says how long the index is, so the bytes a stream inflates to
can be read from its last few dozen bytes. ``unxz`` uses this to refuse an xz bomb by its declaration
(RSIG-LIMIT-001) instead of inflating it to the limit (8 MiB of output: about 25 ms of liblzma a bomb).

Only a stream whose framing is whole and agrees with itself counts: the stream header (magic, flags
and their CRC32), the footer (its CRC32, the same flags, the magic ``YZ``), the index (its indicator,
records and padding, its CRC32), and the blocks the index lists tiling the bytes between the header and
the index exactly (so the footer read is the first stream's: nothing follows it, no second stream).
Such a stream either inflates to what its index declares, or liblzma finds it corrupt when it meets a
block or the index that disagrees, so a stream declaring more than the limit is refused either way;
inflating only changes which finding says so. Anything else is ``None`` and the stream is inflated, its
limit judged on its output as before: an index declaring less than the stream holds is caught there.

The Kaitai reader's xz process has its own, looser reading of the index
(``recspec/_ksy_process/recspec_xz.py`` ``declared_size``): it is part of the cross-check's second reading,
so the two are written apart rather than shared.
"""

from __future__ import annotations

import zlib

__all__ = ["MAX_INDEX_RECORDS", "declared_unpacked"]

_MAGIC = b"\xfd7zXZ\x00"
_FOOTER_MAGIC = b"YZ"
_HEADER = 12  # magic, flags, CRC32
_FOOTER = 12  # CRC32, backward size, flags, magic
#: An index of more records (blocks) than this is not read: the stream is inflated, its limit judged on the
#: output. It bounds the Python loop over the records (a hostile 8 MiB file could list about a million);
#: xz writes one block per stream unless told to split it, so signal files have one.
MAX_INDEX_RECORDS = 4096


def _vli(data: bytes, pos: int, end: int) -> tuple[int, int] | None:
    """xz's variable-length integer at ``pos``: 7 bits a byte, low first, at most 9 bytes, the shortest
    form (a last byte of 0 after the first is not one): (value, next position), or ``None``."""
    value = 0
    for i in range(9):
        if pos >= end:
            return None
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << (7 * i)
        if not byte & 0x80:
            return (value, pos) if byte or i == 0 else None
    return None


def declared_unpacked(data: bytes) -> int | None:
    """The bytes the one xz stream ``data`` holds declares it inflates to (its index records' sum), or
    ``None`` where the header, index and footer are not whole, consistent and the stream's last bytes."""
    if len(data) < _HEADER + 8 + _FOOTER or data[:6] != _MAGIC or data[-2:] != _FOOTER_MAGIC:
        return None
    flags = data[6:8]
    if int.from_bytes(data[8:12], "little") != zlib.crc32(flags) or data[-4:-2] != flags:
        return None
    if int.from_bytes(data[-12:-8], "little") != zlib.crc32(data[-8:-2]):
        return None
    index_size = (int.from_bytes(data[-8:-4], "little") + 1) * 4
    start = len(data) - _FOOTER - index_size
    crc_at = len(data) - _FOOTER - 4  # the index's own CRC32 ends it
    if start < _HEADER or data[start] != 0:  # the index indicator
        return None
    if int.from_bytes(data[crc_at:crc_at + 4], "little") != zlib.crc32(data[start:crc_at]):
        return None
    got = _vli(data, start + 1, crc_at)
    if got is None:
        return None
    records, pos = got
    if records > MAX_INDEX_RECORDS:
        return None
    blocks = total = 0
    for _ in range(records):
        unpadded = _vli(data, pos, crc_at)
        if unpadded is None:
            return None
        size = _vli(data, unpadded[1], crc_at)
        if size is None:
            return None
        blocks += (unpadded[0] + 3) & ~3  # a block is padded to four bytes
        total += size[0]
        pos = size[1]
    if (crc_at - pos) != (-(pos - start)) % 4 or any(data[pos:crc_at]):  # the index's padding: zeros to 4 bytes
        return None
    if _HEADER + blocks != start:  # the blocks end where the index starts: one stream, nothing between
        return None
    return total
