"""The raSkat checker's tests of a samples array in C loops: ``int_elements`` (every element an
``int``, not a ``bool``) agrees with the set of the elements' types it replaces, on drawn arrays and
their MessagePack encodings; and the range proved from an array's bytes (every element a positive
fixint) leaves the sample findings those of the samples out of range."""

from __future__ import annotations

import struct

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from recspec.conformance.raskat_signal._check import check_bytes
from recspec.reference.raskat_signal import int_elements

_ELEMENT = st.one_of(st.integers(-(2**15), 2**15 - 1), st.integers(-(2**63), 2**64 - 1), st.booleans(),
                     st.none(), st.floats(allow_nan=False), st.text(max_size=2), st.binary(max_size=2))


@given(st.lists(st.one_of(st.integers(-300, 300), _ELEMENT), max_size=40))
def test_int_elements_agrees_with_the_element_types(values: list[object]) -> None:
    array = tuple(values)
    encoded = msgpack.packb(array, use_bin_type=True)
    assert int_elements(array, encoded) == (set(map(type, array)) <= {int})


def _v3(samples: list[int], bits: int) -> bytes:
    head = (struct.pack("<H", 3) + b"\xae20250624101500" + b"\x00" + b"\xcb" + struct.pack(">d", 1.0)
            + b"\xcb" + struct.pack(">d", 1.0) + b"\x00" + b"\xce" + struct.pack(">I", 1_000_000) + b"\xcd\x01\x00"
            + bytes((bits,)) + b"\xcb" + struct.pack(">d", 3.3) + b"\x00" + b"\x00")
    return head + msgpack.packb(samples)


@given(st.lists(st.one_of(st.integers(0, 127), st.integers(-40_000, 70_000)), max_size=40), st.integers(1, 16))
def test_sample_findings_are_the_samples_out_of_range(samples: list[int], bits: int) -> None:
    # the samples' range is proved from their bytes where every element is a positive fixint (0 .. 127);
    # the findings are still exactly the samples outside int16 or outside the ADC's codes 0 .. 2^bits - 1
    report, _ = check_bytes(_v3(samples, bits), path="x", variant=None, profile="spec")
    rules = report.verdicts["spec"].rules
    top = (1 << bits) - 1
    assert rules.get("RSIG-SAMPLES-004", 0) == sum(not -0x8000 <= x <= 0x7FFF for x in samples)
    assert rules.get("RSIG-SAMPLES-003", 0) == sum(-0x8000 <= x <= 0x7FFF and not 0 <= x <= top for x in samples)
