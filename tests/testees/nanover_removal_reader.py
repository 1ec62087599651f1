"""A NanoVer reader with a planted bug: a state update's key removals are dropped.

    python nanover_removal_reader.py VARIANT FILE

Everything else is recspec's reference decoder. The bug, as a reader that turns
each StateUpdate into a dict of values has it: a key set to null is how an update
removes a key, and the reader skips null values ("nothing to store"), so the
removal is lost and the key lives on in its aggregated state. The file is valid;
the reader accepts it and reads another recording (a silent disagreement). The
smallest failing input: a state recording of two records, at 1 us and 2 us (the
smallest timestamps the strategy draws): the first sets the key "" to the
simplest value, an empty list, the second removes it: ``[{"timestamp_us": 1,
"update": {"": []}}, {"timestamp_us": 2, "update": {"": null}}]``, read with an
empty second update."""

import sys
from dataclasses import replace

from _command import reader_main

from recspec.reference.nanover import StateUpdate, decode, to_case


def read(path: str, variant: str) -> dict:
    with open(path, "rb") as f:
        rec = decode(f.read(), variant=variant)
    records = []
    for r in rec.records:
        if isinstance(r.message, StateUpdate):  # the planted bug: a null value is a removal, not nothing
            r = replace(r, message=StateUpdate({k: v for k, v in r.message.changes.items() if v is not None}))
        records.append(r)
    return to_case(replace(rec, records=tuple(records)), canonical=True)


if __name__ == "__main__":
    sys.exit(reader_main(lambda: read(sys.argv[2], sys.argv[1])))
