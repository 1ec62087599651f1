"""Hypothesis strategies for CARLA recorder logs, in Hypothesis house style.

Public (re-exported by :mod:`recspec.strategies`):

* ``carla_variants()``: one of the variants of ``VARIANTS``;
* ``carla_packets(variant=None, *, kinds=None)``: one packet that is *well
  formed* (it encodes, and decodes back to itself) but whose values are drawn
  from the whole width of each field: enumerations out of range, flags of 2,
  actors nobody added, strings with NUL bytes, raw packets;
* ``carla_frames(variant=None, *, min_size=0, max_size=6, valid=True)``: a
  list of frames, each the tuple of its packets from FrameStart to FrameEnd;
* ``carla_recordings(variant=None, *, min_frames=0, max_frames=6, valid=True)``:
  a whole :class:`Recording`;
* ``carla_logs(variant=None, *, min_frames=0, max_frames=6, valid=True)``:
  ``(bytes, Variant)``, the recording encoded by the reference encoder;
* ``carla_cases(variant=None, *, min_frames=0, max_frames=6)``: the case (``recspec
  case`` JSON, as a dict) of a valid recording.

``variant`` is a :class:`Variant` from ``VARIANTS``, its name (``"0.9.15"``),
or ``None`` to draw one. A drawn variant is not part of a packet, frame list or
recording: draw it yourself first (``draw(carla_variants())``) or use
``carla_logs``, which returns it. Every argument is checked when the strategy
is drawn from, not when it is built; a bad one raises ``InvalidArgument``.

What ``valid=True`` means (a log CARLA's recorder could have written; the
checker must find no error in it under the ``spec`` profile):

* the header has version 1, the magic ``CARLA_RECORDER``, a date between 2017
  and 2100 and a non-empty map name;
* every packet is inside a frame, FrameStart .. FrameEnd; frame ids are 1..n;
* the timing is built with ``RecorderWriter``'s arithmetic: elapsed starts at
  0.0, ``elapsed[n+1] = elapsed[n] + delta``, ``durationThis[n] = delta`` with
  ``delta >= 0``, and the last frame keeps ``durationThis = -1.0``;
* inside a frame, the packets follow the variant's writer order
  (``WRITER_ORDER``), each kind at most once, and the kinds CARLA writes in
  every frame (``ALWAYS``) are there even when they hold no record; no
  FrameCounter and no raw packets;
* actors are added by an EventAdd before any record refers to them, with ids
  never used before (and never 0xFFFFFFFF, Collision's "not an actor"); an
  EventDel deletes only live actors; a record refers only to actors alive at
  that point of the frame, one record per actor and packet;
* enumerations are in range (actor type below INVALID, traffic-light state,
  light group, door), flags are 0 or 1, attribute types are the variant's;
* f32 fields are finite 32-bit floats, f64 fields (UE5 vectors, times) finite
  doubles; strings are UTF-8 without NUL.

``valid=False`` draws frames whose brackets may be missing, filled with
``carla_packets`` of any kind in any order, after a header with arbitrary
values. Such recordings still encode and decode back to themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import SearchStrategy

from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS, Variant, encode, to_case
from recspec.reference.carla import PacketKind as K

from ._check import WRITER_ORDER
from ._detect import ALWAYS
from ._fields import NOT_AN_ACTOR

__all__ = ["carla_cases", "carla_frames", "carla_logs", "carla_packets", "carla_recordings", "carla_variants"]

#: Upper bounds that keep examples small enough to run hundreds per second.
_MAX_RECORDS = 3  # records per counted packet
_MAX_NESTED = 3  # attributes of an actor, bones of a walker, points of a curve, ...
_MAX_TEXT = 12  # characters of a string
_MAX_RAW = 32  # bytes of a raw payload
_MAX_LOOSE_PACKETS = 4  # packets of one group in valid=False frames

_U8 = st.integers(0, 0xFF)
_U16 = st.integers(0, 0xFFFF)
_U32 = st.integers(0, 0xFFFFFFFF)
_I32 = st.integers(-(2**31), 2**31 - 1)
_U64 = st.integers(0, 2**64 - 1)
_I64 = st.integers(-(2**63), 2**63 - 1)
_F32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
_F64 = st.floats(allow_nan=False, allow_infinity=False)
_FLAG = st.integers(0, 1)
#: Header dates: Unix seconds from 2017-01-01 to the end of 2099 (CARLA-HEADER-003).
_DATES = st.integers(1_483_228_800, 4_102_444_799)
#: A frame's tick; bounded so that a chain of them stays finite.
_DELTAS = st.floats(min_value=0.0, max_value=10.0)
#: Fresh actor ids: mostly small, as CARLA hands them out, sometimes anywhere below 0xFFFFFFFF.
_NEW_ACTOR_IDS = st.one_of(st.integers(1, 1000), st.integers(0, NOT_AN_ACTOR - 1))

# UTF-8 text: ``codec`` keeps out surrogates, which a CARLA string cannot hold.
_TEXT_ANY = st.text(st.characters(codec="utf-8"), max_size=_MAX_TEXT)
_NO_NUL = st.characters(codec="utf-8", exclude_characters="\x00")
_TEXT_NO_NUL = st.text(_NO_NUL, max_size=_MAX_TEXT)
_BLUEPRINTS = st.sampled_from((
    "vehicle.tesla.model3", "vehicle.lincoln.mkz_2020", "walker.pedestrian.0001", "traffic.traffic_light",
    "traffic.stop", "sensor.other.collision", "static.prop.streetbarrier", "spectator",
))
_ATTRIBUTE_IDS = st.sampled_from(("role_name", "color", "number_of_wheels", "sticky_control", "speed", "size"))
_MAP_NAMES = st.sampled_from(("Town01", "Town05", "Town10HD_Opt", "Carla/Maps/Town04"))

# Light groups (research notes, section 6): None, Vehicle, Street, Building, Other.
_LIGHT_GROUPS = 5
# Vehicle doors (research notes, section 6): FL, FR, RL, RR, Hood, Trunk, All.
_DOORS = 7
# EVehicleWheelLocation: FL, FR, BL, BR (bikes use 0 front, 1 back).
_WHEEL_LOCATIONS = 4


# --- argument validation (at draw time) ------------------------------------------


def _variant_arg(variant: Any) -> Any:
    """``variant`` as the strategies record it: a table variant by its name, so
    that reprs read ``carla_packets(variant='0.9.15')``. Anything else is kept
    as given and rejected when drawn."""
    if isinstance(variant, Variant) and VARIANTS.get(variant.name) is variant:
        return variant.name
    return variant


class _Kinds(tuple):  # type: ignore[type-arg]
    """A sorted tuple of packet kinds that reprs as ``(PacketKind.POSITION,)``."""

    def __repr__(self) -> str:
        names = ", ".join(f"PacketKind.{k.name}" for k in self)
        return f"({names},)" if len(self) == 1 else f"({names})"


def _kinds_arg(kinds: Any) -> Any:
    if isinstance(kinds, (set, frozenset, list, tuple)) and all(isinstance(k, K) for k in kinds):
        return _Kinds(sorted(set(kinds)))
    return kinds


def _check_variant(variant: Any) -> Variant | None:
    if variant is None:
        return None
    if isinstance(variant, str) and variant in VARIANTS:
        return VARIANTS[variant]
    if isinstance(variant, Variant) and VARIANTS.get(variant.name) is variant:
        return variant
    raise InvalidArgument(
        f"variant={variant!r} is not a CARLA variant; pass one of VARIANTS, its name "
        f"({', '.join(map(repr, VARIANTS))}) or None to draw one"
    )


def _check_kinds(kinds: Any) -> frozenset[K] | None:
    if kinds is None:
        return None
    if isinstance(kinds, (str, bytes)) or not isinstance(kinds, Collection):
        raise InvalidArgument(f"kinds={kinds!r} must be a collection of PacketKind members, or None")
    bad = [k for k in kinds if not isinstance(k, K)]
    if bad:
        raise InvalidArgument(f"kinds={kinds!r} holds {bad[0]!r}, which is not a PacketKind")
    if not kinds:
        raise InvalidArgument("kinds=() is empty; pass None for every kind of the variant")
    return frozenset(kinds)


def _defines(v: Variant, kinds: frozenset[K]) -> bool:
    return all(k is K.RAW or k in v.id_of for k in kinds)


def _check_bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise InvalidArgument(f"{name}={value!r} must be True or False")


def _check_bounds(min_name: str, min_value: Any, max_name: str, max_value: Any) -> None:
    for name, value in ((min_name, min_value), (max_name, max_value)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgument(f"{name}={value!r} must be an int")
        if value < 0:
            raise InvalidArgument(f"{name}={value!r} must be >= 0")
    if max_value < min_value:
        raise InvalidArgument(f"{max_name}={max_value!r} is less than {min_name}={min_value!r}")


def _public(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Name a private composite after the public function that wraps it, so
    that the strategy's repr reads like the public call."""

    def rename(f: Callable[..., Any]) -> Callable[..., Any]:
        f.__name__ = f.__qualname__ = name
        return f

    return rename


