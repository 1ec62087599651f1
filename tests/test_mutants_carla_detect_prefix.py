"""CARLA detection's small-file reading (conformance/carla/_detect.py, ``_read_small_prefix``) asked about a
file larger than it frames whole: it hands the file to the packet-by-packet reading, whose prefix ends at
the 64th FrameEnd (DETECTION_PREFIX_FRAMES). The log is put together from the layout in docs/formats/carla.md
(tests/build_carla.py): frames of FrameStart, an empty Position (id 6), an empty State (id 7) and FrameEnd,
4 packets and 48 bytes each (29 + 7 + 7 + 5)."""

from __future__ import annotations

import io

from build_carla import POSITION, STATE, counted, frame, header

from recspec.conformance.carla import _detect


def test_a_file_past_the_small_bound_is_read_packet_by_packet() -> None:
    n = 400
    head = header()
    body = b"".join(frame(i, counted(POSITION, []), counted(STATE, []), last=i == n) for i in range(1, n + 1))
    assert len(body) == 48 * n > _detect.SMALL_PREFIX_BYTES
    data = head + body
    f = io.BytesIO(data)
    f.seek(len(head))
    small = _detect._read_small_prefix(f, len(head), len(data))
    f.seek(len(head))
    walked = _detect._read_prefix(f, len(head), len(data), bulk=False)
    assert small.packets == walked.packets == 64 * 4
    assert dict(small.frames) == dict(walked.frames) == {frozenset({POSITION, STATE}): 64}
    assert small.shapes == walked.shapes
    # each shape (id, payload size, the u16 a counted payload starts with; -1 for FrameStart's and FrameEnd's
    # payloads, which hold no count): 64 packets, the first in frame 1
    first = {key: value[:2] for key, value in small.shapes.items()}
    assert first == {(0, 24, -1): [64, len(head)], (POSITION, 2, 0): [64, len(head) + 29],
                     (STATE, 2, 0): [64, len(head) + 36], (1, 0, -1): [64, len(head) + 43]}
