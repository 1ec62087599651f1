"""The C-backed proof of v3/v4 bodies (``_msgpack_fast.proven_fields``) and the
hand-written walk it stands in for give identical results: the same fields, offsets,
notes and errors from ``decode_fields``, and the same reports from ``check_bytes``
under both profiles, on generated valid and broken signals, bodies of arbitrary
values in any (also non-canonical) encoding, byte-mutated bodies and arbitrary bytes.
"""

from __future__ import annotations

import struct
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.raskat_signal import check_bytes
from recspec.errors import DecodeError
from recspec.reference.raskat_signal import Ext, MsgMap, decode_body, decode_fields, encode_body, msgpack_pack, wrap
from recspec.reference.raskat_signal._msgpack_fast import proven_fields
from recspec.reference.raskat_signal._signal import NUM_FIELDS
from recspec.strategies import raskat_signals

_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(), st.floats(width=32),
    st.text(max_size=40), st.binary(max_size=300), st.builds(Ext, st.integers(-128, 127), st.binary(max_size=20)),
    # type -1 of 4, 8 or 12 bytes: the C unpacker's Timestamp
    st.builds(Ext, st.just(-1), st.sampled_from((4, 8, 12)).flatmap(lambda n: st.binary(min_size=n, max_size=n))),
)
_values = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=20).map(tuple),
    st.lists(st.tuples(inner, inner), max_size=4).map(lambda p: MsgMap(tuple(p)))), max_leaves=30)


def _header(draw: st.DrawFn, n: int, fix: int | None, fix_max: int, leads: tuple[int, int, int]) -> bytes:
    """A length header of any width that holds ``n`` (the fix form only when it fits)."""
    options = [(leads[2], ">I")] + ([(leads[1], ">H")] if n <= 0xFFFF else []) + (
        [(leads[0], ">B")] if n <= 0xFF and leads[0] else [])
    if fix is not None and n <= fix_max:
        options.append((fix | n, ""))
    lead, fmt = draw(st.sampled_from(options))
    return bytes((lead,)) + (struct.pack(fmt, n) if fmt else b"")


def _any_encoding(draw: st.DrawFn, v: Any) -> bytes:
    """``v`` in the canonical encoding or any wider one MessagePack allows (a float possibly as float 32)."""
    if draw(st.booleans()):
        return msgpack_pack(v)
    if type(v) is int:
        forms = [(lead, f) for lead, f, lo, hi in (
            (0xCC, ">B", 0, 0xFF), (0xCD, ">H", 0, 0xFFFF), (0xCE, ">I", 0, 0xFFFFFFFF), (0xCF, ">Q", 0, 2**64 - 1),
            (0xD0, ">b", -0x80, 0x7F), (0xD1, ">h", -0x8000, 0x7FFF), (0xD2, ">i", -2**31, 2**31 - 1),
            (0xD3, ">q", -2**63, 2**63 - 1)) if lo <= v <= hi]
        lead, f = draw(st.sampled_from(forms))
        return bytes((lead,)) + struct.pack(f, v)
    if type(v) is float:
        try:
            return b"\xca" + struct.pack(">f", v)
        except OverflowError:
            return msgpack_pack(v)
    if isinstance(v, str):
        raw = v.encode("utf-8", "surrogateescape")
        return _header(draw, len(raw), 0xA0, 31, (0xD9, 0xDA, 0xDB)) + raw
    if isinstance(v, bytes):
        return _header(draw, len(v), None, -1, (0xC4, 0xC5, 0xC6)) + v
    if isinstance(v, tuple):
        return _header(draw, len(v), 0x90, 15, (0, 0xDC, 0xDD)) + b"".join(_any_encoding(draw, x) for x in v)
    if isinstance(v, MsgMap):
        return _header(draw, len(v.pairs), 0x80, 15, (0, 0xDE, 0xDF)) + b"".join(
            _any_encoding(draw, k) + _any_encoding(draw, x) for k, x in v.pairs)
    if isinstance(v, Ext) and len(v.data) not in (1, 2, 4, 8, 16):
        return _header(draw, len(v.data), None, -1, (0xC7, 0xC8, 0xC9)) + struct.pack(">b", v.code) + v.data
    return msgpack_pack(v)


