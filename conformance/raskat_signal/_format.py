"""The raSkat entry points the format registry calls: check and dump."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, BinaryIO, TextIO

from recspec._plain import to_plain
from recspec.errors import DecodeError
from recspec.formats import FORMATS, Divergence, Progress
from recspec.reference.raskat_signal import MAX_UNPACKED, Signal, SignalFile
from recspec.report import FileReport, Finding, Verdict

from .._plugin import cross_check_within, decode_error_json
from ._check import check_reading
from ._rules import RULES_BY_ID

__all__ = ["KAITAI", "MAX_CROSS_CHECK_SIZE", "MAX_FILE_SIZE", "check", "dump"]

#: The Kaitai parser builds about 1 KB of objects per MessagePack value (a
#: 256 KiB file of fixint samples peaks near 240 MB and takes seconds), so the
#: cross-check runs on files up to this size unless the caller raises it
#: (``--cross-check-limit``): 64 KiB, up to 64,000 v3 samples, about 60 MB. A
#: detector's files are a few hundred bytes.
MAX_CROSS_CHECK_SIZE = FORMATS["raskat-signal"].cross_check_limit

#: A file larger than this is not read (RSIG-LIMIT-001); a raw signal of 16 M samples is 32 MiB.
MAX_FILE_SIZE = MAX_UNPACKED


def _too_big(path: str, profile: str, size: int) -> FileReport:
    rule = RULES_BY_ID["RSIG-LIMIT-001"]
    return FileReport(path, "raskat-signal", None, profile, Verdict.MALFORMED, [Finding(
        rule.id, rule.level(profile), f"the file is {size} bytes, above the limit of {MAX_FILE_SIZE} "
        f"(MAX_FILE_SIZE); it is not read", 0, None, "")],
        {"version": None, "container": None, "samples": None, "sample_rate_hz": None})


def check(f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
          cross_check: bool, cross_check_limit: int = MAX_CROSS_CHECK_SIZE,
          progress: Progress | None = None, run_files: int | None = None) -> FileReport:
    if size > MAX_FILE_SIZE:
        return _too_big(path, profile, size)
    # the file's size, not the limit, sizes the read: a read of MAX_FILE_SIZE + 1 allocates that much
    # first, which costs more than checking a small signal
    data = f.read(size + 1)
    if len(data) > size:  # the file grew since its size was taken: read on, up to the limit
        data += f.read(MAX_FILE_SIZE + 1 - len(data))
    if len(data) > MAX_FILE_SIZE:
        return _too_big(path, profile, len(data))
    report, signal, refused = check_reading(data, path=path, variant=variant, profile=profile)

    def run() -> None:
        from ._xcheck import cross_check_report

        # without --variant the check read the file as ``decode`` does: the cross-check takes its reading,
        # or the error one of its decoding steps (container, member, body) ended with, as the reference's
        cross_check_report(data, report, reference=reference_reading(report, signal) if variant is None else None,
                           reference_error=refused if variant is None else None)

    # a long run reads a sample of its files by the rule every format follows (conformance/_plugin.py
    # ``run_sampled_out``): tar.xz files too, whose container the check has already read in full
    cross_check_within(report, enabled=cross_check, size=len(data), limit=cross_check_limit, run=run,
                       sampled=cross_check is True, run_files=run_files)
    return report


def reference_reading(report: FileReport, signal: Signal | None) -> SignalFile | None:
    """The reference's reading of the file (``decode``'s) from ``check_bytes``'s report and signal (without
    ``--variant``: the same decoder on the same bytes), so that the cross-check does not decode the file
    again; ``None`` when the check has no signal (``decode`` rejects the file)."""
    if signal is None:
        return None
    return SignalFile(report.stats["container"], signal, report.evidence.get("member"))


def dump(f: BinaryIO, out: TextIO, *, variant: str | None, ksy: bool) -> None:
    """The decoded signal as JSON: container, member, version and every field."""
    data = f.read(MAX_FILE_SIZE + 1)
    try:
        if ksy:
            from ._xcheck import kaitai_read

            sf = kaitai_read(data)
        else:
            from recspec.reference.raskat_signal import decode

            sf = decode(data)
        doc: dict[str, Any] = {"format": "raskat-signal", "reader": "kaitai" if ksy else "reference",
                               "container": sf.container, "member": sf.member, "version": sf.signal.version,
                               "signal": to_plain(sf.signal)}
        if not ksy:  # every field with its name, offset (from the start of the signal) and length
            from ._dump import signal_body, signal_fields

            doc["fields"] = signal_fields(sf.signal, signal_body(data, MAX_UNPACKED))
    except DecodeError as e:
        doc = {"format": "raskat-signal", "error": decode_error_json(e, path=True)}
    out.write(json.dumps(doc, indent=1, allow_nan=False) + "\n")


class _Kaitai:
    """The Kaitai reading of a raSkat signal file beside the reference's."""

    rule = "RSIG-XCHECK-001"

    def readings(self, data: bytes, variant: str | None) -> list[tuple[str, str, int | None]]:
        from ._xcheck import KaitaiRejected, kaitai_read

        try:
            sf = kaitai_read(data)
        except KaitaiRejected as e:
            return [("kaitai", f"rejects: {e.message}", None)]
        return [("kaitai", f"accepts ({sf.container}, version {sf.signal.version})", None)]

    def divergences(self, data: bytes, variant: str | None) -> list[Divergence]:
        from ._xcheck import differential

        return [Divergence(d.message, d.offset, d.path) for d in differential(data)]

    def located(self, findings: Sequence[Finding]) -> list[Finding]:
        # Offsets inside a tar.xz count from the signal member, so a hex window of the
        # compressed file would show the wrong bytes: only raw-file findings are located.
        return [f for f in findings if not f.path.startswith("tar:")]


KAITAI = _Kaitai()
