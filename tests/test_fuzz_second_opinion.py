"""The ``ref`` harnesses' second opinion (fuzz/_oracles.py ``rederived`` and ``model-view``).

Each harness re-derives, from the reference decoder's model and with a few lines of its
own, facts the format document states (fuzz/<format>.py ``rederived``), and raSkat's harness
reads the body's fields with the ``msgpack`` package and ``struct`` at the document's
positions (``read_fields``). These tests show that:

* the oracles hold on every real file (no false alarm; the corpus seeds are run by
  tests/test_fuzz_oracles.py);
* a lost finding fires ``Invariant:rederived:<rule>``: the checker's findings of one rule are
  dropped (``FindingSink.add``/``count`` patched), and the harness is run on that rule's witness
  (tests/witness_<format>.py, files drawn to break exactly that rule);
* a spurious finding fires it too (a range check patched to always complain, on a valid file);
* a model that reads a field wrong fires ``Invariant:model-view:<field>``.

The rules each harness judges are listed here from the format documents, not taken from the
harness, so that a rule dropped from a ``rederived`` fails a test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
import witness_carla
import witness_matrix_smt
import witness_nanover
import witness_raskat_signal as witness_raskat
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers import REAL, SHIPPED_REAL
from recspec.conformance._sink import FindingSink
from recspec.errors import DecodeError
from recspec.fuzz import carla, matrix_smt, nanover, raskat_signal
from recspec.fuzz._oracles import InvariantBroken, check_model_view, check_rederived
from recspec.reference.carla import decode as carla_decode
from recspec.reference.matrix_smt import decode_document
from recspec.reference.nanover import Kind
from recspec.reference.nanover import decode as nanover_decode
from recspec.reference.raskat_signal import XZ_MAGIC
from recspec.report import FileReport, ProfileVerdict, Verdict

#: format -> (harness, witness module, the rules its second opinion can show broken)
JUDGED = {
    "nanover": (nanover, witness_nanover, ("NANOVER-TIME-001", "NANOVER-TIME-002", "NANOVER-TIME-003",
                                           "NANOVER-STATE-001", "NANOVER-FRAME-002")),
    "carla": (carla, witness_carla, ("CARLA-FRAME-003", "CARLA-FRAME-004", "CARLA-FRAME-005", "CARLA-FRAME-006",
                                     "CARLA-FRAME-008", "CARLA-ACTOR-002", "CARLA-ACTOR-003", "CARLA-VALUE-001",
                                     "CARLA-ENUM-003", "CARLA-ENUM-004")),
    "raskat-signal": (raskat_signal, witness_raskat, ("RSIG-TIME-002", "RSIG-RATE-001", "RSIG-FLAGS-001",
                                                      "RSIG-ADC-002", "RSIG-ADC-003", "RSIG-ANTENNA-001",
                                                      "RSIG-COORD-001")),
    "matrix-smt": (matrix_smt, witness_matrix_smt, ("MATRIX-FRAME-002", "MATRIX-OBJ-003")),
}
CASES = [(fid, rule) for fid, (_, _, rules) in JUDGED.items() for rule in rules]


def _body(data: bytes) -> bytes:
    """A raSkat file's signal body (the checker reads a bare body as well as a tar.xz)."""
    return raskat_signal._body(data) if data[:6] == XZ_MAGIC else data


def expected(fid: str, data: bytes) -> dict[str, str | None]:
    """The harness's second opinion on ``data`` (``{}`` when the decoder refuses it)."""
    try:
        if fid == "nanover":
            return nanover.rederived(nanover_decode(data, variant=nanover.kind_of(data)))
        if fid == "carla":
            return carla.rederived(carla_decode(data, variant=carla.variant_of(data) or carla.DEFAULT_VARIANT))
        if fid == "matrix-smt":
            return matrix_smt.rederived(decode_document(data))
        read = raskat_signal.read_fields(_body(data))
        return {} if read is None else raskat_signal.rederived(read)
    except DecodeError:
        return {}


@contextmanager
def findings_of(rule: str, lost: bool) -> Iterator[None]:
    """The checker with every finding of ``rule`` dropped (``lost``), as a deleted rule would."""
    add, count = FindingSink.add, FindingSink.count

    def dropping_add(self: FindingSink, rule_id: str, *args: object, **kw: object) -> None:
        if rule_id != rule:
            add(self, rule_id, *args, **kw)  # type: ignore[arg-type]

    def dropping_count(self: FindingSink, rule_id: str, *args: object, **kw: object) -> None:
        if rule_id != rule:
            count(self, rule_id, *args, **kw)  # type: ignore[arg-type]

    if not lost:
        yield
        return
    with mock.patch.object(FindingSink, "add", dropping_add), mock.patch.object(FindingSink, "count", dropping_count):
        yield


