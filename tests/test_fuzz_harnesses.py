"""What is the same for every format's fuzz harness module (``recspec.fuzz.FuzzHarness``),
over every format of the registry (``recspec.formats.FORMATS``).

* the module: found through the registry, satisfies ``FuzzHarness``, one harness
  per target, each stating its invariant first;
* the harnesses: hold on every file of ``corpus/<id>/valid/``, on every synthetic
  seed and on arbitrary bytes (anything leaving a harness is a recspec bug;
  ``ContractViolation`` is how a harness says so);
* the mutator: at most ``max_size`` bytes, never empty, deterministic per seed,
  different per seed, and it falls back on the byte mutator it is given now and then;
* seeds, dictionary, ``describe_input``, ``Divergent``, the runner's paths;
* a short real atheris campaign per format and target (``slow``, run by default;
  skipped when atheris is not installed).

What is a format's own (its mutator's edits, its signatures, its real files)
stays in ``tests/test_fuzz_<package>.py``.
"""

from __future__ import annotations

import inspect
import io
import json
import pickle
import random
from collections.abc import Callable
from pathlib import Path

import pytest

import recspec.fuzz
from recspec.formats import FORMATS, Divergence, FormatInfo
from recspec.fuzz import (
    ContractViolation,
    Divergent,
    FuzzHarness,
    _campaign,
    _mutate,
    _paths,
    _signature,
    run_campaign,
)
from recspec.fuzz._harness import load_harness, not_instrumented

REPO = Path(__file__).resolve().parents[1]
INFOS = list(FORMATS.values())
IDS = [info.id for info in INFOS]
TARGET_CASES = [(info, target) for info in INFOS for target in recspec.fuzz.TARGETS]
TARGET_IDS = [f"{info.id}-{target}" for info, target in TARGET_CASES]


def _harness(info: FormatInfo) -> FuzzHarness:
    return load_harness(info)


def _valid(info: FormatInfo) -> list[Path]:
    folder = REPO / "corpus" / info.id / "valid"
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix != ".json")


def _finding(harness: Callable[[bytes], None], data: bytes) -> str | None:
    """``None`` when the harness holds on ``data``, else what left it."""
    try:
        harness(data)
    except ContractViolation as e:
        return f"ContractViolation (a recspec bug): {_signature.signature(e)}: {e}"
    except Exception as e:  # anything else leaving a harness is a bug in the harness or the code under it
        return f"undocumented {type(e).__name__} (not a ContractViolation): {_signature.signature(e)}: {e}"
    return None


# --- the module ---------------------------------------------------------------------------


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_the_runner_finds_the_module_through_the_registry(info: FormatInfo) -> None:
    mod = _harness(info)
    assert mod.__name__ == info.fuzz_module  # type: ignore[attr-defined]
    assert _paths.dictionary_file(info.dictionary) == REPO / "fuzz" / "dictionaries" / info.dictionary


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_the_module_satisfies_the_protocol(info: FormatInfo) -> None:
    mod = _harness(info)
    assert isinstance(mod, FuzzHarness)
    members = [name for name in dir(FuzzHarness) if not name.startswith("_")]
    members += list(FuzzHarness.__annotations__)
    missing = [name for name in members if not hasattr(mod, name)]
    assert not missing
    assert set(mod.TARGETS) == set(recspec.fuzz.TARGETS)
    assert {"ref": mod.fuzz_ref, "ksy": mod.fuzz_ksy, "diff": mod.fuzz_diff} == mod.TARGETS
    assert mod.ContractViolation is ContractViolation and mod.Divergent is Divergent
    assert mod.EXTENSION.startswith(".") and 0 < mod.BYTE_MUTATION_RATE < 1
    assert "atheris" not in vars(mod)  # imported by the runner's child only


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_every_harness_starts_with_its_invariant(info: FormatInfo) -> None:
    for name, harness in _harness(info).TARGETS.items():
        body = inspect.getsource(harness).split(":\n", 1)[1].lstrip()
        assert body.startswith("# Invariant:"), name


# --- the harnesses ------------------------------------------------------------------------


@pytest.mark.parametrize(("info", "target"), TARGET_CASES, ids=TARGET_IDS)
def test_harnesses_hold_on_the_valid_corpus(info: FormatInfo, target: str) -> None:
    harness = _harness(info).TARGETS[target]
    failures = [(p.name, f) for p in _valid(info) if (f := _finding(harness, p.read_bytes())) is not None]
    assert failures == []


@pytest.mark.parametrize(("info", "target"), TARGET_CASES, ids=TARGET_IDS)
def test_harnesses_hold_on_the_synthetic_seeds(info: FormatInfo, target: str) -> None:
    mod = _harness(info)
    failures = [(name, f) for name, data in mod.synthetic_seeds()
                if (f := _finding(mod.TARGETS[target], data)) is not None]
    assert failures == []


