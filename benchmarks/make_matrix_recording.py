"""Write a synthetic, valid Matrix-SMT recording of a given size.

The file is one BSON document ``{objects, frames}`` written as the ``spec``
profile's encoder writes it (``recspec.reference.matrix_smt``), streaming to
disk: the objects, then one frame at a time, with the two length fields
(document and frames array) patched at the end. Only the current frame is ever
in memory.

Content (deterministic for a given ``--seed``), modelled on the one public
recording (a drone and a few rigid bodies at 60 frames per second) but with
more objects: ``--objects`` objects of the four geometries (box, sphere,
capsule, convex), every object moving each frame with a unit quaternion, the
frame time advancing by 1/60 s, and every ``--cmd-every``-th frame carrying a
debug command of each kind (vector, ray, sphere, cube).

Usage::

    python benchmarks/make_matrix_recording.py OUT.bson [--size 200MB] [--seed 1]
           [--profile spec|compat] [--objects 8] [--cmd-every 0]

Sizes take a unit: ``B``, ``kB``, ``MB``, ``GB`` (powers of 1000) or ``KiB``,
``MiB``, ``GiB``; a bare number is bytes. The file ends a fraction of a frame
above the requested size.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import struct
import sys
from pathlib import Path

from recspec.reference.matrix_smt import (
    CommandKind,
    DebugCommand,
    Frame,
    Geometry,
    Presence,
    SceneObject,
    State,
    encode_document,
    frame_document,
    object_document,
)

_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def parse_size(text: str) -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", text)
    if not m or m.group(2).lower() not in {"", *_UNITS}:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 200MB, 1GiB, 5000)")
    return int(float(m.group(1)) * _UNITS.get(m.group(2).lower(), 1))


def scene_objects(n: int, rng: random.Random) -> list[SceneObject]:
    out = []
    for i in range(n):
        g = (Geometry.BOX, Geometry.SPHERE, Geometry.CAPSULE, Geometry.CONVEX)[i % 4]
        color = (rng.random(), rng.random(), rng.random())
        if g is Geometry.BOX:
            out.append(SceneObject(i, f"box-{i}", g, color, False, half_dimentions=(0.15, 0.075, 0.15)))
        elif g is Geometry.SPHERE:
            out.append(SceneObject(i, f"sphere-{i}", g, color, False, radius=0.4))
        elif g is Geometry.CAPSULE:
            out.append(SceneObject(i, f"capsule-{i}", g, color, False, radius=0.5, half_height=0.5))
        else:
            out.append(SceneObject(i, f"convex-{i}", g, color, True,
                                   vertices=((0, 1, 0), (-1, 0, 0), (1, 0, 0), (0, 0, -1), (0, 0, 1))))
    return out


def _quat(rng: random.Random) -> tuple[float, float, float, float]:
    x, y, z, w = (rng.gauss(0, 1) for _ in range(4))
    n = math.sqrt(x * x + y * y + z * z + w * w) or 1.0
    return (x / n, y / n, z / n, w / n)


def _commands(rng: random.Random) -> tuple[DebugCommand, ...]:
    o = (rng.uniform(-5, 5), rng.uniform(0, 3), rng.uniform(-5, 5))
    return (
        DebugCommand(CommandKind.VECTOR, o, vector=(0.0, 1.0, 0.0), color=(1.0, 0.0, 0.0), opacity=1.0),
        DebugCommand(CommandKind.RAY, o, end=(o[0] + 1, o[1], o[2]), color=(0.0, 1.0, 0.0), opacity=1.0),
        DebugCommand(CommandKind.SPHERE, o, radius=0.25, color=(0.0, 0.0, 1.0), opacity=0.5),
        DebugCommand(CommandKind.CUBE, o, half_size=(0.5, 0.5, 0.5), rotation=_quat(rng), color=(1.0, 1.0, 0.0),
                     opacity=0.05),
    )


def write(out: Path, size: int, *, seed: int = 1, profile: str = "spec", n_objects: int = 8,
          cmd_every: int = 0) -> dict[str, int]:
    rng = random.Random(seed)
    objects = scene_objects(n_objects, rng)
    objects_doc = b"".join(b"\x03" + str(i).encode() + b"\x00" + encode_document(object_document(o, profile))
                           for i, o in enumerate(objects))
    objects_el = b"\x04objects\x00" + struct.pack("<i", 4 + len(objects_doc) + 1) + objects_doc + b"\x00"
    pos = [(rng.uniform(-5, 5), rng.uniform(0, 3), rng.uniform(-5, 5)) for _ in objects]
    frames = 0
    with open(out, "wb") as f:
        f.write(b"\x00\x00\x00\x00")
        compat = profile == "compat"
        if not compat:
            f.write(objects_el)
        f.write(b"\x04frames\x00")
        frames_at = f.tell()
        f.write(b"\x00\x00\x00\x00")
        written = f.tell()
        while written < size:
            frames += 1
            t = frames / 60
            states = tuple(State(o.id, Presence.INSTANTIATED, "md",
                                 (p[0] + math.sin(t + i), p[1], p[2] + math.cos(t + i)), _quat(rng))
                           for i, (o, p) in enumerate(zip(objects, pos)))
            cmds = _commands(rng) if cmd_every and frames % cmd_every == 0 else ()
            doc = encode_document(frame_document(Frame(t, states, cmds), profile))
            chunk = b"\x03" + str(frames - 1).encode() + b"\x00" + doc
            f.write(chunk)
            written += len(chunk)
        f.write(b"\x00")
        frames_end = f.tell()
        if compat:
            f.write(objects_el)
        f.write(b"\x00")
        total = f.tell()
        if total >= 2**31:
            raise SystemExit("a BSON document is at most 2 GiB; ask for a smaller size")
        f.seek(frames_at)
        f.write(struct.pack("<i", frames_end - frames_at))
        f.seek(0)
        f.write(struct.pack("<i", total))
    return {"bytes": total, "frames": frames, "objects": len(objects)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", type=parse_size, default=parse_size("200MB"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", choices=("spec", "compat"), default="spec")
    ap.add_argument("--objects", type=int, default=8)
    ap.add_argument("--cmd-every", type=int, default=0, help="a debug command of each kind every N frames (0: none)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    info = write(args.out, args.size, seed=args.seed, profile=args.profile, n_objects=args.objects,
                 cmd_every=args.cmd_every)
    if not args.quiet:
        print(f"{args.out}: {info['bytes']} bytes, {info['frames']} frames, {info['objects']} objects")
    return 0


if __name__ == "__main__":
    sys.exit(main())
