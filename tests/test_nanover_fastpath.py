"""The NanoVer fast path (``parse_clean``: upb proves a payload clean) against the wire walk.

Two properties. The lemma: whenever ``parse_clean`` returns a message, ``scan``
raises nothing and lists no unknown and no unpacked field; payloads are drawn
from a generator of wire structures along the walk's own schema that, beside
well-formed fields, writes every deviation the walk cares about (unknown
numbers, known numbers with another wire type, groups, wire types 6 and 7, field
number 0, overlong tags and varints, unpacked arrays, foreign fields inside map
entries, lengths past the end, odd float runs, nesting around the limit). And
the reports: ``check_stream`` with the fast path and with the walk on every
record give identical reports on generated files, byte-mutated files and files
whose records carry those wire structures.
"""

from __future__ import annotations

import io
import json
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.nanover import _check, check_stream
from recspec.errors import DecodeError
from recspec.fuzz.nanover import mutate
from recspec.reference.nanover import (
    MAX_NESTING,
    RecordReader,
    encode_header,
    encode_record,
    encode_varint,
    parse_clean,
    read_header,
    scan,
)
from recspec.reference.nanover._wire import (
    FIXED32,
    FIXED64,
    MESSAGE,
    PACKED_F32,
    PACKED_VARINT,
    SCHEMAS,
    STRING,
    VARINT,
)
from recspec.report import Report
from recspec.strategies import nanover_files

ROOT = {"traj": "GetFrameResponse", "state": "StateUpdate"}


def tag(number: int, wire_type: int) -> bytes:
    return encode_varint(number << 3 | wire_type)


def overlong(n: int, extra: int) -> bytes:
    """``n`` as a varint padded with ``extra`` continuation groups (still decodes to ``n``)."""
    raw = bytearray(encode_varint(n))
    for _ in range(extra):
        raw[-1] |= 0x80
        raw.append(0)
    return bytes(raw)


def deep_value(levels: int, inner: bytes = b"\x11" + bytes(8)) -> bytes:
    """A Value nested ``levels`` times through struct_value / list_value (alternating)."""
    value = inner
    for i in range(levels):
        if i % 2:
            entry = b"\x0a\x01k" + b"\x12" + encode_varint(len(value)) + value  # Struct.fields entry
            struct_ = b"\x0a" + encode_varint(len(entry)) + entry
            value = b"\x2a" + encode_varint(len(struct_)) + struct_
        else:
            lst = b"\x0a" + encode_varint(len(value)) + value  # ListValue.values
            value = b"\x32" + encode_varint(len(lst)) + lst
    return value


def field(number: int, wire_type: int, body: bytes, *, delimited: bool) -> bytes:
    return tag(number, wire_type) + (encode_varint(len(body)) + body if delimited else body)


