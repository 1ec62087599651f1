"""The Matrix-SMT fuzzing harnesses, mutator, seeds and dictionary
(fuzz/matrix_smt.py), and a short real atheris campaign per target.

* harnesses: each holds on the real recording, the seed corpus, their mutants and
  arbitrary bytes (a failure here is a recspec bug);
* the mutator: deterministic per seed, keeps the BSON lengths consistent (most
  outputs decode), changes the structure, respects max_size, never raises;
* campaigns (``slow``, but run by default): atheris for a few seconds per target
  finds nothing.
"""

from __future__ import annotations

import importlib.util
import io
import pickle
import random
from pathlib import Path

import pytest

from recspec.fuzz import matrix_smt as F
from recspec.fuzz import run_campaign
from recspec.reference.matrix_smt import _bson as b
from tests.helpers import real_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "matrix-smt"
SEEDS = sorted(p for p in CORPUS.rglob("*.bson"))


@pytest.mark.parametrize("target", ["ref", "ksy", "diff"])
def test_harnesses_hold_on_the_seed_corpus_and_its_mutants(target: str) -> None:
    rng = random.Random(7)
    for path in SEEDS:
        data = path.read_bytes()
        F.TARGETS[target](data)
        F.TARGETS[target](F.mutate(data, 1 << 16, rng.randrange(2**32)))


@pytest.mark.parametrize("target", ["ref", "diff"])
def test_harnesses_hold_on_the_real_recording_prefix(target: str) -> None:
    data = real_file("Scene1.bson").read_bytes()
    (small,) = F.derive_seeds(data, 1 << 16)
    assert len(small) <= F.PREFIX_BYTES and b.decode_document(small).keys == ["frames", "objects"]
    F.TARGETS[target](small)
    F.TARGETS[target](F.mutate(small, 1 << 16, 3))


@pytest.mark.parametrize("target", ["ref", "ksy", "diff"])
def test_harnesses_hold_on_arbitrary_bytes(target: str) -> None:
    rng = random.Random(1)
    for n in (0, 1, 4, 5, 7, 64, 300):
        F.TARGETS[target](bytes(rng.randrange(256) for _ in range(n)))


def test_every_harness_states_its_invariant() -> None:
    import inspect

    for fn in F.TARGETS.values():
        assert "# Invariant:" in inspect.getsource(fn)


def test_divergent_pickles_and_signs() -> None:
    from recspec.conformance.matrix_smt._xcheck import Divergence

    e = F.Divergent([Divergence("accepts what the reference rejects (x)", 12, "frames[3]", "pymongo")],
                    kind=F.divergence_kind)
    again = pickle.loads(pickle.dumps(e))
    assert again.divergences == e.divergences
    assert e.signature() == "Divergent:pymongo:accepts what the reference rejects"


def test_mutator_is_deterministic_and_keeps_lengths_consistent() -> None:
    data = (CORPUS / "valid" / "spec.bson").read_bytes()
    assert F.mutate(data, 1 << 16, 42) == F.mutate(data, 1 << 16, 42)
    outputs = [F.mutate(data, 1 << 16, seed) for seed in range(200)]
    decodable = 0
    for out in outputs:
        try:
            b.decode_document(out)
            decodable += 1
        except Exception:  # noqa: BLE001 - counting only
            pass
    # about 0.2 byte mutations and 0.8 * 0.125 framing breaks: most outputs are still well-formed BSON
    assert decodable >= 100, decodable
    assert sum(out != data for out in outputs) >= 190


def test_mutator_respects_max_size_and_never_raises() -> None:
    data = (CORPUS / "valid" / "spec.bson").read_bytes()
    for seed in range(100):
        assert 1 <= len(F.mutate(data, 64, seed)) <= 64
    for seed in range(50):
        F.mutate(b"", 100, seed)
        F.mutate(b"\xff" * 20, 100, seed)


def test_synthetic_seeds_decode() -> None:
    for _, data in F.synthetic_seeds():
        b.decode_document(data)


def test_dictionary_file_is_the_generated_one() -> None:
    assert (ROOT / "fuzz" / "dictionaries" / "matrix-smt.dict").read_text() == F.dictionary_text()


needs_atheris = pytest.mark.skipif(importlib.util.find_spec("atheris") is None,
                                   reason="atheris is not installed (pip install 'recspec[fuzz]')")


@pytest.mark.slow
@needs_atheris
@pytest.mark.parametrize("target", ["ref", "ksy", "diff"])
def test_short_campaign_runs_atheris(tmp_path: Path, target: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign("matrix-smt", target=target, seconds=4, out_dir=tmp_path, seed=1, max_len=4096,
                      stdout=out, stderr=err)
    assert rc == 0, out.getvalue() + err.getvalue()[-3000:]
    assert f"recspec fuzz matrix-smt --target {target}:" in out.getvalue() and "no new crashes" in out.getvalue()
    assert "INITED" in err.getvalue()
    assert not list(tmp_path.glob("crash-*"))
