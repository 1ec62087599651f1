"""raSkat's ``ref`` harness's second opinion (fuzz/raskat_signal.py ``rederived``, which reads the body's fields
with the ``msgpack`` package and ``struct`` at the document's positions, ``read_fields``): the rules it judges,
listed here from docs/formats/raskat_signal.md rather than taken from the harness so that a rule dropped from
``rederived`` fails a test; no false alarm on the real files or the seeds; a lost finding of each rule breaks
``Invariant:rederived:<rule>`` on its witness (tests/witness_raskat_signal.py); a range check
patched to always complain breaks it too, and a model that reads a field wrong breaks
``Invariant:model-view:<field>``. tests/test_fuzz_second_opinion.py
says what the second opinion is; tests/second_opinion.py holds the shared steps."""

from __future__ import annotations

import math
import struct
from unittest import mock

import pytest
import witness_raskat_signal
from hypothesis import assume, given
from hypothesis import strategies as st
from second_opinion import (
    LOST_FINDING_SETTINGS,
    agrees_on_real_file,
    lost_finding_breaks_rederived,
    raises_invariant,
    seeds,
    seeds_are_judged,
)

from recspec.errors import DecodeError
from recspec.fuzz import raskat_signal
from recspec.reference.raskat_signal import XZ_MAGIC

FORMAT = "raskat-signal"
#: the rules its second opinion can show broken
JUDGED = ("RSIG-TIME-002", "RSIG-RATE-001", "RSIG-FLAGS-001", "RSIG-ADC-002", "RSIG-ADC-003", "RSIG-ANTENNA-001",
          "RSIG-COORD-001", "RSIG-COORD-002", "RSIG-COORD-003", "RSIG-ADC-001", "RSIG-SAMPLES-002", "RSIG-SAMPLES-003",
          "RSIG-SAMPLES-004", "RSIG-THRESHOLD-001", "RSIG-VERSION-002", "RSIG-VERSION-003", "RSIG-FIELDS-003")
_STRUCTURAL = "structural: the decoder refuses the file (refusal)"
#: the rules it does not judge, each with the reason and the invariant that covers it instead
NOT_JUDGED = {
    **dict.fromkeys(("RSIG-VERSION-001", "RSIG-STREAM-001", "RSIG-STREAM-002", "RSIG-SAMPLES-001", "RSIG-MSGPACK-001",
                     "RSIG-FIELDS-002", "RSIG-XZ-001", "RSIG-XZ-002", "RSIG-TAR-001", "RSIG-TAR-002", "RSIG-TAR-005",
                     "RSIG-LIMIT-001"), _STRUCTURAL),
    "RSIG-TAR-003": "the tar members' kinds: the second opinion reads the signal member's body only",
    "RSIG-TAR-004": "the tar members' names: the second opinion reads the signal member's body only",
    "RSIG-CONTAINER-001": "raw or tar.xz: the harness's own branch (a tar.xz is unwrapped before it reads)",
    "RSIG-MSGPACK-002": "a body that is not canonical MessagePack: the C unpacker's proof against the walk "
                        "(paths agree)",
    "RSIG-FIELDS-001": "a field of the wrong type, by each field's kind (a bool is no int, an array's elements "
                       "too): not re-derived; the model view holds the decoder's values and types (by repr) to "
                       "the msgpack package's reading, not the checker's finding",
    "RSIG-TIME-001": "a real UTC date and time (a calendar): not re-derived; the model view holds the time "
                     "field's text to the bytes, not the checker's finding",
    "RSIG-XCHECK-001": "the Kaitai parser's agreement: the diff harness compares the two readings",
}
#: real files from the format's own tools (corpus/real, or ../shared/real)
REAL_FILES = ("signal.v3",)