@st.composite
def wire_message(draw: st.DrawFn, name: str, depth: int = 0) -> bytes:
    """The fields of a message ``name`` of the walk's schema, mostly well formed, now and then not."""
    schema = SCHEMAS[name]
    tags = sorted(schema)
    out = []
    for _ in range(draw(st.integers(0, 4 if depth < 3 else 1))):
        what = draw(st.sampled_from(["known"] * 8 + ["unknown", "wrong-type", "group", "bad-wire", "zero",
                                                     "overlong-tag", "cut", "deep"]))
        if what == "known":
            t = draw(st.sampled_from(tags))
            _, handler, sub, _ = schema[t]
            number, wt = t >> 3, t & 7
            if handler == VARINT:
                body = overlong(draw(st.integers(0, 2**64 - 1)), draw(st.sampled_from([0, 0, 0, 1])))
                out.append(field(number, wt, body, delimited=False))
            elif handler in (FIXED32, FIXED64):
                out.append(field(number, wt, draw(st.binary(min_size=4 if handler == FIXED32 else 8,
                                                             max_size=4 if handler == FIXED32 else 8)),
                                 delimited=False))
            elif handler == STRING:
                out.append(field(number, wt, draw(st.binary(max_size=6) | st.sampled_from([b"k", b"\xff"])),
                                 delimited=True))
            elif handler == PACKED_F32:
                out.append(field(number, wt, draw(st.binary(max_size=13)), delimited=True))
            elif handler == PACKED_VARINT:
                out.append(field(number, wt, b"".join(encode_varint(v) for v in
                                                      draw(st.lists(st.integers(0, 2**40), max_size=4))),
                                 delimited=True))
            else:
                assert handler == MESSAGE and sub is not None
                out.append(field(number, wt, draw(wire_message(sub, depth + 1)), delimited=True))
        elif what == "unknown":
            wt = draw(st.sampled_from([0, 1, 2, 5]))
            body = {0: b"\x05", 1: bytes(8), 2: b"\x01x", 5: bytes(4)}[wt]
            out.append(tag(draw(st.integers(1, 40)), wt) + body)
        elif what == "wrong-type":  # a known number with another wire type
            number = draw(st.sampled_from(tags)) >> 3
            wt = draw(st.sampled_from([0, 1, 2, 5]))
            if number << 3 | wt not in schema:
                out.append(tag(number, wt) + {0: b"\x01", 1: bytes(8), 2: b"\x00", 5: bytes(4)}[wt])
        elif what == "group":
            number = draw(st.sampled_from(tags)) >> 3 if draw(st.booleans()) else 15
            out.append(tag(number, 3) + b"\x08\x01" + tag(number, 4))
        elif what == "bad-wire":
            out.append(tag(draw(st.integers(1, 3)), draw(st.sampled_from([6, 7]))) + b"\x00")
        elif what == "zero":
            out.append(b"\x00\x00")
        elif what == "overlong-tag":
            t = draw(st.sampled_from(tags))
            if schema[t][1] == STRING:
                out.append(overlong(t, draw(st.integers(1, 5))) + b"\x00")
        elif what == "cut":  # a length past the end of the message
            out.append(tag(1, 2) + b"\x7f")
        elif what == "deep" and name in ("Value", "ValueEntry"):
            levels = draw(st.integers(1, MAX_NESTING + 2))
            inner = b"\x11" + bytes(8) + draw(st.sampled_from([b"", b"\x78\x01", b"\x0b\x0c"]))  # unknown, group
            value = deep_value(levels, inner)
            out.append(value if name == "Value" else field(2, 2, value, delimited=True))
    return b"".join(out)


@st.composite
def wire_payloads(draw: st.DrawFn) -> tuple[bytes, str]:
    kind = draw(st.sampled_from(["traj", "state"]))
    return draw(wire_message(ROOT[kind])), kind


def walk_says_nothing(payload: bytes, kind: str) -> bool:
    try:
        s = scan(payload, 0, len(payload), kind)
    except DecodeError:
        return False
    return not s.unknown and not s.unpacked


@given(wire_payloads())
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_clean_on_the_fast_path_implies_clean_on_the_walk(p: tuple[bytes, str]) -> None:
    payload, kind = p
    if parse_clean(payload, kind) is not None:
        assert walk_says_nothing(payload, kind), payload.hex()


@pytest.mark.parametrize("kind", ["traj", "state"])
def test_nesting_at_the_limit_takes_the_walk(kind: str) -> None:
    """Nesting one level under the walk's limit is clean on both paths; at the limit, the fast
    path steps aside and the walk reports NANOVER-LIMIT-002."""
    results = {}
    for levels in range(1, MAX_NESTING + 2):
        value = deep_value(levels)
        if kind == "traj":
            entry = b"\x0a\x01k\x12" + encode_varint(len(value)) + value
            frame = b"\x0a" + encode_varint(len(entry)) + entry
            payload = b"\x12" + encode_varint(len(frame)) + frame
        else:
            entry = b"\x0a\x01k\x12" + encode_varint(len(value)) + value
            struct_ = b"\x0a" + encode_varint(len(entry)) + entry
            payload = b"\x0a" + encode_varint(len(struct_)) + struct_
        results[levels] = (parse_clean(payload, kind) is not None, walk_says_nothing(payload, kind))
    assert (True, True) in results.values() and (False, False) in results.values(), results
    assert all(walk for fast, walk in results.values() if fast), results


