"""The typed model of a NanoVer recording (format version 2).

Plain Python values stand for ``google.protobuf.Value``: ``None`` is
``null_value`` (in a state update: "delete this key"), ``float`` a
``number_value``, ``str``, ``bool``, ``dict`` a ``struct_value`` and ``list`` a
``list_value``. :data:`UNSET` is a Value with no kind set on the wire, which the
Python runtime refuses to read (NANOVER-PROTO-005).

An :class:`Array` keeps "an empty float array" (``Array("float", ())``) apart
from "no array" (the key is absent from ``Frame.arrays``) and from a
``ValueArray`` with no member set (``Array(None, ())``).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "MAGIC",
    "RECORD_HEADER_SIZE",
    "UNSET",
    "Array",
    "ArrayKind",
    "Frame",
    "Header",
    "Kind",
    "Record",
    "Recording",
    "StateUpdate",
    "same_value",
]

#: The first 8 bytes of every version-2 file, a little-endian u64 (``e3 b7 89 99 c4 e3 71 5c``).
MAGIC = 6661355757386708963
#: The only version any reader accepts.
FORMAT_VERSION = 2
#: magic (u64) + version (u64).
HEADER_SIZE = 16
#: timestamp (u128) + payload length (u64).
RECORD_HEADER_SIZE = 24


class Kind(enum.Enum):
    """What the payloads of a file hold; the file extension says which (``.traj`` / ``.state``)."""

    TRAJ = "traj"    # nanover.protocol.trajectory.GetFrameResponse
    STATE = "state"  # nanover.protocol.state.StateUpdate


class _Unset:
    """A google.protobuf.Value with no kind set."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __reduce__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class ArrayKind(enum.Enum):
    """The member of the ``ValueArray`` oneof (field number in the comment)."""

    FLOAT = "float"    # 1: FloatArray, repeated float (f32)
    INDEX = "index"    # 2: IndexArray, repeated uint32
    STRING = "string"  # 3: StringArray, repeated string


@dataclass(frozen=True, slots=True)
class Array:
    """One ``ValueArray``: its member kind (``None``: no member set) and values."""

    kind: ArrayKind | None
    values: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Frame:
    """One ``GetFrameResponse``: a delta of the aggregate frame.

    ``frame_index`` 0 (absent on the wire) means reset. ``values`` maps keys to
    plain values (see the module doc), ``arrays`` keys to :class:`Array`.
    """

    frame_index: int = 0
    values: Mapping[str, Any] = field(default_factory=dict)
    arrays: Mapping[str, Array] = field(default_factory=dict)
    #: The map entries in wire order, ``values/KEY`` and ``arrays/KEY`` (NanoVer's Rust server writes each
    #: frame's entries in a new order), when not the encoder's (each map's keys in upb's order, values first);
    #: None: the encoder's order. How the frame was written, not content: it takes no part in equality.
    order: tuple[str, ...] | None = field(default=None, compare=False)
    #: The float and index arrays whose numbers are written unpacked (a field each, as protobuf readers must
    #: accept), not packed as the encoder writes them; None: all packed. Not content either.
    unpacked: tuple[str, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class StateUpdate:
    """One ``StateUpdate``: changed keys; a ``None`` value deletes its key."""

    changes: Mapping[str, Any] = field(default_factory=dict)
    #: The changed keys in wire order, when not the encoder's (upb's); None: the encoder's order. Not content.
    order: tuple[str, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Header:
    magic: int = MAGIC
    version: int = FORMAT_VERSION


@dataclass(frozen=True, slots=True)
class Record:
    """A record: its timestamp in microseconds and its message."""

    timestamp_us: int
    message: Frame | StateUpdate


@dataclass(frozen=True, slots=True)
class Recording:
    kind: Kind
    records: tuple[Record, ...] = ()
    header: Header = field(default_factory=Header)


#: Fields that say how a message was written, not what it holds: equality ignores them.
_HOW_WRITTEN = frozenset(("order", "unpacked"))
_SCALARS = frozenset((float, int, bool, str, bytes, type(None)))


def same_value(a: Any, b: Any) -> bool:
    """Equality of model values where NaN equals NaN (a float compared by its bits
    would not do: upb canonicalises nothing, but Python floats are doubles)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return False
        # an array of scalars in one C pass: equal, and each pair of one type, is what the loop decides
        # for them (a NaN fails ``==`` and takes the loop)
        types = list(map(type, a))
        if a == b and _SCALARS.issuperset(types) and types == list(map(type, b)):
            return True
        return all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (Array, Frame, StateUpdate, Record, Recording, Header)):
        return all(same_value(getattr(a, f), getattr(b, f)) for f in a.__slots__ if f not in _HOW_WRITTEN)
    equal: bool = a == b  # model values compare to a bool
    return equal
