"""A CARLA writer with a planted bug: each FrameStart's durationThis is written as the frame's elapsed time.

    python carla_duration_writer.py CASE.json OUT

Everything else is recspec's reference encoder. The bug, as a writer that fills
FrameStart from one clock has it: durationThis (how long this frame lasts; -1.0
in the last frame, which CARLA's recorder never patches) gets the time since the
recording began, the value of the field beside it. The file breaks
CARLA-FRAME-006 (the last frame's durationThis is -1.0) and does not hold the case
it was given. The smallest failing case: the smallest valid 0.9.15 log (header
date 1483228800, map Town01) with one frame (frame id 1, elapsed 0.0,
durationThis -1.0; between FrameStart and FrameEnd a VisualTime of 0.0 and every
record packet of the variant, empty), whose durationThis is read back as 0.0."""

import json
import sys
from dataclasses import replace
from pathlib import Path

from recspec.reference.carla import FrameStart, Packet, PacketKind, encode, from_case


def write(case: dict, out_path: str) -> None:
    log = from_case(case)
    packets = []
    for p in log.packets:
        if p.kind is PacketKind.FRAME_START:  # the planted bug: durationThis := elapsed
            p = Packet(p.kind, FrameStart(p.body.frame_id, p.body.elapsed, p.body.elapsed), p.packet_id)
        packets.append(p)
    with open(out_path, "wb") as f:
        f.write(encode(replace(log, packets=tuple(packets)), variant=case["variant"]))


def main() -> int:
    write(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
