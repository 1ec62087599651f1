#!/usr/bin/env python3
"""Write a synthetic NanoVer trajectory (.traj) of a given size, for the benchmarks.

    python benchmarks/make_nanover_traj.py OUT.traj [--size 500MB] [--particles 20000] [--seed 1] [--quiet]

A reset frame with the whole topology (particles, residues of 10 atoms, one
chain, bonds, box), then delta frames of positions and velocities (3N floats
each) and energies, 33 ms apart, until the file reaches the size. Big frames
dominate the bytes, as in a real recording of a large system. The file checks
valid with no finding. Deterministic for a given seed; the position sets are
built once and reused in turn so that writing 500 MB takes seconds.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
from pathlib import Path

from recspec.reference.nanover import (
    Array,
    ArrayKind,
    Frame,
    encode_frame,
    encode_header,
    encode_record,
    encode_varint,
)

F, X, S = ArrayKind.FLOAT, ArrayKind.INDEX, ArrayKind.STRING
_SIZE_UNITS = {"kb": 10**3, "mb": 10**6, "gb": 10**9, "b": 1}


def parse_size(text: str) -> int:
    t = text.strip().lower()
    for unit in ("kb", "mb", "gb", "b"):
        if t.endswith(unit):
            return int(float(t[: -len(unit)]) * _SIZE_UNITS[unit])
    return int(t)



def _float_entry(key: str, values: list[float]) -> bytes:
    """A FrameData.arrays entry (field 2) holding a packed float array, serialized by hand."""
    packed = struct.pack(f"<{len(values)}f", *values)
    fa = b"\x0a" + encode_varint(len(packed)) + packed
    va = b"\x0a" + encode_varint(len(fa)) + fa
    k = key.encode()
    entry = b"\x0a" + encode_varint(len(k)) + k + b"\x12" + encode_varint(len(va)) + va
    return b"\x12" + encode_varint(len(entry)) + entry


def topology(n: int) -> Frame:
    n_res = (n + 9) // 10
    return Frame(0, {"particle.count": float(n), "residue.count": float(n_res), "chain.count": 1.0,
                     "system.simulation.counter": 0.0}, {
        "particle.positions": Array(F, tuple(float(i % 97) * 0.01 for i in range(3 * n))),
        "particle.elements": Array(X, tuple((6, 1, 8)[i % 3] for i in range(n))),
        "particle.names": Array(S, tuple(("C", "H", "O")[i % 3] for i in range(n))),
        "particle.residues": Array(X, tuple(i // 10 for i in range(n))),
        "residue.names": Array(S, ("RES",) * n_res),
        "residue.ids": Array(S, tuple(str(i + 1) for i in range(n_res))),
        "residue.chains": Array(X, (0,) * n_res),
        "chain.names": Array(S, ("A",)),
        "bond.pairs": Array(X, tuple(x for i in range(n - 1) for x in (i, i + 1))),
        "system.box.vectors": Array(F, (10.0, 0, 0, 0, 10.0, 0, 0, 0, 10.0)),
    })


def write(out: Path, size: int, particles: int, seed: int) -> int:
    rng = random.Random(seed)
    sets = [_float_entry("particle.positions", [rng.uniform(0, 10) for _ in range(3 * particles)])
            + _float_entry("particle.velocities", [rng.uniform(-1, 1) for _ in range(3 * particles)])
            for _ in range(4)]
    frames = 0
    with open(out, "wb") as f:
        f.write(encode_header())
        f.write(encode_record(0, encode_frame(topology(particles))))
        written, ts = f.tell(), 0
        while written < size:
            frames += 1
            ts += 33_000
            small = encode_frame(Frame(frames, {"energy.kinetic": 1000.0 + frames, "energy.potential": -5e4,
                                                "system.simulation.time": 0.002 * frames}))
            # small = 08 <index varint> 12 <len varint> <values entries>: append the big entries to its FrameData.
            body_start = 1 + len(encode_varint(frames))
            off = body_start + 1
            while small[off] & 0x80:
                off += 1
            off += 1
            frame_data = small[off:] + sets[frames % len(sets)]
            payload = small[:body_start] + b"\x12" + encode_varint(len(frame_data)) + frame_data
            rec = encode_record(ts, payload)
            f.write(rec)
            written += len(rec)
    return frames


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", default="500MB")
    ap.add_argument("--particles", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    frames = write(args.out, parse_size(args.size), args.particles, args.seed)
    if not args.quiet:
        print(f"{args.out}: {args.out.stat().st_size} bytes, 1 topology frame + {frames} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
