"""The tar.xz container the document describes: a strict, bounded reader and a writer.

Reading (``unwrap``): input that starts with the xz magic is one xz stream
(integrity check verified, no second stream, no padding or trailing bytes,
inflating to at most ``max_unpacked`` bytes, decompressed in bounded steps),
holding a tar archive (ustar or GNU headers, octal numeric fields, header
checksums, a zero end-of-archive block and only zero blocks after it). Anything
else is a raw signal. The tar's members are returned with what the rules need
(type, name, size, data offset); choosing the signal member is the caller's
decision (``signal_member``).

Writing (``wrap``): a POSIX ustar archive of one regular member, compressed as
one xz stream with a CRC64 check; deterministic (mtime given, uid/gid 0).
"""

from __future__ import annotations

import lzma
from dataclasses import dataclass

from recspec.errors import EncodeError, LimitExceeded, Malformed, Truncated

from ._xz_index import declared_unpacked

__all__ = [
    "MAX_MEMBER_SIZE",
    "MAX_UNPACKED",
    "MAX_XZ_MEMORY",
    "REGULAR",
    "XZ_MAGIC",
    "Member",
    "Unwrapped",
    "signal_member",
    "untar",
    "unwrap",
    "unxz",
    "wrap",
]

XZ_MAGIC = b"\xfd7zXZ\x00"
#: The most bytes an xz stream may inflate to. A detector captures about a
#: thousand samples per pulse; 8 MiB holds 4 M v2 samples (2.8 M v3 codes),
#: and keeps the decoded model (one Python int per sample) near 150 MB at worst.
MAX_UNPACKED = 8 * 1024 * 1024
#: The largest tar member accepted as a signal (the tar headers take the rest).
MAX_MEMBER_SIZE = MAX_UNPACKED - 3 * 512
#: The decoder's own memory (its dictionary, as the stream header declares it)
#: is capped too: 128 MiB admits every xz preset (-9e needs 65 MiB) and refuses
#: a header that declares a dictionary of up to 1.5 GiB.
MAX_XZ_MEMORY = 128 * 1024 * 1024
#: Compressed bytes fed to the decompressor per step (bounds the work per step).
XZ_STEP = 64 * 1024
#: Output bytes asked of the decompressor per call: small steps keep its
#: internal buffer growth from doubling the memory the output itself takes.
XZ_OUT_STEP = 1024 * 1024
BLOCK = 512

RULE_XZ = "RSIG-XZ-001"
RULE_XZ_TRAILING = "RSIG-XZ-002"
RULE_LIMIT = "RSIG-LIMIT-001"
RULE_TAR = "RSIG-TAR-001"
RULE_TAR_MEMBERS = "RSIG-TAR-002"
RULE_MEMBER_LIMIT = "RSIG-TAR-005"

REGULAR = (b"0", b"\x00", b"7")  # regular file, old-style regular file, contiguous file


@dataclass(frozen=True, slots=True)
class Member:
    index: int
    name: str  # ustar prefix and name joined; surrogateescape for non-UTF-8
    typeflag: bytes
    size: int
    header_offset: int  # in the tar
    data_offset: int
    linkname: str

    @property
    def is_regular(self) -> bool:
        return self.typeflag in REGULAR


@dataclass(frozen=True, slots=True)
class Unwrapped:
    container: str  # "raw" or "tar.xz"
    tar: bytes | None = None
    members: tuple[Member, ...] = ()
    xz_size: int = 0


