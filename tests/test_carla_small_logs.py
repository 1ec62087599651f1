"""The CARLA check's ways for short logs change no report.

A log of a few frames (the seed corpus's, a writer's test output, a fuzzer's input) is walked
packet by packet; three shorter ways serve it:

* a fixed-record packet is judged from the fields the rules judge (actor ids, flags, enums) alone,
  read by one ``struct`` call (``_Walk._fixed``, ``_judged_fields``), but Collision and EventDel;
* a PhysicsControl or WalkerBones packet is read without its objects (``physics_control_ids``,
  ``walker_bones_scan``) and left there when it decodes and breaks no rule;
* no frame template is built where fewer than two frames of the last one's size remain.

``fast_path=False`` takes none of them, so each test compares whole reports with it, and counts
the packets that took the short way, so that a comparison cannot pass by the way never running.
The scanners are held to ``decode_body``: they accept exactly the payloads it decodes and read
the same ids and names.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_properties import mutations

from recspec.conformance.carla import _check as carla_check
from recspec.errors import DecodeError
from recspec.reference import carla as m
from recspec.reference.carla import (
    VARIANTS,
    PacketReader,
    decode_body,
    decode_header,
    physics_control_ids,
    walker_bones_scan,
)
from recspec.reference.carla import PacketKind as K
from recspec.report import FileReport
from recspec.strategies import carla_logs

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "carla"


def _check(data: bytes, *, fast_path: bool, profile: str = "spec") -> FileReport:
    return carla_check.check_stream(io.BytesIO(data), path="x", variant=None, profile=profile, fast_path=fast_path)


def _payloads(data: bytes, kinds: tuple[K, ...]) -> list[tuple[Any, K, bytes]]:
    """(variant, kind, payload) of every packet of ``kinds`` in a log written in its own variant."""
    _, offset = decode_header(data, 0)
    out = []
    for v in VARIANTS.values():
        f = io.BytesIO(data)
        f.seek(offset)
        try:
            out += [(v, raw.kind, raw.payload) for raw in PacketReader(f, v, offset, len(data)) if raw.kind in kinds]
        except DecodeError:
            pass
    return out


def _edited(data: st.DataObject, payload: bytes) -> bytes:
    """``payload`` as it is, cut, with bytes after it, or with bits flipped (a count, a length)."""
    edit = data.draw(st.sampled_from(("none", "cut", "junk", "flip")), label="edit")
    if edit == "cut":
        return payload[:data.draw(st.integers(0, len(payload)), label="cut at")]
    if edit == "junk":
        return payload + data.draw(st.binary(min_size=1, max_size=9), label="junk")
    if edit == "flip" and payload:
        out = bytearray(payload)
        at = data.draw(st.integers(0, len(out) - 1), label="at")
        out[at] ^= 1 << data.draw(st.integers(0, 7), label="bit")
        return bytes(out)
    return payload


def _decoded(kind: K, payload: bytes, v: Any) -> Any:
    """``decode_body``'s records of the payload, None where it refuses it: what a scan must agree with."""
    try:
        return decode_body(kind, payload, v)
    except DecodeError:
        return None


