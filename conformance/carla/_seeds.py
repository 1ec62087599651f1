"""The CARLA seed corpus, built by the reference encoder.

``seeds()`` yields every corpus file with what a correct checker must say about
it. The expectations are written here by hand, from what each file was built to
break, not computed by the checker: ``tools/make_corpus.py`` writes the files
and ``corpus/carla/manifest.json``, and the test suite checks the checker
against them (and that the committed files are what this module builds, byte
for byte).

Valid files: one per variant, with every packet kind the variant defines.
Invalid files: each named after the one rule it breaks.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, cast

from recspec.formats import HeaderDamage, Seed
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS, Variant, encode, encode_packet
from recspec.reference.carla import PacketKind as K

__all__ = ["DAMAGED_HEADERS", "EDGE_FRAMES", "Seed", "edge_packets", "seeds", "valid_packets"]

HEADER = m.Header(1, "CARLA_RECORDER", 1700000000, "Town10HD_Opt")
DELTA = 0.05  # a binary fraction would hide rounding; 0.05 exercises the exact elapsed chain


def _v(x: float, y: float, z: float) -> m.Vec3:
    return m.Vec3(x, y, z)


def _rot(r: float, p: float, y: float) -> m.Rotator:
    return m.Rotator(r, p, y)


def _actors(v: Variant) -> tuple[m.EventAdd, ...]:
    attr_base = v.attribute_types[0]  # 0-based or 1-based numbering of the variant
    return (
        m.EventAdd(1, 0, _v(0, 0, 500), _rot(0, -30, 90), 0, "spectator"),
        m.EventAdd(10, 3, _v(1000, 2000, 0), _rot(0, 0, 180), 0, "traffic.traffic_light"),
        m.EventAdd(20, 1, _v(1500, 2500, 30), _rot(0, 0, 90), 17, "vehicle.lincoln.mkz_2017", (
            m.ActorAttribute(attr_base + 3, "role_name", "hero"),
            m.ActorAttribute(attr_base + 1, "number_of_wheels", "4"),
            m.ActorAttribute(attr_base + 4, "color", "16,16,16"),
        )),
        m.EventAdd(21, 1, _v(1800, 2500, 30), _rot(0, 0, 90), 12, "vehicle.diamondback.century", (
            m.ActorAttribute(attr_base + 1, "number_of_wheels", "2"),
        )),
        m.EventAdd(30, 2, _v(1600, 2600, 90), _rot(0, 0, 0), 40, "walker.pedestrian.0001", (
            m.ActorAttribute(attr_base + 0, "is_invincible", "false"),
        )),
    )


def _wheel_physics(v: Variant) -> m.WheelPhysics:
    wide = v.wheel_physics_size == 48
    return m.WheelPhysics(3.5, 0.25, 70.0, 35.5, 1500.0, 3000.0,
                          3.0 if wide else None, 17.0 if wide else None, 1000.0 if wide else None,
                          _v(120.0, -80.0, 0.0))


def _physics(v: Variant) -> m.PhysicsControl | None:
    if v.wheel_physics_size is None:
        return None
    return m.PhysicsControl(
        20, 5000.0, 1.0, 0.15, 2.0, 0.35, 1, 10.0, 4.0, 1845.0, 0.3, _v(0.0, 0.0, -0.5),
        (m.CurvePoint(0.0, 400.0), m.CurvePoint(1890.0, 500.0)),
        (m.GearPhysics(3.5, 0.2, 0.65), m.GearPhysics(2.0, 0.5, 0.65)),
        (m.CurvePoint(0.0, 1.0), m.CurvePoint(120.0, 0.5)),
        tuple(_wheel_physics(v) for _ in range(4)),
    )


def _body(v: Variant, kind: K, frame: int, alive: set[int]) -> m.Fixed | tuple[m.Record, ...] | bytes | None:
    """The body of one packet kind in frame ``frame`` (1-based), or None to skip it."""
    t = frame * DELTA
    movers = sorted(a for a in alive if a in (20, 21, 30))
    if kind is K.VISUAL_TIME:
        return m.VisualTime(737.5 + t)
    if kind is K.EVENT_ADD:
        return _actors(v) if frame == 1 else ()
    if kind is K.EVENT_DEL:
        return (m.EventDel(30),) if frame == 3 else ()
    if kind is K.EVENT_PARENT:
        return (m.EventParent(1, 20),) if frame == 1 else ()
    if kind is K.COLLISION:
        return (m.Collision(1, 20, 21, 1, 0), m.Collision(2, 20, 0xFFFFFFFF, 1, 0)) if frame == 2 else ()
    if kind is K.VEHICLE_DOOR:
        return (m.VehicleDoor(20, 0, 1), m.VehicleDoor(20, 5, 0)) if frame == 2 else ()
    if kind is K.POSITION:
        return tuple(m.Position(a, _v(1500.0 + a + 100 * t, 2500.0, 30.0), _rot(0.0, 0.0, 90.0)) for a in movers)
    if kind is K.STATE:
        return (m.TrafficLightState(10, 0, t, frame % 3),)
    if kind is K.ANIM_VEHICLE:
        return (m.AnimVehicle(20, 0.1, 0.5, 0.0, 0, 1), m.AnimVehicle(21, 0.0, 0.2, 0.0, 0, 1))
    if kind is K.ANIM_WALKER:
        return tuple(m.AnimWalker(30, 140.0) for a in movers if a == 30)
    if kind is K.VEHICLE_LIGHT:
        return (m.VehicleLight(20, 0x1 | 0x8), m.VehicleLight(21, 0))
    if kind is K.SCENE_LIGHT:
        return (m.SceneLight(5, 1200.0, m.Color(1.0, 0.9, 0.8, 1.0), 1, 2),) if frame == 1 else None
    if kind is K.KINEMATICS:
        return tuple(m.Kinematics(a, _v(1.0, 0.0, 0.0), _v(0.0, 0.0, 0.5)) for a in movers if a in (20, 21)) or None
    if kind is K.BOUNDING_BOX:
        if frame != 1:
            return ()
        return tuple(m.BoundingBox(a, _v(0.0, 0.0, 70.0), _v(240.0, 95.0, 75.0)) for a in (20, 21))
    if kind is K.TRIGGER_VOLUME:
        return None
    if kind is K.PLATFORM_TIME:
        return m.PlatformTime(0.001 + t)
    if kind is K.PHYSICS_CONTROL:
        if frame != 1:
            return None
        p = _physics(v)
        if p is None:  # UE5: layout not researched; a count, an actor id and opaque bytes, kept raw
            return struct.pack("<HI", 1, 20) + bytes(range(40))
        return (p,)
    if kind is K.TRAFFIC_LIGHT_TIME:
        return (m.TrafficLightTime(10, 10.0, 3.0, 5.0),) if frame == 1 else None
    if kind is K.WALKER_BONES:
        if 30 not in alive:
            return ()
        return (m.WalkerBones(30, (
            m.WalkerBone("crl_root", _v(0.0, 0.0, 0.0), _rot(0.0, 0.0, 0.0)),
            m.WalkerBone("crl_hips__C", _v(0.0, 0.0, 95.0), _rot(0.0, 90.0, 0.0)),
        )),)
    if kind is K.ANIM_VEHICLE_WHEELS:
        return (m.AnimVehicleWheels(20, tuple(m.WheelAnim(i, 5.0 if i < 2 else 0.0, 36.0 * frame) for i in range(4))),
                m.AnimVehicleWheels(21, tuple(m.WheelAnim(i, 0.0, 20.0 * frame) for i in range(2))))
    if kind is K.ANIM_BIKER:
        return (m.AnimBiker(21, 250.0, 0.4),)
    raise AssertionError(kind)


#: The steady frames of an edge seed: after the four of ``valid_packets``, frames without events, of
#: one shape, that the bulk frame proof takes whole (a template, then a run compared with it).
EDGE_FRAMES = 8


def _edge_body(v: Variant, kind: K, frame: int, alive: set[int]) -> m.Fixed | tuple[m.Record, ...] | bytes | None:
    """``_body``, with every flag and enum a rule judges at its edge values (a flag 1, an enum at its largest
    value) in some frame, and, in the steady frames, flags and enums that change from frame to frame, so that
    one byte's mutation puts each just out of range in a frame the bulk proof judges (``edge_packets``)."""
    t = frame * DELTA
    steady = frame > 4
    if kind is K.STATE:  # is_frozen and the variant's last traffic-light state, alternating
        odd = frame % 2
        return (m.TrafficLightState(10, odd, t, v.traffic_light_states - 1 if odd else frame % 3),)
    if kind is K.VEHICLE_DOOR and steady:  # door 6 (the last of CARLA's seven), open and shut in turn
        return (m.VehicleDoor(20, 6, frame % 2), m.VehicleDoor(21, frame % 7, 1))
    if kind is K.ANIM_VEHICLE:  # the handbrake pulled every other frame
        return (m.AnimVehicle(20, 0.1, 0.5, 0.0, frame % 2, 1), m.AnimVehicle(21, 0.0, 0.2, 0.0, 1, 1))
    if kind is K.SCENE_LIGHT and frame == 1:  # light group 4, the last of five
        return (m.SceneLight(5, 1200.0, m.Color(1.0, 0.9, 0.8, 1.0), 1, 4), m.SceneLight(6, 0.0,
                m.Color(0.0, 0.0, 0.0, 0.0), 0, 0))
    if kind is K.COLLISION and frame == 2:
        return (m.Collision(1, 20, 21, 1, 1), m.Collision(2, 21, 0xFFFFFFFF, 0, 0))
    if kind is K.TRIGGER_VOLUME and frame == 1:  # the traffic light's, written with the additional data
        return (m.TriggerVolume(10, _v(-150.0, 20.0, 0.0), _v(240.0, 180.0, 100.0)),)
    return _body(v, kind, frame, alive)


