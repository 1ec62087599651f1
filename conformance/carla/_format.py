"""The CARLA entry points the format registry calls: check, dump and the Kaitai
comparison of ``recspec reproduce``."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO, TextIO

from recspec._plain import to_plain
from recspec.errors import DecodeError
from recspec.formats import FORMATS, Divergence, Progress
from recspec.reference import carla as dec
from recspec.reference.carla import VARIANTS, Variant
from recspec.report import FileReport, Finding

from .._plugin import cross_check_within, decode_error_json, dump_json_stream
from ._check import check_stream, detect_variant

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "check", "dump"]

#: The Kaitai cross-check parses the whole file with the generated parser, which
#: is much slower than the reference path; files larger than this are not
#: cross-checked unless the caller raises the limit (``--cross-check-limit``).
MAX_CROSS_CHECK_SIZE = FORMATS["carla"].cross_check_limit


def _variant(name: str | None) -> Variant | None:
    return None if name is None else VARIANTS[name]


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool | str, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Progress | None = None, run_files: int | None = None) -> FileReport:
    report = check_stream(f, path=path, variant=_variant(variant), profile=profile, size=size, progress=progress)

    def run() -> None:
        from ._xcheck import cross_check_report

        assert report.variant is not None
        f.seek(0)
        xprogress = None if progress is None else (lambda done, total: progress(done, total, "cross-check"))
        # cross_check is True (the default: a sample of the units) or "full" (every byte)
        cross_check_report(f, report, VARIANTS[report.variant], size, progress=xprogress, full=cross_check == "full")

    cross_check_within(report, enabled=bool(cross_check) and report.variant is not None, size=size,
                       limit=cross_check_limit, run=run, sampled=cross_check is True, run_files=run_files)
    return report


def dump(f: BinaryIO, out: TextIO, *, variant: str | None, ksy: bool) -> None:
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
    if v is None:
        v, _ = detect_variant(f, offset, None)
    preamble = ('{"format": "carla", "variant": %s,\n' % json.dumps(v.name)
                + ' "header": %s,\n' % json.dumps({"offset": 0, "length": offset, **to_plain(header)}))
    dump_json_stream(out, preamble, "packets", _packets(f, v, offset))


def _packets(f: BinaryIO, v: Variant, offset: int) -> Iterator[dict[str, Any]]:
    for i, raw in enumerate(dec.PacketReader(f, v, offset)):
        entry: dict[str, Any] = {"index": i, "offset": raw.offset, "id": raw.packet_id,
                                 "kind": raw.kind.label, "size": len(raw.payload)}
        try:
            entry["body"] = to_plain(dec.decode_body(raw.kind, raw.payload, v, raw.payload_offset, f"packet[{i}]"))
        except DecodeError as e:
            entry["error"] = decode_error_json(e)
            entry["payload"] = raw.payload[:256].hex()
        yield entry


class _Kaitai:
    """The Kaitai reading of a CARLA log beside the reference's, packet by packet."""

    rule = "CARLA-XCHECK-001"

    def readings(self, data: bytes, variant: str | None) -> list[tuple[str, str, int | None]]:
        if variant is None:
            return []
        from ._xcheck import kaitai_parse

        try:
            rec = kaitai_parse(data, VARIANTS[variant])
        except Exception as e:  # noqa: BLE001 - any exception here is what reproduce came to see
            where = getattr(e, "offset", None)
            return [("kaitai", f"rejects: {type(e).__name__}: {e}", where if isinstance(where, int) else None)]
        return [("kaitai", f"accepts ({len(rec.packets)} packets)", None)]

    def divergences(self, data: bytes, variant: str | None) -> list[Divergence]:
        if variant is None:
            return []
        from ._xcheck import differential

        return [Divergence(d.message, d.offset, d.path) for d in differential(data, VARIANTS[variant])]

    def located(self, findings: Sequence[Finding]) -> list[Finding]:
        return list(findings)


KAITAI = _Kaitai()
