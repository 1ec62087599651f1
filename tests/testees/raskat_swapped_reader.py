"""A raSkat reader with a planted bug: it reads the two v3 coordinates swapped.

    python raskat_swapped_reader.py FILE

Everything else is recspec's reference decoder. The bug, as a reader written from
the document has it: the document says a v3 signal's first double is the longitude
and the second the latitude; the raSkat writer stores the latitude first. The
reader names the doubles by the document and prints them by what they mean (the
case's ``coordinate_1`` is the latitude as written), so a v3 file's coordinates
come out swapped (v4 files, read by newer code, are right). The smallest failing
input: the smallest valid v3 case whose two coordinates differ: time
20000101000000, every number at its smallest (vref 1.0, the simplest in its
range), no samples, coordinate_1 0.0 and coordinate_2 1.0, read as 1.0 and 0.0."""

import sys
from dataclasses import replace

from _command import reader_main

from recspec.reference.raskat_signal import SignalMsgpack, decode, to_case


def read(path: str) -> dict:
    with open(path, "rb") as f:
        file = decode(f.read())
    sig = file.signal
    if isinstance(sig, SignalMsgpack) and sig.version == 3:
        longitude, latitude = sig.fields[2], sig.fields[3]  # the planted bug: the document's order
        sig = SignalMsgpack(3, sig.fields[:2] + (latitude, longitude) + sig.fields[4:])
    return to_case(replace(file, signal=sig), canonical=True)


if __name__ == "__main__":
    sys.exit(reader_main(lambda: read(sys.argv[1])))
