"""The Matrix-SMT entry points the format registry calls: check and dump."""

from __future__ import annotations

import json
from typing import Any, BinaryIO, Callable

from recspec._plain import to_plain
from recspec.errors import DecodeError
from recspec.reference.matrix_smt import T_ARRAY, Array, Document, Int64, RecordingWalker
from recspec.report import FileReport

from ._check import check_stream

__all__ = ["MAX_CROSS_CHECK_SIZE", "check", "dump", "plain"]

#: The Kaitai parser (debug mode: byte-by-byte key reads, a debug record per field)
#: reads about 0.3 MB/s here and holds about 250 bytes of memory per byte of input
#: (495 MiB peak for a 2 MB recording), and pymongo builds the whole document, so
#: files larger than this are not cross-checked unless the caller raises the limit
#: (``--cross-check-limit``); ``evidence.cross_check`` then says it was skipped.
MAX_CROSS_CHECK_SIZE = 1024 * 1024


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Callable[..., None] | None = None) -> FileReport:
    """Check one recording (``variant`` is unused: the format has one layout)."""
    report = check_stream(f, path=path, profile=profile, size=size, progress=progress)
    if cross_check:
        if size <= cross_check_limit:
            from ._xcheck import cross_check_report

            cross_check_report(f, report, size)
        else:
            report.evidence["cross_check"] = (
                f"skipped: {size} bytes is above the cross-check limit of {cross_check_limit} bytes "
                "(Kaitai and pymongo read the whole file; raise it with --cross-check-limit)")
    return report


def plain(value: Any) -> Any:
    """A decoded BSON value as JSON-ready data: documents as objects (duplicate keys
    as a ``{"$pairs": [[k, v], ...]}``), arrays as lists, other types by to_plain."""
    if isinstance(value, Array):
        return [plain(v) for v in value.values]
    if isinstance(value, Document):
        if len(value.map()) != len(value.keys):
            return {"$pairs": [[k, plain(v)] for k, v in zip(value.keys, value.values)]}
        return {k: plain(v) for k, v in zip(value.keys, value.values)}
    if type(value) is Int64:
        return int(value)
    if hasattr(value, "scope"):
        return {"code": value.code, "scope": plain(value.scope)}
    return to_plain(value)


def dump(f: BinaryIO, out: Any, *, variant: str | None, ksy: bool) -> None:
    """Write the decoded document as JSON with byte offsets, one frame per line
    (streamed: memory does not grow with the file)."""
    if ksy:
        from ._xcheck import dump_kaitai

        dump_kaitai(f, out)
        return
    out.write('{"format": "matrix-smt",\n')
    error: DecodeError | None = None
    try:
        w = RecordingWalker(f)
        out.write(' "length": %d, "file_size": %d,\n "sections": [' % (w.declared, w.size))
        first = True
        for s in w.sections():
            head: dict[str, Any] = {"key": s.key, "offset": s.offset, "end": s.end, "type_code": s.type_code}
            out.write(("\n  " if first else ",\n  "))
            first = False
            if s.key == "frames" and s.type_code == T_ARRAY:
                out.write(json.dumps(head)[:-1] + ', "entries": [')
                for e in w.entries(s):
                    entry = {"index": e.index, "key": e.key, "offset": e.offset, "end": e.end, "value": plain(e.value)}
                    out.write(("\n   " if e.index == 0 else ",\n   ") + json.dumps(entry))
                out.write("\n  ]}")
            else:
                head["value"] = plain(w.value(s))
                out.write(json.dumps(head))
        out.write("\n ]")
    except DecodeError as e:
        error = e
        out.write("\n ]" if 'w' in locals() else ' "sections": []')
    if error is not None:
        out.write(',\n "error": %s' % json.dumps({"rule": error.rule, "message": error.message, "offset": error.offset,
                                                  "path": error.path}))
    out.write("\n}\n")
