"""A CARLA recorder-log writer driven by `recspec drive writer` (a command-line program).

    recspec drive writer carla --variant 0.9.15 -- python docs/testees/carla_writer.py {case} {out}

The writer under test here is ``RecorderWriter``, the incremental writer of
recspec's CARLA reference, which writes a log the way CARLA's recorder does: the
header, then one frame per call, patching the previous frame's durationThis when
the next frame starts (the last frame keeps -1.0). Put your own in its place. The
adapter (``main``) reads the case JSON recspec hands it, turns each case frame into
one ``frame(packets, delta)`` call, and exits non-zero to refuse a case it cannot
write. A CARLA log does not say which release wrote it, so the case names its
variant and the writer is driven per variant (``--variant``)."""

import json
import sys
from pathlib import Path

from recspec.errors import EncodeError
from recspec.reference.carla import RecorderWriter, frames, from_case, variant_by_name


def write(case: dict, out_path: str) -> None:
    log = from_case(case)  # the case's header and packets, as the writer's objects
    with open(out_path, "wb") as f:
        writer = RecorderWriter(f, log.header, variant_by_name(case["variant"]))
        delta = 0.0
        for start, packets in frames(log.packets):
            writer.frame(packets, delta=delta)  # the writer computes elapsed and frame ids itself
            delta = start.duration_this  # how long this frame lasted: the next frame starts that much later
        writer.close()


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: carla_writer.py CASE.json OUT", file=sys.stderr)
        return 2
    try:
        write(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), sys.argv[2])
    except EncodeError as e:  # a value the variant's layout cannot hold
        print(f"cannot write this case: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
