"""The raSkat reference layers on hand-built bytes: v1/v2 layouts, the MessagePack
reader's strictness and widths, the container's strictness and limits, and the
ksy process routine (imports, rejections)."""

from __future__ import annotations

import io
import lzma
import struct
import subprocess
import tarfile
import time
import tracemalloc
from pathlib import Path

import pytest
from kaitaistruct import KaitaiStructError

from recspec._ksy_process.recspec_xz import RecspecXz, XzRejected
from recspec.errors import DecodeError, LimitExceeded, Malformed, Truncated
from recspec.reference.raskat_signal import (
    Fixed,
    SignalV2,
    decode,
    decode_body,
    encode_body,
    msgpack_unpack,
    untar,
    unwrap,
    unxz,
    wrap,
)

REPO = Path(__file__).resolve().parents[1]


def _v2_bytes(samples: list[int], *, count: int | None = None, flags: int = 3) -> bytes:
    """A v2 file written by hand from the layout in the research notes (A.4)."""
    head = (b"\x02\x00" + b"20250624100658" + struct.pack("<I", 73755)
            + struct.pack("<HI", 37, 617635) + struct.pack("<HI", 55, 755814) + struct.pack("<HI", 150, 0)
            + struct.pack("<I", 500000) + bytes([flags]) + struct.pack("<I", len(samples) if count is None else count))
    assert len(head) == 47
    return head + struct.pack(f"<{len(samples)}h", *samples)


def test_v2_layout_by_hand() -> None:
    s = decode_body(_v2_bytes([-5, 0, 1000]))
    assert s == SignalV2(2, b"20250624100658", 73755, Fixed(37, 617635), Fixed(55, 755814), Fixed(150, 0),
                         500000, 3, (-5, 0, 1000))
    assert s.longitude.value == 37.617635
    assert encode_body(s) == _v2_bytes([-5, 0, 1000])


def test_v1_legacy_is_big_endian_without_flags() -> None:
    body = (b"\x01\x00" + b"20250624100658" + struct.pack(">I", 5) + struct.pack(">HIHIHI", 1, 2, 3, 4, 5, 6)
            + struct.pack(">I", 8000) + struct.pack(">I", 2) + struct.pack(">hh", -1, 256))
    s = decode_body(body)
    assert (s.version, s.microseconds, s.flags, s.samples, s.sample_rate) == (1, 5, None, (-1, 256), 8000)
    assert encode_body(s) == body


@pytest.mark.parametrize(("data", "rule", "offset"), [
    (_v2_bytes([1, 2], count=3), "RSIG-SAMPLES-001", 43),
    (_v2_bytes([1, 2]) + b"\x00", "RSIG-STREAM-002", 51),
    (_v2_bytes([1, 2])[:40], "RSIG-STREAM-001", 40),
    (b"\x09\x00" + b"0" * 60, "RSIG-VERSION-001", 0),
    (b"\x03", "RSIG-STREAM-001", 0),
])
def test_structural_errors_are_located(data: bytes, rule: str, offset: int) -> None:
    with pytest.raises(DecodeError) as e:
        decode_body(data)
    assert (e.value.rule, e.value.offset) == (rule, offset)


# --- MessagePack ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "value"), [
    (b"\xc0", None), (b"\xc2", False), (b"\xc3", True), (b"\x7f", 127), (b"\xe0", -32), (b"\xff", -1),
    (b"\xcc\xff", 255), (b"\xcd\x01\x00", 256), (b"\xce\x00\x01\x00\x00", 65536),
    (b"\xcf\xff\xff\xff\xff\xff\xff\xff\xff", 2**64 - 1), (b"\xd0\x80", -128), (b"\xd1\x80\x00", -32768),
    (b"\xd2\x80\x00\x00\x00", -2**31), (b"\xd3\x80" + b"\x00" * 7, -2**63),
    (b"\xca\x3f\x80\x00\x00", 1.0), (b"\xcb\x3f\xf0" + b"\x00" * 6, 1.0),
    (b"\xa1a", "a"), (b"\xd9\x01a", "a"), (b"\xda\x00\x01a", "a"), (b"\xdb\x00\x00\x00\x01a", "a"),
    (b"\xc4\x01\x00", b"\x00"), (b"\xc5\x00\x01\x00", b"\x00"), (b"\xc6\x00\x00\x00\x01\x00", b"\x00"),
    (b"\x92\x01\x02", (1, 2)), (b"\xdc\x00\x01\x01", (1,)), (b"\xdd\x00\x00\x00\x01\x01", (1,)),
])
def test_every_width_reads(data: bytes, value: object) -> None:
    got, end = msgpack_unpack(data, 0)
    assert got == value and type(got) is type(value) and end == len(data)


def test_non_minimal_widths_are_noted_not_rejected() -> None:
    notes: list[tuple[int, int, str]] = []
    assert msgpack_unpack(b"\xcd\x00\x05", 0, note=lambda o, b, m: notes.append((o, b, m))) == (5, 3)
    assert msgpack_unpack(b"\xdc\x00\x01\x01", 0, note=lambda o, b, m: notes.append((o, b, m))) == ((1,), 4)
    assert [(o, b) for o, b, _ in notes] == [(0, 0xCD), (0, 0xDC)]


