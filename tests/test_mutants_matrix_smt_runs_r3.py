"""Runs of frames (conformance/matrix_smt/_runs.py) past the frame keys of three digits.

A frames array's keys are the indexes "0", "1", ... (BSON's array keys, docs/formats/matrix-smt.md,
MATRIX-BSON-008), so frames 1000 on have keys of four digits and frames 10000 on of five. As
_runs' docstring says, the fast path takes the first frame of a layout and runs take every later
frame with its layout: a run must go on across the keys' thousands and ten thousands as it does
across their units, tens and hundreds (the digit columns of the keys are compared with the indexes'
digits). The recordings are pymongo's ``bson.encode``; ``runs_taken`` counts what the runs take, and
each file is checked with the fast paths on and off (``checked_both_ways``).
"""

from __future__ import annotations

import bson
import pytest
from build_matrix_smt import checked_both_ways, element_offsets, runs_taken

_OBJECT = {"id": 3, "name": "o", "type": "sphere", "color": [0.0, 0.5, 1.0], "radius": 1.0}


def _recording(frames: int, states: int) -> dict[str, object]:
    return {"objects": [_OBJECT],
            "frames": [{"states": [{"id": 3, "i": "i", "m": "", "p": [0.5, 1.5, float(f)], "r": [0.0, 0.0, 0.0, 1.0]}
                                   for _ in range(states)], "cmd": [], "t": 0.25 + f / 64} for f in range(frames)]}


@pytest.mark.parametrize(("frames", "states"), [(1100, 1), (2300, 0), (10_050, 0)])
def test_runs_go_on_across_keys_of_four_and_five_digits(monkeypatch: pytest.MonkeyPatch, frames: int,
                                                        states: int) -> None:
    taken = runs_taken(monkeypatch)
    data = bson.encode(_recording(frames, states))
    assert data.count(b"\x031000\x00") == 1  # frame 1000's element: a key of four digits
    report = checked_both_ways(data, "spec")
    assert report.findings == []
    assert report.stats["frames"] == frames and report.stats["states"] == states * frames
    assert report.evidence["fast_path_frames"] == frames
    assert sum(taken) == frames - 1  # every frame after the first, in runs


def test_a_time_going_back_in_the_thousands_ends_the_run_there(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = runs_taken(monkeypatch)
    doc = _recording(2300, 1)
    doc["frames"][2042]["t"] = 0.0  # before frame 2041's time
    data = bson.encode(doc)
    report = checked_both_ways(data, "spec")
    assert [(f.rule, f.path, f.offset) for f in report.findings] == [
        ("MATRIX-FRAME-002", "frames[2042].t", element_offsets(data)["frames[2042].t"])]
    # the first frame by the fast path, frames 1 to 2041 in runs, 2042 in full, 2043 by the fast path (a new
    # start of a run: the time it is judged against is 2041's), the rest in runs
    assert sum(taken) >= 2300 - 3
