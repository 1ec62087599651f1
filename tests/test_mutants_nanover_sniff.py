"""The NanoVer sniffer (``conformance/nanover/_sniff.py``) held to docs/formats/nanover.md: a version-2 file
starts with the ``u64`` magic 6661355757386708963 (``0x5C71E3C49989B7E3``, on disk ``e3 b7 89 99 c4 e3 71
5c``), and is NanoVer for certain. A headerless version-1 file (narupa-rs, 2023) starts with its first
record: a ``u128`` timestamp whose upper half is 0, a ``u64`` payload length, and a payload whose first
tag is 0x0a or 0x12; it is recognised, weakly (below ``EXTENSION_EVIDENCE``, so a ``.traj`` name still
decides), so that ``recspec check`` reports it with NANOVER-HEADER-003 instead of as unrecognised."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from helpers import real_file
from recspec.conformance.nanover._sniff import MAGIC_BYTES, sniff
from recspec.formats import EXTENSION_EVIDENCE, SNIFF_BYTES

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "nanover"
VALID = sorted((CORPUS / "valid").iterdir())
REAL = ["hello_vel.traj", "sim-switching-test-recording.traj", "sim-switching-test-recording.state"]


def _head(path: Path) -> bytes:
    with path.open("rb") as f:
        return f.read(SNIFF_BYTES)


def _version_1(payload: bytes, *, low: int = 1000, high: int = 0) -> bytes:
    """A version-1 file's first record: the 24-byte record header (u128 timestamp, u64 length), the payload."""
    return struct.pack("<QQQ", low, high, len(payload)) + payload


def test_the_magic_as_the_document_gives_it() -> None:
    assert bytes.fromhex("e3b78999c4e3715c") == MAGIC_BYTES


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_every_valid_file_is_certain(path: Path) -> None:
    assert sniff(_head(path)) == 1.0


@pytest.mark.parametrize("name", REAL)
def test_every_real_file_is_certain(name: str) -> None:
    head = _head(real_file(name))
    assert head[:8] == bytes.fromhex("e3b78999c4e3715c")
    assert sniff(head) == 1.0


def test_the_magic_alone_is_certain() -> None:
    assert sniff(bytes.fromhex("e3b78999c4e3715c")) == 1.0


def test_the_corpus_version_1_file_is_recognised_weakly() -> None:
    head = _head(CORPUS / "invalid" / "NANOVER-HEADER-003.traj")
    assert 0.0 < sniff(head) < EXTENSION_EVIDENCE


@pytest.mark.parametrize("tag", [0x0A, 0x12])
def test_a_version_1_record_of_either_tag_is_recognised_weakly(tag: int) -> None:
    assert 0.0 < sniff(_version_1(bytes([tag]) + bytes(40))) < EXTENSION_EVIDENCE


def test_the_shortest_version_1_head_is_the_record_header_and_one_payload_byte() -> None:
    head = _version_1(b"\x0a")
    assert len(head) == 25
    assert 0.0 < sniff(head) < EXTENSION_EVIDENCE
    assert sniff(head[:24]) == 0.0  # the record header alone: no payload tag to read


@pytest.mark.parametrize("tag", [0x00, 0x08, 0x09, 0x0B, 0x11, 0x13, 0x1A])
def test_a_payload_starting_with_another_tag_is_not_version_1(tag: int) -> None:
    assert sniff(_version_1(bytes([tag]) + bytes(40))) == 0.0


@pytest.mark.parametrize("high", [1, 1 << 56, (1 << 64) - 1])
def test_a_timestamp_with_a_nonzero_upper_half_is_not_version_1(high: int) -> None:
    assert sniff(_version_1(b"\x0a" + bytes(40), high=high)) == 0.0


@pytest.mark.parametrize("head", [
    b"", b"\x00" * 10, bytes(SNIFF_BYTES),
    bytes.fromhex("e3b78999c4e3715d"),  # the magic's last byte off by one
    bytes.fromhex("5c71e3c49989b7e3") + bytes(16),  # the magic big-endian
    bytes.fromhex("00e3b78999c4e371"),  # shifted by one byte
])
def test_anything_else_is_not_nanover(head: bytes) -> None:
    assert sniff(head) == 0.0


def test_the_raskat_lookalike_is_not_claimed_by_its_content() -> None:
    # corpus/nanover/damaged: the magic's first two bytes made 03 00; only its extension names it
    assert sniff(_head(CORPUS / "damaged" / "raskat-lookalike.traj")) == 0.0


@pytest.mark.parametrize("name", ["Scene1.bson", "carla_0915_crash.log", "signal.v3"])
def test_other_formats_real_files_are_not_nanover(name: str) -> None:
    assert sniff(_head(real_file(name))) == 0.0
