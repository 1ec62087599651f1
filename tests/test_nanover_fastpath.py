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
whose records carry those wire structures. And the frame rules' shortcuts
(``_Walk.fast_rules``: common entries judged inline, the consistency checks
skipped while their inputs repeat a clean state) give the general code's reports
on files whose records repeat a palette of consistent and inconsistent frames.
"""

from __future__ import annotations

import contextlib
import io
import json
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.nanover import _check, check_stream
from recspec.conformance.nanover._template import FrameTemplate
from recspec.errors import DecodeError
from recspec.fuzz.nanover import mutate
from recspec.reference.nanover import (
    MAX_NESTING,
    UNSET,
    Array,
    ArrayKind,
    Frame,
    Kind,
    RecordReader,
    _framing,
    decode_payload,
    encode_frame,
    encode_header,
    encode_record,
    encode_varint,
    frame_from_message,
    parse_clean,
    parse_frame,
    parse_state_update,
    read_header,
    read_varint,
    same_value,
    scan,
    state_update_from_message,
    wire_verdict,
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


def flip(payload: bytes, at: int, mask: int) -> bytes:
    if not payload:
        return payload
    i = at % len(payload)
    return payload[:i] + bytes([payload[i] ^ (mask or 1)]) + payload[i + 1:]


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
    # the proof alone (no UTF-8 check, no message) is the weaker claim parse_clean rests on
    if wire_verdict(payload, kind) is True:
        assert walk_says_nothing(payload, kind), payload.hex()
    if parse_clean(payload, kind) is not None:
        assert wire_verdict(payload, kind) is True, payload.hex()


def walk_raises_or_lists_unknown(payload: bytes, kind: str) -> bool:
    try:
        return bool(scan(payload, 0, len(payload), kind).unknown)
    except DecodeError:
        return True


@given(wire_payloads(), st.sampled_from(["traj", "state"]), st.integers(0, 4096), st.integers(0, 255),
       st.booleans())
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_fast_paths_verdicts_are_the_walks(p: tuple[bytes, str], kind: str, at: int, mask: int,
                                               mutated: bool) -> None:
    """Both of wire_verdict's proofs, as either kind, on payloads of either kind, as generated and
    with one byte flipped."""
    payload = flip(p[0], at, mask) if mutated else p[0]
    verdict = wire_verdict(payload, kind)
    if verdict is True:
        assert walk_says_nothing(payload, kind), payload.hex()
    elif verdict is False:
        assert walk_raises_or_lists_unknown(payload, kind), payload.hex()


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


@contextlib.contextmanager
def walk_switch(name: str, on: bool) -> Iterator[None]:
    """Set one of the walk's fast-path switches (``fast_wire``, ``fast_rules``) for the block."""
    saved = getattr(_check._Walk, name)
    setattr(_check._Walk, name, on)
    try:
        yield
    finally:
        setattr(_check._Walk, name, saved)


def checked_json(data: bytes, path: str, switch: str, *, fast: bool) -> str:
    """The JSON report of ``data`` checked as ``path`` with the walk's ``switch`` set to ``fast``; for a
    switch other than ``fast_records``, with the frame templates off, so that every frame reaches the
    code the switch changes (a template would take a repeated clean frame before it)."""
    with walk_switch(switch, fast), walk_switch("fast_records", switch == "fast_records" and fast):
        report = check_stream(io.BytesIO(data), path=path, size=len(data))
    return json.dumps(Report([report]).to_json(), sort_keys=True)


def report_json(data: bytes, kind: str, *, fast: bool) -> str:
    return checked_json(data, f"x.{kind}", "fast_wire", fast=fast)


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


# --- the frame rules' shortcuts (_Walk.fast_rules) against the general code ------------------------------------

_NUMBER_KEYS = ("particle.count", "residue.count", "chain.count", "system.simulation.time", "energy.total",
                "x.other")
_ARRAY_KEYS = tuple(sorted(_check.STANDARD_ARRAYS)) + ("x.other",)


def _palette_value() -> st.SearchStrategy[object]:
    """Mostly small whole numbers (counts that fit or miss the arrays), sometimes the wrong kind or none."""
    odd = st.sampled_from(["text", UNSET, None, [1.0, UNSET], {"a": 1.0}, 2.5, -1.0, float("inf"), float("nan")])
    return st.one_of(st.sampled_from([0.0, 1.0, 2.0, 3.0]), st.sampled_from([0.0, 1.0, 2.0, 3.0]), odd)


_KIND = {"float_values": ArrayKind.FLOAT, "index_values": ArrayKind.INDEX, "string_values": ArrayKind.STRING}
_ELEMENT = {ArrayKind.FLOAT: 0.5, ArrayKind.STRING: "s"}


@st.composite
def _palette_array(draw: st.DrawFn, key: str) -> Array:
    """Mostly the key's documented kind with a length of 0-12 (indices 0-3), sometimes another kind or none."""
    kind = _KIND.get(_check.STANDARD_ARRAYS.get(key, ""), ArrayKind.FLOAT)
    choice = draw(st.integers(0, 5))
    if choice == 4:
        kind = draw(st.sampled_from([ArrayKind.FLOAT, ArrayKind.INDEX, ArrayKind.STRING]))
    elif choice == 5:
        return draw(st.sampled_from([Array(None, ()), Array(ArrayKind.INDEX, ())]))
    n = draw(st.sampled_from([0, 1, 2, 3, 6, 9, 12]))
    if kind is ArrayKind.INDEX:
        return Array(kind, tuple(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))))
    return Array(kind, (_ELEMENT[kind],) * n)


@st.composite
def _palette_frame(draw: st.DrawFn) -> tuple[dict[str, object], dict[str, Array]]:
    values = draw(st.dictionaries(st.sampled_from(_NUMBER_KEYS), _palette_value(), max_size=4))
    keys = draw(st.lists(st.sampled_from(_ARRAY_KEYS), unique=True, max_size=6))
    return values, {k: draw(_palette_array(k)) for k in keys}


