"""The checker's fast paths read exactly what the full decoder reads.

``unpack_flat`` and ``anim_wheel_ids`` skip building dataclasses; they must
accept and reject the same payloads as ``decode_body`` and report the same ids.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carla_properties import mutations

from recspec.errors import DecodeError
from recspec.reference.carla import (
    MAX_PACKET_SIZE,
    VARIANTS,
    Packet,
    PacketKind,
    PacketReader,
    Recording,
    anim_wheel_ids,
    decode,
    decode_body,
    decode_header,
    is_fixed_record,
    scan_event_add,
    unpack_flat,
)
from recspec.strategies import carla_logs

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


# attribute strings: ASCII, valid multi-byte UTF-8, invalid UTF-8 (a lone continuation byte, a lead
# byte without its continuation, an encoded surrogate, an overlong form), NUL bytes, and mixes of them
TEXT = st.one_of(
    st.binary(max_size=4),
    st.text(max_size=3).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.lists(st.sampled_from([b"a", b"\x00", b"\xc3", b"\xa9", b"\xc3\xa9", b"\xed\xa0\x80", b"\xc0\xaf",
                              b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xff"]), max_size=4).map(b"".join),
)
SCAN_ATTRIBUTE = st.tuples(st.sampled_from([0, 1, 2, 5, 6, 7, 255]), TEXT, TEXT)


def event_add_payload(records: list[tuple[int, int, bytes, list[tuple[int, bytes, bytes]]]], vec_f64: bool) -> bytes:
    out = [struct.pack("<H", len(records))]
    for actor, actor_type, desc, attrs in records:
        out.append(struct.pack("<IB", actor, actor_type) + struct.pack("<6d" if vec_f64 else "<6f", *range(6))
                   + struct.pack("<IH", 0, len(desc)) + desc + struct.pack("<H", len(attrs)))
        out.extend(struct.pack("<BH", t, len(k)) + k + struct.pack("<H", len(v)) + v for t, k, v in attrs)
    return b"".join(out)


@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 255), TEXT, st.lists(SCAN_ATTRIBUTE, max_size=6)),
                max_size=4),
       st.booleans(), st.integers(-9, 9), st.binary(max_size=9))
@settings(max_examples=400, deadline=None)
def test_scan_event_add_agrees_with_decode_body(records, vec_f64, cut, junk):
    _assert_scan_agrees_with_decode_body(records, vec_f64, cut, junk)


def _assert_scan_agrees_with_decode_body(records, vec_f64, cut, junk):
    payload = event_add_payload(records, vec_f64)
    payload = payload[:len(payload) + cut] if cut < 0 else payload + junk[:cut]
    v = VARIANTS["ue5" if vec_f64 else "0.9.16"]
    try:
        full = decode_body(PacketKind.EVENT_ADD, payload, v)
    except DecodeError:
        full = None
    scan = scan_event_add(payload, vec_f64)
    assert (full is None) == (scan is None)
    if full is None:
        return
    assert len(full) == len(scan.records)

    def text(b: bytes) -> str:
        return b.decode("utf-8", "surrogateescape")

    values = scan.value_texts(0, len(scan.records))
    for r, (_, actor, actor_type, desc, desc_end, lo, hi, _) in zip(full, scan.records):
        assert (r.database_id, r.type, r.description_id) == (actor, actor_type, text(payload[desc:desc_end]))
        got = list(zip(scan.types(lo, hi), map(text, scan.ids(lo, hi)), map(text, values[lo:hi])))
        assert got == [(a.type, a.id, a.value) for a in r.attributes]
    if len(payload) > 2:  # an equal payload with records is not scanned again
        assert scan_event_add(bytes(payload), vec_f64) is scan


# --- decode frames a log held in memory in one loop; the streamed reading is the reference --------------


def _streamed(data: bytes, variant: object) -> object:
    """``decode`` the way it read packets before: ``PacketReader`` one packet at a time."""
    header, offset = decode_header(data, 0)
    f = io.BytesIO(data)
    f.seek(offset)
    packets = []
    for i, raw in enumerate(PacketReader(f, variant, offset, len(data))):  # type: ignore[arg-type]
        body = decode_body(raw.kind, raw.payload, variant, raw.offset + 5, f"packet[{i}]")  # type: ignore[arg-type]
        packets.append(Packet(raw.kind, body, raw.packet_id))
    return Recording(header, tuple(packets))


def _outcome(read: Callable[[], object]) -> object:
    try:
        return read()
    except DecodeError as e:
        return type(e).__name__, str(e), e.offset, e.path, e.rule, vars(e)


@given(data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_decode_reads_a_log_as_the_packet_reader_does(data: st.DataObject) -> None:
    """Valid, invalid and mutated logs of every variant (cut inside a header or a payload, a size
    above the limit, undefined ids): the same recording, or the same error at the same place."""
    name = data.draw(st.sampled_from(sorted(VARIANTS)), label="variant")
    blob, _ = data.draw(carla_logs(name, min_frames=1, max_frames=5, valid=data.draw(st.booleans())), label="log")
    edit = data.draw(st.sampled_from(("none", "mutate", "huge")), label="edit")
    if edit == "mutate":
        blob = data.draw(mutations(blob), label="mutated")
    elif edit == "huge":  # a packet declaring more than the limit, whole in the file or not
        blob += struct.pack("<BI", 3, MAX_PACKET_SIZE + 1) + bytes(data.draw(st.integers(0, 9), label="tail"))
    variant = VARIANTS[data.draw(st.sampled_from(sorted(VARIANTS)), label="read as")]
    try:
        decode_header(blob, 0)
    except DecodeError:
        return  # both read the header the same way
    assert _outcome(lambda: decode(blob, variant=variant)) == _outcome(lambda: _streamed(blob, variant))


def test_a_short_event_add_head_is_located_field_by_field() -> None:
    """``_event_add`` reads a record's fixed head in one call; a payload that ends inside it is
    still reported at the field it ends in, from that field's offset."""
    for vec_f64, vec in ((False, 12), (True, 24)):
        variant = VARIANTS["ue5" if vec_f64 else "0.9.16"]
        head = struct.pack("<HIB", 1, 7, 2) + bytes(2 * vec) + struct.pack("<I", 9)
        payload = head + struct.pack("<H", 1) + b"a" + struct.pack("<H", 0)
        assert decode_body(PacketKind.EVENT_ADD, payload, variant, 100, "p")[0].database_id == 7  # type: ignore[index]
        fields = [("database_id", 2, 5), ("location", 7, vec), ("rotation", 7 + vec, vec),
                  ("description_uid", 7 + 2 * vec, 4)]
        for name, at, width in fields:
            for cut in range(at, at + width):
                try:
                    decode_body(PacketKind.EVENT_ADD, payload[:cut], variant, 100, "p")
                except DecodeError as e:
                    assert (e.path, e.offset) == (f"p/record[0].{name}", 100 + at), (name, cut)
                    assert f"needs {width} bytes, {cut - at} left" in str(e)
                else:
                    raise AssertionError(f"a payload cut at {cut} decoded")


