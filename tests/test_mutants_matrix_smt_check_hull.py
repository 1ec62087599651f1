"""The convex-hull test of the Matrix-SMT checker (conformance/matrix_smt/_check.py, ``_spans_volume``):
MATRIX-OBJ-004 of docs/formats/matrix-smt.md, a convex hull's vertices are at least 4 points, not all
in one plane; "in one plane" within 1e-9 of the points' extent. Points are made on known planes (and
off them), in every orientation, so each coordinate of the cross and dot products counts. Written
against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import random

import pytest

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
