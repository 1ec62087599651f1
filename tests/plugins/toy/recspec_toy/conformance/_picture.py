"""The HTML report's picture of a toy file: each record's value over the record index, findings marked at
their record (``recspec._svg``; ``FormatInfo.finding_index`` finds a finding's record in its path)."""

from __future__ import annotations

from recspec._svg import (
    PALETTE,
    Anchor,
    Panel,
    downsampled,
    figure,
    marks_caption,
    placed_findings,
    timeline_svg,
    timeline_top,
)
from recspec.report import FileReport

from ._trace import ToyTrace

__all__ = ["picture"]


def picture(fr: FileReport, tr: ToyTrace, anchor: Anchor) -> str:
    """The picture of the file (``recspec.formats.FormatModule.picture``); ``""`` for a file of no record."""
    records = tr.values.n
    if not records:
        return ""
    placed, loose = placed_findings(fr, anchor)
    top = timeline_top(placed, loose)
    lo, hi = tr.values.extent() or (0.0, 1.0)
    panel = Panel(top, 110, (0, max(records - 1, 1)), (min(lo, 0.0), max(hi, 1.0)))
    body = [panel.axes("record", "value"), panel.series(tr.values, PALETTE[0], label="value")]
    return figure([timeline_svg(top + 140, "record values", "Records: the value of each", body, panel, placed, loose,
                                "file")],
                  f"The values of {records} records ({downsampled(tr.values, 'record')}). " + marks_caption("record"))
