"""The CARLA fuzz harnesses, the structure-aware mutator and the campaign runner.

* harnesses: the real logs (``../shared/real``), the seed corpus, the
  synthetic seeds and mutated versions of them all hold each harness's
  invariant, except the findings listed in ``KNOWN_FINDINGS``;
* mutator: deterministic per seed, within ``max_size``, never raises, and its
  outputs of a valid log still decode most of the time;
* dictionary: the checked-in file is the generated one;
* campaigns (``slow``, but run by default): a real atheris run per target in a
  subprocess, a few seconds each, and the saving of a crash with its companion.
"""

from __future__ import annotations

import importlib.util
import io
import json
import pickle
import random
from pathlib import Path

import pytest

from recspec.conformance.carla._xcheck import Divergence
from recspec.errors import DecodeError
from recspec.fuzz import _paths, _runner, carla, run_campaign
from recspec.reference.carla import decode

REPO = Path(__file__).resolve().parents[1]
REAL = REPO.parent / "shared" / "real"
REAL_LOGS = sorted(REAL.glob("*.log")) if REAL.is_dir() else []
CORPUS = sorted((REPO / "corpus" / "carla").glob("*/*.log"))
CORPUS_VALID = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"
SYNTHETIC = dict(carla.synthetic_seeds())

# Findings the fuzzers made that are not fixed yet: (target, input name) -> signature.
# Each entry is a bug in recspec, reported to the owner of the module named;
# the test that uses it fails once the bug is fixed, so remove the entry then.
KNOWN_FINDINGS: dict[tuple[str, str], str] = {
    # None open. (The first entry, UE5 PhysicsControl read as kind raw by the
    # ksy and as PhysicsControl by the reference, was fixed in _xcheck.)
}


def _run(target: str, data: bytes) -> str | None:
    """The signature of the harness's failure on ``data``; ``None`` when the invariant holds."""
    try:
        carla.TARGETS[target](data)
    except Exception as e:  # anything leaving a harness is a finding
        return _runner.signature(e)
    return None


def _mutants(data: bytes, n: int, max_size: int = 65536) -> list[bytes]:
    return [carla.mutate(data, max_size, seed) for seed in range(n)]


# --- harnesses ----------------------------------------------------------------------


@pytest.mark.parametrize("target", sorted(carla.TARGETS))
@pytest.mark.parametrize("path", REAL_LOGS, ids=[p.name for p in REAL_LOGS])
def test_harnesses_hold_on_real_logs_and_their_mutants(path: Path, target: str) -> None:
    data = path.read_bytes()
    inputs = [data, *carla.derive_seeds(data, 65536)]
    inputs += [m for seed in inputs[1:] for m in _mutants(seed, 8)]
    failures = [(i, sig) for i, d in enumerate(inputs) if (sig := _run(target, d)) is not None]
    assert not failures


@pytest.mark.parametrize("target", sorted(carla.TARGETS))
def test_harnesses_hold_on_the_seed_corpus_and_its_mutants(target: str) -> None:
    if not CORPUS:
        pytest.skip("corpus/carla/ has no .log files yet")
    inputs = [p.read_bytes() for p in CORPUS]
    inputs += [m for d in inputs[::4] for m in _mutants(d, 3)]
    failures = [(i, sig) for i, d in enumerate(inputs) if (sig := _run(target, d)) is not None]
    assert not failures


@pytest.mark.parametrize("target", sorted(carla.TARGETS))
@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_harnesses_on_synthetic_seeds(name: str, target: str) -> None:
    assert _run(target, SYNTHETIC[name]) == KNOWN_FINDINGS.get((target, name)), (
        "a known finding no longer reproduces: remove it from KNOWN_FINDINGS"
        if (target, name) in KNOWN_FINDINGS else "new finding")


@pytest.mark.parametrize("target", sorted(carla.TARGETS))
def test_harnesses_hold_on_arbitrary_bytes(target: str) -> None:
    rng = random.Random(7)
    header = SYNTHETIC["synthetic-0.9.15"][:34]
    inputs = [b"", b"\x00", b"\x01\x00\x0e\x00CARLA_RECORDER", header]
    inputs += [bytes(rng.randrange(256) for _ in range(rng.randrange(64))) for _ in range(30)]
    inputs += [header + bytes(rng.randrange(256) for _ in range(rng.randrange(80))) for _ in range(30)]
    assert [(i, s) for i, d in enumerate(inputs) if (s := _run(target, d)) is not None] == []


