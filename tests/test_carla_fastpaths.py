"""The checker's fast paths read exactly what the full decoder reads.

``unpack_flat`` and ``anim_wheel_ids`` skip building dataclasses; they must
accept and reject the same payloads as ``decode_body`` and report the same ids.
"""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from recspec.errors import DecodeError
from recspec.reference.carla import (
    VARIANTS,
    PacketKind,
    anim_wheel_ids,
    decode_body,
    is_fixed_record,
    unpack_flat,
)

V = VARIANTS["0.9.16"]


def wheels_payload(vehicles: list[tuple[int, int]]) -> bytes:
    out = [struct.pack("<H", len(vehicles))]
    for vid, n in vehicles:
        out.append(struct.pack("<II", vid, n) + b"".join(struct.pack("<Bff", i, 1.0, 2.0) for i in range(n)))
    return b"".join(out)


@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 6)), max_size=5),
       st.integers(-12, 12), st.binary(max_size=3))
@settings(max_examples=300, deadline=None)
def test_anim_wheel_ids_agrees_with_decode_body(vehicles, cut, junk):
    payload = wheels_payload(vehicles)
    payload = (payload[:len(payload) + cut] if cut < 0 else payload + junk[:cut])
    try:
        full = decode_body(PacketKind.ANIM_VEHICLE_WHEELS, payload, V)
    except DecodeError:
        full = None
    try:
        fast = anim_wheel_ids(payload)
    except DecodeError:
        fast = None
    assert (full is None) == (fast is None)
    if full is not None:
        assert [r.database_id for r in full] == [vid for _, vid in fast]


@given(st.sampled_from([k for k in PacketKind if is_fixed_record(k)]), st.binary(max_size=120),
       st.sampled_from(sorted(VARIANTS)))
@settings(max_examples=300, deadline=None)
def test_unpack_flat_agrees_with_decode_body(kind, payload, name):
    v = VARIANTS[name]
    try:
        full = decode_body(kind, payload, v)
    except DecodeError:
        full = None
    try:
        flat = unpack_flat(kind, payload, v)
    except DecodeError:
        flat = None
    assert (full is None) == (flat is None)
    if full is not None:
        assert len(full) == len(flat)
