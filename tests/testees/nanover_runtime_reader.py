"""A NanoVer reader that reads payloads as NanoVer's own readers do: with the protobuf runtime, no wire walk.

    python nanover_runtime_reader.py VARIANT FILE

No planted bug. The header and record framing are recspec's reference reader;
each payload is parsed by upb (the protobuf runtime) alone and turned into the
case. The runtime skips a group as an unknown field and nests Struct/ListValue
up to its own limit of 100, so this reader accepts the files that break only
recspec's policy rules (NANOVER-PROTO-006: a group; NANOVER-LIMIT-002: Structs
nested deeper than recspec's 32), as NanoVer's Python readers do. ``recspec drive
reader`` must note those, not fail the reader (DRIVE-READER-008, not -006)."""

import io
import sys

from _command import reader_main

from recspec.reference.nanover import Kind, Record, Recording, to_case
from recspec.reference.nanover._framing import RecordReader, read_header
from recspec.reference.nanover._payload import (
    frame_from_message,
    parse_frame,
    parse_state_update,
    state_update_from_message,
)


def read(path: str, variant: str) -> dict:
    kind = Kind(variant)
    with open(path, "rb") as f:
        data = f.read()
    stream = io.BytesIO(data)
    _, offset = read_header(stream)
    records = []
    for at, timestamp, payload in RecordReader(stream, offset, len(data)).records():
        if kind is Kind.TRAJ:
            message = frame_from_message(parse_frame(payload, at))
        else:
            message = state_update_from_message(parse_state_update(payload, at))
        records.append(Record(timestamp, message))
    return to_case(Recording(kind, tuple(records)))


if __name__ == "__main__":
    sys.exit(reader_main(lambda: read(sys.argv[2], sys.argv[1])))
