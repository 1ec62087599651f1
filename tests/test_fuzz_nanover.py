"""The NanoVer fuzzing harnesses, mutator, seeds and dictionary; one short real
atheris campaign per target (``slow``, run by default, a few seconds each)."""

from __future__ import annotations

import importlib.util
import io
import random
from pathlib import Path

import pytest

from recspec.conformance.nanover import check_stream
from recspec.fuzz import nanover, run_campaign
from recspec.reference.nanover import HEADER_SIZE, RecordReader, decode_header

from helpers import real_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "nanover"


def _corpus() -> list[bytes]:
    return [p.read_bytes() for p in sorted(CORPUS.glob("*/*")) if p.suffix != ".json"]


@pytest.mark.parametrize("target", sorted(nanover.TARGETS))
def test_harnesses_hold_on_the_corpus_and_its_mutants(target: str) -> None:
    rng = random.Random(7)
    for data in _corpus():
        nanover.TARGETS[target](data)
        for _ in range(3):
            nanover.TARGETS[target](nanover.mutate(data, 1 << 16, rng.randrange(2**32)))


@pytest.mark.parametrize("target", sorted(nanover.TARGETS))
def test_harnesses_hold_on_a_real_prefix_and_arbitrary_bytes(target: str) -> None:
    data = real_file("sim-switching-test-recording.traj").read_bytes()
    for seed in nanover.derive_seeds(data, 8192):
        nanover.TARGETS[target](seed)
    rng = random.Random(3)
    for _ in range(20):
        nanover.TARGETS[target](bytes(rng.randrange(256) for _ in range(rng.randrange(64))))


def test_every_harness_starts_with_its_invariant() -> None:
    import inspect

    for fn in nanover.TARGETS.values():
        body = inspect.getsource(fn).split("\n")
        assert body[1].strip().startswith("# Invariant:")


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


def test_mutator_is_deterministic_and_respects_max_size() -> None:
    data = (CORPUS / "valid" / "session.state").read_bytes()
    assert nanover.mutate(data, 4096, 11) == nanover.mutate(data, 4096, 11)
    for seed in range(50):
        assert len(nanover.mutate(data, 40, seed)) <= 40
    assert nanover.mutate(b"", 10, 1)


def test_synthetic_seeds_check_valid() -> None:
    for name, data in nanover.synthetic_seeds():
        kind = name.rsplit(".", 1)[-1]
        assert check_stream(io.BytesIO(data), path=name, variant=kind, size=len(data)).verdict.value == "valid"


def test_dictionary_file_is_the_generated_one() -> None:
    assert (ROOT / "fuzz" / "dictionaries" / "nanover.dict").read_text() == nanover.dictionary_text()


needs_atheris = pytest.mark.skipif(importlib.util.find_spec("atheris") is None,
                                   reason="atheris is not installed (pip install 'recspec[fuzz]')")


@pytest.mark.slow
@needs_atheris
@pytest.mark.parametrize("target", ["ref", "ksy", "diff"])
def test_short_campaign_runs_atheris(tmp_path: Path, target: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign("nanover", target=target, seconds=4, out_dir=tmp_path, seed=1, max_len=4096,
                      stdout=out, stderr=err)
    assert rc == 0, out.getvalue() + err.getvalue()[-3000:]
    assert f"recspec fuzz nanover --target {target}:" in out.getvalue() and "no new crashes" in out.getvalue()
    assert not list(tmp_path.glob("crash-*"))
