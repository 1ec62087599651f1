"""Campaigns at scale on CARLA's harness: minimising a crash of its valid log, --variant (a fixed variant,
the mutator's packet decoding, variant errors), --triage of a fuzzer's folder, the campaign table
(tools/run_campaigns.py) and a crash found by two processes. What every format's campaign shares is in
``test_fuzz_campaigns.py``.

The real campaigns are ``slow`` (run by default; skipped without atheris). No real bug is
open, so crashes come from the runner's self-test canary (``RECSPEC_FUZZ_CANARY``).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script, run_cli
from recspec.errors import UsageError
from recspec.fuzz import CampaignResult, _carla_mutate, _harness, _seeds, _signature, _triage, carla, run_campaign

REPO = Path(__file__).resolve().parents[1]
VALID = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"
CANARY = b"recspec-canary"


@pytest.fixture(autouse=True)
def _detect_again() -> object:
    yield
    carla.use_variant(None)


# --- minimising ---------------------------------------------------------------------------------


def test_minimise_keeps_the_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_harness.CANARY_ENV, CANARY.hex())
    data = VALID.read_bytes() + CANARY
    try:
        _harness.checked_harness(carla, "ref")(data)
    except _harness.CanaryHit as e:
        sig = _signature.signature(e)
    shrunk = _triage.minimise("carla", "ref", None, data, sig, seconds=30)
    assert shrunk is not None and shrunk.data == CANARY  # nothing else is needed to fail so
    assert shrunk.info["signature"] == sig and shrunk.info["exception"] == "CanaryHit"
    assert _triage.minimise("carla", "ref", None, VALID.read_bytes(), sig, seconds=5) is None  # does not fail


# --- --variant ----------------------------------------------------------------------------------


def test_a_fixed_variant_skips_detection_in_harness_and_mutator(monkeypatch: pytest.MonkeyPatch) -> None:
    data = VALID.read_bytes()
    calls = []
    # the harness and the mutator both detect through the mutator module (fuzz/_carla_mutate.py)
    monkeypatch.setattr(_carla_mutate, "detect_variant", lambda *a: calls.append(1) or (carla.DEFAULT_VARIANT, {}))
    carla.use_variant("0.9.15")
    for target in ("ref", "ksy", "diff"):
        carla.TARGETS[target](data)
    for seed in range(30):
        carla.mutate(data + bytes([seed]), 65536, seed)
    assert calls == []
    assert carla.describe_input(data)["variant_note"] == "fixed for the campaign (--variant)"
    carla.use_variant(None)
    carla.TARGETS["ksy"](data)
    assert calls  # detected again


def test_the_mutator_decodes_only_the_packets_it_edits(monkeypatch: pytest.MonkeyPatch) -> None:
    """One mutation of a log of N packets decodes a handful of payloads, not all N (the encoder
    writes only the edited ones): its cost does not grow with the input."""
    data = VALID.read_bytes()
    n_packets = len(carla._parse(data).packets)
    decoded, encoded = [], []
    real_decode, real_encode = _carla_mutate.decode_body, _carla_mutate.encode_packet  # the mutator's codec
    monkeypatch.setattr(_carla_mutate, "decode_body", lambda *a: decoded.append(1) or real_decode(*a))
    monkeypatch.setattr(_carla_mutate, "encode_packet", lambda *a: encoded.append(1) or real_encode(*a))
    carla.use_variant("0.9.15")  # clears the parse cache
    for seed in range(50):
        carla.mutate(data, 65536, seed)
    assert n_packets > 60
    assert len(decoded) <= 50 * 3 * _carla_mutate._TRIES and len(decoded) < 50 * n_packets / 10
    assert len(encoded) < 50 * 4


def test_unknown_or_inapplicable_variants_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="unknown CARLA variant"):
        carla.use_variant("0.9.99")
    code, _, err = run_cli("fuzz", "carla", "--variant", "0.9.99", "--time", "1", "--out", "/nonexistent/x")
    assert code == 2 and "unknown CARLA variant '0.9.99'" in err and "0.9.15" in err
    code, _, err = run_cli("fuzz", "raskat-signal", "--variant", "v4", "--time", "1")
    assert code == 2 and "--variant does not apply to raskat-signal" in err
    code, _, err = run_cli("fuzz", "nanover", "--variant", "movie", "--time", "1")
    assert code == 2 and "unknown NanoVer kind" in err


# --- triage ---------------------------------------------------------------------------------------


def test_triage_groups_a_folder_of_crashes_by_signature(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_harness.CANARY_ENV, CANARY.hex())
    folder = tmp_path / "artifacts"
    (folder / "carla_ref_fuzzer").mkdir(parents=True)
    (folder / "carla_ref_fuzzer" / "crash-a").write_bytes(VALID.read_bytes() + CANARY)
    (folder / "carla_ref_fuzzer" / "crash-b").write_bytes(CANARY + b"\x00")
    (folder / "ok.log").write_bytes(VALID.read_bytes())
    code, out, _ = run_cli("fuzz", "carla", "--triage", str(folder))
    assert code == 1
    assert "3 input(s), 5 run(s); 1 distinct failure(s)" in out  # the ref fuzzer's folder names the target
    assert "ref  CanaryHit@recspec.fuzz._harness:harness:" in out
    assert f"2 input(s); smallest {folder / 'carla_ref_fuzzer' / 'crash-b'} (15 bytes)" in out
    assert "1 input(s) hold under every target" in out
    report = json.loads((folder / "triage.json").read_text())
    assert [g["count"] for g in report["groups"]] == [2] and len(report["rows"]) == 5
    code, out, _ = run_cli("fuzz", "carla", "--triage", str(folder / "ok.log"), "--target", "diff")
    assert code == 0 and "0 distinct failure(s)" in out


# --- the campaign table ---------------------------------------------------------------------------


def _tool() -> ModuleType:
    return load_script("tools/run_campaigns.py", "run_campaigns")


def test_a_campaign_appends_one_row_to_the_table(tmp_path: Path) -> None:
    tool = _tool()
    table = tmp_path / "CAMPAIGNS.md"
    table.write_text((REPO / "fuzz" / "CAMPAIGNS.md").read_text())
    before = table.read_text()
    result = CampaignResult("carla", "ref", "0.9.15", 2, 100.0, 3, 123456, 800, 2400, 66, 300,
                            [{"file": "crash-ab.log", "signature": "ValueError@x:y:1"}], {"S": 2}, 1)
    tool.append_row(tool.row(result, 1_000_000, 2, "quiet machine"), table)
    added = table.read_text()[len(before):]
    cells = [c.strip() for c in added.strip().strip("|").split("|")]
    assert added.count("\n") == 1 and len(cells) == 9
    assert cells[2:8] == ["carla", "ref", "123,456", "1,235", "800 (2400)", "`crash-ab.log` (ValueError@x:y:1)"]
    assert "--variant 0.9.15" in cells[8] and "--jobs 2" in cells[8] and "of 1,000,000 execs" in cells[8]


# --- real campaigns (slow) -------------------------------------------------------------------------


@pytest.mark.slow
def test_a_crash_found_by_two_processes_is_saved_once_minimised(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install 'recspec[fuzz]'): no campaign")
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "canary.log").write_bytes(VALID.read_bytes() + CANARY)
    monkeypatch.setenv(_harness.CANARY_ENV, CANARY.hex())
    monkeypatch.setenv(_seeds.SEEDS_ENV, str(seeds))
    out_dir = tmp_path / "out"
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign("carla", target="ref", seconds=8, out_dir=out_dir, seed=1, jobs=2, variant="0.9.15",
                      stdout=out, stderr=err)
    assert rc == 1, out.getvalue() + err.getvalue()[-3000:]
    [meta] = sorted(out_dir.glob("crash-*.json"))
    info = json.loads(meta.read_text())
    assert (out_dir / info["file"]).read_bytes() == CANARY  # minimised to what makes it fail
    assert info["minimised"]["from_size"] == len(VALID.read_bytes()) + len(CANARY)
    assert info["campaign_variant"] == "0.9.15" and info["variant"] == "0.9.15"
    assert info["reproduce"] == f"recspec reproduce {out_dir / info['file']} --variant 0.9.15"
    assert "(minimised from " in out.getvalue()
