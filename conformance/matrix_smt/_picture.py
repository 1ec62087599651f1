"""The HTML report's picture of a Matrix-SMT recording: its objects seen from above and the frame timeline (time,
states); findings marked where they occur (``recspec._svg``)."""

from __future__ import annotations

from recspec._svg import (
    PALETTE,
    Anchor,
    Panel,
    downsampled,
    draw_legend,
    every,
    figure,
    heading,
    kept_tracks,
    marks_caption,
    placed_findings,
    svg,
    timeline_svg,
    timeline_top,
    top_view,
)
from recspec.report import FileReport

from ._trace import MatrixTrace

__all__ = ["picture"]


def picture(fr: FileReport, tr: MatrixTrace, anchor: Anchor) -> str:
    """The HTML report's picture of the file (``recspec.formats.FormatModule.picture``)."""
    placed, loose = placed_findings(fr, anchor)
    frames = tr.times.n
    svgs = []
    caption = []
    tracks, left_out, stride = kept_tracks(tr.positions.tracks(), set(), (1, 3))
    if tracks:
        colors = {tid: PALETTE[i % len(PALETTE)] for i, (tid, _) in enumerate(tracks)}
        labels = {tid: f"object {tid}" + (f" {tr.names[tid]!r}" if tid in tr.names else "") for tid, _ in tracks}
        body, bottom = top_view(26, tracks, 1.0, labels, colors, False, "x", "z")
        legend = draw_legend(bottom + 6, [(colors[t], labels[t]) for t, _ in tracks])
        svgs.append(svg(bottom + 14 + 14 * (len(tracks) // 4), "objects' trajectories seen from above", [
            heading("Objects seen from above (state positions p)"), body, legend]))
        caption.append(f"Top: the positions of {len(tracks)} objects, x across and z up the page (y, the height, "
                       "is not drawn); hollow circles are where they start"
                       + (f"; {left_out} more objects that travel less are not drawn" if left_out else "")
                       + every(tr.positions.stride * stride) + ".")
    if frames:
        top = timeline_top(placed, loose)
        t_ext = tr.times.extent() or (0.0, 1.0)
        s_ext = tr.states.extent() or (0.0, 1.0)
        p1 = Panel(top, 110, (0, max(frames - 1, 1)), (min(t_ext[0], 0.0), t_ext[1]))
        p2 = Panel(top + 130, 80, (0, max(frames - 1, 1)), (0.0, s_ext[1]))
        svgs.append(timeline_svg(top + 240, "frame timeline", "Frames: time and states per frame", [
            p1.axes("", "time (s)", xticks=False), p1.series(tr.times, PALETTE[0], label="time"),
            p2.axes("frame", "states"), p2.series(tr.states, PALETTE[2], label="states"),
        ], p1, placed, loose, "objects, file"))
        caption.append(f"Bottom: the time and number of states of {frames} frames "
                       f"({downsampled(tr.times, 'frame')}). " + marks_caption("frame"))
    if not svgs:
        return ""
    return figure(svgs, " ".join(caption))
