"""The NanoVer entry points the format registry calls: check, dump and the Kaitai
comparison of ``recspec reproduce``."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO, TextIO

from recspec._plain import to_plain
from recspec.errors import DecodeError
from recspec.formats import FORMATS, Divergence, Progress
from recspec.reference.nanover import (
    Kind,
    RecordReader,
    decode_payload,
    kind_from_path,
    read_header,
)
from recspec.report import FileReport, Finding

from .._plugin import cross_check_within, decode_error_json, dump_json_stream, malformed_from
from ._check import check_stream, detect_kind
from ._rules import RULES_BY_ID

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "check", "dump"]

#: The Kaitai cross-check reads the whole file with the generated parser (about
#: 1 MB/s); larger files are not cross-checked unless the caller raises the limit.
MAX_CROSS_CHECK_SIZE = FORMATS["nanover"].cross_check_limit


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool | str, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Progress | None = None, run_files: int | None = None) -> FileReport:
    report = check_stream(f, path=path, variant=variant, profile=profile, size=size, progress=progress)

    def run() -> None:
        from ._xcheck import cross_check_report

        assert report.variant is not None
        f.seek(0)
        xprogress = None if progress is None else (lambda done, total: progress(done, total, "cross-check"))
        # cross_check is True (the default: a sample of the units) or "full" (every byte); a malformed file in a
        # long run is read from the record the check found malformed (conformance/_plugin.py malformed_from)
        full = cross_check == "full"
        start = None if full else malformed_from(report, run_files, RULES_BY_ID)
        cross_check_report(f, report, Kind(report.variant), size, progress=xprogress, full=full,
                           malformed_from=start)

    cross_check_within(report, enabled=bool(cross_check) and report.variant is not None, size=size,
                       limit=cross_check_limit, run=run, sampled=cross_check is True, run_files=run_files)
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


def dump(f: BinaryIO, out: TextIO, *, variant: str | None, ksy: bool) -> None:
    """The decoded records as JSON, one per line, with byte offsets (streamed)."""
    header, offset = read_header(f)
    kind = _kind(f, variant)
    if ksy:
        from ._xcheck import dump_kaitai

        f.seek(0)
        dump_kaitai(f, out, kind)
        return
    f.seek(offset)
    preamble = ('{"format": "nanover", "variant": %s,\n' % json.dumps(kind.value)
                + ' "header": %s,\n' % json.dumps({"offset": 0, "length": 16, **to_plain(header)}))
    dump_json_stream(out, preamble, "records", _records(f, kind, offset), default=repr)  # UNSET -> "UNSET"


def _records(f: BinaryIO, kind: Kind, offset: int) -> Iterator[dict[str, Any]]:
    for raw in RecordReader(f, offset):
        entry: dict[str, Any] = {"index": raw.index, "offset": raw.offset, "timestamp_us": raw.timestamp_us,
                                 "length": len(raw.payload)}
        try:
            entry["message"] = to_plain(decode_payload(kind, raw.payload, raw.payload_offset, f"record[{raw.index}]"))
        except DecodeError as e:
            entry["error"] = decode_error_json(e)
            entry["payload"] = raw.payload[:256].hex()
        yield entry


class _Kaitai:
    """The Kaitai reading of a NanoVer file record by record, beside the reference's."""

    rule = "NANOVER-XCHECK-001"

    def readings(self, data: bytes, variant: str | None) -> list[tuple[str, str, int | None]]:
        if variant is None:
            return []
        from ._xcheck import KaitaiRejected, kaitai_records

        n = 0
        for offset, value in kaitai_records(io.BytesIO(data), Kind(variant)):
            if isinstance(value, KaitaiRejected):
                return [("kaitai", f"rejects record {n} at {offset}: {value.message}", offset)]
            n += 1
        return [("kaitai", f"accepts ({n} records)", None)]

    def divergences(self, data: bytes, variant: str | None) -> list[Divergence]:
        if variant is None:
            return []
        from ._xcheck import differential

        return [Divergence(d.message, d.offset) for d in differential(data, Kind(variant))]

    def located(self, findings: Sequence[Finding]) -> list[Finding]:
        return list(findings)


KAITAI = _Kaitai()
