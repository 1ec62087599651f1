"""Hypothesis properties of the raSkat reference codec and its Kaitai cross-reading.

1. round trip: ``decode(encode(m)) == m`` for every version and both containers;
2. canonical bytes: ``encode(decode(b)) == b`` for what the encoder writes, and
   ``encode(decode(b))`` is a fixed point for any bytes the decoder accepts;
3. differential: the Kaitai parser reads ``encode(m)`` as ``m``; on mutated and
   arbitrary bytes both readers accept the same inputs with the same values;
4. robustness: the checker returns a report for any bytes, never raises.

Plus the PyPI ``msgpack`` package as a third reader of v3/v4 bodies.
"""

from __future__ import annotations

import io
import json
import lzma
import math
import struct
from pathlib import Path

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.raskat_signal import check_bytes
from recspec.conformance.raskat_signal._xcheck import differential, kaitai_read, same
from recspec.errors import DecodeError
from recspec.reference.raskat_signal import (
    Ext,
    MsgMap,
    SignalMsgpack,
    decode,
    decode_body,
    encode,
    encode_body,
    msgpack_pack,
    msgpack_unpack,
)
from recspec.report import Report
from recspec.strategies import raskat_files, raskat_signals


@given(raskat_signals(), st.sampled_from(("raw", "tar.xz")))
def test_round_trip(sig, container) -> None:
    sf = decode(encode(sig, container=container))
    assert same(sf.signal, sig)
    assert sf.container == container


@given(raskat_signals(1))
def test_round_trip_legacy_v1(sig) -> None:
    assert decode_body(encode_body(sig)) == sig


@given(raskat_signals(valid=False))
def test_round_trip_of_rule_breaking_signals(sig) -> None:
    assert same(decode_body(encode_body(sig)), sig)


@given(raskat_files(container="raw"))
def test_canonical_bytes(f) -> None:
    data, _, _ = f
    assert encode(decode(data).signal) == data




def _mutations() -> st.SearchStrategy[bytes]:
    """Encoded files with a truncation, a bit flip, a byte overwrite or an insertion."""

    @st.composite
    def mutated(draw):
        data, _, container = draw(raskat_files(max_samples=20))
        if container == "tar.xz" and draw(st.booleans()):
            body = decode(data).signal
            data = encode_body(body)  # mutate the signal itself, then re-wrap it below
            rewrap = True
        else:
            rewrap = False
        buf = bytearray(data)
        op = draw(st.integers(0, 3))
        pos = draw(st.integers(0, max(0, len(buf) - 1)))
        if op == 0:
            del buf[pos:]
        elif op == 1 and buf:
            buf[pos] ^= 1 << draw(st.integers(0, 7))
        elif op == 2 and buf:
            buf[pos] = draw(st.sampled_from((0x00, 0x7F, 0xC1, 0xCD, 0xDC, 0xDD, 0xFF)))
        else:
            buf[pos:pos] = draw(st.binary(min_size=1, max_size=6))
        out = bytes(buf)
        if rewrap:
            from recspec.reference.raskat_signal import wrap

            out = wrap(out, "m.sig")
        return out

    return mutated()


@given(raskat_files(max_samples=20))
def test_kaitai_reads_what_the_encoder_writes(f) -> None:
    data, version, container = f
    ks = kaitai_read(data)
    assert ks.container == container and ks.signal.version == version
    assert same(ks.signal, decode(data).signal)


@given(_mutations())
def test_differential_on_mutated_files(data) -> None:
    assert differential(data) == []


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=200),
                 st.binary(max_size=120).map(lambda b: b"\x03\x00" + b),
                 st.binary(max_size=120).map(lambda b: b"\x04\x00\xae20250624100658" + b),
                 st.binary(max_size=120).map(lambda b: b"\x02\x0020250624100658" + b),
                 st.binary(max_size=600).map(lambda b: lzma.compress(b))))
def test_differential_and_robustness_on_arbitrary_bytes(data) -> None:
    assert differential(data) == []
    for profile in ("spec", "compat"):
        report, _ = check_bytes(data, path="x", variant=None, profile=profile)
        json.dumps(Report([report]).to_json(), allow_nan=False)
        assert report.verdict.value in ("valid", "invalid", "malformed")
    try:
        sf = decode(data)
    except DecodeError:
        return
    again = encode(sf.signal)  # any accepted bytes: encode(decode(b)) is a fixed point
    assert encode(decode(again).signal) == again


@given(_mutations())
def test_checker_robust_on_mutated_files(data) -> None:
    for profile in ("spec", "compat"):
        report, _ = check_bytes(data, path="x", variant=None, profile=profile)
        json.dumps(Report([report]).to_json(), allow_nan=False)
        structural = any(f.rule in ("RSIG-STREAM-001", "RSIG-STREAM-002", "RSIG-MSGPACK-001", "RSIG-XZ-001",
                                    "RSIG-XZ-002", "RSIG-TAR-001", "RSIG-TAR-002", "RSIG-VERSION-001",
                                    "RSIG-SAMPLES-001", "RSIG-FIELDS-002") and f.severity.value == "error"
                         for f in report.findings)
        assert (report.verdict.value == "malformed") == structural


# --- msgpack: the third reader ------------------------------------------------------------------

