"""Facts of an EventAdd payload's shape that mutants of reference/carla/_scan.py survived:
a run of equal attributes that ends its record, attributes of one id and value length read at
a stride (their u16 length fields, low byte first), records alike but for their u32 database
ids, and an empty range of records. Expected values come from the layout (research notes,
EventAdd: u32 id, u8 type, location, rotation, u32 uid, u16-length description, u16 attribute
count; an attribute: u8 type, u16-length id, u16-length value), never from the scan's output."""

from __future__ import annotations

import struct

from recspec.reference.carla import VARIANTS, alike_records, record_chain_misfit, record_ids, scan_event_add
from recspec.reference.carla import PacketKind as K

V = VARIANTS["0.9.15"]
FIXED = 4 + 1 + 24 + 4  # id, type, two f32 vectors, uid


def _attribute(atype: int, aid: bytes, value: bytes) -> bytes:
    return struct.pack("<BH", atype, len(aid)) + aid + struct.pack("<H", len(value)) + value


def _record(actor: int, attributes: list[bytes], actor_type: int = 1, description: bytes = b"vehicle.x") -> bytes:
    return (struct.pack("<IB", actor, actor_type) + bytes(24) + struct.pack("<I", 3)
            + struct.pack("<H", len(description)) + description
            + struct.pack("<H", len(attributes)) + b"".join(attributes))


def _payload(records: list[bytes]) -> bytes:
    return struct.pack("<H", len(records)) + b"".join(records)


# --- record_chain_misfit -------------------------------------------------------------------------


def test_a_run_of_equal_attributes_ending_its_record_is_not_read_past_its_count() -> None:
    # two equal attributes make up the record; a third copy of their bytes follows the record, so the
    # payload holds one attribute's bytes more than its records: the records end that much early
    attribute = _attribute(3, b"role_name", b"hero")
    payload = _payload([_record(7, [attribute, attribute])]) + attribute
    assert scan_event_add(payload, False) is None
    size = len(payload)
    assert record_chain_misfit(K.EVENT_ADD, payload, V) == f"{size - len(attribute)} bytes of records in {size}"


# --- EventAddScan ---------------------------------------------------------------------------------


def test_the_values_of_a_range_of_records() -> None:
    # record 0 of one attribute, record 1 of two: each range gives its own records' values only
    scan = scan_event_add(_payload([_record(7, [_attribute(1, b"a", b"b")]),
                                    _record(8, [_attribute(1, b"c", b"dd"), _attribute(2, b"e", b"fff")])]), False)
    assert scan is not None
    assert scan.value_texts(0, 1) == [b"b"]
    assert scan.value_texts(1, 2) == [b"dd", b"fff"]
    assert scan.value_texts(0, 2) == [b"b", b"dd", b"fff"]
    assert scan.value_texts(1, 1) == []  # no record: no value


# --- attributes at a stride ------------------------------------------------------------------------


def _attributes_start(description: bytes = b"vehicle.x") -> int:
    return 2 + FIXED + 2 + len(description) + 2


def test_attributes_with_lengths_above_one_byte_are_read_at_a_stride(monkeypatch) -> None:
    """1,000 attributes of a 200-byte id (its u16 length's high byte 0, low byte 200) and a 300-byte
    value (high byte 1, low byte 44): read at one stride, with a few length reads, not two an attribute."""
    from recspec.reference.carla import _scan

    attributes = [_attribute(2, b"%03d" % (i % 1000) + b"i" * 197, b"v" * 300) for i in range(1000)]
    payload = _payload([_record(7, attributes)])
    reads = []
    original = _scan._UNPACK_U16_FROM
    monkeypatch.setattr(_scan, "_UNPACK_U16_FROM", lambda *a: reads.append(a) or original(*a))
    scan = _scan._scan_event_add(payload, False)
    assert scan is not None and len(reads) < 10
    stride = 3 + 200 + 2 + 300
    start = _attributes_start()
    assert list(scan.starts) == [start + k * stride for k in range(1000)]
    assert list(scan.values) == [start + k * stride + 3 + 200 for k in range(1000)]


def test_an_attribute_whose_value_length_differs_only_in_its_high_byte_ends_the_stride() -> None:
    # 20 attributes of a 2-byte id ending in a NUL and an empty value, but the 11th has a value of
    # 256 bytes: its length field's low byte (0) is the others', its high byte (1) is not
    attributes = [_attribute(0, b"k\x00", b"")] * 20
    attributes[10] = _attribute(0, b"k\x00", bytes(range(256)))
    payload = _payload([_record(7, attributes)])
    scan = scan_event_add(payload, False)
    assert scan is not None
    start = _attributes_start()
    starts = [start + 7 * k + (256 if k > 10 else 0) for k in range(20)]
    assert list(scan.starts) == starts
    assert list(scan.values) == [s + 3 + 2 for s in starts]
    assert scan.value_texts(0, 1) == [b""] * 10 + [bytes(range(256))] + [b""] * 9


# --- records alike but for their ids --------------------------------------------------------------


def test_alike_records_stop_at_a_record_that_differs_after_its_id() -> None:
    one = _record(5, [_attribute(1, b"a", b"b")])
    width = len(one)
    other = _record(6, [_attribute(1, b"a", b"c")])  # the same width, another value
    assert len(other) == width
    buf = _payload([one, _record(9, [_attribute(1, b"a", b"b")]), other])
    assert alike_records(buf, 2, width, 3) == 2
    assert alike_records(buf, 2 + width, width, 2) == 1  # the record after it differs
    assert alike_records(buf, 2 + 2 * width, width, 1) == 1


def test_the_ids_of_records_at_a_stride() -> None:
    records = [_record(actor, [], description=b"d") for actor in (0x01020304, 7, 0xFFFFFFFF)]
    width = len(records[0])
    buf = _payload(records)
    assert record_ids(buf, 2, width, 3) == [0x01020304, 7, 0xFFFFFFFF]
    assert record_ids(buf, 2 + width, width, 1) == [7]
    assert record_ids(buf, 2, width, 0) == []


def test_a_run_of_alike_records_ending_at_a_record_of_another_type() -> None:
    # records 1 to 3 alike but for their ids, record 4 of another actor type (the byte after the id)
    attribute = _attribute(3, b"role_name", b"hero")
    records = [_record(1, [attribute]), _record(2, [attribute]), _record(3, [attribute]),
               _record(4, [attribute], actor_type=5)]
    payload = _payload(records)
    scan = scan_event_add(payload, False)
    assert scan is not None
    width = len(records[0])
    assert [(r[0], r[1], r[2]) for r in scan.records] == [(2 + k * width, k + 1, 1 if k < 3 else 5) for k in range(4)]
    assert list(scan.starts) == [2 + k * width + FIXED + 2 + 9 + 2 for k in range(4)]
