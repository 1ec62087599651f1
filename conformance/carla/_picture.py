"""The HTML report's picture of a CARLA recorder log: its actors seen from above and the frame timeline
(durationThis, elapsed); findings marked where they occur (``recspec._svg``)."""

from __future__ import annotations

from recspec._svg import (
    HERO,
    PALETTE,
    WIDTH,
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

from ._trace import CarlaTrace

__all__ = ["picture"]


def picture(fr: FileReport, tr: CarlaTrace, anchor: Anchor) -> str:
    """The HTML report's picture of the file (``recspec.formats.FormatModule.picture``)."""
    placed, loose = placed_findings(fr, anchor)
    frames = tr.frame + 1
    svgs = []
    tracks, left_out, stride = kept_tracks(tr.positions.tracks(), tr.hero, (1, 2))
    caption = []
    if tracks:
        colors = {tid: (HERO if tid in tr.hero else PALETTE[i % len(PALETTE)]) for i, (tid, _) in enumerate(tracks)}
        labels = {tid: f"actor {tid}{' (hero)' if tid in tr.hero else ''}" for tid, _ in tracks}
        body, bottom = top_view(26, tracks, 0.01, labels, colors, True, "x (m)", "y (m)")
        legend = [(HERO, "hero")] if tr.hero & {t for t, _ in tracks} else []
        legend += [("#fff", "start"), ("#57606a", "last position")]
        svgs.append(svg(bottom + 4, "actors' trajectories seen from above", [
            heading("Actors seen from above (Position records)"), draw_legend(14, legend, left=WIDTH - 260), body]))
        caption.append(f"Top: the Position records of {len(tracks)} actors{' (hero in red)' if tr.hero else ''}, "
                       f"x across and y down the page as CARLA's maps are drawn, in metres; the view fits the actors "
                       f"that move, standing ones are dots"
                       + (f"; {left_out} more actors that travel less are not drawn" if left_out else "")
                       + every(tr.positions.stride * stride) + ".")
    if frames > 0:
        d_ext = tr.duration.extent() or (0.0, 1.0)
        e_ext = tr.elapsed.extent() or (0.0, 1.0)
        top = timeline_top(placed, loose)
        p1 = Panel(top, 110, (0, max(frames - 1, 1)), (min(d_ext[0], 0.0), d_ext[1]))
        p2 = Panel(top + 130, 110, (0, max(frames - 1, 1)), e_ext)
        svgs.append(timeline_svg(top + 270, "frame timeline: durationThis and elapsed per frame",
                                 "Frames: durationThis and elapsed", [
            p1.axes("", "durationThis (s)", xticks=False), p1.series(tr.duration, PALETTE[0], label="durationThis"),
            p2.axes("frame", "elapsed (s)"), p2.series(tr.elapsed, PALETTE[1], label="elapsed"),
        ], p1, placed, loose, "header, file"))
        last = f"{tr.last_duration!r}" if tr.last_duration is not None else "unreadable"
        caption.append(f"Bottom: durationThis and elapsed of {frames} frames ({downsampled(tr.elapsed, 'frame')}); "
                       f"the last frame's durationThis ({last}; CARLA writes -1.0 there) is not drawn. "
                       + marks_caption("frame"))
    if not svgs:
        return ""
    return figure(svgs, " ".join(caption))