def unxz(data: bytes, max_unpacked: int = MAX_UNPACKED, *, by_index: bool = True) -> bytes:
    """The one xz stream ``data``, inflated to at most ``max_unpacked`` bytes. With ``by_index``, a stream
    whose own index declares more (``_xz_index.declared_unpacked``: header, index and footer whole and
    consistent) is refused without inflating; ``by_index=False`` inflates it to the limit (the tests
    compare the two)."""
    if by_index:
        declared = declared_unpacked(data)
        if declared is not None and declared > max_unpacked:
            raise LimitExceeded(f"xz stream inflates past the limit of {max_unpacked} bytes (MAX_UNPACKED): its "
                                f"index declares {declared} bytes; not inflated", 0, "xz", rule=RULE_LIMIT,
                                limit="MAX_UNPACKED", value=declared, maximum=max_unpacked)
    d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=MAX_XZ_MEMORY)
    chunks: list[bytes] = []
    produced = fed = 0
    try:
        while not d.eof:
            piece = b""
            if d.needs_input:
                if fed >= len(data):
                    raise Truncated(f"xz stream ends early: {len(data)} bytes hold no complete stream", len(data),
                                    "xz", rule=RULE_XZ)
                piece = data[fed:fed + XZ_STEP]
                fed += len(piece)
            chunk = d.decompress(piece, max_length=min(XZ_OUT_STEP, max_unpacked - produced + 1))
            produced += len(chunk)
            if produced > max_unpacked:
                raise LimitExceeded(f"xz stream inflates past the limit of {max_unpacked} bytes (MAX_UNPACKED); "
                                    f"stopped after reading {fed} compressed bytes", 0, "xz", rule=RULE_LIMIT,
                                    limit="MAX_UNPACKED", value=produced, maximum=max_unpacked)
            chunks.append(chunk)
    except lzma.LZMAError as e:
        if "memory" in str(e).lower():
            raise LimitExceeded(f"xz stream needs more than {MAX_XZ_MEMORY} bytes of decoder memory (MAX_XZ_MEMORY)",
                                0, "xz", rule=RULE_LIMIT, limit="MAX_XZ_MEMORY", maximum=MAX_XZ_MEMORY) from None
        raise Malformed(f"xz stream is corrupt: {e}", max(0, fed - XZ_STEP), "xz", rule=RULE_XZ) from None
    extra = len(d.unused_data) + len(data) - fed
    if extra:
        end = len(data) - extra
        kind = "a second xz stream" if data[end:end + 6] == XZ_MAGIC else (
            "stream padding" if not data[end:].strip(b"\0") else "trailing bytes")
        raise Malformed(f"{extra} bytes follow the xz stream ({kind}); a signal file is exactly one stream",
                        end, "xz", rule=RULE_XZ_TRAILING)
    return b"".join(chunks)


def _octal(field: bytes, offset: int, what: str) -> int:
    """An ASCII octal field: leading spaces, octal digits, then NUL or spaces only."""
    state, value = 0, 0  # 0 leading spaces, 1 digits, 2 terminated
    for i, c in enumerate(field):
        if c == 0:
            state = 2
        elif c == 0x20:
            state = 0 if state == 0 else 2
        elif 0x30 <= c <= 0x37 and state != 2:
            state, value = 1, value * 8 + c - 0x30
        else:
            raise Malformed(f"tar: {what} field {field!r} is not an octal number", offset + i, f"tar.{what}",
                            rule=RULE_TAR)
    return value


