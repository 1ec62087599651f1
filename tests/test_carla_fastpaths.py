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


def _attributes_one_by_one(payload: bytes, pos: int, n: int) -> list[tuple[int, str, str]] | None:
    """The attribute list read field by field (the test's own reading), or None if it does not fit."""
    out = []
    for _ in range(n):
        if pos + 3 > len(payload):
            return None
        atype, k = struct.unpack_from("<BH", payload, pos)
        key = payload[pos + 3:pos + 3 + k]
        pos += 3 + k
        if len(key) < k or pos + 2 > len(payload):
            return None
        (k,) = struct.unpack_from("<H", payload, pos)
        value = payload[pos + 2:pos + 2 + k]
        pos += 2 + k
        if len(value) < k:
            return None
        out.append((atype, key.decode("utf-8", "surrogateescape"), value.decode("utf-8", "surrogateescape")))
    return out if pos == len(payload) else None


ATTRIBUTE = st.tuples(st.integers(0, 255), st.binary(max_size=3), st.binary(max_size=3))


@given(st.lists(st.tuples(ATTRIBUTE, st.integers(1, 300)), max_size=6), st.integers(-8, 0))
@settings(max_examples=200, deadline=None)
def test_runs_of_one_attribute_decode_as_one_by_one(runs, cut):
    attrs = [a for a, times in runs for _ in range(times)]
    record = struct.pack("<IB6fI", 1, 1, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<H", 0) + struct.pack("<H", len(attrs))
    record += b"".join(struct.pack("<BH", t, len(k)) + k + struct.pack("<H", len(v)) + v for t, k, v in attrs)
    payload = struct.pack("<H", 1) + record
    payload = payload[:len(payload) + cut] if cut else payload
    want = _attributes_one_by_one(payload, 2 + len(record) - sum(5 + len(k) + len(v) for _, k, v in attrs),
                                  len(attrs))
    try:
        body = decode_body(PacketKind.EVENT_ADD, payload, V)
    except DecodeError:
        body = None
    assert (body is None) == (want is None)
    if body is not None:
        assert [(a.type, a.id, a.value) for a in body[0].attributes] == want
