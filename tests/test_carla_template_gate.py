"""Templates are made only where a frame of the next one's size follows it, and ``_format``'s answers are kept.

A template's making and its first frame cost more than walking that frame packet by packet, so the checker
makes one only where the frame after the next one has the next one's size (``_check._two_frames_alike``):
a log whose frames are each unlike the next (a fuzzer's inputs: a few frames, each mutated) is walked packet by
packet, a steady log is still proved in bulk. Either way the report is the packet-by-packet walk's.
``_frames._format_kept`` keeps a frame's struct format across frames and files; a template made from a kept
answer reads and proves as one made afresh.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable
from typing import Any

import pytest
from test_carla_bulk_frames import DELTA, V, _added, _body, _BulkCount, _log, _packet, _same

from recspec.conformance.carla import _check as carla_check
from recspec.conformance.carla import _frames
from recspec.reference import carla as m
from recspec.reference.carla import PacketKind as K
from recspec.reference.carla import encode

HEADER = m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD")


def _alternating(frames: int, unlike: int | None = None) -> bytes:
    """A clean 0.9.15 log whose odd frames (before frame ``unlike``, if given) hold two Position records and the
    others three: no frame of the first ``unlike`` has the size of the next (a Position record is 28 bytes)."""
    def edit(i: int, body: list[m.Packet]) -> None:
        if i % 2 and (unlike is None or i < unlike):
            body[5] = _packet(K.POSITION, body[5].body[:2])

    return _edited_log(frames, edit)


def _edited_log(frames: int, edit: Callable[[int, list[m.Packet]], None]) -> bytes:
    """A clean 0.9.15 log of ``frames`` frames, timed as CARLA writes them, the ACTORS added in frame 0, each
    frame's body (``_body``) changed in place by ``edit(index, body)``."""
    packets: list[m.Packet] = []
    at = 0.0
    for i in range(frames):
        body = _body(i)
        if i == 0:
            body[1] = _packet(K.EVENT_ADD, _added())
        edit(i, body)
        duration = DELTA if i < frames - 1 else -1.0
        packets += [_packet(K.FRAME_START, m.FrameStart(i + 1, duration, at)), *body,
                    _packet(K.FRAME_END, m.FrameEnd())]
        at += DELTA
    return encode(m.Recording(HEADER, tuple(packets)), variant=V)