@pytest.mark.parametrize(("info", "target"), TARGET_CASES, ids=TARGET_IDS)
def test_harnesses_hold_on_arbitrary_bytes(info: FormatInfo, target: str) -> None:
    rng = random.Random(7)
    inputs = [b"", b"\x00", b"\xff" * 20, bytes(range(256))]
    inputs += [bytes(rng.randrange(256) for _ in range(rng.randrange(64))) for _ in range(20)]
    harness = _harness(info).TARGETS[target]
    assert [(i, f) for i, d in enumerate(inputs) if (f := _finding(harness, d)) is not None] == []


# --- the mutator ---------------------------------------------------------------------------


def _mutator_inputs(info: FormatInfo) -> list[bytes]:
    mod = _harness(info)
    return [p.read_bytes() for p in _valid(info)[:3]] + [data for _, data in mod.synthetic_seeds()[:2]]


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_mutator_is_bounded_and_deterministic_per_seed(info: FormatInfo) -> None:
    mod = _harness(info)
    rng = random.Random(3)
    for data in [b"", b"\x00", b"\xff" * 20, bytes(range(256)), *_mutator_inputs(info)]:
        for seed in range(25):
            max_size = rng.choice((1, 8, 64, 1000, 65536))
            out = mod.mutate(data, max_size, seed)
            assert isinstance(out, bytes) and 0 < len(out) <= max_size, (seed, max_size)
            assert mod.mutate(data, max_size, seed) == out


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_mutator_gives_different_mutants_for_different_seeds(info: FormatInfo) -> None:
    mod = _harness(info)
    for data in _mutator_inputs(info):
        mutants = [mod.mutate(data, 65536, seed) for seed in range(40)]
        assert len(set(mutants)) >= 20
        assert sum(m != data for m in mutants) >= 30


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_mutator_falls_back_on_the_byte_mutator_it_is_given(info: FormatInfo) -> None:
    """With a valid input, about ``BYTE_MUTATION_RATE`` of the calls (more where an edit fails)
    go to ``byte_mutate`` (atheris.Mutate in a campaign), and what it returns is used."""
    mod = _harness(info)
    for data in _mutator_inputs(info)[:2]:
        calls = 0

        def marker(d: bytes, n: int) -> bytes:
            nonlocal calls
            calls += 1
            return b"\x00byte-mutated"[:n]

        outs = [mod.mutate(data, 65536, seed, byte_mutate=marker) for seed in range(200)]
        assert mod.BYTE_MUTATION_RATE / 2 <= calls / 200 <= 0.5, calls
        assert sum(out == b"\x00byte-mutated" for out in outs) > 0


def test_the_shared_byte_mutator_is_bounded_and_deterministic() -> None:
    for seed in range(100):
        for data in (b"", b"ab", bytes(range(200))):
            out = _mutate.byte_mutate(random.Random(seed), data, 16, (b"TOKEN",))
            assert 0 < len(out) <= 16 and out == _mutate.byte_mutate(random.Random(seed), data, 16, (b"TOKEN",))


# --- seeds, dictionary, describe_input ---------------------------------------------------------


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_synthetic_seeds_are_named_inputs(info: FormatInfo) -> None:
    seeds = _harness(info).synthetic_seeds()
    assert seeds and len({name for name, _ in seeds}) == len(seeds)
    assert all(isinstance(name, str) and isinstance(data, bytes) and data for name, data in seeds)


@pytest.mark.parametrize("max_len", [1024, 65536])
@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_derived_seeds_fit_max_len(info: FormatInfo, max_len: int) -> None:
    mod = _harness(info)
    for path in _valid(info):
        for derived in mod.derive_seeds(path.read_bytes(), max_len):
            assert isinstance(derived, bytes) and 0 < len(derived) <= max_len, path.name


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_committed_dictionary_is_the_generated_one(info: FormatInfo) -> None:
    path = _paths.dictionary_file(info.dictionary)
    assert path is not None, f"fuzz/dictionaries/{info.dictionary} is missing"
    assert path.read_text() == _harness(info).dictionary_text()


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_dictionary_entries_are_named_bytes(info: FormatInfo) -> None:
    entries = _harness(info).dictionary_entries()
    assert entries and all(isinstance(n, str) and n.isidentifier() and isinstance(v, bytes) and v
                           for n, v in entries)


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_describe_input_never_raises_and_is_json(info: FormatInfo) -> None:
    mod = _harness(info)
    for data in [b"", b"\x00", b"\xff" * 20, *(p.read_bytes() for p in _valid(info)[:2])]:
        described = mod.describe_input(data)
        # plain JSON data: a tuple or bytes would not come back equal, a set would not dump
        assert isinstance(described, dict) and json.loads(json.dumps(described)) == described