@pytest.mark.parametrize(("data", "error"), [
    (b"\xc1", Malformed), (b"\xcd\x01", Truncated), (b"\xdc\x00\x05\x01", Truncated),
    (b"\x92\xcd\x01\x00", Truncated), (b"\x91" * 40 + b"\x00", LimitExceeded), (b"\xdb\xff\xff\xff\xff", Truncated),
])
def test_reader_rejects(data: bytes, error: type) -> None:
    with pytest.raises(error):
        msgpack_unpack(data, 0)


# --- the container --------------------------------------------------------------------------------

SIGNAL = _v2_bytes([1000, 1003])


def test_wrap_is_a_ustar_archive_tarfile_reads() -> None:
    data = wrap(SIGNAL, "20250624100658.sig", mtime=5)
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(data))) as tf:
        (m,) = tf.getmembers()
        assert (m.name, m.size, m.mtime, m.isreg()) == ("20250624100658.sig", len(SIGNAL), 5, True)
        assert tf.extractfile(m).read() == SIGNAL
    assert decode(data).signal == decode_body(SIGNAL)


def _tar_gnu(body: bytes) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as tf:
        ti = tarfile.TarInfo("x.sig")
        ti.size = len(body)
        tf.addfile(ti, io.BytesIO(body))
    return out.getvalue()


def test_gnu_headers_read() -> None:
    (m,) = untar(_tar_gnu(SIGNAL))
    assert (m.name, m.size, m.is_regular) == ("x.sig", len(SIGNAL), True)


@pytest.mark.parametrize(("data", "rule"), [
    (wrap(SIGNAL, "a.sig")[:-1], "RSIG-XZ-001"),
    (wrap(SIGNAL, "a.sig") + wrap(SIGNAL, "a.sig"), "RSIG-XZ-002"),
    (wrap(SIGNAL, "a.sig") + b"\0\0\0\0", "RSIG-XZ-002"),
    (wrap(SIGNAL, "a.sig") + b"!", "RSIG-XZ-002"),
    (lzma.compress(b"not a tar"), "RSIG-TAR-001"),
    (lzma.compress(_tar_gnu(SIGNAL)[:1024]), "RSIG-TAR-001"),  # header and data, no end-of-archive block
    (lzma.compress(_tar_gnu(SIGNAL) + b"\x01" + b"\0" * 511), "RSIG-TAR-001"),  # junk after the end
])
def test_container_rejects(data: bytes, rule: str) -> None:
    with pytest.raises(DecodeError) as e:
        decode(data)
    assert e.value.rule == rule


def test_corrupt_payload_fails_the_integrity_check() -> None:
    data = bytearray(wrap(SIGNAL, "a.sig"))
    data[len(data) // 2] ^= 0x10
    with pytest.raises(DecodeError) as e:
        decode(bytes(data))
    assert e.value.rule == "RSIG-XZ-001"


def test_xz_bomb_is_stopped_in_bounded_memory_and_time() -> None:
    limit = 16 * 1024 * 1024
    bomb = lzma.compress(b"\0" * (48 * 1024 * 1024))  # preset 6: an 8 MiB dictionary
    assert len(bomb) < 64 * 1024
    tracemalloc.start()
    t = time.perf_counter()
    with pytest.raises(LimitExceeded) as e:
        unxz(bomb, limit)
    elapsed = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert e.value.rule == "RSIG-LIMIT-001" and e.value.maximum == limit
    # the output is capped and the decoder's dictionary is 8 MiB: nothing near the 48 MiB the stream holds
    assert peak < 2 * limit
    assert elapsed < 10


def test_unwrap_leaves_raw_input_alone() -> None:
    assert unwrap(SIGNAL).container == "raw"


# --- the process routine and its import -----------------------------------------------------------

def test_process_routine_is_strict() -> None:
    good = lzma.compress(b"abc")
    assert RecspecXz(10).decode(good) == b"abc"
    for bad, kind in ((good[:-1], "truncated"), (good + good, "trailing"), (good + b"\0" * 4, "trailing"),
                      (b"\xfd7zXZ\x00garbage", "corrupt")):
        with pytest.raises(XzRejected) as e:
            RecspecXz(10).decode(bad)
        assert e.value.kind == kind and isinstance(e.value, KaitaiStructError)
    with pytest.raises(XzRejected) as e:
        RecspecXz(2).decode(good)
    assert e.value.kind == "limit"


def test_generated_module_imports_the_routine_relatively() -> None:
    text = (REPO / "recspec" / "_ksy" / "raskat_signal_file.py").read_text()
    assert "\nfrom .._ksy_process.recspec_xz import RecspecXz\n" in text
    assert "\nfrom recspec_xz import" not in text


@pytest.mark.requires_node
def test_unknown_process_routine_fails_the_compile(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "p.ksy").write_text("meta:\n  id: p\nseq:\n  - id: x\n    size-eos: true\n    process: no_such_routine\n")
    proc = subprocess.run(["node", str(REPO / "tools" / "ksy_compile.mjs"), "--ksy-dir", str(specs),
                           "--out", str(tmp_path / "out"), str(specs / "p.ksy")], capture_output=True, text=True,
                          cwd=REPO)
    assert proc.returncode == 2
    assert "no_such_routine" in proc.stderr and "recspec/_ksy_process/no_such_routine.py" in proc.stderr
