"""The real v3 file written by the upstream C++ unit test (../shared/real/signal.v3).

Facts asserted here come from PROVENANCE.md; the spec-profile findings are the
ones the decisions in conformance/raskat_signal/_rules.py predict, written by hand:

* RSIG-CONTAINER-001: the file is raw, the document says tar.xz (decision A.5.1);
* RSIG-COORD-002 on field 4: under spec field 4 is the latitude (the document's
  order), and it holds the writer's longitude 128.012345 > 90 (A.5.4);
* RSIG-FLAGS-001 on field 10: flags 138 = 0x8a sets the undefined bits 0x88 (A.5.7).
"""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import msgpack
import pytest

from helpers import real_file
from recspec.cli import main
from recspec.conformance.raskat_signal import check_bytes
from recspec.conformance.raskat_signal._xcheck import differential, kaitai_read
from recspec.reference.raskat_signal import SignalMsgpack, decode, encode

pytestmark = pytest.mark.requires_real_samples


@pytest.fixture(scope="module")
def real() -> bytes:
    return real_file("signal.v3").read_bytes()


def test_facts_from_provenance(real: bytes) -> None:
    assert len(real) == 173
    assert real[:2] == b"\x03\x00"
    sf = decode(real)
    s = sf.signal
    assert sf.container == "raw" and isinstance(s, SignalMsgpack) and s.version == 3
    assert len(s.fields) == 12
    assert s.time == "20250624100658"
    assert s.microseconds == 73_755
    assert s.coordinate_1 == 70.54321  # latitude: the writer's first double
    assert s.coordinate_2 == 128.012345
    assert s.altitude == 150.0
    assert s.sample_rate == 500_000
    assert s.load_ohm == 1_000
    assert s.adc_bits == 10
    assert s.vref == 3.299999952316284 == struct.unpack("<f", struct.pack("<f", 3.3))[0]
    assert s.flags == 138
    assert s.antenna == 1
    assert s.samples == tuple(range(100))


def test_third_reader_msgpack_agrees(real: bytes) -> None:
    """The PyPI msgpack package reads the same 12 bare objects and nothing after them."""
    u = msgpack.Unpacker(io.BytesIO(real[2:]), raw=False, strict_map_key=False)
    objects = list(u)
    assert len(objects) == 12
    ours = decode(real).signal.fields
    assert [list(x) if isinstance(x, tuple) else x for x in ours] == objects


def test_canonical_bytes(real: bytes) -> None:
    assert encode(decode(real).signal) == real


def test_valid_under_compat(real: bytes) -> None:
    report, _ = check_bytes(real, path="signal.v3", variant=None, profile="compat")
    assert report.verdict.value == "valid"
    assert [(f.rule, f.severity.value) for f in report.findings] == [("RSIG-FLAGS-001", "info")]
    assert report.stats == {"version": 3, "container": "raw", "samples": 100, "sample_rate_hz": 500_000}
    assert report.variant == "v3"


def test_spec_findings_are_those_the_decisions_predict(real: bytes) -> None:
    report, _ = check_bytes(real, path="signal.v3", variant=None, profile="spec")
    assert report.verdict.value == "invalid"
    got = [(f.rule, f.severity.value, f.offset, f.path, f.actual) for f in report.findings]
    # field offsets by hand: version 0-1, fixstr 2-16, uint32 17-21, 3 doubles at 22, 31, 40,
    # uint32 rate at 49, uint16 load at 54, fixint bits at 57, double vref at 58, uint8 flags at 67
    assert got == [
        ("RSIG-CONTAINER-001", "error", 0, "", None),
        ("RSIG-COORD-002", "error", 31, "field[3]:coordinate_2", 128.012345),
        ("RSIG-FLAGS-001", "error", 67, "field[9]:flags", 138),
    ]


def test_kaitai_reads_it_the_same(real: bytes) -> None:
    assert kaitai_read(real).signal == decode(real).signal
    assert differential(real) == []