def test_every_harness_starts_with_its_invariant() -> None:
    import inspect

    for name, harness in carla.TARGETS.items():
        body = inspect.getsource(harness).split(":\n", 1)[1].lstrip()
        assert body.startswith("# Invariant:"), name


def test_divergent_carries_the_divergences_and_pickles() -> None:
    d = Divergence(".body[0].location.x: reference 1.0 vs Kaitai 2.0", 40, "packet:Position")
    e = carla.Divergent([d], "0.9.15", kind=carla.divergence_kind)
    assert e.divergences == (d,)
    assert isinstance(e, AssertionError)
    assert e.signature() == "Divergent:packet:Position:.body[N].location.x"
    back = pickle.loads(pickle.dumps(e))
    assert (back.divergences, back.variant, str(back)) == (e.divergences, e.variant, str(e))


def test_signature_of_a_wrapped_error_is_its_cause() -> None:
    try:
        try:
            raise DecodeError("bad", 3)
        except DecodeError as cause:
            raise carla.ContractViolation("check_stream raised DecodeError") from cause
    except carla.ContractViolation as e:
        sig = _runner.signature(e)
    assert sig.startswith("DecodeError@") and ":test_signature_of_a_wrapped_error_is_its_cause:" in sig


# --- mutator ------------------------------------------------------------------------


def _valid_inputs() -> list[bytes]:
    valid = [p.read_bytes() for p in CORPUS if p.parent.name == "valid"]
    return valid + list(SYNTHETIC.values())


def test_mutator_is_deterministic_per_seed() -> None:
    for data in _valid_inputs()[:6]:
        first = _mutants(data, 40)
        assert first == _mutants(data, 40)
        assert len(set(first)) > 30  # different seeds, different mutants


def test_mutator_output_mostly_decodes() -> None:
    decoded = total = 0
    for data in _valid_inputs():
        for out in _mutants(data, 40):
            total += 1
            variant = carla.variant_of(out) or carla.DEFAULT_VARIANT
            try:
                decode(out, variant)
            except DecodeError:
                continue
            decoded += 1
    assert decoded / total > 0.6, (decoded, total)


def test_mutator_changes_structure() -> None:
    data = SYNTHETIC["synthetic-0.9.15"]
    original = carla._parse(data)
    assert original is not None
    packets, headers, tails = set(), set(), set()
    for out in _mutants(data, 300):
        p = carla._parse(out)
        if p is None:
            continue
        packets.add(len(p.packets))
        headers.add(p.header)
        tails.add(len(p.tail))
    assert len(packets) > 3  # packets duplicated, deleted, grafted
    assert len(headers) > 3  # header fields changed
    assert len(tails) > 2  # truncated or junk tails


def test_mutator_respects_max_size_and_never_raises() -> None:
    rng = random.Random(3)
    inputs = [b"", b"\x00", bytes(range(256)), *_valid_inputs()[:4]]
    for data in inputs:
        for seed in range(30):
            max_size = rng.choice((1, 8, 64, 1000, 65536))
            out = carla.mutate(data, max_size, seed)
            assert isinstance(out, bytes) and 0 < len(out) <= max_size


def test_derived_seeds_are_small_and_frame_aligned() -> None:
    if not REAL_LOGS:
        pytest.skip(f"{REAL} is absent")
    for path in REAL_LOGS:
        data = path.read_bytes()
        derived = carla.derive_seeds(data, 65536)
        assert derived and all(len(d) <= carla.PREFIX_BYTES for d in derived[:1])
        prefix = derived[0]
        assert data.startswith(prefix)
        variant = carla.variant_of(prefix)
        assert variant is not None
        decode(prefix, variant)  # ends at a packet boundary: decodes completely


def test_synthetic_seeds_cover_every_variant_and_check_valid() -> None:
    from recspec.conformance.carla import check_stream
    from recspec.reference.carla import VARIANTS

    assert sorted(SYNTHETIC) == sorted(f"synthetic-{name}" for name in VARIANTS)
    for name, data in SYNTHETIC.items():
        report = check_stream(io.BytesIO(data), path=name, variant=None, profile="spec")
        assert (report.variant, report.verdict.value) == (name.removeprefix("synthetic-"), "valid")


# --- dictionary and paths -------------------------------------------------------------