# --- where field values come from ----------------------------------------------------


@dataclass(frozen=True)
class _Domain:
    """The values a record's fields are drawn from: the whole width of each field
    (``carla_packets``, ``valid=False``) or what CARLA writes (``valid=True``).

    ``actor`` fills actor-id fields. In the CARLA domain it is a placeholder
    (``just(0)``): the frame builder, which knows who is alive, puts the real
    id in with ``dataclasses.replace``, so that every strategy here can be
    built once per variant (building strategies is what costs time).
    """

    actor: SearchStrategy[int]
    flag: SearchStrategy[int]
    actor_type: SearchStrategy[int]
    light_state: SearchStrategy[int]
    light_group: SearchStrategy[int]
    door: SearchStrategy[int]
    wheel_location: SearchStrategy[int]
    attribute_type: SearchStrategy[int]
    text: SearchStrategy[str]
    time: SearchStrategy[float]


_ANY_DOMAIN = _Domain(_U32, _U8, _U8, _U8, _U8, _U8, _U8, _U8, _TEXT_ANY, _F64)


def _carla_domain(v: Variant) -> _Domain:
    return _Domain(
        st.just(0),
        _FLAG,
        st.integers(0, v.actor_types - 2),  # the last value of the enum is INVALID
        st.integers(0, v.traffic_light_states - 1),
        st.integers(0, _LIGHT_GROUPS - 1),
        st.integers(0, _DOORS - 1),
        st.integers(0, _WHEEL_LOCATIONS - 1),
        st.sampled_from(v.attribute_types),
        _TEXT_NO_NUL,
        st.floats(min_value=0.0, max_value=1e9),
    )


