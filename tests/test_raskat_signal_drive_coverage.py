"""The cases drive hands a writer are as rich as the format (tests/test_drive_coverage.py): over 200 drawn cases
per variant and profile, every documented feature appears.
raSkat: every field of the version with whole and fractional doubles, each antenna type and the profile's
container."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_drive_coverage import drawn_cases_cover

_RASKAT_DOUBLES = ("coordinate_1", "coordinate_2", "altitude", "vref")


def _raskat(case: dict[str, Any]) -> Iterator[str]:
    yield f"container:{case['container']}"
    for key in case:
        if key not in ("recspec_case", "format", "variant", "container"):
            yield f"field:{key}"
    if case["samples"]:
        yield "samples"
    if case["variant"] in ("v1", "v2"):
        if min(case["longitude"], case["latitude"], case["altitude"]) < 0:
            yield "negative coordinate"
        if case.get("flags"):
            yield "flags"
        return
    yield f"antenna:{case['antenna']}"
    for key in _RASKAT_DOUBLES:
        v = case[key]
        if isinstance(v, float):
            yield f"{key}:{'whole' if v.is_integer() else 'fraction'}"


def _raskat_wanted(variant: str, profile: str) -> set[str]:
    from recspec.reference.raskat_signal._signal import FIELD_NAMES

    container = f"container:{'tar.xz' if profile == 'spec' else 'raw'}"
    extra = {"field:member"} if profile == "spec" else set()
    if variant in ("v1", "v2"):
        fields = ["time", "microseconds", "longitude", "latitude", "altitude", "sample_rate", "samples"]
        fields += ["flags"] if variant == "v2" else []
        return ({container, "samples", "negative coordinate", *(f"field:{f}" for f in fields)} | extra
                | ({"flags"} if variant == "v2" else set()))
    names = FIELD_NAMES if variant == "v4" else FIELD_NAMES[:12]
    return ({container, "samples", *(f"field:{f}" for f in names), *(f"antenna:{a}" for a in (0, 1, 2))}
            | {f"{k}:{w}" for k in _RASKAT_DOUBLES for w in ("whole", "fraction")} | extra)

_TARGETS: list[tuple[str, str | None, str, Callable[[dict[str, Any]], Iterator[str]], set[str]]] = [
    *(("raskat-signal", v, p, _raskat, _raskat_wanted(v, p)) for v in ("v1", "v2", "v3", "v4")
      for p in ("spec", "compat")),
]


@pytest.mark.parametrize(("fmt", "variant", "profile", "features", "wanted"), _TARGETS,
                         ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in _TARGETS])
def test_drawn_cases_cover_the_format(fmt: str, variant: str | None, profile: str,
                                      features: Callable[[dict[str, Any]], Iterator[str]], wanted: set[str]) -> None:
    drawn_cases_cover(fmt, variant, profile, features, wanted)
