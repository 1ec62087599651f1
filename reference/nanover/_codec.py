"""Whole recordings: decode from bytes or a stream, encode, write incrementally."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO

from recspec._paths import path_suffix

from ._framing import RecordReader, encode_header, encode_record, read_header
from ._model import RECORD_HEADER_SIZE, ArrayKind, Frame, Header, Kind, Record, Recording, StateUpdate
from ._payload import (
    canonical_frame_order,
    canonical_keys,
    encode_frame,
    encode_state_update,
    frame_from_message,
    parse_frame,
    parse_state_update,
    state_update_from_message,
    wire_details,
)
from ._wire import scan
from ._wire_fast import CLEAN_MAX_PAYLOAD, parse_clean_in_order

__all__ = ["RecordingWriter", "decode", "decode_payload", "encode", "encode_payload", "iter_records",
           "kind_from_path"]

#: The array kinds whose numbers a writer may put a field each (unpacked).
_NUMERIC = frozenset((ArrayKind.FLOAT, ArrayKind.INDEX))


def kind_from_path(path: str | Path) -> Kind | None:
    """``Kind`` from a file name's extension (``.traj`` / ``.state``), as every NanoVer tool decides."""
    suffix = path_suffix(path).lower()
    return {".traj": Kind.TRAJ, ".state": Kind.STATE}.get(suffix)


def decode_payload(kind: Kind, payload: bytes, offset: int = 0, path: str = "") -> Frame | StateUpdate:
    """The message of one payload. The wire walk runs first (it locates errors
    and rejects groups), then upb; raises only :class:`DecodeError` subclasses."""
    # The fast path (_wire_fast.py): when upb proves the walk has nothing to say, its message is the parse.
    # Below CLEAN_MAX_PAYLOAD only: a shorter payload cannot hold more than MAX_VALUES values.
    # A proved payload's wire order comes with it, read from upb's mirror; the others' from the bytes.
    clean = parse_clean_in_order(payload, kind.value) if len(payload) < CLEAN_MAX_PAYLOAD else None
    msg: Any
    if clean is None:
        scan(payload, 0, len(payload), kind.value, offset, path)
        msg = None
    else:
        msg, order = clean
    message: Frame | StateUpdate
    if kind is Kind.TRAJ:
        message = frame_from_message(msg if msg is not None else parse_frame(payload, offset, path))
        canonical = canonical_frame_order(message)
    else:
        message = state_update_from_message(msg if msg is not None else parse_state_update(payload, offset, path))
        canonical = tuple(canonical_keys(message.changes))
    # how a writer wrote the message, not content: kept only where it is not the encoder's way
    unpacked: tuple[str, ...] = ()
    if clean is None:
        order, unpacked = wire_details(payload, kind.value)
    if order is not None and order != canonical and sorted(order) == sorted(canonical):
        message = replace(message, order=order)
    if unpacked and isinstance(message, Frame):
        # only a float or index array has numbers to write a field each: an entry whose value merged into
        # another member (a later field of the same entry) is read, and so written, packed
        numeric = tuple(k for k in unpacked if k in message.arrays and message.arrays[k].kind in _NUMERIC)
        if numeric:
            message = replace(message, unpacked=numeric)
    return message


def encode_payload(message: Frame | StateUpdate) -> bytes:
    return encode_frame(message) if isinstance(message, Frame) else encode_state_update(message)


def iter_records(f: BinaryIO, kind: Kind, size: int | None = None) -> Iterator[Record]:
    """Records of a file object, streamed (memory bounded by the largest payload)."""
    _, off = read_header(f)
    return _records(f, off, kind, size)


def _records(f: BinaryIO, offset: int, kind: Kind, size: int | None) -> Iterator[Record]:
    reader = RecordReader(f, offset, size)
    for at, ts, payload in reader.records():
        yield Record(ts, decode_payload(kind, payload, at + RECORD_HEADER_SIZE, f"record[{reader.count - 1}]"))


def decode(data: bytes, kind: Kind) -> Recording:
    """A whole recording from bytes; :class:`DecodeError` at the first problem."""
    f = io.BytesIO(data)
    header, off = read_header(f)
    return Recording(kind, tuple(_records(f, off, kind, len(data))), header)


def encode(recording: Recording) -> bytes:
    out = [encode_header(recording.header)]
    for r in recording.records:
        out.append(encode_record(r.timestamp_us, encode_payload(r.message)))
    return b"".join(out)


class RecordingWriter:
    """Writes a recording incrementally, the way NanoVer's writers do: the
    header first, then one record per ``write``."""

    def __init__(self, f: BinaryIO, header: Header = Header()) -> None:  # noqa: B008 - Header is frozen
        self._f = f
        f.write(encode_header(header))

    def write(self, timestamp_us: int, message: Frame | StateUpdate) -> None:
        self._f.write(encode_record(timestamp_us, encode_payload(message)))

    def write_payload(self, timestamp_us: int, payload: bytes) -> None:
        """A record whose payload is already serialized."""
        self._f.write(encode_record(timestamp_us, payload))