_MEMO: dict[tuple[str, str], SearchStrategy[Any]] = {}


def _memo(v: Variant, what: str, make: Callable[[], SearchStrategy[Any]]) -> SearchStrategy[Any]:
    """The strategy ``what`` of variant ``v``, built by ``make`` on first use."""
    key = (v.name, what)
    s = _MEMO.get(key)
    if s is None:
        s = _MEMO[key] = make()
    return s


# --- records, one builder per kind ----------------------------------------------------
#
# Each builder is ``(variant, domain) -> strategy of one record``. Vectors of
# the world (locations, rotations, velocities, boxes) are 3 x f64 in UE5
# builds; physics vectors and colours stay f32 in every build.


def _vec(v: Variant) -> SearchStrategy[m.Vec3]:
    f = _F64 if v.vec_f64 else _F32
    return st.builds(m.Vec3, f, f, f)


def _rot(v: Variant) -> SearchStrategy[m.Rotator]:
    f = _F64 if v.vec_f64 else _F32
    return st.builds(m.Rotator, f, f, f)


_VEC_F32 = st.builds(m.Vec3, _F32, _F32, _F32)
_CURVE = st.lists(st.builds(m.CurvePoint, _F32, _F32), max_size=_MAX_NESTED).map(tuple)
_GEARS = st.lists(st.builds(m.GearPhysics, _F32, _F32, _F32), max_size=_MAX_NESTED).map(tuple)

