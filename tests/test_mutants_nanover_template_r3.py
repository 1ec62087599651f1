"""Frame templates (conformance/nanover/_template.py) of the smallest frame: a frame_index and an empty
``frame`` field (08 varint, 12 00: GetFrameResponse fields 1 and 2, proto/recspec_nanover.proto), four
bytes for an index below 2^7. Such a frame, in the template frame's own order, is matched on its bytes
without a parse, as the module's docstring claims of every frame in that order; the payloads are written
by the protobuf runtime. Written against the survivors tools/mutate.py found in a fresh sample of the
module."""

from __future__ import annotations

import pytest

from recspec._pb import recspec_nanover_pb2 as pb
from recspec.conformance.nanover._template import FrameTemplate

LITERAL = frozenset({b"particle.count"})


class _NoParse:
    def ParseFromString(self, data: bytes) -> None:
        raise AssertionError("the template frame's order is matched without a parse")


def _empty_frame(index: int) -> bytes:
    m = pb.GetFrameResponse(frame_index=index)
    m.frame.SetInParent()
    return m.SerializeToString()


def test_the_runtime_writes_an_empty_frame_in_four_bytes() -> None:
    assert _empty_frame(7) == b"\x08\x07\x12\x00"


@pytest.mark.parametrize("index", [1, 9, 127, 128, 2**14, 2**32 - 1])
def test_an_empty_frame_in_the_templates_order_is_matched_without_a_parse(index: int) -> None:
    t = FrameTemplate.of(_empty_frame(7), LITERAL)
    assert t is not None
    t._new = _NoParse  # type: ignore[assignment]
    assert t.match(_empty_frame(index)) == index


def test_what_is_not_an_empty_frame_of_an_index_is_not_matched() -> None:
    t = FrameTemplate.of(_empty_frame(7), LITERAL)
    assert t is not None
    # frame 0 (no frame_index on the wire: a reset), a frame without its frame field, a frame with an entry
    assert t.match(_empty_frame(0)) is None
    assert t.match(pb.GetFrameResponse(frame_index=9).SerializeToString()) is None
    m = pb.GetFrameResponse(frame_index=9)
    m.frame.values["k"].number_value = 1.0
    assert t.match(m.SerializeToString()) is None
    assert t.match(_empty_frame(9)) == 9