@given(data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_physics_control_ids_agree_with_decode_body(data: st.DataObject) -> None:
    blob, _ = data.draw(carla_logs(min_frames=1, max_frames=4), label="log")
    for v, kind, payload in _payloads(blob, (K.PHYSICS_CONTROL,)):
        if v.wheel_physics_size is None:
            continue  # UE5: kept as bytes, never scanned
        payload = _edited(data, payload)
        records = _decoded(kind, payload, v)
        ids = physics_control_ids(payload, v.wheel_physics_size)
        assert (ids is None) == (records is None)
        if records is not None:
            assert ids == [r.database_id for r in records]


@given(data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_walker_bones_scan_agrees_with_decode_body(data: st.DataObject) -> None:
    blob, _ = data.draw(carla_logs(min_frames=1, max_frames=4), label="log")
    for v, kind, payload in _payloads(blob, (K.WALKER_BONES,)):
        payload = _edited(data, payload)
        records = _decoded(kind, payload, v)
        scan = walker_bones_scan(payload, v.vec_f64)
        assert (scan is None) == (records is None)
        if records is not None:
            assert scan is not None
            assert scan[0] == [r.database_id for r in records]
            assert scan[1] == [b.name.encode("utf-8", "surrogateescape") for r in records for b in r.bones]


def test_scanners_read_the_stored_fields() -> None:
    """Payloads laid out by hand from the research notes' layouts (not by the encoder)."""
    head = struct.pack("<I5fB4f", 7, 1, 2, 3, 4, 5, 0, 6, 7, 8, 9) + struct.pack("<3f", 0, 0, 1)
    record = head + struct.pack("<I", 1) + struct.pack("<2f", 0, 1) + struct.pack("<I", 0) \
        + struct.pack("<I", 0) + struct.pack("<I", 1) + bytes(36)
    assert physics_control_ids(struct.pack("<H", 1) + record, 36) == [7]
    assert physics_control_ids(struct.pack("<H", 1) + record, 48) is None  # 12 wheel bytes short
    assert physics_control_ids(struct.pack("<H", 2) + record, 36) is None  # the second record is missing
    assert physics_control_ids(b"\x00\x00", 36) == []
    bone = struct.pack("<H", 4) + b"head" + bytes(24)
    bones = struct.pack("<H", 1) + struct.pack("<IH", 9, 2) + bone + struct.pack("<H", 0) + bytes(24)
    assert walker_bones_scan(bones, False) == ([9], [b"head", b""])
    assert walker_bones_scan(bones, True) is None  # f64 vectors: the bones run past the end
    assert walker_bones_scan(bones + b"\x00", False) is None  # a byte after the records


class _Taken:
    """Counts the packets that took each short way while a test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.records = 0
        self.ids = 0
        clean = carla_check._Walk._clean_records
        judged_fields = carla_check._judged_fields

        def counted_clean(walk: Any, kind: K, payload: bytes) -> bool:
            taken = clean(walk, kind, payload)
            self.records += taken
            return taken

        def counted_ids(record: str, count: int) -> Any:
            read = judged_fields(record, count)

            def reading(payload: bytes) -> tuple[int, ...]:
                self.ids += 1
                return read(payload)
            return reading

        monkeypatch.setattr(carla_check._Walk, "_clean_records", counted_clean)
        monkeypatch.setattr(carla_check, "_judged_fields", counted_ids)


@pytest.mark.parametrize("path", sorted(CORPUS.rglob("*.log")), ids=lambda p: p.name)
def test_corpus_logs_give_the_same_report_by_every_way(path: Path) -> None:
    data = path.read_bytes()
    for profile in ("spec", "compat"):
        assert _check(data, fast_path=True, profile=profile).to_json() == \
            _check(data, fast_path=False, profile=profile).to_json()


def test_the_short_ways_run_on_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = _Taken(monkeypatch)

    class Forgetful(dict):  # type: ignore[type-arg]  # keeps no payload judged clean: each one is read
        def keep(self, key: Any, value: Any) -> Any:
            return value

    with monkeypatch.context() as m:
        m.setattr(carla_check, "_clean_fixed", lambda variant: Forgetful())
        _check((CORPUS / "valid" / "0.9.15.log").read_bytes(), fast_path=True)
    # 0.9.15.log, four frames: one PhysicsControl and four WalkerBones packets (two of them empty), all clean;
    # fixed-record packets with records, every id alive and every flag and enum in range: Position 4,
    # AnimWalker 2, VehicleLight 4, AnimBiker 4, Kinematics 4, BoundingBox 1, TrafficLightTime 1, State 4,
    # AnimVehicle 4, SceneLight 1, EventParent 1 (its Collision and EventDel packets take the whole way)
    assert taken.records == 5
    assert taken.ids == 30
    before = taken.records, taken.ids
    _check((CORPUS / "valid" / "0.9.15.log").read_bytes(), fast_path=False)
    assert (taken.records, taken.ids) == before  # the slow way takes none
    carla_check._CLEAN_FIXED.clear()
    _check((CORPUS / "valid" / "0.9.15.log").read_bytes(), fast_path=True)
    read_once = taken.ids - before[1]
    assert 0 < read_once < 30  # payloads judged clean are kept: a payload repeated in later frames is read once
    _check((CORPUS / "valid" / "0.9.15.log").read_bytes(), fast_path=True)
    assert taken.ids == before[1] + read_once  # and none again in the same log checked again


@given(data=st.data())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_short_ways_change_no_report(data: st.DataObject) -> None:
    """Valid logs of every variant and their mutants (dead actors, broken counts and sizes)."""
    blob, _ = data.draw(carla_logs(min_frames=1, max_frames=5), label="log")
    if data.draw(st.booleans(), label="mutate"):
        blob = data.draw(mutations(blob), label="mutated")
    profile = data.draw(st.sampled_from(("spec", "compat")), label="profile")
    assert _check(blob, fast_path=True, profile=profile).to_json() == \
        _check(blob, fast_path=False, profile=profile).to_json()


def test_a_dead_actor_in_a_short_way_packet_is_found_where_the_whole_way_finds_it() -> None:
    """Position and PhysicsControl records of an actor never added: CARLA-ACTOR-001 at the record's id."""
    v = VARIANTS["0.9.15"]

    def p(kind: K, body: Any) -> m.Packet:
        return m.Packet(kind, body, v.id_of[kind])

    vec = m.Vec3(0.0, 0.0, 0.0)
    physics = m.PhysicsControl(5, 1.0, 2.0, 3.0, 4.0, 5.0, 0, 6.0, 7.0, 8.0, 9.0, vec, (), (), (), ())
    packets = (p(K.FRAME_START, m.FrameStart(1, -1.0, 0.0)),
               p(K.POSITION, (m.Position(5, vec, m.Rotator(0.0, 0.0, 0.0)),)),
               p(K.PHYSICS_CONTROL, (physics,)), p(K.FRAME_END, m.FrameEnd()))
    data = m.encode(m.Recording(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD"), packets), variant=v)
    report = carla_check.check_stream(io.BytesIO(data), path="x", variant=v, profile="spec")
    found = [(f.rule, f.path, f.actual) for f in report.findings if f.rule == "CARLA-ACTOR-001"]
    assert found == [("CARLA-ACTOR-001", "frame[0]/packet[1]:Position/record[0].database_id", 5),
                     ("CARLA-ACTOR-001", "frame[0]/packet[2]:PhysicsControl/record[0].database_id", 5)]


def test_a_flag_or_enum_out_of_range_is_found_where_the_whole_way_finds_it() -> None:
    """A State whose frozen flag is 2 and light state 3 (0.9.4-0.9.5 has three: 0..2), and a SceneLight whose
    light group is 5 (0..4): CARLA-VALUE-001, -ENUM-002 and -ENUM-004 at the record."""
    v = VARIANTS["0.9.4-0.9.5"]

    def p(kind: K, body: Any) -> m.Packet:
        return m.Packet(kind, body, v.id_of[kind])

    vec = m.Vec3(0.0, 0.0, 0.0)
    add = m.EventAdd(4, 1, vec, m.Rotator(0.0, 0.0, 0.0), 1, "traffic.light", ())
    packets = (p(K.FRAME_START, m.FrameStart(1, -1.0, 0.0)), p(K.EVENT_ADD, (add,)),
               p(K.STATE, (m.TrafficLightState(4, 2, 1.5, 3),)), p(K.FRAME_END, m.FrameEnd()))
    data = m.encode(m.Recording(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD"), packets), variant=v)
    report = carla_check.check_stream(io.BytesIO(data), path="x", variant=v, profile="spec")
    state = "frame[0]/packet[2]:State/record[0]"
    assert [(f.rule, f.path, f.actual) for f in report.findings if f.path.startswith(state)] == [
        ("CARLA-VALUE-001", f"{state}.is_frozen", 2), ("CARLA-ENUM-002", f"{state}.state", 3)]
    v = VARIANTS["0.9.10-0.9.11"]
    light = m.SceneLight(3, 1.0, m.Color(1.0, 1.0, 1.0, 1.0), 1, 5)
    packets = (p(K.FRAME_START, m.FrameStart(1, -1.0, 0.0)), m.Packet(K.SCENE_LIGHT, (light,), v.id_of[K.SCENE_LIGHT]),
               m.Packet(K.FRAME_END, m.FrameEnd(), v.id_of[K.FRAME_END]))
    data = m.encode(m.Recording(m.Header(1, "CARLA_RECORDER", 1_700_000_000, "Town10HD"), packets), variant=v)
    report = carla_check.check_stream(io.BytesIO(data), path="x", variant=v, profile="spec")
    assert ("CARLA-ENUM-004", "frame[0]/packet[1]:SceneLight/record[0].light_group", 5) in \
        [(f.rule, f.path, f.actual) for f in report.findings]


def test_a_short_log_builds_no_frame_template(monkeypatch: pytest.MonkeyPatch) -> None:
    """0.9.15.log: four frames, each smaller than the one before and of its own shape; the rest of the file
    after each holds fewer than two frames of its size."""
    built = []
    inner = carla_check.build_template

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        return inner(*args, **kwargs)

    monkeypatch.setattr(carla_check, "build_template", counted)
    report = _check((CORPUS / "valid" / "0.9.15.log").read_bytes(), fast_path=True)
    assert report.stats["frames"] == 4 and report.findings == []
    assert built == []
