"""NanoVer's strategies have the knobs a case test needs (deltas, removals, a minimum of particles)."""

from __future__ import annotations

from hypothesis import given, settings


def test_strategies_have_the_missing_knobs() -> None:
    from hypothesis import find

    from recspec.reference.nanover import Frame
    from recspec.strategies import nanover_recordings

    find(nanover_recordings("traj", min_records=2, deltas=True),
         lambda r: any(isinstance(x.message, Frame) and x.message.frame_index > 0 for x in r.records))
    find(nanover_recordings("state", min_records=2, removals=True),
         lambda r: any(v is None for x in r.records for v in x.message.changes.values()))  # type: ignore[union-attr]

    @settings(max_examples=30, deadline=None)
    @given(nanover_recordings("traj", min_records=1, min_particles=2))
    def at_least_two(rec: object) -> None:
        first = rec.records[0].message  # type: ignore[attr-defined]
        assert len(first.arrays["particle.positions"].values) >= 6

    at_least_two()
