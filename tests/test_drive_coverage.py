"""The cases drive hands a writer are as rich as the format: over 200 drawn cases per format, variant and profile
(the strategy `recspec drive` uses, recspec/drive/_cases.py), every documented key, field, packet and value kind
appears. A failing test lists what is missing.

What "documented" means per format: NanoVer, the standard keys of docs/formats/nanover.md (each in its
documented array kind, residue.ids also as the Rust server's floats), extra keys of every Value and ValueArray
kind, reset and delta frames, state updates with every Value kind, nested values and removals; CARLA, every packet
kind of the variant's id table that CARLA's recorder writes (not FrameCounter: CARLA-PACKET-004; FrameStart and
FrameEnd are the frames themselves); raSkat, every field of the version with whole and fractional doubles,
each antenna type and the profile's container; Matrix-SMT, every object type, static and not, both presence
flags, metadata, every command kind with and without colour and opacity."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from recspec.drive._cases import case_strategy
from recspec.formats import FORMATS

N = 200


def _value_kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict) and set(v) == {"$number"}:
        return "number"
    return "object"


def _nested(v: Any) -> bool:
    inner = v.get("$struct", v) if isinstance(v, dict) else v
    items = inner.values() if isinstance(inner, dict) else inner if isinstance(inner, list) else []
    return any(isinstance(x, (dict, list)) for x in items)


def _nanover_standard() -> tuple[dict[str, str], frozenset[str]]:
    from recspec.conformance.nanover._check import STANDARD_ARRAYS, STANDARD_NUMBERS

    return {k: v.removesuffix("_values") for k, v in STANDARD_ARRAYS.items()}, STANDARD_NUMBERS


def _nanover_traj(case: dict[str, Any]) -> Iterator[str]:
    arrays, numbers = _nanover_standard()
    for r in case["records"]:
        f = r["frame"]
        yield "frame:reset" if f["frame_index"] == 0 else "frame:delta"
        for key, v in f["values"].items():
            yield f"value:{key}" if key in numbers else f"extra value:{_value_kind(v)}"
        for key, a in f["arrays"].items():
            (kind,) = a
            yield f"array:{key}:{kind}" if key in arrays else f"extra array:{kind}"


def _nanover_traj_wanted() -> set[str]:
    arrays, numbers = _nanover_standard()
    return ({"frame:reset", "frame:delta", "array:residue.ids:float"} | {f"value:{k}" for k in numbers}
            | {f"array:{k}:{kind}" for k, kind in arrays.items()}
            | {f"extra value:{k}" for k in ("null", "number", "string", "bool", "list", "object")}
            | {f"extra array:{k}" for k in ("float", "index", "string")})


def _nanover_state(case: dict[str, Any]) -> Iterator[str]:
    for r in case["records"]:
        for v in r["update"].values():
            yield "removal" if v is None else f"value:{_value_kind(v)}"
            if _nested(v):
                yield "nested"


_STATE_WANTED = {"removal", "nested"} | {f"value:{k}" for k in ("number", "string", "bool", "list", "object")}


def _carla(case: dict[str, Any]) -> Iterator[str]:
    for f in case["frames"]:
        for p in f["packets"]:
            yield p["kind"]


def _carla_wanted(variant: str) -> set[str]:
    from recspec.reference.carla import PacketKind as K
    from recspec.reference.carla._variants import VARIANTS

    unwritten = {K.FRAME_START, K.FRAME_END, K.FRAME_COUNTER, K.RAW}
    return {k.label for k in VARIANTS[variant].ids.values() if k not in unwritten}


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


def _matrix(case: dict[str, Any]) -> Iterator[str]:
    for o in case["objects"]:
        yield f"object:{o['type']}"
        yield f"static:{o['static']}"
    for f in case["frames"]:
        if not f["commands"]:
            yield "frame without commands"
        for s in f["states"]:
            yield f"presence:{s['presence']}"
            if s["metadata"]:
                yield "metadata"
        for c in f["commands"]:
            yield f"command:{c['kind']}"
            for key in ("color", "opacity"):
                if key in c:
                    yield f"command {key}"


_MATRIX_WANTED = ({f"object:{t}" for t in ("box", "sphere", "capsule", "convex")} | {"static:True", "static:False"}
                  | {"frame without commands", "presence:i", "presence:d", "metadata", "command color",
                     "command opacity"} | {f"command:{k}" for k in "vrsc"})

_TARGETS: list[tuple[str, str | None, str, Callable[[dict[str, Any]], Iterator[str]], set[str]]] = [
    ("nanover", "traj", "spec", _nanover_traj, _nanover_traj_wanted()),
    ("nanover", "state", "spec", _nanover_state, _STATE_WANTED),
    *(("carla", v, "spec", _carla, _carla_wanted(v)) for v in FORMATS["carla"].variants),
    *(("raskat-signal", v, p, _raskat, _raskat_wanted(v, p)) for v in ("v1", "v2", "v3", "v4")
      for p in ("spec", "compat")),
    ("matrix-smt", None, "spec", _matrix, _MATRIX_WANTED),
]


@pytest.mark.parametrize(("fmt", "variant", "profile", "features", "wanted"), _TARGETS,
                         ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in _TARGETS])
def test_drawn_cases_cover_the_format(fmt: str, variant: str | None, profile: str,
                                      features: Callable[[dict[str, Any]], Iterator[str]], wanted: set[str]) -> None:
    seen: set[str] = set()

    @settings(max_examples=N, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case_strategy(FORMATS[fmt], variant, profile))
    def draw(case: dict[str, Any]) -> None:
        seen.update(features(case))

    draw()
    missing = sorted(wanted - seen)
    assert not missing, f"{fmt} {variant} ({profile}): {len(missing)} never drawn in {N} cases: {', '.join(missing)}"
