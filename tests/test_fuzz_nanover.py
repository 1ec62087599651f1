"""The NanoVer fuzzing harnesses, mutator and seeds: what is NanoVer's own (the
whole corpus and its mutants, a real file's prefixes, the mutator's length
fix-ups, the synthetic seeds' verdicts). What every format shares is in
``test_fuzz_harnesses.py``."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from helpers import real_file
from recspec.conformance.nanover import check_stream
from recspec.fuzz import nanover
from recspec.reference.nanover import HEADER_SIZE, RecordReader, decode_header

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "nanover"


def _corpus() -> list[bytes]:
    return [p.read_bytes() for p in sorted(CORPUS.glob("*/*")) if p.suffix != ".json"]


@pytest.mark.smoke  # a harness raises on a broken contract: raising nothing is what "hold" means
@pytest.mark.parametrize("target", sorted(nanover.TARGETS))
def test_harnesses_hold_on_the_corpus_and_its_mutants(target: str) -> None:
    corpus = _corpus()
    assert corpus, f"no files in {CORPUS}"
    rng = random.Random(7)
    for data in corpus:
        nanover.TARGETS[target](data)
        for _ in range(3):
            nanover.TARGETS[target](nanover.mutate(data, 1 << 16, rng.randrange(2**32)))


@pytest.mark.smoke  # as above
@pytest.mark.parametrize("target", sorted(nanover.TARGETS))
def test_harnesses_hold_on_a_real_files_derived_seeds(target: str) -> None:
    data = real_file("sim-switching-test-recording.traj").read_bytes()
    seeds = nanover.derive_seeds(data, 8192)
    assert seeds and all(len(s) <= 8192 for s in seeds)
    for seed in seeds:
        nanover.TARGETS[target](seed)


def test_mutator_edits_one_field_and_fixes_the_lengths() -> None:
    """Most mutants of a valid file still frame cleanly (lengths fixed up) yet differ from it."""
    data = (CORPUS / "valid" / "small.traj").read_bytes()
    framed = changed = 0
    for seed in range(200):
        out = nanover.mutate(data, 1 << 16, seed)
        assert isinstance(out, bytes) and 0 < len(out) <= 1 << 16
        changed += out != data
        try:
            decode_header(out)
            f = io.BytesIO(out)
            f.seek(HEADER_SIZE)
            list(RecordReader(f, HEADER_SIZE, len(out)))
            framed += 1
        except Exception:
            pass
    assert changed > 180 and framed > 120


def test_synthetic_seeds_check_valid() -> None:
    for name, data in nanover.synthetic_seeds():
        kind = name.rsplit(".", 1)[-1]
        assert check_stream(io.BytesIO(data), path=name, variant=kind, size=len(data)).verdict.value == "valid"



def test_ref_raises_on_a_report_that_does_not_render_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ref harness renders the file's report as JSON: a value in it that JSON has no form for
    (a set in its evidence, which the report's plain conversion leaves as it is) is an error, not a pass."""
    data = _corpus()[0]
    checked = nanover._check

    def with_a_set(data: bytes, variant: str | None, profile: str) -> object:
        report = checked(data, variant, profile)
        report.evidence["variant"] = {"fit": {1, 2}}
        return report

    nanover.fuzz_ref(data)
    monkeypatch.setattr(nanover, "_check", with_a_set)
    with pytest.raises(TypeError, match="not JSON serializable"):
        nanover.fuzz_ref(data)
