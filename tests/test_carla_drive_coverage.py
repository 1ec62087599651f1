"""The cases drive hands a writer are as rich as the format (tests/test_drive_coverage.py): over 200 drawn cases
per variant and profile, every documented feature appears.
CARLA: every packet kind of the variant's id table that CARLA's recorder writes (not FrameCounter:
CARLA-PACKET-004; FrameStart and FrameEnd are the frames themselves)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_drive_coverage import drawn_cases_cover

from recspec.formats import FORMATS


def _carla(case: dict[str, Any]) -> Iterator[str]:
    for f in case["frames"]:
        for p in f["packets"]:
            yield p["kind"]


def _carla_wanted(variant: str) -> set[str]:
    from recspec.reference.carla import PacketKind as K
    from recspec.reference.carla._variants import VARIANTS

    unwritten = {K.FRAME_START, K.FRAME_END, K.FRAME_COUNTER, K.RAW}
    return {k.label for k in VARIANTS[variant].ids.values() if k not in unwritten}

_TARGETS: list[tuple[str, str | None, str, Callable[[dict[str, Any]], Iterator[str]], set[str]]] = [
    *(("carla", v, "spec", _carla, _carla_wanted(v)) for v in FORMATS["carla"].variants),
]


@pytest.mark.parametrize(("fmt", "variant", "profile", "features", "wanted"), _TARGETS,
                         ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in _TARGETS])
def test_drawn_cases_cover_the_format(fmt: str, variant: str | None, profile: str,
                                      features: Callable[[dict[str, Any]], Iterator[str]], wanted: set[str]) -> None:
    drawn_cases_cover(fmt, variant, profile, features, wanted)
