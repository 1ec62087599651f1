"""A raSkat v2 writer with a planted bug: negative coordinates are written as the C++ writer does.

    python raskat_negative_writer.py CASE.json OUT

Standalone (no recspec import), raw v2 only. The bug, as in the raSkat detector's
C++ writer: the integer part is converted to uint16 and the fraction computed from
that converted integer, then converted to uint32, so -70.5 is stored as garbage
instead of the case being refused. Everything else is written right (the fraction
rounded, not floored), so the smallest failing case is a v2 case whose longitude is
-0.000001 (one millionth west), with every other value at its smallest."""

import json
import math
import struct
import sys
from pathlib import Path


def fixed(x: float) -> tuple[int, int]:
    whole = math.floor(x) & 0xFFFF  # the planted bug: no refusal for x < 0
    frac = round((x - whole) * 1_000_000) & 0xFFFFFFFF
    return whole, frac


def write(case: dict, out_path: str, to_fixed=fixed) -> None:
    """``to_fixed``: how a coordinate becomes its parts (the tests swap in the raSkat writer's other habit)."""
    if case["variant"] != "v2" or case.get("container", "raw") != "raw":
        raise ValueError("this writer writes raw v2 signals only")
    parts = [p for name in ("longitude", "latitude", "altitude") for p in to_fixed(case[name])]
    head = struct.pack("<H14sIHIHIHIIBI", 2, case["time"].encode("ascii"), case["microseconds"], *parts,
                       case["sample_rate"], case["flags"], len(case["samples"]))
    with open(out_path, "wb") as f:
        f.write(head + struct.pack(f"<{len(case['samples'])}h", *case["samples"]))


def main() -> int:
    try:
        write(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), sys.argv[2])
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
