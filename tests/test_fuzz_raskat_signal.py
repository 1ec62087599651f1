"""The raSkat fuzz harnesses and the container-aware mutator: what is raSkat's own
(the whole corpus, the real file and their mutants, xz and version-word inputs,
mutations inside the tar.xz, derived seeds, signatures, ``describe_input``).
What every format shares is in ``test_fuzz_harnesses.py``."""

from __future__ import annotations

import lzma
import random
from pathlib import Path

import pytest

from helpers import REAL
from recspec.conformance.raskat_signal._xcheck import Divergence
from recspec.errors import DecodeError
from recspec.fuzz import _signature
from recspec.fuzz import raskat_signal as rs
from recspec.reference.raskat_signal import XZ_MAGIC, decode, unwrap

REPO = Path(__file__).resolve().parents[1]
CORPUS = sorted((REPO / "corpus" / "raskat-signal").glob("*/*.sig"))
SYNTHETIC = dict(rs.synthetic_seeds())


def _run(target: str, data: bytes) -> str | None:
    try:
        rs.TARGETS[target](data)
    except Exception as e:  # anything leaving a harness is a finding
        return _signature.signature(e)
    return None


@pytest.mark.parametrize("target", sorted(rs.TARGETS))
def test_harnesses_hold_on_the_corpus_the_real_file_and_their_mutants(target: str) -> None:
    inputs = [p.read_bytes() for p in CORPUS if "LIMIT" not in p.name]
    real = REAL / "signal.v3"
    if real.is_file():
        inputs.append(real.read_bytes())
    inputs += [rs.mutate(d, 4096, seed) for d in inputs[::3] for seed in range(4)]
    assert [(i, s) for i, d in enumerate(inputs) if (s := _run(target, d)) is not None] == []


@pytest.mark.parametrize("target", sorted(rs.TARGETS))
def test_harnesses_hold_on_xz_and_version_words_with_arbitrary_bytes(target: str) -> None:
    rng = random.Random(3)
    inputs = [b"\x03\x00", XZ_MAGIC, lzma.compress(b""), lzma.compress(b"\0" * 2048)]
    inputs += [b"\x03\x00\xae" + bytes(rng.randrange(256) for _ in range(rng.randrange(60))) for _ in range(25)]
    assert [(i, s) for i, d in enumerate(inputs) if (s := _run(target, d)) is not None] == []


def test_mutator_reaches_inside_the_container() -> None:
    """Most mutants of a tar.xz seed are still intact tar.xz files whose signal changed."""
    seed = SYNTHETIC["v3.tar.xz.sig"]
    inner = decode(seed).signal
    intact_changed = 0
    for s in range(60):
        out = rs.mutate(seed, 4096, s)
        if out[:6] != XZ_MAGIC:
            continue
        try:
            u = unwrap(out)
        except DecodeError:
            continue
        try:
            if decode(out).signal != inner:
                intact_changed += 1
        except DecodeError:
            intact_changed += 1  # the container opened; the signal inside is what broke
        assert u.container == "tar.xz"
    assert intact_changed >= 20


def test_derive_seeds_unwraps_the_container() -> None:
    seed = SYNTHETIC["v4.tar.xz.sig"]
    (body,) = rs.derive_seeds(seed, 4096)
    assert body[:2] == b"\x04\x00"
    assert rs.derive_seeds(body, 4096) == []


def test_a_divergence_is_signed_by_its_message_up_to_the_details() -> None:
    d = Divergence("Kaitai rejects what the reference reads (x)", 0, "file")
    assert rs.divergence_kind(d) == "raskat-diff:Kaitai rejects what the reference reads"


def test_describe_input() -> None:
    assert rs.describe_input(SYNTHETIC["v2.sig"]) == {"container": "raw", "variant": "v2"}
    d = rs.describe_input(b"\x09\x00")
    assert d["variant"] == "v9" and d["reference"].startswith("RSIG-VERSION-001")
