"""A raSkat v3/v4 writer with two independent planted bugs.

    python raskat_two_bugs_writer.py CASE.json OUT

Everything else is recspec's reference encoder.

1. The antenna type 0 ("unknown") is written as 1 (mini-whip), as a writer that
   defaults a missing antenna to the one it ships with. Every v3/v4 case with
   antenna 0 fails: the smallest is the simplest case of the variant.
2. v4 only: the threshold is written one higher than the case says (an
   off-by-one in a unit conversion). Every v4 case fails, whatever its antenna.

``recspec drive`` reports both, each shrunk on its own: a mismatch at
``antenna`` and one at ``threshold``."""

import sys
from dataclasses import replace

from _command import writer_main

from recspec.reference.raskat_signal import encode, from_case

ANTENNA, THRESHOLD = 10, 12  # field indices (MessagePack fields 11 and 13)


def write(case: dict, out_path: str) -> None:
    model = from_case(case)
    sig = model.signal
    if sig.version >= 3:
        fields = list(sig.fields)
        if fields[ANTENNA] == 0:  # bug 1
            fields[ANTENNA] = 1
        if sig.version == 4 and isinstance(fields[THRESHOLD], int):  # bug 2
            fields[THRESHOLD] += 1
        model = replace(model, signal=replace(sig, fields=tuple(fields)))
    with open(out_path, "wb") as f:
        f.write(encode(model))


if __name__ == "__main__":
    sys.exit(writer_main(write))
