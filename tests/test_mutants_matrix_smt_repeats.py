"""Repeats of a judged frame counted in bulk (conformance/matrix_smt/_repeats.py): what a run may take.

A run starts after the full walk judged a frame whose every finding would only be counted: here each
frame holds one empty state, which breaks MATRIX-STATE-001 five times (no id, i, m, p, r:
docs/formats/matrix-smt.md), so the first 20 frames fill the rule's 100 stored findings
(conformance/_sink.py, MAX_FINDINGS_PER_RULE) and the repeats may start at frame 20. The times follow
MATRIX-FRAME-002 (finite, >= 0, never before the frame before) except where a test breaks it. Each
recording is pymongo's encoding; each report is held to the full walk's (``checked_both_ways``).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import bson
import pytest
from build_matrix_smt import checked_both_ways, document, element, element_offsets, located_report, pymongo_elements
from test_limits_runs import _Counting
from test_mutants_carla_decode_r3 import at_most

from recspec.conformance.matrix_smt import _check as matrix_check
from recspec.conformance.matrix_smt import check_stream

#: Frames the full walk judges before MATRIX-STATE-001 (5 findings a frame) has its 100 stored findings.
FILL = 100 // 5


#: The one object of the recordings: object 0, a sphere (docs/formats/matrix-smt.md, "Objects").
SPHERE = {"id": 0, "name": "o0", "type": "sphere", "color": [0.0, 0.5, 1.0], "radius": 1.0}


def _recording(times: list[float], state: dict[str, Any] | None = None, empty: int = 1) -> bytes:
    """Frames at ``times``, each with ``empty`` empty states (and ``state`` after them), over one sphere,
    object 0."""
    states = [{}] * empty + ([] if state is None else [state])
    frames = [{"t": t, "states": states, "cmd": []} for t in times]
    return bson.encode({"objects": [SPHERE], "frames": frames})


@pytest.fixture(autouse=True)
def _no_hang() -> Iterator[None]:
    """Each check here takes well under a second: a run that makes no progress fails, rather than hangs."""
    with at_most(20):
        yield


def _judged(monkeypatch: pytest.MonkeyPatch, data: bytes) -> int:
    """How many frames the fast-path check walks in full."""
    calls = _Counting(monkeypatch, matrix_check._Walk, "frame")
    located_report(data, "spec", True)
    return calls.calls


@pytest.mark.parametrize("late", range(FILL - 2, FILL + 40))
def test_a_frame_before_the_one_before_is_found_wherever_a_run_stands(late: int) -> None:
    """Frame ``late`` is 0.01 s before the frame before it, every other time steps on by 0.02 s: one
    MATRIX-FRAME-002, at that frame's time, whether the frame falls first in a run's chunk or inside it."""
    times = [i * 0.02 for i in range(FILL + 60)]
    times[late] = times[late - 1] - 0.01
    data = _recording(times)
    report = checked_both_ways(data, "spec")
    found = [(f.path, f.offset) for f in report.findings if f.rule == "MATRIX-FRAME-002"]
    offsets = element_offsets(data)
    assert found == [(f"frames[{late}].t", offsets[f"frames[{late}].t"])]
    assert report.stats["frames"] == len(times)


@pytest.mark.parametrize("cut", [float("nan"), float("inf")])
def test_a_run_at_time_zero_cut_by_a_time_that_is_not_finite_is_taken_in_bulk(
        monkeypatch: pytest.MonkeyPatch, cut: float) -> None:
    """Every frame at t = 0.0 (allowed: >= 0, and equal to the one before) but frame 30, whose time is NaN or
    infinite (MATRIX-NUM-002): the frames from 20 to 29 are repeats and taken in bulk, 0.0 included; the full
    walk judges the first 20, frame 30, and at most a few after it."""
    n = FILL + 40
    times = [0.0] * n
    times[30] = cut
    data = _recording(times)
    report = checked_both_ways(data, "spec")
    assert [f.path for f in report.findings if f.rule == "MATRIX-NUM-002"] == ["frames[30].t"]
    assert report.stats["frames"] == n
    assert _judged(monkeypatch, data) <= FILL + 3


def test_an_infinite_last_time_is_found() -> None:
    """Frames at 0.02 s steps, the last one's time infinite: the times never go back, but the last is not
    finite (MATRIX-NUM-002, at its time element)."""
    times = [i * 0.02 for i in range(FILL + 30)]
    times[-1] = float("inf")
    data = _recording(times)
    report = checked_both_ways(data, "spec")
    last = f"frames[{len(times) - 1}].t"
    assert [(f.path, f.offset) for f in report.findings if f.rule == "MATRIX-NUM-002"] == [
        (last, element_offsets(data)[last])]


def test_the_previous_time_is_the_first_of_equal_times() -> None:
    """Frames 0 to 29 at t = 0.0, frames 30 to 59 at -0.0 (equal to 0.0: no finding), frame 60 at -1.0: it is
    before 0 and before the previous frame's time, which is the first of the equal times, 0.0, as the
    frame-by-frame walk keeps it (a time replaces the previous one only when it is greater). Frames 30 to 59
    are repeats of frame 29 (their times' bytes differ, nothing else), taken in bulk."""
    times = [0.0] * 30 + [-0.0] * 30 + [-1.0]
    data = _recording(times)
    report = checked_both_ways(data, "spec")
    late = [f for f in report.findings if f.rule == "MATRIX-FRAME-002"]
    assert [(f.path, f.offset) for f in late] == [("frames[60].t", element_offsets(data)["frames[60].t"])] * 2
    assert [f.expected for f in late] == [">= 0", ">= 0.0"]


def test_frames_with_no_time_are_taken_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """150 frames with no time (MATRIX-FRAME-001 each, the rule's 100 stored by frame 99) and an empty state:
    every byte of a frame is fixed, the frames after frame 99 are its repeats, taken in bulk."""
    n = 150
    data = bson.encode({"objects": [SPHERE], "frames": [{"states": [{}], "cmd": []}] * n})
    report = checked_both_ways(data, "spec")
    assert report.stats["frames"] == n and report.stats["duration_s"] is None
    assert report.verdicts["spec"].rules == {"MATRIX-FRAME-001": n, "MATRIX-STATE-001": 5 * n}
    assert _judged(monkeypatch, data) <= 100 + 2


#: A state of object 0 with no position and no rotation: two MATRIX-STATE-001 findings (p, r).
NO_POSE = {"id": 0, "i": "i", "m": ""}


@pytest.mark.parametrize(("states", "last_judged"), [
    ([{}, {}], 9),  # 10 findings a frame: the 100th stored in frame 9, the next frame's key "10" one digit longer
    ([{}, {}, NO_POSE], 8),  # 12 a frame: the 100th in frame 8 (96 before it), the next key "9" of one digit
])
def test_a_run_starts_after_the_frame_that_fills_the_stored_findings(
        monkeypatch: pytest.MonkeyPatch, states: list[dict[str, Any]], last_judged: int) -> None:
    """Whatever the digits of the next frame's key, the frames after the one whose findings fill
    MATRIX-STATE-001's 100 are its repeats, taken in one run: the full walk judges frames 0 to ``last_judged``."""
    n = 40
    data = bson.encode({"objects": [SPHERE], "frames": [{"t": i * 0.5, "states": states, "cmd": []} for i in range(n)]})
    per_frame = 5 * states.count({}) + 2 * (NO_POSE in states)
    assert per_frame * last_judged < 100 <= per_frame * (last_judged + 1)
    report = checked_both_ways(data, "spec")
    assert report.verdicts["spec"].rules == {"MATRIX-STATE-001": per_frame * n}
    assert _judged(monkeypatch, data) == last_judged + 1


def test_a_long_run_reports_progress() -> None:
    """20,000 frames of one empty state, all but the first 20 taken as one run: the check still reports its
    progress every few thousand frames (check_stream's ``progress``), as bytes done out of the file's size."""
    n = 20_000
    data = _recording([i * 0.02 for i in range(n)])
    calls: list[tuple[int, int]] = []
    report = check_stream(io.BytesIO(data), path="x", profile="spec", size=len(data),
                          progress=lambda done, total: calls.append((done, total)))
    assert report.stats["frames"] == n
    assert calls and all(0 < done <= total == len(data) for done, total in calls)


def test_repeats_of_a_frame_wider_than_a_run_chunk_are_taken() -> None:
    """Frames of 70,000 bytes and more (three empty states, then a state of object 0 with a 70,000-character
    mesh name, which breaks no rule), wider than the 64 KiB a run reads at a time. With 15 findings a frame,
    frames 0 to 6 fill MATRIX-STATE-001's 100 stored findings; the run after frame 6 meets the keys' second
    digit at frame 10, so its first chunk is the 3 frames 7, 8 and 9, and the next chunk (one frame, the
    widest it may be) must go on past them: the check ends, every frame counted."""
    n = 40
    data = _recording([i * 0.5 for i in range(n)], {"id": 0, "i": "i", "m": "x" * 70_000,
                                                    "p": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0]}, empty=3)
    assert len(data) > n * 70_000
    with at_most(10):
        report = checked_both_ways(data, "spec")
    assert report.stats["frames"] == n and report.stats["states"] == 4 * n
    assert report.verdicts["spec"].rules == {"MATRIX-STATE-001": 15 * n}


