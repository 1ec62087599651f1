"""Reference encoder and decoder for raSkat lightning-detector signal files (``.sig``).

Public surface: the model (``SignalV2`` for the legacy v1 and v2 binary
layouts, ``SignalMsgpack`` for v3 and version 4, ``Fixed``), the body codec
(``decode_body``, ``encode_body``), the file codec (``decode``, ``encode``:
raw or in the tar.xz container), the container layer (``unwrap``,
``signal_member``, ``wrap``) and the hand-written MessagePack layer
(``msgpack_pack``, ``msgpack_unpack``, ``MsgMap``, ``Ext``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded on first use, by __getattr__ below
    from ._case import CASE_TOLERANCE_CHECKS, CASE_TOLERANCES, case_schema, fixed_from_degrees, from_case, to_case
from ._container import (
    MAX_MEMBER_SIZE,
    MAX_UNPACKED,
    REGULAR,
    XZ_MAGIC,
    Member,
    Unwrapped,
    signal_member,
    untar,
    unwrap,
    unxz,
    wrap,
)
from ._file import UNIT, SignalFile, decode, encode, iter_signals, iter_units, member_name
from ._msgpack import MAX_DEPTH, Ext, MsgMap, kind_of
from ._msgpack import pack as msgpack_pack
from ._msgpack import unpack as msgpack_unpack
from ._msgpack_fast import int_elements
from ._signal import (
    FIELD_NAMES,
    HEADER_V1,
    HEADER_V2,
    VERSIONS,
    Fixed,
    Signal,
    SignalMsgpack,
    SignalV2,
    decode_body,
    decode_fields,
    encode_body,
)

__all__ = [
    "CASE_TOLERANCES",
    "CASE_TOLERANCE_CHECKS",
    "FIELD_NAMES",
    "HEADER_V1",
    "HEADER_V2",
    "MAX_DEPTH",
    "MAX_MEMBER_SIZE",
    "MAX_UNPACKED",
    "REGULAR",
    "UNIT",
    "VERSIONS",
    "XZ_MAGIC",
    "Ext",
    "Fixed",
    "Member",
    "MsgMap",
    "Signal",
    "SignalFile",
    "SignalMsgpack",
    "SignalV2",
    "Unwrapped",
    "case_schema",
    "decode",
    "decode_body",
    "decode_fields",
    "encode",
    "encode_body",
    "fixed_from_degrees",
    "from_case",
    "int_elements",
    "iter_signals",
    "iter_units",
    "kind_of",
    "member_name",
    "msgpack_pack",
    "msgpack_unpack",
    "signal_member",
    "to_case",
    "untar",
    "unwrap",
    "unxz",
    "wrap",
]


#: The case codec (``recspec case``, ``encode``, ``drive``) loads on first use: a check never needs it, and its
#: import (with ``recspec._case_json``) was a few ms of every check's start-up.
_CASE_NAMES = frozenset({"CASE_TOLERANCE_CHECKS", "CASE_TOLERANCES", "case_schema", "fixed_from_degrees", "from_case",
                         "to_case"})


def __getattr__(name: str) -> object:
    if name in _CASE_NAMES:
        from . import _case

        return getattr(_case, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
