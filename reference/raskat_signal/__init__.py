"""Reference encoder and decoder for raSkat lightning-detector signal files (``.sig``).

Public surface: the model (``SignalV2`` for the legacy v1 and v2 binary
layouts, ``SignalMsgpack`` for v3 and version 4, ``Fixed``), the body codec
(``decode_body``, ``encode_body``), the file codec (``decode``, ``encode``:
raw or in the tar.xz container), the container layer (``unwrap``,
``signal_member``, ``wrap``) and the hand-written MessagePack layer
(``msgpack_pack``, ``msgpack_unpack``, ``MsgMap``, ``Ext``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ._container import (
    MAX_MEMBER_SIZE,
    MAX_UNPACKED,
    XZ_MAGIC,
    Member,
    Unwrapped,
    signal_member,
    unwrap,
    unxz,
    untar,
    wrap,
)
from ._msgpack import MAX_DEPTH, Ext, MsgMap, kind_of
from ._msgpack import pack as msgpack_pack
from ._msgpack import unpack as msgpack_unpack
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
    "FIELD_NAMES", "HEADER_V1", "HEADER_V2", "MAX_DEPTH", "MAX_MEMBER_SIZE", "MAX_UNPACKED", "VERSIONS",
    "XZ_MAGIC", "Ext", "Fixed", "Member", "MsgMap", "Signal", "SignalFile", "SignalMsgpack", "SignalV2",
    "Unwrapped", "decode", "decode_body", "decode_fields", "encode", "encode_body", "kind_of",
    "member_name", "msgpack_pack", "msgpack_unpack", "signal_member", "unwrap", "untar", "unxz", "wrap",
]


@dataclass(frozen=True, slots=True)
class SignalFile:
    """A decoded file: its container and the signal in it."""

    container: str  # "raw" or "tar.xz"
    signal: Signal
    member: str | None = None  # the tar member's name, in a tar.xz


def decode(data: bytes, *, max_unpacked: int = MAX_UNPACKED) -> SignalFile:
    """A whole file, raw or tar.xz (the one regular tar member is the signal)."""
    u = unwrap(data, max_unpacked)
    if u.container == "raw":
        return SignalFile("raw", decode_body(data))
    m = signal_member(u)
    assert u.tar is not None
    return SignalFile("tar.xz", decode_body(u.tar[m.data_offset:m.data_offset + m.size]), m.name)


def member_name(sig: Signal) -> str:
    """The member name recspec writes: the raSkat file name convention ``<time>.sig``."""
    t = sig.time
    text = t.decode("ascii", "replace") if isinstance(t, bytes) else str(t)
    safe = "".join(c if c.isalnum() else "_" for c in text)[:64] or "signal"
    return f"{safe}.sig"


def encode(sig: Signal, *, container: str = "raw", member: str | None = None, mtime: int = 0) -> bytes:
    """A file: the raw body (what raSkat writes) or the tar.xz container the document describes."""
    body = encode_body(sig)
    if container == "raw":
        return body
    if container == "tar.xz":
        return wrap(body, member or member_name(sig), mtime=mtime)
    raise ValueError(f"container is 'raw' or 'tar.xz', not {container!r}")
