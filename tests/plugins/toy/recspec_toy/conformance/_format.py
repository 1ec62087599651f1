"""The toy checker, ``dump`` and the Kaitai comparison."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any, BinaryIO, TextIO

from recspec.conformance._plugin import cross_check_within, dump_json_stream
from recspec.conformance._sink import FindingSink, add_late_findings
from recspec.errors import DecodeError
from recspec.formats import Divergence, Progress
from recspec.report import FileReport, Finding, Verdict
from recspec.trace import enabled as trace_enabled

from .. import FORMAT
from ..reference import HEADER_SIZE, RECORD, RECORD_SIZE, Record, checksum_of, decode, iter_records, read_header
from ._rules import RULES_BY_ID
from ._trace import ToyTrace

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "check", "check_bytes", "dump"]

MAX_CROSS_CHECK_SIZE = FORMAT.cross_check_limit
XCHECK = "TOY-XCHECK-001"


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Progress | None = None, run_files: int | None = None) -> FileReport:
    # run_files (the size of the run) goes unread: the toy cross-checks every file of a run, sampling none
    # a valid file is at most 8 + 8 x 65535 bytes: what lies beyond is read only to say how much
    data = f.read(HEADER_SIZE + 0xFFFF * RECORD_SIZE + 1)
    report = check_bytes(data, path=path, variant=variant, profile=profile, size=max(size, len(data)))

    def run() -> None:
        level = RULES_BY_ID[XCHECK].level(profile)
        add_late_findings(report, RULES_BY_ID[XCHECK], [Finding(XCHECK, level, d.message, d.offset, path=d.path)
                                                        for d in KAITAI.divergences(data, None)])

    cross_check_within(report, enabled=bool(cross_check), size=len(data), limit=cross_check_limit, run=run)
    return report


def check_bytes(data: bytes, *, path: str, variant: str | None = None, profile: str = "spec",
                size: int | None = None) -> FileReport:
    """The report of a whole file's bytes (``size``: the file's size when ``data`` is its first part)."""
    FORMAT.check_variant(variant)
    sink = FindingSink(RULES_BY_ID, profile)
    report = FileReport(path, FORMAT.id, None, profile, Verdict.VALID)
    report.stats = {"version": None, "records": 0}
    try:
        version, flags, count = read_header(data[:HEADER_SIZE])
    except DecodeError as e:
        sink.add(e.rule or "TOY-SIZE-001", e.message, e.offset, path=e.path)
        return sink.fill(report)
    report.stats["version"] = version
    if version != 1:
        sink.add("TOY-VERSION-001", f"version is {version}, not 1", 4, 1, "version", 1, version)
    if flags:
        sink.add("TOY-FLAGS-001", f"flags is {flags:#04x}, not 0", 5, 1, "flags", 0, flags)
    total = size if size is not None else len(data)
    end = HEADER_SIZE + count * RECORD_SIZE
    if total < end:
        sink.add("TOY-SIZE-001", f"{count} records end at byte {end}, the file has {total} bytes", total,
                 path=f"records[{(total - HEADER_SIZE) // RECORD_SIZE}]", expected=end, actual=total)
    elif total > end:
        sink.add("TOY-SIZE-001", f"{total - end} bytes after the last of {count} records", end, total - end,
                 "end", end, total)
    trace = ToyTrace() if trace_enabled() else None
    previous: int | None = None
    whole = min(count, (len(data) - HEADER_SIZE) // RECORD_SIZE)  # a truncated file: its whole records
    for i in range(whole):
        at = HEADER_SIZE + i * RECORD_SIZE
        r = Record(*RECORD.unpack_from(data, at))
        _judge(sink, r, at, i, previous)
        if trace is not None:
            trace.values.add(r.value)
        previous = r.record_id
    report.stats["records"] = whole
    report.trace = trace
    return sink.fill(report)


def _judge(sink: FindingSink, r: Record, at: int, i: int, previous: int | None) -> None:
    want = checksum_of(r.record_id, r.value)
    if r.checksum != want:
        sink.add("TOY-CHECKSUM-001", f"checksum is {r.checksum}, the record's bytes sum to {want}", at + 6, 1,
                 f"records[{i}].checksum", want, r.checksum)
    if r.reserved:
        sink.add("TOY-RESERVED-001", f"reserved byte is {r.reserved:#04x}, not 0", at + 7, 1,
                 f"records[{i}].reserved", 0, r.reserved)
    if previous is not None and r.record_id <= previous:
        sink.add("TOY-ORDER-001", f"id {r.record_id} follows id {previous}", at, 2, f"records[{i}].record_id",
                 f"> {previous}", r.record_id)


def dump(f: BinaryIO, out: TextIO, *, variant: str | None, ksy: bool) -> None:
    """The records as JSON, one per line (``--ksy``: as the generated Kaitai parser reads them)."""
    FORMAT.check_variant(variant)
    if ksy:
        data = f.read()
        try:
            parsed = _kaitai(data)
        except Exception as e:  # noqa: BLE001 - the parser's rejection is what --ksy shows
            out.write(json.dumps({"format": "toy", "reader": "kaitai", "error": f"{type(e).__name__}: {e}"}) + "\n")
            return
        items: Any = ({"record_id": r.record_id, "value": r.value, "checksum": r.checksum, "reserved": r.reserved}
                      for r in parsed.records)
        head = {"version": parsed.version, "flags": parsed.flags, "count": parsed.count}
        dump_json_stream(out, '{"format": "toy", "reader": "kaitai", "header": %s,\n' % json.dumps(head), "records",
                         items)
        return
    head_bytes = f.read(HEADER_SIZE)
    f.seek(0)
    try:
        version, flags, count = read_header(head_bytes)
        head = {"version": version, "flags": flags, "count": count}
    except DecodeError:
        head = {}
    dump_json_stream(out, '{"format": "toy", "header": %s,\n' % json.dumps(head), "records",
                     ({"record_id": r.record_id, "value": r.value, "checksum": r.checksum, "reserved": r.reserved}
                      for r in iter_records(f)))


def _kaitai(data: bytes) -> Any:
    from kaitaistruct import KaitaiStream

    from .._ksy.toy import Toy

    return Toy(KaitaiStream(io.BytesIO(data)))


class _Kaitai:
    """The generated parser of ksy/toy.ksy beside the reference (``recspec reproduce``, the cross-check)."""

    rule = XCHECK

    def _both(self, data: bytes) -> tuple[Any, str | None, Any, DecodeError | None]:
        try:
            parsed, rejected = _kaitai(data), None
        except Exception as e:  # noqa: BLE001 - any parser exception is its rejection
            parsed, rejected = None, f"{type(e).__name__}: {e}"
        try:
            model, refused = decode(data), None
        except DecodeError as e:
            model, refused = None, e
        return parsed, rejected, model, refused

    def readings(self, data: bytes, variant: str | None) -> list[tuple[str, str, int | None]]:
        parsed, rejected, model, refused = self._both(data)
        return [("kaitai", f"accepts ({len(parsed.records)} records)" if parsed is not None
                 else f"rejects: {rejected}", None),
                ("reference", f"accepts ({len(model.records)} records)" if model is not None
                 else f"rejects: {refused}", refused.offset if refused is not None else None)]

    def divergences(self, data: bytes, variant: str | None) -> list[Divergence]:
        parsed, rejected, model, refused = self._both(data)
        if (parsed is None) != (model is None):
            who = "Kaitai rejects what the reference accepts" if parsed is None else \
                "the reference rejects what Kaitai accepts"
            return [Divergence(f"{who}: {rejected or refused}", refused.offset if refused else 0)]
        if parsed is None or model is None:
            return []
        out = []
        for name in ("version", "flags"):
            if getattr(parsed, name) != getattr(model, name):
                out.append(Divergence(f"{name}: kaitai {getattr(parsed, name)} != reference {getattr(model, name)}",
                                      4 if name == "version" else 5, name))
        for i, (k, r) in enumerate(zip(parsed.records, model.records)):
            for name in ("record_id", "value", "checksum", "reserved"):
                if getattr(k, name) != getattr(r, name):
                    out.append(Divergence(f"{name}: kaitai {getattr(k, name)} != reference {getattr(r, name)}",
                                          HEADER_SIZE + i * RECORD_SIZE, f"records[{i}].{name}"))
        return out

    def located(self, findings: Sequence[Finding]) -> list[Finding]:
        return [f for f in findings if f.offset is not None]


KAITAI = _Kaitai()
