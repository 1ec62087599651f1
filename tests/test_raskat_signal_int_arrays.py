"""The raSkat checker's C-loop test of an array of ints (``int_elements``: every element an ``int``,
not a ``bool``) agrees with the set of the elements' types it replaces, on drawn arrays and their
MessagePack encodings."""

from __future__ import annotations

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from recspec.reference.raskat_signal import int_elements

_ELEMENT = st.one_of(st.integers(-(2**15), 2**15 - 1), st.integers(-(2**63), 2**64 - 1), st.booleans(),
                     st.none(), st.floats(allow_nan=False), st.text(max_size=2), st.binary(max_size=2))


@given(st.lists(st.one_of(st.integers(-300, 300), _ELEMENT), max_size=40))
def test_int_elements_agrees_with_the_element_types(values: list[object]) -> None:
    array = tuple(values)
    encoded = msgpack.packb(array, use_bin_type=True)
    assert int_elements(array, encoded) == (set(map(type, array)) <= {int})