def edge_packets(v: Variant) -> list[m.Packet]:
    """A log CARLA could have written for ``v`` whose judged fields sit at the edges of their ranges: the four
    frames of ``valid_packets`` (actors come, collide, open doors and go), then steady frames the bulk proof
    takes whole, whose flags and enums differ from the template's (``_edge_body``)."""
    return valid_packets(v, EDGE_FRAMES, _edge_body)


def valid_packets(v: Variant, frames: int = 4,
                  body: Callable[[Variant, K, int, set[int]], m.Fixed | tuple[m.Record, ...] | bytes | None] | None
                  = None) -> list[m.Packet]:
    """A log CARLA could have written for variant ``v``, as packets (header separate); ``body`` gives each
    packet's body (``_body`` by default)."""
    from ._check import WRITER_ORDER

    body = body or _body

    out: list[m.Packet] = []
    alive: set[int] = set()
    elapsed = 0.0
    for frame in range(1, frames + 1):
        if frame > 1:
            elapsed = elapsed + DELTA
        duration = DELTA if frame < frames else -1.0
        out.append(m.Packet(K.FRAME_START, m.FrameStart(frame, duration, elapsed)))
        if frame == 1:
            alive |= {a.database_id for a in _actors(v)}
        for kind in WRITER_ORDER[v.name]:
            content = body(v, kind, frame, alive)
            if kind is K.EVENT_DEL and content:
                alive -= {r.database_id for r in cast("tuple[m.EventDel, ...]", content)}  # an EventDel body
            if content is not None:
                out.append(m.Packet(kind, content))
        out.append(m.Packet(K.FRAME_END, m.FrameEnd()))
    return out