Builder = Callable[[Variant, _Domain], SearchStrategy[Any]]


def _event_add(v: Variant, d: _Domain) -> SearchStrategy[m.EventAdd]:
    name = st.one_of(_BLUEPRINTS, d.text)
    attribute = st.builds(m.ActorAttribute, d.attribute_type, st.one_of(_ATTRIBUTE_IDS, d.text), d.text)
    return st.builds(m.EventAdd, d.actor, d.actor_type, _vec(v), _rot(v), _U32, name,
                     st.lists(attribute, max_size=_MAX_NESTED).map(tuple))


def _wheel_physics(v: Variant) -> SearchStrategy[m.WheelPhysics]:
    if v.wheel_physics_size == 36:  # 0.9.10-0.9.11: no stiffness fields
        stiff: SearchStrategy[float | None] = st.none()
    else:
        stiff = _F32
    return st.builds(m.WheelPhysics, _F32, _F32, _F32, _F32, _F32, _F32, stiff, stiff, stiff, _VEC_F32)


def _physics_control(v: Variant, d: _Domain) -> SearchStrategy[m.PhysicsControl]:
    return st.builds(
        m.PhysicsControl, d.actor, _F32, _F32, _F32, _F32, _F32, d.flag, _F32, _F32, _F32, _F32, _VEC_F32,
        _CURVE, _GEARS, _CURVE, st.lists(_wheel_physics(v), max_size=_MAX_NESTED).map(tuple),
    )


def _walker_bones(v: Variant, d: _Domain) -> SearchStrategy[m.WalkerBones]:
    bone = st.builds(m.WalkerBone, d.text, _vec(v), _rot(v))
    return st.builds(m.WalkerBones, d.actor, st.lists(bone, max_size=_MAX_NESTED).map(tuple))


def _anim_wheels(v: Variant, d: _Domain) -> SearchStrategy[m.AnimVehicleWheels]:
    wheel = st.builds(m.WheelAnim, d.wheel_location, _F32, _F32)
    return st.builds(m.AnimVehicleWheels, d.actor, st.lists(wheel, max_size=_MAX_NESTED).map(tuple))


_RECORDS: dict[K, Builder] = {
    K.EVENT_ADD: _event_add,
    K.EVENT_DEL: lambda v, d: st.builds(m.EventDel, d.actor),
    K.EVENT_PARENT: lambda v, d: st.builds(m.EventParent, d.actor, d.actor),
    K.COLLISION: lambda v, d: st.builds(m.Collision, _U32, d.actor, d.actor, d.flag, d.flag),
    K.POSITION: lambda v, d: st.builds(m.Position, d.actor, _vec(v), _rot(v)),
    K.STATE: lambda v, d: st.builds(m.TrafficLightState, d.actor, d.flag, _F32, d.light_state),
    K.ANIM_VEHICLE: lambda v, d: st.builds(m.AnimVehicle, d.actor, _F32, _F32, _F32, d.flag, _I32),
    K.ANIM_WALKER: lambda v, d: st.builds(m.AnimWalker, d.actor, _F32),
    K.VEHICLE_LIGHT: lambda v, d: st.builds(m.VehicleLight, d.actor, _U32),
    K.SCENE_LIGHT: lambda v, d: st.builds(  # light_id is a light (i32), not an actor
        m.SceneLight, _I32, _F32, st.builds(m.Color, _F32, _F32, _F32, _F32), d.flag, d.light_group),
    K.KINEMATICS: lambda v, d: st.builds(m.Kinematics, d.actor, _vec(v), _vec(v)),
    K.BOUNDING_BOX: lambda v, d: st.builds(m.BoundingBox, d.actor, _vec(v), _vec(v)),
    K.PHYSICS_CONTROL: _physics_control,
    K.TRAFFIC_LIGHT_TIME: lambda v, d: st.builds(m.TrafficLightTime, d.actor, _F32, _F32, _F32),
    K.TRIGGER_VOLUME: lambda v, d: st.builds(m.TriggerVolume, d.actor, _vec(v), _vec(v)),
    K.WALKER_BONES: _walker_bones,
    K.ANIM_VEHICLE_WHEELS: _anim_wheels,
    K.ANIM_BIKER: lambda v, d: st.builds(m.AnimBiker, d.actor, _F32, _F32),
    K.VEHICLE_DOOR: lambda v, d: st.builds(m.VehicleDoor, d.actor, d.door, d.flag),
}


