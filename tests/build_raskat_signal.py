"""raSkat signal bodies put together for the checker's tests, from the layout in
docs/formats/raskat-signal.md: a v2 body by the reference's encoder from a ``SignalV2`` changed field by field,
a v3/v4 body (u16 version word, then the MessagePack fields) with each field packed by the ``msgpack``
package (PyPI), which also gives each field's offset. ``findings`` checks a body and lists its value findings
as (rule, offset, length, path, actual). ``xz_vli`` writes the xz container's variable-length integers."""

from __future__ import annotations

from typing import Any

import msgpack

from recspec.conformance.raskat_signal._check import check_bytes
from recspec.reference.raskat_signal import Fixed, SignalV2, encode_body

#: a version 4 signal's 13 fields that break no value rule, and their names as a finding's path gives them
GOOD = ["20250624100658", 11, 55.5, 37.5, 150.0, 500_000, 1000, 10, 3.3, 0, 1, [1, 2, 1023], 643]
NAMES = ("time", "microseconds", "coordinate_1", "coordinate_2", "altitude", "sample_rate", "load_ohm", "adc_bits",
         "vref", "flags", "antenna", "samples", "threshold")

Finding = tuple[str, "int | None", "int | None", str, Any]


def msgpack_file(fields: list[Any]) -> tuple[bytes, list[int]]:
    """A v3 (12 fields) or version 4 (13) body, and each field's offset."""
    out, offsets = bytearray((len(fields) - 9).to_bytes(2, "little")), []
    for x in fields:
        offsets.append(len(out))
        out += msgpack.packb(x, use_single_float=False)
    return bytes(out), offsets


def findings(data: bytes, profile: str = "spec") -> list[Finding]:
    """The body's findings but the container's and the version's, sorted."""
    report, _ = check_bytes(data, path="x.sig", variant=None, profile=profile)
    return sorted((f.rule, f.offset, f.length, f.path, f.actual) for f in report.findings
                  if f.rule not in ("RSIG-CONTAINER-001", "RSIG-VERSION-003"))


def findings_with(i: int, value: Any) -> list[Finding]:
    """The findings of GOOD with field ``i`` set to ``value``."""
    fields = list(GOOD)
    fields[i] = value
    return findings(msgpack_file(fields)[0])


def field_place(i: int, value: Any) -> tuple[int, int, str]:
    """(offset, length, path) of field ``i`` in GOOD with that field set to ``value``."""
    fields = list(GOOD)
    fields[i] = value
    data, offsets = msgpack_file(fields)
    end = offsets[i + 1] if i + 1 < len(offsets) else len(data)
    return offsets[i], end - offsets[i], f"field[{i}]:{NAMES[i]}"


def v2(**change: Any) -> bytes:
    """A v2 body that breaks no value rule, with the ``SignalV2`` fields ``change`` names changed."""
    base = dict(version=2, time=b"20250624100658", microseconds=5, longitude=Fixed(37, 0), latitude=Fixed(55, 0),
                altitude=Fixed(150, 0), sample_rate=500_000, flags=0, samples=(1000, 1001))
    return encode_body(SignalV2(**{**base, **change}))


def xz_vli(v: int) -> bytes:
    """``v`` as the xz file format writes a variable-length integer: 7 bits a byte, low groups first, the top bit
    set on every byte but the last."""
    out = bytearray()
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)