_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(allow_nan=False),
    st.text(max_size=40), st.binary(max_size=300),
    st.builds(Ext, st.integers(0, 127), st.binary(max_size=20)),  # the library refuses the reserved codes < 0
)
_values = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=20).map(tuple),
    # keys the library can put in a dict (our reader also takes containers as keys: MsgMap keeps pairs)
    st.lists(st.tuples(st.integers(-5, 300) | st.text(max_size=5), inner), max_size=4, unique_by=lambda p: p[0])
    .map(lambda p: MsgMap(tuple(p)))), max_leaves=30)


def _to_lib(v):
    if isinstance(v, tuple):
        return [_to_lib(x) for x in v]
    if isinstance(v, MsgMap):
        return {_hashable(_to_lib(k)): _to_lib(x) for k, x in v.pairs}
    if isinstance(v, Ext):
        return msgpack.ExtType(v.code, v.data)
    return v


def _hashable(v):
    return tuple(_hashable(x) for x in v) if isinstance(v, list) else v


@given(_values)
def test_msgpack_writer_matches_the_library(v) -> None:
    """Our canonical writer and msgpack.packb write the same bytes (maps with unique keys only)."""
    if any(isinstance(x, MsgMap) and len({repr(k) for k, _ in x.pairs}) != len(x.pairs) for x in _walk(v)):
        return
    ours = msgpack_pack(v)
    lib = msgpack.packb(_to_lib(v), use_bin_type=True)
    assert ours == lib
    back, end = msgpack_unpack(ours, 0)
    assert end == len(ours) and same_value(back, v)


def _walk(v):
    yield v
    if isinstance(v, tuple):
        for x in v:
            yield from _walk(x)
    elif isinstance(v, MsgMap):
        for k, x in v.pairs:
            yield from _walk(k)
            yield from _walk(x)


def same_value(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and (a == b)


@given(raskat_signals(3) | raskat_signals(4))
def test_msgpack_library_reads_our_bodies(sig: SignalMsgpack) -> None:
    body = encode_body(sig)
    objects = list(msgpack.Unpacker(io.BytesIO(body[2:]), raw=False))
    assert objects == [list(x) if isinstance(x, tuple) else x for x in sig.fields]
    assert struct.unpack("<H", body[:2])[0] == sig.version


@given(st.integers(-128, -1), st.binary(max_size=20))
def test_reserved_ext_codes_round_trip(code: int, data: bytes) -> None:
    packed = msgpack_pack(Ext(code, data))
    assert msgpack_unpack(packed, 0) == (Ext(code, data), len(packed))


def test_strategy_arguments_are_checked_when_drawn() -> None:
    import pytest
    from hypothesis.errors import InvalidArgument

    from recspec.strategies import raskat_versions

    for bad in (raskat_signals(7), raskat_signals(max_samples=-1), raskat_signals(valid="yes"),
                raskat_files(container="zip")):
        @given(bad)
        def draw(_: object) -> None:
            pass

        with pytest.raises(InvalidArgument):
            draw()
    with pytest.raises(InvalidArgument):
        raskat_versions(legacy="no")
    assert repr(raskat_files(3, container="raw")) == "raskat_files(version=3, container='raw')"


def _check_reading_is_the_reference(data: bytes) -> None:
    """The cross-check takes the check's own reading as the reference's (``_format.check``): it must be
    ``decode(data)``'s, and there must be none when ``decode`` rejects the file; the check then has the
    error ``decode`` raises (its container's, member's or body's reading ended with it), and none when
    ``decode`` reads the file."""
    from recspec.conformance.raskat_signal._check import check_reading
    from recspec.conformance.raskat_signal._format import reference_reading

    for profile in ("spec", "compat"):
        report, signal, refused = check_reading(data, path="x", variant=None, profile=profile)
        mine = reference_reading(report, signal)
        try:
            ref = decode(data)
        except DecodeError as e:
            assert mine is None and refused is not None
            assert (refused.rule, refused.message, refused.offset, refused.path) == (
                e.rule, e.message, e.offset, e.path)
            continue
        assert refused is None and (mine is None or same(mine, ref))


def test_an_xz_bomb_is_inflated_once_by_the_reference_and_cross_checked_alike() -> None:
    """The corpus's xz bomb (10 KB inflating past MAX_UNPACKED): the check's reading of the container
    ends with RSIG-LIMIT-001, which the cross-check takes as the reference's instead of inflating it
    again; the differential is the one that decodes the file itself."""
    from recspec.conformance.raskat_signal._check import check_reading
    from recspec.conformance.raskat_signal._xcheck import differential

    data = (Path(__file__).resolve().parent.parent / "corpus" / "raskat-signal" / "invalid"
            / "RSIG-LIMIT-001.sig").read_bytes()
    _check_reading_is_the_reference(data)
    _report, signal, refused = check_reading(data, path="x", variant=None, profile="spec")
    assert signal is None and refused is not None and refused.rule == "RSIG-LIMIT-001"
    assert differential(data, reference_error=refused) == differential(data) == []


@given(raskat_files(max_samples=20))
def test_the_checks_reading_is_the_reference_on_encoded_files(f) -> None:
    _check_reading_is_the_reference(f[0])


@given(raskat_files(max_samples=20, valid=False))
def test_the_checks_reading_is_the_reference_on_invalid_files(f) -> None:
    _check_reading_is_the_reference(f[0])


@given(_mutations())
def test_the_checks_reading_is_the_reference_on_mutated_files(data) -> None:
    _check_reading_is_the_reference(data)
