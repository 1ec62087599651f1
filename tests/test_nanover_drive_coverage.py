"""The cases drive hands a writer are as rich as the format (tests/test_drive_coverage.py): over 200 drawn cases
per variant and profile, every documented feature appears.
NanoVer: the standard keys of docs/formats/nanover.md (each in its documented array kind, residue.ids also as
the Rust server's floats), extra keys of every Value and ValueArray kind, reset and delta frames, state updates
with every Value kind, nested values and removals."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_drive_coverage import drawn_cases_cover


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

_TARGETS: list[tuple[str, str | None, str, Callable[[dict[str, Any]], Iterator[str]], set[str]]] = [
    ("nanover", "traj", "spec", _nanover_traj, _nanover_traj_wanted()),
    ("nanover", "state", "spec", _nanover_state, _STATE_WANTED),
]


@pytest.mark.parametrize(("fmt", "variant", "profile", "features", "wanted"), _TARGETS,
                         ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in _TARGETS])
def test_drawn_cases_cover_the_format(fmt: str, variant: str | None, profile: str,
                                      features: Callable[[dict[str, Any]], Iterator[str]], wanted: set[str]) -> None:
    drawn_cases_cover(fmt, variant, profile, features, wanted)
