"""The public Python API on NanoVer data: facts of its own layout and code (the behaviour every format shares is
tests/test_api.py's)."""

from __future__ import annotations

from hypothesis import given, settings

import recspec
from recspec.strategies import nanover_files


@settings(max_examples=10, deadline=None)
@given(nanover_files())
def test_a_nanover_kind_is_accepted_as_the_variant(drawn: tuple[bytes, str]) -> None:
    data, kind = drawn
    assert recspec.check(data, format="nanover", variant=kind).variant == kind
