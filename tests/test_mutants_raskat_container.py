"""The raSkat tar.xz container (reference/raskat_signal/_container.py) held to independent makers:
tar archives written by Python's ``tarfile`` (member offsets, names, types and link names as
``tarfile`` reads them), xz streams written by ``lzma``, the ustar header layout (name 0-99,
mode 100, uid 108, gid 116, size 124, mtime 136, chksum 148, typeflag 156, linkname 157,
magic 257, prefix 345) and the limits README.md documents. Every refusal is checked for its
rule, offset and path."""

from __future__ import annotations

import io
import lzma
import struct
import tarfile
import zlib

import pytest

from recspec.errors import EncodeError, LimitExceeded, Malformed, Truncated
from recspec.reference.raskat_signal import decode, signal_member, untar, unwrap, unxz, wrap

BLOCK = 512
MIB = 1024 * 1024
#: README.md's limits table: the tar member is "8 MiB less three blocks".
DOCUMENTED_MEMBER_LIMIT = 8 * MIB - 3 * BLOCK
DOCUMENTED_UNPACKED_LIMIT = 8 * MIB

BODY = (b"\x02\x00" + b"20250624100658" + struct.pack("<I", 73755) + struct.pack("<HI", 37, 617635)
        + struct.pack("<HI", 55, 755814) + struct.pack("<HI", 150, 0) + struct.pack("<I", 500000) + b"\x03"
        + struct.pack("<I", 2) + struct.pack("<2h", 1000, 1003))


def _tar(*infos: tuple[tarfile.TarInfo, bytes | None], fmt: int = tarfile.USTAR_FORMAT) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=fmt) as tf:
        for ti, data in infos:
            tf.addfile(ti, io.BytesIO(data) if data is not None else None)
    return out.getvalue()


def _file(name: str, data: bytes, typ: bytes = tarfile.REGTYPE) -> tuple[tarfile.TarInfo, bytes]:
    ti = tarfile.TarInfo(name)
    ti.size = len(data)
    ti.type = typ
    return ti, data


def _special(name: str, typ: bytes, link: str = "") -> tuple[tarfile.TarInfo, None]:
    ti = tarfile.TarInfo(name)
    ti.type = typ
    ti.linkname = link
    return ti, None


def _header(name: bytes = b"a.sig", size: int = 0, *, mode: bytes | None = None, size_field: bytes | None = None,
            typeflag: bytes = b"0", chksum: int | None = None) -> bytes:
    """A ustar header written field by field from the layout; the checksum is the byte sum with the
    checksum field taken as eight spaces, unless given."""
    h = bytearray(BLOCK)
    h[0:len(name)] = name
    h[100:108] = mode if mode is not None else b"0000644\0"
    h[108:116] = b"0000000\0"
    h[116:124] = b"0000000\0"
    h[124:136] = size_field if size_field is not None else b"%011o\0" % size
    h[136:148] = b"00000000000\0"
    h[148:156] = b" " * 8
    h[156:157] = typeflag
    h[257:263] = b"ustar\0"
    h[263:265] = b"00"
    total = sum(h) if chksum is None else chksum
    h[148:156] = b"%06o\0 " % total
    return bytes(h)


# --- tar: what tarfile wrote, read member by member ---------------------------------------------------

def test_members_match_what_tarfile_wrote() -> None:
    long_dir = "d" * 120  # ustar splits a path over 100 bytes into prefix and name
    entries = [
        _special("dir/", tarfile.DIRTYPE),
        _file("dir/one.sig", b"x" * 700),  # two data blocks
        _special("dir/link", tarfile.SYMTYPE, "one.sig"),
        _special("dir/hard", tarfile.LNKTYPE, "dir/one.sig"),
        _file(long_dir + "/two.sig", b"y" * 512),  # exactly one block
        _file("empty.sig", b""),
        _file("cont.sig", b"z" * 3, tarfile.CONTTYPE),
        _special("fifo", tarfile.FIFOTYPE),
        _special("long", tarfile.SYMTYPE, "t" * 100),  # the linkname field's whole 100 bytes, no NUL
    ]
    tar = _tar(*entries)
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        want = [(i, ti.name.rstrip("/"), ti.type, ti.size, ti.offset, ti.offset_data, ti.linkname)
                for i, ti in enumerate(tf.getmembers())]
    got = [(m.index, m.name.rstrip("/"), m.typeflag, m.size, m.header_offset, m.data_offset, m.linkname)
           for m in untar(tar)]
    assert got == want
    members = untar(tar)
    assert [m.is_regular for m in members] == [False, True, False, False, True, True, True, False, False]
    assert members[4].name == long_dir + "/two.sig"
    assert members[8].linkname == "t" * 100


