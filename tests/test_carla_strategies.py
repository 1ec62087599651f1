"""Tests of the CARLA strategies themselves (``recspec.strategies.carla_*``; what every
format's strategies share is in tests/test_strategies.py).

In the spirit of Hypothesis's own ``tests/common/debug.py``: ``find_any``
shows that something can be drawn, ``assert_all_examples`` that everything
drawn has a property. "Valid" is restated here independently of the checker
(``valid_problems``), so that these tests judge the strategies and the
property tests in ``test_carla_properties.py`` can judge the checker.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument, NoSuchExample

from recspec.conformance.carla._check import ALWAYS, WRITER_ORDER
from recspec.reference.carla import (
    VARIANTS,
    EventAdd,
    Packet,
    RecorderWriter,
    Recording,
    Variant,
    decode,
    encode,
    frames,
)
from recspec.reference.carla import (
    PacketKind as K,
)
from recspec.strategies import carla_frames, carla_logs, carla_packets, carla_recordings, carla_variants

NAMES = tuple(VARIANTS)
per_variant = pytest.mark.parametrize("name", NAMES, ids=NAMES)
NOT_AN_ACTOR = 0xFFFFFFFF


# --- helpers -----------------------------------------------------------------------------


def find_any(strategy: st.SearchStrategy[Any], condition: Callable[[Any], bool] = lambda _: True,
             *, max_examples: int = 2000) -> Any:
    """An example satisfying ``condition``; fails if none turns up in ``max_examples``."""
    try:
        return find(strategy, condition, settings=settings(
            max_examples=max_examples, database=None, phases=(Phase.generate,)))
    except NoSuchExample:
        pytest.fail(f"no example of {strategy!r} satisfied the condition in {max_examples} tries")


def find_all(strategy: st.SearchStrategy[Any], keys: Callable[[Any], Iterable[Hashable]],
             expected: set[Hashable], *, max_examples: int = 2000) -> None:
    """Draw until the union of ``keys(example)`` covers ``expected``; fail naming what never came."""
    seen: set[Hashable] = set()

    def covered(x: Any) -> bool:
        seen.update(keys(x))
        return seen >= expected

    try:
        find(strategy, covered, settings=settings(max_examples=max_examples, database=None, phases=(Phase.generate,)))
    except NoSuchExample:
        pytest.fail(f"{strategy!r} never reached {sorted(map(str, expected - seen))} in {max_examples} tries")


def assert_all_examples(strategy: st.SearchStrategy[Any], problems: Callable[[Any], list[str]]) -> None:
    """Every example has no problem (``problems`` returns what is wrong with it)."""

    @given(strategy)
    @settings(database=None)
    def every(x: Any) -> None:
        found = problems(x)
        assert not found, found

    every()


def draw_once(strategy: st.SearchStrategy[Any]) -> Any:
    return find(strategy, lambda _: True, settings=settings(max_examples=1, database=None, phases=(Phase.generate,)))


# --- an independent statement of "valid" ------------------------------------------------------


def _leaves(x: Any, kind: type) -> Iterable[Any]:
    """Every value of type ``kind`` inside ``x`` (dataclasses and tuples, depth first)."""
    if isinstance(x, kind):
        yield x
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            yield from _leaves(getattr(x, f.name), kind)
    elif isinstance(x, tuple):
        for y in x:
            yield from _leaves(y, kind)


def _strings(x: Any) -> Iterable[str]:
    return _leaves(x, str)


def _floats(x: Any) -> Iterable[float]:
    return _leaves(x, float)


#: (record class name, field) -> number of allowed values, for enums and flags.
_RANGES = {
    ("Collision", "is_actor1_hero"): 2, ("Collision", "is_actor2_hero"): 2,
    ("TrafficLightState", "is_frozen"): 2, ("AnimVehicle", "handbrake"): 2, ("SceneLight", "is_on"): 2,
    ("SceneLight", "light_group"): 5, ("VehicleDoor", "is_open"): 2, ("VehicleDoor", "door"): 7,
    ("PhysicsControl", "use_gear_autobox"): 2,
}
#: Record fields that name an actor, by record class.
_ACTOR_FIELDS = {"EventParent": ("database_id", "database_id_parent"), "Collision": ("database_id1", "database_id2")}


def valid_problems(rec: Recording, v: Variant) -> list[str]:
    """What keeps ``rec`` from being a log CARLA could write; [] when nothing does."""
    out: list[str] = []
    h = rec.header
    if (h.version, h.magic) != (1, "CARLA_RECORDER") or not 1483228800 <= h.date < 4102444800 or not h.map_name:
        out.append(f"header {h}")
    order = {k: i for i, k in enumerate(WRITER_ORDER[v.name])}
    alive: set[int] = set()
    used: set[int] = set()
    starts = []
    i, packets = 0, rec.packets
    while i < len(packets):
        if packets[i].kind is not K.FRAME_START:
            return out + [f"packet {i} ({packets[i].kind.label}) is outside a frame"]
        starts.append(packets[i].body)
        j = i + 1
        while j < len(packets) and packets[j].kind is not K.FRAME_END:
            j += 1
        if j == len(packets):
            return out + [f"frame at packet {i} has no FrameEnd"]
        body = packets[i + 1:j]
        kinds = [p.kind for p in body]
        if any(k not in order for k in kinds) or [order[k] for k in kinds] != sorted({order[k] for k in kinds}):
            out.append(f"frame at packet {i}: kinds {kinds} are not in writer order, once each")
        if not ALWAYS[v.name] <= set(kinds):
            out.append(f"frame at packet {i}: missing {ALWAYS[v.name] - set(kinds)}")
        for p in body:
            out.extend(_record_problems(p, v, alive, used))
        i = j + 1
    for p in packets:
        if p.packet_id != v.id_of.get(p.kind):
            out.append(f"{p.kind.label} has id {p.packet_id}")
    for n, s in enumerate(starts):
        if s.frame_id != n + 1:
            out.append(f"frame {n} has id {s.frame_id}")
        if n == 0 and s.elapsed != 0.0:
            out.append(f"first elapsed {s.elapsed}")
        if n + 1 < len(starts):
            if not s.duration_this >= 0 or s.elapsed + s.duration_this != starts[n + 1].elapsed:
                out.append(f"frame {n}: elapsed {s.elapsed} + duration {s.duration_this} != {starts[n + 1].elapsed}")
        elif s.duration_this != -1.0:
            out.append(f"last frame has duration {s.duration_this}")
    return out


def _record_problems(p: Packet, v: Variant, alive: set[int], used: set[int]) -> list[str]:
    out = [f"{p.kind.label}: string {s!r} holds NUL" for s in _strings(p.body) if "\x00" in s]
    out += [f"{p.kind.label}: float {x!r} not finite" for x in _floats(p.body) if not math.isfinite(x)]
    if not isinstance(p.body, tuple):
        return out
    for r in p.body:
        name = type(r).__name__
        for (cls, field), n in _RANGES.items():
            if cls == name and not 0 <= getattr(r, field) < n:
                out.append(f"{name}.{field} = {getattr(r, field)}")
        if isinstance(r, EventAdd):
            if r.database_id in used or r.database_id == NOT_AN_ACTOR:
                out.append(f"actor {r.database_id} added twice")
            used.add(r.database_id)
            alive.add(r.database_id)
            if not 0 <= r.type < v.actor_types - 1:
                out.append(f"actor type {r.type}")
            out += [f"attribute type {a.type}" for a in r.attributes if a.type not in v.attribute_types]
        elif p.kind is K.EVENT_DEL:
            if r.database_id not in alive:
                out.append(f"EventDel of dead actor {r.database_id}")
            alive.discard(r.database_id)
        elif p.kind is K.STATE and not 0 <= r.state < v.traffic_light_states:
            out.append(f"traffic light state {r.state}")
        if name in _ACTOR_FIELDS:
            ids = [getattr(r, f) for f in _ACTOR_FIELDS[name]]
            if ids[0] not in alive or (ids[1] not in alive and not (name == "Collision" and ids[1] == NOT_AN_ACTOR)):
                out.append(f"{name} {ids} refers to a dead actor")
        elif hasattr(r, "database_id") and p.kind not in (K.EVENT_ADD, K.EVENT_DEL) and r.database_id not in alive:
            out.append(f"{name} refers to dead actor {r.database_id}")
    return out


def written_by_recorder(rec: Recording, v: Variant) -> bytes:
    """``rec`` written frame by frame with RecorderWriter, the way CARLA writes."""
    f = io.BytesIO()
    w = RecorderWriter(f, rec.header, v)
    delta = 0.0  # unused for frame 1
    for start, body in frames(rec.packets):
        w.frame(body, delta=delta)
        delta = start.duration_this
    w.close()
    return f.getvalue()


# --- the public surface -------------------------------------------------------------------------

REPRS = [
    (carla_variants(), "carla_variants()"),
    (carla_packets("0.9.15"), "carla_packets(variant='0.9.15')"),
    (carla_packets(VARIANTS["0.9.15"]), "carla_packets(variant='0.9.15')"),
    (carla_packets("ue5", kinds={K.POSITION}), "carla_packets(variant='ue5', kinds=(PacketKind.POSITION,))"),
    (carla_packets(kinds=[K.RAW, K.POSITION]), "carla_packets(kinds=(PacketKind.POSITION, PacketKind.RAW))"),
    (carla_frames("0.9.16", max_size=2), "carla_frames(variant='0.9.16', max_size=2)"),
    (carla_recordings(VARIANTS["0.9.14"], min_frames=1, valid=False),
     "carla_recordings(variant='0.9.14', min_frames=1, valid=False)"),
    (carla_recordings(), "carla_recordings()"),
    (carla_logs(max_frames=2), "carla_logs(max_frames=2)"),
    (carla_recordings(max_frames=-1), "carla_recordings(max_frames=-1)"),
]


@pytest.mark.parametrize(("strategy", "expected"), REPRS, ids=[e for _, e in REPRS])
def test_repr_reads_like_the_call(strategy: st.SearchStrategy[Any], expected: str) -> None:
    assert repr(strategy) == expected


BAD_ARGUMENTS = {
    "variant-unknown-name": lambda: carla_recordings("0.9.99"),
    "variant-not-a-variant": lambda: carla_recordings(42),
    "variant-not-in-table": lambda: carla_logs(dataclasses.replace(VARIANTS["0.9.15"], name="mine")),
    "min_frames-negative": lambda: carla_recordings(min_frames=-1),
    "max_frames-below-min_frames": lambda: carla_recordings(min_frames=3, max_frames=2),
    "min_frames-float": lambda: carla_recordings(min_frames=1.0),
    "max_frames-bool": lambda: carla_recordings(max_frames=True),
    "valid-not-bool": lambda: carla_recordings(valid=1),
    "frames-max_size-below-min_size": lambda: carla_frames(min_size=2, max_size=1),
    "frames-variant-unknown": lambda: carla_frames("0.9.99"),
    "frames-valid-not-bool": lambda: carla_frames(valid=None),
    "logs-max_frames-negative": lambda: carla_logs(max_frames=-1),
    "logs-valid-not-bool": lambda: carla_logs(valid="yes"),
    "kinds-empty": lambda: carla_packets("0.9.15", kinds=()),
    "kinds-a-string": lambda: carla_packets("0.9.15", kinds="Position"),
    "kinds-not-a-collection": lambda: carla_packets("0.9.15", kinds=6),
    "kinds-holds-an-int": lambda: carla_packets("0.9.15", kinds=[6]),
    "kinds-undefined-in-variant": lambda: carla_packets("0.9.15", kinds={K.VEHICLE_DOOR}),
    "kinds-undefined-in-oldest": lambda: carla_packets("0.9.4-0.9.5", kinds={K.PHYSICS_CONTROL}),
}


@pytest.mark.parametrize("build", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_bad_arguments_raise_invalid_argument_when_drawn(build: Callable[[], st.SearchStrategy[Any]]) -> None:
    strategy = build()  # building never raises
    with pytest.raises(InvalidArgument):
        draw_once(strategy)


# --- reach ----------------------------------------------------------------------------------------


def test_every_variant_is_drawn() -> None:
    find_all(carla_variants(), lambda v: [v.name], set(VARIANTS))


@per_variant
def test_every_packet_kind_is_reachable(name: str) -> None:
    v = VARIANTS[name]
    find_all(carla_packets(v), lambda p: [p.kind], {*v.ids.values(), K.RAW})


@per_variant
def test_every_writer_kind_carries_records_in_valid_recordings(name: str) -> None:
    v = VARIANTS[name]

    def kinds_with_content(rec: Recording) -> list[K]:
        return [p.kind for p in rec.packets if not isinstance(p.body, tuple) or p.body]

    find_all(carla_recordings(v, min_frames=1, max_frames=3), kinds_with_content,
             {K.FRAME_START, K.FRAME_END, *WRITER_ORDER[name]})


@per_variant
def test_invalid_recordings_reach_raw_and_unbracketed_packets(name: str) -> None:
    v = VARIANTS[name]

    def traits(rec: Recording) -> list[str]:
        out = [p.kind.label for p in rec.packets]
        if rec.packets and rec.packets[0].kind is not K.FRAME_START:
            out.append("starts outside a frame")
        if rec.header.magic != "CARLA_RECORDER":
            out.append("other magic")
        return out

    find_all(carla_recordings(v, valid=False), traits, {"Raw", "starts outside a frame", "other magic"})


def test_kinds_restrict_the_drawn_variant() -> None:
    # Only dev-2023, 0.9.16 and ue5 have VehicleDoor, with id 21 or 23.
    assert_all_examples(carla_packets(kinds={K.VEHICLE_DOOR}),
                        lambda p: [] if p.kind is K.VEHICLE_DOOR and p.packet_id in (21, 23) else [str(p)])


# --- every example ------------------------------------------------------------------------------


@per_variant
def test_valid_recordings_are_valid(name: str) -> None:
    v = VARIANTS[name]
    assert_all_examples(carla_recordings(v, max_frames=4), lambda rec: valid_problems(rec, v))


@per_variant
def test_recorder_writer_writes_valid_recordings_to_the_same_bytes(name: str) -> None:
    v = VARIANTS[name]
    assert_all_examples(carla_recordings(v, max_frames=4),
                        lambda rec: [] if written_by_recorder(rec, v) == encode(rec, variant=v) else ["bytes differ"])


@pytest.mark.parametrize("valid", [True, False], ids=["valid", "invalid"])
def test_frame_bounds_are_honoured(valid: bool) -> None:
    def frame_count(lo: int, hi: int) -> Callable[[Any], list[str]]:
        return lambda fs: [] if lo <= len(fs) <= hi else [f"{len(fs)} frames"]

    assert_all_examples(carla_frames(min_size=2, max_size=3, valid=valid), frame_count(2, 3))
    if valid:
        assert_all_examples(
            carla_recordings("0.9.15", min_frames=2, max_frames=2),
            lambda rec: frame_count(2, 2)([p for p in rec.packets if p.kind is K.FRAME_START]))


def test_kinds_are_honoured() -> None:
    # Draw loose packets of every kind first: their cached strategy once took
    # the place of the raw-packet strategy, whatever was drawn first won.
    draw_once(carla_recordings("0.9.10-0.9.11", min_frames=1, valid=False))
    wanted = {K.POSITION, K.RAW}
    assert_all_examples(carla_packets("0.9.10-0.9.11", kinds=wanted),
                        lambda p: [] if p.kind in wanted else [p.kind.label])


def test_logs_carry_their_variant() -> None:
    def problems(log: tuple[bytes, Variant]) -> list[str]:
        blob, v = log
        if VARIANTS.get(v.name) is not v:
            return [f"{v!r} is not one of VARIANTS"]
        return [] if encode(decode(blob, variant=v), variant=v) == blob else ["does not re-encode"]

    assert_all_examples(carla_logs(max_frames=3), problems)
    assert_all_examples(carla_logs(max_frames=3, valid=False), problems)
