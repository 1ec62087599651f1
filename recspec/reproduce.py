"""``recspec reproduce FILE``: replay a crash or regression file through both readers.

Prints what the reference decoder and checker say (verdict, findings), what the
Kaitai parser says, and every place where the two readings part, each with its
rule, offset, structural path and a hex window around the offset. Exit code 0
when the readings agree and no recspec error occurs, 1 otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from recspec.formats import FormatInfo
from recspec.pipeline import check_file
from recspec.render import finding_location, hex_window, severity_label
from recspec.report import Finding

__all__ = ["reproduce"]

#: Files larger than this are not loaded whole for the Kaitai comparison.
MAX_REPRODUCE_SIZE = 64 * 1024 * 1024


def reproduce(path: Path, info: FormatInfo, *, variant: str | None, out: TextIO) -> int:
    data = path.read_bytes()[:MAX_REPRODUCE_SIZE]
    out.write(f"{path}: {len(data)} bytes, format {info.id}\n\n")
    report = check_file(path, fmt=info, variant=variant, profile=None, cross_check=False)
    assert report is not None
    out.write(f"reference: verdict {report.verdict.value}, variant {report.variant}, {len(report.findings)} findings\n")
    for f in report.findings:
        located = finding_location(f.offset, f.path)
        out.write(f"  {severity_label(f.severity):7} {f.rule}{' ' + located if located else ''}: {f.message}\n")
    status = 0 if report.verdict.value not in ("crash", "timeout") else 1
    kaitai_variant = report.variant
    if info.variants and kaitai_variant is None:
        # nothing told the variant (a header that does not decode): the Kaitai parser still reads the file,
        # as the format's newest variant, so every format gets a comparison (--variant picks another)
        kaitai_variant = info.variants[-1]
        out.write(f"\nthe variant could not be detected; the Kaitai parser reads the file as {kaitai_variant} "
                  "(force one with --variant)\n")
    comparison = info.load().KAITAI
    for reader, said, where in comparison.readings(data, kaitai_variant):
        out.write(f"\n{reader + ':':<10} {said}\n")
        if where is not None:
            out.write(hex_window(data, where) + "\n")
    return _agreement(data, comparison.located(report.findings), status, out, [
        (f"{comparison.rule} {d}", d.offset) for d in comparison.divergences(data, kaitai_variant)])


def _agreement(data: bytes, findings: Sequence[Finding], status: int, out: TextIO,
               divergences: list[tuple[str, int]]) -> int:
    """Print where the readings part (``(line, offset)`` each), or that they agree and
    where the reference's first findings are; the exit status."""
    if not divergences:
        out.write("\nthe readings agree\n")
        for f in findings[:5]:
            if f.offset is not None:
                out.write(f"\n{f.rule} {finding_location(f.offset, f.path)}\n{hex_window(data, f.offset, f.length)}\n")
        return status
    out.write(f"\nthe readings diverge at {len(divergences)} place(s):\n")
    for line, offset in divergences:
        out.write(f"\n{line}\n{hex_window(data, offset, 5)}\n")
    return 1
