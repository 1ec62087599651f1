"""CARLA variant detection's reading of a log's first packets in bulk (conformance/carla/_detect.py,
``_read_prefix`` and ``_FrameShape``), on logs put together byte by byte (tests/build_carla.py) from the
layout in docs/formats/carla.md: packets of a u8 id, a u32 size and the payload; a counted payload
starts with a u16 count; FrameStart (id 0) holds a u64 frame id and two f64 times (24 bytes) and no
count; FrameEnd (id 1) is empty; EventAdd (id 2) records are of a variable size. What each test expects
comes from the bytes packed here with ``struct`` and from the framing in tests/helpers.py
(``carla_packets``), not from the module. Written against the mutants tools/mutate.py makes of the
module (sample 40, seed 7)."""

from __future__ import annotations

import io
import struct
from typing import Any

import pytest
from build_carla import ADD, DEL, FE, FS, HEADER_SIZE, POSITION, STATE, actor, counted, empty_middle, frame, log, packet

from helpers import carla_packets
from recspec.conformance.carla import _detect

USER = 100  # "user-defined packets should use ids >= 100"


def _prefix(data: bytes) -> Any:
    """The prefix read with the file's size unknown: packet by packet, then frame by frame in bulk
    (the way of a file over ``SMALL_PREFIX_BYTES``)."""
    f = io.BytesIO(data)
    f.seek(HEADER_SIZE)
    return _detect._read_prefix(f, HEADER_SIZE, None, bulk=True)


def _shapes_taken(monkeypatch: pytest.MonkeyPatch) -> list[list[tuple[int, int]]]:
    """The frames (id, size of each packet) whose shape the reading takes to read the next frames in bulk."""
    taken: list[list[tuple[int, int]]] = []
    real = _detect._frame_shape

    def spy(packets: list[tuple[int, int]]) -> Any:
        taken.append(list(packets))
        return real(packets)

    monkeypatch.setattr(_detect, "_frame_shape", spy)
    return taken


# --- the bound on a frame read in bulk -----------------------------------------------------------


@pytest.mark.parametrize("packets", [63, 64, 65, 66])
def test_a_frame_of_more_than_64_packets_is_not_read_in_bulk(monkeypatch: pytest.MonkeyPatch, packets: int) -> None:
    """``_FRAME_SHAPE_PACKETS``: "a frame of more packets than this [64] is not read in bulk". A frame of
    FrameStart, ``packets - 2`` empty user packets and FrameEnd has ``packets`` packets."""
    taken = _shapes_taken(monkeypatch)
    middle = [packet(USER, b"")] * (packets - 2)
    data = log(*(frame(i, *middle) for i in range(1, 5)))
    prefix = _prefix(data)
    assert prefix.packets == 4 * packets  # read whole either way
    if packets <= 64:
        assert [len(t) for t in taken] == [packets]
        assert taken[0][0] == (FS, 24) and taken[0][-1] == (FE, 0)
    else:
        assert taken == []


# --- one frame's layout, as one struct call reads it -------------------------------------------


def test_a_frame_shape_reads_each_packets_id_size_and_count() -> None:
    """A frame of FrameStart (24 bytes, no count), a State payload of 3 bytes (a u16 count 0x0102 and a
    byte), a Position payload of 2 (the count 5 alone), an empty EventDel (no count to read) and
    FrameEnd: the shape's one call gives every id and size where the packets are, and each count."""
    fs_payload = struct.pack("<Qdd", 7, 0.05, 0.3)
    state_payload = struct.pack("<HB", 0x0102, 0xAB)
    position_payload = struct.pack("<H", 5)
    body = (packet(FS, fs_payload) + packet(STATE, state_payload) + packet(POSITION, position_payload)
            + packet(DEL, b"") + packet(FE, b""))
    packets = [(FS, 24), (STATE, 3), (POSITION, 2), (DEL, 0), (FE, 0)]
    shape = _detect._FrameShape.of(packets)
    assert shape.size == len(body) == 5 * 5 + 24 + 3 + 2
    assert shape.at == [0, 29, 37, 44, 49]  # each header: the one before it, 5 bytes and its payload later
    assert shape.expected == (FS, 24, STATE, 3, POSITION, 2, DEL, 0, FE, 0)
    # after other bytes, as in a buffer: nothing before the frame's offset is read
    buf = b"\xee" * 11 + body + b"\xee" * 6
    fields = shape.unpack(buf, 11)
    assert shape.shape(fields) == (FS, 24, STATE, 3, POSITION, 2, DEL, 0, FE, 0)
    assert shape.u16s((*fields, -1)) == (-1, 0x0102, 5, -1, -1)
    assert shape.ids == frozenset({STATE, POSITION, DEL})


def test_a_frame_with_other_sizes_does_not_match_the_shape() -> None:
    """The next frame matches only with the same ids and sizes: a State payload of 4 bytes where the
    shape has 3 moves every header after it."""
    packets = [(FS, 24), (STATE, 3), (FE, 0)]
    shape = _detect._FrameShape.of(packets)
    other = packet(FS, bytes(24)) + packet(STATE, bytes(4)) + packet(FE, b"")
    assert shape.shape(shape.unpack(other + bytes(8), 0)) != shape.expected


# --- variable-record payloads of frames read in bulk --------------------------------------------


def test_each_distinct_event_add_of_frames_read_in_bulk_is_counted_once_per_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames 2 to 5 have frame 1's ids and sizes (their EventAdd records are of one size), so they are
    read in bulk; their EventAdd payloads are new (actors 2 and 3) or repeat (actor 3 twice, actor 1
    of frame 1 once more). Each distinct payload: how many copies, and the offset of the first
    copy's payload (its header's offset by the framing, plus 5)."""
    taken = _shapes_taken(monkeypatch)
    adds = [actor(1), actor(2), actor(3), actor(3), actor(1)]
    data = log(*(frame(i + 1, counted(ADD, [a]), *empty_middle()) for i, a in enumerate(adds)))
    prefix = _prefix(data)
    assert len(taken) == 1  # frame 1 packet by packet, the four others in one call each

    add_headers = [at for at, pid, _ in carla_packets(data) if pid == ADD]
    assert len(add_headers) == 5
    payload = {a: struct.pack("<H", 1) + a for a in adds}
    assert {k: v for k, v in prefix.variable.items() if k[0] == ADD} == {
        (ADD, payload[actor(1)]): [2, add_headers[0] + 5],
        (ADD, payload[actor(2)]): [1, add_headers[1] + 5],
        (ADD, payload[actor(3)]): [2, add_headers[2] + 5],
    }
    assert prefix.packets == 5 * 5  # FrameStart, EventAdd, Position, State, FrameEnd in each
