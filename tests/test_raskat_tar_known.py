"""The tar parser's octal fields and header sums made at once (conformance/raskat_signal/_tar_known.py) are the
generated code's: the same parse tree (every attribute, the lazy instances already read and no others), the same
error at the same position, the same stream position after, and the same cross-check reports.

The archives are written by Python's ``tarfile`` (not by the code under test), so a header's size field and its
checksum are known independently: the octal ``size`` read is the member's length, and the running byte sum gives
the checksum ``tarfile`` stored."""

from __future__ import annotations

import contextlib
import io
import lzma
import tarfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from test_kaitai_memory_stream import _error, _tree

from helpers import REPO, real_file
from recspec._ksy_fast.tar import Tar
from recspec.conformance._kaitai import MemoryStream, unread
from recspec.conformance.raskat_signal import _tar_known
from recspec.conformance.raskat_signal import _xcheck as raskat_x  # installs the known reading
from recspec.pipeline import check_file

assert raskat_x  # imported for its side effect


def parse_either_way(cls: type, args: tuple[Any, ...], data: bytes, *, at: int,
                     generated: contextlib.AbstractContextManager[None] | None,
                     then: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """(tree, error or None, position) of ``cls(*args)`` read from ``at`` in ``data`` through a MemoryStream,
    inside ``generated`` (the generated reading put back) or with the known reading when it is None; ``then``:
    instances read after the parse (their values join the tree)."""
    with generated or contextlib.nullcontext():
        stream = MemoryStream(data)
        stream.seek(at)
        obj = unread(cls, *args, stream)
        error = None
        try:
            obj._read()
            for name in then:
                getattr(obj, name)
        except Exception as e:  # noqa: BLE001 - every exception must be the same, not only the input errors
            error = _error(e)
        return _tree(obj), error, stream.pos()


def _both(cls: type, args: tuple[Any, ...], data: bytes, *, at: int = 0, then: tuple[str, ...] = ()) -> Any:
    known = parse_either_way(cls, args, data, at=at, generated=None, then=then)
    assert known == parse_either_way(cls, args, data, at=at, generated=_tar_known.generated_tar(), then=then)
    return known


def test_the_known_reading_is_installed_and_can_be_put_back() -> None:
    assert Tar.Octal._read is _tar_known._octal_read
    with _tar_known.generated_tar():
        assert Tar.Octal._read is not _tar_known._octal_read
        assert type(Tar.Header.__dict__["words"]) is property
        assert Tar.Header.__dict__["words"] is not _tar_known._header_words
    assert Tar.Octal._read is _tar_known._octal_read
    assert Tar.Header.__dict__["words"] is _tar_known._header_words


#: what an octal field holds: NUL, space, the octal digits, and bytes the ksy rejects ('8', '9', 'x', 0xff)
OCTAL_BYTES = st.sampled_from([0, 0x20, *range(0x30, 0x38), 0x38, 0x39, 0x78, 0xFF])


@given(st.sampled_from([8, 12]), st.lists(OCTAL_BYTES, max_size=14), st.binary(max_size=4),
       st.sampled_from([(), ("value",)]))
def test_an_octal_field_reads_as_generated(length: int, chars: list[int], before: bytes, then: tuple[str, ...]) -> None:
    # a field anywhere in its stream, whole, cut by the stream's end, or followed by more bytes
    _both(Tar.Octal, (length,), before + bytes(chars), at=len(before), then=then)


def test_an_octal_field_gives_the_documented_values() -> None:
    assert _both(Tar.Octal, (8,), b"0000644\0", then=("value",))[0][1]["_m_value"] == 0o644
    assert _both(Tar.Octal, (12,), b"   17 \0\0\0\0\0\0", then=("value",))[0][1]["_m_value"] == 0o17
    assert _both(Tar.Octal, (8,), bytes(8), then=("value",))[0][1]["_m_value"] == 0
    rejected = _both(Tar.Octal, (8,), b"12\x0034\0\0\0")[1]  # a digit after the NUL
    assert rejected is not None and rejected[3] == "/types/octal_char/seq/0" and rejected[-1] == 4


def _archive(draw: st.DrawFn) -> tuple[bytes, list[tuple[bytes, int]]]:
    """A tar archive written by ``tarfile`` and its members' (type, data length)."""
    fmt = draw(st.sampled_from([tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT]))
    out = io.BytesIO()
    members = []
    with tarfile.open(fileobj=out, mode="w", format=fmt) as t:
        for i in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from([tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE]))
            info = tarfile.TarInfo(draw(st.sampled_from(["signal.bin", f"d{i}/s.sig", "x" * 99])))
            info.type = kind
            info.mode = draw(st.integers(0, 0o7777))
            info.mtime = draw(st.integers(0, 8**11 - 1))
            info.uid = draw(st.integers(0, 8**7 - 1))
            data = draw(st.binary(max_size=700)) if kind == tarfile.REGTYPE else b""
            info.size = len(data)
            if kind == tarfile.SYMTYPE:
                info.linkname = "signal.bin"
            t.addfile(info, io.BytesIO(data))
            members.append((kind, len(data)))
    return out.getvalue(), members


