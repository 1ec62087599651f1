"""What the NanoVer walk keeps between records (conformance/nanover/_bounds.py): an array's shape
(its length, and for the four index arrays of the frame rules its largest element, -1 when empty),
and README's state-key limit, 65,536 keys (NANOVER-LIMIT-004 past it), tried at its edge with
StateUpdate records written by hand. Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import struct

import pytest
from test_limits_units import _finding
from test_nanover_limits_units import _NANOVER_HEADER, _state_record

import recspec
from recspec.conformance.nanover._bounds import INDEX_ARRAYS, shape
from recspec.report import Verdict


def test_the_index_arrays_are_the_frame_rules() -> None:
    # NANOVER-FRAME-001..003 compare these arrays' largest index with a count
    assert {"bond.pairs", "forces.user.index", "particle.residues", "residue.chains"} == INDEX_ARRAYS


@pytest.mark.parametrize("key", ["bond.pairs", "forces.user.index", "particle.residues", "residue.chains"])
def test_an_index_arrays_shape_keeps_its_length_and_largest_index(key: str) -> None:
    s = shape(key, [3, 9, 0, 1])
    assert len(s) == 4 and s.maximum == 9
    s = shape(key, [0])
    assert len(s) == 1 and s.maximum == 0
    s = shape(key, [])
    assert len(s) == 0 and s.maximum == -1


@pytest.mark.parametrize("key", ["particle.positions", "particle.elements", "bond.orders", "x"])
def test_another_arrays_shape_keeps_its_length_only(key: str) -> None:
    s = shape(key, [3, 9, 0, 1])
    assert len(s) == 4 and s.maximum == -1
    assert len(shape(key, [])) == 0 and shape(key, []).maximum == -1


def test_the_state_key_limit_is_65536_keys() -> None:
    """README, "Limits": 65,536 live state keys; a state that holds more is NANOVER-LIMIT-004 at the
    record that brings it past them, and a deletion of a missing key after it is no longer judged."""
    per = 8192
    records = [_state_record(i + 1, [b"r%02dk%05d" % (i, j) for j in range(per)]) for i in range(8)]
    assert 8 * per == 65_536
    # StateUpdate{changed_keys: Struct{fields: {"nothing": Value{null_value: 0}}}}: deletes a missing key
    delete = b"\x0a\x0f" b"\x0a\x0d" b"\x0a\x07nothing" b"\x12\x02\x08\x00"
    gone = struct.pack("<QQQ", 999, 0, len(delete)) + delete
    at_limit = recspec.check(_NANOVER_HEADER + b"".join(records) + gone, format="nanover", variant="state",
                             cross_check=False)
    assert not [f for f in at_limit.findings if f.rule == "NANOVER-LIMIT-004"], at_limit.findings
    assert _finding(at_limit, "NANOVER-STATE-001").path == "record[8]/changed_keys['nothing']"  # still judged
    one_more = _state_record(100, [b"one more"])
    past = recspec.check(_NANOVER_HEADER + b"".join(records) + one_more + gone, format="nanover",
                         variant="state", cross_check=False)
    assert _finding(past, "NANOVER-LIMIT-004").path == "record[8]"
    assert not [f for f in past.findings if f.rule == "NANOVER-STATE-001"]
    assert past.verdict is Verdict.VALID
