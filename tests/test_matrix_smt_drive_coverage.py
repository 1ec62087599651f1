"""The cases drive hands a writer are as rich as the format (tests/test_drive_coverage.py): over 200 drawn cases
per variant and profile, every documented feature appears.
Matrix-SMT: every object type, static and not, both presence flags, metadata, every command kind with and
without colour and opacity."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_drive_coverage import drawn_cases_cover


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
    ("matrix-smt", None, "spec", _matrix, _MATRIX_WANTED),
]


@pytest.mark.parametrize(("fmt", "variant", "profile", "features", "wanted"), _TARGETS,
                         ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in _TARGETS])
def test_drawn_cases_cover_the_format(fmt: str, variant: str | None, profile: str,
                                      features: Callable[[dict[str, Any]], Iterator[str]], wanted: set[str]) -> None:
    drawn_cases_cover(fmt, variant, profile, features, wanted)
