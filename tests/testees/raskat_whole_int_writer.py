"""A raSkat v3/v4 writer that packs a whole-number double as a MessagePack integer, as the raSkat C++ writer
built against msgpack-cxx 4.1.2 to 6.x does.

    python raskat_whole_int_writer.py CASE.json OUT

Everything else is recspec's reference encoder. The four double fields
(coordinate_1, coordinate_2, altitude, vref) holding a whole number (150.0, 0.0,
-0.0) are stored as integers (150, 0, 0). That is the document's type broken
(RSIG-FIELDS-003: an error under spec, info under compat), and both real readers
convert the integer back to the double, so under compat the file holds its case:
``drive --profile compat`` passes it, ``drive --profile spec`` fails it (the
file's RSIG-FIELDS-003 error, and the read-back ``0`` for ``0.0``). v1/v2 are
written by the reference encoder unchanged."""

import math
import sys
from dataclasses import replace

from _command import writer_main

from recspec.reference.raskat_signal import encode, from_case

DOUBLE_FIELDS = (2, 3, 4, 8)  # coordinate_1, coordinate_2, altitude, vref: MessagePack fields 3, 4, 5 and 9


def _as_msgpack_cxx_packs(x):
    if isinstance(x, float) and math.isfinite(x) and x.is_integer():
        return int(x)
    return x


def write(case: dict, out_path: str) -> None:
    model = from_case(case)
    sig = model.signal
    if sig.version >= 3:
        fields = tuple(_as_msgpack_cxx_packs(v) if i in DOUBLE_FIELDS else v for i, v in enumerate(sig.fields))
        model = replace(model, signal=replace(sig, fields=fields))
    with open(out_path, "wb") as f:
        f.write(encode(model))


if __name__ == "__main__":
    sys.exit(writer_main(write))
