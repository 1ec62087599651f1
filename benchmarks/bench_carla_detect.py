"""CPU per CARLA file of variant detection and of the whole check, this checkout against another.

    python benchmarks/bench_carla_detect.py [--before-python PATH] [--rounds N] [--repeat R]

Each round runs this script's measurement (``--one``) once with this checkout's interpreter and once
with ``--before-python`` (another checkout's ``.venv/bin/python``, whose ``recspec`` it imports),
alternately, with the load printed before each. A measurement is in-process CPU time
(``time.process_time``) over every CARLA corpus file with a header, repeated R times, divided by
the files: ``detect_variant`` alone and ``check_stream`` (spec profile, the variant detected); and
``detect_variant`` of each real CARLA log of ``../shared/real/`` (or ``RECSPEC_REAL_DIR``) when it is
there. The best of the rounds is reported for each side, and the ratio.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REAL = Path(os.environ.get("RECSPEC_REAL_DIR", ROOT.parent / "shared" / "real"))


def _one(repeat: int) -> dict[str, float]:
    from recspec.conformance.carla import _check as carla_check
    from recspec.conformance.carla import detect_variant
    from recspec.errors import DecodeError
    from recspec.reference import carla as c

    files = []
    for path in sorted((ROOT / "corpus" / "carla").rglob("*")):
        if path.is_file() and path.suffix != ".json":
            data = path.read_bytes()
            try:
                _, offset = c.decode_header(data, 0)
            except DecodeError:
                continue
            files.append((data, offset))

    def detect() -> None:
        for data, offset in files:
            f = io.BytesIO(data)
            f.seek(offset)
            detect_variant(f, offset, len(data))

    def check() -> None:
        for data, _ in files:
            carla_check.check_stream(io.BytesIO(data), path="x", variant=None, profile="spec")

    def detect_real(data: bytes) -> Any:
        _, offset = c.decode_header(data, 0)

        def run() -> None:
            f = io.BytesIO(data)
            f.seek(offset)
            detect_variant(f, offset, len(data))
        return run

    out = {"files": float(len(files))}
    work: list[tuple[str, Any, int]] = [("detect", detect, len(files)), ("check", check, len(files))]
    work += [(path.name, detect_real(path.read_bytes()), 1) for path in sorted(REAL.glob("*.log"))]
    for name, fn, per in work:
        fn()  # warm: imports, the caches kept across files
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            for _ in range(repeat):
                fn()
            best = min(best, (time.process_time() - t) / repeat / per)
        out[name] = best * 1e6
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before-python", help="the other checkout's interpreter (its recspec is measured)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(_one(args.repeat)))
        return
    sides = {"after": sys.executable} | ({"before": args.before_python} if args.before_python else {})
    best: dict[str, dict[str, float]] = {}
    for r in range(args.rounds):
        for side in (("before", "after") if r % 2 == 0 else ("after", "before")):
            if side not in sides:
                continue
            load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
            cmd = [sides[side], str(Path(__file__).resolve()), "--one", "--repeat", str(args.repeat)]
            got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            files = got.pop("files")
            print(f"round {r + 1} {side:6} load {load}: " + ", ".join(f"{k} {v:.1f} us" for k, v in got.items())
                  + f" (detect and check: a corpus file of {files:.0f}; a real log: its detection)", flush=True)
            for k, v in got.items():
                best.setdefault(side, {})[k] = min(best.get(side, {}).get(k, float("inf")), v)
    for side, b in best.items():
        print(f"best {side:6}: " + ", ".join(f"{k} {v:.1f} us" for k, v in b.items()))
    if "before" in best:
        for k in best["after"]:
            print(f"{k}: after/before {best['after'][k] / best['before'][k]:.2f}")


if __name__ == "__main__":
    main()