def test_every_rule_is_judged_or_has_a_reason_not_to_be() -> None:
    """A rule added to the catalogue fails here until the second opinion judges it or NOT_JUDGED says why not;
    the rules the second opinion returns are those of JUDGED."""
    from recspec.formats import FORMATS

    catalog = {r.id for r in FORMATS[FORMAT].load().RULES}
    assert set(JUDGED).isdisjoint(NOT_JUDGED)
    assert catalog == set(JUDGED) | set(NOT_JUDGED), sorted(catalog ^ (set(JUDGED) | set(NOT_JUDGED)))
    returned: set[str] = set()
    for s in seeds(FORMAT):
        returned |= set(expected(s.data))
    assert returned == set(JUDGED), sorted(returned ^ set(JUDGED))


def _body(data: bytes) -> bytes:
    """A raSkat file's signal body (the checker reads a bare body as well as a tar.xz)."""
    return raskat_signal._body(data) if data[:6] == XZ_MAGIC else data


def expected(data: bytes) -> dict[str, str | None]:
    """The harness's second opinion on ``data`` (``{}`` when the decoder refuses it)."""
    try:
        read = raskat_signal.read_fields(_body(data))
        return {} if read is None else raskat_signal.rederived(read)
    except DecodeError:
        return {}


@pytest.mark.parametrize("name", REAL_FILES)
def test_the_second_opinion_agrees_on_real_files(name: str) -> None:
    agrees_on_real_file(raskat_signal, expected, name)


def test_the_seeds_are_judged_and_agree() -> None:
    seeds_are_judged(FORMAT, expected)


@pytest.mark.parametrize("rule", JUDGED)
@LOST_FINDING_SETTINGS
@given(data=st.data())
def test_a_lost_finding_breaks_rederived(rule: str, data: st.DataObject) -> None:
    w = data.draw(witness_raskat_signal.WITNESSES[rule](), label="witness")
    assume(not w.limits)
    lost_finding_breaks_rederived(raskat_signal, expected, rule, _body(w.data))


def test_a_range_check_that_always_fires_breaks_rederived() -> None:
    """The sample-rate check patched to complain about every rate, on a valid v3 seed."""
    from recspec.conformance.raskat_signal import _check

    seed = next(s.data for s in seeds(FORMAT) if s.name.startswith("valid/") and s.data[:2] == b"\x03\x00")
    raskat_signal.fuzz_ref(seed)

    def always(self: object, rate: int, offset: int, length: int, path: str) -> None:
        self.add("RSIG-RATE-001", "planted", offset, length, path)  # type: ignore[attr-defined]

    with mock.patch.object(_check._Walk, "rate", always):
        e = raises_invariant(raskat_signal, seed)
    assert e is not None and e.signature() == "Invariant:rederived:RSIG-RATE-001"
    assert "fired, but the fact it asserts holds" in e.detail


# --- the model's view against the bytes --------------------------------------------------------------


def test_a_property_that_returns_the_wrong_field_breaks_model_view() -> None:
    from recspec.reference.raskat_signal import SignalMsgpack

    seed = next(s.data for s in seeds(FORMAT) if s.name.startswith("valid/") and s.data[:2] == b"\x03\x00")
    raskat_signal.fuzz_ref(seed)
    with mock.patch.object(SignalMsgpack, "coordinate_1", property(lambda self: self._get(3))):
        e = raises_invariant(raskat_signal, seed)
    assert e is not None and e.signature() == "Invariant:model-view:coordinate_1"


def test_a_decoder_that_swaps_two_fields_breaks_model_view() -> None:
    """Version 2: the document puts the longitude at offset 20 and the latitude at 26."""
    from recspec.reference.raskat_signal import _signal

    seed = next(s.data for s in seeds(FORMAT) if s.name.startswith("valid/") and s.data[:2] == b"\x02\x00")
    assert raskat_signal.read_fields(seed)["longitude"] == (int.from_bytes(seed[20:22], "little"),
                                                            int.from_bytes(seed[22:26], "little"))
    raskat_signal.fuzz_ref(seed)
    real = _signal.SignalV2

    def swapped(version: int, t: bytes, us: int, lon: object, lat: object, *rest: object) -> object:
        return real(version, t, us, lat, lon, *rest)  # type: ignore[arg-type]

    with mock.patch.object(_signal, "SignalV2", swapped):
        e = raises_invariant(raskat_signal, seed)
    assert e is not None and e.signature() in ("Invariant:model-view:longitude", "Invariant:model-view:latitude")