@pytest.mark.parametrize("unknown", [b"\x78\x01", b"\x0b\x0c"])  # field 15 varint; a group of field 1
def test_an_unknown_field_at_any_depth_takes_the_walk(unknown: bytes) -> None:
    """upb's DiscardUnknownFields stops silently about 64 messages deep: an unknown field
    at the innermost level of a list chain must still keep the payload off the fast path."""
    for levels in range(1, 40):
        value = deep_value(0, b"\x11" + bytes(8) + unknown)
        for _ in range(levels):  # lists only: two messages per level, the deepest chain per byte
            lst = b"\x0a" + encode_varint(len(value)) + value
            value = b"\x32" + encode_varint(len(lst)) + lst
        entry = b"\x0a\x01k\x12" + encode_varint(len(value)) + value
        struct_ = b"\x0a" + encode_varint(len(entry)) + entry
        payload = b"\x0a" + encode_varint(len(struct_)) + struct_
        assert parse_clean(payload, "state") is None, levels
        assert not walk_says_nothing(payload, "state"), levels


def test_known_deviations_take_the_walk() -> None:
    """Each deviation the walk notes, on an otherwise clean frame, sends the payload to the walk."""
    number = b"\x11" + struct.pack("<d", 3.0)
    entry = b"\x0a\x01n\x12" + encode_varint(len(number)) + number
    clean = b"\x08\x07\x12" + encode_varint(len(entry) + 2) + b"\x0a" + encode_varint(len(entry)) + entry
    assert parse_clean(clean, "traj") is not None
    for extra in (b"\x18\x01",                        # unknown field 3 at the end of GetFrameResponse
                  b"\x13\x08\x01\x14",                # a group (field 2 with wire type 3)
                  b"\x08\x87\x80\x00"):               # frame_index again, as an overlong varint
        assert parse_clean(clean + extra, "traj") is None
    # a foreign field inside the map entry (upb would drop it from a map without a trace)
    foreign = entry + b"\x18\x01"
    payload = b"\x08\x07\x12" + encode_varint(len(foreign) + 2) + b"\x0a" + encode_varint(len(foreign)) + foreign
    assert parse_clean(payload, "traj") is None and not walk_says_nothing(payload, "traj")
    # an unpacked float array (ValueArray.float_values = FloatArray with 0d-tagged elements)
    floats = b"\x0d" + bytes(4) + b"\x0d" + bytes(4)
    array = b"\x0a" + encode_varint(len(floats)) + floats
    aentry = b"\x0a\x01p\x12" + encode_varint(len(array)) + array
    payload = b"\x12" + encode_varint(len(aentry) + 2) + b"\x12" + encode_varint(len(aentry)) + aentry
    assert parse_clean(payload, "traj") is None and not walk_says_nothing(payload, "traj")


# --- the reports of the two paths ---------------------------------------------------------


def report_json(data: bytes, kind: str, *, fast: bool) -> str:
    saved = _check._Walk.fast_wire
    _check._Walk.fast_wire = fast
    try:
        report = check_stream(io.BytesIO(data), path=f"x.{kind}", size=len(data))
    finally:
        _check._Walk.fast_wire = saved
    return json.dumps(Report([report]).to_json(), sort_keys=True)


def assert_same_reports(data: bytes, kind: str) -> None:
    assert report_json(data, kind, fast=True) == report_json(data, kind, fast=False)


def with_payloads(data: bytes, payloads: list[bytes]) -> bytes:
    """The file ``data`` with its records' payloads replaced, in order, by ``payloads`` (and any left over
    appended as new records)."""
    f = io.BytesIO(data)
    _, offset = read_header(f)
    records = [(r.timestamp_us, r.payload) for r in RecordReader(f, offset)]
    out = [encode_header()]
    for i in range(max(len(records), len(payloads))):
        ts = records[i][0] if i < len(records) else 10**6 * (i + 1)
        payload = payloads[i] if i < len(payloads) else records[i][1]
        out.append(encode_record(ts, payload))
    return b"".join(out)


@given(nanover_files())
@settings(max_examples=150, deadline=None)
def test_same_reports_on_valid_files(f: tuple[bytes, str]) -> None:
    assert_same_reports(*f)


@given(nanover_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None)
def test_same_reports_on_mutated_files(f: tuple[bytes, str], seed: int) -> None:
    data, kind = f
    assert_same_reports(mutate(data, 1 << 16, seed), kind)


@given(nanover_files(), st.lists(wire_payloads(), min_size=1, max_size=3))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_same_reports_on_files_with_generated_wire_structures(f: tuple[bytes, str],
                                                              payloads: list[tuple[bytes, str]]) -> None:
    data, kind = f
    assert_same_reports(with_payloads(data, [p for p, _ in payloads]), kind)