def test_frames_that_are_not_documents_start_no_run() -> None:
    """150 frames that are int32 numbers, not documents: a MATRIX-FRAME-004 each (stored up to 100, then
    counted), and no run of repeats, which are documents' bytes."""
    data = bson.encode({"objects": [], "frames": [7] * 150})
    report = checked_both_ways(data, "spec")
    assert report.stats["frames"] == 150
    assert report.verdicts["spec"].rules["MATRIX-FRAME-004"] == 150
    stored = [f for f in report.findings if f.rule == "MATRIX-FRAME-004"]
    assert len(stored) == 100 and stored[0].path == "frames[0]"


def test_a_frame_under_a_wrong_key_starts_no_run() -> None:
    """Frames 0 to 109 under the key "x", frames 110 to 149 under their indexes (MATRIX-BSON-008: an
    array's keys are its indexes): 110 findings, the last 10 only counted. Frame 109, judged once every
    rule it breaks is only counted, is no run's first frame: the frames after it are under their right
    keys, so they are not its repeats and break no key rule."""
    n, wrong = 150, 110
    frames = [element(0x03, b"x" if i < wrong else str(i).encode(), bson.encode({"t": i * 0.02, "states": [{}],
                                                                                  "cmd": []}))
              for i in range(n)]
    data = document(pymongo_elements({"objects": []}), element(0x04, b"frames", document(*frames)))
    report = checked_both_ways(data, "spec")
    assert report.stats["frames"] == n
    assert report.verdicts["spec"].rules["MATRIX-BSON-008"] == wrong
    assert report.verdicts["spec"].rules["MATRIX-STATE-001"] == 5 * n
