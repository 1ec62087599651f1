"""Two parts of the Matrix-SMT checker (conformance/matrix_smt/_check.py): state ids when the objects
array cannot be read (MATRIX-STATE-002 is then not judged), and the convex-hull test (``_spans_volume``),
MATRIX-OBJ-004 of docs/formats/matrix-smt.md, a convex hull's vertices are at least 4 points, not all
in one plane; "in one plane" within 1e-9 of the points' extent. Points are made on known planes (and
off them), in every orientation, so each coordinate of the cross and dot products counts. Written
against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import io
import random

import bson
import pytest

from recspec.conformance.matrix_smt import check_stream
from recspec.conformance.matrix_smt._check import _spans_volume

# planes a x + b y + c z = d, with a normal along each axis and tilted ones
PLANES = [(1.0, 0.0, 0.0, 2.0), (0.0, 1.0, 0.0, -1.0), (0.0, 0.0, 1.0, 0.5), (2.0, 3.0, -1.0, 1.0),
          (-1.0, 0.5, 4.0, 0.0), (0.3, -2.0, 0.7, 3.0)]


def _on_plane(plane: tuple[float, float, float, float], rng: random.Random, n: int) -> list[list[float]]:
    a, b, c, d = plane
    points = []
    for _ in range(n):
        u, v = rng.uniform(-5, 5), rng.uniform(-5, 5)
        # solve for the coordinate whose coefficient is largest
        if abs(a) >= abs(b) and abs(a) >= abs(c):
            points.append([(d - b * u - c * v) / a, u, v])
        elif abs(b) >= abs(c):
            points.append([u, (d - a * u - c * v) / b, v])
        else:
            points.append([u, v, (d - a * u - b * v) / c])
    return points


@pytest.mark.parametrize("plane", PLANES)
def test_points_on_one_plane_span_no_volume(plane: tuple[float, float, float, float]) -> None:
    rng = random.Random(7)
    for n in (4, 5, 9):
        points = _on_plane(plane, rng, n)
        assert not _spans_volume(points)
        for i in range(n):  # whichever point comes first
            assert not _spans_volume(points[i:] + points[:i])


@pytest.mark.parametrize("plane", PLANES)
def test_one_point_off_the_plane_spans_a_volume(plane: tuple[float, float, float, float]) -> None:
    rng = random.Random(11)
    a, b, c, _ = plane
    points = _on_plane(plane, rng, 5)
    off = [points[0][0] + a, points[0][1] + b, points[0][2] + c]  # one step along the normal
    for at in range(6):
        assert _spans_volume(points[:at] + [off] + points[at:])


def test_points_on_one_line_span_no_volume() -> None:
    assert not _spans_volume([[t, 2 * t, -t] for t in (0.0, 1.0, 2.5, -3.0)])
    assert not _spans_volume([[1.0, 1.0, 1.0]] * 4)


def test_a_plane_within_the_tolerance_is_flat() -> None:
    # the four points lie within 1e-12 of the plane x = 0 (the extent is 2): flat by the 1e-9 rule;
    # the first direction (0, 1, 0) has length 1, so the line test must use that length
    assert not _spans_volume([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1e-12, 2.0, 0.0], [0.0, 0.0, 1.0]])
    assert _spans_volume([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1e-3, 2.0, 0.0], [0.0, 0.0, 1.0]])


# --- state ids when the objects array cannot be read (MATRIX-STATE-002) -------------------------

def _rules(data: bytes) -> list[tuple[str, str]]:
    report = check_stream(io.BytesIO(data), path="x", profile="spec", size=len(data))
    return [(f.rule, f.path) for f in report.findings]


def _recording(state_id: int, **extra: object) -> bytes:
    obj = {"id": 1, "name": "box", "color": [1.0, 0.0, 0.0], "static": False, "type": "box",
           "half_dimentions": [0.5, 0.5, 0.5]}
    state = {"id": state_id, "i": "i", "m": "", "p": [0.0, 0.0, 0.0], "r": [0.0, 0.0, 0.0, 1.0]}
    return bson.encode({"objects": [obj], "frames": [{"states": [state], "cmd": [], "t": 0.0}], **extra})


def _bad_boolean(data: bytes, key: bytes) -> bytes:
    at = data.index(b"\x08" + key + b"\x00") + len(key) + 2  # the boolean's byte
    return data[:at] + b"\x02" + data[at + 1:]


def test_state_ids_are_not_judged_when_the_objects_array_cannot_be_read() -> None:
    rules = _rules(_bad_boolean(_recording(1), b"static"))
    assert "MATRIX-BSON-003" in [r for r, _ in rules]
    assert "MATRIX-STATE-002" not in [r for r, _ in rules]


def test_state_ids_are_judged_when_another_top_level_value_cannot_be_read() -> None:
    rules = _rules(_bad_boolean(_recording(9, extra=True), b"extra"))
    assert "MATRIX-BSON-003" in [r for r, _ in rules]
    assert ("MATRIX-STATE-002", "frames[0].states[0].id") in rules