def _raises(harness: object, data: bytes) -> InvariantBroken | None:
    try:
        harness.fuzz_ref(data)  # type: ignore[attr-defined]
    except InvariantBroken as e:
        return e
    return None


# --- no false alarm --------------------------------------------------------------------------------

REAL_FILES = {
    "carla": ("carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log"),
    "nanover": ("hello_vel.traj", "sim-switching-test-recording.traj", "sim-switching-test-recording.state"),
    "raskat-signal": ("signal.v3",),
    "matrix-smt": ("Scene1.bson",),
}


@pytest.mark.parametrize(("fid", "name"), [(f, n) for f, names in REAL_FILES.items() for n in names])
def test_the_second_opinion_agrees_on_real_files(fid: str, name: str) -> None:
    path = SHIPPED_REAL / name if (SHIPPED_REAL / name).is_file() else REAL / name
    if not path.is_file():
        pytest.skip(f"{name} is in neither corpus/real nor {REAL}")
    harness = JUDGED[fid][0]
    data = path.read_bytes()
    judged = expected(fid, data)
    assert judged, f"the second opinion judges nothing on {name}"
    for d in (data, data + b"\x00"):  # both profiles (chosen by the length's parity)
        harness.fuzz_ref(d)


def test_the_seeds_are_judged_and_agree() -> None:
    """On every format's seeds the second opinion judges some rule (it is not vacuous), and
    tests/test_fuzz_oracles.py runs the harnesses (this oracle included) over the same seeds."""
    from recspec.formats import FORMATS

    for fid in JUDGED:
        judged = [expected(fid, s.data) for s in FORMATS[fid].load().seeds() if len(s.data) < 1 << 20]
        assert any(judged), f"no seed of {fid} is judged by the second opinion"
        broken = {rule for j in judged for rule, why in j.items() if why is not None}
        assert broken, f"no seed of {fid} breaks a rule the second opinion judges"


# --- a lost finding ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("fid", "rule"), CASES)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_lost_finding_breaks_rederived(fid: str, rule: str, data: st.DataObject) -> None:
    harness, witnesses, _ = JUDGED[fid]
    w = data.draw(witnesses.WITNESSES[rule](), label="witness")
    assume(not w.limits)
    blob = _body(w.data) if fid == "raskat-signal" else w.data
    # a witness the second opinion cannot judge (a range the checker alone reads, such as
    # NANOVER-FRAME-002's indices past particle.count) is left to the rule witnesses
    assume(expected(fid, blob).get(rule) is not None)
    assert _raises(harness, blob) is None  # the unbroken checker agrees with the second opinion
    with findings_of(rule, lost=True):
        e = _raises(harness, blob)
    assert e is not None, f"{rule} lost, and the second opinion did not notice"
    assert e.signature() == f"Invariant:rederived:{rule}"


# --- a spurious finding -------------------------------------------------------------------------------


def test_a_range_check_that_always_fires_breaks_rederived() -> None:
    """raSkat's sample-rate check patched to complain about every rate, on a valid v3 seed."""
    from recspec.conformance.raskat_signal import _check

    seed = next(s.data for s in _seeds("raskat-signal") if s.name.startswith("valid/") and s.data[:2] == b"\x03\x00")
    raskat_signal.fuzz_ref(seed)

    def always(self: object, rate: int, offset: int, length: int, path: str) -> None:
        self.add("RSIG-RATE-001", "planted", offset, length, path)  # type: ignore[attr-defined]

    with mock.patch.object(_check._Walk, "rate", always):
        e = _raises(raskat_signal, seed)
    assert e is not None and e.signature() == "Invariant:rederived:RSIG-RATE-001"
    assert "fired, but the fact it asserts holds" in e.detail


