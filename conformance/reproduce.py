"""``recspec reproduce FILE``: replay a crash or regression file through both readers.

Prints what the reference decoder and checker say (verdict, findings), what the
Kaitai parser says, and every place where the two readings part, each with its
rule, offset, structural path and a hex window around the offset. Exit code 0
when the readings agree and no recspec error occurs, 1 otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence, TextIO

from recspec.formats import FormatInfo
from recspec.render import hex_window
from recspec.report import Finding

__all__ = ["hex_window", "reproduce"]

#: Files larger than this are not loaded whole for the Kaitai comparison.
MAX_REPRODUCE_SIZE = 64 * 1024 * 1024


def reproduce(path: Path, info: FormatInfo, *, variant: str | None, out: TextIO) -> int:
    from recspec.pipeline import check_file

    data = path.read_bytes()[:MAX_REPRODUCE_SIZE]
    out.write(f"{path}: {len(data)} bytes, format {info.id}\n\n")
    report = check_file(path, fmt=info, variant=variant, profile=None, cross_check=False)
    assert report is not None
    out.write(f"reference: verdict {report.verdict.value}, variant {report.variant}, {len(report.findings)} findings\n")
    for f in report.findings:
        out.write(f"  {f.severity.value.upper():7} {f.rule} @{f.offset} {f.path}: {f.message}\n")
    status = 0 if report.verdict.value not in ("crash", "timeout") else 1
    if info.id == "nanover" and report.variant is not None:
        return _reproduce_nanover(data, report, status, out)
    if info.id == "raskat-signal":
        return _reproduce_raskat(data, report, status, out)
    if info.id == "matrix-smt":
        return _reproduce_matrix_smt(data, report, status, out)
    if info.id != "carla" or report.variant is None:
        out.write("\nno Kaitai comparison for this format yet\n")
        return status
    from recspec.reference.carla import VARIANTS

    from .carla._xcheck import differential, kaitai_parse

    v = VARIANTS[report.variant]
    try:
        rec = kaitai_parse(data, v)
        out.write(f"\nkaitai:    accepts ({len(rec.packets)} packets)\n")
    except Exception as e:  # noqa: BLE001 - any exception here is what we came to see
        where = getattr(e, "offset", None)
        out.write(f"\nkaitai:    rejects: {type(e).__name__}: {e}\n")
        if isinstance(where, int):
            out.write(hex_window(data, where) + "\n")
    divergences = differential(data, v)
    return _agreement(data, report.findings, status, out, [
        (f"CARLA-XCHECK-001 @{d.offset} {d.path}: {d.message}", d.offset) for d in divergences])


def _agreement(data: bytes, findings: Sequence[Finding], status: int, out: TextIO,
               divergences: list[tuple[str, int]]) -> int:
    """Print where the readings part (``(line, offset)`` each), or that they agree and
    where the reference's first findings are; the exit status."""
    if not divergences:
        out.write("\nthe readings agree\n")
        for f in findings[:5]:
            if f.offset is not None:
                out.write(f"\n{f.rule} @{f.offset} {f.path}\n{hex_window(data, f.offset, f.length)}\n")
        return status
    out.write(f"\nthe readings diverge at {len(divergences)} place(s):\n")
    for line, offset in divergences:
        out.write(f"\n{line}\n{hex_window(data, offset, 5)}\n")
    return 1


def _reproduce_matrix_smt(data: bytes, report: Any, status: int, out: TextIO) -> int:
    """The Kaitai and pymongo readings of a Matrix-SMT file beside the reference's."""
    from .matrix_smt._xcheck import differential, kaitai_parse, pymongo_decode

    for name, read in (("kaitai", kaitai_parse), ("pymongo", pymongo_decode)):
        try:
            read(data)
            out.write(f"\n{name + ':':<10} accepts\n")
        except Exception as e:  # noqa: BLE001 - any exception here is what we came to see
            out.write(f"\n{name + ':':<10} rejects: {type(e).__name__}: {e}\n")
    return _agreement(data, report.findings, status, out,
                      [(f"MATRIX-XCHECK-001 {d}", d.offset) for d in differential(data)])


def _reproduce_nanover(data: bytes, report: Any, status: int, out: TextIO) -> int:
    """The Kaitai reading of a NanoVer file record by record, beside the reference's."""
    import io

    from recspec.reference.nanover import Kind

    from .nanover._xcheck import KaitaiRejected, differential, kaitai_records

    kind = Kind(report.variant)
    n = 0
    for offset, value in kaitai_records(io.BytesIO(data), kind):
        if isinstance(value, KaitaiRejected):
            out.write(f"\nkaitai:    rejects record {n} at {offset}: {value.message}\n{hex_window(data, offset)}\n")
            break
        n += 1
    else:
        out.write(f"\nkaitai:    accepts ({n} records)\n")
    return _agreement(data, report.findings, status, out, [
        (f"NANOVER-XCHECK-001 @{d.offset}: {d.message}", d.offset) for d in differential(data, kind)])


def _reproduce_raskat(data: bytes, report: Any, status: int, out: TextIO) -> int:
    """The Kaitai reading of a raSkat signal file beside the reference's."""
    from .raskat_signal._xcheck import KaitaiRejected, differential, kaitai_read

    try:
        sf = kaitai_read(data)
        out.write(f"\nkaitai:    accepts ({sf.container}, version {sf.signal.version})\n")
    except KaitaiRejected as e:
        out.write(f"\nkaitai:    rejects: {e.message}\n")
    # Offsets inside a tar.xz count from the signal member, so a hex window of the
    # compressed file would show the wrong bytes: only raw-file findings get one.
    raw_findings = [f for f in report.findings if not f.path.startswith("tar:")]
    return _agreement(data, raw_findings, status, out, [
        (f"RSIG-XCHECK-001 @{d.offset} {d.path}: {d.message}", d.offset) for d in differential(data)])
