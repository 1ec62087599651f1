"""The NanoVer model (reference/nanover/_model.py): the layout's constants against the research
notes (section 1: an 8-byte magic ``e3 b7 89 99 c4 e3 71 5c``, a u64 version 2, records of a u128
timestamp and a u64 length), the UNSET singleton, and ``same_value``, decided case by case from its
documented meaning (NaN equals NaN, values of different types differ, how a frame was written is not
content). Written against the survivors tools/mutate.py found in the module."""

from __future__ import annotations

import copy
import math
import pickle
import struct

import pytest

from recspec.reference.nanover import (
    FORMAT_VERSION,
    HEADER_SIZE,
    MAGIC,
    RECORD_HEADER_SIZE,
    UNSET,
    Array,
    ArrayKind,
    Frame,
    Header,
    Record,
    StateUpdate,
    same_value,
)
from recspec.reference.nanover._model import _Unset

NAN = float("nan")


def test_the_layout_constants_are_the_notes() -> None:
    assert struct.pack("<Q", MAGIC) == bytes.fromhex("e3b78999c4e3715c")
    assert FORMAT_VERSION == 2
    assert HEADER_SIZE == len(struct.pack("<QQ", 0, 0)) == 16          # magic u64, version u64
    assert RECORD_HEADER_SIZE == len(struct.pack("<QQQ", 0, 0, 0)) == 24  # u128 timestamp, u64 length
    assert Header() == Header(MAGIC, 2)


def test_a_frame_without_an_index_is_frame_zero() -> None:
    # frame_index 0 is what an absent field reads as (proto3), and it means reset
    assert Frame().frame_index == 0
    assert Frame().values == {} and Frame().arrays == {}


def test_unset_is_one_object_that_survives_copy_and_pickle() -> None:
    assert UNSET is not None
    assert _Unset() is UNSET and _Unset() is _Unset()
    assert repr(UNSET) == "UNSET"
    assert pickle.loads(pickle.dumps(UNSET)) is UNSET
    assert copy.deepcopy([UNSET])[0] is UNSET


@pytest.mark.parametrize(("a", "b", "same"), [
    (1.0, 1.0, True),
    (1.0, 2.0, False),
    (NAN, NAN, True),
    (NAN, 1.0, False),
    (1.0, NAN, False),
    (1.0, 1, False),        # a number_value and an int (an index) are not the same value
    (1, 1.0, False),
    (True, 1, False),
    ("a", "a", True),
    ("a", "b", False),
    ("a", b"a", False),
    (None, None, True),
    (None, UNSET, False),
    (UNSET, UNSET, True),
    (3, 3, True),
    (3, 4, False),
])
def test_scalars(a: object, b: object, same: bool) -> None:
    assert same_value(a, b) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    ([1.0, 2.0], [1.0, 2.0], True),
    ((1.0, 2.0), (1.0, 2.0), True),
    ([1.0, 2.0], [1.0, 3.0], False),
    ([1.0], [2.0], False),
    ([1.0], [1.0, 1.0], False),
    ([1.0, 1.0], [1.0], False),
    ([], [], True),
    ((1.0,), [1.0], False),     # a tuple and a list: different types
    ([1], [True], False),       # equal under ==, but of other types
    ([1.0], [1], False),
    ([NAN, 2.0], [NAN, 2.0], True),
    ([NAN], [1.0], False),
    ([[NAN]], [[NAN]], True),
    ([{"a": NAN}], [{"a": NAN}], True),
])
def test_sequences(a: object, b: object, same: bool) -> None:
    assert same_value(a, b) is same


@pytest.mark.parametrize(("a", "b", "same"), [
    ({"a": 1.0}, {"a": 1.0}, True),
    ({"a": 1.0}, {"b": 1.0}, False),
    ({"a": 1.0}, {"a": 2.0}, False),
    ({"a": NAN}, {"a": NAN}, True),
    ({"a": 1.0}, {"a": 1.0, "b": 1.0}, False),
    ({}, {}, True),
])
def test_structs(a: object, b: object, same: bool) -> None:
    assert same_value(a, b) is same


def test_model_objects_compare_by_content_not_by_how_written() -> None:
    a = Frame(1, {"x": NAN}, {"p": Array(ArrayKind.FLOAT, (NAN, 1.0))})
    assert same_value(a, Frame(1, {"x": NAN}, {"p": Array(ArrayKind.FLOAT, (NAN, 1.0))})) is True
    # how the frame was written (its wire order, its unpacked arrays) is not content
    assert same_value(a, Frame(1, {"x": NAN}, {"p": Array(ArrayKind.FLOAT, (NAN, 1.0))},
                               order=("arrays/p", "values/x"), unpacked=("p",))) is True
    # content: the index, a value, an array's kind or values
    assert same_value(Frame(1, order=("values/x",)), Frame(2, order=("values/x",))) is False
    assert same_value(a, Frame(1, {"x": 1.0}, {"p": Array(ArrayKind.FLOAT, (NAN, 1.0))})) is False
    assert same_value(Array(ArrayKind.FLOAT, (1.0,)), Array(ArrayKind.INDEX, (1.0,))) is False
    assert same_value(Array(None, ()), Array(None, ())) is True
    assert same_value(StateUpdate({"k": NAN}, order=("k",)), StateUpdate({"k": NAN})) is True
    assert same_value(StateUpdate({"k": None}), StateUpdate({"k": 0.0})) is False
    assert same_value(Record(5, Frame(1)), Record(5, Frame(1))) is True
    assert same_value(Record(5, Frame(1)), Record(6, Frame(1))) is False
    assert same_value(Frame(1), StateUpdate()) is False
    assert math.isnan(NAN)