@st.composite
def _bodies(draw: st.DrawFn) -> bytes:
    """v3/v4 bodies: a generated signal (valid or breaking a value rule), with its fields kept or
    replaced by arbitrary values, each in the canonical or a wider encoding, then perhaps a byte
    flipped, overwritten, inserted or cut; or a version word and arbitrary bytes."""
    version = draw(st.sampled_from((3, 4)))
    if draw(st.integers(0, 9)) == 0:
        return struct.pack("<H", version) + draw(st.binary(max_size=80))
    sig = draw(raskat_signals(version, max_samples=40, valid=draw(st.booleans())))
    fields = list(sig.fields)
    for _ in range(draw(st.integers(0, 2))):
        fields[draw(st.integers(0, len(fields) - 1))] = draw(_values)
    if draw(st.booleans()):
        fields.append(draw(_values))  # one field too many: trailing bytes
    wide = draw(st.booleans())
    buf = bytearray(struct.pack("<H", version) + b"".join(
        _any_encoding(draw, v) if wide else msgpack_pack(v) for v in fields))
    op = draw(st.integers(0, 5))
    pos = draw(st.integers(2, max(2, len(buf) - 1)))
    if op == 0 and pos < len(buf):
        buf[pos] ^= 1 << draw(st.integers(0, 7))
    elif op == 1 and pos < len(buf):
        buf[pos] = draw(st.sampled_from((0x00, 0x7F, 0x80, 0x90, 0xA0, 0xC1, 0xCA, 0xCD, 0xD4, 0xDC, 0xDD, 0xDE,
                                         0xED, 0xFF)))
    elif op == 2:
        buf[pos:pos] = draw(st.binary(min_size=1, max_size=6))
    elif op == 3:
        del buf[pos:]
    return bytes(buf)


def _same(a: Any, b: Any) -> bool:
    """Equal values of identical types, floats by their bits (NaN payloads, -0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack(">d", a) == struct.pack(">d", b)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, MsgMap):
        return len(a.pairs) == len(b.pairs) and all(_same(k, j) and _same(x, y) for (k, x), (j, y) in
                                                    zip(a.pairs, b.pairs))
    return bool(a == b)


def _fields(body: bytes, version: int, fast: bool) -> tuple[Any, ...]:
    notes: list[tuple[int, int, str]] = []
    try:
        fields, offsets = decode_fields(body, version, note=lambda o, b, m: notes.append((o, b, m)), fast_path=fast)
    except DecodeError as e:
        return ("error", type(e), e.rule, e.message, e.offset, e.path)
    return ("ok", fields, offsets, notes)


def _reports(data: bytes, fast: bool) -> list[Any]:
    return [check_bytes(data, path="x", variant=None, profile=p, fast_path=fast)[0].to_json()
            for p in ("spec", "compat")]


def _assert_same_results(body: bytes) -> None:
    version = body[0]
    fast, walk = _fields(body, version, True), _fields(body, version, False)
    assert fast[0] == walk[0]
    if fast[0] == "ok":
        assert _same(fast[1], walk[1]) and fast[2:] == walk[2:]
    else:
        assert fast == walk
    proven = proven_fields(body, NUM_FIELDS[version])
    if proven is not None:  # a proof is a promise: the walk returns these values and notes nothing
        assert walk[0] == "ok" and _same(proven[0], walk[1]) and proven[1] == walk[2] and walk[3] == []
    for data in (body, wrap(body, "s.sig")):
        assert _reports(data, True) == _reports(data, False)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(_bodies())
def test_proof_and_walk_agree_on_generated_and_mutated_bodies(body: bytes) -> None:
    _assert_same_results(body)


@given(raskat_signals(3, max_samples=200) | raskat_signals(4, max_samples=200))
def test_the_proof_takes_canonical_bodies(sig) -> None:
    """What the canonical writer writes, the proof takes (else the fast path would never run)."""
    body = encode_body(sig)
    proven = proven_fields(body, NUM_FIELDS[sig.version])
    assert proven is not None and _same(proven[0], decode_body(body, fast_path=False).fields)


def test_what_the_proof_leaves_to_the_walk() -> None:
    head = b"\x03\x00" + b"".join(msgpack_pack(v) for v in ("20250624100658", 1, 1.0, 2.0, 3.0, 10, 643, 10, 3.3,
                                                             0, 1))
    assert proven_fields(head + msgpack_pack((1, 2, 3)), 12) is not None
    for tail in (b"\x93\x01\x02\xcc\x03",  # a uint 8 that fits a fixint
                 b"\xdc\x00\x01\x01",  # an array 16 of 1 element
                 b"\x91\xca\x3f\x80\x00\x00",  # a float 32
                 b"\x91\x91\x01",  # an array inside the array
                 b"\x91\x81\x01\x02",  # a map
                 b"\x91\xd4\x01\x00",  # an ext
                 b"\x91\xd6\xff\x00\x00\x00\x01",  # a timestamp ext
                 b"\x92\x01",  # truncated
                 b"\x91\x01\x00",  # a trailing byte
                 b"\x91\xc1"):  # never used
        assert proven_fields(head + tail, 12) is None, tail
        _assert_same_results(head + tail)
    bad_utf8 = b"\x03\x00\xa2\xed\xa0" + head[17:] + msgpack_pack(())
    assert proven_fields(bad_utf8, 12) is None
    _assert_same_results(bad_utf8)