def test_a_timestamp_check_that_sees_equal_times_as_decreasing_breaks_rederived() -> None:
    """NanoVer: two records with the same timestamp break TIME-003 (not strictly increasing), not
    TIME-002 (never decreasing); a checker that reports TIME-002 for them is caught both ways."""
    from recspec.reference.nanover import Frame, Record, Recording, encode

    data = encode(Recording(Kind.TRAJ, (Record(5, Frame(1)), Record(5, Frame(2)))))
    facts = expected("nanover", data)
    assert facts["NANOVER-TIME-003"] is not None and facts["NANOVER-TIME-002"] is None
    nanover.fuzz_ref(data)
    add = FindingSink.add

    def swapped(self: FindingSink, rule_id: str, *args: object, **kw: object) -> None:
        add(self, "NANOVER-TIME-002" if rule_id == "NANOVER-TIME-003" else rule_id, *args, **kw)  # type: ignore[arg-type]

    with mock.patch.object(FindingSink, "add", swapped), mock.patch.object(FindingSink, "count", swapped):
        e = _raises(nanover, data)
    assert e is not None and e.signature() in ("Invariant:rederived:NANOVER-TIME-002",
                                               "Invariant:rederived:NANOVER-TIME-003")


def _seeds(fid: str) -> list:  # type: ignore[type-arg]
    from recspec.formats import FORMATS

    return list(FORMATS[fid].load().seeds())


# --- the model's view against the bytes --------------------------------------------------------------


def test_a_property_that_returns_the_wrong_field_breaks_model_view() -> None:
    from recspec.reference.raskat_signal import SignalMsgpack

    seed = next(s.data for s in _seeds("raskat-signal") if s.name.startswith("valid/") and s.data[:2] == b"\x03\x00")
    raskat_signal.fuzz_ref(seed)
    with mock.patch.object(SignalMsgpack, "coordinate_1", property(lambda self: self._get(3))):
        e = _raises(raskat_signal, seed)
    assert e is not None and e.signature() == "Invariant:model-view:coordinate_1"


def test_a_decoder_that_swaps_two_fields_breaks_model_view() -> None:
    """Version 2: the document puts the longitude at offset 20 and the latitude at 26."""
    from recspec.reference.raskat_signal import _signal

    seed = next(s.data for s in _seeds("raskat-signal") if s.name.startswith("valid/") and s.data[:2] == b"\x02\x00")
    assert raskat_signal.read_fields(seed)["longitude"] == (int.from_bytes(seed[20:22], "little"),
                                                            int.from_bytes(seed[22:26], "little"))
    raskat_signal.fuzz_ref(seed)
    real = _signal.SignalV2

    def swapped(version: int, t: bytes, us: int, lon: object, lat: object, *rest: object) -> object:
        return real(version, t, us, lat, lon, *rest)  # type: ignore[arg-type]

    with mock.patch.object(_signal, "SignalV2", swapped):
        e = _raises(raskat_signal, seed)
    assert e is not None and e.signature() in ("Invariant:model-view:longitude", "Invariant:model-view:latitude")


# --- the invariants themselves -------------------------------------------------------------------------


def _report(rules: dict[str, int]) -> FileReport:
    r = FileReport("x", "carla", None, "spec", Verdict.INVALID if rules else Verdict.VALID, [])
    r.verdicts = {"spec": ProfileVerdict(r.verdict, rules), "compat": ProfileVerdict(r.verdict, {})}
    return r


def test_rederived_reads_the_counts_of_every_profile() -> None:
    check_rederived(_report({"CARLA-FRAME-003": 1}), lambda: {"CARLA-FRAME-003": "ids 1, 3"})
    check_rederived(_report({}), lambda: {"CARLA-FRAME-003": None, "CARLA-FRAME-004": None})
    with pytest.raises(InvariantBroken) as lost:
        check_rederived(_report({}), lambda: {"CARLA-FRAME-003": "ids 1, 3"})
    assert lost.value.signature() == "Invariant:rederived:CARLA-FRAME-003"
    with pytest.raises(InvariantBroken) as spurious:
        check_rederived(_report({"CARLA-FRAME-004": 2}), lambda: {"CARLA-FRAME-004": None})
    assert spurious.value.signature() == "Invariant:rederived:CARLA-FRAME-004"


def test_model_view_compares_by_repr() -> None:
    check_model_view(lambda: ({"vref": float("nan")}, {"vref": float("nan")}))
    check_model_view(lambda: None)
    with pytest.raises(InvariantBroken) as e:
        check_model_view(lambda: ({"flags": True}, {"flags": 1}))
    assert e.value.signature() == "Invariant:model-view:flags"
