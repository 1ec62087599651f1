"""The raSkat fuzz harnesses, the container-aware mutator, the dictionary, and
short real atheris campaigns (``slow``, run by default, a few seconds each)."""

from __future__ import annotations

import importlib.util
import inspect
import io
import lzma
import pickle
import random
from pathlib import Path

import pytest

from recspec.conformance.raskat_signal._xcheck import Divergence
from recspec.errors import DecodeError
from recspec.fuzz import _runner, raskat_signal as rs, run_campaign
from recspec.reference.raskat_signal import XZ_MAGIC, decode, unwrap

from helpers import REAL

REPO = Path(__file__).resolve().parents[1]
CORPUS = sorted((REPO / "corpus" / "raskat-signal").glob("*/*.sig"))
SYNTHETIC = dict(rs.synthetic_seeds())


def _run(target: str, data: bytes) -> str | None:
    try:
        rs.TARGETS[target](data)
    except Exception as e:  # anything leaving a harness is a finding
        return _runner.signature(e)
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
def test_harnesses_hold_on_arbitrary_bytes(target: str) -> None:
    rng = random.Random(3)
    inputs = [b"", b"\x00", b"\x03\x00", XZ_MAGIC, lzma.compress(b""), lzma.compress(b"\0" * 2048)]
    inputs += [bytes(rng.randrange(256) for _ in range(rng.randrange(80))) for _ in range(25)]
    inputs += [b"\x03\x00\xae" + bytes(rng.randrange(256) for _ in range(rng.randrange(60))) for _ in range(25)]
    assert [(i, s) for i, d in enumerate(inputs) if (s := _run(target, d)) is not None] == []


def test_every_harness_starts_with_its_invariant() -> None:
    for name, harness in rs.TARGETS.items():
        body = inspect.getsource(harness).split(":\n", 1)[1].lstrip()
        assert body.startswith("# Invariant:"), name


def test_mutator_is_deterministic_bounded_and_never_raises() -> None:
    seeds = list(SYNTHETIC.values())
    for i, d in enumerate(seeds * 10):
        a = rs.mutate(d, 300, i)
        assert a == rs.mutate(d, 300, i)
        assert isinstance(a, bytes) and 0 < len(a) <= 300
    assert rs.mutate(b"", 10, 1)  # even from nothing


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


def test_dictionary_file_is_the_generated_one() -> None:
    assert (REPO / "fuzz" / "dictionaries" / "raskat-signal.dict").read_text() == rs.dictionary_text()


def test_divergent_pickles_and_signs() -> None:
    e = rs.Divergent([Divergence("Kaitai rejects what the reference reads (x)", 0, "file")], "v3",
                    kind=rs.divergence_kind)
    back = pickle.loads(pickle.dumps(e))
    assert str(back) == str(e) and back.signature() == e.signature() == "raskat-diff:Kaitai rejects what the reference reads"


def test_describe_input() -> None:
    assert rs.describe_input(SYNTHETIC["v2.sig"]) == {"container": "raw", "variant": "v2"}
    d = rs.describe_input(b"\x09\x00")
    assert d["variant"] == "v9" and d["reference"].startswith("RSIG-VERSION-001")


needs_atheris = pytest.mark.skipif(importlib.util.find_spec("atheris") is None,
                                   reason="atheris is not installed (pip install 'recspec[fuzz]')")


@pytest.mark.slow
@needs_atheris
@pytest.mark.parametrize("target", ["ref", "diff"])
def test_short_campaign_runs_atheris(tmp_path: Path, target: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign("raskat-signal", target=target, seconds=4, out_dir=tmp_path, seed=1, max_len=4096,
                      stdout=out, stderr=err)
    assert rc == 0, out.getvalue() + err.getvalue()[-3000:]
    assert f"recspec fuzz raskat-signal --target {target}:" in out.getvalue()
    assert "no new crashes" in out.getvalue()
    assert not list(tmp_path.glob("crash-*"))