def test_dictionary_file_is_the_generated_one() -> None:
    path = _paths.dictionary_file("carla.dict")
    assert path is not None and path.read_text() == carla.dictionary_text()


def test_paths_in_a_checkout() -> None:
    assert _paths.checkout_root() == REPO
    assert _paths.corpus_dir("carla") == REPO / "corpus" / "carla"
    assert _paths.default_crash_dir("carla") == REPO / "corpus" / "carla" / "regressions"


# --- the runner: usage errors (fast) -----------------------------------------------------


def test_unknown_target_is_a_usage_error(tmp_path: Path) -> None:
    err = io.StringIO()
    assert run_campaign("carla", target="nope", seconds=1, out_dir=tmp_path, stdout=io.StringIO(), stderr=err) == 2
    assert "unknown target" in err.getvalue()


def test_missing_atheris_prints_the_install_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_runner, "_atheris_available", lambda: False)
    err = io.StringIO()
    assert run_campaign("carla", target="ref", seconds=1, out_dir=tmp_path, stdout=io.StringIO(), stderr=err) == 2
    assert "pip install 'recspec[fuzz]'" in err.getvalue()


def test_out_is_required_outside_a_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_paths, "default_crash_dir", lambda fmt: None)
    err = io.StringIO()
    assert run_campaign("carla", target="ref", seconds=1, out_dir=None, stdout=io.StringIO(), stderr=err) == 2
    assert "--out is required" in err.getvalue()


# --- real campaigns (slow) -----------------------------------------------------------------

needs_atheris = pytest.mark.skipif(importlib.util.find_spec("atheris") is None,
                                   reason="atheris is not installed (pip install 'recspec[fuzz]')")


def _record_known(out_dir: Path, target: str) -> None:
    """Mark the known findings of ``target`` as already saved, as regressions/ would."""
    for i, ((t, _), sig) in enumerate(KNOWN_FINDINGS.items()):
        if t == target:
            (out_dir / f"known-{i}.json").write_text(json.dumps(
                {"format": "carla", "target": t, "signature": sig, "file": f"known-{i}.log"}))


@pytest.mark.slow
@needs_atheris
@pytest.mark.parametrize("target", ["ref", "ksy", "diff"])
def test_short_campaign_runs_atheris(tmp_path: Path, target: str) -> None:
    _record_known(tmp_path, target)
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign("carla", target=target, seconds=5, out_dir=tmp_path, seed=1, max_len=4096,
                      stdout=out, stderr=err)
    assert rc == 0, out.getvalue() + err.getvalue()[-3000:]
    summary = out.getvalue()
    assert f"recspec fuzz carla --target {target}:" in summary and "no new crashes" in summary
    assert "INITED" in err.getvalue()  # libFuzzer's progress went to stderr
    assert not list(tmp_path.glob("crash-*"))


@pytest.mark.slow
@needs_atheris
def test_a_crash_is_saved_with_what_it_broke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No real bug is open, so the crash pipeline is exercised with the runner's
    # self-test canary: a seed holding these bytes fails in the child process.
    canary = b"recspec-canary"
    seed = tmp_path / "seeds" / "canary.log"
    seed.parent.mkdir()
    seed.write_bytes(CORPUS_VALID.read_bytes() + canary)
    monkeypatch.setenv(_runner.CANARY_ENV, canary.hex())
    monkeypatch.setenv(_runner.SEEDS_ENV, str(seed.parent))
    out_dir = tmp_path / "out"
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign("carla", target="diff", seconds=5, out_dir=out_dir, seed=1, max_len=65536,
                      stdout=out, stderr=err)
    assert rc == 1, out.getvalue() + err.getvalue()[-3000:]
    metas = sorted(out_dir.glob("crash-*.json"))
    assert len(metas) == 1  # re-hits of the same signature are passed over, not saved again
    info = json.loads(metas[0].read_text())
    for key in ("target", "exception", "message", "module", "variant", "date", "recspec_version", "traceback"):
        assert info[key], key
    assert (info["target"], info["exception"], info["variant"]) == ("diff", "CanaryHit", "0.9.15")
    saved = out_dir / info["file"]
    assert saved.suffix == ".log" and saved.with_suffix(".json") == metas[0]
    assert canary in saved.read_bytes()  # the saved input is the one that failed
    assert "1 new crash(es) saved" in out.getvalue()