# --- Divergent ------------------------------------------------------------------------------


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_divergent_carries_its_divergences_signs_and_pickles(info: FormatInfo) -> None:
    mod = _harness(info)
    ds = [Divergence(f"reference rejects ({i}), Kaitai accepts: record {i}", 10 * i, "packet", "kaitai")
          for i in range(5)]
    e = mod.Divergent(ds, "v", "the module that broke", mod.divergence_kind)
    assert isinstance(e, ContractViolation) and isinstance(e, AssertionError)
    assert e.divergences == tuple(ds) and e.module == "the module that broke"
    assert "5 divergence(s) under v" in str(e) and "(+2 more)" in str(e)
    assert e.signature() == mod.divergence_kind(ds[0])
    back = pickle.loads(pickle.dumps(e))
    assert (back.divergences, back.variant, back.module, str(back), back.signature()) == \
        (e.divergences, e.variant, e.module, str(e), e.signature())


# --- the runner ---------------------------------------------------------------------------------


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_paths_in_a_checkout(info: FormatInfo) -> None:
    assert _paths.checkout_root() == REPO
    assert _paths.corpus_dir(info.id) == REPO / "corpus" / info.id
    assert _paths.default_crash_dir(info.id) == REPO / "corpus" / info.id / "regressions"


def test_a_format_without_harnesses_is_a_usage_error(tmp_path: Path) -> None:
    err = io.StringIO()
    assert run_campaign("no-such-format", seconds=1, out_dir=tmp_path, stdout=io.StringIO(), stderr=err) == 2
    assert "no fuzz harnesses for format 'no-such-format'" in err.getvalue()


@pytest.mark.parametrize("info", INFOS, ids=IDS)
def test_missing_atheris_is_a_usage_error_with_the_install_hint(info: FormatInfo, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_campaign, "_atheris_available", lambda: False)
    err = io.StringIO()
    assert run_campaign(info.id, target="ref", seconds=1, out_dir=tmp_path, stdout=io.StringIO(), stderr=err) == 2
    assert "pip install -e '.[fuzz]'" in err.getvalue()  # from a checkout: recspec is not on the package index


@pytest.mark.slow
@pytest.mark.parametrize(("info", "target"), TARGET_CASES, ids=TARGET_IDS)
def test_short_campaign_finds_nothing(info: FormatInfo, target: str, tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install 'recspec[fuzz]'): no campaign")
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign(info.id, target=target, seconds=4, out_dir=tmp_path, seed=1, max_len=4096,
                      stdout=out, stderr=err, verbose=True)
    assert rc == 0, out.getvalue() + err.getvalue()[-3000:]
    summary = out.getvalue()
    assert f"recspec fuzz {info.id} --target {target}:" in summary and "no new crashes" in summary
    assert "INITED" in err.getvalue()  # with verbose, libFuzzer's log went to stderr
    assert not list(tmp_path.glob("crash-*")) and not list(tmp_path.glob("worker*"))


@pytest.mark.slow
def test_verbose_campaign_passes_the_libfuzzer_log_through(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install -e '.[fuzz]'): no campaign")
    out, err = io.StringIO(), io.StringIO()
    first = next(iter(FORMATS))  # the same pass-through for every format
    rc = run_campaign(first, target="ref", seconds=3, out_dir=tmp_path, seed=1, max_len=4096,
                      stdout=out, stderr=err, verbose=True)
    assert rc == 0, out.getvalue() + err.getvalue()[-3000:]
    assert "INITED" in err.getvalue()  # libFuzzer's progress went to stderr


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_the_harness_its_mutator_and_the_report_are_left_out_of_the_instrumentation(info: FormatInfo) -> None:
    # atheris' exclude list matches whole module names: every module of recspec.fuzz is named
    excluded = set(not_instrumented())
    assert {info.fuzz_module, "recspec.fuzz._mutate", "recspec.fuzz._child", "recspec.fuzz._harness",
            "recspec.report"} <= excluded
    # the finding sink every checker reports into and the errors module's boundary wrapper: plumbing
    assert {"recspec.conformance._sink", "recspec.errors"} <= excluded
    # the plugin's trace collector and picture drawer, found through the registry; nothing else of the plugin,
    # its reference codec or its Kaitai parser (the code under test)
    drawing = {f"{info.module}._trace", f"{info.module}._picture"}
    assert drawing <= excluded
    assert not any(name.startswith(("recspec.reference", "recspec.conformance", "recspec._ksy", info.module,
                                    info.reference_module))
                   for name in excluded
                   if not name.endswith(("._trace", "._picture")) and name != "recspec.conformance._sink")
