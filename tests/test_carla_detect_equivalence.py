"""CARLA variant detection's fast reading is held to the straightforward one.

The fast reading frames a small file's packets whole and counts their shapes in one loop
(``_read_small_prefix``), reads a larger one frame by frame, and judges each distinct
layout once (``grouped``). The straightforward reading steps packet by packet
(``bulk=False``) and judges variant by variant (``grouped=False``). On every corpus file,
every real log, and drawn, edited and mutated logs of every variant, both must give the
same variant and the same evidence, and the whole report must be the same whichever
reading the check used.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_properties import mutations

from helpers import real_file
from recspec.conformance.carla import _check as carla_check
from recspec.conformance.carla import _detect
from recspec.errors import DecodeError
from recspec.reference import carla as c
from recspec.strategies import carla_logs

ROOT = Path(__file__).resolve().parents[1]
CORPUS_FILES = sorted(p for p in (ROOT / "corpus" / "carla").rglob("*") if p.is_file() and p.suffix != ".json")
#: the real logs (shared/real/PROVENANCE.md) and the variant their recorders wrote
REAL_LOGS = {"carla_0910_DistanceToLaneCenter.log": "0.9.10-0.9.11", "carla_0915_crash.log": "0.9.15"}


def _detect_both(data: bytes, size: int | None) -> tuple[Any, Any] | None:
    try:
        _, offset = c.decode_header(data, 0)
    except DecodeError:
        return None  # no header: detection is not asked
    answers = []
    for fast in (True, False):
        f = io.BytesIO(data)
        f.seek(offset)
        variant, evidence = _detect.detect_variant(f, offset, size, grouped=fast, bulk=fast)
        assert f.tell() == offset  # detection leaves the file where it was
        answers.append((variant.name, evidence))
    return answers[0], answers[1]


def _reports_both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    def check() -> str:
        return carla_check.check_stream(io.BytesIO(data), path="x", variant=None, profile="spec").to_json()

    fast = check()
    with monkeypatch.context() as patch:
        patch.setattr(carla_check, "detect_variant",
                      lambda f, offset, size: _detect.detect_variant(f, offset, size, grouped=False, bulk=False))
        slow = check()
    return fast, slow


def _same_detection_and_report(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    for size in (len(data), None, len(data) - 1):
        both = _detect_both(data, size)
        if both is not None:
            assert both[0] == both[1]
    fast, slow = _reports_both(data, monkeypatch)
    assert fast == slow


def test_the_corpus_is_there() -> None:
    assert len(CORPUS_FILES) >= 40  # the comparison below must run on the files it names


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(ROOT / "corpus" / "carla")))
def test_fast_detection_is_the_straightforward_one_on_the_corpus(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _same_detection_and_report(path.read_bytes(), monkeypatch)


@pytest.mark.parametrize("name", REAL_LOGS)
def test_fast_detection_is_the_straightforward_one_on_the_real_logs(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = real_file(name).read_bytes()
    both = _detect_both(data, len(data))
    assert both is not None and both[0][0] == REAL_LOGS[name]  # PROVENANCE.md: the recorder's version
    _same_detection_and_report(data, monkeypatch)


@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fast_detection_is_the_straightforward_one_on_drawn_and_edited_logs(data: st.DataObject) -> None:
    """Valid and invalid logs of every variant from the project's strategies, mutated or not,
    cut at any size: the same variant and evidence, and the same whole report."""
    blob, _ = data.draw(carla_logs(min_frames=1, max_frames=8), label="log")
    if data.draw(st.booleans(), label="mutate"):
        blob = data.draw(mutations(blob), label="mutated")
    size = data.draw(st.sampled_from([len(blob), len(blob) - 1, len(blob) + 9]) | st.integers(0, len(blob)),
                     label="size")
    both = _detect_both(blob, size)
    if both is not None:
        assert both[0] == both[1]
    with pytest.MonkeyPatch.context() as patch:
        fast, slow = _reports_both(blob, patch)
    assert fast == slow
