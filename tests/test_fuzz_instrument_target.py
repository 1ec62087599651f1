"""A ``ref`` campaign leaves the Kaitai side out of atheris' instrumentation (``_harness.KAITAI_SIDE``):
its harnesses never run that code, so instrumenting it would only cost the fuzzing process's start.

The second test is what makes leaving it out safe: every ``ref`` harness, run over its campaign's seeds
and mutants of them, calls no function of a Kaitai-side module (a call there would be code whose
coverage the campaign no longer sees).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from recspec.formats import FORMATS, FormatInfo
from recspec.fuzz import _seeds
from recspec.fuzz._harness import kaitai_side_modules, load_harness, not_instrumented

#: Mutants per format (with the seeds: every seed once, then mutants of them, as a campaign starts).
MUTANTS = 60


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_only_the_ref_target_leaves_the_kaitai_side_out(info: FormatInfo) -> None:
    kaitai = set(kaitai_side_modules())
    # the generated parsers, their runtime, the adapter and the format's own cross-check, by name
    assert {"kaitaistruct", "recspec.conformance._kaitai", f"{info.module}._xcheck"} <= kaitai
    assert any(name.startswith("recspec._ksy_fast.") for name in kaitai)
    # the code under test of the ref target stays instrumented: the checker, the reference decoder
    assert not any(name.startswith((f"{info.module}._check", info.reference_module)) for name in kaitai)
    assert kaitai | set(not_instrumented()) == set(not_instrumented("ref"))
    for target in ("ksy", "diff", None):  # there the Kaitai side is the code under test
        assert not kaitai & set(not_instrumented(target))


def _campaign_inputs(info: FormatInfo, mod: Any) -> list[bytes]:
    with tempfile.TemporaryDirectory() as tmp:
        _seeds.prepare_corpus(mod, info.id, Path(tmp), 65536, (), None)
        seeds = [p.read_bytes() for p in sorted(Path(tmp).iterdir())]
    return seeds + [mod.mutate(seeds[i % len(seeds)], 65536, i) for i in range(MUTANTS)]


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_no_ref_harness_runs_kaitai_side_code(info: FormatInfo) -> None:
    mod = load_harness(info)
    mod.use_variant(None)
    inputs = _campaign_inputs(info, mod)
    kaitai = set(kaitai_side_modules())
    ran: set[str] = set()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            ran.add(frame.f_globals.get("__name__", ""))

    harness = mod.TARGETS["ref"]
    sys.setprofile(profile)
    try:
        for data in inputs:
            try:
                harness(data)
            except Exception:  # a finding is a campaign's business; here only what runs counts
                pass
    finally:
        sys.setprofile(None)
    assert f"{info.module}._check" in ran or any(name.startswith(info.module) for name in ran)  # the profile saw
    assert not ran & kaitai, sorted(ran & kaitai)
