"""The Kaitai parsers generated from ksy/nanover_recording.ksy and ksy/protobuf_wire.ksy,
on hand-written bytes and on the real files."""

from __future__ import annotations

import io
import struct

import pytest
from kaitaistruct import KaitaiStream, KaitaiStructError

from helpers import real_file
from recspec._ksy.nanover_recording import NanoverRecording as N
from recspec._ksy.protobuf_wire import ProtobufWire as W

MAGIC = bytes.fromhex("e3b78999c4e3715c")


def _wire(data: bytes) -> list[tuple[int, int, object]]:
    p = W(KaitaiStream(io.BytesIO(data)))
    p._read()
    out = []
    for f in p.fields:
        v = f.body.value
        out.append((f.tag.field_number, int(f.tag.wire_type), v.value if hasattr(v, "groups") else
                    v.body if hasattr(v, "body") else v))
    return out


def test_wire_fields() -> None:
    assert _wire(b"\x08\x96\x01\x12\x02hi\x1d\x01\x00\x00\x00\x21" + b"\x00" * 8) == [
        (1, 0, 150), (2, 2, b"hi"), (3, 5, 1), (4, 1, 0)]
    assert _wire(b"\x08" + b"\xff" * 9 + b"\x01") == [(1, 0, 2**64 - 1)]


@pytest.mark.parametrize("data", [b"\x0b\x0c", b"\x0e", b"\x0f", b"\x00\x00", b"\x08" + b"\xff" * 10 + b"\x01",
                                  b"\x88\x80\x80\x80\x80\x00\x05", b"\x12\x05ab", b"\x08\x80"],
                         ids=["group", "wt6", "wt7", "field0", "varint11", "tag6bytes", "overrun", "cut"])
def test_wire_rejects(data: bytes) -> None:
    with pytest.raises((KaitaiStructError, EOFError)):
        _wire(data)


def _parse(data: bytes, kind: N.RecordKind) -> N:
    r = N(kind, KaitaiStream(io.BytesIO(data)))
    r._read()
    return r


def test_typed_state_record() -> None:
    payload = b"\x0a\x09\x0a\x07\x0a\x01k\x12\x02\x20\x00"
    r = _parse(MAGIC + struct.pack("<QQQQ", 2, 7, 0, len(payload)) + payload, N.RecordKind.state)
    (rec,) = r.records
    assert rec.timestamp_us == 7
    entry = rec.payload.fields[0].body.body.fields[0].body.body
    key, value = entry.fields
    assert key.body.value == "k" and value.body.body.fields[0].tag.key.value == 0x20


def test_wrong_magic_and_u128_timestamp() -> None:
    with pytest.raises(KaitaiStructError):
        _parse(b"\x00" * 16, N.RecordKind.traj)
    r = _parse(MAGIC + struct.pack("<QQQQ", 2, 5, 1, 2) + b"\x12\x00", N.RecordKind.traj)
    assert r.records[0].timestamp_us == (1 << 64) + 5


@pytest.mark.requires_real_samples
@pytest.mark.parametrize("name,kind,n", [("sim-switching-test-recording.traj", N.RecordKind.traj, 454),
                                         ("sim-switching-test-recording.state", N.RecordKind.state, 1)])
def test_real_files(name: str, kind: N.RecordKind, n: int) -> None:
    r = _parse(real_file(name).read_bytes(), kind)
    assert r.header.version == 2 and len(r.records) == n