@st.composite
def uniform_attributes(draw: st.DrawFn) -> list[tuple[int, bytes, bytes]]:
    """More attributes than the strided reading starts at, all of one id and value length (hostile.py
    carla-max-packet), now and then one of other lengths among them."""
    id_len, value_len = draw(st.integers(0, 300)), draw(st.integers(0, 3))
    n = draw(st.integers(17, 80))
    attrs = [(draw(st.sampled_from([0, 1, 9])), bytes((33 + i % 90,)) * id_len, b"v" * value_len) for i in range(n)]
    if draw(st.booleans()):
        attrs.insert(draw(st.integers(0, n)), (0, draw(TEXT), draw(TEXT)))
    return attrs


@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 255), TEXT, uniform_attributes()),
                min_size=1, max_size=3),
       st.booleans(), st.integers(-9, 9), st.binary(max_size=9))
@settings(max_examples=200, deadline=None)
def test_scan_event_add_of_uniform_attributes_agrees_with_decode_body(records, vec_f64, cut, junk):
    _assert_scan_agrees_with_decode_body(records, vec_f64, cut, junk)


def test_uniform_attributes_are_read_at_a_stride(monkeypatch) -> None:
    """The property can fail: 65,535 attributes of one size are read without a step per attribute."""
    from recspec.reference.carla import _scan

    attrs = [(0, b"%02d" % (i % 100), b"") for i in range(0xFFFF)]
    payload = event_add_payload([(1, 1, b"", attrs)], False)
    steps = []
    original = _scan._UNPACK_U16_FROM
    monkeypatch.setattr(_scan, "_UNPACK_U16_FROM", lambda *a: steps.append(a) or original(*a))
    scan = _scan._scan_event_add(payload, False)
    assert scan is not None and len(scan.starts) == 0xFFFF and len(steps) < 10
    assert scan.ids(0xFFFE, 0xFFFF) == [b"34"] and scan.starts[1] - scan.starts[0] == 7
