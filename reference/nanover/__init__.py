"""Reference encoder and decoder for NanoVer recordings (``.traj`` / ``.state``, version 2).

Public surface: the model (``Frame``, ``StateUpdate``, ``Array``, ``ArrayKind``,
``Record``, ``Recording``, ``Header``, ``Kind``, ``UNSET``), the framing
(``RecordReader`` streams records in constant memory; ``read_header``,
``decode_header``, ``encode_header``, ``encode_record``), the payloads through
the protobuf messages (``decode_payload``, ``encode_payload``, ``parse_frame``,
``frame_from_message``, ...), the wire walk (``scan``) and its fast path
(``parse_clean``, ``wire_verdict``), whole recordings (``decode(data, *,
variant)``, ``encode(model)``, ``iter_records(f, *, variant)`` with
``variant`` the kind, ``traj`` or ``state``; ``RecordingWriter``) and the
aggregation semantics (``FrameAggregate``, ``StateAggregate``, ``merged``).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded on first use, by __getattr__ below
    from ._case import CASE_TOLERANCE_CHECKS, CASE_TOLERANCES, case_schema, from_case, to_case
from ._aggregate import FrameAggregate, StateAggregate, merged
from ._api import UNIT, decode, encode, iter_records, iter_units
from ._codec import RecordingWriter, decode_payload, encode_payload, kind_from_path
from ._framing import (
    MAX_PAYLOAD_SIZE,
    RawRecord,
    RecordReader,
    decode_header,
    encode_header,
    encode_record,
    looks_like_version_1,
    read_header,
)
from ._model import *  # noqa: F403 - the model is part of the public surface
from ._model import __all__ as _model_all
from ._payload import (
    canonical_keys,
    encode_frame,
    encode_state_update,
    frame_from_message,
    frame_message,
    parse_frame,
    parse_state_update,
    state_update_from_message,
    state_update_message,
    value_from_message,
)
from ._wire import MAX_NESTING, MAX_VALUES, Scan, UnknownField, encode_varint, read_varint, scan
from ._wire_fast import CLEAN_MAX_PAYLOAD, parse_clean, wire_verdict

__all__ = [
    "CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "case_schema", "from_case", "to_case",
    "CLEAN_MAX_PAYLOAD",
    "MAX_NESTING",
    "MAX_VALUES",
    "MAX_PAYLOAD_SIZE",
    "FrameAggregate",
    "RawRecord",
    "RecordReader",
    "RecordingWriter",
    "Scan",
    "StateAggregate",
    "UNIT",
    "UnknownField",
    "canonical_keys",
    "decode",
    "decode_header",
    "decode_payload",
    "encode",
    "encode_frame",
    "encode_header",
    "encode_payload",
    "encode_record",
    "encode_state_update",
    "encode_varint",
    "frame_from_message",
    "frame_message",
    "iter_records",
    "iter_units",
    "kind_from_path",
    "looks_like_version_1",
    "merged",
    "parse_clean",
    "parse_frame",
    "parse_state_update",
    "read_header",
    "read_varint",
    "scan",
    "state_update_from_message",
    "state_update_message",
    "value_from_message",
    "wire_verdict",
    *_model_all,
]


#: The case codec (``recspec case``, ``encode``, ``drive``) loads on first use: a check never needs it, and its
#: import (with ``recspec._case_json``) was a few ms of every check's start-up.
_CASE_NAMES = frozenset({"CASE_TOLERANCE_CHECKS", "CASE_TOLERANCES", "case_schema", "from_case", "to_case"})


def __getattr__(name: str) -> object:
    if name in _CASE_NAMES:
        from . import _case

        return getattr(_case, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
