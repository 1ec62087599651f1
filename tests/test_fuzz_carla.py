"""The CARLA fuzz harnesses, the structure-aware mutator and the campaign runner:
what is CARLA's own. What every format shares (the Protocol, the valid corpus,
the synthetic seeds, arbitrary bytes, the mutator's bounds and determinism, the
dictionary file, a short campaign per target) is in ``test_fuzz_harnesses.py``.

* harnesses: the real logs (``../shared/real``), the whole seed corpus and
  mutated versions of them hold each harness's invariant; so do logs with a
  valid header and random packets;
* mutator: its outputs of a valid log still decode most of the time, and it
  edits the packets, the header and the tail;
* the runner: signatures, usage errors, and (``slow``, but run by default) the
  saving of a crash with its companion.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from recspec.conformance.carla._xcheck import Divergence
from recspec.errors import DecodeError
from recspec.fuzz import _carla_mutate, _harness, _paths, _seeds, _signature, carla, run_campaign
from recspec.reference.carla import decode

REPO = Path(__file__).resolve().parents[1]
REAL = REPO.parent / "shared" / "real"
REAL_LOGS = sorted(REAL.glob("*.log")) if REAL.is_dir() else []
CORPUS = sorted((REPO / "corpus" / "carla").glob("*/*.log"))
CORPUS_VALID = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"
SYNTHETIC = dict(carla.synthetic_seeds())


def _run(target: str, data: bytes) -> str | None:
    """The signature of the harness's failure on ``data``; ``None`` when the invariant holds."""
    try:
        carla.TARGETS[target](data)
    except Exception as e:  # anything leaving a harness is a finding
        return _signature.signature(e)
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
def test_harnesses_hold_on_a_valid_header_and_arbitrary_bytes(target: str) -> None:
    rng = random.Random(7)
    header = SYNTHETIC["synthetic-0.9.15"][:34]
    inputs = [b"\x01\x00\x0e\x00CARLA_RECORDER", header]
    inputs += [header + bytes(rng.randrange(256) for _ in range(rng.randrange(80))) for _ in range(30)]
    assert [(i, s) for i, d in enumerate(inputs) if (s := _run(target, d)) is not None] == []


def test_a_divergence_is_signed_without_its_numbers_and_values() -> None:
    d = Divergence(".body[0].location.x: reference 1.0 vs Kaitai 2.0", 40, "packet:Position")
    assert carla.divergence_kind(d) == "Divergent:packet:Position:.body[N].location.x"
    assert carla.Divergent([d], "0.9.15", kind=carla.divergence_kind).signature() == carla.divergence_kind(d)


def test_signature_of_a_wrapped_error_is_its_cause() -> None:
    try:
        try:
            raise DecodeError("bad", 3)
        except DecodeError as cause:
            raise carla.ContractViolation("check_stream raised DecodeError") from cause
    except carla.ContractViolation as e:
        sig = _signature.signature(e)
    assert sig.startswith("DecodeError@") and ":test_signature_of_a_wrapped_error_is_its_cause:" in sig


# --- mutator ------------------------------------------------------------------------


def _valid_inputs() -> list[bytes]:
    valid = [p.read_bytes() for p in CORPUS if p.parent.name == "valid"]
    return valid + list(SYNTHETIC.values())


def test_mutator_output_mostly_decodes() -> None:
    decoded = total = 0
    for data in _valid_inputs():
        for out in _mutants(data, 40):
            total += 1
            variant = carla.variant_of(out) or carla.DEFAULT_VARIANT
            try:
                decode(out, variant=variant)
            except DecodeError:
                continue
            decoded += 1
    assert decoded / total > 0.6, (decoded, total)


def test_mutator_changes_structure() -> None:
    data = SYNTHETIC["synthetic-0.9.15"]
    original = _carla_mutate._parse(data)
    assert original is not None
    packets, headers, tails = set(), set(), set()
    for out in _mutants(data, 300):
        p = _carla_mutate._parse(out)
        if p is None:
            continue
        packets.add(len(p.packets))
        headers.add(p.header)
        tails.add(len(p.tail))
    assert len(packets) > 3  # packets duplicated, deleted, grafted
    assert len(headers) > 3  # header fields changed
    assert len(tails) > 2  # truncated or junk tails


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
        decode(prefix, variant=variant)  # ends at a packet boundary: decodes completely


def test_synthetic_seeds_cover_every_variant_and_check_valid() -> None:
    from recspec.conformance.carla import check_stream
    from recspec.reference.carla import VARIANTS

    assert sorted(SYNTHETIC) == sorted(f"synthetic-{name}" for name in VARIANTS)
    for name, data in SYNTHETIC.items():
        report = check_stream(io.BytesIO(data), path=name, variant=None, profile="spec")
        assert (report.variant, report.verdict.value) == (name.removeprefix("synthetic-"), "valid")


# --- the runner: usage errors (fast) -----------------------------------------------------


def test_unknown_target_is_a_usage_error(tmp_path: Path) -> None:
    err = io.StringIO()
    assert run_campaign("carla", target="nope", seconds=1, out_dir=tmp_path, stdout=io.StringIO(), stderr=err) == 2
    assert "unknown target" in err.getvalue()


def test_out_is_required_outside_a_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_paths, "default_crash_dir", lambda fmt: None)
    err = io.StringIO()
    assert run_campaign("carla", target="ref", seconds=1, out_dir=None, stdout=io.StringIO(), stderr=err) == 2
    assert "--out is required" in err.getvalue()


# --- a real campaign (slow) ----------------------------------------------------------------


@pytest.mark.slow
def test_a_crash_is_saved_with_what_it_broke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install 'recspec[fuzz]'): no campaign")
    # No real bug is open, so the crash pipeline is exercised with the runner's
    # self-test canary: a seed holding these bytes fails in the child process.
    canary = b"recspec-canary"
    seed = tmp_path / "seeds" / "canary.log"
    seed.parent.mkdir()
    seed.write_bytes(CORPUS_VALID.read_bytes() + canary)
    monkeypatch.setenv(_harness.CANARY_ENV, canary.hex())
    monkeypatch.setenv(_seeds.SEEDS_ENV, str(seed.parent))
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
