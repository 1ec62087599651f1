"""Reference reader and writer for Matrix-SMT recordings (one BSON document).

Two layers: ``_bson`` is BSON itself, walked by hand (values, one type table, a
strict decoder that reports byte offsets, an encoder), and ``_walker`` has
:class:`RecordingWalker`, which streams the frames of a file without building
the whole document; ``_model`` and ``_codec`` are the typed recording (objects,
frames, states, debug commands) and its mapping to BSON under the two profiles
(``spec``: the document; ``compat``: what the producer's one public file does).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded on first use, by __getattr__ below
    from ._case import CASE_TOLERANCE_CHECKS, CASE_TOLERANCES, case_schema, from_case, to_case
from ._api import UNIT, decode, encode, iter_frames, iter_units
from ._bson import *  # noqa: F403 - the BSON layer is part of the public surface
from ._bson import __all__ as _bson_all
from ._codec import (
    CMD_DEFAULTS,
    PROFILES,
    ModelError,
    frame_document,
    from_document,
    object_document,
    read_frame,
    to_document,
)
from ._model import *  # noqa: F403 - the model is part of the public surface
from ._model import __all__ as _model_all
from ._walker import *  # noqa: F403 - the streaming walk is part of the public surface
from ._walker import __all__ as _walker_all

__all__ = [*_bson_all, *_walker_all, *_model_all,
    "CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "CMD_DEFAULTS", "PROFILES", "UNIT", "ModelError",
    "case_schema", "decode", "encode", "frame_document", "from_case", "from_document", "iter_frames",
    "iter_units", "object_document", "read_frame", "to_case", "to_document"]


#: The case codec (``recspec case``, ``encode``, ``drive``) loads on first use: a check never needs it, and its
#: import (with ``recspec._case_json``) was a few ms of every check's start-up.
_CASE_NAMES = frozenset({"CASE_TOLERANCE_CHECKS", "CASE_TOLERANCES", "case_schema", "from_case", "to_case"})


def __getattr__(name: str) -> object:
    if name in _CASE_NAMES:
        from . import _case

        return getattr(_case, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
