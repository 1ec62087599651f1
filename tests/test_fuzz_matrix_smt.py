"""The Matrix-SMT fuzzing harnesses, mutator and seeds (fuzz/matrix_smt.py): what
is Matrix-SMT's own. What every format shares is in ``test_fuzz_harnesses.py``.

* harnesses: each holds on the real recording's prefix, the whole seed corpus and
  their mutants (a failure here is a recspec bug);
* the mutator: keeps the BSON lengths consistent (most outputs decode) and
  changes almost every input;
* signatures of divergences, synthetic seeds that decode.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from recspec.fuzz import matrix_smt as F
from recspec.reference import matrix_smt as b
from tests.helpers import real_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "matrix-smt"
SEEDS = sorted(p for p in CORPUS.rglob("*.bson"))


@pytest.mark.smoke  # a harness raises on a broken contract: raising nothing is what "hold" means
@pytest.mark.parametrize("target", ["ref", "ksy", "diff"])
def test_harnesses_hold_on_the_seed_corpus_and_its_mutants(target: str) -> None:
    assert SEEDS, f"no seeds in {CORPUS}"
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


def test_a_divergence_is_signed_by_its_reader_and_first_clause() -> None:
    from recspec.conformance.matrix_smt._xcheck import Divergence

    d = Divergence("accepts what the reference rejects (x)", 12, "frames[3]", "pymongo")
    assert F.divergence_kind(d) == "Divergent:pymongo:accepts what the reference rejects"


def test_mutator_keeps_lengths_consistent() -> None:
    data = (CORPUS / "valid" / "spec.bson").read_bytes()
    outputs = [F.mutate(data, 1 << 16, seed) for seed in range(200)]
    decodable = 0
    for out in outputs:
        try:
            b.decode_document(out)
            decodable += 1
        except Exception:  # counting only
            pass
    # about 0.2 byte mutations and 0.8 * 0.125 framing breaks: most outputs are still well-formed BSON
    assert decodable >= 100, decodable
    assert sum(out != data for out in outputs) >= 190


def test_synthetic_seeds_decode() -> None:
    for name, data in F.synthetic_seeds():
        # BSON: an int32 total length that counts itself, then the elements, then a 0x00 terminator
        assert int.from_bytes(data[:4], "little") == len(data) and data[-1:] == b"\x00", name
        # a Matrix-SMT recording's document holds its frames and its objects
        assert {"frames", "objects"} <= set(b.decode_document(data).keys), name


def test_the_full_walk_is_left_out_only_where_the_fast_path_took_no_part() -> None:
    # fuzz_ref compares the fast and the full walk only when fast_path_took_part(); on the other
    # inputs the two must give the same report, evidence and all (but the fast path's own count)
    import io

    from recspec.conformance.matrix_smt import check_stream

    rng = random.Random(11)
    inputs = [p.read_bytes() for p in SEEDS]
    inputs += [F.mutate(rng.choice(inputs), 1 << 16, rng.randrange(2**32)) for _ in range(150)]
    left_out = took_part = 0
    for data in inputs:
        for profile in ("spec", "compat"):
            fast = check_stream(io.BytesIO(data), path="<t>", profile=profile)
            if F.fast_path_took_part(fast, data):
                took_part += 1
                continue
            left_out += 1
            full = check_stream(io.BytesIO(data), path="<t>", profile=profile, fast_path=False)
            fast.evidence.pop("fast_path_frames", None)
            assert fast == full, data.hex()[:200]
    assert left_out >= 20 and took_part >= 20, (left_out, took_part)


def test_the_mutator_decodes_with_its_own_copy_of_the_bson_layer() -> None:
    import sys

    from recspec.fuzz import _mutate

    copy = F._tree
    assert copy is not b and copy.__file__ == b.__file__ and copy.Document is not b.Document
    assert _mutate.uninstrumented_copy(b) is copy  # made once
    # its modules are copies too, under a name no instrumented package covers
    assert sys.modules[copy.Document.__module__] is not sys.modules[b.Document.__module__]
    assert not copy.Document.__module__.startswith("recspec")
    data = (CORPUS / "valid" / "spec.bson").read_bytes()
    assert copy.encode_document(copy.decode_document(data)) == b.encode_document(b.decode_document(data)) == data


def _chain(start: bytes, seeds: list[int], remember: bool) -> tuple[list[bytes], int]:
    """Mutate each output again, five deep from ``start`` (as libFuzzer's mutation depth
    does); the outputs, and how many calls found their input's tree kept."""
    F._TREES.clear()
    F.remember_trees = remember
    found = 0
    out: list[bytes] = []
    try:
        for i, seed in enumerate(seeds):
            data = start if i % 5 == 0 else out[-1]
            found += data in F._TREES
            out.append(F.mutate(data, 1 << 16, seed))
    finally:
        F.remember_trees = True
        F._TREES.clear()
    return out, found


@pytest.mark.parametrize("path", sorted((CORPUS / "valid").glob("*.bson")), ids=lambda p: p.name)
def test_kept_trees_change_no_mutation(path: Path) -> None:
    # a kept tree is exactly what decoding its bytes gives: chains of mutations (each output
    # mutated again) are the same with and without _TREES
    rng = random.Random(path.name)
    seeds = [rng.randrange(2**32) for _ in range(300)]
    kept, found = _chain(path.read_bytes(), seeds, True)
    decoded, _ = _chain(path.read_bytes(), seeds, False)
    assert kept == decoded
    assert found > 50  # the trees were used, so the comparison is not vacuous