def _fixed_body(kind: K, d: _Domain) -> SearchStrategy[Any]:
    """The body of a packet without a record count."""
    if kind is K.FRAME_START:
        return st.builds(m.FrameStart, _U64, _F64, _F64)
    if kind is K.FRAME_END:
        return st.just(m.FrameEnd())
    if kind is K.PLATFORM_TIME:
        return st.builds(m.PlatformTime, d.time)
    if kind is K.VISUAL_TIME:
        return st.builds(m.VisualTime, d.time)
    if kind is K.FRAME_COUNTER:
        return st.builds(m.FrameCounter, _U64)
    raise AssertionError(kind)  # pragma: no cover - every kind without a count is above


# UE5 builds: the PhysicsControl layout is not known, so the model keeps the
# payload as bytes (research notes, section 7) and so do we.
_UE5_PHYSICS_PAYLOADS = st.binary(max_size=_MAX_RAW)


def _packet(v: Variant, kind: K, body: Any) -> m.Packet:
    return m.Packet(kind, body, v.id_of[kind])


def _any_packets(v: Variant, kind: K) -> SearchStrategy[m.Packet]:
    """Packets of ``kind`` with values from the whole width of each field."""
    return _memo(v, f"any packet {kind.name}", lambda: _make_any_packets(v, kind))


def _make_any_packets(v: Variant, kind: K) -> SearchStrategy[m.Packet]:
    if kind is K.RAW:
        free_ids = sorted(set(range(256)) - set(v.ids))
        return st.builds(m.Packet, st.just(K.RAW), st.binary(max_size=_MAX_RAW), st.sampled_from(free_ids))
    if kind in _RECORDS:
        if kind is K.PHYSICS_CONTROL and v.wheel_physics_size is None:
            body: SearchStrategy[Any] = _UE5_PHYSICS_PAYLOADS
        else:
            body = st.lists(_RECORDS[kind](v, _ANY_DOMAIN), max_size=_MAX_RECORDS).map(tuple)
    else:
        body = _fixed_body(kind, _ANY_DOMAIN)
    return body.map(lambda b: _packet(v, kind, b))


def _every_kind(v: Variant) -> tuple[K, ...]:
    return (*sorted(set(v.ids.values())), K.RAW)


def _anything(v: Variant) -> SearchStrategy[m.Packet]:
    """A packet of any kind of ``v`` (raw ones included), any values."""
    return _memo(v, "any packet of any kind", lambda: st.one_of([_any_packets(v, k) for k in _every_kind(v)]))


def _carla_records(v: Variant, kind: K) -> SearchStrategy[Any]:
    """One record of ``kind`` with CARLA's values; actor ids are placeholders."""
    return _memo(v, f"carla record {kind.name}", lambda: _RECORDS[kind](v, _carla_domain(v)))


def _carla_fixed(v: Variant, kind: K) -> SearchStrategy[Any]:
    return _memo(v, f"carla body {kind.name}", lambda: _fixed_body(kind, _carla_domain(v)))


# --- valid frames --------------------------------------------------------------------

_BOOLEANS = st.booleans()
_FRESH_IDS = st.lists(_NEW_ACTOR_IDS, max_size=_MAX_RECORDS, unique=True)
#: Indices into the sorted live actors (taken modulo their number), so that one
#: strategy serves every set of live actors; shrinks towards the lowest id.
_PICKS = st.lists(st.integers(0, 0xFFFF), max_size=_MAX_RECORDS)
_PICK = st.integers(0, 0xFFFF)