@st.composite
def archives(draw: st.DrawFn) -> bytes:
    """An archive, then a few edits in its first header's fields (octal characters, the checksum, any byte), cuts
    and runs of zeros."""
    data = bytearray(_archive(draw)[0])
    if draw(st.integers(0, 5)) == 0:  # the first header zeroed: the end marker first
        data[:512] = bytes(min(512, len(data)))
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["octal", "byte", "cut", "zeros"]))
        at = draw(st.integers(100, 156)) if op in ("octal", "zeros") else draw(st.integers(0, len(data)))
        if op == "octal" and at < len(data):
            data[at] = draw(OCTAL_BYTES)
        elif op == "byte" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif op == "cut":
            del data[at:]
        elif op == "zeros":
            data[at:at + 8] = bytes(min(8, max(0, len(data) - at)))
    return bytes(data)


@given(archives())
def test_an_archive_reads_as_generated(data: bytes) -> None:
    _both(Tar, (), data)


SUMS = st.sampled_from([("words",), ("words", "byte_sum", "computed_checksum")])


@given(archives(), st.one_of(st.just(512), st.integers(0, 520)), SUMS)
def test_a_header_and_its_sums_read_as_generated(data: bytes, cut: int, then: tuple[str, ...]) -> None:
    # a header stream of any length (a short one goes the generated way), its sums read after the parse (an
    # all-zero header's parse reads none of them)
    _both(Tar.Header, (), data[:cut], then=then)


@st.composite
def written(draw: st.DrawFn) -> tuple[bytes, list[tuple[bytes, int]]]:
    return _archive(draw)


@given(written())
def test_the_sizes_and_checksums_are_what_tarfile_wrote(archive: tuple[bytes, list[tuple[bytes, int]]]) -> None:
    raw, members = archive
    parsed = Tar(MemoryStream(raw))
    assert parsed.entries[-1].is_end
    at = 0
    for e in parsed.entries[:-1]:
        h = e.header
        block = raw[at:at + 512]
        # the checksum field counted as eight spaces (POSIX), summed here from the bytes tarfile wrote
        assert h.computed_checksum == sum(block[:148]) + 8 * 0x20 + sum(block[156:]) == h.chksum.value
        at += 512 + (-(-h.size.value // 512) * 512 if e.has_data else 0)
    regular = [e.header.size.value for e in parsed.entries[:-1] if e.header.typeflag == ord("0")]
    assert regular == [n for kind, n in members if kind == tarfile.REGTYPE]


def test_every_raskat_corpus_file_reports_the_same_either_way() -> None:
    files = sorted(p for p in (REPO / "corpus" / "raskat-signal").rglob("*.sig"))
    tar_xz = 0
    for path in files:
        with _tar_known.generated_tar():
            slow = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        fast = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        assert fast is not None and slow is not None
        assert fast.to_json() == slow.to_json(), path
        tar_xz += path.read_bytes()[:6] == b"\xfd7zXZ\x00"
    assert tar_xz >= 10


def test_the_real_signal_and_it_in_an_archive_report_the_same_either_way(tmp_path: Path) -> None:
    # the real signal (raw), and the same bytes as the one member of a tar.xz written by tarfile and lzma
    raw = real_file("signal.v3").read_bytes()
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w", format=tarfile.USTAR_FORMAT) as t:
        info = tarfile.TarInfo("signal.v3")
        info.size = len(raw)
        t.addfile(info, io.BytesIO(raw))
    packed = tmp_path / "signal.v3.tar.xz.sig"
    packed.write_bytes(lzma.compress(archive.getvalue(), check=lzma.CHECK_CRC64))
    for path in (real_file("signal.v3"), packed):
        with _tar_known.generated_tar():
            slow = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        fast = check_file(path, fmt=None, variant=None, profile=None, cross_check="full", named=True)
        assert fast is not None and slow is not None
        assert fast.evidence["cross_check"] == "kaitai: agrees"
        assert fast.to_json() == slow.to_json()
    assert fast.stats["container"] == "tar.xz"
