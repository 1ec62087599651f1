"""The NanoVer entry points the format registry calls: check and dump."""

from __future__ import annotations

import json
from typing import Any, BinaryIO, Callable

from recspec._plain import to_plain
from recspec.errors import DecodeError
from recspec.reference.nanover import Kind, RecordReader, decode_payload, kind_from_path, read_header
from recspec.report import FileReport

from ._check import check_stream, detect_kind

__all__ = ["MAX_CROSS_CHECK_SIZE", "check", "dump"]

#: The Kaitai cross-check reads the whole file with the generated parser (about
#: 1 MB/s); larger files are not cross-checked unless the caller raises the limit.
MAX_CROSS_CHECK_SIZE = 32 * 1024 * 1024


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Callable[..., None] | None = None) -> FileReport:
    report = check_stream(f, path=path, variant=variant, profile=profile, size=size, progress=progress)
    if cross_check and report.variant is not None:
        if size <= cross_check_limit:
            from ._xcheck import cross_check_report

            f.seek(0)
            xprogress = None if progress is None else (lambda done, total: progress(done, total, "cross-check"))
            cross_check_report(f, report, Kind(report.variant), size, progress=xprogress)
        else:
            report.evidence["cross_check"] = (
                f"skipped: {size} bytes is above the cross-check limit of {cross_check_limit} bytes")
    return report


def _kind(f: BinaryIO, variant: str | None) -> Kind:
    if variant is not None:
        return Kind(variant)
    name = getattr(f, "name", "")
    k = kind_from_path(name) if isinstance(name, str) else None
    if k is None:
        pos = f.tell()
        k, _ = detect_kind(f, None)
        f.seek(pos)
    return k


def dump(f: BinaryIO, out: Any, *, variant: str | None, ksy: bool) -> None:
    """The decoded records as JSON, one per line, with byte offsets (streamed)."""
    header, offset = read_header(f)
    kind = _kind(f, variant)
    if ksy:
        from ._xcheck import dump_kaitai

        f.seek(0)
        dump_kaitai(f, out, kind)
        return
    f.seek(offset)
    out.write('{"format": "nanover", "variant": %s,\n' % json.dumps(kind.value))
    out.write(' "header": %s,\n' % json.dumps({"offset": 0, "length": 16, **to_plain(header)}))
    out.write(' "records": [')
    first = True
    error: DecodeError | None = None
    try:
        for raw in RecordReader(f, offset):
            entry: dict[str, Any] = {"index": raw.index, "offset": raw.offset, "timestamp_us": raw.timestamp_us,
                                     "length": len(raw.payload)}
            try:
                entry["message"] = to_plain(decode_payload(kind, raw.payload, raw.payload_offset,
                                                           f"record[{raw.index}]"))
            except DecodeError as e:
                entry["error"] = {"rule": e.rule, "message": e.message, "offset": e.offset}
                entry["payload"] = raw.payload[:256].hex()
            out.write(("\n  " if first else ",\n  ") + json.dumps(entry, default=repr))  # UNSET -> "UNSET"
            first = False
    except DecodeError as e:
        error = e
    out.write("\n ]")
    if error is not None:
        out.write(',\n "error": %s' % json.dumps({"rule": error.rule, "message": error.message, "offset": error.offset}))
    out.write("\n}\n")