class _Actors:
    """The actor bookkeeping of a valid recording: who is alive, which ids were used."""

    def __init__(self) -> None:
        self.alive: set[int] = set()
        self.used: set[int] = set()


def _pick_distinct(draw: st.DrawFn, living: list[int]) -> list[int]:
    """Up to ``_MAX_RECORDS`` distinct actors among ``living`` (not empty)."""
    out: list[int] = []
    for i in draw(_PICKS):
        a = living[i % len(living)]
        if a not in out:
            out.append(a)
    return out


def _draw_valid_body(draw: st.DrawFn, v: Variant, actors: _Actors) -> list[m.Packet]:
    """The packets between one frame's FrameStart and FrameEnd, in writer order."""
    always = ALWAYS[v.name]
    packets = []
    for kind in WRITER_ORDER[v.name]:
        if kind not in always and not draw(_BOOLEANS):
            continue
        if kind in (K.PLATFORM_TIME, K.VISUAL_TIME):
            body: Any = draw(_carla_fixed(v, kind))
        elif kind is K.PHYSICS_CONTROL and v.wheel_physics_size is None:
            body = draw(_UE5_PHYSICS_PAYLOADS)
        else:
            body = _draw_valid_records(draw, v, kind, actors)
        packets.append(_packet(v, kind, body))
    return packets


def _draw_valid_records(draw: st.DrawFn, v: Variant, kind: K, actors: _Actors) -> tuple[Any, ...]:
    alive = actors.alive
    records = _carla_records(v, kind)
    if kind is K.EVENT_ADD:
        fresh = [i for i in draw(_FRESH_IDS) if i not in actors.used]
        actors.used.update(fresh)
        alive.update(fresh)
        return tuple(replace(draw(records), database_id=i) for i in fresh)
    if kind is K.SCENE_LIGHT:  # lights are not actors
        lights = _memo(v, f"carla records {kind.name}", lambda: st.lists(records, max_size=_MAX_RECORDS))
        return tuple(draw(lights))
    if not alive:
        return ()
    living = sorted(alive)
    if kind is K.EVENT_DEL:
        gone = _pick_distinct(draw, living)
        alive.difference_update(gone)
        return tuple(m.EventDel(a) for a in gone)
    if kind is K.EVENT_PARENT:
        out = []
        for child in _pick_distinct(draw, living):
            parents = [a for a in living if a != child]
            if parents:
                out.append(m.EventParent(child, parents[draw(_PICK) % len(parents)]))
        return tuple(out)
    if kind is K.COLLISION:
        out = []
        for a in _pick_distinct(draw, living):
            others = [NOT_AN_ACTOR, *(b for b in living if b != a)]
            r = draw(records)
            out.append(replace(r, database_id1=a, database_id2=others[draw(_PICK) % len(others)]))
        return tuple(out)
    # One record per actor, as CARLA writes them.
    return tuple(replace(draw(records), database_id=a) for a in _pick_distinct(draw, living))


def _draw_valid_frames(draw: st.DrawFn, v: Variant, n: int) -> list[tuple[m.Packet, ...]]:
    actors = _Actors()
    bodies = [_draw_valid_body(draw, v, actors) for _ in range(n)]
    # RecorderWriter's arithmetic: frame 1 starts at 0.0, each later frame at the
    # previous elapsed plus its delta, which is also the previous durationThis.
    deltas = [draw(_DELTAS) for _ in range(n - 1)]
    frames = []
    elapsed = 0.0
    for i, body in enumerate(bodies):
        duration = deltas[i] if i < n - 1 else -1.0
        start = _packet(v, K.FRAME_START, m.FrameStart(i + 1, duration, elapsed))
        frames.append((start, *body, _packet(v, K.FRAME_END, m.FrameEnd())))
        if i < n - 1:
            elapsed = elapsed + deltas[i]
    return frames


_ONE_IN_EIGHT = st.integers(0, 7)


