"""``recspec dump`` of a raSkat signal, field by field: name, byte offset, length and value.

Offsets count from the start of the signal (the file for a raw signal, the tar member inside a
tar.xz), as findings do. The v1/v2 time is its 14 ASCII digits as text; in v3/v4 the two doubles are
named by position with both readings (the writer stores the latitude first, the document says the
longitude), so a reader of the dump can see which is which.
"""

from __future__ import annotations

from typing import Any

from recspec._plain import to_plain
from recspec.reference.raskat_signal import (
    FIELD_NAMES,
    HEADER_V1,
    HEADER_V2,
    SignalMsgpack,
    SignalV2,
    decode_fields,
    signal_member,
    unwrap,
)

__all__ = ["signal_fields"]

#: v3/v4 field labels where the name alone does not say what the value is
_LABELS = {
    "coordinate_1": "latitude as the writer stores it (the document: longitude)",
    "coordinate_2": "longitude as the writer stores it (the document: latitude)",
}
# v1/v2: (name, offset, length) of the fixed header after the version word
_FIXED = (("time", 2, 14), ("microseconds", 16, 4), ("longitude", 20, 6), ("latitude", 26, 6),
          ("altitude", 32, 6), ("sample_rate", 38, 4))


def signal_body(data: bytes, max_unpacked: int) -> bytes:
    """The signal's bytes: the file itself, or the tar member of a tar.xz."""
    u = unwrap(data, max_unpacked)
    if u.container == "raw":
        return data
    assert u.tar is not None
    m = signal_member(u)
    return u.tar[m.data_offset:m.data_offset + m.size]


def signal_fields(signal: SignalV2 | SignalMsgpack, body: bytes) -> list[dict[str, Any]]:
    """Every field of a decoded signal with its offset and length in ``body``."""
    out: list[dict[str, Any]] = [{"name": "version", "offset": 0, "length": 2, "value": signal.version}]
    if isinstance(signal, SignalV2):
        values = {"time": signal.time.decode("ascii", "backslashreplace"), "microseconds": signal.microseconds,
                  "longitude": signal.longitude.value, "latitude": signal.latitude.value,
                  "altitude": signal.altitude.value, "sample_rate": signal.sample_rate}
        for name, off, n in _FIXED:
            out.append({"name": name, "offset": off, "length": n, "value": values[name]})
        pos = 42
        if signal.flags is not None:
            out.append({"name": "flags", "offset": 42, "length": 1, "value": signal.flags})
            pos = 43
        out.append({"name": "count", "offset": pos, "length": 4, "value": len(signal.samples)})
        start = HEADER_V2 if signal.version == 2 else HEADER_V1
        out.append({"name": "samples", "offset": start, "length": 2 * len(signal.samples),
                    "value": list(signal.samples)})
        return out
    _, offsets = decode_fields(body, signal.version)
    ends = (*offsets[1:], len(body))
    for i, value in enumerate(signal.fields):
        name = FIELD_NAMES[i] if i < len(FIELD_NAMES) else f"field_{i + 1}"
        entry: dict[str, Any] = {"index": i + 1, "name": name, "offset": offsets[i], "length": ends[i] - offsets[i],
                                 "value": to_plain(value)}
        if name in _LABELS:
            entry["label"] = _LABELS[name]
        out.append(entry)
    return out
