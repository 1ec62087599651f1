"""The .state entries proof (conformance/nanover/_entries.py) against the slow path: a state update
the proof takes must be one the record path finds nothing in, with the same keys, and the ways it
takes them (an entry alone, by a value shape with new numbers, as a deletion of a held key, the whole
payload by the previous one's template) are checked on updates the protobuf runtime serialises.
Every payload changed one byte at a time outside its numbers gives the reports of the record path
(check_stream with and without the proof). Offsets of numbers come from the wire format (a Value's
number_value is field 2, fixed64: tag 0x11 and 8 bytes). Written against the survivors
tools/mutate.py found in the module."""

from __future__ import annotations

import json
import struct
from typing import Any

import pytest
from build_nanover import entry, file_of, update
from google.protobuf import struct_pb2
from test_nanover_entries import assert_same_reports, report_json

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance.nanover import _entries
from recspec.conformance.nanover._entries import MAX_TEMPLATES, StateEntries, number_holes, value_has_unset
from recspec.reference.nanover import CLEAN_MAX_PAYLOAD, MAX_VALUES


def no_parse(*_: Any) -> Any:
    raise AssertionError("parsed: not proved by a shape or a template")


# --- number_holes: the offsets of the numbers, from the wire format --------------------------


@pytest.mark.parametrize(("x", "holes"), [
    (1.5, [6]),              # 0a 01 6b | 12 09 | 11 <8>
    (None, []),              # 0a 01 6b | 12 02 | 08 00
    (True, []),              # ... 12 02 | 20 01
    ("s", []),               # ... 12 03 | 1a 01 73
    ({"p": 2.0}, [15]),      # ... 12 12 | 2a 10 | 0a 0e | 0a 01 70 | 12 09 | 11 <8>
    ([1.0, 2.0], [10, 21]),  # ... 12 18 | 32 16 | 0a 09 11 <8> | 0a 09 11 <8>
    # ... 12 L | 32 L | 0a L | 2a L | 0a L | 0a 01 71 | 12 L | 32 L | 0a 09 | 11 <8> (offset 23) | 0a 03 1a 01 74
    ([{"q": [3.0]}, "t"], [23]),
])
def test_number_holes_are_the_number_values_8_bytes(x: Any, holes: list[int]) -> None:
    e = entry("k", x)
    assert number_holes(e) == holes
    assert all(e[h - 1] == 0x11 for h in holes)  # each after a number_value's tag (field 2, fixed64)


def test_number_holes_of_entries_it_cannot_read_is_none() -> None:
    e = entry("k", 1.5)
    assert number_holes(e[:-1]) is None                # the number cut short
    assert number_holes(e[:3] + b"\x12\x0a" + e[5:]) is None  # the value's length past the entry
    assert number_holes(e + b"\x78\x01") is None       # an unknown field (15)


# --- judge: what it proves, and how -----------------------------------------------------------


def test_an_update_proved_alone_then_by_shapes_then_by_the_template(monkeypatch: pytest.MonkeyPatch) -> None:
    avatar = {"name": "user 0", "pos": [0.5, 1.0, 2.0], "on": True}
    u = [update({"a": dict(avatar, pos=[i, i + 1.0, -i]), "n": float(i)}) for i in (1.0, 2.0, 3.0, 4.0)]
    entries = StateEntries()
    assert entries.judge(u[0], set()) == {"a": True, "n": True}  # alone
    with monkeypatch.context() as m:
        m.setattr(_entries, "parse_clean", no_parse)
        assert entries.judge(u[1], {"a", "n"}) == {"a": True, "n": True}  # by each key's shape
        m.setattr(entries, "_new", no_parse)
        assert entries.judge(u[2], {"a", "n"}) == {"a": True, "n": True}  # the template of u[1]
        assert entries.judge(u[3], {"a", "n"}) == {"a": True, "n": True}
    # a new key with a shape proved before, and a key of two letters
    with monkeypatch.context() as m:
        m.setattr(_entries, "parse_clean", no_parse)
        assert entries.judge(update({"bc": 7.0}), {"a", "n"}) == {"bc": True}
    # a key whose value's shape changes is proved alone again
    assert entries.judge(update({"a": "gone away"}), {"a"}) == {"a": True}


