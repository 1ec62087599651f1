"""A whole signal file, raw or in the tar.xz container, and the public codec: the
surface every format's reference has (``recspec.formats.ReferenceCodec``).

The variant is the version word (``v1``..``v4``); the bytes name it, so it is
optional, and when given it must agree with what the file holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import BinaryIO

from recspec.errors import DecodeError, EncodeError, UsageError, public_boundary

from ._container import MAX_UNPACKED, _octal, signal_member, unwrap, wrap
from ._signal import VERSIONS, Signal, SignalMsgpack, decode_body, encode_body, wide_leads

__all__ = ["UNIT", "SignalFile", "decode", "encode", "iter_signals", "iter_units", "member_name"]

UNIT = "signal"

@dataclass(frozen=True, slots=True)
class SignalFile:
    """A decoded file: its container and the signal in it."""

    container: str  # "raw" or "tar.xz"
    signal: Signal
    member: str | None = None  # the tar member's name, in a tar.xz
    #: The tar member's modification time (seconds since the epoch), in a tar.xz: how the file was
    #: written, not content, so it takes no part in equality.
    mtime: int = field(default=0, compare=False)


def _version(variant: str | None) -> int | None:
    if variant is None:
        return None
    names = {f"v{v}": v for v in VERSIONS}
    if variant not in names:
        raise UsageError(f"raskat-signal has no variant {variant!r}", f"choose one of: {', '.join(names)}")
    return names[variant]


@public_boundary
def decode(data: bytes, *, variant: str | None = None, max_unpacked: int = MAX_UNPACKED) -> SignalFile:
    """A whole file, raw or tar.xz (the one regular tar member is the signal);
    :class:`recspec.errors.DecodeError` (located) when it is not one."""
    want = _version(variant)
    u = unwrap(data, max_unpacked)
    if u.container == "raw":
        sf = SignalFile("raw", decode_body(data))
    else:
        m = signal_member(u)
        assert u.tar is not None
        mtime = _octal(u.tar[m.header_offset + 136:m.header_offset + 148], m.header_offset + 136, "mtime")
        sf = SignalFile("tar.xz", decode_body(u.tar[m.data_offset:m.data_offset + m.size]), m.name, mtime)
    if isinstance(sf.signal, SignalMsgpack):
        body = data if sf.container == "raw" else u.tar[m.data_offset:m.data_offset + m.size]  # type: ignore[index]
        leads = wide_leads(body, sf.signal)
        if leads:
            sf = replace(sf, signal=replace(sf.signal, leads=leads))
    if want is not None and sf.signal.version != want:
        raise DecodeError(f"the file holds version {sf.signal.version}, not {variant}", 0, "version",
                          "RSIG-VERSION-001")
    return sf


def member_name(sig: Signal) -> str:
    """The member name recspec writes: the raSkat file name convention ``<time>.sig``."""
    t = sig.time
    text = t.decode("ascii", "replace") if isinstance(t, bytes) else str(t)
    safe = "".join(c if c.isalnum() else "_" for c in text)[:64] or "signal"
    return f"{safe}.sig"


@public_boundary
def encode(model: Signal | SignalFile, *, variant: str | None = None, container: str | None = None,
           member: str | None = None, mtime: int | None = None) -> bytes:
    """A file: the raw body (what raSkat writes) or the tar.xz container the document
    describes (``container``; for a :class:`SignalFile` its own by default, and its member's
    ``mtime``; else 0)."""
    if isinstance(model, SignalFile):
        container = container or model.container
        member = member or model.member
        mtime = model.mtime if mtime is None else mtime
        sig = model.signal
    else:
        sig = model
    container = container or "raw"
    want = _version(variant)
    if want is not None and sig.version != want:
        raise EncodeError(f"the signal is version {sig.version}, not {variant}")
    body = encode_body(sig)
    if container == "raw":
        return body
    if container == "tar.xz":
        return wrap(body, member or member_name(sig), mtime=mtime or 0)
    raise EncodeError(f"container is 'raw' or 'tar.xz', not {container!r}")


@public_boundary
def iter_signals(f: BinaryIO, *, variant: str | None = None, max_unpacked: int = MAX_UNPACKED) -> Iterator[SignalFile]:
    """The signal of a file object (a file holds one), for the same surface as the
    streaming formats; the file is read whole, up to ``max_unpacked`` bytes."""
    data = f.read(max_unpacked + 1)
    if len(data) > max_unpacked:
        raise DecodeError(f"the file is larger than {max_unpacked} bytes", max_unpacked, "", "RSIG-LIMIT-001")
    yield decode(data, variant=variant, max_unpacked=max_unpacked)


iter_units = iter_signals
