"""Frames proved clean in bulk (conformance/carla/_frames.py), held to the timing rules of
docs/formats/carla.md at every place in a steady run: a durationThis below 0 before the last frame is
CARLA-FRAME-008 at that FrameStart's durationThis (the FrameStart's payload offset + 8, 8 bytes), wherever
the frame falls in the batches of 16, 4 or 1 frames the template and the reference frame read, and with
the frames after it timed as elapsed + durationThis says (the earlier test of this rule gave the next
frame the broken frame's elapsed, so its CARLA-FRAME-004, hidden behind FRAME-008, kept every such run
out of the bulk proof). Logs are
tests/build_carla.py's steady runs, made byte by byte, checked with the fast paths on and
off. Written against the survivors of a fresh sample of tools/mutate.py's mutants of the module (seed 7)."""

from __future__ import annotations

import pytest
from build_carla import FRAMES, STEP, both, frame_starts, steady


@pytest.mark.parametrize("rotate", [False, True])
def test_a_negative_step_anywhere_before_the_last_frame(rotate: bool) -> None:
    for j in range(2, FRAMES):
        def edit(i: int, parts: dict[str, object], j: int = j) -> None:
            if i == j:
                parts["duration"] = -STEP
            if i > j:
                # elapsed adds the negative step (j's elapsed - STEP), bit for bit: CARLA-FRAME-008 alone, and
                # timing that otherwise follows on, as a batch the template or the reference proves reads it
                parts["elapsed"] = (i - 3) * STEP
        data = steady(edit, rotate=rotate)
        report = both(data)
        fs = frame_starts(data)[j - 1] + 5  # the FrameStart's payload: u64 id, f64 durationThis, f64 elapsed
        assert [(f.rule, f.offset, f.length, f.path) for f in report.findings] == \
            [("CARLA-FRAME-008", fs + 8, 8, f"frame[{j - 1}]/packet[0]:FrameStart.duration_this")], j
