"""A CARLA reader with a planted bug: a log cut short inside its last frame is read as complete.

    python carla_truncated_reader.py VARIANT FILE

Everything else is recspec's reference decoder. The bug, as a reader that loops
"while the stream has packets" has it: when the file ends inside a packet, the
reader stops there, drops the unfinished frame and prints the frames before it,
instead of rejecting the file (CARLA-STREAM-001). The smallest failing input: the
smallest valid log (a header, no frame) with one byte, 0, appended: the file ends
inside a packet header. (A log cut short by one byte fails too; drive mutates by
appending before cutting, so it shrinks to the appended byte.)"""

import io
import sys

from _command import reader_main

from recspec.errors import Truncated
from recspec.reference.carla import (
    Packet,
    PacketReader,
    Recording,
    decode_body,
    decode_header,
    to_case,
    variant_by_name,
)
from recspec.reference.carla import PacketKind as K


def read(path: str, variant: str) -> dict:
    with open(path, "rb") as f:
        data = f.read()
    v = variant_by_name(variant)
    header, offset = decode_header(data, 0)  # a bad header is still rejected
    f = io.BytesIO(data)
    f.seek(offset)
    packets = []
    try:
        for raw in PacketReader(f, v, offset, len(data)):
            packets.append(Packet(raw.kind, decode_body(raw.kind, raw.payload, v, raw.payload_offset), raw.packet_id))
    except Truncated:
        # the planted bug: the file ended early; keep the frames that were complete
        while packets and packets[-1].kind is not K.FRAME_END:
            packets.pop()
    return to_case(Recording(header, tuple(packets)), variant=variant, canonical=True)


if __name__ == "__main__":
    sys.exit(reader_main(lambda: read(sys.argv[2], sys.argv[1])))