def _draw_loose_frames(draw: st.DrawFn, v: Variant, n: int) -> list[tuple[m.Packet, ...]]:
    """valid=False: groups of packets of any kind, usually but not always bracketed."""
    anything = _memo(v, "any packets of any kind", lambda: st.lists(_anything(v), max_size=_MAX_LOOSE_PACKETS))
    frames = []
    for _ in range(n):
        group: list[m.Packet] = []
        if draw(_ONE_IN_EIGHT):  # mostly bracketed, so that the checker walks frames
            group.append(draw(_any_packets(v, K.FRAME_START)))
        group.extend(draw(anything))
        if draw(_ONE_IN_EIGHT):
            group.append(_packet(v, K.FRAME_END, m.FrameEnd()))
        frames.append(tuple(group))
    return frames


def _draw_frames(draw: st.DrawFn, v: Variant, min_size: int, max_size: int, valid: bool) -> list[tuple[m.Packet, ...]]:
    n = draw(st.integers(min_size, max_size))
    return _draw_valid_frames(draw, v, n) if valid else _draw_loose_frames(draw, v, n)


_VALID_HEADERS = st.builds(m.Header, st.just(1), st.just("CARLA_RECORDER"), _DATES,
                           st.one_of(_MAP_NAMES, st.text(_NO_NUL, min_size=1, max_size=_MAX_TEXT)))
_ANY_HEADERS = st.builds(m.Header, _U16, st.one_of(st.just("CARLA_RECORDER"), _TEXT_ANY), _I64,
                         st.one_of(_MAP_NAMES, _TEXT_ANY))


def _draw_recording(draw: st.DrawFn, v: Variant, min_frames: int, max_frames: int, valid: bool) -> m.Recording:
    header = draw(_VALID_HEADERS if valid else _ANY_HEADERS)
    frames = _draw_frames(draw, v, min_frames, max_frames, valid)
    return m.Recording(header, tuple(p for frame in frames for p in frame))


# --- the public strategies ---------------------------------------------------------------


def carla_variants() -> SearchStrategy[Variant]:
    """One of the CARLA recorder variants (``VARIANTS``), shrinking towards the oldest."""
    return _carla_variants()


@st.composite
@_public("carla_variants")
def _carla_variants(draw: st.DrawFn) -> Variant:
    return draw(st.sampled_from(tuple(VARIANTS.values())))


def carla_packets(variant: Variant | str | None = None, *,
                  kinds: Collection[K] | None = None) -> SearchStrategy[m.Packet]:
    """One well-formed packet of ``variant``, with values from the whole width of each field.

    ``kinds`` restricts the packet kinds (default: every kind the variant
    defines, and ``PacketKind.RAW`` for an id it does not define). With
    ``variant=None`` the variant is drawn among those that define every kind
    asked for. The packet's ``packet_id`` is always set, as the decoder sets it,
    so that ``decode(encode(...))`` gives back the same packet.
    """
    return _carla_packets(_variant_arg(variant), kinds=_kinds_arg(kinds))


@st.composite
@_public("carla_packets")
def _carla_packets(draw: st.DrawFn, variant: Any = None, *, kinds: Any = None) -> m.Packet:
    v = _check_variant(variant)
    wanted = _check_kinds(kinds)
    if v is None:
        choices = [c for c in VARIANTS.values() if wanted is None or _defines(c, wanted)]
        if not choices:
            raise InvalidArgument(f"kinds={kinds!r}: no CARLA variant defines all of these")
        v = draw(st.sampled_from(choices))
    elif wanted is not None and not _defines(v, wanted):
        missing = sorted(k.label for k in wanted if not _defines(v, frozenset((k,))))
        raise InvalidArgument(f"kinds={kinds!r}: variant {v.name} has no {', '.join(missing)} packet")
    pool = _every_kind(v) if wanted is None else tuple(sorted(wanted))
    kind = draw(st.sampled_from(pool))
    return draw(_any_packets(v, kind))