class _Builds:
    """Counts ``build_template``'s calls in the checker while a test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        inner = carla_check.build_template

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return inner(*args, **kwargs)

        monkeypatch.setattr(carla_check, "build_template", counted)


def _offsets(data: bytes, kind: K) -> list[int]:
    """The offsets of the packets of ``kind``, by framing the log (not by the search the gate makes)."""
    f = io.BytesIO(data)
    _, offset = m.read_header(f)
    return [raw.offset for raw in m.PacketReader(f, V, offset, len(data)) if raw.kind is kind]


def test_frames_each_unlike_the_next_make_no_template(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _alternating(12)
    starts = _offsets(data, K.FRAME_START)
    sizes = {b - a for a, b in itertools.pairwise(starts[1:])}  # after frame 0 (its EventAdd)
    assert sizes == {271, 299}  # one Position record (28 bytes) apart
    builds, bulk = _Builds(monkeypatch), _BulkCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == [] and report.stats["frames"] == 12 and report.stats["position_records"] == 30
    assert builds.calls == 0 and bulk.frames == 0  # every frame walked packet by packet


def test_a_steady_run_after_unlike_frames_is_still_proved_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    # frames 0..3 alternate (1 and 3 hold two Positions); from frame 4 on every frame holds three: frame 2 has the
    # steady size but is followed by frame 3, so the template is made at frame 4 and proves frames 4..39
    data = _alternating(40, unlike=4)
    builds, bulk = _Builds(monkeypatch), _BulkCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == [] and report.stats["frames"] == 40 and report.stats["position_records"] == 118
    assert builds.calls == 1 and bulk.frames == 36


def test_a_payload_holding_a_frame_boundary_changes_no_report(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first Position record of frame 5 holds the bytes of a FrameEnd header and a FrameStart header in its
    # location (floats: no rule reads them): the search takes frame 5 to end there, which only decides whether
    # a template is tried; the frames are clean and the report is the packet-by-packet walk's
    boundary = carla_check._FRAME_BOUNDARY
    data = bytearray(_log(12))
    location = _offsets(bytes(data), K.POSITION)[5] + 5 + 2 + 4  # header, count, the first record's id
    data[location:location + len(boundary)] = boundary
    assert bytes(data).find(boundary, _offsets(bytes(data), K.FRAME_START)[5]) == location
    bulk = _BulkCount(monkeypatch)
    report = _same(bytes(data), V)
    assert report.findings == [] and report.stats["frames"] == 12
    assert bulk.frames >= 5  # the steady frames after it are still proved in bulk


def test_a_kept_format_makes_the_same_template(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _log(30)
    monkeypatch.setattr(_frames, "_FORMATS", _frames.BoundedMemo(_frames._FORMATS_MAX))
    made: list[Any] = []
    inner = carla_check.build_template

    def kept(*args: Any, **kwargs: Any) -> Any:
        t = inner(*args, **kwargs)
        made.append(t)
        return t

    monkeypatch.setattr(carla_check, "build_template", kept)
    cold = _same(data, V)
    assert len(_frames._FORMATS) >= 1
    warm = _same(data, V)
    assert cold.to_json() == warm.to_json()
    templates = [t for t in made if t is not None]
    first, again = templates[0], templates[-1]
    assert first is not again and first.key == again.key
    assert first._roles is not again._roles  # each template its own list
    fresh = _frames._format(list(_fields_of(first)))
    assert (fresh[0], fresh[1]) == (again._format, again._roles)


def _fields_of(t: _frames.FrameTemplate) -> list[tuple[int, str, Any]]:
    """The fields (offset, code, role) a template's format reads, from its format and roles."""
    out: list[tuple[int, str, Any]] = []
    at = 0
    roles = iter(t._roles)
    for count, code in re.findall(r"(\d*)([a-zA-Z])", t._format):
        if code == "x":
            at += int(count or 1)
            continue
        for _ in range(int(count or 1)):
            out.append((at, code, next(roles)))
            at += _frames._width(code)
    return out


def test_large_frames_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_frames, "_FORMATS", _frames.BoundedMemo(_frames._FORMATS_MAX))
    monkeypatch.setattr(_frames, "_FORMATS_FIELDS_MAX", 8)  # every frame of _log has more fields than this
    _same(_log(10), V)
    assert len(_frames._FORMATS) == 0


def _wide_log(frames: int, actors: int) -> bytes:
    """A clean 0.9.15 log like ``_log``'s whose Position packet holds ``actors`` more records (28 bytes each)."""
    extra = tuple(range(1000, 1000 + actors))
    vec, rot = m.Vec3(1.0, 2.0, 3.0), m.Rotator(0.0, 90.0, 0.0)

    def edit(i: int, body: list[m.Packet]) -> None:
        if i == 0:
            body[1] = _packet(K.EVENT_ADD, body[1].body + tuple(
                m.EventAdd(a, 1, vec, rot, 1, "vehicle.a", ()) for a in extra))
        body[5] = _packet(K.POSITION, body[5].body + tuple(m.Position(a, vec, rot) for a in extra))

    return _edited_log(frames, edit)


def test_frames_two_of_which_pass_the_buffer_are_still_proved_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    # frames of about 140 KB: the frame after the next one ends past the reader's buffered bytes (READ_BLOCK,
    # 256 KB, from the frame's start), where the gate cannot tell its size: it lets the template be tried
    from recspec.reference.carla._decode import READ_BLOCK

    frames = 8
    data = _wide_log(frames, 5000)
    starts = _offsets(data, K.FRAME_START)
    size = starts[3] - starts[2]
    assert 2 * size > READ_BLOCK and {b - a for a, b in itertools.pairwise(starts[1:])} == {size}
    bulk = _BulkCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == [] and report.stats["frames"] == frames
    assert bulk.frames >= frames - 3  # frame 0 (its EventAdd) and the template's own frame are walked
