"""The NanoVer wire walk (reference/nanover/_wire.py) after it read varints by arithmetic and long
lengths in a function of their own: a cut varint's counts, and the nesting limit (32 Struct or
ListValue levels, docs/formats/nanover.md NANOVER-LIMIT-002) where every length takes two bytes.
Written against the survivors tools/mutate.py found in the module when it was measured again."""

from __future__ import annotations

import pytest
from build_nanover import nested_structs
from google.protobuf import struct_pb2

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.errors import LimitExceeded, Truncated
from recspec.reference.nanover._wire import read_varint, scan


@pytest.mark.parametrize("cut", [b"\x80", b"\xff\xff", b"\x81\x80\x80"])
def test_a_varint_cut_at_the_end_needs_one_byte_and_has_none(cut: bytes) -> None:
    # every byte has its continuation bit set: one more byte is needed, and none is left
    with pytest.raises(Truncated) as e:
        read_varint(cut, 0, len(cut), base=100)
    assert (e.value.needed, e.value.available, e.value.offset) == (1, 0, 100)
    assert e.value.rule == "NANOVER-PROTO-001"


@pytest.mark.parametrize("n", [1 << k for k in range(64)] + [(1 << k) - 1 for k in range(1, 65)])
def test_every_seven_bit_group_is_read(n: int) -> None:
    # base-128, least significant group first, the high bit of every byte but the last set (by hand)
    groups = []
    x = n
    while True:
        groups.append(x & 0x7F)
        x >>= 7
        if not x:
            break
    encoded = bytes(g | 0x80 for g in groups[:-1]) + bytes([groups[-1]])
    assert read_varint(encoded + b"\x05", 0, len(encoded) + 1) == (n, len(encoded))


def _nested_long(depth: int) -> bytes:
    """A StateUpdate whose key holds ``depth`` Structs, each one key deep, around a 300-byte string:
    every Struct's length then takes two bytes (it is 128 or more)."""
    return nested_structs(depth, struct_pb2.Value(string_value="x" * 300))


def test_the_nesting_limit_holds_where_lengths_take_two_bytes() -> None:
    # changed_keys is a Struct itself: 31 more make 32 levels, the most allowed; one more is refused
    ok = _nested_long(31)
    assert scan(ok, 0, len(ok), "state").unknown == []
    deep = _nested_long(32)
    assert deep[1] & 0x80  # changed_keys' own length: two bytes
    with pytest.raises(LimitExceeded) as e:
        scan(deep, 0, len(deep), "state")
    assert (e.value.rule, e.value.maximum) == ("NANOVER-LIMIT-002", 32)


def test_map_entries_and_list_elements_past_max_values() -> None:
    # NANOVER-LIMIT-003: each map entry and list element counts; 3 keys against a limit of 2
    msg = pb.StateUpdate()
    for k in "abc":
        msg.changed_keys.fields[k].number_value = 1.0
    payload = msg.SerializeToString()
    assert scan(payload, 0, len(payload), "state", max_values=3).unknown == []
    with pytest.raises(LimitExceeded) as e:
        scan(payload, 0, len(payload), "state", max_values=2)
    assert (e.value.rule, e.value.value, e.value.maximum) == ("NANOVER-LIMIT-003", 3, 2)
