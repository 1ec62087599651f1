"""The CARLA entry points the format registry calls: check and dump."""

from __future__ import annotations

import json
from typing import Any, BinaryIO, Callable

from recspec._plain import to_plain
from recspec.errors import DecodeError
from recspec.reference.carla import _decode as dec
from recspec.reference.carla._variants import VARIANTS, Variant
from recspec.report import FileReport

from ._check import check_stream, detect_variant

__all__ = ["MAX_CROSS_CHECK_SIZE", "check", "dump"]

#: The Kaitai cross-check parses the whole file with the generated parser, which
#: is much slower than the reference path; files larger than this are not
#: cross-checked unless the caller raises the limit (``--cross-check-limit``).
MAX_CROSS_CHECK_SIZE = 32 * 1024 * 1024


def _variant(name: str | None) -> Variant | None:
    return None if name is None else VARIANTS[name]


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Callable[..., None] | None = None) -> FileReport:
    report = check_stream(f, path=path, variant=_variant(variant), profile=profile, size=size, progress=progress)
    if cross_check and report.variant is not None:
        if size <= cross_check_limit:
            from ._xcheck import cross_check_report

            f.seek(0)
            xprogress = None if progress is None else (lambda done, total: progress(done, total, "cross-check"))
            cross_check_report(f, report, VARIANTS[report.variant], size, progress=xprogress)
        else:
            report.evidence["cross_check"] = (
                f"skipped: {size} bytes is above the cross-check limit of {cross_check_limit} bytes")
    return report


def dump(f: BinaryIO, out: Any, *, variant: str | None, ksy: bool) -> None:
    """Write the decoded structure as JSON with byte offsets, one packet per line
    (streamed: memory does not grow with the file)."""
    if ksy:
        from ._xcheck import dump_kaitai

        f.seek(0)
        v = _variant(variant)
        if v is None:
            _, offset = dec.read_header(f)
            v, _ = detect_variant(f, offset, None)
            f.seek(0)
        dump_kaitai(f, out, v)
        return
    header, offset = dec.read_header(f)
    v = _variant(variant)
    evidence: dict[str, Any] = {"method": "--variant"}
    if v is None:
        v, evidence = detect_variant(f, offset, None)
    out.write('{"format": "carla", "variant": %s,\n' % json.dumps(v.name))
    out.write(' "header": %s,\n' % json.dumps({"offset": 0, "length": offset, **to_plain(header)}))
    out.write(' "packets": [')
    first = True
    error: DecodeError | None = None
    try:
        for i, raw in enumerate(dec.PacketReader(f, v, offset)):
            entry: dict[str, Any] = {"index": i, "offset": raw.offset, "id": raw.packet_id,
                                     "kind": raw.kind.label, "size": len(raw.payload)}
            try:
                entry["body"] = to_plain(dec.decode_body(raw.kind, raw.payload, v, raw.payload_offset, f"packet[{i}]"))
            except DecodeError as e:
                entry["error"] = {"rule": e.rule, "message": e.message, "offset": e.offset}
                entry["payload"] = raw.payload[:256].hex()
            out.write(("\n  " if first else ",\n  ") + json.dumps(entry))
            first = False
    except DecodeError as e:
        error = e
    out.write("\n ]")
    if error is not None:
        out.write(',\n "error": %s' % json.dumps({"rule": error.rule, "message": error.message, "offset": error.offset}))
    out.write("\n}\n")
