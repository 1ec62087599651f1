"""Write a synthetic, valid CARLA recorder log of a given size.

The log is written frame by frame with the reference ``RecorderWriter`` (so the
frame timing, back-patched ``durationThis`` included, is CARLA's), streaming to
disk: only the current frame is ever in memory.

Content (deterministic for a given ``--seed``), modelled on what CARLA's
recorder writes for a busy town with the additional data off:

* frame 1: one ``EventAdd`` with every actor: vehicles (type 1, some of them
  bicycles), walkers (type 2) and traffic lights (type 3), each with a few
  blueprint attributes;
* every frame, in the writer's order: ``VisualTime``, ``EventAdd`` (empty after
  frame 1), empty ``EventDel``/``EventParent``/``Collision`` (and an empty
  ``VehicleDoor`` in the 0.9.16-style numberings), ``Position`` for every
  vehicle and walker, ``State`` for the traffic lights, ``AnimVehicle``,
  ``AnimWalker``, ``VehicleLight``, ``AnimVehicleWheels`` (4 wheels per vehicle)
  and ``AnimBiker`` for the bicycles.

Usage::

    python benchmarks/make_carla_log.py OUT.log [--size 200MB] [--variant 0.9.15] [--seed 1]

Sizes take a unit: ``B``, ``kB``, ``MB``, ``GB`` (powers of 1000) or ``KiB``,
``MiB``, ``GiB``; a bare number is bytes. The file is written until it reaches
at least the requested size, so it ends a fraction of a frame (~17 kB with the
default actors) above it.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from recspec.reference.carla import (
    VARIANTS,
    ActorAttribute,
    AnimBiker,
    AnimVehicle,
    AnimVehicleWheels,
    AnimWalker,
    EventAdd,
    Header,
    Packet,
    Position,
    RecorderWriter,
    Rotator,
    TrafficLightState,
    Variant,
    Vec3,
    VehicleLight,
    VisualTime,
    WheelAnim,
)
from recspec.reference.carla import (
    PacketKind as K,
)

__all__ = ["SUPPORTED_VARIANTS", "parse_size", "write_log"]

#: Variants that have every packet the generator writes (AnimVehicleWheels and AnimBiker).
SUPPORTED_VARIANTS = tuple(
    name for name, v in VARIANTS.items() if K.ANIM_VEHICLE_WHEELS in v.id_of and K.ANIM_BIKER in v.id_of
)

DEFAULT_SIZE = 200_000_000
DEFAULT_DATE = 1_700_000_000  # 2023-11-14T22:13:20Z
DELTA = 0.05  # 20 Hz, a common fixed delta in CARLA scenarios

_UNITS = {
    "": 1, "b": 1,
    "k": 1000, "kb": 1000, "m": 1000**2, "mb": 1000**2, "g": 1000**3, "gb": 1000**3,
    "kib": 1024, "mib": 1024**2, "gib": 1024**3,
}

_VEHICLE_BLUEPRINTS = (
    "vehicle.tesla.model3", "vehicle.audi.tt", "vehicle.lincoln.mkz_2020", "vehicle.nissan.patrol",
    "vehicle.mercedes.coupe_2020", "vehicle.toyota.prius", "vehicle.carlamotors.carlacola",
)
_BIKE_BLUEPRINTS = ("vehicle.diamondback.century", "vehicle.bh.crossbike", "vehicle.gazelle.omafiets")


def parse_size(text: str) -> int:
    """``"200MB"`` -> 200_000_000; ``"1.5MiB"`` -> 1572864; ``"4096"`` -> 4096."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([A-Za-z]*)\s*", text)
    if not match or match.group(2).lower() not in _UNITS:
        raise ValueError(f"not a size: {text!r} (examples: 200MB, 1.5MiB, 4096)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


@dataclass(frozen=True, slots=True)
class _Mover:
    """A vehicle or walker going round an ellipse at constant angular speed."""

    actor_id: int
    cx: float
    cy: float
    z: float
    rx: float
    ry: float
    omega: float  # rad/s
    phase: float


def _attribute_types(variant: Variant) -> dict[str, int]:
    # Released 0.9.x and UE5 number the attribute types from 0, the 0.9.16 and
    # 2023+ development numbering from 1 (see CARLA-ENUM-005).
    base = min(variant.attribute_types)
    return {"bool": base, "int": base + 1, "float": base + 2, "string": base + 3, "color": base + 4}


def _actors(rng: random.Random, variant: Variant, vehicles: int, walkers: int, lights: int):
    """The frame-1 EventAdd records and the motion of each actor."""
    at = _attribute_types(variant)
    adds: list[EventAdd] = []
    cars: list[_Mover] = []
    bikes: set[int] = set()
    peds: list[_Mover] = []
    tls: list[int] = []
    next_id = 1
    uid = 1000
    for i in range(vehicles):
        bike = i % 8 == 7
        blueprint = rng.choice(_BIKE_BLUEPRINTS if bike else _VEHICLE_BLUEPRINTS)
        m = _Mover(next_id, rng.uniform(-200_00, 200_00), rng.uniform(-200_00, 200_00), rng.uniform(0, 50),
                   rng.uniform(20_00, 80_00), rng.uniform(20_00, 80_00),
                   rng.uniform(0.05, 0.3) * rng.choice((-1, 1)), rng.uniform(0, 2 * math.pi))
        attrs = (
            ActorAttribute(at["string"], "role_name", "hero" if i == 0 else "autopilot"),
            ActorAttribute(at["color"], "color", f"{rng.randrange(256)},{rng.randrange(256)},{rng.randrange(256)}"),
            ActorAttribute(at["int"], "number_of_wheels", "2" if bike else "4"),
            ActorAttribute(at["int"], "generation", str(rng.choice((1, 2)))),
            ActorAttribute(at["bool"], "sticky_control", "true"),
        )
        adds.append(EventAdd(next_id, 1, Vec3(m.cx + m.rx * math.cos(m.phase), m.cy + m.ry * math.sin(m.phase), m.z),
                             Rotator(0.0, 0.0, 0.0), uid, blueprint, attrs))
        cars.append(m)
        if bike:
            bikes.add(next_id)
        next_id += 1
        uid += 1
    for i in range(walkers):
        m = _Mover(next_id, rng.uniform(-200_00, 200_00), rng.uniform(-200_00, 200_00), rng.uniform(0, 50) + 90.0,
                   rng.uniform(2_00, 20_00), rng.uniform(2_00, 20_00),
                   rng.uniform(0.02, 0.2) * rng.choice((-1, 1)), rng.uniform(0, 2 * math.pi))
        attrs = (
            ActorAttribute(at["string"], "role_name", "walker"),
            ActorAttribute(at["bool"], "is_invincible", "false"),
            ActorAttribute(at["float"], "speed", f"{rng.uniform(1.0, 2.5):.2f}"),
            ActorAttribute(at["string"], "age", rng.choice(("adult", "child"))),
        )
        adds.append(EventAdd(next_id, 2, Vec3(m.cx + m.rx * math.cos(m.phase), m.cy + m.ry * math.sin(m.phase), m.z),
                             Rotator(0.0, 0.0, 0.0), uid, f"walker.pedestrian.{i % 48 + 1:04d}", attrs))
        peds.append(m)
        next_id += 1
        uid += 1
    for _ in range(lights):
        adds.append(EventAdd(next_id, 3, Vec3(rng.uniform(-200_00, 200_00), rng.uniform(-200_00, 200_00), 0.0),
                             Rotator(0.0, 0.0, rng.choice((0.0, 90.0, 180.0, -90.0))), uid,
                             "traffic.traffic_light", ()))
        tls.append(next_id)
        next_id += 1
        uid += 1
    return tuple(adds), cars, bikes, peds, tls


def _frame_packets(n: int, t: float, variant: Variant, cars: list[_Mover], bikes: set[int], peds: list[_Mover],
                   tls: list[int], adds: tuple, lights_cache: dict[int, VehicleLight]) -> list[Packet]:
    """The packets of frame ``n`` (1-based) at elapsed time ``t``, in the writer's order."""
    cos, sin, atan2, degrees = math.cos, math.sin, math.atan2, math.degrees
    positions: list[Position] = []
    anim_vehicles: list[AnimVehicle] = []
    wheels: list[AnimVehicleWheels] = []
    bikers: list[AnimBiker] = []
    vehicle_lights: list[VehicleLight] = []
    for m in cars:
        a = m.phase + m.omega * t
        ca, sa = cos(a), sin(a)
        # velocity direction of the ellipse (dx/da, dy/da) times the sign of omega
        vx, vy = -m.rx * sa * m.omega, m.ry * ca * m.omega
        yaw = degrees(atan2(vy, vx))
        speed = math.hypot(vx, vy)  # cm/s
        steer = 0.25 * sin(a * 3.0)
        positions.append(Position(m.actor_id, Vec3(m.cx + m.rx * ca, m.cy + m.ry * sa, m.z),
                                  Rotator(0.5 * sin(a), 1.5 * cos(a * 2.0), yaw)))
        throttle = 0.5 + 0.5 * sin(a * 5.0)
        brake = 0.0 if throttle > 0.2 else 0.3
        anim_vehicles.append(AnimVehicle(m.actor_id, steer, throttle, brake, 1 if speed < 50.0 else 0,
                                         1 + int(speed / 1000.0) % 5))
        # Lights change every 10 s; the record objects are shared between frames meanwhile.
        state = (n // 200 + m.actor_id) % 4
        light = lights_cache.get(m.actor_id)
        if light is None or light.state != state:
            light = lights_cache[m.actor_id] = VehicleLight(m.actor_id, state)
        vehicle_lights.append(light)
        spin = (speed * t / 35.0 * 57.29577951308232) % 360.0  # tyre radius 35 cm, degrees
        wheels.append(AnimVehicleWheels(m.actor_id, (
            WheelAnim(0, steer * 70.0, spin), WheelAnim(1, steer * 70.0, spin),
            WheelAnim(2, 0.0, spin), WheelAnim(3, 0.0, spin),
        )))
        if m.actor_id in bikes:
            bikers.append(AnimBiker(m.actor_id, speed / 100.0, spin))
    anim_walkers: list[AnimWalker] = []
    for m in peds:
        a = m.phase + m.omega * t
        ca, sa = cos(a), sin(a)
        vx, vy = -m.rx * sa * m.omega, m.ry * ca * m.omega
        positions.append(Position(m.actor_id, Vec3(m.cx + m.rx * ca, m.cy + m.ry * sa, m.z),
                                  Rotator(0.0, 0.0, degrees(atan2(vy, vx)))))
        anim_walkers.append(AnimWalker(m.actor_id, math.hypot(vx, vy)))
    # Traffic lights: a 30 s cycle (green 15, yellow 3, red 12), each light offset by its id.
    states: list[TrafficLightState] = []
    for i, actor in enumerate(tls):
        c = (t + 7.0 * i) % 30.0
        state, since = (2, c) if c < 15.0 else ((1, c - 15.0) if c < 18.0 else (0, c - 18.0))
        states.append(TrafficLightState(actor, 0, since, state))
    ids = variant.id_of
    packets = [
        Packet(K.VISUAL_TIME, VisualTime(t)),
        Packet(K.EVENT_ADD, adds if n == 1 else ()),
        Packet(K.EVENT_DEL, ()),
        Packet(K.EVENT_PARENT, ()),
        Packet(K.COLLISION, ()),
    ]
    if K.VEHICLE_DOOR in ids:  # the 0.9.16-style numberings write VehicleDoor here, every frame
        packets.append(Packet(K.VEHICLE_DOOR, ()))
    packets += [
        Packet(K.POSITION, tuple(positions)),
        Packet(K.STATE, tuple(states)),
        Packet(K.ANIM_VEHICLE, tuple(anim_vehicles)),
        Packet(K.ANIM_WALKER, tuple(anim_walkers)),
        Packet(K.VEHICLE_LIGHT, tuple(vehicle_lights)),
        Packet(K.ANIM_VEHICLE_WHEELS, tuple(wheels)),
        Packet(K.ANIM_BIKER, tuple(bikers)),
    ]
    return packets


def write_log(
    path: str | Path, size: int = DEFAULT_SIZE, *, variant: str = "0.9.15", seed: int = 1,
    vehicles: int = 150, walkers: int = 50, traffic_lights: int = 12, map_name: str = "Town10HD_Opt",
) -> dict:
    """Write a log of at least ``size`` bytes to ``path``; return what was written."""
    if variant not in SUPPORTED_VARIANTS:
        raise ValueError(f"variant {variant!r} not supported; choose one of {', '.join(SUPPORTED_VARIANTS)}")
    if min(vehicles, walkers, traffic_lights) < 0:
        raise ValueError("actor counts must not be negative")
    v = VARIANTS[variant]
    rng = random.Random(seed)
    adds, cars, bikes, peds, tls = _actors(rng, v, vehicles, walkers, traffic_lights)
    lights_cache: dict[int, VehicleLight] = {}
    frames = 0
    with open(path, "wb", buffering=1 << 20) as f:
        writer = RecorderWriter(f, Header(1, "CARLA_RECORDER", DEFAULT_DATE, map_name), v)
        while frames == 0 or f.tell() < size:
            frames += 1
            # Integer frame count times delta, as a fixed-delta simulation does; the
            # writer accumulates the deltas into `elapsed` itself.
            writer.frame(_frame_packets(frames, writer.elapsed + (DELTA if frames > 1 else 0.0), v,
                                        cars, bikes, peds, tls, adds, lights_cache), DELTA)
        writer.close()
        written = f.tell()
    return {"path": str(path), "bytes": written, "frames": frames, "variant": variant, "seed": seed,
            "actors": len(adds), "vehicles": vehicles, "walkers": walkers, "traffic_lights": traffic_lights,
            "bicycles": len(bikes)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="file to write (overwritten)")
    ap.add_argument("--size", default="200MB", help="minimum size, e.g. 50MB, 1.5MiB (default 200MB)")
    ap.add_argument("--variant", default="0.9.15", choices=SUPPORTED_VARIANTS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vehicles", type=int, default=150)
    ap.add_argument("--walkers", type=int, default=50)
    ap.add_argument("--traffic-lights", type=int, default=12)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    try:
        size = parse_size(args.size)
    except ValueError as e:
        ap.error(str(e))
    t0 = time.perf_counter()
    info = write_log(args.out, size, variant=args.variant, seed=args.seed, vehicles=args.vehicles,
                     walkers=args.walkers, traffic_lights=args.traffic_lights)
    if not args.quiet:
        took = time.perf_counter() - t0
        print(f"wrote {info['path']}: {info['bytes']} bytes, {info['frames']} frames, {info['actors']} actors, "
              f"variant {info['variant']}, in {took:.1f} s ({info['bytes'] / 1e6 / took:.1f} MB/s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
