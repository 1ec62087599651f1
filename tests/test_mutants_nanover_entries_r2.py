"""The .state entries proof (conformance/nanover/_entries.py) after its templates' offsets were made by
arithmetic: updates whose entry is exactly 128 or 16,384 bytes long (its length varint two or three
bytes: the protobuf wire format), judged once a record template is made of them, with a number's tag
byte changed; keys of 128 bytes and more. Payloads by the protobuf runtime. Written against the
survivors tools/mutate.py found in the module when it was measured again."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from build_nanover import file_of, set_value, update
from google.protobuf import struct_pb2
from test_nanover_entries import assert_same_reports, report_json

from recspec.conformance.nanover._entries import StateEntries, number_holes


def _entry_len(key: str, x: Any) -> int:
    """The length of ``key``'s map entry (key field and Value field) as the runtime writes it."""
    s = struct_pb2.Struct()
    set_value(s.fields[key], x)
    data = s.SerializeToString()
    i = 1
    while data[i] & 0x80:
        i += 1
    return len(data) - i - 1


def _padded(number: float, entry_len: int) -> dict[str, Any]:
    """A Struct holding ``number`` and a string sized so that key "a"'s entry is ``entry_len`` bytes."""
    for m in range(entry_len):
        v = {"p": number, "s": "x" * m}
        if _entry_len("a", v) == entry_len:
            return v
    raise AssertionError(entry_len)


@pytest.mark.parametrize("entry_len", [127, 128, 129, 16383, 16384, 16385])
def test_a_templated_update_with_a_numbers_tag_changed_is_not_proved(entry_len: int) -> None:
    history = [update({"a": _padded(float(i), entry_len), "n": float(i)}) for i in (1, 2, 3, 4)]
    assert len({len(p) for p in history}) == 1
    entries = StateEntries()
    assert [entries.judge(p, set()) for p in history] == [{"a": True, "n": True}] * 4
    last = update({"a": _padded(5.0, entry_len), "n": 5.0})
    # key "n"'s entry is the payload's last: 0a 01 6e | 12 09 | 11 <8>, its tag 0x11 nine bytes from the end
    assert last[-9] == 0x11 and last[-14:-11] == b"\x0a\x01n"
    for tag in (0x79, 0x10):  # field 15 (fixed64): unknown; field 2 as a varint: another wire type
        changed = last[:-9] + bytes((tag,)) + last[-8:]
        assert entries.judge(changed, {"a", "n"}) is None
        assert entries.judge(last, {"a", "n"}) == {"a": True, "n": True}
    data = file_of([*history, last[:-9] + b"\x79" + last[-8:]])
    assert_same_reports(data)
    assert "NANOVER-PROTO-003" in report_json(data, entries=True)
    # inside key "a": "p"'s number (11 <8>), then "s"'s map entry, whose tag 0a made 0b (a group)
    after = last.index(b"\x11" + struct.pack("<d", 5.0)) + 9
    assert last[after] == 0x0A
    group = last[:after] + b"\x0b" + last[after + 1:]
    assert entries.judge(group, {"a", "n"}) is None
    assert_same_reports(file_of([*history, group]))


@pytest.mark.parametrize("length", [128, 130, 200, 300])
def test_long_keys_alike_but_for_their_first_letter(length: int) -> None:
    # keys of 128 bytes or more (their length varint two bytes: 0x80 | low, high) that differ only in their
    # first letter, each given a number, then the second deleted: it is held, so no NANOVER-STATE-001
    first, second = "a" * length, "b" + "a" * (length - 1)
    payloads = [update({first: 1.0}), update({second: 2.0}), update({second: None})]
    # changed_keys (0a, 2-byte length), its entry (0a, 2-byte length), then the key field
    assert payloads[0][6:9] == bytes((0x0A, 0x80 | length & 0x7F, length >> 7))
    data = file_of(payloads)
    assert_same_reports(data)
    assert "NANOVER-STATE-001" not in report_json(data, entries=True)
    assert '"state_keys": 1' in report_json(data, entries=True)


def test_number_holes_after_lengths_of_128() -> None:
    # {"a": "x" * m, "b": 1.5}: "b" is the last entry (sorted keys), so its number is the entry's last
    # 8 bytes, after its tag 0x11; m runs the inner lengths across 128 (varint 80 01, two bytes)
    for m in range(100, 140):
        s = struct_pb2.Struct()
        set_value(s.fields["k"], {"a": "x" * m, "b": 1.5})
        data = s.SerializeToString(deterministic=True)  # map entries in key order
        e = data[2:] if data[1] < 0x80 else data[3:]
        assert e[-9] == 0x11
        assert number_holes(e) == [len(e) - 8], m