@st.composite
def palette_files(draw: st.DrawFn) -> bytes:
    """A .traj file of up to 24 records (runs of up to 3) drawn from a palette of up to 4 frames (so the
    aggregate frame's counts and shapes often repeat from one record to the next), under frame indices
    that reset or not and timestamps that step plainly or break a timestamp rule; the frames mix
    consistent topologies with every kind of mismatch the frame rules judge."""
    palette = draw(st.lists(_palette_frame(), min_size=1, max_size=4))
    runs = draw(st.lists(st.tuples(st.integers(0, len(palette) - 1), st.sampled_from([0, 0, 1, 5]),
                                   st.integers(1, 3)), min_size=1, max_size=8))
    picks = [(p, index) for p, index, times in runs for _ in range(times)]
    # steps between timestamps: mostly plain, sometimes none, backwards, a long gap or past 2^64
    steps = draw(st.lists(st.sampled_from([10**6, 10**6, 10**6, 1, 0, -5, 120_000_000, 1 << 64, -(1 << 64)]),
                          min_size=len(picks), max_size=len(picks)))
    out = [encode_header()]
    ts = 10**6
    for (p, index), step in zip(picks, steps):
        values, arrays = palette[p]
        ts = min(max(ts + step, 0), (1 << 128) - 1)
        out.append(encode_record(ts, encode_frame(Frame(index, values, arrays))))
    return b"".join(out)


def rules_report_json(data: bytes, *, fast: bool) -> str:
    return checked_json(data, "x.traj", "fast_rules", fast=fast)


@given(palette_files())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_frame_shortcuts_give_the_same_reports(data: bytes) -> None:
    assert rules_report_json(data, fast=True) == rules_report_json(data, fast=False)