def test_in_the_documents_container_it_is_spec_clean_but_for_the_writer_decisions(real: bytes) -> None:
    wrapped = encode(decode(real).signal, container="tar.xz")
    report, _ = check_bytes(wrapped, path="x", variant=None, profile="spec")
    assert sorted({f.rule for f in report.findings}) == ["RSIG-COORD-002", "RSIG-FLAGS-001"]
    assert report.stats["container"] == "tar.xz"
    assert all(f.path.startswith("tar:20250624100658.sig/") for f in report.findings)


# --- corrupted copies: located findings and exit code 1 -----------------------------------------

def _cli(path: Path, *args: str) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["check", "--json", *args, str(path)])
    return rc, json.loads(out.getvalue())["files"][0]


@pytest.mark.parametrize(("cut", "offset", "args"), [
    (172, 70, ()),  # inside the samples: the array at 70 claims 100 elements, 99 bytes follow it
    (60, 58, ()),   # inside the Vref double (lead byte at 58, payload 59-66)
    (10, 2, ()),    # inside the time fixstr
    (1, 0, ("--format", "raskat")),  # inside the version word: too short to recognise, so forced
])
def test_truncated_copies(real: bytes, tmp_path: Path, cut: int, offset: int, args: tuple[str, ...]) -> None:
    p = tmp_path / "cut.sig"
    p.write_bytes(real[:cut])
    rc, f = _cli(p, "--profile", "compat", *args)
    assert rc == 1
    assert f["verdict"] == "malformed"
    errors = [x for x in f["findings"] if x["severity"] == "error"]
    assert [(x["rule"], x["offset"]) for x in errors] == [("RSIG-STREAM-001", offset)]
    assert f["evidence"]["cross_check"] == "kaitai: agrees"


# field offsets by hand: flags 0xcc 0x8a at 67-68, antenna fixint at 69, samples array 0xdc at 70
@pytest.mark.parametrize(("at", "bit", "rule", "offset", "verdict"), [
    (0, 2, "RSIG-VERSION-001", 0, "malformed"),   # version 3 -> 7
    (2, 0, "RSIG-STREAM-002", 67, "malformed"),   # fixstr 14 -> 15: the time eats the next lead, all shift
    (57, 5, "RSIG-ADC-001", 57, "invalid"),       # 10 bits -> 42 bits
    (69, 1, "RSIG-ANTENNA-001", 69, "invalid"),   # antenna 1 -> 3
    (73 + 50, 7, "RSIG-STREAM-001", 173, "malformed"),  # sample 50 -> 0xb2, a fixstr of 18: the array runs out
    (73 + 98, 7, "RSIG-SAMPLES-003", 171, "valid"),  # sample 98 -> 0xe2 = -30, a negative fixint: compat warns
    (73 + 99, 5, "RSIG-SAMPLES-003", 172, "invalid"),  # sample 99 -> 0x43 = 67: still a 10-bit code, undetectable
])
def test_bit_flipped_copies(real: bytes, tmp_path: Path, at: int, bit: int, rule: str, offset: int,
                            verdict: str) -> None:
    data = bytearray(real)
    data[at] ^= 1 << bit
    p = tmp_path / "flip.sig"
    p.write_bytes(bytes(data))
    rc, f = _cli(p, "--profile", "compat")
    found = [(x["rule"], x["offset"]) for x in f["findings"] if x["severity"] in ("error", "warning")]
    if at == 73 + 99:  # a flip that lands on another valid code cannot be seen by any reader
        assert rc == 0 and f["verdict"] == "valid" and found == []
        return
    assert rc == (0 if verdict == "valid" else 1)
    assert f["verdict"] == verdict
    assert (rule, offset) in found


def test_truncated_tar_xz_copy(real: bytes, tmp_path: Path) -> None:
    wrapped = encode(decode(real).signal, container="tar.xz")
    p = tmp_path / "cut.tar.xz.sig"
    p.write_bytes(wrapped[:-7])
    rc, f = _cli(p)
    assert rc == 1 and f["verdict"] == "malformed"
    assert [x["rule"] for x in f["findings"]] == ["RSIG-XZ-001"]
    assert f["stats"]["container"] == "tar.xz"
