"""Whole NanoVer recordings and payloads (reference/nanover/_codec.py): the kind from the file's
extension (research notes, section 1: every tool goes by it), payloads made by the protobuf runtime
decoded to the runtime's message and encoded back byte for byte, whether written canonically
(the runtime's deterministic order), in another map order or with unpacked numbers, and files
framed by hand from the layout (a 16-byte header, records of u128 timestamp, u64 length, payload).
Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import io
import struct

import pytest
from build_nanover import frame_entries, ld, sample_frame, unpacked_payload

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import Malformed
from recspec.reference.nanover import Kind, RecordingWriter, StateUpdate, frame_from_message
from recspec.reference.nanover._codec import (
    decode,
    decode_payload,
    encode,
    encode_payload,
    iter_records,
    kind_from_path,
)

HEADER = bytes.fromhex("e3b78999c4e3715c" "0200000000000000")


def record(ts: int, payload: bytes) -> bytes:
    return struct.pack("<QQQ", ts & (2**64 - 1), ts >> 64, len(payload)) + payload


@pytest.mark.parametrize(("name", "kind"), [
    ("hello.traj", Kind.TRAJ), ("dir.state/x.TRAJ", Kind.TRAJ), ("a.state", Kind.STATE), ("A.State", Kind.STATE),
    ("a.nanover.zip", None), ("traj", None), ("a.traj.bak", None),
])
def test_the_kind_is_the_files_extension(name: str, kind: Kind | None) -> None:
    assert kind_from_path(name) is kind


def test_a_canonical_payload_keeps_no_order() -> None:
    msg = sample_frame()
    payload = msg.SerializeToString(deterministic=True)
    frame = decode_payload(Kind.TRAJ, payload)
    assert frame == frame_from_message(msg)
    assert frame.order is None and frame.unpacked is None
    assert encode_payload(frame) == payload


def test_a_payload_in_another_order_keeps_it_and_round_trips() -> None:
    msg = sample_frame()
    payload = pb.GetFrameResponse(frame_index=7).SerializeToString() + ld(2, b"".join(reversed(frame_entries(msg))))
    frame = decode_payload(Kind.TRAJ, payload)
    assert frame == frame_from_message(msg)
    assert frame.order is not None and frame.order[0] == "arrays/z.positions"
    assert encode_payload(frame) == payload


def test_a_state_update_in_another_order_round_trips() -> None:
    entries = [ld(1, ld(1, k.encode()) + ld(2, b"\x20\x01")) for k in ("b", "a")]  # bool_value true
    payload = ld(1, b"".join(entries))
    update = decode_payload(Kind.STATE, payload)
    assert update == StateUpdate({"a": True, "b": True}) and update.order == ("b", "a")
    assert encode_payload(update) == payload
    canonical = ld(1, b"".join(reversed(entries)))
    assert decode_payload(Kind.STATE, canonical).order is None


def test_unpacked_numbers_are_kept_and_round_trip() -> None:
    payload, want = unpacked_payload()
    frame = decode_payload(Kind.TRAJ, payload)
    assert frame == frame_from_message(want)
    assert frame.unpacked == ("pos", "bonds")
    assert encode_payload(frame) == payload


def test_an_unpacked_member_overwritten_by_another_is_packed() -> None:
    # the entry's value holds unpacked floats, then a later string member: the oneof keeps the strings
    entry = ld(1, b"x") + ld(2, ld(1, b"\x0d" + struct.pack("<f", 1.0)) + ld(3, ld(1, b"s")))
    payload = ld(2, ld(2, entry))
    want = pb.GetFrameResponse()
    want.frame.arrays["x"].string_values.values.append("s")
    assert pb.GetFrameResponse.FromString(payload) == want
    frame = decode_payload(Kind.TRAJ, payload)
    assert frame == frame_from_message(want) and frame.unpacked is None


def test_recordings_decode_and_encode_by_the_layout() -> None:
    msg = sample_frame()
    p0 = pb.GetFrameResponse(frame=pb.FrameData()).SerializeToString()  # a reset frame: 12 00
    assert p0 == b"\x12\x00"
    p1 = msg.SerializeToString(deterministic=True)
    data = HEADER + record(19053, p0) + record(2**64 + 1, p1)
    rec = decode(data, Kind.TRAJ)
    assert [r.timestamp_us for r in rec.records] == [19053, 2**64 + 1]
    assert [r.message for r in rec.records] == [frame_from_message(pb.GetFrameResponse()), frame_from_message(msg)]
    assert encode(rec) == data
    f = io.BytesIO(data)
    assert [r.message for r in iter_records(f, Kind.TRAJ)] == [r.message for r in rec.records]
    out = io.BytesIO()
    w = RecordingWriter(out)
    w.write(19053, rec.records[0].message)
    w.write_payload(2**64 + 1, p1)
    assert out.getvalue() == data


def test_a_bad_payload_is_located_in_its_record() -> None:
    data = HEADER + record(1, b"\x12\x00") + record(2, b"\x12\x05\x0a")
    for call in (lambda: decode(data, Kind.TRAJ), lambda: list(iter_records(io.BytesIO(data), Kind.TRAJ))):
        with pytest.raises(Malformed) as e:
            call()
        assert e.value.path.startswith("record[1]")
        assert 16 + 26 + 24 <= e.value.offset < len(data)