# --- a range's edge moved by one: the edge seeds, one value past the edge --------------------------------

def _edge_seed(name: str) -> bytes:
    return next(s.data for s in seeds(FORMAT) if s.name == f"valid/{name}-edges.sig")


def _f64(x: float) -> bytes:
    return b"\xcb" + struct.pack(">d", x)


@pytest.mark.parametrize(("rule", "constant", "planted", "edge", "past"), [
    # docs/formats/raskat-signal.md: ADC resolution 1 to 16 bits (positive fixint 0x10, then 17)
    ("RSIG-ADC-001", "ADC_BITS_MAX", 17, b"\x10\xcb", b"\x11\xcb"),
    # altitude -500 .. 10,000 m (a double of 10,000, then the next double above it)
    ("RSIG-COORD-003", "ALT_MAX", 10_001.0, _f64(10_000.0), _f64(math.nextafter(10_000.0, math.inf))),
    # latitude within +-90 (field 3 at 90.0 reads as the latitude under compat)
    ("RSIG-COORD-002", "LAT_MAX", 91.0, _f64(90.0), _f64(math.nextafter(90.0, math.inf))),
])
def test_a_range_whose_edge_moved_by_one_breaks_rederived(rule: str, constant: str, planted: float, edge: bytes,
                                                         past: bytes) -> None:
    """The checker's limit moved one past the document's (an off-by-one at the range's edge), on the v3 edge seed
    with the field one step past its edge: the checker, planted, says nothing, the second opinion says the rule
    is broken. Without the plant both agree, on the seed and on the edited bytes."""
    from recspec.conformance.raskat_signal import _check

    seed = _edge_seed("v3")
    assert seed.count(edge) == 1
    bad = seed.replace(edge, past)
    assert raises_invariant(raskat_signal, seed) is None
    assert raises_invariant(raskat_signal, bad) is None
    assert rule in raskat_signal.rederived(raskat_signal.read_fields(bad)) and \
        raskat_signal.rederived(raskat_signal.read_fields(bad))[rule] is not None
    with mock.patch.object(_check, constant, planted):
        e = raises_invariant(raskat_signal, bad)
    assert e is not None and e.signature() == f"Invariant:rederived:{rule}"
    assert "did not fire" in e.detail


@pytest.mark.parametrize(("name", "rule", "edge", "past"), [
    # version 4 at 12 bits: the threshold 4,095 (uint16 0x0fff, after the last sample 4,094), then 4,096
    ("v4", "RSIG-THRESHOLD-001", b"\xcd\x0f\xfe\xcd\x0f\xff", b"\xcd\x0f\xfe\xcd\x10\x00"),
    # the largest sample, 2^12 - 1 = 4,095, then 4,096 (the sample array's second element)
    ("v4", "RSIG-SAMPLES-003", b"\x95\x00\xcd\x0f\xff", b"\x95\x00\xcd\x10\x00"),
    # version 4 at 16 bits: the sample 32,767, int16's top, then 32,768
    ("v4-16-bits", "RSIG-SAMPLES-004", b"\x95\x00\xcd\x7f\xff", b"\x95\x00\xcd\x80\x00"),
])
def test_the_second_opinion_judges_one_past_each_edge(name: str, rule: str, edge: bytes, past: bytes) -> None:
    """The edge seed's value is in range, one past it is not: the second opinion says so, and agrees with
    the checker on both (the harness holds)."""
    seed = _edge_seed(name)
    assert seed.count(edge) == 1
    bad = seed.replace(edge, past)
    assert raskat_signal.rederived(raskat_signal.read_fields(seed))[rule] is None
    assert raskat_signal.rederived(raskat_signal.read_fields(bad))[rule] is not None
    assert raises_invariant(raskat_signal, seed) is None
    assert raises_invariant(raskat_signal, bad) is None
