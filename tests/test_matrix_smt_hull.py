"""MATRIX-OBJ-004's volume test is independent of where the hull's points are.

A tetrahedron spans a volume whatever its size and wherever the other vertices
are; the coplanarity tolerance is a distance relative to the hull's extent, so a
small tetrahedron beside a far vertex is not "all in one plane" (the rule witnesses
found one the first version called coplanar: the tolerance compared an unnormalised
normal with the cube of the extent).
"""

from __future__ import annotations

import io

import pytest

from recspec.conformance.matrix_smt import check_stream
from recspec.reference.matrix_smt import Frame, Geometry, Recording, SceneObject, encode


def _hull_findings(vertices: tuple[tuple[float, float, float], ...]) -> list[str]:
    rec = Recording(objects=(SceneObject(0, "hull", Geometry.CONVEX, (1.0, 0.0, 0.0), True, vertices=vertices),),
                    frames=(Frame(0.0, ()),))
    report = check_stream(io.BytesIO(encode(rec)), path="x.bson", profile="spec")
    return [f.rule for f in report.findings]


@pytest.mark.parametrize("size, far", [(0.01, 11.0), (1e-3, 100.0), (1.0, 1e6), (1.0, 0.0)])
def test_a_small_tetrahedron_beside_a_far_vertex_spans_a_volume(size: float, far: float) -> None:
    tetrahedron = ((0.0, 0.0, 0.0), (size, 0.0, 0.0), (0.0, size, 0.0), (0.0, 0.0, size))
    assert _hull_findings(tetrahedron + ((0.0, far, 0.0),)) == []


@pytest.mark.parametrize("lift", [0.0, 1e-13])
def test_points_in_one_plane_have_no_volume(lift: float) -> None:
    # a far square in z = 0, one point lifted by less than the tolerance (1e-9 of the extent)
    square = ((0.0, 0.0, 0.0), (100.0, 0.0, 0.0), (0.0, 100.0, 0.0), (100.0, 100.0, 0.0))
    assert _hull_findings(square + ((50.0, 50.0, lift),)) == ["MATRIX-OBJ-004"]
