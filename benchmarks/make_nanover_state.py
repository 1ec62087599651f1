#!/usr/bin/env python3
"""Write a synthetic NanoVer state recording (.state) of a given size, for the benchmarks.

    python benchmarks/make_nanover_state.py OUT.state [--size 1.4MB] [--users 3] [--seed 1]

The keys are those the format notes list for real sessions (docs/formats, "State keys
seen in the samples"): the first record is the whole state (each user's
``avatar.<uuid>`` and ``playarea.<uuid>``, ``scene``,
``imd.velocity_reset_available``); then, 30 times a second, an update of each
avatar (a Struct of a name, a colour, a player id and a list of components, each a
Struct of a name, a position and a rotation), its ``update.index.<uuid>``, now and
then the ``scene``, and ``interaction.<uuid>`` Structs that start, move and are
deleted (a null value). The file checks valid with no finding; deterministic for
a given seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import uuid
from pathlib import Path
from typing import Any

from recspec.reference.nanover import StateUpdate, encode_header, encode_record, encode_state_update

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_nanover_traj import parse_size

_COMPONENTS = ("headset", "hand.left", "hand.right")


def _avatar(rng: random.Random, name: str, player: int, colour: list[float]) -> dict[str, Any]:
    return {"name": name, "color": colour, "playerid": str(player), "components": [
        {"name": c, "position": [rng.uniform(-2, 2), rng.uniform(0, 2), rng.uniform(-2, 2)],
         "rotation": [rng.uniform(-1, 1) for _ in range(4)]} for c in _COMPONENTS]}


def _interaction(rng: random.Random) -> dict[str, Any]:
    return {"interaction_type": "spring", "particles": [float(rng.randrange(5000)) for _ in range(rng.randint(1, 8))],
            "position": [rng.uniform(-5, 5) for _ in range(3)], "scale": 100.0, "mass_weighted": True,
            "reset_velocities": False, "max_force": 20000.0}


def write(path: str | Path, size: int, users: int = 3, seed: int = 1) -> int:
    """Write the recording to ``path`` until it holds at least ``size`` bytes; returns its size."""
    rng = random.Random(seed)
    ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(users)]
    colours = [[rng.random(), rng.random(), rng.random(), 1.0] for _ in ids]
    first: dict[str, Any] = {"imd.velocity_reset_available": True,
                             "scene": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]}
    for i, u in enumerate(ids):
        first[f"avatar.{u}"] = _avatar(rng, f"user {i}", i, colours[i])
        first[f"playarea.{u}"] = {k: [rng.uniform(-3, 3), 0.0, rng.uniform(-3, 3)] for k in "ABCD"}
        first[f"update.index.{u}"] = 0.0
    ts = 1_000_000
    live: dict[str, str] = {}  # interaction key -> its user
    with open(path, "wb") as f:
        f.write(encode_header())
        f.write(encode_record(ts, encode_state_update(StateUpdate(first))))
        n = 1
        while f.tell() < size:
            ts += 33_333
            changes: dict[str, Any] = {}
            for i, u in enumerate(ids):
                changes[f"avatar.{u}"] = _avatar(rng, f"user {i}", i, colours[i])
                changes[f"update.index.{u}"] = float(n)
            if n % 30 == 0:
                changes["scene"] = [rng.uniform(-1, 1) for _ in range(7)] + [1.0, 1.0, 1.0]
            if rng.random() < 0.05 and len(live) < users:
                live[f"interaction.{uuid.UUID(int=rng.getrandbits(128))}"] = rng.choice(ids)
            for key in list(live):
                if rng.random() < 0.02:
                    changes[key] = None  # the interaction ends: its key is deleted
                    del live[key]
                else:
                    changes[key] = _interaction(rng)
            f.write(encode_record(ts, encode_state_update(StateUpdate(changes))))
            n += 1
        return f.tell()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", type=parse_size, default=parse_size("1.4MB"))
    ap.add_argument("--users", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{args.out}: {write(args.out, args.size, args.users, args.seed):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
