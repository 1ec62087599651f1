"""The HTML report's picture of a NanoVer recording: the record timeline (timestamps; particle.count and frame
resets of a .traj, the state's keys of a .state); findings marked where they occur (``recspec._svg``)."""

from __future__ import annotations

from recspec._svg import (
    LEFT,
    PALETTE,
    RIGHT,
    WIDTH,
    Anchor,
    Panel,
    downsampled,
    draw_legend,
    esc,
    figure,
    marks_caption,
    nice_ticks,
    num,
    placed_findings,
    plural,
    tick_label,
    timeline_svg,
    timeline_top,
)
from recspec.report import FileReport

from ._trace import NanoverTrace

__all__ = ["picture"]


def picture(fr: FileReport, tr: NanoverTrace, anchor: Anchor) -> str:
    """The HTML report's picture of the file (``recspec.formats.FormatModule.picture``)."""
    placed, loose = placed_findings(fr, anchor)
    n = tr.records
    if n == 0:
        return ""
    top = timeline_top(placed, loose)
    xr = (0, max(n - 1, 1)) if tr.kind == "traj" else (-0.5, n - 0.5)
    t_ext = tr.timestamps.extent() or (0.0, 1.0)
    left = LEFT if tr.kind == "traj" else 230
    p1 = Panel(top, 100, xr, t_ext, left=left, width=WIDTH - left - RIGHT)
    body = [p1.axes("", "timestamp (s)", xticks=False), p1.series(tr.timestamps, PALETTE[0], label="timestamp")]
    caption = [f"{plural(n, 'record')}: the timestamp of each ({downsampled(tr.timestamps, 'record')})"]
    if tr.kind == "traj":
        p_ext = tr.particles.extent() or (0.0, 1.0)
        p2 = Panel(top + 120, 100, xr, (0.0, p_ext[1]))
        body += [p2.axes("record", "particle.count"), p2.series(tr.particles, PALETTE[2], label="particle.count")]
        for r in tr.resets:
            x = p1.px(r)
            body.append(f'<path class="reset" d="M{num(x)} {num(top)}V{num(top + 220)}"><title>frame reset at record '
                        f'{r} (frame_index 0)</title></path>')
        if tr.resets:
            body.append(draw_legend(14, [("#bc4c00", "frame reset")], left=WIDTH - 130))
        bottom = top + 250
        caption.append(f", the aggregate frame's particle.count after it, and the {len(tr.resets)} frame resets "
                       "(frame_index 0) as dashed lines")
    else:
        keys = sorted(tr.changes)
        row = 14
        p2 = Panel(top + 120, max(row * len(keys), row), xr, (0, max(len(keys), 1)),
                    left=left, width=WIDTH - left - RIGHT, flip_y=True)
        body.append(f'<rect class="frame" x="{left}" y="{num(p2.top)}" width="{num(p2.width)}" '
                    f'height="{num(p2.height)}"/>')
        for i, key in enumerate(keys):
            y = p2.py(i + 0.5)
            shown = key if len(key) <= 34 else key[:33] + "\u2026"
            body.append(f'<text class="tick" x="{left - 4}" y="{num(y + 3.5)}" text-anchor="end">{esc(shown)}'
                        f'<title>{esc(key)}</title></text>')
            for index, deleted in tr.changes[key]:
                x = p2.px(index)
                fill = "#fff" if deleted else PALETTE[0]
                body.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="4" fill="{fill}" stroke="{PALETTE[0]}"><title>'
                            f'{esc(key)} {"deleted" if deleted else "set"} at record {index}</title></circle>')
        xs, xstep = nice_ticks(p2.x0, p2.x1, 6)
        for v in xs:
            if v == int(v):
                body.append(f'<text class="tick" x="{num(p2.px(v))}" y="{num(p2.top + p2.height + 12)}" '
                            f'text-anchor="middle">{esc(tick_label(v, max(xstep, 1)))}</text>')
        body.append(f'<text class="axis" x="{num(left + p2.width / 2)}" y="{num(p2.top + p2.height + 25)}" '
                    f'text-anchor="middle">record</text>')
        body.append(draw_legend(p2.top - 6, [(PALETTE[0], "key set"), ("#fff", "key deleted")], left=left))
        bottom = p2.top + p2.height + 30
        caption.append(f", and the records that set (filled) or delete (hollow) each of the state's "
                       f"{plural(len(keys), 'key')}")
    caption.append(". " + marks_caption("record"))
    title = "Records: timestamps" + (", frame resets and particle.count" if tr.kind == "traj" else " and state keys")
    return figure([timeline_svg(bottom, "record timeline", title, body, p1, placed, loose, "header, file")],
                  "".join(caption))
