"""The HTML report's picture of a raSkat signal: the waveform, in ADC codes and volts, with the threshold and the
trigger; findings marked where they occur (``recspec._svg``)."""

from __future__ import annotations

from recspec._svg import (
    LEFT,
    PALETTE,
    PLOT_W,
    WIDTH,
    Anchor,
    Panel,
    downsampled,
    draw_legend,
    esc,
    figure,
    nice_ticks,
    num,
    placed_findings,
    tick_label,
    timeline_svg,
    timeline_top,
)
from recspec.report import FileReport

from ._trace import RaskatTrace

__all__ = ["picture"]


def picture(fr: FileReport, tr: RaskatTrace, anchor: Anchor) -> str:
    """The HTML report's picture of the file (``recspec.formats.FormatModule.picture``)."""
    placed, loose = placed_findings(fr, anchor)
    if not tr.wave.n:
        return ""
    top = timeline_top(placed, loose)
    us = 1e6 / tr.rate if tr.rate else None
    x_of = (lambda i: i * us) if us else float
    n = tr.wave.n
    ext = tr.wave.extent() or (0.0, 1.0)
    lo, hi = ext
    full = (1 << tr.bits) - 1 if tr.bits else None
    if tr.threshold is not None:
        lo, hi = min(lo, tr.threshold), max(hi, tr.threshold)
    if full is not None and hi > full * 0.5:
        hi = max(hi, full)
    # the envelope is indexed by sample; the x axis shows time when the rate is known
    panel = Panel(top, 180, (0, max(n - 1, 1)), (min(lo, 0), hi), width=PLOT_W - 44)
    body = [panel.axes("", "ADC code", xticks=False)]
    right = panel.left + panel.width
    if full is not None and tr.vref is not None:  # the same codes in volts on the right
        ys, ystep = nice_ticks(panel.y0, panel.y1, 6)
        volts = ystep * tr.vref / full
        for v in ys:
            body.append(f'<text class="tick" x="{num(right + 4)}" y="{num(panel.py(v) + 3.5)}">'
                        f'{esc(tick_label(v * tr.vref / full, volts))}</text>')
        body.append(f'<text class="axis" transform="translate({num(right + 40)} {num(top + 90)}) rotate(90)" '
                    f'text-anchor="middle">volts (code \u00d7 Vref / {full})</text>')
    xs, xstep = nice_ticks(0, x_of(max(n - 1, 1)), 6)
    for v in xs:
        x = panel.px(v / us if us else v)
        if x > right + 1:
            break
        body.append(f'<path class="grid" d="M{num(x)} {num(top)}v180"/><text class="tick" x="{num(x)}" '
                    f'y="{num(top + 192)}" text-anchor="middle">{esc(tick_label(v, xstep))}</text>')
    xlabel = "time after the first sample (\u00b5s)" if us else "sample"
    body.append(f'<text class="axis" x="{num(LEFT + panel.width / 2)}" y="{num(top + 205)}" text-anchor="middle">'
                f'{xlabel}</text>')
    body.append(panel.series(tr.wave, PALETTE[0], label="samples"))
    legend = [(PALETTE[0], "samples")]
    if full is not None and tr.vref is not None and panel.y0 <= full <= panel.y1:
        y = panel.py(full)
        body.append(f'<path class="ref" d="M{LEFT} {num(y)}h{num(panel.width)}" stroke="#8250df"><title>full scale: '
                    f'code {full} = Vref {tr.vref:.3g} V</title></path>')
        legend.append(("#8250df", f"Vref {tr.vref:.3g} V (code {full})"))
    if tr.threshold is not None:
        y = panel.py(tr.threshold)
        body.append(f'<path class="ref" d="M{LEFT} {num(y)}h{num(panel.width)}" stroke="#bc4c00">'
                    f'<title>trigger threshold {tr.threshold}</title></path>')
        legend.append(("#bc4c00", f"threshold {tr.threshold}"))
        first = next((a for a, _, _, h in tr.wave.buckets() if h >= tr.threshold), None)
        if first is not None:
            x = panel.px(first)
            body.append(f'<path class="trigger" d="M{num(x)} {num(top)}v180"><title>trigger: first sample at or above '
                        f'the threshold (sample {first})</title></path>')
            legend.append(("#1a7f37", "trigger"))
    body.append(draw_legend(14, legend, left=WIDTH - 330))
    caption = (f"{n} samples" + (f" at {tr.rate:,} Hz" if tr.rate else "") + f" ({downsampled(tr.wave, 'sample')})"
               + (f"; the right axis is volts, the code over {full} times Vref {tr.vref:.3g} V"
                  if tr.vref and full else "")
               + ("; the trigger is the first sample at or above the threshold" if tr.threshold is not None else
                  "; this version stores no trigger threshold")
               + ". Marks are findings at their sample or, in the strip above, about a header field.")
    return figure([timeline_svg(top + 215, "waveform", "Waveform", body, panel, placed, loose, "header fields")],
                  caption)