@given(palette_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_frame_shortcuts_give_the_same_reports_on_mutated_files(data: bytes, seed: int) -> None:
    mutated = mutate(data, 1 << 16, seed)
    assert rules_report_json(mutated, fast=True) == rules_report_json(mutated, fast=False)


def test_palette_files_reach_the_consistency_findings() -> None:
    """The generator is able to fail the property: a repeated inconsistent frame is reported on every record."""
    frame = Frame(1, {"particle.count": 2.0}, {"particle.positions": Array(ArrayKind.FLOAT, (0.0,) * 5)})
    data = encode_header() + b"".join(encode_record(10**6 * (i + 1), encode_frame(frame)) for i in range(3))
    fast = json.loads(rules_report_json(data, fast=True))
    paths = [f["path"] for f in fast["files"][0]["findings"] if f["rule"] == "NANOVER-FRAME-001"]
    assert paths == [f"record[{i}]/arrays['particle.positions']" for i in range(3)]


@pytest.mark.parametrize("frames", [
    # a count that changes under arrays that do not: the second record breaks FRAME-001
    [({"particle.count": 1.0}, {"particle.positions": (0.5,) * 3}), ({"particle.count": 2.0}, {})],
    # an index array whose length stays and whose largest index grows past the count (FRAME-002)
    [({"particle.count": 2.0}, {"bond.pairs": (0, 1)}), ({"particle.count": 2.0}, {"bond.pairs": (0, 3)})],
    # a count that appears, then goes unusable, then comes back
    [({}, {"particle.residues": (0, 1)}), ({"residue.count": 2.0}, {}), ({"residue.count": -1.0}, {}),
     ({"residue.count": 1.0}, {})],
])
def test_frame_shortcuts_see_every_change(frames: list[tuple[dict[str, object], dict[str, tuple[object, ...]]]]
                                          ) -> None:
    def array(values: tuple[object, ...]) -> Array:
        return Array(ArrayKind.INDEX if values and isinstance(values[0], int) else ArrayKind.FLOAT, values)

    data = encode_header() + b"".join(
        encode_record(10**6 * (i + 1), encode_frame(Frame(1, v, {k: array(a) for k, a in arrays.items()})))
        for i, (v, arrays) in enumerate(frames))
    fast = rules_report_json(data, fast=True)
    assert json.loads(fast)["files"][0]["findings"]
    assert fast == rules_report_json(data, fast=False)


# --- decode_payload's fast path against the walk and the parse it replaces -------------------------------------


def _outcome(fn: Callable[[], object]) -> tuple[object, ...]:
    try:
        return ("model", fn())
    except DecodeError as e:
        return ("error", type(e).__name__, e.rule, e.message, e.offset, e.path)


def _walk_then_parse(kind: Kind, payload: bytes) -> object:
    scan(payload, 0, len(payload), kind.value, 7, "p")
    if kind is Kind.TRAJ:
        return frame_from_message(parse_frame(payload, 7, "p"))
    return state_update_from_message(parse_state_update(payload, 7, "p"))


@given(wire_payloads())
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_decode_payload_gives_the_walk_and_parse_outcome(p: tuple[bytes, str]) -> None:
    payload, kind = p
    fast = _outcome(lambda: decode_payload(Kind(kind), payload, 7, "p"))
    slow = _outcome(lambda: _walk_then_parse(Kind(kind), payload))
    assert fast[0] == slow[0]
    assert same_value(fast[1], slow[1]) if fast[0] == "model" else fast == slow


def _number_entry(key: bytes) -> bytes:
    """A FrameData.values / Struct.fields map entry: ``key`` and a Value holding the number 1.0."""
    return field(1, 2, key, delimited=True) + field(2, 2, b"\x11" + struct.pack("<d", 1.0), delimited=True)


def _array_entry(key: bytes) -> bytes:
    """A FrameData.arrays map entry: ``key`` and a packed float array of one element."""
    floats = field(1, 2, struct.pack("<f", 1.0), delimited=True)
    return field(1, 2, key, delimited=True) + field(2, 2, field(1, 2, floats, delimited=True), delimited=True)


def _frame_of(*fields: bytes) -> bytes:
    return b"\x08\x05" + field(2, 2, b"".join(fields), delimited=True)


def test_a_proved_payloads_wire_order_comes_from_the_mirror() -> None:
    """The map entries of a payload upb proves clean, in the order they stand in its bytes (values
    before arrays: a proved payload holds FrameData's field 1 before its field 2)."""
    from recspec.reference.nanover._wire_fast import parse_clean_in_order

    payload = _frame_of(field(1, 2, _number_entry(b"b"), delimited=True),
                             field(1, 2, _number_entry(b"a"), delimited=True),
                             field(2, 2, _array_entry(b"x"), delimited=True))
    clean = parse_clean_in_order(payload, "traj")
    assert clean is not None and clean[1] == ("values/b", "values/a", "arrays/x")
    decoded = decode_payload(Kind.TRAJ, payload)
    assert isinstance(decoded, Frame) and decoded.order == ("values/b", "values/a", "arrays/x")
    # an arrays entry before a values entry is not upb's field order: not proved, the walk reads the order
    swapped = _frame_of(field(2, 2, _array_entry(b"x"), delimited=True),
                             field(1, 2, _number_entry(b"a"), delimited=True))
    assert parse_clean_in_order(swapped, "traj") is None
    decoded = decode_payload(Kind.TRAJ, swapped)
    assert isinstance(decoded, Frame) and decoded.order == ("arrays/x", "values/a")
    # an entry's key written twice: its last; a key in two entries: no order; a state update's keys
    twice = field(1, 2, field(1, 2, b"z", delimited=True) + _number_entry(b"k"), delimited=True)
    assert parse_clean_in_order(_frame_of(twice), "traj")[1] == ("values/k",)  # type: ignore[index]
    again = _frame_of(*[field(1, 2, _number_entry(b"k"), delimited=True)] * 2)
    assert parse_clean_in_order(again, "traj")[1] is None  # type: ignore[index]
    state = field(1, 2, field(1, 2, _number_entry(b"s"), delimited=True)
                  + field(1, 2, _number_entry(b"r"), delimited=True), delimited=True)
    assert parse_clean_in_order(state, "state")[1] == ("s", "r")  # type: ignore[index]
    assert parse_clean_in_order(b"", "state")[1] == ()  # type: ignore[index]


def _assert_proved_order_is_wire_details(payload: bytes) -> None:
    from recspec.reference.nanover._payload import wire_details
    from recspec.reference.nanover._wire_fast import parse_clean_in_order

    for kind in ("traj", "state"):
        clean = parse_clean_in_order(payload, kind)
        if clean is not None:
            assert (clean[1], ()) == wire_details(payload, kind), (payload.hex(), kind)


@given(wire_payloads(), st.integers(0, 4096), st.integers(0, 255), st.booleans())
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_proved_payloads_wire_order_is_the_walks(p: tuple[bytes, str], at: int, mask: int, mutated: bool
                                                   ) -> None:
    """What decode_payload keeps of how a proved payload was written (its wire order, no unpacked array)
    is what wire_details reads from the bytes, on generated payloads, as generated and with a byte flipped."""
    _assert_proved_order_is_wire_details(flip(p[0], at, mask) if mutated else p[0])


@given(nanover_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None)
def test_a_proved_payloads_wire_order_is_the_walks_in_mutated_files(f: tuple[bytes, str], seed: int) -> None:
    data = mutate(f[0], 1 << 16, seed)
    reader = io.BytesIO(data)
    with contextlib.suppress(DecodeError):
        _, offset = read_header(reader)
        for record in RecordReader(reader, offset, len(data)):
            _assert_proved_order_is_wire_details(record.payload)


@given(wire_payloads())
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_cross_checks_budget_test_gives_the_walks_answer(p: tuple[bytes, str]) -> None:
    """``_over_budget`` skips the walk when upb proves a short payload clean: the same answer as the walk's."""
    from recspec.conformance.nanover import _xcheck
    from recspec.errors import LimitExceeded

    payload, kind = p
    data = encode_header() + encode_record(1, payload)
    try:
        scan(data, 40, len(data), kind, max_values=_xcheck.XCHECK_MAX_VALUES)
        walk = False
    except LimitExceeded:
        walk = True
    except DecodeError:
        walk = False
    assert _xcheck._over_budget(data, 16, len(data), Kind(kind)) == walk


# --- kind detection's fast path (_scans_as, detect_kind) against the walk -------------------------------------


@given(wire_payloads(), st.sampled_from(["traj", "state"]), st.integers(0, 4096), st.integers(0, 255),
       st.booleans())
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_scans_as_gives_the_walks_answer(p: tuple[bytes, str], kind: str, at: int, mask: int, mutated: bool
                                         ) -> None:
    """Either kind, on payloads of either kind, as generated and with one byte flipped."""
    payload = flip(p[0], at, mask) if mutated else p[0]
    assert _check._scans_as(payload, kind, True) == _check._scans_as(payload, kind, False), payload.hex()


def detection(data: bytes, *, fast: bool) -> tuple[Kind, dict[str, object]]:
    with walk_switch("fast_wire", fast):
        f = io.BytesIO(data)
        f.seek(16)
        return _check.detect_kind(f, len(data))


def unnamed_report_json(data: bytes, *, fast: bool) -> str:
    """The report of a file without a .traj/.state name (its kind detected from content), as the fuzzer checks it."""
    return checked_json(data, "x.nanover", "fast_wire", fast=fast)


def assert_same_detection(data: bytes) -> None:
    assert detection(data, fast=True) == detection(data, fast=False)
    assert unnamed_report_json(data, fast=True) == unnamed_report_json(data, fast=False)


@given(nanover_files())
@settings(max_examples=150, deadline=None)
def test_same_detection_on_valid_files(f: tuple[bytes, str]) -> None:
    assert_same_detection(f[0])


@given(nanover_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None)
def test_same_detection_on_mutated_files(f: tuple[bytes, str], seed: int) -> None:
    assert_same_detection(mutate(f[0], 1 << 16, seed))


@given(nanover_files(), st.lists(wire_payloads(), min_size=1, max_size=4))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_same_detection_on_files_with_generated_wire_structures(f: tuple[bytes, str],
                                                                payloads: list[tuple[bytes, str]]) -> None:
    assert_same_detection(with_payloads(f[0], [p for p, _ in payloads]))


def test_detection_walks_only_what_the_proof_cannot_prove(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clean frame file, detection walks no record: upb proves each a clean frame and, by the
    unknown fields at its root, not a state update. A record upb parses but cannot prove (an
    overlong varint) is walked, as the kind it parses as; with the fast path off, every record is
    walked as both kinds."""
    walked: list[str] = []

    def counting_scan(payload: bytes, start: int, end: int, kind: str, *args: object, **kw: object) -> object:
        walked.append(kind)
        return scan(payload, start, end, kind, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(_check, "scan", counting_scan)
    frame = encode_frame(Frame(1, {"particle.count": 2.0}, {}))
    data = encode_header() + b"".join(encode_record(10**6 * (i + 1), frame) for i in range(3))
    kind, evidence = detection(data, fast=True)
    assert kind is Kind.TRAJ and evidence["fit"] == {"traj": "3 of 3 records", "state": "0 of 3 records"}
    assert walked == []
    assert detection(data, fast=False) == (kind, evidence)
    assert walked == ["traj", "state"] * 3
    walked.clear()
    data += encode_record(4 * 10**6, frame + b"\x08\x87\x80\x00")  # frame_index again, as an overlong varint
    data += encode_record(5 * 10**6, frame + b"\x18\x01")  # unknown field 3 of GetFrameResponse
    kind, evidence = detection(data, fast=True)
    assert evidence["fit"] == {"traj": "4 of 5 records", "state": "0 of 5 records"}
    assert walked == ["traj"]
    walked.clear()
    assert detection(data, fast=False) == (kind, evidence)
    assert walked == ["traj", "state"] * 5


@contextlib.contextmanager
def no_kept_walks() -> Iterator[None]:
    """Detection keeps none of its wire walks: the record walk walks every payload itself."""
    saved = _check.KEPT_WALK_MAX_PAYLOAD
    _check.KEPT_WALK_MAX_PAYLOAD = -1
    try:
        yield
    finally:
        _check.KEPT_WALK_MAX_PAYLOAD = saved


def assert_same_reports_with_kept_walks(data: bytes) -> None:
    for fast in (True, False):
        kept = unnamed_report_json(data, fast=fast)
        with no_kept_walks():
            assert kept == unnamed_report_json(data, fast=fast)


@given(nanover_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None)
def test_kept_walks_give_the_same_reports_on_mutated_files(f: tuple[bytes, str], seed: int) -> None:
    assert_same_reports_with_kept_walks(mutate(f[0], 1 << 16, seed))


@given(nanover_files(), st.lists(wire_payloads(), min_size=1, max_size=4))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_kept_walks_give_the_same_reports_on_files_with_generated_wire_structures(
        f: tuple[bytes, str], payloads: list[tuple[bytes, str]]) -> None:
    assert_same_reports_with_kept_walks(with_payloads(f[0], [p for p, _ in payloads]))


def test_the_record_walk_takes_detections_walk_of_a_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    """A payload upb cannot prove is walked once per kind by detection; the record walk takes the
    detected kind's walk instead of walking the payload again, and locates what it found at the
    payload's place in the file: an unknown field, a group."""
    walked: list[str] = []

    def counting_scan(payload: bytes, start: int, end: int, kind: str, *args: object, **kw: object) -> object:
        walked.append(kind)
        return scan(payload, start, end, kind, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(_check, "scan", counting_scan)
    entry = entry_bytes("particle.count", 2.0)
    # inside the frame (FrameData) after its entry: unknown field 3, then a group as field 3; upb's proof
    # can say nothing of either (the mirror's root holds no unknown field), a state update's root has one
    unknown = b"\x08\x01\x12" + bytes([len(entry) + 2]) + entry + b"\x18\x01"
    group = b"\x08\x02\x12" + bytes([len(entry) + 2]) + entry + b"\x1b\x1c"
    data = encode_header() + encode_record(10**6, unknown) + encode_record(2 * 10**6, group)
    report = check_stream(io.BytesIO(data), path="x.nanover", size=len(data))
    assert report.variant == "traj"
    assert walked == ["traj", "traj"]  # detection's walks only
    found = {f.rule: f for f in report.findings}
    assert found["NANOVER-PROTO-003"].offset == 16 + 24 + 4 + len(entry)
    assert found["NANOVER-PROTO-003"].path == "record[0]:FrameData"
    second = 16 + 24 + len(unknown) + 24  # the second record's payload
    assert found["NANOVER-PROTO-006"].offset == second + 4 + len(entry)
    assert found["NANOVER-PROTO-006"].path == "record[1]"
    walked.clear()
    with no_kept_walks():
        again = check_stream(io.BytesIO(data), path="x.nanover", size=len(data))
    assert walked == ["traj", "traj", "traj", "traj"]
    assert Report([again]).to_json() == Report([report]).to_json()


# --- frames proved clean by the previous clean frame's template (_Walk.fast_records) ---------------------------

_SHAPE_NUMBERS = ("system.simulation.time", "energy.kinetic", "energy.total", "server.timestamp", "x.other")
_ODD_VALUES: tuple[object, ...] = ("text", True, None, UNSET, [1.0], {"a": UNSET}, {"b": 2.0})


def entry_bytes(key: str, value: object = None, array: Array | None = None) -> bytes:
    """One FrameData map entry (its tag, length and contents), as encode_frame writes it."""
    frame = Frame(0, {} if array is not None else {key: value}, {key: array} if array is not None else {})
    payload = encode_frame(frame)
    assert payload[0] == 0x12
    _, at = read_varint(payload, 1, len(payload))
    return payload[at:]


@st.composite
def _shape(draw: st.DrawFn) -> tuple[dict[str, object], dict[str, tuple[ArrayKind | None, object]]]:
    """A frame's shape: per value key its kind (or a fixed count), per array key its kind and length
    (index and string arrays: their contents, which the template keeps). Mostly consistent topologies
    of N particles, so that frames are often clean; now and then a key that breaks a rule."""
    n = draw(st.integers(0, 3))
    values: dict[str, object] = {}
    for key in draw(st.lists(st.sampled_from(_SHAPE_NUMBERS), unique=True, max_size=4)):
        values[key] = "number"
    if draw(st.booleans()):
        values["particle.count"] = float(n)
    if draw(st.integers(0, 5)) == 0:
        values[draw(st.sampled_from(("residue.count", "x.odd", "energy.potential")))] = draw(
            st.sampled_from(_ODD_VALUES + (1.0, -1.0, 2.5)))
    arrays: dict[str, tuple[ArrayKind | None, object]] = {}
    for key in draw(st.lists(st.sampled_from(("particle.positions", "particle.velocities", "system.box.vectors",
                                              "forces.user.sparse", "x.floats", "bond.orders")),
                             unique=True, max_size=4)):
        length = {"system.box.vectors": 9, "forces.user.sparse": 0}.get(key, 3 * n)
        if key in ("x.floats", "bond.orders") or draw(st.integers(0, 7)) == 0:
            length = draw(st.integers(0, 40))
        arrays[key] = (ArrayKind.FLOAT, length)
    for key in draw(st.lists(st.sampled_from(("bond.pairs", "forces.user.index", "particle.names",
                                              "particle.elements", "x.ints", "residue.ids")),
                             unique=True, max_size=2)):
        if key in ("particle.names", "residue.ids") and draw(st.booleans()):
            arrays[key] = (ArrayKind.STRING, tuple(draw(st.sampled_from(("C", "N", "é"))) for _ in range(n)))
        elif key == "residue.ids":
            arrays[key] = (ArrayKind.FLOAT, n)  # the Rust server's deviation: a finding on every record
        else:
            arrays[key] = (ArrayKind.INDEX, tuple(draw(st.lists(st.integers(0, max(n, 1)), max_size=2 * n))))
    if draw(st.integers(0, 7)) == 0:
        arrays["x.none"] = (None, ())
    return values, arrays


def _frame_entries(draw: st.DrawFn, shape: tuple[dict[str, object], dict[str, tuple[ArrayKind | None, object]]],
                   ) -> list[bytes]:
    """One frame of ``shape`` with new numbers and floats (now and then a new count or index array)."""
    values, arrays = shape
    entries = []
    for key, kind in values.items():
        if kind == "number":
            value: object = draw(st.floats(width=64))
        elif isinstance(kind, float) and draw(st.integers(0, 5)) == 0:
            value = kind + draw(st.sampled_from([1.0, -1.0, 0.5]))
        else:
            value = kind
        entries.append(entry_bytes(key, value))
    for key, (akind, spec) in arrays.items():
        if akind is ArrayKind.FLOAT:
            assert isinstance(spec, int)
            floats = tuple(draw(st.lists(st.floats(width=32), min_size=spec, max_size=spec)))
            entries.append(entry_bytes(key, array=Array(akind, floats)))
        elif akind is ArrayKind.INDEX and draw(st.integers(0, 5)) == 0:
            entries.append(entry_bytes(key, array=Array(akind, tuple(draw(st.lists(st.integers(0, 4), max_size=4))))))
        else:
            assert isinstance(spec, tuple)
            entries.append(entry_bytes(key, array=Array(akind, spec)))
    return entries


_TWISTS = (None,) * 40 + ("overlong-index", "index-after", "unknown-root", "unknown-frame", "entry-twice",
                          "split-frame", "index-2^32", "index-twice", "no-index", "unpacked")


def _frame_payload(draw: st.DrawFn, index: int, entries: list[bytes]) -> bytes:
    """A GetFrameResponse of ``entries`` (in the given order) as a writer puts it, or with one of the wire
    twists a template must not take for its own shape."""
    twist = draw(st.sampled_from(_TWISTS))
    if twist == "entry-twice" and entries:
        entries = [*entries, entries[0]]
    if twist == "unpacked":
        number = b"\x0d" + bytes(4)  # FloatArray.values written unpacked
        array = b"\x0a" + encode_varint(len(number)) + number
        entry = b"\x0a\x01u\x12" + encode_varint(len(array)) + array
        entries = [*entries, b"\x12" + encode_varint(len(entry)) + entry]
    body = b"".join(entries)
    if twist == "unknown-frame":
        body += b"\x18\x01"
    frame = b"\x12" + encode_varint(len(body)) + body
    if twist == "split-frame" and len(entries) > 1:
        first, rest = b"".join(entries[:1]), b"".join(entries[1:])
        frame = b"\x12" + encode_varint(len(first)) + first + b"\x12" + encode_varint(len(rest)) + rest
    if twist == "index-2^32":
        index += 1 << 32
    head = b"\x08" + (overlong(index, 1) if twist == "overlong-index" else encode_varint(index)) if index else b""
    if twist == "index-twice":
        head = b"\x08\x05" + head
    if twist == "no-index":
        head = b""
    payload = frame + head if twist == "index-after" else head + frame
    return payload + b"\x18\x01" if twist == "unknown-root" else payload


@st.composite
def shaped_files(draw: st.DrawFn) -> bytes:
    """A .traj file of up to 14 frames, mostly runs that repeat a shape (1 to 3 shapes) with new numbers
    and floats, in a new entry order (a hash-map writer) or the same order; frame indices that step, repeat
    or reset; timestamps that step plainly or break a rule; now and then a wire twist."""
    shapes = draw(st.lists(_shape(), min_size=1, max_size=3))
    out = [encode_header()]
    ts, index, current = 10**6, draw(st.integers(0, 3)), 0
    shuffle = draw(st.booleans())
    for _ in range(draw(st.integers(1, 14))):
        if draw(st.integers(0, 4)) == 0:
            current = draw(st.integers(0, len(shapes) - 1))
        entries = _frame_entries(draw, shapes[current])
        if shuffle:
            entries = draw(st.permutations(entries))
        # now and then an empty record (frame index 0): no template is made of it (hostile.py nanover-empty-records)
        empty = draw(st.integers(0, 6)) == 0
        out.append(encode_record(ts, b"" if empty else _frame_payload(draw, index, entries)))
        ts += draw(st.sampled_from([10**6, 10**6, 10**6, 0, -5, 120_000_000]))
        index = draw(st.sampled_from([index + 1, index + 1, index + 1, index, 0, 1 << 20]))
    return b"".join(out)


def records_report_json(data: bytes, *, fast: bool) -> str:
    return checked_json(data, "x.traj", "fast_records", fast=fast)


@given(shaped_files())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_templates_give_the_same_reports(data: bytes) -> None:
    assert records_report_json(data, fast=True) == records_report_json(data, fast=False)


@given(shaped_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_templates_give_the_same_reports_on_mutated_files(data: bytes, seed: int) -> None:
    mutated = mutate(data, 1 << 16, seed)
    assert records_report_json(mutated, fast=True) == records_report_json(mutated, fast=False)


@given(shaped_files(), st.integers(16, 2**20), st.integers(0, 255))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_templates_give_the_same_reports_with_a_byte_flipped(data: bytes, at: int, mask: int) -> None:
    flipped = data[:16] + flip(data[16:], at, mask)
    assert records_report_json(flipped, fast=True) == records_report_json(flipped, fast=False)


@given(palette_files())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_templates_give_the_same_reports_on_palette_files(data: bytes) -> None:
    assert records_report_json(data, fast=True) == records_report_json(data, fast=False)


@given(nanover_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=150, deadline=None)
def test_every_shortcut_off_gives_the_same_reports(f: tuple[bytes, str], seed: int) -> None:
    """All of the walk's switches on against all off, on generated files as they are and mutated."""
    data, kind = f
    for candidate in (data, mutate(data, 1 << 16, seed)):
        reports = []
        for on in (True, False):
            with walk_switch("fast_wire", on), walk_switch("fast_rules", on), walk_switch("fast_records", on):
                report = check_stream(io.BytesIO(candidate), path=f"x.{kind}", size=len(candidate))
            reports.append(json.dumps(Report([report]).to_json(), sort_keys=True))
        assert reports[0] == reports[1]


def frame_shape(frame: Frame) -> tuple[dict[str, object], dict[str, object]]:
    """What the frame rules read of a frame: every value but the numbers no rule reads (those under a
    key other than a count), every array's kind and length, and the contents of the non-float arrays."""
    values = {k: "a number" if isinstance(v, float) and k not in _check.COUNT_KEYS else v
              for k, v in frame.values.items()}
    arrays = {k: (a.kind, len(a.values), None if a.kind is ArrayKind.FLOAT else a.values)
              for k, a in frame.arrays.items()}
    return values, arrays


@given(st.data())
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_template_matches_only_what_it_proves(data: st.DataObject) -> None:
    """FrameTemplate's lemma: a payload it matches is one the wire walk accepts without a note and the
    runtime parses into the template frame's shape, with the frame index it returns. Payloads: frames
    of the template's shape with new numbers, in a new order, with wire twists, and with a byte flipped."""
    shape = data.draw(_shape())
    first = b"\x08\x01\x12" + encode_varint(len(body := b"".join(_frame_entries(data.draw, shape)))) + body
    template = FrameTemplate.of(first, _check._LITERAL_KEYS)
    if template is None:
        return
    entries = _frame_entries(data.draw, shape)
    if data.draw(st.booleans()):
        entries = data.draw(st.permutations(entries))
    payload = _frame_payload(data.draw, data.draw(st.integers(0, 2**32 + 1)), entries)
    if data.draw(st.booleans()):
        payload = flip(payload, data.draw(st.integers(0, 4096)), data.draw(st.integers(0, 255)))
    index = template.match(payload)
    if index is None:
        return
    assert walk_says_nothing(payload, "traj"), payload.hex()
    msg = parse_frame(payload)
    assert msg.frame_index == index
    assert same_value(frame_shape(frame_from_message(msg)), frame_shape(frame_from_message(parse_frame(first))))


def test_a_template_takes_its_shape_in_any_order_and_nothing_else() -> None:
    """The lemma's test can fail: a frame of the shape in another order, with other numbers and floats,
    matches; a changed count, array length, index array or key, or any of the wire twists, does not."""
    def frame(count: float, time: float, floats: tuple[float, ...], pairs: tuple[int, ...], key: str = "x.other"
              ) -> list[bytes]:
        return [entry_bytes("particle.count", count), entry_bytes("system.simulation.time", time),
                entry_bytes(key, 1.5), entry_bytes("particle.positions", array=Array(ArrayKind.FLOAT, floats)),
                entry_bytes("bond.pairs", array=Array(ArrayKind.INDEX, pairs))]

    def payload(entries: list[bytes], index: int = 7) -> bytes:
        body = b"".join(entries)
        return b"\x08" + encode_varint(index) + b"\x12" + encode_varint(len(body)) + body

    template = FrameTemplate.of(payload(frame(2.0, 0.5, (0.0,) * 6, (0, 1))), _check._LITERAL_KEYS)
    assert template is not None
    # in the template frame's order (no parse), then in another (a skeleton parse, from then on)
    assert template.match(payload(frame(2.0, 9.0, (1.0,) * 6, (0, 1)), 300)) == 300
    assert template._ordered is not None
    assert template.match(payload(frame(2.0, 9.0, (1.0,) * 6, (0, 1))[::-1], 300)) == 300
    assert template._ordered is None
    assert template.match(payload(frame(2.0, 9.0, (1.0,) * 6, (0, 1)), 2**32 - 1)) == 2**32 - 1
    for other in (frame(3.0, 9.0, (1.0,) * 6, (0, 1)), frame(2.0, 9.0, (1.0,) * 9, (0, 1)),
                  frame(2.0, 9.0, (1.0,) * 6, (1, 0)), frame(2.0, 9.0, (1.0,) * 6, (0, 1), "x.otheR")):
        assert template.match(payload(other)) is None
    entries = frame(2.0, 9.0, (1.0,) * 6, (0, 1))
    body = b"".join(entries)
    assert template.match(payload(entries, 0)) is None  # a reset
    assert template.match(payload(entries[:-1], 5)) is None and template.match(payload(entries[1:], 5)) is None
    assert template.match(b"\x08") is None and template.match(b"\x08\x80\x80") is None
    for twisted in (b"\x08\x87\x00\x12" + encode_varint(len(body)) + body,   # an overlong frame index
                    payload(entries) + b"\x18\x01",                           # an unknown field
                    payload(entries[1:]) + b"\x12" + encode_varint(len(entries[0])) + entries[0],  # two frames
                    payload([*entries, entries[0]])):                          # an entry twice
        assert template.match(twisted) is None


def test_a_template_of_an_empty_frame_takes_no_other_field_in_its_place() -> None:
    """Found by the lemma's property: a template of an empty frame (08 01 12 00) took 08 02 1a 00, the frame
    field replaced by an unknown field 3 of the same length, which the wire walk reports (NANOVER-PROTO-003)."""
    template = FrameTemplate.of(b"\x08\x01\x12\x00", _check._LITERAL_KEYS)
    assert template is not None
    assert template.match(b"\x08\x02\x12\x00") == 2
    assert template.match(b"\x08\x02\x1a\x00") is None and template.match(b"\x12\x00\x08\x02") == 2
    assert not walk_says_nothing(b"\x08\x02\x1a\x00", "traj")


@pytest.mark.parametrize("index", [1, 127, 128, 300, 16383, 16384, 2**21 - 1, 2**21, 2**28, 2**32 - 1])
def test_a_template_in_its_order_reads_every_frame_index_length(index: int) -> None:
    """The ordered match reads a one- or two-byte frame_index without its loop, longer ones with it: at
    each varint length's edge the shortest varint gives the index, the same index padded with a
    continuation byte (an overlong varint, one byte longer) gives no match, and so does index 2^32."""
    entries = [entry_bytes("particle.count", 2.0), entry_bytes("x.other", 1.5)]
    body = b"".join(entries)
    frame = b"\x12" + encode_varint(len(body)) + body
    template = FrameTemplate.of(b"\x08\x01" + frame, _check._LITERAL_KEYS)
    assert template is not None
    assert template.match(b"\x08" + encode_varint(index) + frame) == index
    assert template._ordered is not None  # taken in the template's order, no skeleton parse
    assert template.match(b"\x08" + overlong(index, 1) + frame) is None
    assert template.match(b"\x08" + encode_varint(index + 2**32) + frame) is None
    assert template.match(b"\x08" + encode_varint(index)) is None  # no frame


def test_templates_take_most_records_of_a_run() -> None:
    """The reports' property can fail: a run of frames of one shape goes through the template after
    its first two records, and a record off the shape (or a finding) starts over."""
    matched: list[int | None] = []
    original = FrameTemplate.match

    def counting(self: FrameTemplate, payload: bytes) -> int | None:
        matched.append(result := original(self, payload))
        return result

    entries = [entry_bytes("particle.count", 2.0), entry_bytes("particle.positions",
                                                               array=Array(ArrayKind.FLOAT, (0.5,) * 6))]
    records = [encode_record(10**6 * (i + 1), b"\x08" + encode_varint(i + 1) + b"\x12"
                             + encode_varint(len(body := b"".join(entries[::1 - 2 * (i % 2)]))) + body)
               for i in range(6)]
    data = encode_header() + b"".join(records)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(FrameTemplate, "match", counting)
        report = check_stream(io.BytesIO(data), path="x.traj", size=len(data))
    assert matched == [2, 3, 4, 5, 6] and report.findings == [] and report.stats["last_frame_index"] == 6


@pytest.mark.parametrize("name,matched", [("sim-switching-test-recording.traj", 446), ("hello_vel.traj", 112)])
def test_templates_on_the_real_trajectories(name: str, matched: int) -> None:
    """On the real files (NanoVer's Python writer keeps its entry order, the Rust server does not) the
    templates take every frame but those the walk must judge, with the general path's report. By a walk of
    the entries outside recspec: sim-switching's 454 records are runs of one shape that start at records
    0, 1, 104, 105, 212, 213, 339 and 340 (the three resets and the frame after each), a template is made
    from a run's first record, so 8 are judged and 446 matched; hello_vel's 114 are the topology frame,
    then one shape from record 1 on: 2 judged, 112 matched."""
    from helpers import real_file

    data = real_file(name).read_bytes()
    hits: list[int] = []
    original = FrameTemplate.match

    def counting(self: FrameTemplate, payload: bytes) -> int | None:
        result = original(self, payload)
        if result is not None:
            hits.append(result)
        return result

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(FrameTemplate, "match", counting)
        fast = checked_json(data, name, "fast_records", fast=True)
    assert len(hits) == matched
    assert fast == checked_json(data, name, "fast_records", fast=False)


def test_empty_records_and_repeated_timestamps_past_the_cap_give_the_same_reports() -> None:
    """A flood of empty records at one timestamp (hostile.py nanover-header-zeros): NANOVER-TIME-003 past
    its stored findings is counted without its message, and the report is the one every shortcut off gives."""
    n = 300
    data = encode_header() + b"".join(encode_record(5_000_000, b"") for _ in range(n))
    report = json.loads(records_report_json(data, fast=True))["files"][0]
    assert report["capped"] == {"limit": 100, "rules": {"NANOVER-TIME-003": n - 1}}
    stored = [f for f in report["findings"] if f["rule"] == "NANOVER-TIME-003"]
    assert len(stored) == 100 and stored[-1]["path"] == "record[100].timestamp"
    assert stored[-1]["message"] == "timestamp 5000000 us after 5000000 us: not strictly increasing"
    assert records_report_json(data, fast=True) == records_report_json(data, fast=False)


# --- runs of empty records taken in bulk (_Walk.fast_empty, RecordReader.empty_run) ------------------------------

@st.composite
def empty_run_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """A file of runs of empty records (some past the 100 stored findings of a rule) between frames or state
    updates, the timestamps stepping on, repeating, going back, jumping past the gap or into the upper half,
    now and then cut short; and its kind."""
    kind = draw(st.sampled_from(["traj", "state"]))
    frame = b"\x08\x03\x12" + encode_varint(len(e := entry_bytes("particle.count", 2.0))) + e
    entry = b"\x0a" + encode_varint(len(u := b"\x0a\x01k\x12\x02\x20\x01")) + u  # {"k": true}
    update = b"\x0a" + encode_varint(len(entry)) + entry  # StateUpdate.changed_keys
    out = [encode_header()]
    ts = draw(st.integers(0, 10**7))
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            out.append(encode_record(max(ts, 0), frame if kind == "traj" else update))
            ts += 10**6
        step = draw(st.sampled_from([1, 10**6, 0, 0, -5, 120_000_000]))
        for _ in range(draw(st.sampled_from([1, 2, 3, 40, 150]))):
            upper = 1 << 64 if draw(st.integers(0, 30)) == 0 else 0  # a timestamp with an upper half
            out.append(encode_record(max(ts, 0) | upper, b""))
            ts += step if draw(st.integers(0, 9)) else draw(st.sampled_from([0, -1, 10**6]))
    data = b"".join(out)
    if draw(st.integers(0, 4)) == 0:
        data = data[:draw(st.integers(16, len(data)))]
    return data, kind


def empty_report_json(data: bytes, kind: str, *, fast: bool) -> str:
    with walk_switch("fast_empty", fast):
        report = check_stream(io.BytesIO(data), path=f"x.{kind}", size=len(data))
    return json.dumps(Report([report]).to_json(), sort_keys=True)


@given(empty_run_files(), st.sampled_from([1 << 20, 24, 100, 1000]))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_runs_of_empty_records_give_the_same_reports(f: tuple[bytes, str], block: int) -> None:
    """The bulk path against record() on every record, with the reader's block shrunk now and then so that
    runs are cut by refills."""
    data, kind = f
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_framing, "READ_BLOCK", block)
        assert empty_report_json(data, kind, fast=True) == empty_report_json(data, kind, fast=False)


def judged_records(data: bytes, kind: str) -> tuple[dict[str, Any], list[int]]:
    """The fast path's report of ``data`` and the indexes of the records it judged one by one
    (``_Walk.judge``); the rest it took in bulk."""
    judged: list[int] = []
    original = _check._Walk.judge

    def counting(self: _check._Walk, index: int, pos: int, payload: bytes) -> None:
        judged.append(index)
        original(self, index, pos, payload)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_check._Walk, "judge", counting)
        report = json.loads(empty_report_json(data, kind, fast=True))["files"][0]
    return report, judged


@pytest.mark.parametrize("kind", ["traj", "state"])
def test_a_run_of_empty_records_is_judged_once(kind: str) -> None:
    """The property can fail: of 1,000 empty records at one timestamp after a header (hostile.py
    nanover-header-zeros), record() judges the first and the rest are taken in bulk; each still counts as
    a record (and in a .traj as a reset), and each repeat of the timestamp as a NANOVER-TIME-003."""
    n = 1000
    data = encode_header() + bytes(24 * n)
    report, judged = judged_records(data, kind)
    assert judged == [0]
    assert report["stats"]["records"] == n and report["stats"]["last_timestamp_us"] == 0
    assert report["stats"].get("resets", n) == n
    assert report["capped"] == {"limit": 100, "rules": {"NANOVER-TIME-003": n - 1}}
    assert empty_report_json(data, kind, fast=True) == empty_report_json(data, kind, fast=False)


# --- state updates read from their messages (_Walk.update with fast_rules) ------------------------------------------

def _state_file(updates: list[bytes]) -> bytes:
    return encode_header() + b"".join(encode_record(10**6 * (i + 1), u) for i, u in enumerate(updates))


@st.composite
def state_values(draw: st.DrawFn, depth: int = 0) -> bytes:
    """A google.protobuf.Value's bytes: a number, a null, a string, nothing set, or (nested) a Struct or a list."""
    kinds = ["number", "null", "string", "unset"] + (["struct", "list"] if depth < 3 else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "number":
        return b"\x11" + struct.pack("<d", draw(st.floats(allow_nan=False)))
    if kind == "null":
        return b"\x08\x00"
    if kind == "string":
        return b"\x1a\x01s"
    if kind == "unset":
        return b""
    items = draw(st.lists(state_values(depth + 1), max_size=3))
    if kind == "list":
        body = b"".join(b"\x0a" + encode_varint(len(v)) + v for v in items)
        return b"\x32" + encode_varint(len(body)) + body
    body = b"".join(b"\x0a" + encode_varint(len(e)) + e for e in
                    (b"\x0a\x01" + bytes([97 + j]) + (b"\x12" + encode_varint(len(v)) + v if v or draw(st.booleans())
                                                      else b"") for j, v in enumerate(items)))
    return b"\x2a" + encode_varint(len(body)) + body


@st.composite
def state_updates(draw: st.DrawFn) -> bytes:
    """A StateUpdate of a few keys (some repeated across updates, so deletions find them or not)."""
    entries = []
    for _ in range(draw(st.integers(0, 4))):
        key = draw(st.sampled_from([b"avatar.a", b"avatar.b", b"scene", b"k"]))
        value = draw(state_values())
        entry = b"\x0a" + encode_varint(len(key)) + key + (b"\x12" + encode_varint(len(value)) + value
                                                           if value or draw(st.booleans()) else b"")
        entries.append(b"\x0a" + encode_varint(len(entry)) + entry)
    body = b"".join(entries)
    return b"\x0a" + encode_varint(len(body)) + body


@given(st.lists(state_updates(), min_size=1, max_size=6))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_state_updates_read_from_their_messages_give_the_same_reports(updates: list[bytes]) -> None:
    """Nested Structs and lists with Values of no kind at any depth (set empty or left out of a map entry), null
    values deleting keys held or not: the fast path's report is the general code's."""
    data = _state_file(updates)
    assert checked_json(data, "x.state", "fast_rules", fast=True) == \
        checked_json(data, "x.state", "fast_rules", fast=False)


@given(nanover_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=100, deadline=None)
def test_state_files_give_the_same_reports_with_the_rules_shortcuts(f: tuple[bytes, str], seed: int) -> None:
    data, _ = f
    for candidate in (data, mutate(data, 1 << 16, seed)):
        assert checked_json(candidate, "x.state", "fast_rules", fast=True) == \
            checked_json(candidate, "x.state", "fast_rules", fast=False)


def test_a_value_of_no_kind_deep_in_a_state_update_is_found() -> None:
    """The property can fail: a Value with no kind set three levels down (a list in a Struct in the key's
    Struct) is NANOVER-PROTO-005 on the fast path too; a null value deletes a key the state does not hold."""
    inner = b"\x32\x04\x0a\x00\x0a\x00"  # a list of two Values of no kind
    struct_b = b"\x2a" + encode_varint(len(e := b"\x0a" + encode_varint(len(x := b"\x0a\x01c\x12" + encode_varint(
        len(inner)) + inner)) + x)) + e
    entry = b"\x0a\x01k\x12" + encode_varint(len(struct_b)) + struct_b
    gone = b"\x0a\x01g\x12\x02\x08\x00"
    update = b"\x0a" + encode_varint(len(body := b"\x0a" + encode_varint(len(entry)) + entry + b"\x0a"
                                          + encode_varint(len(gone)) + gone)) + body
    report = json.loads(checked_json(_state_file([update]), "x.state", "fast_rules", fast=True))["files"][0]
    assert [(f["rule"], f["path"]) for f in report["findings"]] == [
        ("NANOVER-PROTO-005", "record[0]/changed_keys['k']"), ("NANOVER-STATE-001", "record[0]/changed_keys['g']")]
    assert report["stats"]["state_keys"] == 1


def test_state_updates_are_not_made_python_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path reads an update's message as it is: no value of it is made a Python one."""
    entry = b"\x0a\x01k\x12\x06\x32\x04\x0a\x02\x08\x00"  # {"k": [null]}
    data = _state_file([b"\x0a" + encode_varint(len(entry) + 2) + b"\x0a" + encode_varint(len(entry)) + entry] * 3)
    calls: list[object] = []
    monkeypatch.setattr(_check, "state_update_from_message", lambda msg: calls.append(msg))
    report = json.loads(checked_json(data, "x.state", "fast_rules", fast=True))["files"][0]
    assert calls == [] and report["findings"] == [] and report["stats"]["state_keys"] == 1


def test_state_deletions_are_found_in_the_same_order_with_and_without_the_shortcuts() -> None:
    """A state update deleting two keys the state does not hold, one of them the empty key, which the
    encoder writes after every other (upb's order: a key that begins another comes after it): both
    NANOVER-STATE-001 findings in that order, with the rules' shortcuts and without them (a fuzz
    campaign found the shortcut's plain sort putting the empty key first)."""
    data = bytes.fromhex("e3b78999c4e3715c02000000000000fb0200000000000000000000000000000020000000000000008a00140a"
                         "120a0b6176617461722e676f6e0012038800000a070a059200020800")
    paths = []
    for fast in (True, False):
        with walk_switch("fast_rules", fast), walk_switch("fast_records", fast), walk_switch("fast_wire", fast):
            report = check_stream(io.BytesIO(data), path="x.state", size=len(data))
        paths.append([f.path for f in report.findings if f.rule == "NANOVER-STATE-001"])
    assert paths[0] == paths[1] == ["record[0]/changed_keys['avatar.gon\\x00']", "record[0]/changed_keys['']"]


@pytest.mark.parametrize("kind", ["traj", "state"])
def test_a_run_of_empty_records_with_upper_halves_is_judged_once(kind: str) -> None:
    """1,000 empty records 1 us apart whose timestamps' upper half is 1 (hostile.py nanover-wide-times):
    record() judges the first, the rest are taken in bulk, each a NANOVER-TIME-001 (100 stored); then the
    same with the timestamps falling back now and then, into and out of the upper half, against record()
    on every record."""
    n = 1000
    data = encode_header() + b"".join(encode_record(i + 1 | 1 << 64, b"") for i in range(n))
    report, judged = judged_records(data, kind)
    assert judged == [0]
    assert report["stats"]["records"] == n
    assert report["capped"]["rules"] == {"NANOVER-TIME-001": n}
    assert empty_report_json(data, kind, fast=True) == empty_report_json(data, kind, fast=False)
    stamps = [(i + 1) | (1 << 64 if i % 300 < 200 else 0) for i in range(n)]
    for i in range(0, n, 137):
        stamps[i] -= 5
    data = encode_header() + b"".join(encode_record(t, b"") for t in stamps)
    assert empty_report_json(data, kind, fast=True) == empty_report_json(data, kind, fast=False)
