"""Hypothesis properties of the Matrix-SMT layers (profile ``ci`` by default):

1. round trip: ``decode(encode(m)) == m`` for typed recordings under both
   profiles, and for arbitrary BSON documents of every type;
2. canonical bytes: ``encode(decode(b)) == b`` for what the encoders write,
   and for any bytes the strict decoder accepts;
3. differential: the reference walker, the Kaitai parser and pymongo agree on
   valid files, on mutated ones (the fuzzer's mutator, truncations, bit flips,
   length edits) and on arbitrary bytes;
4. robustness: ``check_stream`` never raises and the decoders raise only
   ``DecodeError``; the fast path never changes a report; valid recordings
   check valid with no finding, invalid ones invalid.
"""

from __future__ import annotations

import io
import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.matrix_smt import check_stream
from recspec.conformance.matrix_smt._xcheck import differential
from recspec.errors import DecodeError
from recspec.fuzz.matrix_smt import mutate
from recspec.reference import matrix_smt as b
from recspec.reference.matrix_smt import decode, encode, from_document, to_document
from recspec.report import Verdict
from recspec.strategies import bson_documents, matrix_files, matrix_recordings

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# The Kaitai parser is slow; whole-file differentials run half the profile's examples.
KAITAI = settings(SLOW, max_examples=max(settings.default.max_examples // 2, 1))


def _report_key(r):  # type: ignore[no-untyped-def]
    return (r.verdict, [(f.rule, f.severity, f.message, f.offset, f.path) for f in r.findings], r.stats)


# --- 1. round trip --------------------------------------------------------------------------


@SLOW
@given(matrix_recordings(max_frames=4), st.sampled_from(["spec", "compat"]))
def test_typed_round_trip(rec, profile) -> None:  # type: ignore[no-untyped-def]
    assert decode(encode(rec, profile=profile)) == rec


@SLOW
@given(bson_documents())
def test_bson_round_trip_keeps_types(doc) -> None:  # type: ignore[no-untyped-def]
    assert b.typed(b.decode_document(b.encode_document(doc))) == b.typed(doc)


# --- 2. canonical bytes ---------------------------------------------------------------------


@SLOW
@given(matrix_files(max_frames=4))
def test_canonical_bytes_of_encoded_files(file) -> None:  # type: ignore[no-untyped-def]
    data, _ = file
    assert b.encode_document(b.decode_document(data)) == data


@SLOW
@given(matrix_files(max_frames=3), st.integers(0, 2**32 - 1))
def test_canonical_bytes_of_any_accepted_input(file, seed) -> None:  # type: ignore[no-untyped-def]
    data = mutate(file[0], 1 << 16, seed)
    try:
        doc = b.decode_document(data)
    except DecodeError:
        return
    assert b.encode_document(doc) == data  # strict BSON has one encoding of a value tree
    try:
        rec = from_document(doc)
    except DecodeError:
        return
    assert encode(decode(encode(rec))) == encode(rec)


# --- 3. differential ------------------------------------------------------------------------


@KAITAI
@given(matrix_files(max_frames=3))
def test_three_readers_agree_on_valid_files(file) -> None:  # type: ignore[no-untyped-def]
    assert differential(file[0]) == []


def _mutations(data: bytes, rng: random.Random) -> list[bytes]:
    out = [data[:rng.randrange(len(data) + 1)]]
    flipped = bytearray(data)
    pos = rng.randrange(len(flipped))
    flipped[pos] ^= 1 << rng.randrange(8)
    out.append(bytes(flipped))
    # a length field (after a document/array/string element header) edited
    at = [i + 1 + data[i + 1:].index(b"\x00") + 1 for i in range(len(data) - 6)
          if data[i] in (2, 3, 4) and b"\x00" in data[i + 1:i + 16]]
    if at:
        edited = bytearray(data)
        j = rng.choice(at)
        if j + 4 <= len(edited):
            struct.pack_into("<i", edited, j, struct.unpack_from("<i", edited, j)[0] + rng.choice((-1, 1, 3)))
            out.append(bytes(edited))
    out.append(mutate(data, 1 << 16, rng.randrange(2**32)))
    return out


@KAITAI
@given(matrix_files(max_frames=2), st.randoms(use_true_random=False))
def test_three_readers_agree_on_mutated_files(file, rng) -> None:  # type: ignore[no-untyped-def]
    for data in _mutations(file[0], rng):
        assert differential(data) == [], data


@SLOW
@given(st.binary(max_size=256))
def test_three_readers_agree_on_arbitrary_bytes(data) -> None:  # type: ignore[no-untyped-def]
    assert differential(data) == []


@SLOW
@given(st.binary(max_size=64).map(lambda tail: struct.pack("<i", 5 + len(tail)) + tail + b"\x00"))
def test_three_readers_agree_on_arbitrary_framed_documents(data) -> None:  # type: ignore[no-untyped-def]
    assert differential(data) == []


# --- 4. robustness and the checker ----------------------------------------------------------


@SLOW
@given(st.one_of(st.binary(max_size=512), matrix_files(max_frames=3).map(lambda f: f[0])), st.integers(0, 2**32 - 1),
       st.sampled_from(["spec", "compat"]))
def test_checker_never_raises_and_fast_path_changes_nothing(data, seed, profile) -> None:  # type: ignore[no-untyped-def]
    data = mutate(data, 1 << 16, seed) if seed % 3 else data
    fast = check_stream(io.BytesIO(data), path="x", profile=profile)
    slow = check_stream(io.BytesIO(data), path="x", profile=profile, fast_path=False)
    assert _report_key(fast) == _report_key(slow)
    structural = fast.verdict is Verdict.MALFORMED
    try:
        b.decode_document(data)
        accepted = True
    except DecodeError:
        accepted = False
    # the streaming walk and the whole-buffer decoder agree on what is well-formed BSON
    # (a LIMIT finding aside, which both raise too)
    assert accepted != structural


@SLOW
@given(st.one_of(matrix_files(max_frames=4), matrix_files(max_frames=4, valid=False), st.binary(max_size=256)
                 .map(lambda data: (data, "spec"))), st.integers(0, 2**32 - 1), st.sampled_from(["spec", "compat"]))
def test_the_full_walk_over_decoded_values_gives_the_same_report(file, seed, profile) -> None:  # type: ignore[no-untyped-def]
    # check_stream(decoded=...) takes the frames and top-level documents from decode_document's
    # units (read whole, also before a fault it raised) instead of decoding them again: the report
    # must be the one the walk gives alone, on valid recordings, on recordings that break a rule and
    # on mutated or arbitrary bytes
    data = mutate(file[0], 1 << 16, seed) if seed % 3 else file[0]
    units: dict[int, b.Document] = {}
    try:
        b.decode_document(data, units=units)
    except DecodeError:
        pass
    for fast_path in (False, True):
        alone = check_stream(io.BytesIO(data), path="x", profile=profile, fast_path=fast_path)
        shared = check_stream(io.BytesIO(data), path="x", profile=profile, fast_path=fast_path, decoded=units)
        assert shared == alone
        assert _report_key(shared) == _report_key(alone)


def test_the_full_walk_takes_the_decoded_values() -> None:
    # the shared values are used, not decoded again: a frame changed in the tree (a value the
    # bytes do not hold) shows in the report, so the test above compares two different readings
    from recspec.conformance.matrix_smt._seeds import BASE

    data = encode(BASE, profile="spec")
    units: dict[int, b.Document] = {}
    doc = b.decode_document(data, units=units)
    frames = doc.get("frames")
    assert isinstance(frames, b.Array) and frames.values
    first = frames.values[0]
    first.values[first.keys.index("t")] = "late"
    first._map = None
    alone = check_stream(io.BytesIO(data), path="x", profile="spec", fast_path=False)
    shared = check_stream(io.BytesIO(data), path="x", profile="spec", fast_path=False, decoded=units)
    assert not alone.findings
    assert [f.path for f in shared.findings] == ["frames[0].t"]



def test_the_units_read_before_a_fault_are_taken() -> None:
    # decode_document's units keep the frames it read whole before a fault it raised (here a
    # boolean byte of 2 in the last frame): the walk takes those frames and decodes the rest
    from recspec.conformance.matrix_smt._seeds import BASE

    doc = to_document(BASE, "spec")
    frames = doc.get("frames")
    assert isinstance(frames, b.Array) and len(frames.values) >= 2
    frames.values[-1].keys.append("flag")
    frames.values[-1].values.append(True)
    good = b.encode_document(doc)
    offsets = b.decode_document(good).get("frames").offsets
    data = good.replace(b"\x08flag\x00\x01", b"\x08flag\x00\x02")
    units: dict[int, b.Document] = {}
    with pytest.raises(DecodeError) as info:
        b.decode_document(data, units=units)
    assert info.value.rule == "MATRIX-BSON-003"
    assert [o for o in offsets if o in units] == offsets[:-1]  # every frame but the faulty one
    first = units[offsets[0]]
    first.values[first.keys.index("t")] = "late"  # a value the bytes do not hold
    first._map = None
    alone = check_stream(io.BytesIO(data), path="x", profile="spec", fast_path=False)
    shared = check_stream(io.BytesIO(data), path="x", profile="spec", fast_path=False, decoded=units)
    assert "frames[0].t" not in {f.path for f in alone.findings}
    assert "frames[0].t" in {f.path for f in shared.findings}
    assert "MATRIX-BSON-003" in {f.rule for f in alone.findings} & {f.rule for f in shared.findings}


@SLOW
@given(matrix_files(max_frames=5))
def test_valid_recordings_check_valid_with_no_finding(file) -> None:  # type: ignore[no-untyped-def]
    data, profile = file
    report = check_stream(io.BytesIO(data), path="x", profile=profile)
    # the compat encoder writes the producer's 'time' key, which the viewer does not read: a warning only
    allowed = {"MATRIX-FRAME-005"} if profile == "compat" else set()
    assert {f.rule for f in report.findings} <= allowed and report.verdict is Verdict.VALID


@SLOW
@given(matrix_files(max_frames=4, valid=False))
def test_invalid_recordings_check_invalid(file) -> None:  # type: ignore[no-untyped-def]
    data, profile = file
    assert check_stream(io.BytesIO(data), path="x", profile=profile).verdict is Verdict.INVALID
