"""The public codec of the CARLA reference: the surface every format's reference
has (``recspec.formats.ReferenceCodec``).

A CARLA log does not name the release that wrote it (the header's version is 1
for all of them), so ``variant`` is required here; ``recspec.check`` detects it
from the packets instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from recspec.errors import UsageError, public_boundary

from . import _decode, _encode
from ._model import Packet, Recording
from ._variants import VARIANTS, Variant

__all__ = ["UNIT", "decode", "encode", "iter_packets", "iter_units"]

UNIT = "packet"


def _variant(variant: str | Variant | None) -> Variant:
    if isinstance(variant, Variant):
        return variant
    if variant is None:
        raise UsageError("a CARLA log does not name the release that wrote it: pass variant=",
                         f"one of {', '.join(VARIANTS)}; recspec.check() detects it from the packets")
    try:
        return VARIANTS[variant]
    except KeyError:
        raise UsageError(f"carla has no variant {variant!r}", f"choose one of: {', '.join(VARIANTS)}") from None


@public_boundary
def decode(data: bytes, *, variant: str | Variant | None = None) -> Recording:
    """A whole log held in memory; :class:`recspec.errors.DecodeError` (located) at the first fault."""
    return _decode.decode(data, _variant(variant))


@public_boundary
def encode(model: Recording, *, variant: str | Variant | None = None) -> bytes:
    """The canonical bytes of ``model`` under ``variant``; :class:`recspec.errors.EncodeError`
    when the model does not fit the layout."""
    return _encode.encode(model, _variant(variant))


@public_boundary
def iter_packets(f: BinaryIO, *, variant: str | Variant | None = None, size: int | None = None) -> Iterator[Packet]:
    """Every packet of a log file (``f`` at its start), streamed in constant memory."""
    yield from _decode.iter_packets(f, _variant(variant), size)


iter_units = iter_packets