def _log(v: Variant, packets: list[m.Packet], header: m.Header = HEADER) -> bytes:
    return encode(m.Recording(header, tuple(packets)), variant=v)


def _valid(rules: tuple[str, ...] = (), compat_rules: tuple[str, ...] | None = None,
           verdict: str = "valid", compat_verdict: str | None = None) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {"spec": (verdict, rules),
            "compat": (compat_verdict or verdict, rules if compat_rules is None else compat_rules)}


def _index(packets: list[m.Packet], kind: K, nth: int = 0) -> int:
    return [i for i, p in enumerate(packets) if p.kind is kind][nth]


def _invalid_cases(v: Variant) -> Iterator[tuple[str, bytes, dict[str, tuple[str, tuple[str, ...]]], str]]:
    """(rule id, bytes, expectations, description) for each rule a file can break."""
    base = valid_packets(v)
    good = _log(v, base)
    hdr_len = 2 + 16 + 8 + 2 + len(HEADER.map_name)

    def with_packets(edit: Callable[[list[m.Packet]], object]) -> bytes:
        ps = list(base)
        edit(ps)
        return _log(v, ps)

    yield ("CARLA-HEADER-001", _log(v, base, replace(HEADER, magic="CARLA_RECORDEX")),
           _valid(("CARLA-HEADER-001",), verdict="malformed"), "magic string is CARLA_RECORDEX")
    yield ("CARLA-HEADER-002", _log(v, base, replace(HEADER, version=2)),
           _valid(("CARLA-HEADER-002",), verdict="invalid", compat_verdict="valid"), "header version 2")
    yield ("CARLA-HEADER-003", _log(v, base, replace(HEADER, date=-2208988800)),
           _valid(("CARLA-HEADER-003",), ()), "date 1900-01-01 in Unix time (the document's wrong epoch)")
    yield ("CARLA-HEADER-004", _log(v, base, replace(HEADER, map_name="")),
           _valid(("CARLA-HEADER-004",), ()), "empty map name")
    bad_utf8 = good[:hdr_len - len(HEADER.map_name)] + b"Town\xff\xfe_Opt!!" + good[hdr_len:]
    yield ("CARLA-STRING-001", bad_utf8, _valid(("CARLA-STRING-001",), verdict="malformed"),
           "map name holds bytes that are not UTF-8")
    yield ("CARLA-STRING-002", _log(v, base, replace(HEADER, map_name="Town01\x00old")),
           _valid(("CARLA-STRING-002",), ()), "map name with an embedded NUL")

    i = _index(base, K.POSITION)
    start = len(_log(v, base[:i]))
    pos_bytes = encode_packet(base[i], v)
    grown = pos_bytes[:1] + struct.pack("<I", len(pos_bytes) - 5 + 1) + pos_bytes[5:] + b"\x00"
    yield ("CARLA-PACKET-001", good[:start] + grown + good[start + len(pos_bytes):],
           _valid(("CARLA-PACKET-001",), verdict="malformed"), "Position packet one byte longer than its records")
    yield ("CARLA-PACKET-002", with_packets(lambda ps: ps.insert(2, m.Packet(K.RAW, b"\x01\x02\x03", 50))),
           _valid(("CARLA-PACKET-002",), ()), "packet id 50, which no CARLA variant defines, inside frame 1")
    yield ("CARLA-PACKET-004",
           with_packets(lambda ps: ps.insert(_index(ps, K.FRAME_END), m.Packet(K.FRAME_COUNTER, m.FrameCounter(1)))),
           _valid(("CARLA-PACKET-004",), ()), "a FrameCounter packet, which CARLA never writes to files")
    yield ("CARLA-STREAM-001", good[:len(good) - 40], _valid(("CARLA-STREAM-001",), verdict="malformed"),
           "the last 40 bytes cut off, inside a packet")
    yield ("CARLA-STREAM-002", good + b"\xff\xff\xff", _valid(("CARLA-STREAM-002",), verdict="malformed"),
           "three 0xFF bytes after the last FrameEnd")
    yield ("CARLA-FRAME-001", with_packets(lambda ps: ps.append(m.Packet(K.EVENT_DEL, ()))),
           _valid(("CARLA-FRAME-001",), verdict="invalid"), "an EventDel packet after the last FrameEnd")

    def drop_first_end(ps: list[m.Packet]) -> None:
        del ps[_index(ps, K.FRAME_END)]
    yield ("CARLA-FRAME-002", with_packets(drop_first_end), _valid(("CARLA-FRAME-002",), verdict="invalid"),
           "frame 1 has no FrameEnd")

    def retime(ps: list[m.Packet], n: int, **changes: Any) -> None:
        j = _index(ps, K.FRAME_START, n)
        start = cast(m.FrameStart, ps[j].body)  # a FrameStart packet's body
        ps[j] = m.Packet(K.FRAME_START, replace(start, **changes))
    yield ("CARLA-FRAME-003", with_packets(lambda ps: retime(ps, 2, frame_id=7)),
           _valid(("CARLA-FRAME-003",), verdict="invalid"), "frame ids 1, 2, 7, 4")
    yield ("CARLA-FRAME-004", with_packets(lambda ps: retime(ps, 1, duration_this=0.06)),
           _valid(("CARLA-FRAME-004",), verdict="invalid"), "frame 2's durationThis does not lead to frame 3's elapsed")
    yield ("CARLA-FRAME-005", with_packets(lambda ps: (retime(ps, 0, elapsed=DELTA / 2, duration_this=DELTA / 2))),
           _valid(("CARLA-FRAME-005",), verdict="invalid"), "frame 1 starts at elapsed 0.025 (the chain still holds)")
    yield ("CARLA-FRAME-006", with_packets(lambda ps: retime(ps, 3, duration_this=DELTA)),
           _valid(("CARLA-FRAME-006",), verdict="invalid", compat_verdict="valid"),
           "the last frame's durationThis is 0.05, not -1.0")
    yield ("CARLA-FRAME-007", with_packets(lambda ps: ps.pop()),
           _valid(("CARLA-FRAME-007",), verdict="invalid"), "the last FrameEnd is missing (cut at a packet boundary)")
    yield ("CARLA-FRAME-008", with_packets(lambda ps: retime(ps, 1, duration_this=-1.0)),
           _valid(("CARLA-FRAME-008",), verdict="invalid"), "frame 2 keeps the -1.0 placeholder")
    yield ("CARLA-FRAME-009", _log(v, []), _valid(("CARLA-FRAME-009",)), "a header and no frame")
    yield ("CARLA-FRAME-010", with_packets(lambda ps: (retime(ps, 3, elapsed=float("inf")))),
           _valid(("CARLA-FRAME-004", "CARLA-FRAME-010"), verdict="invalid"),
           "the last frame's elapsed is infinite (which also breaks the elapsed chain)")
    yield ("CARLA-FRAME-011", with_packets(lambda ps: ps.pop(_index(ps, K.POSITION, 1))),
           _valid(("CARLA-FRAME-011",), (), verdict="invalid", compat_verdict="valid"),
           "frame 2 has no Position packet, which CARLA writes in every frame")

    def swap_add_del(ps: list[m.Packet]) -> None:
        a, d = _index(ps, K.EVENT_ADD, 1), _index(ps, K.EVENT_DEL, 1)
        ps[a], ps[d] = ps[d], ps[a]
    yield ("CARLA-ORDER-001", with_packets(swap_add_del), _valid(("CARLA-ORDER-001",), ()),
           "frame 2 writes EventDel before EventAdd")
    yield ("CARLA-ORDER-002", with_packets(lambda ps: ps.insert(_index(ps, K.EVENT_DEL, 1), m.Packet(K.EVENT_ADD, ()))),
           _valid(("CARLA-ORDER-002",), ()), "frame 2 has two EventAdd packets")

    def ghost_position(ps: list[m.Packet]) -> None:
        j = _index(ps, K.POSITION, 1)
        ps[j] = m.Packet(K.POSITION, ps[j].body + (m.Position(99, _v(0, 0, 0), _rot(0, 0, 0)),))  # type: ignore[operator]
    yield ("CARLA-ACTOR-001", with_packets(ghost_position), _valid(("CARLA-ACTOR-001",), verdict="invalid"),
           "a Position record for actor 99, never added")
    yield ("CARLA-ACTOR-002", with_packets(lambda ps: ps.__setitem__(_index(ps, K.EVENT_ADD, 1),
                                                                     m.Packet(K.EVENT_ADD, (_actors(v)[2],)))),
           _valid(("CARLA-ACTOR-002",), verdict="invalid"), "actor 20 added again in frame 2")
    yield ("CARLA-ACTOR-003", with_packets(lambda ps: ps.__setitem__(_index(ps, K.EVENT_DEL, 1),
                                                                     m.Packet(K.EVENT_DEL, (m.EventDel(77),)))),
           _valid(("CARLA-ACTOR-003",), verdict="invalid"), "EventDel of actor 77, never added")

    def add_type(ps: list[m.Packet]) -> None:
        j = _index(ps, K.EVENT_ADD, 1)
        ps[j] = m.Packet(K.EVENT_ADD,
                         (m.EventAdd(50, v.actor_types - 1, _v(0, 0, 0), _rot(0, 0, 0), 0, "static.prop.box"),))
    yield ("CARLA-ENUM-001", with_packets(add_type), _valid(("CARLA-ENUM-001",), verdict="invalid"),
           "an actor of type INVALID")

    def light_state(ps: list[m.Packet]) -> None:
        j = _index(ps, K.STATE, 1)
        ps[j] = m.Packet(K.STATE, (m.TrafficLightState(10, 0, 0.1, 9),))
    yield ("CARLA-ENUM-002", with_packets(light_state), _valid(("CARLA-ENUM-002",), verdict="invalid"),
           "traffic-light state 9")
    if K.VEHICLE_DOOR in v.id_of:
        def door(ps: list[m.Packet]) -> None:
            j = _index(ps, K.VEHICLE_DOOR, 1)
            ps[j] = m.Packet(K.VEHICLE_DOOR, (m.VehicleDoor(20, 8, 1),))
        yield ("CARLA-ENUM-003", with_packets(door), _valid(("CARLA-ENUM-003",), verdict="invalid"), "door 8")
    if K.SCENE_LIGHT in v.id_of:
        def group(ps: list[m.Packet]) -> None:
            j = _index(ps, K.SCENE_LIGHT)
            ps[j] = m.Packet(K.SCENE_LIGHT, (m.SceneLight(5, 1200.0, m.Color(1, 1, 1, 1), 1, 9),))
        yield ("CARLA-ENUM-004", with_packets(group), _valid(("CARLA-ENUM-004",), verdict="invalid"), "light group 9")

    def attr_type(ps: list[m.Packet]) -> None:
        j = _index(ps, K.EVENT_ADD, 1)
        ps[j] = m.Packet(K.EVENT_ADD, (m.EventAdd(50, 0, _v(0, 0, 0), _rot(0, 0, 0), 0, "static.prop.box",
                                                  (m.ActorAttribute(40, "size", "big"),)),))
    yield ("CARLA-ENUM-005", with_packets(attr_type), _valid(("CARLA-ENUM-005",), ()), "attribute type 40")

    def hero_flag(ps: list[m.Packet]) -> None:
        j = _index(ps, K.COLLISION, 1)
        ps[j] = m.Packet(K.COLLISION, (m.Collision(1, 20, 21, 2, 0),))
    yield ("CARLA-VALUE-001", with_packets(hero_flag), _valid(("CARLA-VALUE-001",), ()), "is-hero flag 2")


