"""Whole frames proved clean in bulk (``conformance/carla/_frames.py``) change no report.

The bulk path reads a run of frames of one shape with one ``struct`` call and only
proves them clean; anything it cannot prove is walked packet by packet, so each
finding keeps its offset and path. Every test here compares the default check with
``fast_path=False`` (every packet walked) on the whole JSON report, and counts the
frames the bulk path took, so that a comparison cannot pass by the bulk path never
running.
"""

from __future__ import annotations

import io
import math
import struct
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_properties import mutations

from helpers import draws_independent_of_imports, real_file
from recspec.conformance.carla import _check as carla_check
from recspec.errors import DecodeError
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS, Variant, encode
from recspec.reference.carla import PacketKind as K
from recspec.report import FileReport
from recspec.strategies import carla_logs, carla_recordings

NAMES = tuple(VARIANTS)


def _check(data: bytes, *, fast_path: bool, variant: Variant | None = None, profile: str = "spec") -> FileReport:
    return carla_check.check_stream(io.BytesIO(data), path="x", variant=variant, profile=profile,
                                    fast_path=fast_path)


class _BulkCount:
    """Counts the frames ``_Walk.bulk_frames`` steps past while a test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.frames = 0
        inner = carla_check._Walk.bulk_frames

        def counted(walk: Any, reader: Any) -> int:
            n = inner(walk, reader)
            self.frames += n
            return n

        monkeypatch.setattr(carla_check._Walk, "bulk_frames", counted)


def _same(data: bytes, variant: Variant | None = None, profile: str = "spec") -> FileReport:
    fast = _check(data, fast_path=True, variant=variant, profile=profile)
    slow = _check(data, fast_path=False, variant=variant, profile=profile)
    assert fast.to_json() == slow.to_json()
    return fast


# --- a steady log: 0.9.15, the same actors in every frame --------------------------------

V = VARIANTS["0.9.15"]
ACTORS = (7, 8, 9)
DELTA = 0.05


def _added() -> tuple[m.EventAdd, ...]:
    """Frame 0's EventAdd records: the ACTORS as they are at the call (a test may widen them), vehicles at the
    origin."""
    return tuple(m.EventAdd(a, 1, m.Vec3(0.0, 0.0, 0.0), m.Rotator(0.0, 0.0, 0.0), 1, "vehicle.a", ()) for a in ACTORS)


def _packet(kind: K, body: Any) -> m.Packet:
    """A 0.9.15 packet of ``kind`` holding ``body``."""
    return m.Packet(kind, body, V.id_of[kind])


def _body(frame: int, state: int = 1, handbrake: int = 0, actor: int = 9, deleted: tuple[int, ...] = ()
          ) -> list[m.Packet]:
    vec = m.Vec3(1.0 * frame, 2.0, 3.0)
    rot = m.Rotator(0.0, 90.0, 0.0)
    return [
        _packet(K.VISUAL_TIME, m.VisualTime(0.1 * frame)),
        _packet(K.EVENT_ADD, ()), _packet(K.EVENT_DEL, tuple(map(m.EventDel, deleted))), _packet(K.EVENT_PARENT, ()),
        _packet(K.COLLISION, ()),
        _packet(K.POSITION, tuple(m.Position(a if a != 9 else actor, vec, rot) for a in ACTORS)),
        _packet(K.STATE, (m.TrafficLightState(8, 0, 1.5, state),)),
        _packet(K.ANIM_VEHICLE, (m.AnimVehicle(7, 0.1, 0.5, 0.0, handbrake, 3),)),
        _packet(K.ANIM_WALKER, (m.AnimWalker(9, 1.2),)),
        _packet(K.VEHICLE_LIGHT, (m.VehicleLight(7, 1),)),
        _packet(K.ANIM_VEHICLE_WHEELS, (m.AnimVehicleWheels(7, tuple(m.WheelAnim(w, 0.0, 1.0) for w in range(4))),)),
        _packet(K.ANIM_BIKER, ()),
    ]


def _log(frames: int, **changes: Any) -> bytes:
    """A 0.9.15 log of ``frames`` frames; ``changes`` maps a frame index to keyword
    arguments of ``_body`` or to a (duration, elapsed) override."""
    packets: list[m.Packet] = []
    at = 0.0
    for i in range(frames):
        body = _body(i, **changes.get(f"body{i}", {}))
        if i == 0:
            body[1] = _packet(K.EVENT_ADD, _added())
        duration, elapsed = changes.get(f"time{i}", (DELTA if i < frames - 1 else -1.0, at))
        at += DELTA  # the writer's arithmetic: each elapsed is the previous one plus its durationThis
        packets += [_packet(K.FRAME_START, m.FrameStart(changes.get(f"id{i}", i + 1), duration, elapsed)), *body,
                    _packet(K.FRAME_END, m.FrameEnd())]
    return encode(m.Recording(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD"), tuple(packets)), variant=V)


def test_a_steady_log_is_proved_clean_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 300
    data = _log(n)
    count = _BulkCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == []
    assert report.stats["frames"] == n and report.stats["position_records"] == 3 * n
    assert count.frames == n - 1  # every frame but the first (it adds the actors)


#: A fault in one frame of a steady log (``_log``'s changes) and the rule that reports it.
FAULTS = [
    ({"body150": {"state": 9}}, "CARLA-ENUM-002"),
    ({"body77": {"handbrake": 2}}, "CARLA-VALUE-001"),
    ({"body200": {"actor": 12}}, "CARLA-ACTOR-001"),
    ({"id120": 500}, "CARLA-FRAME-003"),
    ({"time50": (DELTA, 99.0)}, "CARLA-FRAME-004"),
    ({"time31": (-0.5, 0.0)}, "CARLA-FRAME-008"),
    ({"time90": (math.nan, 0.0)}, "CARLA-FRAME-010"),
    ({"time16": (DELTA, math.inf)}, "CARLA-FRAME-010"),
]


@pytest.mark.parametrize(("changes", "rule"), FAULTS)
def test_a_fault_inside_a_steady_run_is_located_by_the_walk(monkeypatch: pytest.MonkeyPatch, changes: dict[str, Any],
                                                            rule: str) -> None:
    data = _log(260, **changes)
    count = _BulkCount(monkeypatch)
    report = _same(data, V)
    assert rule in {f.rule for f in report.findings}
    assert 200 < count.frames < 259  # the frames around the fault were walked packet by packet


def test_a_frame_above_the_template_bounds_is_walked_packet_by_packet(monkeypatch: pytest.MonkeyPatch) -> None:
    from recspec.conformance.carla._frames import MAX_FRAME

    many = tuple(range(7, 7 + MAX_FRAME // 28 + 10))  # one Position packet above MAX_FRAME
    monkeypatch.setattr(sys.modules[__name__], "ACTORS", many)
    data = _log(4)
    count = _BulkCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == [] and report.stats["position_records"] == 4 * len(many)
    assert count.frames == 0


def test_a_cut_steady_log_gives_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _log(100)
    count = _BulkCount(monkeypatch)
    for cut in (1, 5, 37, 400):
        report = _same(data[:-cut], V)
        assert {f.rule for f in report.findings} & {"CARLA-STREAM-001", "CARLA-FRAME-007"}
    assert count.frames > 0


def test_a_size_argument_smaller_than_the_file_stops_the_bulk_path_there(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _log(80)
    count = _BulkCount(monkeypatch)
    size = len(data) - 1000
    fast = carla_check.check_stream(io.BytesIO(data), path="x", variant=V, profile="spec", size=size)
    slow = carla_check.check_stream(io.BytesIO(data), path="x", variant=V, profile="spec", size=size,
                                    fast_path=False)
    assert fast.to_json() == slow.to_json()
    assert any(f.rule == "CARLA-STREAM-001" for f in fast.findings)
    assert count.frames > 0


def test_flipped_bytes_in_a_steady_log_give_the_same_report() -> None:
    data = bytearray(_log(40))
    frame = len(data) // 40
    for at in range(len(data) - 12 * frame, len(data) - 11 * frame):  # every byte of one frame in the middle
        for bit in (0, 7):
            data[at] ^= 1 << bit
            _same(bytes(data), V)
            data[at] ^= 1 << bit


@pytest.mark.parametrize("name", ["carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log"])
def test_real_logs_are_proved_clean_in_bulk(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    data = real_file(name).read_bytes()
    count = _BulkCount(monkeypatch)
    for profile in ("spec", "compat"):
        report = _same(data, None, profile)
    assert count.frames > 0.9 * 2 * report.stats["frames"]


# --- every variant: generated logs, valid, invalid and mutated ------------------------------

@pytest.mark.parametrize("name", NAMES, ids=NAMES)
@given(data=st.data(), profile=st.sampled_from(("spec", "compat")), detect=st.booleans())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bulk_frames_change_no_report(name: str, data: st.DataObject, profile: str, detect: bool) -> None:
    """Valid logs (whose later frames the bulk path proves clean when no event happens in
    them), the same logs after bit flips, a cut or a rewritten size, and invalid logs: the
    same report with and without the bulk path."""
    kind = data.draw(st.sampled_from(("valid", "mutated", "invalid")), label="kind")
    blob, v = data.draw(carla_logs(name, min_frames=2, max_frames=8, valid=kind != "invalid"), label="log")
    if kind == "mutated":
        blob = data.draw(mutations(blob), label="mutated")
    _same(blob, None if detect else v, profile)


def test_generated_valid_logs_do_take_the_bulk_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The property above is not vacuous: some generated logs have frames proved clean in bulk."""
    count = _BulkCount(monkeypatch)

    @given(log=carla_logs("0.9.15", min_frames=6, max_frames=8))
    @settings(max_examples=30, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    def run(log: tuple[bytes, Variant]) -> None:
        _check(log[0], fast_path=True, variant=log[1])

    run()
    assert count.frames > 0


def test_struct_format_of_a_template_reads_its_fields() -> None:
    """The template's one-frame format spans the frame exactly (the FrameEnd header last)."""
    from recspec.conformance.carla._frames import build_template

    data = _log(3)
    _, offset = m.decode_header(data, 0)
    first = struct.unpack_from("<BI", data, offset)[1]
    # skip frame 0 packet by packet, then build the template of frame 1
    pos = offset
    while True:
        pid, size = struct.unpack_from("<BI", data, pos)
        pos += 5 + size
        if pid == V.id_of[K.FRAME_END]:
            break
    walk = carla_check._Walk(V, None)  # type: ignore[arg-type]  # the sink is not used here
    t = build_template(lambda n: (data, pos), None, V, walk.order, walk.required, m.MAX_PACKET_SIZE)
    assert t is not None and first == 24
    assert struct.calcsize("<" + t._format) == t.size
    assert t.packets == 14 and t.position_records == 3


# --- frames equal to a reference where it is judged --------------------------------------------


class _ReferenceCount:
    """Counts the frames ``Reference.run`` proves while a test runs, and holds each of its
    proofs to the template's field-by-field reading of the same frames (``FrameTemplate.match``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from recspec.conformance.carla._frames import BATCHES, Reference

        self.frames = 0
        self.runs = 0
        inner = Reference.run

        def checked(ref: Any, buf: bytes, i: int, fit: int, prev: Any, alive: set[int], follow: Any = None) -> Any:
            n, last = out = inner(ref, buf, i, fit, prev, alive, follow)
            t = ref.template
            if last is not None:
                assert 1 <= n <= fit
                assert t.match(buf, i, n, prev, alive, follow) == last
                self.frames += n
                self.runs += 1
            else:  # the field-by-field reading proves no batch of more than n frames from here
                assert 0 <= n <= fit
                for k in BATCHES:
                    if n < k <= fit:
                        assert t.match(buf, i, k, prev, alive, follow) is None
            return out

        monkeypatch.setattr(Reference, "run", checked)


def test_a_steady_log_is_proved_by_its_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _log(300)
    count = _ReferenceCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == []
    assert count.frames > 250  # all but the first frames proved field by field


@pytest.mark.parametrize(("changes", "rule"), FAULTS)
def test_a_fault_after_reference_frames_is_located_by_the_walk(monkeypatch: pytest.MonkeyPatch,
                                                               changes: dict[str, Any], rule: str) -> None:
    data = _log(260, **changes)
    count = _ReferenceCount(monkeypatch)
    report = _same(data, V)
    assert rule in {f.rule for f in report.findings}
    assert count.frames > 150


def test_an_actor_deleted_between_runs_is_not_alive_for_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames after a frame that deletes an actor have the reference's bytes, but refer to
    the dead actor: the walk finds them, the reference proves none of them."""
    data = _log(120, body60={"deleted": (9,)})
    count = _ReferenceCount(monkeypatch)
    report = _same(data, V)
    assert report.capped["CARLA-ACTOR-001"] == 2 * 60  # Position and AnimWalker, in the frame and each after it
    assert 30 < count.frames < 60


def test_judged_values_that_change_but_stay_valid_move_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flag, an enum and an actor id that change in the middle of runs (every value valid):
    no finding, and the frames after each change are proved against the new reference."""
    changes: dict[str, Any] = {}
    for i in range(40, 300):
        changes[f"body{i}"] = {"handbrake": int(i >= 100), "state": 1 + (i // 70) % 3, "actor": 8 if i % 90 < 45 else 9}
    data = _log(300, **changes)
    count = _ReferenceCount(monkeypatch)
    report = _same(data, V)
    assert report.findings == []
    assert count.frames > 150 and count.runs > 10


def _frames_of(rec: m.Recording) -> list[list[m.Packet]]:
    frames: list[list[m.Packet]] = []
    for p in rec.packets:
        if p.kind is K.FRAME_START:
            frames.append([])
        elif p.kind is not K.FRAME_END:
            frames[-1].append(p)
    return frames


_EVENT_KINDS = (K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION)


@st.composite
def steady_logs(draw: Any, name: str) -> tuple[bytes, int]:
    """A valid recording of ``name`` followed by runs of copies of its frames' bodies with no
    event (so long runs of frames of one shape; a copy of a frame whose actors were deleted
    later refers to dead actors) and single copies with their events (actors added again,
    deleted again or for the first time between runs), then bit flips, cuts and rewritten sizes, or bytes
    overwritten inside the copies, or nothing. Returns the log and where the copies start."""
    rec = draw(carla_recordings(name, min_frames=1, max_frames=4), label="recording")
    v = VARIANTS[name]
    bodies = _frames_of(rec)
    runs = draw(st.lists(st.tuples(st.integers(0, len(bodies) - 1), st.integers(1, 40), st.booleans()),
                         min_size=1, max_size=5), label="runs")
    quiet = [[m.Packet(p.kind, (), p.packet_id) if p.kind in _EVENT_KINDS else p for p in body] for body in bodies]
    # a run with its events repeats the frame once: its EventDels delete actors the runs after it may refer to
    sequence = bodies + [body for j, n, events in runs for body in ([bodies[j]] if events else [quiet[j]] * n)]
    packets: list[m.Packet] = []
    elapsed = 0.0
    for i, body in enumerate(sequence):
        last = i == len(sequence) - 1
        duration = -1.0 if last else 0.05
        packets += [m.Packet(K.FRAME_START, m.FrameStart(i + 1, duration, elapsed), v.id_of[K.FRAME_START]), *body,
                    m.Packet(K.FRAME_END, m.FrameEnd(), v.id_of[K.FRAME_END])]
        elapsed += 0.05
    blob = encode(m.Recording(rec.header, tuple(packets)), variant=v)
    copies = len(encode(m.Recording(rec.header, tuple(p for p in packets[:len(rec.packets)])), variant=v))
    kind = draw(st.sampled_from(("valid", "edited", "mutated")), label="kind")
    if kind == "mutated":
        blob = draw(mutations(blob), label="mutated")
    elif kind == "edited":
        data = bytearray(blob)
        for at in draw(st.lists(st.integers(copies, len(data) - 1), min_size=1, max_size=6), label="at"):
            data[at] = draw(st.integers(0, 255), label="byte")
        blob = bytes(data)
    return blob, copies


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
@given(data=st.data(), profile=st.sampled_from(("spec", "compat")), detect=st.booleans())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_reference_frames_change_no_report(name: str, data: st.DataObject, profile: str, detect: bool) -> None:
    """Long runs of frames of one shape, valid, with bytes overwritten inside the runs
    (judged fields among them: counts, actor ids, flags, enums) or mutated: the same
    report with and without the bulk path, and every run ``Reference.run`` proves is one
    ``FrameTemplate.match`` proves too."""
    blob, _ = data.draw(steady_logs(name), label="log")
    with pytest.MonkeyPatch.context() as patch:
        _ReferenceCount(patch)
        _same(blob, None if detect else VARIANTS[name], profile)


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
def test_steady_generated_logs_do_take_the_reference(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The property above is not vacuous: each variant's steady logs have frames proved by a reference."""
    count = _ReferenceCount(monkeypatch)

    @given(log=steady_logs(name))
    @settings(max_examples=15, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    def run(log: tuple[bytes, int]) -> None:
        _check(log[0], fast_path=True, variant=VARIANTS[name])

    with draws_independent_of_imports():
        run()
    assert count.frames > 0


# --- variant detection reads frames of one shape in bulk too ----------------------------------


def _prefix(data: bytes, bulk: bool, size: int | None = None) -> tuple[Any, ...]:
    from recspec.conformance.carla._detect import _read_prefix

    _, offset = m.decode_header(data, 0)
    f = io.BytesIO(data)
    f.seek(offset)
    p = _read_prefix(f, offset, size, bulk=bulk)
    return p.packets, list(p.shapes.items()), dict(p.frames), list(p.variable.items())  # frames: in any order


def test_detection_prefix_of_real_and_steady_logs_is_the_same_in_bulk() -> None:
    logs = [_log(100), _log(30, body7={"actor": 12}, time9=(math.nan, 0.0))]
    logs += [real_file(name).read_bytes() for name in ("carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log")]
    for data in logs:
        for size in (None, len(data), len(data) - 700):
            assert _prefix(data, True, size) == _prefix(data, False, size)


@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_detection_prefix_is_the_same_in_bulk(data: st.DataObject) -> None:
    blob, _ = data.draw(carla_logs(min_frames=2, max_frames=8), label="log")
    if data.draw(st.booleans(), label="mutate"):
        blob = data.draw(mutations(blob), label="mutated")
    try:
        m.decode_header(blob, 0)
    except DecodeError:
        return  # no header: detection is not asked
    assert _prefix(blob, True) == _prefix(blob, False)


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
@given(data=st.data())
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_detection_prefix_of_steady_logs_is_the_same_in_bulk(name: str, data: st.DataObject) -> None:
    """Runs of frames of one shape, whose record counts repeat (counted once per run of equal
    counts) or change, valid, edited or mutated: the same prefix read in bulk and packet by packet."""
    blob, _ = data.draw(steady_logs(name), label="log")
    try:
        m.decode_header(blob, 0)
    except DecodeError:
        return  # no header: detection is not asked
    for size in (None, len(blob)):
        assert _prefix(blob, True, size) == _prefix(blob, False, size)


# --- a small file's prefix is framed whole, its shapes made by C loops ---------------------------------


def _small_prefix(data: bytes, size: int) -> tuple[Any, ...]:
    from recspec.conformance.carla._detect import _read_small_prefix

    _, offset = m.decode_header(data, 0)
    f = io.BytesIO(data)
    f.seek(offset)
    p = _read_small_prefix(f, offset, size)
    return p.packets, list(p.shapes.items()), dict(p.frames), list(p.variable.items())


def _walked_prefix(data: bytes, size: int) -> tuple[Any, ...]:
    packets, shapes, frames, variable = _prefix(data, False, size)
    return packets, shapes, dict(frames), variable


@given(data=st.data())
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_detection_prefix_of_a_small_file_is_the_packet_by_packet_one(data: st.DataObject) -> None:
    """Valid and mutated logs of every variant, cut at any size (a packet past it, or past the
    file, ends the prefix): the same packets, shapes in the same order, frames and variable payloads."""
    blob, _ = data.draw(carla_logs(min_frames=1, max_frames=8), label="log")
    if data.draw(st.booleans(), label="mutate"):
        blob = data.draw(mutations(blob), label="mutated")
    try:
        _, offset = m.decode_header(blob, 0)
    except DecodeError:
        return  # no header: detection is not asked
    size = data.draw(st.sampled_from([len(blob), len(blob) - 1, len(blob) + 9, offset])
                     | st.integers(offset, len(blob)), label="size")
    assert _small_prefix(blob, size) == _walked_prefix(blob, size)


def _small_log(*packets: bytes) -> bytes:
    return m.encode_header(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD")) + b"".join(packets)


FRAME_START = struct.pack("<BIQdd", 0, 24, 1, 0.0, 0.0)
FRAME_END = b"\x01\0\0\0\0"


@pytest.mark.parametrize("log, packets", [
    (_small_log(FRAME_END * 20_000), 64),  # the 64th FrameEnd ends it
    (_small_log(b"\x05\x02\0\0\0\0\0" * 20_000), 16_384),  # so does the packet cap
    (_small_log((FRAME_START + b"\x02\x02\0\0\0\x01\0" + FRAME_END) * 100), 192),
    (_small_log(FRAME_START, b"\x05\xff\xff\xff\x00"), 1),  # a packet above the size limit
    (_small_log(FRAME_START, b"\x05\x09\0\0\0\x01\0"), 1),  # a payload past the end of the file
    (_small_log(FRAME_START, b"\x05\x02"), 1),  # a header past the end of the file
])
def test_the_small_prefix_ends_where_the_packet_by_packet_one_does(log: bytes, packets: int) -> None:
    for size in (len(log), len(log) - 3, len(log) // 2):
        small = _small_prefix(log, size)
        assert small == _walked_prefix(log, size)
    assert _small_prefix(log, len(log))[0] == packets


# --- flag and enum bytes judged as lanes of one integer -------------------------------------------


@given(data=st.data())
@settings(max_examples=300, deadline=None)
def test_lanes_in_range_is_every_byte_below_its_bound(data: st.DataObject) -> None:
    """The lane arithmetic of ``Reference`` against a byte-by-byte reading: lanes next to one
    another, bounds of 1 to 256, values anywhere in 0..255, one frame or several in a row."""
    from recspec.conformance.carla._frames import lane_patterns, lanes_in_range

    size = data.draw(st.integers(2, 24), label="size")
    offsets = data.draw(st.sets(st.integers(0, size - 2), max_size=size - 1), label="lanes")
    lanes = tuple((at, data.draw(st.integers(1, 256), label="n")) for at in sorted(offsets))
    k = data.draw(st.integers(1, 4), label="frames")
    frames = data.draw(st.binary(min_size=size * k, max_size=size * k), label="bytes")
    if data.draw(st.booleans(), label="in range"):  # a value below its bound in every lane, mostly the largest
        edit = bytearray(frames)
        for j in range(k):
            for at, n in lanes:
                edit[j * size + at] = min(n - 1, data.draw(st.sampled_from((255, 0, n - 2 if n > 1 else 0))))
        frames = bytes(edit)
    mask, add, carries = (int.from_bytes(p * k, "little") for p in lane_patterns(size, lanes))
    expected = all(frames[j * size + at] < n for j in range(k) for at, n in lanes)
    assert lanes_in_range(int.from_bytes(frames, "little"), mask, add, carries) is expected


# --- frames that lack a packet the variant writes in every frame (CARLA-FRAME-011) --------------------------------

def _log_lacking(frames: int, dropped: frozenset[K], since: int = 0, *, shuffle_at: int | None = None,
                 segments: list[tuple[int, frozenset[K]]] | None = None) -> bytes:
    """``_log(frames)`` with the packets of ``dropped`` left out of every frame from ``since`` on (each such frame
    breaks CARLA-FRAME-011), and at ``shuffle_at`` a frame whose VisualTime comes last as well; ``segments``: runs
    of (frames, kinds left out) instead, one after another."""
    drops = [k for n, kinds in segments or () for k in [kinds] * n]
    packets: list[m.Packet] = []
    at = 0.0
    for i in range(frames):
        body = _body(i)
        if i == 0:
            body[1] = _packet(K.EVENT_ADD, _added())
        if segments is not None:
            body = [q for q in body if q.kind not in drops[i]]
        elif i >= since:
            body = [q for q in body if q.kind not in dropped]
        if i == shuffle_at:
            body = body[1:] + body[:1]
        packets += [_packet(K.FRAME_START, m.FrameStart(i + 1, DELTA if i < frames - 1 else -1.0, at)), *body,
                    _packet(K.FRAME_END, m.FrameEnd())]
        at += DELTA
    return encode(m.Recording(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD"), tuple(packets)), variant=V)


@pytest.mark.parametrize("profile", ["spec", "compat"])
@pytest.mark.parametrize(("dropped", "since", "shuffle_at"), [
    (frozenset((K.ANIM_BIKER,)), 0, None),
    (frozenset((K.VISUAL_TIME, K.POSITION)), 40, None),
    (frozenset((K.ANIM_WALKER, K.STATE)), 120, 180),
])
def test_frames_lacking_a_packet_are_proved_in_bulk_once_the_rule_only_counts(
        monkeypatch: pytest.MonkeyPatch, profile: str, dropped: frozenset[K], since: int, shuffle_at: int | None
) -> None:
    """Past CARLA-FRAME-011's stored findings (100), frames of one shape that lack a packet are proved in bulk,
    each counting one; the report is the packet-by-packet walk's (hostile.py carla-empty-frames)."""
    n = 400
    data = _log_lacking(n, dropped, since, shuffle_at=shuffle_at)
    walked = []  # the frames walked packet by packet
    frame_start = carla_check._Walk.frame_start
    monkeypatch.setattr(carla_check._Walk, "frame_start", lambda walk, raw: walked.append(1) or frame_start(walk, raw))
    report = _check(data, fast_path=True, variant=V, profile=profile)
    monkeypatch.undo()
    assert report.to_json() == _check(data, fast_path=False, variant=V, profile=profile).to_json()
    assert report.verdicts["spec"].rules.get("CARLA-FRAME-011") == n - since
    stored = [f for f in report.findings if f.rule == "CARLA-FRAME-011"]
    assert len(stored) == 100 and stored[-1].path == f"frame[{since + 99}]/packet[{13 - len(dropped)}]:FrameEnd"
    # frames before ``since`` are clean (the steady path), and most of those from the 101st lacking frame on
    # are taken in bulk (by a template, or as repeats of the frame before: _repeat_frames): walked are the first
    # frame, the 100 lacking frames whose finding is stored, and a few (the first of a shape, the shuffled one,
    # the boundaries the bulk path waits out after failing)
    assert len(walked) <= 1 + 100 + 40


def test_frames_lacking_a_packet_are_walked_while_the_rule_stores_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 100
    data = _log_lacking(n, frozenset((K.ANIM_BIKER,)))
    count = _BulkCount(monkeypatch)
    report = _same(data, V)
    assert count.frames == 0 and len([f for f in report.findings if f.rule == "CARLA-FRAME-011"]) == 100


@given(segments=st.lists(st.tuples(st.integers(1, 90), st.sampled_from([
    frozenset(), frozenset((K.ANIM_BIKER,)), frozenset((K.VISUAL_TIME, K.POSITION)), frozenset((K.STATE,))])),
    min_size=1, max_size=5), profile=st.sampled_from(("spec", "compat")), cut=st.integers(0, 400))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_runs_of_frames_lacking_packets_change_no_report(segments: list[tuple[int, frozenset[K]]], profile: str,
                                                         cut: int) -> None:
    n = sum(k for k, _ in segments)
    data = _log_lacking(n, frozenset(), segments=segments)
    _same(data[:len(data) - cut] if cut < 50 else data, V, profile)
