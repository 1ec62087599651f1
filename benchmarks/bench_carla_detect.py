"""CPU per CARLA file of variant detection and of the whole check, this checkout against another.

    python benchmarks/bench_carla_detect.py [--before-python PATH] [--rounds N] [--repeat R]

Each round runs this script's measurement (``--one``) once with this checkout's interpreter and once
with ``--before-python`` (another checkout's ``.venv/bin/python``, whose ``recspec`` it imports),
alternately, with the load printed before each. A measurement is in-process CPU time
(``time.process_time``) over every CARLA corpus file with a header, repeated R times, divided by
the files: ``detect_variant`` alone and ``check_stream`` (spec profile, the variant detected). The
best of the rounds is reported for each side, and the ratio.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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

    out = {"files": float(len(files))}
    for name, fn in (("detect", detect), ("check", check)):
        fn()  # warm: imports, the caches kept across files
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            for _ in range(repeat):
                fn()
            best = min(best, (time.process_time() - t) / repeat / len(files))
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
            print(f"round {r + 1} {side:6} load {load}: detect {got['detect']:.1f} us, check {got['check']:.1f} us "
                  f"a file ({got['files']:.0f} files)", flush=True)
            for k in ("detect", "check"):
                best.setdefault(side, {})[k] = min(best.get(side, {}).get(k, float("inf")), got[k])
    for side, b in best.items():
        print(f"best {side:6}: detect {b['detect']:.1f} us, check {b['check']:.1f} us a file")
    if "before" in best:
        for k in ("detect", "check"):
            print(f"{k}: after/before {best['after'][k] / best['before'][k]:.2f}")


if __name__ == "__main__":
    main()