def seeds() -> Iterator[Seed]:
    """Every CARLA corpus file, valid ones first, in a stable order."""
    for v in VARIANTS.values():
        yield Seed(f"valid/{v.name}.log", _log(v, valid_packets(v)), v.name, _valid(),
                   f"{v.title}: every packet kind the variant defines")
    for v in VARIANTS.values():
        yield Seed(f"valid/{v.name}-edges.log", _log(v, edge_packets(v)), v.name, _valid(),
                   f"{v.title}: every flag and enum a rule judges at its edge (a flag 1, an enum's last value), "
                   "then steady frames the bulk proof takes whole, their flags and enums changing frame by frame")
    for rule, variant, data, expect, description in _least_breaks():
        yield Seed(f"invalid/{rule}-least.log", data, variant, expect, description)
    v15 = VARIANTS["0.9.15"]
    user = valid_packets(v15)
    user.insert(len(user) - 1, m.Packet(K.RAW, b"recspec user data", 120))
    yield Seed("valid/0.9.15-user-packet.log", _log(v15, user), "0.9.15", _valid(),
               "a user packet (id 120) before the last FrameEnd: an info finding, still valid")
    for rule, data, expect, description in _invalid_cases(v15):
        yield Seed(f"invalid/{rule}.log", data, "0.9.15", expect, description)
    # Doors exist only after 0.9.15: that rule's file uses the 0.9.16 numbering.
    v16 = VARIANTS["0.9.16"]
    for rule, data, expect, description in _invalid_cases(v16):
        if rule == "CARLA-ENUM-003":
            yield Seed(f"invalid/{rule}.log", data, "0.9.16", expect, description)


