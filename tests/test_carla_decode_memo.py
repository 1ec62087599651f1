"""``decode`` keeps ``decode_body``'s answers across logs by (variant, packet id, payload)
(``_decode._BODIES``, and ``_LARGE_BODIES`` for payloads of 257 to 4,096 bytes): a recording decoded
with answers kept is the one decoded packet by packet with nothing kept (``iter_packets``), and a log
that does not decode raises the same first error, whether its payloads were seen before or not."""

from __future__ import annotations

import io
import random
import struct
from pathlib import Path
from typing import Any

import pytest

from recspec.errors import DecodeError
from recspec.fuzz import carla
from recspec.reference.carla import VARIANTS, _decode
from recspec.reference.carla import _model as m
from recspec.reference.carla._decode import decode, read_header

REPO = Path(__file__).resolve().parent.parent
CORPUS = sorted((REPO / "corpus" / "carla").glob("*/*.log"))


def _inputs() -> list[bytes]:
    files = [p.read_bytes()[:8192] for p in CORPUS]
    rng = random.Random(11)
    return files + [carla.mutate(rng.choice(files), 8192, i) for i in range(120)]


def _packet_by_packet(data: bytes, variant: Any) -> tuple[str, Any]:
    """The recording (as text: a NaN equals itself there) or the error, decoding each packet on its own."""
    try:
        f = io.BytesIO(data)
        header, _ = read_header(f)
        f.seek(0)
        packets = tuple(_decode.iter_packets(f, variant, len(data)))
    except DecodeError as e:
        return "error", (type(e).__name__, e.message, e.offset, e.path, getattr(e, "rule", None))
    return "recording", repr(m.Recording(header, packets))


def _kept(data: bytes, variant: Any) -> tuple[str, Any]:
    try:
        rec = decode(data, variant)
    except DecodeError as e:
        return "error", (type(e).__name__, e.message, e.offset, e.path, getattr(e, "rule", None))
    return "recording", repr(rec)


@pytest.mark.parametrize("variant", ["0.9.15", "0.9.4-0.9.5", "ue5"])
def test_decode_with_answers_kept_is_the_packet_by_packet_decoding(variant: str) -> None:
    v = VARIANTS[variant]
    _decode._BODIES.clear()
    _decode._LARGE_BODIES.clear()
    outcomes = set()
    for data in _inputs():
        slow = _packet_by_packet(data, v)
        assert _kept(data, v) == slow, data[:40]  # answers kept from the logs before it
        assert _kept(data, v) == slow, data[:40]  # every payload of its own kept now
        outcomes.add(slow[0])
    assert outcomes == {"error", "recording"}  # both ways compared
    assert len(_decode._BODIES) > 0
    assert len(_decode._LARGE_BODIES) > 0  # the corpus's first frames hold EventAdd packets of more than 256 bytes


def test_a_payload_kept_under_one_variant_is_decoded_again_under_another() -> None:
    # a Position record is 28 bytes under a 0.9.x layout of f32 vectors, 52 under UE5's f64 vectors: the
    # same payload decodes under the first and is a size misfit (CARLA-PACKET-001) under the second
    f32, f64 = VARIANTS["0.9.15"], VARIANTS["ue5"]
    assert not f32.vec_f64 and f64.vec_f64
    position = next(pid for pid, k in f32.ids.items() if k is m.PacketKind.POSITION)
    assert f64.ids[position] is m.PacketKind.POSITION
    record = struct.pack("<I3f3f", 1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert len(record) == 28
    payload = struct.pack("<H", 1) + record
    header = struct.pack("<H", 1) + struct.pack("<H", 14) + b"CARLA_RECORDER" + struct.pack("<q", 1_700_000_000) \
        + struct.pack("<H", 4) + b"Town"
    log = header + bytes([position]) + struct.pack("<I", len(payload)) + payload
    _decode._BODIES.clear()
    _decode._LARGE_BODIES.clear()
    assert decode(log, f32).packets[0].body[0].database_id == 1
    with pytest.raises(DecodeError) as e:
        decode(log, f64)
    assert e.value.rule == "CARLA-PACKET-001"
    assert e.value.offset == len(header) + 5


def test_a_variant_of_its_own_keeps_nothing() -> None:
    import dataclasses

    own = dataclasses.replace(VARIANTS["0.9.15"])
    assert own is not VARIANTS["0.9.15"]
    _decode._BODIES.clear()
    _decode._LARGE_BODIES.clear()
    data = CORPUS[0].read_bytes()[:8192]
    assert _kept(data, own) == _packet_by_packet(data, own)
    assert len(_decode._BODIES) == len(_decode._LARGE_BODIES) == 0


def test_payloads_of_each_size_are_kept_up_to_4096_bytes() -> None:
    from build_carla import ADD, actor, counted, frame, log

    v = VARIANTS["0.9.4-0.9.5"]
    sizes = {}
    for n in (1, 4, 40):  # EventAdd payloads of 2 + 46 * n bytes (an actor of "vehicle.a" and no attribute)
        data = log(frame(1, counted(ADD, [actor(i) for i in range(n)]), last=True))
        _decode._BODIES.clear()
        _decode._LARGE_BODIES.clear()
        first, again = decode(data, v), decode(data, v)
        assert first == again
        size = 2 + 46 * n
        sizes[size] = (first.packets[1].body is again.packets[1].body, len(_decode._BODIES), len(_decode._LARGE_BODIES))
    assert sizes == {48: (True, 3, 0), 186: (True, 3, 0), 1842: (True, 2, 1)}  # FrameStart, FrameEnd and it
    data = log(frame(1, counted(ADD, [actor(i) for i in range(100)]), last=True))  # 4,602 bytes: not kept
    assert decode(data, v).packets[1].body is not decode(data, v).packets[1].body


def test_an_event_add_scan_is_kept_by_payload_and_width() -> None:
    from build_carla import actor, counted

    from recspec.reference.carla import _scan

    payload = counted(2, [actor(1), actor(2)])[5:]  # two records of 46 bytes after the u16 count
    _scan._SCAN_KEPT.clear()
    narrow = _scan.scan_event_add(payload, False)
    assert narrow is not None and [r[1] for r in narrow.records] == [1, 2]
    assert _scan.scan_event_add(bytes(payload), False) is narrow  # an equal payload, another object
    assert _scan.scan_event_add(payload, True) is None  # f64 vectors: the records do not add up
    assert _scan.scan_event_add(payload, False) is narrow  # the other width did not replace it


def test_a_log_in_a_bytearray_or_a_view_decodes_as_in_bytes() -> None:
    v = VARIANTS["0.9.15"]
    data = next(p for p in CORPUS if p.name == "0.9.15.log").read_bytes()
    expected = _kept(data, v)
    assert expected[0] == "recording"
    assert _kept(bytearray(data), v) == expected  # type: ignore[arg-type]
    assert _kept(memoryview(data), v) == expected  # type: ignore[arg-type]
