"""``decode_header`` keeps its answers by the header's bytes (``_decode._HEADERS``) and gives what reading the
header field by field gives: the same header and end, and for a header cut short or damaged the same error
(rule, message, offset, path)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from recspec.errors import DecodeError
from recspec.reference.carla import _decode

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "carla"


def _outcome(read: Any, data: bytes) -> Any:
    try:
        return read(data)
    except DecodeError as e:
        return type(e).__name__, e.rule, e.message, e.offset, e.path


def _field_by_field(data: bytes) -> Any:
    return _decode._decode_header(data, 0)


def _headers() -> list[bytes]:
    """Every corpus log's first 64 bytes, each cut at every length, and with bytes of its two string lengths
    and elsewhere changed."""
    out = []
    rng = random.Random(3)
    for path in sorted((CORPUS / "valid").glob("*.log")) + sorted((CORPUS / "invalid").glob("*.log")):
        head = path.read_bytes()[:64]
        out += [head[:cut] for cut in range(len(head) + 1)]
        for _ in range(20):
            changed = bytearray(head)
            at = rng.choice((2, 3, rng.randrange(len(head)))) if head else 0
            if head:
                changed[at] = rng.randrange(256)
            out.append(bytes(changed))
    return out


@pytest.mark.parametrize("kept", [False, True], ids=["cold", "warm"])
def test_every_header_reads_as_field_by_field(monkeypatch: pytest.MonkeyPatch, kept: bool) -> None:
    monkeypatch.setattr(_decode, "_HEADERS", _decode.BoundedMemo(_decode._HEADERS_MAX))
    headers = _headers()
    if kept:
        for data in headers:
            _outcome(_decode.decode_header, data)
    for data in headers:
        assert _outcome(_decode.decode_header, data) == _outcome(_field_by_field, data)


def test_a_kept_header_is_one_object(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_decode, "_HEADERS", _decode.BoundedMemo(_decode._HEADERS_MAX))
    data = (CORPUS / "valid" / "0.9.15.log").read_bytes()
    first, end = _decode.decode_header(data)
    # the header's bytes: u16 version 1, the magic's u16 length and text, the i64 date, the map name's length
    magic = len("CARLA_RECORDER")
    assert end == 2 + 2 + magic + 8 + 2 + len(first.map_name.encode())
    again, _ = _decode.decode_header(data[:end] + b"other bytes after the header")
    assert again is first and len(_decode._HEADERS) == 1


def test_a_long_header_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_decode, "_HEADERS", _decode.BoundedMemo(_decode._HEADERS_MAX))
    name = b"Town" * 100  # a map name of 400 bytes: past _HEADERS_BYTES_MAX
    data = b"\x01\x00" + b"\x0e\x00CARLA_RECORDER" + (1_700_000_000).to_bytes(8, "little") + \
        len(name).to_bytes(2, "little") + name
    header, end = _decode.decode_header(data)
    assert (header.map_name, end) == (name.decode(), len(data))
    assert len(_decode._HEADERS) == 0
