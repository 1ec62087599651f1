"""Property 3, differential: the Kaitai parser generated from ksy/carla_recorder.ksy
and the reference decoder read the same values from valid logs, and agree on
accept/reject (and on values where both accept) for mutated ones."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import carla_packets
from recspec.conformance.carla._seeds import HEADER, valid_packets
from recspec.conformance.carla._xcheck import differential, kaitai_parse, same
from recspec.reference.carla import VARIANTS, Recording, decode, encode

LOGS = {name: encode(Recording(HEADER, tuple(valid_packets(v))), variant=v) for name, v in VARIANTS.items()}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_kaitai_reads_what_the_reference_reads(name):
    v = VARIANTS[name]
    data = LOGS[name]
    assert same(kaitai_parse(data, v), decode(data, variant=v))
    assert differential(data, v) == []


@st.composite
def mutated_logs(draw):
    name = draw(st.sampled_from(sorted(VARIANTS)))
    data = bytearray(LOGS[name])
    how = draw(st.sampled_from(["truncate", "flip", "size", "id"]))
    if how == "truncate":
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif how == "flip":
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
    else:
        off = draw(st.sampled_from([off for off, _, _ in carla_packets(bytes(data))]))
        if how == "size":
            delta = draw(st.integers(-8, 8))
            (size,) = struct.unpack_from("<I", data, off + 1)
            struct.pack_into("<I", data, off + 1, max(0, size + delta))
        else:
            data[off] = draw(st.integers(0, 255))
    return name, bytes(data)


@given(mutated_logs())
@settings(max_examples=300, deadline=None)
def test_mutated_logs_read_alike(case):
    name, data = case
    assert differential(data, VARIANTS[name]) == []


@given(st.binary(max_size=512), st.sampled_from(sorted(VARIANTS)))
@settings(max_examples=200, deadline=None)
def test_arbitrary_bytes_read_alike(data, name):
    assert differential(data, VARIANTS[name]) == []
