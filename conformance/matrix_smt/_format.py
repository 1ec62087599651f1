"""The Matrix-SMT entry points the format registry calls: check and dump."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, BinaryIO, TextIO

from recspec.errors import DecodeError
from recspec.formats import FORMATS, Divergence, Progress
from recspec.reference.matrix_smt import T_ARRAY, RecordingWalker
from recspec.report import FileReport, Finding

from .._plugin import cross_check_within, decode_error_json, malformed_from
from ._check import check_stream
from ._json import plain

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "MAX_CROSS_CHECK_UNITS", "check", "dump"]

#: The Kaitai parser (debug mode: byte-by-byte key reads, a debug record per field)
#: reads about 0.3 MB/s here and holds about 250 bytes of memory per byte of input
#: (495 MiB peak for a 2 MB recording), and pymongo builds the whole document, so
#: files larger than this are not cross-checked unless the caller raises the limit
#: (``--cross-check-limit``); ``evidence.cross_check`` then says it was skipped.
MAX_CROSS_CHECK_SIZE = FORMATS["matrix-smt"].cross_check_limit


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool | str, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Progress | None = None, run_files: int | None = None) -> FileReport:
    """Check one recording (``variant`` is unused: the format has one layout)."""
    report = check_stream(f, path=path, profile=profile, size=size, progress=progress)
    from ._locate import add_element_lengths
    from ._rules import RULES_BY_ID

    add_element_lengths(report, f, size, RULES_BY_ID)  # SARIF regions and hex windows get the element's span

    def run() -> None:
        from ._xcheck import cross_check_report

        # cross_check is True (the default: a sample of the frames above 64 KiB) or "full" (every byte); a
        # malformed file in a long run is read from the top-level value the check found malformed
        # (conformance/_plugin.py malformed_from)
        full = cross_check == "full"
        start = None if full else malformed_from(report, run_files, RULES_BY_ID)
        cross_check_report(f, report, size, full=full, malformed_from=start)

    units = sum(v for k in _UNIT_STATS if isinstance(v := report.stats.get(k), int))
    if cross_check and size <= cross_check_limit and units > MAX_CROSS_CHECK_UNITS:
        # the predicted cost breaks the resource contract (README, "Limits"): skipped, and said why
        report.evidence["cross_check"] = (
            f"skipped: {units:,} frames, objects, states and commands is above the cross-check's budget of "
            f"{MAX_CROSS_CHECK_UNITS:,} (MAX_CROSS_CHECK_UNITS: Kaitai and pymongo hold about 2 KB and take "
            f"about 40 us per unit, so more would break recspec's memory and time bounds)")
        return report
    cross_check_within(report, enabled=bool(cross_check), size=size, limit=cross_check_limit, run=run,
                       sampled=cross_check is True, run_files=run_files,
                       reason="Kaitai and pymongo read the whole file; raise it with --cross-check-limit")
    return report


#: The cross-check's cost grows with the units the check counted, not with the bytes: about
#: 2 KB of memory and 40 us per frame, object, state or command (measured on floods of empty
#: frames: 187 MiB and 3 s for 80,000 in 0.95 MB). Files with more units are not cross-checked
#: (the real Scene1.bson holds 2,507); 20,000 cost about 40 MB and 0.8 s.
MAX_CROSS_CHECK_UNITS = 20_000
_UNIT_STATS = ("objects", "frames", "states", "commands")


def dump(f: BinaryIO, out: TextIO, *, variant: str | None, ksy: bool) -> None:
    """Write the decoded document as JSON with byte offsets, one frame per line
    (streamed: memory does not grow with the file)."""
    if ksy:
        from ._xcheck import dump_kaitai

        dump_kaitai(f, out, MAX_CROSS_CHECK_SIZE)
        return
    out.write('{"format": "matrix-smt",\n')
    error: DecodeError | None = None
    try:
        w = RecordingWalker(f)
        out.write(' "length": %d, "file_size": %d,\n "sections": [' % (w.declared, w.size))
        first = True
        for s in w.sections():
            head: dict[str, Any] = {"key": s.key, "offset": s.offset, "end": s.end, "type_code": s.type_code}
            out.write("\n  " if first else ",\n  ")
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
        out.write(',\n "error": %s' % json.dumps(decode_error_json(error, path=True)))
    out.write("\n}\n")


class _Kaitai:
    """The Kaitai and pymongo readings of a Matrix-SMT file beside the reference's."""

    rule = "MATRIX-XCHECK-001"

    def readings(self, data: bytes, variant: str | None) -> list[tuple[str, str, int | None]]:
        from ._xcheck import kaitai_parse, pymongo_decode

        out: list[tuple[str, str, int | None]] = []
        for name, read in (("kaitai", kaitai_parse), ("pymongo", pymongo_decode)):
            try:
                read(data)
                out.append((name, "accepts", None))
            except Exception as e:  # noqa: BLE001 - any exception here is what reproduce came to see
                out.append((name, f"rejects: {type(e).__name__}: {e}", None))
        return out

    def divergences(self, data: bytes, variant: str | None) -> list[Divergence]:
        from ._xcheck import differential

        return [Divergence(f"{d.reader}: {d.message}", d.offset, d.path, d.reader) for d in differential(data)]

    def located(self, findings: Sequence[Finding]) -> list[Finding]:
        return list(findings)


KAITAI = _Kaitai()
