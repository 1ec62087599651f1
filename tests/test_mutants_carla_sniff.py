"""The CARLA sniffer (``conformance/carla/_sniff.py``) held to the header of docs/formats/carla.md: offset 0 a
``u16`` version, offset 2 the magic ``0E 00`` and the 14 ASCII bytes ``CARLA_RECORDER``.

A file whose magic is exact is CARLA for certain (1.0): a valid file then never rests on its extension. A
magic in other letter case is still CARLA (CARLA-HEADER-001 reports it), but less surely than an exact one
and more surely than a file name (``EXTENSION_EVIDENCE``). Anything else is not CARLA (0.0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import real_file
from recspec.conformance.carla._sniff import sniff
from recspec.formats import EXTENSION_EVIDENCE, SNIFF_BYTES

ROOT = Path(__file__).resolve().parent.parent
VALID = sorted((ROOT / "corpus" / "carla" / "valid").glob("*.log"))
REAL_LOGS = sorted((ROOT / "corpus" / "real").glob("*.log"))


def _head(path: Path) -> bytes:
    with path.open("rb") as f:
        return f.read(SNIFF_BYTES)


@pytest.mark.parametrize("path", VALID + REAL_LOGS, ids=lambda p: p.name)
def test_every_valid_and_real_log_sniffs_as_carla_for_certain(path: Path) -> None:
    head = _head(path)
    assert head[2:4] == b"\x0e\x00" and head[4:18] == b"CARLA_RECORDER"  # the document's layout, read by hand
    assert sniff(head) == 1.0


def test_the_magic_alone_after_any_version_word_is_certain() -> None:
    assert sniff(b"\x01\x00\x0e\x00CARLA_RECORDER") == 1.0
    assert sniff(b"\x07\x00\x0e\x00CARLA_RECORDER" + bytes(100)) == 1.0


@pytest.mark.parametrize("magic", [b"carla_recorder", b"Carla_Recorder", b"CARLA_RECORDEr"])
def test_a_magic_in_other_letter_case_is_carla_but_less_sure(magic: bytes) -> None:
    head = b"\x01\x00\x0e\x00" + magic + bytes(64)
    assert EXTENSION_EVIDENCE < sniff(head) < 1.0


@pytest.mark.parametrize("head", [
    b"",
    b"\x01\x00",
    b"\x01\x00\x0e\x00CARLA_RECORDE",  # one letter short
    b"\x01\x00\x0d\x00CARLA_RECORDER",  # the length field says 13
    b"\x0e\x00CARLA_RECORDER\x00\x00",  # the magic at offset 0, no version word before it
    b"\x01\x00\x0e\x00CARLA_RECORDEX",
    bytes(SNIFF_BYTES),
])
def test_anything_else_is_not_carla(head: bytes) -> None:
    assert sniff(head) == 0.0


@pytest.mark.parametrize("name", ["Scene1.bson", "hello_vel.traj", "signal.v3", "sim-switching-test-recording.state"])
def test_other_formats_real_files_are_not_carla(name: str) -> None:
    assert sniff(_head(real_file(name))) == 0.0