def test_gnu_and_pax_archives_read_like_tarfile_reads_them() -> None:
    for fmt in (tarfile.GNU_FORMAT, tarfile.USTAR_FORMAT):
        tar = _tar(_file("a.sig", b"q" * 1025), _file("b.sig", b"r"), fmt=fmt)
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            want = [(ti.name, ti.size, ti.offset, ti.offset_data) for ti in tf.getmembers()]
        assert [(m.name, m.size, m.header_offset, m.data_offset) for m in untar(tar)] == want


def test_old_style_regular_typeflag_nul_is_regular() -> None:
    tar = _header(b"old.sig", 3, typeflag=b"\0") + b"abc".ljust(BLOCK, b"\0") + b"\0" * (2 * BLOCK)
    (m,) = untar(tar)
    assert (m.typeflag, m.is_regular, m.size, m.data_offset) == (b"\0", True, 3, BLOCK)


def test_octal_fields_take_leading_spaces_and_nul_or_space_ends() -> None:
    # 0o1750 = 1000 bytes: two data blocks, then the end block
    for field in (b"   1750\0\0\0\0\0", b"00000001750 ", b"1750        ", b"1750\0       ", b"  1750  \0\0\0\0"):
        tar = _header(size_field=field) + b"s" * 1000 + b"\0" * 24 + b"\0" * (2 * BLOCK)
        (m,) = untar(tar)
        assert m.size == 1000


@pytest.mark.parametrize(("field", "bad_index"), [
    (b"0000648\0", 6),  # 8 is not an octal digit
    (b"00 644\0\0", 3),  # a digit after the field's end
    (b"0644\0 12", 6),
    (b"00006x4\0", 5),
])
def test_a_mode_field_that_is_not_octal_is_located_at_its_byte(field: bytes, bad_index: int) -> None:
    tar = _tar(_file("a.sig", b"abc")) + b""
    bad = _header(b"b.sig", mode=field)
    archive = tar[:2 * BLOCK] + bad + b"\0" * (2 * BLOCK)
    with pytest.raises(Malformed) as e:
        untar(archive)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-001", 2 * BLOCK + 100 + bad_index, "tar.mode")


def test_a_wrong_checksum_is_located_at_the_second_members_chksum_field() -> None:
    first = _header(b"a.sig", 0)
    good = _header(b"b.sig", 0)
    stored = int(good[148:154], 8)
    bad = _header(b"b.sig", 0, chksum=stored + 1)
    with pytest.raises(Malformed) as e:
        untar(first + bad + b"\0" * (2 * BLOCK))
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-001", BLOCK + 148, "tar.entry[1].chksum")
    assert len(untar(first + good + b"\0" * (2 * BLOCK))) == 2


def test_a_checksum_counts_the_field_as_eight_spaces() -> None:
    h = bytearray(_header(b"a.sig", 0))
    h[148:156] = b" " * 8
    assert int(_header(b"a.sig", 0)[148:154], 8) == sum(h)


@pytest.mark.parametrize("left", [0, 1, 511])
def test_an_archive_without_its_end_block_is_truncated_where_the_header_would_be(left: int) -> None:
    tar = _tar(_file("a.sig", b"abc"))[:2 * BLOCK] + b"\0" * left
    with pytest.raises(Truncated) as e:
        untar(tar)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-001", 2 * BLOCK, "tar.entry[1]")
    assert (e.value.needed, e.value.available) == (BLOCK, left)


def test_a_members_data_cut_short_is_located_at_its_data() -> None:
    tar = _header(b"a.sig", 1000) + b"x" * 600
    with pytest.raises(Truncated) as e:
        untar(tar)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-001", BLOCK, "tar.entry[0]")
    assert (e.value.needed, e.value.available) == (2 * BLOCK, 600)
    # exactly the blocks the size needs, then the end: accepted
    (m,) = untar(_header(b"a.sig", 1000) + b"x" * 1024 + b"\0" * BLOCK)
    assert m.size == 1000


def test_the_member_limit_is_the_documented_one_read_from_the_header() -> None:
    over = _header(b"big.sig", DOCUMENTED_MEMBER_LIMIT + 1) + b"\0" * (2 * BLOCK)
    with pytest.raises(LimitExceeded) as e:
        untar(b"\0" * 0 + _header(b"a.sig", 0) + over)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-005", BLOCK + 124, "tar.entry[1].size")
    assert (e.value.value, e.value.maximum) == (DOCUMENTED_MEMBER_LIMIT + 1, DOCUMENTED_MEMBER_LIMIT)
    at = _header(b"big.sig", DOCUMENTED_MEMBER_LIMIT) + b"\0" * (2 * BLOCK)
    with pytest.raises(Truncated) as t:  # at the limit: judged by its data, which is missing
        untar(at)
    assert t.value.needed == DOCUMENTED_MEMBER_LIMIT


