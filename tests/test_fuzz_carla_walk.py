"""The CARLA ``ref`` harness's fast-path oracle (``paths-agree``) runs its locating walk under the
variant the check detected rather than detecting it a second time: detection has no fast path of
its own, so the walk that detects and the walk that is told the variant give one report, and the
harness still raises ``Invariant:paths-agree`` when the fast path's report differs from the walk's."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from recspec.conformance.carla import check_stream
from recspec.fuzz import _oracles, carla
from recspec.fuzz._oracles import InvariantBroken, sampled
from recspec.reference.carla import VARIANTS

REPO = Path(__file__).resolve().parent.parent
CORPUS = sorted((REPO / "corpus" / "carla").glob("*/*.log"))


def _walk(data: bytes, variant: Any) -> Any:
    return check_stream(io.BytesIO(data), path="<fuzz>", variant=variant, profile="spec", fast_path=False)


def _inputs() -> list[bytes]:
    files = [p.read_bytes()[:8192] for p in CORPUS]
    rng = random.Random(7)
    return files + [carla.mutate(rng.choice(files), 8192, i) for i in range(40)]


def test_the_corpus_has_carla_logs() -> None:
    assert len(CORPUS) >= 9  # one valid log per variant at least


def test_the_walk_told_the_detected_variant_gives_the_walk_that_detects_it() -> None:
    compared = 0
    for data in _inputs():
        detected = _walk(data, None)
        if detected.variant is None:  # no header: nothing detected, the harness walks it as it is
            continue
        told = _walk(data, VARIANTS[detected.variant])
        assert told.variant == detected.variant
        assert _oracles._shape(told) == _oracles._shape(detected), data[:40]
        compared += 1
    assert compared >= len(CORPUS)


def test_a_sampled_input_whose_fast_path_loses_a_finding_breaks_paths_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    # an invalid (not malformed) log among the sampled eighth (CRC of its bytes): losing a finding then
    # breaks no oracle before paths-agree (the verdicts stay as they were)
    data = next(d for d in _inputs() if sampled(d) and _walk(d, None).verdict.value == "invalid")
    detected = _walk(data, None).variant
    real = carla._check
    walked_under: list[str | None] = []

    def fast_path_that_loses_a_finding(data: bytes, variant: Any, profile: str, *, fast_path: bool = True) -> Any:
        report = real(data, variant, profile, fast_path=fast_path)
        if fast_path:
            report.findings = report.findings[1:]
        else:
            walked_under.append(variant and variant.name)
        return report

    monkeypatch.setattr(carla, "_check", fast_path_that_loses_a_finding)
    with pytest.raises(InvariantBroken) as e:
        carla.fuzz_ref(data)
    assert e.value.signature().startswith("Invariant:paths-agree")
    assert walked_under == [detected]  # the walk ran once, under the detected variant
