"""Reference reader and writer for Matrix-SMT recordings (one BSON document).

Two layers: ``_bson`` is BSON itself, walked by hand (values, one type table, a
strict decoder that reports byte offsets, an encoder), and ``_walker`` has
:class:`RecordingWalker`, which streams the frames of a file without building
the whole document; ``_model`` and ``_codec`` are the typed recording (objects,
frames, states, debug commands) and its mapping to BSON under the two profiles
(``spec``: the document; ``compat``: what the producer's one public file does).
"""

from typing import BinaryIO, Iterator

from ._bson import *  # noqa: F403 - the BSON layer is part of the public surface
from ._bson import __all__ as _bson_all
from ._codec import CMD_DEFAULTS, PROFILES, ModelError, decode, encode, from_document, read_frame, to_document
from ._model import *  # noqa: F403 - the model is part of the public surface
from ._model import __all__ as _model_all
from ._walker import *  # noqa: F403 - the streaming walk is part of the public surface
from ._walker import __all__ as _walker_all

__all__ = [*_bson_all, *_walker_all, *_model_all, "CMD_DEFAULTS", "PROFILES", "ModelError", "decode", "encode",
           "from_document", "read_frame", "to_document", "iter_frames"]


def iter_frames(f: BinaryIO) -> Iterator[Frame]:  # noqa: F405 - Frame comes from the model
    """Stream the frames of a recording file as typed :class:`Frame` objects, one at
    a time, in memory that does not grow with the file (``f``: a seekable binary file).

    Raises :class:`recspec.errors.DecodeError` (located) on bytes that are not a
    recording; ``recspec.conformance.matrix_smt.check_stream`` judges a file instead."""
    walker = RecordingWalker(f)  # noqa: F405
    for section in walker.sections():
        if section.key == "frames" and section.type_code == 4:
            for entry in walker.entries(section):
                yield read_frame(entry.value, f"frames[{entry.index}]")
            return
