"""Floods of one tiny unit in a Matrix-SMT recording: a frame that is an empty document under the next index
is walked in bulk (tests/test_limits_runs.py). These tests count the per-unit walk calls (the bulk step must
replace them) and hold the fast and the slow path to the same reports."""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_limits_runs import _Counting, _same

from recspec.conformance.matrix_smt import _check as matrix_check
from recspec.report import FileReport

EMPTY_DOC = struct.pack("<i", 5) + b"\0"


def _doc(body: bytes) -> bytes:
    return struct.pack("<i", 4 + len(body) + 1) + body + b"\0"


def _bare_frame(i: int) -> bytes:
    return _doc(b"\x01t\0" + struct.pack("<d", 0.02 * i) + b"\x04states\0" + EMPTY_DOC + b"\x04cmd\0" + EMPTY_DOC)


# element makers: (index) -> (type byte, key, value bytes)
MATRIX_UNITS = {
    "empty": lambda i: (b"\x03", str(i), EMPTY_DOC),
    "empty-bad-key": lambda i: (b"\x03", f"k{i}", EMPTY_DOC),
    "bare": lambda i: (b"\x03", str(i), _bare_frame(i)),
    "int": lambda i: (b"\x10", str(i), struct.pack("<i", 0)),
    "time-only": lambda i: (b"\x03", str(i), _doc(b"\x01t\0" + struct.pack("<d", -1.0))),
}


def _matrix(elements: list[tuple[bytes, str, bytes]]) -> bytes:
    frames = _doc(b"".join(t + k.encode() + b"\0" + v for t, k, v in elements))
    return _doc(b"\x04objects\0" + EMPTY_DOC + b"\x04frames\0" + frames)


def _matrix_report(data: bytes, *, fast_path: bool, profile: str = "spec") -> FileReport:
    return matrix_check.check_stream(io.BytesIO(data), path="x", profile=profile, fast_path=fast_path)


def test_matrix_empty_frames_are_walked_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 50_000
    data = _matrix([MATRIX_UNITS["empty"](i) for i in range(n)])
    calls = _Counting(monkeypatch, matrix_check._Walk, "frame")
    report = _matrix_report(data, fast_path=True)
    assert calls.calls < 300
    assert report.stats["frames"] == n
    assert report.capped == {"MATRIX-FRAME-001": n, "MATRIX-FRAME-004": n, "MATRIX-FRAME-003": n}


@given(runs=st.lists(st.tuples(st.sampled_from(sorted(MATRIX_UNITS)), st.integers(1, 260)), min_size=1, max_size=6),
       profile=st.sampled_from(["spec", "compat"]), cut=st.integers(0, 3))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_matrix_fast_and_slow_paths_give_the_same_report(runs: list[tuple[str, int]], profile: str, cut: int) -> None:
    elements = []
    for unit, times in runs:
        for _ in range(times):
            elements.append(MATRIX_UNITS[unit](len(elements)))
    data = _matrix(elements)
    data = data[:len(data) - cut]  # a truncated document: the run must stop at the end of the file
    _same(_matrix_report(data, fast_path=True, profile=profile), _matrix_report(data, fast_path=False, profile=profile))


def test_matrix_run_stops_at_the_size_the_check_was_given() -> None:
    data = _matrix([MATRIX_UNITS["empty"](i) for i in range(3_000)])
    size = len(data) - 13 * 200
    reports = [matrix_check.check_stream(io.BytesIO(data), path="x", profile="spec", size=size, fast_path=fast)
               for fast in (True, False)]
    _same(*reports)
    assert reports[0].stats["frames"] < 3_000 - 150
