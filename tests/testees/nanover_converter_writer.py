"""A NanoVer writer built the way recorders are: one converter per standard key, from the case's arrays to the
wire's. Correct unless a planted bug is named.

    python nanover_converter_writer.py [--bug NAME]... CASE.json OUT

Everything else is recspec's reference encoder. The bugs, each a converter wrong the way real recorders' were:

* ``orders-uint8``: bond.orders (floats) packed as uint8, as from a byte buffer: an index array of each order
  truncated to 0..255.
* ``ids-index``: residue.ids written as an index array of the integers the ids spell (negative ones wrapped
  to uint32), as a writer that keeps residue ids as integers.
* ``velocities-kind``: particle.velocities given the converter of a string array (each float's text).

Each makes a file that breaks the key's documented kind (NANOVER-FRAME-004, or NANOVER-FRAME-006 for an empty
array) and reads back as another case. Under spec the smallest failing case is a trajectory of one reset frame
with no particles whose array for the key is empty (written as an empty array of the wrong kind); under compat,
where an empty array of any kind is the same value, the smallest holds one particle (and for bond.orders one
bond). These keys were never drawn before the cases covered every standard key, so drive could not find these
bugs."""

import json
import sys
from dataclasses import replace
from pathlib import Path

from recspec.reference.nanover import Array, ArrayKind, Frame, encode, from_case


def _orders_uint8(a: Array) -> Array:
    return Array(ArrayKind.INDEX, tuple(int(x) & 0xFF for x in a.values))


def _ids_index(a: Array) -> Array:
    return Array(ArrayKind.INDEX, tuple(int(float(x)) & 0xFFFFFFFF for x in a.values))


def _velocities_text(a: Array) -> Array:
    return Array(ArrayKind.STRING, tuple(repr(x) for x in a.values))


BUGS = {"orders-uint8": ("bond.orders", _orders_uint8), "ids-index": ("residue.ids", _ids_index),
        "velocities-kind": ("particle.velocities", _velocities_text)}


def write(case: dict, out_path: str, bugs: tuple[str, ...] = ()) -> None:
    converters = dict(BUGS[b] for b in bugs)
    rec = from_case(case)
    records = []
    for r in rec.records:
        if isinstance(r.message, Frame):
            arrays = {k: converters[k](a) if k in converters else a for k, a in r.message.arrays.items()}
            r = replace(r, message=replace(r.message, arrays=arrays))
        records.append(r)
    with open(out_path, "wb") as f:
        f.write(encode(replace(rec, records=tuple(records))))


def main() -> int:
    argv = sys.argv[1:]
    bugs = []
    while argv and argv[0] == "--bug":
        bugs.append(argv[1])
        argv = argv[2:]
    write(json.loads(Path(argv[0]).read_text(encoding="utf-8")), argv[1], tuple(bugs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