def _cstr(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")


def untar(tar: bytes) -> tuple[Member, ...]:
    members: list[Member] = []
    pos = 0
    while True:
        if pos + BLOCK > len(tar):
            raise Truncated(f"tar: the archive ends inside a header or without its end-of-archive block "
                            f"({len(tar) - pos} bytes left)", pos, f"tar.entry[{len(members)}]", rule=RULE_TAR,
                            needed=BLOCK, available=len(tar) - pos)
        h = tar[pos:pos + BLOCK]
        total = sum(h)
        if total == 0:
            break
        path = f"tar.entry[{len(members)}]"
        mode = h[100:108], h[108:116], h[116:124]
        for (field, off), name in zip(((mode[0], 100), (mode[1], 108), (mode[2], 116)), ("mode", "uid", "gid")):
            _octal(field, pos + off, name)
        size = _octal(h[124:136], pos + 124, "size")
        _octal(h[136:148], pos + 136, "mtime")
        stored = _octal(h[148:156], pos + 148, "chksum")
        computed = total - sum(h[148:156]) + 8 * 0x20
        if stored != computed:
            raise Malformed(f"tar: header checksum {stored} != {computed} computed from the header", pos + 148,
                            path + ".chksum", rule=RULE_TAR)
        typeflag = h[156:157]
        name = _cstr(h[0:100])
        if h[257:263] == b"ustar\0" and h[345]:
            name = _cstr(h[345:500]) + "/" + name
        has_data = typeflag not in (b"1", b"2", b"3", b"4", b"5")
        data_offset = pos + BLOCK
        m = Member(len(members), name, typeflag, size, pos, data_offset, _cstr(h[157:257]))
        members.append(m)
        if has_data:
            if size > MAX_MEMBER_SIZE:
                raise LimitExceeded(f"tar: member {name!r} is {size} bytes, above the limit of {MAX_MEMBER_SIZE} "
                                    f"(MAX_MEMBER_SIZE)", pos + 124, path + ".size", rule=RULE_MEMBER_LIMIT,
                                    limit="MAX_MEMBER_SIZE", value=size, maximum=MAX_MEMBER_SIZE)
            blocks = (size + BLOCK - 1) // BLOCK
            if data_offset + blocks * BLOCK > len(tar):
                raise Truncated(f"tar: member {name!r} declares {size} bytes but the archive ends first",
                                data_offset, path, rule=RULE_TAR, needed=blocks * BLOCK,
                                available=len(tar) - data_offset)
            pos = data_offset + blocks * BLOCK
        else:
            pos = data_offset
    rest = tar[pos + BLOCK:]
    if len(rest) % BLOCK:
        raise Malformed(f"tar: {len(rest)} bytes after the end-of-archive block are not whole 512-byte blocks",
                        pos + BLOCK, "tar.padding", rule=RULE_TAR)
    if rest.strip(b"\0"):
        nz = pos + BLOCK + next(i for i, c in enumerate(rest) if c)
        raise Malformed("tar: a non-zero byte after the end-of-archive block", nz, "tar.padding", rule=RULE_TAR)
    return tuple(members)


def unwrap(data: bytes, max_unpacked: int = MAX_UNPACKED) -> Unwrapped:
    if data[:6] != XZ_MAGIC:
        return Unwrapped("raw")
    tar = unxz(data, max_unpacked)
    return Unwrapped("tar.xz", tar, untar(tar), len(data))


def signal_member(u: Unwrapped) -> Member:
    """The member that is the signal: the one regular member (decision: exactly one)."""
    regular = [m for m in u.members if m.is_regular]
    if len(regular) != 1:
        names = ", ".join(repr(m.name) for m in regular) or "none"
        raise Malformed(f"tar: {len(regular)} regular members ({names}); a signal file holds exactly one",
                        0, "tar", rule=RULE_TAR_MEMBERS)
    return regular[0]


def _octal_field(value: int, width: int) -> bytes:
    return f"{value:0{width - 1}o}".encode() + b"\0"


def wrap(signal: bytes, name: str, *, mtime: int = 0) -> bytes:
    """A tar.xz file holding ``signal`` as its one regular member ``name``."""
    raw_name = name.encode("utf-8")
    if len(raw_name) > 100:
        raise EncodeError("member name longer than 100 bytes")
    h = bytearray(BLOCK)
    h[0:len(raw_name)] = raw_name
    h[100:108] = _octal_field(0o644, 8)
    h[108:116] = _octal_field(0, 8)
    h[116:124] = _octal_field(0, 8)
    h[124:136] = _octal_field(len(signal), 12)
    h[136:148] = _octal_field(mtime, 12)
    h[148:156] = b" " * 8
    h[156:157] = b"0"
    h[257:263] = b"ustar\0"
    h[263:265] = b"00"
    h[148:156] = f"{sum(h):06o}".encode() + b"\0 "
    pad = (-len(signal)) % BLOCK
    tar = bytes(h) + signal + b"\0" * pad + b"\0" * (2 * BLOCK)
    return lzma.compress(tar, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64)
