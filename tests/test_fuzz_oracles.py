"""The ``ref`` harnesses' oracles (fuzz/_oracles.py): each invariant holds on the seeds
and is broken, with its own signature, by the bug it is there to catch.

The broken cases are made by hand: a report with a finding outside the file, a spec
verdict kinder than compat's, a decoder that refuses what the checker calls valid, a
canonical form that checks invalid. The harnesses themselves are run over every seed
(tests/test_fuzz_harnesses.py runs them over mutants).
"""

from __future__ import annotations

import pickle

import pytest

from recspec.errors import Malformed
from recspec.formats import FORMATS
from recspec.fuzz._oracles import (
    InvariantBroken,
    check_located,
    check_paths_agree,
    check_profiles,
    check_refusal,
    check_round_trip,
    sampled,
)
from recspec.report import FileReport, Finding, ProfileVerdict, Severity, Verdict

HARNESSES = {info.id: info.fuzz_module for info in FORMATS.values()}


def _report(verdict: Verdict = Verdict.VALID, findings: list[Finding] | None = None,
            spec: Verdict | None = None, compat: Verdict | None = None) -> FileReport:
    r = FileReport("x", next(iter(FORMATS)), None, "spec", verdict, findings or [])  # any format: the oracles ask none
    r.verdicts = {"spec": ProfileVerdict(spec or verdict, {f.rule: 1 for f in findings or []}),
                  "compat": ProfileVerdict(compat or verdict, {f.rule: 1 for f in findings or []})}
    return r


def _finding(rule: str = "CARLA-FRAME-003", offset: int | None = 10, length: int | None = 4,
             path: str = "frame[2]/packet[0]:FrameStart.frame_id") -> Finding:
    return Finding(rule, Severity.ERROR, "m", offset, length, path)


@pytest.mark.parametrize("fid", sorted(HARNESSES))
def test_the_ref_harness_holds_on_every_seed(fid: str) -> None:
    import importlib

    harness = importlib.import_module(HARNESSES[fid])
    ran = 0
    for seed in FORMATS[fid].load().seeds():
        if len(seed.data) < 1 << 20:
            harness.fuzz_ref(seed.data)  # an oracle that does not hold raises InvariantBroken
            harness.fuzz_ref(seed.data + b"\x00")  # the other profile (chosen by the length's parity)
            ran += 1
    assert ran > 0, f"no seed of {fid} under 1 MiB: the oracles were never run"


def test_a_finding_past_the_end_breaks_located() -> None:
    check_located(_report(findings=[_finding(offset=10, length=4)]), 14)
    for offset, length in ((10, 5), (15, None), (-1, None)):
        with pytest.raises(InvariantBroken) as e:
            check_located(_report(findings=[_finding(offset=offset, length=length)]), 14)
        assert e.value.signature() == "Invariant:located:CARLA-FRAME-003"


def test_a_unit_past_the_count_breaks_located() -> None:
    units = {r"^frame\[(\d+)\]": 3}
    check_located(_report(findings=[_finding(path="frame[2]/packet[0]:FrameStart")]), None, units)
    with pytest.raises(InvariantBroken):
        check_located(_report(findings=[_finding(path="frame[3]/packet[0]:FrameStart")]), None, units)


def test_spec_kinder_than_compat_breaks_profiles() -> None:
    check_profiles(_report(spec=Verdict.INVALID, compat=Verdict.VALID))
    check_profiles(_report(spec=Verdict.MALFORMED, compat=Verdict.MALFORMED))
    bad = _report(findings=[_finding("RSIG-COORD-002")], spec=Verdict.VALID, compat=Verdict.INVALID)
    bad.verdicts["spec"] = ProfileVerdict(Verdict.VALID, {})
    with pytest.raises(InvariantBroken) as e:
        check_profiles(bad)
    assert e.value.signature() == "Invariant:profiles:RSIG-COORD-002"
    check_profiles(bad, reread={"RSIG-COORD-002"})  # a rule read differently under each profile


def test_refusal_and_verdict_agree() -> None:
    structural = {"CARLA-HEADER-001", "CARLA-STRING-001"}
    refused = Malformed("bad magic", 0, "header.magic", rule="CARLA-HEADER-001")
    check_refusal(_report(Verdict.MALFORMED, [_finding("CARLA-HEADER-001")]), refused, structural)
    check_refusal(_report(Verdict.INVALID, [_finding()]), None, structural)
    with pytest.raises(InvariantBroken) as e:
        check_refusal(_report(Verdict.INVALID, [_finding()]), refused, structural)
    assert e.value.signature() == "Invariant:refusal:CARLA-HEADER-001"
    malformed = _report(Verdict.MALFORMED, [_finding("CARLA-STRING-001"), _finding()])
    with pytest.raises(InvariantBroken) as e:
        check_refusal(malformed, None, structural)
    assert e.value.signature() == "Invariant:refusal:CARLA-STRING-001"
    check_refusal(malformed, None, structural, lenient={"CARLA-STRING-001"})


def test_a_canonical_form_that_checks_invalid_breaks_round_trip() -> None:
    check_round_trip(b"ab", "model", lambda m: b"ab", lambda again: pytest.fail("no recheck of the same bytes"))
    check_round_trip(b"ab", "model", lambda m: b"abc", lambda again: _report(Verdict.VALID))
    with pytest.raises(InvariantBroken) as e:
        check_round_trip(b"ab", "model", lambda m: b"abc", lambda again: _report(Verdict.INVALID, [_finding()]))
    assert e.value.signature() == "Invariant:round-trip:CARLA-FRAME-003"

    def refuse(model: object) -> bytes:
        raise ValueError("no")
    with pytest.raises(InvariantBroken):
        check_round_trip(b"ab", "model", refuse, lambda again: _report())


def test_an_invariant_survives_the_runner_s_pickling() -> None:
    e = InvariantBroken("located", "x", "0.9.15", "CARLA-FRAME-003")
    again = pickle.loads(pickle.dumps(e))
    assert again.signature() == e.signature() and str(again) == str(e) and again.variant == "0.9.15"


def test_a_fast_path_that_loses_a_finding_breaks_paths_agree() -> None:
    walk = _report(Verdict.INVALID, [_finding()])
    check_paths_agree(_report(Verdict.INVALID, [_finding()]), walk)
    with pytest.raises(InvariantBroken) as e:
        check_paths_agree(_report(Verdict.VALID), walk)
    assert e.value.signature() == "Invariant:paths-agree:CARLA-FRAME-003"
    with pytest.raises(InvariantBroken):  # the same rule, one byte off
        check_paths_agree(_report(Verdict.INVALID, [_finding(offset=11)]), walk)


def test_the_sample_is_a_fixed_eighth() -> None:
    inputs = [i.to_bytes(2, "little") for i in range(4096)]
    chosen = [d for d in inputs if sampled(d)]
    assert chosen == [d for d in inputs if sampled(d)]  # the same inputs every time
    assert 4096 / 8 * 0.8 < len(chosen) < 4096 / 8 * 1.2


def test_a_nan_statistic_is_the_same_on_both_paths() -> None:
    # found by a campaign: a log whose last elapsed is NaN has the duration NaN on either path
    fast, walk = _report(), _report()
    fast.stats, walk.stats = {"duration_s": float("nan")}, {"duration_s": float("nan")}
    check_paths_agree(fast, walk)
    walk.stats = {"duration_s": 1.0}
    with pytest.raises(InvariantBroken):
        check_paths_agree(fast, walk)
