"""The signal model, its decoder and its encoder (v1 legacy, v2, v3, version 4).

The model keeps every stored value at its stored width, so decoding and
encoding are byte exact for canonical input:

* :class:`SignalV2` (versions 1 and 2): the fixed binary layout. Coordinates
  are :class:`Fixed` (the stored u16 integer part and u32 millionths).
  Samples are the stored signed 16-bit values; whether a +1000 offset is to be
  removed is the profile's decision, not the model's.
* :class:`SignalMsgpack` (versions 3 and 4): the bare sequence of MessagePack
  objects, kept as decoded values in stored order (``fields``), so a file with
  a wrong type at some position still decodes and the rules can say which.
  Named properties read the fields in the order the writer uses.

Decoders are sans-IO (``bytes`` in) and raise only
:class:`recspec.errors.DecodeError` subclasses, with the byte offset, a path
and the rule id.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from recspec.errors import EncodeError, Malformed, Truncated

from . import _msgpack
from ._msgpack import MAX_DEPTH
from ._msgpack_fast import proven_fields

__all__ = [
    "FIELD_NAMES",
    "HEADER_V1",
    "HEADER_V2",
    "VERSIONS",
    "Fixed",
    "Signal",
    "SignalMsgpack",
    "SignalV2",
    "decode_body",
    "decode_fields",
    "encode_body",
    "wide_leads",
]

VERSIONS = (1, 2, 3, 4)
HEADER_V2 = 47  # bytes up to and including the sample count
HEADER_V1 = 46  # no flags byte

#: The v3/v4 fields in stored order, as the raSkat writer writes them (latitude
#: first; the document lists longitude first: see the profiles).
FIELD_NAMES = ("time", "microseconds", "coordinate_1", "coordinate_2", "altitude", "sample_rate", "load_ohm",
               "adc_bits", "vref", "flags", "antenna", "samples", "threshold")
NUM_FIELDS = {3: 12, 4: 13}

_V2 = struct.Struct("<14sIHIHIHIIBI")
_V1 = struct.Struct(">14sIHIHIHIII")


@dataclass(frozen=True, slots=True)
class Fixed:
    """A v1/v2 coordinate: u16 integer part and u32 millionths (``value = int_part + frac / 1e6``)."""

    int_part: int
    frac: int

    @property
    def value(self) -> float:
        return self.int_part + self.frac / 1_000_000


@dataclass(frozen=True, slots=True)
class SignalV2:
    version: int  # 2, or 1 (legacy: big-endian, no flags)
    time: bytes  # 14 bytes, %Y%m%d%H%M%S
    microseconds: int
    longitude: Fixed
    latitude: Fixed
    altitude: Fixed
    sample_rate: int
    flags: int | None  # None in v1
    samples: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SignalMsgpack:
    version: int  # 3 or 4
    fields: tuple[Any, ...]  # decoded MessagePack values in stored order
    #: (path, lead byte) of each object a writer stored wider than the encoder would (``sample_rate``,
    #: ``samples[3]``: a uint 32 for a small number, a float 32, an array 16 of 3), so the encoder writes it
    #: the same way; None: every object as the encoder writes it. How it was written, not content.
    leads: tuple[tuple[str, int], ...] | None = field(default=None, compare=False)

    def _get(self, i: int) -> Any:
        return self.fields[i] if i < len(self.fields) else None

    time = property(lambda self: self._get(0))
    microseconds = property(lambda self: self._get(1))
    coordinate_1 = property(lambda self: self._get(2),
                            doc="First double: latitude as written (the document: longitude)")
    coordinate_2 = property(lambda self: self._get(3),
                            doc="Second double: longitude as written (the document: latitude)")
    altitude = property(lambda self: self._get(4))
    sample_rate = property(lambda self: self._get(5))
    load_ohm = property(lambda self: self._get(6))
    adc_bits = property(lambda self: self._get(7))
    vref = property(lambda self: self._get(8))
    flags = property(lambda self: self._get(9))
    antenna = property(lambda self: self._get(10))
    samples = property(lambda self: self._get(11))
    threshold = property(lambda self: self._get(12))

    @classmethod
    def build(cls, *, time: str, microseconds: int, coordinate_1: float, coordinate_2: float, altitude: float,
              sample_rate: int, load_ohm: int, adc_bits: int, vref: float, flags: int, antenna: int,
              samples: tuple[int, ...], threshold: int | None = None) -> SignalMsgpack:
        fields = (time, microseconds, float(coordinate_1), float(coordinate_2), float(altitude), sample_rate,
                  load_ohm, adc_bits, float(vref), flags, antenna, tuple(samples))
        if threshold is None:
            return cls(3, fields)
        return cls(4, fields + (threshold,))


Signal = SignalV2 | SignalMsgpack


# --- decoding ----------------------------------------------------------------------


def _truncated(what: str, offset: int, needed: int, available: int, path: str = "") -> Truncated:
    return Truncated(f"the file ends inside {what} ({available} of {needed} bytes)", offset, path,
                     rule="RSIG-STREAM-001", needed=needed, available=available)


def _decode_fixed_layout(buf: bytes, version: int) -> SignalV2:
    st, header = (_V2, HEADER_V2) if version == 2 else (_V1, HEADER_V1)
    if len(buf) < header:
        raise _truncated(f"the v{version} header", len(buf), header, len(buf), "header")
    if version == 2:
        t, us, lon_i, lon_f, lat_i, lat_f, alt_i, alt_f, rate, flags, n = st.unpack_from(buf, 2)
    else:
        t, us, lon_i, lon_f, lat_i, lat_f, alt_i, alt_f, rate, n = st.unpack_from(buf, 2)
        flags = None
    have = len(buf) - header
    if have < 2 * n:
        raise Truncated(f"the sample count says {n} samples ({2 * n} bytes) but {have} bytes follow the header",
                        header - 4, "num_samples", rule="RSIG-SAMPLES-001", needed=2 * n, available=have)
    if have > 2 * n:
        raise Malformed(f"{have - 2 * n} bytes follow the last of the {n} samples", header + 2 * n, "end",
                        rule="RSIG-STREAM-002")
    a = array("h")
    a.frombytes(buf[header:])
    if (version == 2) != (struct.pack("=h", 1) == struct.pack("<h", 1)):
        a.byteswap()
    return SignalV2(version, t, us, Fixed(lon_i, lon_f), Fixed(lat_i, lat_f), Fixed(alt_i, alt_f), rate, flags,
                    tuple(a))


def decode_fields(buf: bytes, version: int, *, max_depth: int = MAX_DEPTH, note: _msgpack.Note | None = None,
                  fast_path: bool = True) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """The v3/v4 MessagePack fields after the version word, with each field's offset.

    ``fast_path``: the C unpacker first (:func:`._msgpack_fast.proven_fields`), which
    returns the walk's result for a body it proves canonical (nothing to note, nothing
    to raise); any other body is walked by the hand-written reader, which locates."""
    n = NUM_FIELDS[version]
    if fast_path and max_depth >= 1:
        proven = proven_fields(buf, n)
        if proven is not None:
            return proven
    fields: list[Any] = []
    offsets: list[int] = []
    pos = 2
    while len(fields) < n:
        if pos >= len(buf):
            if version == 3 and len(fields) == 9 and isinstance(fields[8], tuple):
                raise Malformed("9 fields with the samples last: the draft v3 layout written in June 2025 "
                                "(no load resistance, ADC bits or reference voltage), not the published v3",
                                pos, f"field[{len(fields)}]", rule="RSIG-FIELDS-002")
            name = FIELD_NAMES[len(fields)]
            raise Truncated(f"the file ends after {len(fields)} of the {n} v{version} fields (next: {name})",
                            pos, f"field[{len(fields)}]:{name}", rule="RSIG-STREAM-001", needed=1, available=0)
        offsets.append(pos)
        try:
            value, pos = _msgpack.unpack(buf, pos, max_depth=max_depth, note=note)
        except (Truncated, Malformed) as e:
            e.path = f"field[{len(fields)}]:{FIELD_NAMES[len(fields)]}"
            raise
        fields.append(value)
    if pos < len(buf):
        raise Malformed(f"{len(buf) - pos} bytes follow the last of the {n} v{version} fields", pos, "end",
                        rule="RSIG-STREAM-002")
    return tuple(fields), tuple(offsets)


def decode_body(buf: bytes, *, version: int | None = None, max_depth: int = MAX_DEPTH,
                note: _msgpack.Note | None = None, fast_path: bool = True) -> Signal:
    """A signal from its bytes (version word first). ``version`` forces a layout."""
    if len(buf) < 2:
        raise _truncated("the version word", 0, 2, len(buf), "version")
    stored = buf[0] | buf[1] << 8
    v = stored if version is None else version
    if v not in VERSIONS:
        raise Malformed(f"unknown version word {stored} (known: 1 legacy, 2, 3, 4)", 0, "version",
                        rule="RSIG-VERSION-001")
    if v <= 2:
        return _decode_fixed_layout(buf, v)
    fields, _ = decode_fields(buf, v, max_depth=max_depth, note=note, fast_path=fast_path)
    return SignalMsgpack(v, fields)


# --- encoding -------------------------------------------------------------------------


def encode_body(sig: Signal) -> bytes:
    """The canonical bytes of a signal (version word and body)."""
    if isinstance(sig, SignalV2):
        c = (sig.time, sig.microseconds, sig.longitude.int_part, sig.longitude.frac, sig.latitude.int_part,
             sig.latitude.frac, sig.altitude.int_part, sig.altitude.frac, sig.sample_rate)
        if sig.version == 2:
            head = b"\x02\x00" + _V2.pack(*c, sig.flags or 0, len(sig.samples))
            return head + struct.pack(f"<{len(sig.samples)}h", *sig.samples)
        if sig.version == 1:
            head = b"\x01\x00" + _V1.pack(*c, len(sig.samples))
            return head + struct.pack(f">{len(sig.samples)}h", *sig.samples)
        raise EncodeError(f"SignalV2 holds version 1 or 2, not {sig.version}")
    if sig.version not in NUM_FIELDS:
        raise EncodeError(f"SignalMsgpack holds version 3 or 4, not {sig.version}")
    if sig.leads:
        leads = dict(sig.leads)
        return struct.pack("<H", sig.version) + b"".join(
            _msgpack.pack_with_leads(v, _field_name(i), leads) for i, v in enumerate(sig.fields))
    return struct.pack("<H", sig.version) + b"".join(_msgpack.pack(v) for v in sig.fields)


def _field_name(i: int) -> str:
    return FIELD_NAMES[i] if i < len(FIELD_NAMES) else f"field[{i}]"


def wide_leads(buf: bytes, sig: SignalMsgpack) -> tuple[tuple[str, int], ...] | None:
    """The objects of a v3/v4 body ``buf`` (version word first, already decoded to ``sig``) stored with a
    wider lead byte than the encoder's; None when there are none (the C unpacker proves most bodies
    canonical without a walk)."""
    if proven_fields(buf, len(sig.fields)) is not None:
        return None
    out: list[tuple[str, int]] = []
    pos = 2
    for i in range(len(sig.fields)):
        pos = _msgpack.wide_leads(buf, pos, _field_name(i), out)
    return tuple(out) or None


Progress = Callable[[int, int], None]
