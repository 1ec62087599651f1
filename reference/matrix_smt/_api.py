"""The public codec of the Matrix-SMT reference: the surface every format's
reference has (``recspec.formats.ReferenceCodec``).

The format has one layout, so ``variant`` must be ``None``; how numbers and the
frame time are written is the encoder's ``profile`` (``spec``: the document;
``compat``: what the producer's public file does).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import BinaryIO

from recspec.errors import UsageError, public_boundary

from . import _codec
from ._bson import T_ARRAY, decode_document, encode_document
from ._model import Frame, Recording
from ._walker import RecordingWalker

__all__ = ["UNIT", "decode", "encode", "iter_frames", "iter_units"]

UNIT = "frame"


def _no_variant(variant: str | None) -> None:
    if variant is not None:
        raise UsageError("matrix-smt has no variants (it has one layout)", "leave out variant=")


@public_boundary
def decode(data: bytes, *, variant: str | None = None) -> Recording:
    """The typed recording in ``data`` (strict BSON; lenient recording);
    :class:`recspec.errors.DecodeError` (located) when it is not one."""
    _no_variant(variant)
    doc = decode_document(data)
    rec = _codec.from_document(doc)
    # The producer's form sorts keys, so its first top-level key is "frames" (the document's is "objects").
    form = "compat" if data[5:12] == b"frames\0" else "spec"
    canonical = _codec.to_document(rec, form)
    if encode_document(canonical) == data:
        return replace(rec, form="compat") if form == "compat" else rec
    # A writer may store some numbers as another type than the form (a whole number as int32 in a spec
    # file): recorded when that is all that differs, so the encoder writes the same bytes.
    numbers = _codec.number_types(doc, canonical)
    if numbers:
        rec = replace(rec, form=None if form == "spec" else form, numbers=tuple(numbers))
    return rec


@public_boundary
def encode(model: Recording, *, variant: str | None = None, profile: str | None = None) -> bytes:
    """The canonical bytes of ``model`` under ``profile`` (``spec`` or ``compat``; by default the
    model's ``form``, which ``decode`` and a lossless case set, else ``spec``)."""
    _no_variant(variant)
    return _codec.encode(model, profile or model.form or "spec")


@public_boundary
def iter_frames(f: BinaryIO, *, variant: str | None = None) -> Iterator[Frame]:
    """Stream the frames of a recording file as typed :class:`Frame` objects, one at
    a time, in memory that does not grow with the file (``f``: a seekable binary file).

    Raises :class:`recspec.errors.DecodeError` (located) on bytes that are not a
    recording; ``recspec.check`` judges a file instead."""
    _no_variant(variant)
    walker = RecordingWalker(f)
    for section in walker.sections():
        if section.key == "frames" and section.type_code == T_ARRAY:
            for entry in walker.entries(section):
                yield _codec.read_frame(entry.value, f"frames[{entry.index}]")
            return


iter_units = iter_frames
