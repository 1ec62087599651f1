"""The cases drive hands a writer are as rich as the format: over 200 drawn cases per format, variant and profile
(the strategy `recspec drive` uses, recspec/drive/_cases.py), every documented key, field, packet and value kind
appears. A failing test lists what is missing.

What "documented" means per format: NanoVer, the standard keys of docs/formats/nanover.md (each in its
documented array kind, residue.ids also as the Rust server's floats), extra keys of every Value and ValueArray
kind, reset and delta frames, state updates with every Value kind, nested values and removals; CARLA, every packet
kind of the variant's id table that CARLA's recorder writes (not FrameCounter: CARLA-PACKET-004; FrameStart and
FrameEnd are the frames themselves); raSkat, every field of the version with whole and fractional doubles,
each antenna type and the profile's container; Matrix-SMT, every object type, static and not, both presence
flags, metadata, every command kind with and without colour and opacity.

What a format's cases must cover is the format's own knowledge: each format's tests/test_<package>_drive_coverage.py
names the features of its cases and the ones wanted, and runs :func:`drawn_cases_cover` on each variant and
profile."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings

from helpers import draws_independent_of_imports
from recspec.drive._cases import case_strategy
from recspec.formats import FORMATS

N = 200


def drawn_cases_cover(fmt: str, variant: str | None, profile: str, features: Callable[[dict[str, Any]], Iterator[str]],
                      wanted: set[str]) -> None:
    """Draws N cases of ``fmt``'s ``variant`` under ``profile`` and asserts ``features`` of them hold every one
    of ``wanted`` (each format's test_<package>_drive_coverage.py names its features and what it wants)."""
    seen: set[str] = set()

    @settings(max_examples=N, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case_strategy(FORMATS[fmt], variant, profile))
    def draw(case: dict[str, Any]) -> None:
        seen.update(features(case))

    with draws_independent_of_imports():
        draw()
    missing = sorted(wanted - seen)
    assert not missing, f"{fmt} {variant} ({profile}): {len(missing)} never drawn in {N} cases: {', '.join(missing)}"
