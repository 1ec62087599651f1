"""The raSkat sniffer (``conformance/raskat_signal/_sniff.py``) held to docs/formats/raskat-signal.md: a file
is a little-endian ``u16`` version word (1 legacy, 2, 3, 4), then a body: in v1 and v2 the start time as 14
ASCII digits at offset 2 (``%Y%m%d%H%M%S``); in v3 and v4 MessagePack, whose first object is that time as
a 14-character fixstr (``0xae``, then the digits, from offset 3). A v1/v2 header is at least 46 bytes. A
file may instead be an xz stream (magic ``FD 37 7A 58 5A 00``) holding a tar of the signal.

A known version with its time where the document puts it is nearly certain; an unknown version with a known
body is reported as raSkat (so RSIG-VERSION-001 says why it does not fit) but below a certain guess; the xz
container is raSkat's only when no other sniffer claims more."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from helpers import real_file
from recspec.conformance.raskat_signal._sniff import sniff
from recspec.formats import EXTENSION_EVIDENCE, SNIFF_BYTES

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "raskat-signal"
TIME = b"20250624100658"
NOT_DIGITS = b"2025-06-24 10:"  # 14 ASCII characters, not all digits


def _head(path: Path) -> bytes:
    with path.open("rb") as f:
        return f.read(SNIFF_BYTES)


def _fixed(version: int, time: bytes = TIME, size: int = 47) -> bytes:
    """The start of a v1/v2 file: the version word, the time, zeros up to ``size`` bytes."""
    head = struct.pack("<H", version) + time
    return head + bytes(size - len(head))


def _msgpack(version: int, time: bytes = TIME) -> bytes:
    """The start of a v3/v4 file: the version word, the time as a fixstr of 14, the microseconds."""
    return struct.pack("<H", version) + b"\xae" + time + b"\xce\x00\x01\x20\x1b"


def _sure(score: float) -> bool:
    return score >= 0.9


@pytest.mark.parametrize("name", ["v2-writer.sig", "v3-writer.sig", "v4-writer.sig"])
def test_the_valid_raw_files_are_nearly_certain(name: str) -> None:
    assert _sure(sniff(_head(CORPUS / "valid" / name)))


def test_the_real_v3_file_is_nearly_certain() -> None:
    head = _head(real_file("signal.v3"))
    assert head[:3] == b"\x03\x00\xae" and head[3:17].isdigit()  # read by hand, as the document lays it out
    assert _sure(sniff(head))


@pytest.mark.parametrize("version", [1, 2])
def test_a_fixed_header_with_its_time_is_nearly_certain(version: int) -> None:
    assert _sure(sniff(_fixed(version)))
    assert _sure(sniff(_fixed(version)[:16]))  # the version word and the time are enough


@pytest.mark.parametrize("version", [3, 4])
def test_a_msgpack_body_with_its_time_is_nearly_certain(version: int) -> None:
    assert _sure(sniff(_msgpack(version)))
    assert _sure(sniff(_msgpack(version)[:17]))


@pytest.mark.parametrize("version", [1, 2])
def test_a_fixed_header_without_its_time_is_a_guess_that_grows_with_the_header(version: int) -> None:
    full, short = sniff(_fixed(version, NOT_DIGITS, 46)), sniff(_fixed(version, NOT_DIGITS, 45))
    assert 0.0 < short < full < EXTENSION_EVIDENCE
    assert sniff(_fixed(version, NOT_DIGITS, 200)) == full
    assert sniff(_fixed(version, TIME[:13] + b"x")) == full  # 13 digits and a letter


@pytest.mark.parametrize("version", [3, 4])
def test_a_msgpack_time_that_is_not_digits_is_a_half_guess(version: int) -> None:
    score = sniff(_msgpack(version, NOT_DIGITS))
    assert EXTENSION_EVIDENCE < score < 0.9
    assert sniff(b"\x03\x00\xae") == score  # the fixstr's head alone


@pytest.mark.parametrize("version", [3, 4])
def test_a_msgpack_body_without_the_time_first_is_a_faint_guess(version: int) -> None:
    score = sniff(struct.pack("<H", version) + b"\xce\x00\x01\x20\x1b" + TIME)
    assert 0.0 < score < EXTENSION_EVIDENCE
    assert sniff(_fixed(version)) == score  # a v2-style time after a v3 word


@pytest.mark.parametrize("version", [0, 5, 6, 0xFF])
def test_an_unknown_version_with_a_known_body_is_reported_but_not_sure(version: int) -> None:
    for head in (_fixed(version), _msgpack(version)):
        assert EXTENSION_EVIDENCE < sniff(head) < 0.9
    assert sniff(_fixed(version, NOT_DIGITS)) == 0.0
    assert sniff(_msgpack(version, NOT_DIGITS)) == 0.0  # a fixstr marker, but no time in it
    assert sniff(struct.pack("<H", version) + b"\x00" + TIME) == 0.0  # the time one byte late, no marker


def test_a_version_word_above_255_is_not_raskat() -> None:
    # the high byte of a known version word is 0; 0x0503 and 0x0103 are no version
    assert sniff(b"\x03\x05" + _msgpack(3)[2:]) == 0.0
    assert sniff(b"\x02\x01" + _fixed(2)[2:]) == 0.0


def test_the_xz_container_is_a_guess_above_an_extension() -> None:
    for head in (_head(CORPUS / "valid" / "v3.tar.xz.sig"), b"\xfd7zXZ\x00"):
        assert EXTENSION_EVIDENCE < sniff(head) < 0.9
    assert sniff(_head(CORPUS / "damaged" / "xz-magic-damaged.sig")) == 0.0  # FD 38 ...: no xz magic


def test_heads_too_short_for_a_version_and_a_body() -> None:
    assert sniff(b"") == 0.0
    assert sniff(b"\x03") == 0.0
    assert sniff(b"\x03\x00") == 0.0
    assert sniff(b"\xfd7zXZ") == 0.0  # five bytes of the xz magic


@pytest.mark.parametrize("name", ["Scene1.bson", "hello_vel.traj"])
def test_other_formats_real_files_are_not_raskat(name: str) -> None:
    assert sniff(_head(real_file(name))) == 0.0


def test_a_carla_log_starts_with_version_word_1_and_is_only_a_faint_guess() -> None:
    # CARLA's header is a u16 version 1, then its magic where v1 keeps the time: a v1 file without its time
    assert 0.0 < sniff(_head(real_file("carla_0915_crash.log"))) < EXTENSION_EVIDENCE