def _least_breaks() -> Iterator[tuple[str, str, bytes, dict[str, tuple[str, tuple[str, ...]]], str]]:
    """(rule, variant, bytes, expectations, description): each flag and enum rule broken by the least amount
    (the first value outside the range: an off-by-one at the edge is then judged on the seed itself), in the
    edge seed's last steady frame but one, which the bulk frame proof judges (a template or a run)."""
    def edit(v: Variant, kind: K, change: Callable[[Any], Any], last: int = 2) -> bytes:
        ps = edge_packets(v)
        j = [i for i, p in enumerate(ps) if p.kind is kind][-last]
        body = cast("tuple[Any, ...]", ps[j].body)
        ps[j] = m.Packet(kind, (change(body[0]), *body[1:]))
        return _log(v, ps)

    v15, v16 = VARIANTS["0.9.15"], VARIANTS["0.9.16"]
    yield ("CARLA-VALUE-001", v15.name, edit(v15, K.STATE, lambda r: replace(r, is_frozen=2)),
           _valid(("CARLA-VALUE-001",), ()), "a traffic light's is_frozen flag 2 in a steady frame (frame 7 of 8)")
    n = v15.traffic_light_states
    yield ("CARLA-ENUM-002", v15.name, edit(v15, K.STATE, lambda r: replace(r, state=n)),
           _valid(("CARLA-ENUM-002",), verdict="invalid"),
           f"traffic-light state {n}, one past the last, in a steady frame (frame 7 of 8)")
    yield ("CARLA-ENUM-003", v16.name, edit(v16, K.VEHICLE_DOOR, lambda r: replace(r, door=7)),
           _valid(("CARLA-ENUM-003",), verdict="invalid"),
           "door 7, one past the last, in a steady frame (frame 7 of 8)")
    yield ("CARLA-ENUM-004", v15.name, edit(v15, K.SCENE_LIGHT, lambda r: replace(r, light_group=5), last=1),
           _valid(("CARLA-ENUM-004",), verdict="invalid"), "light group 5, one past the last (frame 1)")


#: Valid seeds with a damaged header: no sniffer recognises the first bytes, and the extension names the
#: format, whose header rule reports the bytes found (``corpus/carla/damaged/``).
DAMAGED_HEADERS: tuple[HeaderDamage, ...] = (
    HeaderDamage("damaged/magic-zeroed.log", "valid/0.9.15.log", 4, bytes(14),
                 {"spec": ("malformed", ("CARLA-HEADER-001", "CARLA-STRING-002")),
                  "compat": ("malformed", ("CARLA-HEADER-001",))},
                 "the 14 characters of the magic CARLA_RECORDER zeroed (the string then holds NULs, "
                 "CARLA-STRING-002, a warning under compat); the packets after it still say 0.9.15",
                 variant="0.9.15"),
)
