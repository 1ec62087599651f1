"""A NanoVer writer with a planted bug: an empty array's type is guessed, and the guess is "index".

    python nanover_guess_writer.py CASE.json OUT

Everything else is recspec's reference encoder. The bug, as NanoVer's Python
recorder had it: a writer that builds each ValueArray from the values it holds
cannot tell an empty float or string array from an empty index array, and writes
every empty array as an IndexArray. The smallest failing case is a trajectory of
one record: a reset frame with no particles, whose empty float and string arrays
(``particle.positions``, ``particle.names``, ...) are read back as empty index
arrays (the first difference, in the encoder's key order: ``particle.names``)."""

import json
import sys
from dataclasses import replace
from pathlib import Path

from recspec.reference.nanover import Array, ArrayKind, Frame, encode, from_case


def write(case: dict, out_path: str) -> None:
    rec = from_case(case)
    records = []
    for r in rec.records:
        if isinstance(r.message, Frame):
            arrays = {k: Array(ArrayKind.INDEX, ()) if not a.values else a for k, a in r.message.arrays.items()}
            r = replace(r, message=replace(r.message, arrays=arrays))
        records.append(r)
    with open(out_path, "wb") as f:
        f.write(encode(replace(rec, records=tuple(records))))


def main() -> int:
    write(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