def test_a_link_or_directory_declaring_a_size_has_no_data_blocks() -> None:
    for typ in (b"1", b"2", b"3", b"4", b"5"):
        tar = _header(b"l", 1000, typeflag=typ) + _header(b"a.sig", 0) + b"\0" * (2 * BLOCK)
        members = untar(tar)
        assert [(m.header_offset, m.data_offset) for m in members] == [(0, BLOCK), (BLOCK, 2 * BLOCK)]


@pytest.mark.parametrize("extra", [1, 100, 511, 513])
def test_padding_after_the_end_block_must_be_whole_blocks(extra: int) -> None:
    tar = _header(b"a.sig", 0) + b"\0" * BLOCK
    with pytest.raises(Malformed) as e:
        untar(tar + b"\0" * extra)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-001", 2 * BLOCK, "tar.padding")
    assert len(untar(tar + b"\0" * (extra // BLOCK + 1) * BLOCK)) == 1


def test_a_non_zero_byte_after_the_end_block_is_located_at_that_byte() -> None:
    tar = _header(b"a.sig", 0) + b"\0" * BLOCK
    rest = bytearray(2 * BLOCK)
    rest[700] = 7
    with pytest.raises(Malformed) as e:
        untar(tar + bytes(rest))
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-001", 2 * BLOCK + 700, "tar.padding")


# --- the signal member -------------------------------------------------------------------------------

@pytest.mark.parametrize("entries", [
    [_file("a.sig", BODY), _file("b.sig", BODY)],
    [_special("dir/", tarfile.DIRTYPE)],
    [_special("l", tarfile.SYMTYPE, "a.sig")],
])
def test_a_tar_xz_needs_exactly_one_regular_member(entries: list) -> None:
    data = lzma.compress(_tar(*entries), format=lzma.FORMAT_XZ)
    with pytest.raises(Malformed) as e:
        signal_member(unwrap(data))
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-TAR-002", 0, "tar")


def test_the_one_regular_member_among_others_is_the_signal() -> None:
    tar = _tar(_special("dir/", tarfile.DIRTYPE), _file("dir/s.sig", BODY), _special("l", tarfile.SYMTYPE, "x"))
    data = lzma.compress(tar, format=lzma.FORMAT_XZ)
    u = unwrap(data)
    assert (u.container, u.xz_size, signal_member(u).name) == ("tar.xz", len(data), "dir/s.sig")
    assert decode(data).member == "dir/s.sig"


# --- xz ------------------------------------------------------------------------------------------------

def test_only_the_six_byte_magic_makes_an_xz_file() -> None:
    data = wrap(BODY, "a.sig")
    assert unwrap(data).container == "tar.xz"
    raw = unwrap(BODY)
    assert (raw.container, raw.tar, raw.members, raw.xz_size) == ("raw", None, (), 0)  # no xz stream: 0 bytes of it
    for i in range(6):
        other = bytearray(data)
        other[i] ^= 0x01
        assert unwrap(bytes(other)).container == "raw"


def test_a_cut_stream_is_truncated_at_its_end() -> None:
    data = wrap(BODY, "a.sig")
    for cut in (7, len(data) // 2, len(data) - 1):
        with pytest.raises(Truncated) as e:
            unxz(data[:cut])
        assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-XZ-001", cut, "xz")


@pytest.mark.parametrize(("tail", "kind"), [
    (b"\0\0\0\0", "stream padding"),
    (b"\0\0\0", "stream padding"),
    (b"!", "trailing bytes"),
    (None, "a second xz stream"),
])
def test_bytes_after_the_stream_are_located_where_it_ends(tail: bytes | None, kind: str) -> None:
    data = wrap(BODY, "a.sig")
    extra = data if tail is None else tail
    with pytest.raises(Malformed) as e:
        unxz(data + extra)
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-XZ-002", len(data), "xz")
    assert f"{len(extra)} bytes" in e.value.message and kind in e.value.message


def test_a_corrupt_small_stream_is_located_at_its_start() -> None:
    data = bytearray(wrap(BODY, "a.sig"))
    data[len(data) // 2] ^= 0x10
    with pytest.raises(Malformed) as e:
        unxz(bytes(data))
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-XZ-001", 0, "xz")


def _with_dictionary(code: int) -> bytes:
    """An lzma-written xz stream whose block header declares LZMA2 dictionary size ``code``
    (xz file format 1.2.1, 5.3.1: size = (2 | code & 1) << (code // 2 + 11)); the header CRC32 redone."""
    data = bytearray(lzma.compress(b"abc", format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64,
                                   filters=[{"id": lzma.FILTER_LZMA2, "preset": 1}]))
    start = 12  # the stream header
    size = (data[start] + 1) * 4
    header = data[start:start + size]
    assert header[2:4] == b"\x21\x01"  # one filter, LZMA2, one property byte
    header[4] = code
    header[-4:] = struct.pack("<I", zlib.crc32(bytes(header[:-4])))
    data[start:start + size] = header
    return bytes(data)


def test_the_decoder_memory_limit_admits_every_preset_and_refuses_more() -> None:
    assert unxz(_with_dictionary(28)) == b"abc"  # 64 MiB: preset 9 and 9e
    assert unxz(_with_dictionary(29)) == b"abc"  # 96 MiB
    for code in (30, 36):  # 128 MiB (the decoder needs a little more than its dictionary), 1 GiB
        with pytest.raises(LimitExceeded) as e:
            unxz(_with_dictionary(code))
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-LIMIT-001", 0, "xz")
    assert (e.value.limit, e.value.maximum) == ("MAX_XZ_MEMORY", 128 * MIB)


@pytest.mark.parametrize("by_index", [True, False])
def test_the_unpacked_limit_admits_exactly_its_size(by_index: bool) -> None:
    data = lzma.compress(b"\x55" * 5000, format=lzma.FORMAT_XZ)
    assert unxz(data, 5000, by_index=by_index) == b"\x55" * 5000
    with pytest.raises(LimitExceeded) as e:
        unxz(data, 4999, by_index=by_index)
    assert (e.value.rule, e.value.offset, e.value.path, e.value.maximum) == ("RSIG-LIMIT-001", 0, "xz", 4999)
    # by the index: the declared 5000; by inflating: the first byte past the limit
    assert e.value.value == 5000


def test_the_default_unpacked_limit_is_the_documented_8_mib() -> None:
    exact = lzma.compress(b"\0" * DOCUMENTED_UNPACKED_LIMIT, format=lzma.FORMAT_XZ, preset=0)
    assert len(unxz(exact, by_index=False)) == DOCUMENTED_UNPACKED_LIMIT
    over = lzma.compress(b"\0" * (DOCUMENTED_UNPACKED_LIMIT + 1), format=lzma.FORMAT_XZ, preset=0)
    for by_index in (True, False):
        with pytest.raises(LimitExceeded) as e:
            unxz(over, by_index=by_index)
        assert e.value.maximum == DOCUMENTED_UNPACKED_LIMIT


# --- the writer -----------------------------------------------------------------------------------------

def test_wrap_writes_one_crc64_stream_holding_a_ustar_archive() -> None:
    data = wrap(BODY, "20250624100658.sig", mtime=0o1234567)
    assert data[:6] == b"\xfd7zXZ\x00" and data[6:8] == b"\x00\x04"  # stream flags: CRC64
    tar = lzma.decompress(data, format=lzma.FORMAT_XZ)
    assert len(tar) == BLOCK + BLOCK + 2 * BLOCK  # header, the body padded to a block, the end
    assert tar[BLOCK:BLOCK + len(BODY)] == BODY and not tar[BLOCK + len(BODY):].strip(b"\0")
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        (ti,) = tf.getmembers()
        assert (ti.name, ti.size, ti.mode, ti.uid, ti.gid, ti.mtime, ti.type) == (
            "20250624100658.sig", len(BODY), 0o644, 0, 0, 0o1234567, tarfile.REGTYPE)
    assert tar[257:265] == b"ustar\x0000"
    assert tar[148:156] == b"%06o\0 " % (sum(tar[:BLOCK]) - sum(tar[148:156]) + 8 * 0x20)


def test_wrap_pads_the_body_to_whole_blocks() -> None:
    for n in (511, 512, 513):
        tar = lzma.decompress(wrap(b"b" * n, "a.sig"))
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            assert tf.getmembers()[0].mtime == 0  # no mtime given: 0
        assert len(tar) == BLOCK + -(-n // BLOCK) * BLOCK + 2 * BLOCK


def test_wrap_takes_a_100_byte_name_and_refuses_101() -> None:
    name = "n" * 96 + ".sig"
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(wrap(BODY, name)))) as tf:
        assert tf.getnames() == [name]
    with pytest.raises(EncodeError):
        wrap(BODY, "n" * 97 + ".sig")