def test_a_key_whose_value_changes_length_is_proved_by_its_shape_at_that_length(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A list that grows and shrinks (an interaction's particles) gives its key's entry a new length each
    update: the key keeps the shape it had at each length and tries the one of the entry's length, with no
    search of the value shapes and no parse. An entry of that length whose other bytes changed is not taken."""
    entries = StateEntries()
    short, long = update({"i": [1.0, 2.0]}), update({"i": [1.0, 2.0, 3.0]})
    assert entries.judge(short, set()) == {"i": True}  # alone
    assert entries.judge(long, {"i"}) == {"i": True}   # alone: a new value length
    with monkeypatch.context() as m:  # by the value shapes of each length, which the key keeps
        m.setattr(_entries, "parse_clean", no_parse)
        assert entries.judge(update({"i": [3.0, 4.0]}), {"i"}) == {"i": True}
        assert entries.judge(update({"i": [3.0, 4.0, 5.0]}), {"i"}) == {"i": True}
    with monkeypatch.context() as m:
        m.setattr(_entries, "parse_clean", no_parse)
        entries._shapes.clear()  # no value shape to search: only the key's own shapes
        assert entries.judge(update({"i": [5.0, 6.0]}), {"i"}) == {"i": True}
        assert entries.judge(update({"i": [5.0, 6.0, 7.0]}), {"i"}) == {"i": True}
        assert entries.judge(update({"i": [8.0, 9.0]}), {"i"}) == {"i": True}
    # a string in the list: proved alone; the same with other letters (of its length) is not the key's shape
    assert entries.judge(update({"i": [1.0, "ab"]}), {"i"}) == {"i": True}
    with monkeypatch.context() as m:
        m.setattr(_entries, "parse_clean", no_parse)
        entries._shapes.clear()
        with pytest.raises(AssertionError, match="parsed"):
            entries.judge(update({"i": [1.0, "ba"]}), {"i"})


def test_the_shapes_kept_per_key_length_are_bounded_in_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys' shapes per length hold two integers of their entry's size each: past _LENGTHS_KEPT_BYTES
    of entries no more are kept (the value shapes still prove the entries), and the budget comes back when
    the keys are dropped."""
    monkeypatch.setattr(_entries, "_LENGTHS_KEPT_BYTES", 40)
    entries = StateEntries()
    # entries of 7 + 11 k bytes: the key field (0a 01 69), the value field's tag and length, a list_value's,
    # and an element (0a 09 11, 8 bytes) per number: 18, 29 and 40
    lists = [[1.0], [1.0, 2.0], [1.0, 2.0, 3.0]]
    for values in lists:
        assert entries.judge(update({"i": values}), set()) == {"i": True}  # alone
    for values in lists:
        assert entries.judge(update({"i": [x + 5.0 for x in values]}), {"i"}) == {"i": True}  # by the value shapes
    assert sorted(entries._names[b"\x0a\x01i"][4]) == [18]  # 18 + 29 > 40: the others are not kept
    assert entries._lengths_kept == 18
    for values in lists:  # the entries of lengths not kept are still proved, by the value shapes
        assert entries.judge(update({"i": [x + 9.0 for x in values]}), {"i"}) == {"i": True}
    monkeypatch.setattr(_entries, "MAX_TEMPLATES", 1)
    assert entries.judge(update({"j": 2.0}), {"i"}) == {"j": True}  # a new key past the bound: all dropped
    assert entries._lengths_kept == 0


def test_a_deletion_is_proved_only_for_a_held_key() -> None:
    entries = StateEntries()
    p = update({"a": None, "b": 1.0})
    assert entries.judge(p, {"a"}) == {"a": None, "b": True}
    assert entries.judge(p, {"a"}) == {"a": None, "b": True}  # the same length again: no template kept
    assert entries.judge(p, {"b"}) is None
    assert entries.judge(update({"c": None}), set()) is None


def test_a_numbers_bytes_that_spell_a_value_of_no_kind_are_still_a_number() -> None:
    # a double whose bytes hold 0a 00 and 12 00, as an empty list element or map value is written
    x = struct.unpack("<d", b"\x0a\x00\x12\x00\x01\x02\x03\x40")[0]
    assert StateEntries().judge(update({"k": x, "l": [x, {"m": x}]}), set()) == {"k": True, "l": True}


@pytest.mark.parametrize("around", [0x80, 0x4000])
def test_updates_whose_lengths_cross_the_varint_edges_are_proved(around: int) -> None:
    # a string value of each length near the edge: the string's, the Value's, the entry's and the
    # Struct's length varints each go from one byte to two (0x80) or from two to three (0x4000)
    for n in range(around - 16, around + 2):
        assert StateEntries().judge(update({"k": "x" * n}), set()) == {"k": True}, n


def test_the_template_does_not_take_a_deletion_of_a_key_no_longer_held() -> None:
    entries = StateEntries()
    p1, p2 = update({"a": 1.0, "b": None}), update({"a": 2.0, "b": None})
    assert entries.judge(p1, {"a", "b"}) == {"a": True, "b": None}
    assert entries.judge(p2, {"a", "b"}) == {"a": True, "b": None}
    assert entries.judge(p2, {"a"}) is None


def test_a_known_key_with_a_value_of_another_structure_is_not_taken() -> None:
    entries = StateEntries()
    assert entries.judge(update({"a": 1.0}), set()) == {"a": True}
    good = entry("a", 2.0)
    # the same length, the number's tag 0x11 (field 2) made field 15: a Value of no kind, and an unknown field
    bad = good[:5] + b"\x79" + good[6:]
    assert len(bad) == len(good)
    payload = b"\x0a" + bytes((len(bad) + 2,)) + b"\x0a" + bytes((len(bad),)) + bad
    assert entries.judge(payload, {"a"}) is None
    assert_same_reports(file_of([update({"a": 1.0}), update({"a": 3.0}), payload]))


def test_the_key_template_keeps_the_key_fields_bytes() -> None:
    entries = StateEntries()
    p1, p2 = update({"a": 1.0, "b": 2.0}), update({"a": 3.0, "b": 4.0})
    assert entries.judge(p1, set()) == {"a": True, "b": True}
    assert entries.judge(p2, {"a", "b"}) == {"a": True, "b": True}
    # payload: 0a L (changed_keys) | 0a L (Struct entry) | 0a 01 61 (key "a") 12 09 11 <8> | 0a L | 0a 01 62 ...
    assert p2[2] == p2[4] == 0x0A and p2[6] == ord("a")
    for at, byte in ((2, 0x0B), (4, 0x0B), (4, 0x1A)):  # a group, or field 3, where a tag 0a stands
        odd = bytearray(p2)
        odd[at] = byte
        assert entries.judge(bytes(odd), {"a", "b"}) is None
        assert entries.judge(p2, {"a", "b"}) == {"a": True, "b": True}
    # the same update of key "c" for "a": the template of p2 must not give the old key
    renamed = bytearray(p2)
    renamed[6] = ord("c")
    assert entries.judge(bytes(renamed), {"a", "b"}) == {"c": True, "b": True}


def _history() -> list[bytes]:
    avatar = {"name": "user 0", "pos": [0.5, 1.0, 2.0], "on": True}
    first = update({"a": avatar, "n": 0.0, "z": "s", "gone": None})
    return [first, *(update({"a": dict(avatar, pos=[i, 1.0, 2.0]), "n": i}) for i in (1.0, 2.0, 3.0))]


def test_each_byte_of_an_update_changed_gives_the_record_paths_reports() -> None:
    """After updates that make shapes and a template, the last update with one byte changed (every byte
    outside its numbers, a few ways): the checker with the proof reports what it reports without."""
    history = _history()
    entries = StateEntries()
    assert [entries.judge(p, {"gone"}) is not None for p in history] == [True] * 4  # the last by the template
    last = history[-1]
    holes = set()
    for i in range(len(last) - 8):
        if last[i] == 0x11:
            holes.update(range(i + 1, i + 9))
    tried = 0
    for i in range(len(last)):
        if i in holes:
            continue
        for xor in (0x01, 0x80):
            changed = bytearray(last)
            changed[i] ^= xor
            tried += 1
            assert_same_reports(file_of([*history, bytes(changed)]))
    assert tried > 60


def test_the_keys_and_shapes_kept_are_bounded() -> None:
    # keys: a new key each time, all of one value shape
    entries = StateEntries()
    most = 0
    for n in range(MAX_TEMPLATES + 2):
        assert entries.judge(update({f"k{n:05}": "x"}), set()) == {f"k{n:05}": True}
        most = max(most, len(entries._names))
    assert most == MAX_TEMPLATES
    # shapes: one key, a value of a new length each time, then a new key
    entries = StateEntries()
    most = 0
    for n in range(MAX_TEMPLATES + 1):
        key = "k" if n < MAX_TEMPLATES else "j"
        assert entries.judge(update({key: "x" * n}), set()) == {key: True}
        most = max(most, len(entries._shapes))
    assert most == MAX_TEMPLATES


def _rules(data: bytes, *, entries: bool) -> list[str]:
    return [f["rule"] for f in json.loads(report_json(data, entries=entries))["files"][0]["findings"]]


def _one(key: bytes, value_field: bytes) -> bytes:
    e = b"\x0a" + bytes((len(key),)) + key + value_field
    inner = b"\x0a" + bytes((len(e),)) + e
    return b"\x0a" + bytes((len(inner),)) + inner


def _unset_inside() -> list[tuple[bytes, struct_pb2.Value]]:
    out = []
    m = pb.StateUpdate()
    v = m.changed_keys.fields["k"]
    v.list_value.values.add().number_value = 1.0
    v.list_value.values.add()  # a list element of no kind
    out.append((m.SerializeToString(), v))
    m = pb.StateUpdate()
    v = m.changed_keys.fields["s"]
    v.struct_value.fields["b"].number_value = 2.0
    v.struct_value.fields["a"].SetInParent()  # a Struct field of no kind
    out.append((m.SerializeToString(), v))
    m = pb.StateUpdate()
    v = m.changed_keys.fields["n"]
    v.list_value.values.add().struct_value.fields["c"].list_value.values.add()  # deeper
    out.append((m.SerializeToString(), v))
    return out


def test_a_value_of_no_kind_below_the_top_is_never_proved() -> None:
    """NANOVER-PROTO-005 (every Value has its member set) for a list element or a Struct field of no kind:
    the rule fires with the proof on and off (the two share value_has_unset, so the rule id is the oracle)."""
    for payload, value in _unset_inside():
        assert value_has_unset(value)
        assert StateEntries().judge(payload, set()) is None
        data = file_of([payload])
        assert "NANOVER-PROTO-005" in _rules(data, entries=True)
        assert "NANOVER-PROTO-005" in _rules(data, entries=False)
    ok = pb.StateUpdate()
    ok.changed_keys.fields["k"].list_value.values.add().struct_value.fields["c"].bool_value = False
    assert not value_has_unset(ok.changed_keys.fields["k"])


def test_a_null_written_another_way_deletes_only_a_held_key() -> None:
    # null_value 1: proto3 enums are open, so the Value's kind is null_value (a deletion), not 12 02 08 00
    payload = _one(b"gone", b"\x12\x02\x08\x01")
    assert StateEntries().judge(payload, set()) is None
    assert StateEntries().judge(payload, {"gone"}) == {"gone": None}
    assert _rules(file_of([payload]), entries=True) == ["NANOVER-STATE-001"]


def test_a_new_key_of_127_bytes_is_proved() -> None:
    entries = StateEntries()
    assert entries.judge(update({"k": 1.0}), set()) == {"k": True}
    key = "x" * 127  # the largest key whose length is one byte
    assert entries.judge(update({key: 2.0}), set()) == {key: True}


def test_the_template_keeps_the_bytes_of_an_entry_off_its_keys_shape() -> None:
    """A key's last shape is a number (14-byte entry); a string entry of the same length does not match it,
    so the payload template keeps the string's bytes: a string made invalid UTF-8 is not taken."""
    entries = StateEntries()
    for x in (1.0, 2.0):
        assert entries.judge(update({"a": x}), set()) == {"a": True}
    s1, s2 = update({"a": "abcdefg"}), update({"a": "abcdefh"})
    assert len(entry("a", "abcdefg")) == len(entry("a", 1.0)) == 14
    assert entries.judge(s1, {"a"}) == {"a": True}
    assert entries.judge(s2, {"a"}) == {"a": True}
    bad = s2[:-7] + b"\xff" * 7
    assert entries.judge(bad, {"a"}) is None
    assert_same_reports(file_of([update({"a": 1.0}), update({"a": 2.0}), s1, s2, bad]))


def test_a_payload_of_clean_max_payload_bytes_or_more_is_never_proved() -> None:
    """Such a payload may hold more values than MAX_VALUES (NANOVER-LIMIT-003), which only the walk
    counts: three entries of 100,000 booleans each (4 bytes a list element) are 300,003 values."""
    m = pb.StateUpdate()
    for k in "abc":
        values = m.changed_keys.fields[k].list_value.values
        for _ in range(100_000):
            values.add().bool_value = True
    payload = m.SerializeToString()
    assert len(payload) >= CLEAN_MAX_PAYLOAD and MAX_VALUES < 3 * 100_000 + 3
    assert StateEntries().judge(payload, set()) is None
