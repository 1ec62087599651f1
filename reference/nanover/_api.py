"""The public codec of the NanoVer reference: the surface every format's reference
has (``recspec.formats.ReferenceCodec``).

The variant is the recording's kind, ``"traj"`` or ``"state"``: the bytes do not
say which (the file extension does), so it is required for decoding; encoding
takes it from the model.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from recspec.errors import EncodeError, UsageError, public_boundary

from . import _codec
from ._model import Kind, Record, Recording

__all__ = ["UNIT", "decode", "encode", "iter_records", "iter_units"]

UNIT = "record"


def _kind(variant: str | Kind | None) -> Kind:
    if isinstance(variant, Kind):
        return variant
    if variant is None:
        raise UsageError("a NanoVer recording does not name its kind: pass variant='traj' or 'state'",
                         "recspec.check() detects it from the extension or the records")
    try:
        return Kind(variant)
    except ValueError:
        raise UsageError(f"nanover has no variant {variant!r}", "choose one of: traj, state") from None


@public_boundary
def decode(data: bytes, *, variant: str | Kind | None = None) -> Recording:
    """A whole recording held in memory; :class:`recspec.errors.DecodeError` (located) at the first fault."""
    return _codec.decode(data, _kind(variant))


@public_boundary
def encode(model: Recording, *, variant: str | Kind | None = None) -> bytes:
    """The canonical bytes of ``model`` (its kind is the model's; ``variant``, if given, must agree)."""
    if variant is not None and _kind(variant) is not model.kind:
        raise EncodeError(f"the recording holds {model.kind.value} records, not {_kind(variant).value}")
    return _codec.encode(model)


@public_boundary
def iter_records(f: BinaryIO, *, variant: str | Kind | None = None, size: int | None = None) -> Iterator[Record]:
    """Every record of a recording file (``f`` at its start), streamed; memory is bounded by the largest payload."""
    yield from _codec.iter_records(f, _kind(variant), size)


iter_units = iter_records