def carla_frames(
    variant: Variant | str | None = None, *, min_size: int = 0, max_size: int = 6, valid: bool = True,
) -> SearchStrategy[list[tuple[m.Packet, ...]]]:
    """A list of ``min_size`` to ``max_size`` frames, each the tuple of its packets.

    With ``valid=True`` each frame runs from FrameStart to FrameEnd and the list
    is the whole frame sequence of a log CARLA could write (see the module
    docstring): ids from 1, the timing chain, live actors. Write it with
    ``RecorderWriter`` by passing each frame's inner packets and, as ``delta``,
    the previous frame's ``duration_this``. With ``valid=False`` the groups are
    loose packets of any kind.
    """
    return _carla_frames(_variant_arg(variant), min_size=min_size, max_size=max_size, valid=valid)


@st.composite
@_public("carla_frames")
def _carla_frames(draw: st.DrawFn, variant: Any = None, *, min_size: Any = 0, max_size: Any = 6,
                  valid: Any = True) -> list[tuple[m.Packet, ...]]:
    v = _check_variant(variant)
    _check_bounds("min_size", min_size, "max_size", max_size)
    _check_bool("valid", valid)
    if v is None:
        v = draw(carla_variants())
    return _draw_frames(draw, v, min_size, max_size, valid)


def carla_recordings(
    variant: Variant | str | None = None, *, min_frames: int = 0, max_frames: int = 6, valid: bool = True,
) -> SearchStrategy[m.Recording]:
    """A whole recording of ``variant`` with ``min_frames`` to ``max_frames`` frames.

    ``valid=True``: a log CARLA's recorder could have written (module
    docstring). ``valid=False``: an arbitrary header and loose packets, still
    encodable. With ``variant=None`` a variant is drawn but not returned; use
    :func:`carla_logs` or draw the variant first when you need it.
    """
    return _carla_recordings(_variant_arg(variant), min_frames=min_frames, max_frames=max_frames, valid=valid)


@st.composite
@_public("carla_recordings")
def _carla_recordings(draw: st.DrawFn, variant: Any = None, *, min_frames: Any = 0, max_frames: Any = 6,
                      valid: Any = True) -> m.Recording:
    v = _check_variant(variant)
    _check_bounds("min_frames", min_frames, "max_frames", max_frames)
    _check_bool("valid", valid)
    if v is None:
        v = draw(carla_variants())
    return _draw_recording(draw, v, min_frames, max_frames, valid)


def carla_logs(
    variant: Variant | str | None = None, *, min_frames: int = 0, max_frames: int = 6, valid: bool = True,
) -> SearchStrategy[tuple[bytes, Variant]]:
    """``(data, variant)``: a recording from :func:`carla_recordings`, encoded by
    the reference encoder, with the variant it was written in."""
    return _carla_logs(_variant_arg(variant), min_frames=min_frames, max_frames=max_frames, valid=valid)


@st.composite
@_public("carla_logs")
def _carla_logs(draw: st.DrawFn, variant: Any = None, *, min_frames: Any = 0, max_frames: Any = 6,
                valid: Any = True) -> tuple[bytes, Variant]:
    v = _check_variant(variant)
    _check_bounds("min_frames", min_frames, "max_frames", max_frames)
    _check_bool("valid", valid)
    if v is None:
        v = draw(carla_variants())
    return encode(_draw_recording(draw, v, min_frames, max_frames, valid), variant=v), v


def carla_cases(
    variant: Variant | str | None = None, *, min_frames: int = 0, max_frames: int = 6,
) -> SearchStrategy[dict[str, Any]]:
    """The case (``recspec case`` JSON, as a dict) of a valid recording from :func:`carla_recordings`:
    what a writer is asked to write, in its variant."""
    return _carla_cases(_variant_arg(variant), min_frames=min_frames, max_frames=max_frames)


@st.composite
@_public("carla_cases")
def _carla_cases(draw: Any, variant: Any = None, *, min_frames: Any = 0, max_frames: Any = 6) -> dict[str, Any]:
    v = _check_variant(variant)
    _check_bounds("min_frames", min_frames, "max_frames", max_frames)
    if v is None:
        v = draw(carla_variants())
    return to_case(_draw_recording(draw, v, min_frames, max_frames, True), variant=v.name, canonical=True)
