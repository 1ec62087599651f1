"""The pictures of the HTML report: each recording drawn as inline SVG from its trace.

One function per format draws a :mod:`recspec.trace` object (filled during the
check's walk, so drawing reads nothing from the file) and marks every finding
where it occurs: at its frame, record or sample on the timeline, or in a strip
of marks for findings about the file as a whole (header fields, the container).
Each mark links to the finding's entry in the report and names it in a tooltip.

The SVG is written by hand (ARCHITECTURE.md says why): numbers at fixed
precision, elements in a fixed order, so the same trace gives the same bytes.
Its size is bounded whatever the recording's length: a series is drawn from at
most ``MAX_BUCKETS`` min/max buckets, trajectories from at most
``MAX_TRACK_POINTS`` points of at most ``MAX_TRACKS`` tracks (plus the hero), and at
most one mark per run of a rule's findings on a timeline. Those caps keep
one file's picture under ``PICTURE_BUDGET`` bytes.
"""

from __future__ import annotations

import html
import itertools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..report import FileReport, Finding, Severity
from ..trace import CarlaTrace, Envelope, MatrixTrace, NanoverTrace, RaskatTrace

__all__ = ["MAX_BUCKETS", "MAX_TRACKS", "MAX_TRACK_POINTS", "PICTURE_BUDGET", "picture"]

#: Buckets (min/max pairs) drawn per series at most: about one per two pixels of the plot's width.
MAX_BUCKETS = 288
#: Tracks (actors, objects) drawn at most besides the hero, the ones that travel farthest.
MAX_TRACKS = 24
#: Points of all tracks of one picture together.
MAX_TRACK_POINTS = 2000
#: Findings of one rule closer than twice this many pixels on a timeline share one mark (a bar over the run).
MARK_SPACING = 4
#: Findings with no place on the timeline marked in the file strip at most.
MAX_FILE_MARKS = 24
#: The bound the caps above keep one picture under (a test holds the report to it).
PICTURE_BUDGET = 64 * 1024

WIDTH = 640
_LEFT, _RIGHT = 64, 16
_PLOT_W = WIDTH - _LEFT - _RIGHT
_COLORS = {Severity.ERROR: "#cf222e", Severity.WARNING: "#9a6700", Severity.INFO: "#0969da", Severity.OFF: "#57606a"}
_PALETTE = ("#0969da", "#1a7f37", "#8250df", "#bc4c00", "#1b7c83", "#6639ba", "#9a6700", "#bf3989", "#57606a")
_HERO = "#cf222e"

Anchor = Callable[[Finding], str]


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _n(v: float) -> str:
    """A pixel coordinate: one decimal, no trailing zeros, no negative zero."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _ticks(lo: float, hi: float, n: int = 5) -> tuple[list[float], float]:
    span = hi - lo
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    out = []
    v = first
    while v <= hi + step * 1e-9:
        out.append(0.0 if abs(v) < step * 1e-9 else v)
        v += step
    return out, step


def _label(v: float, step: float) -> str:
    if abs(v) >= 1e7 or (v and abs(v) < 1e-4):
        return f"{v:.3g}"
    d = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    return f"{v:,.{d}f}"


def _span(lo: float, hi: float) -> tuple[float, float]:
    if hi > lo:
        return lo, hi
    pad = abs(lo) * 0.05 or 0.5
    return lo - pad, hi + pad


class _Panel:
    """One plot: data ranges mapped to a rectangle of the SVG, with its axes."""

    def __init__(self, top: float, height: float, x: tuple[float, float], y: tuple[float, float],
                 left: float = _LEFT, width: float = _PLOT_W, flip_y: bool = False) -> None:
        self.top, self.height, self.left, self.width = top, height, left, width
        self.x0, self.x1 = _span(*x)
        self.y0, self.y1 = _span(*y)
        self.flip_y = flip_y

    def px(self, v: float) -> float:
        return self.left + (v - self.x0) / (self.x1 - self.x0) * self.width

    def py(self, v: float) -> float:
        f = (v - self.y0) / (self.y1 - self.y0)
        return self.top + (f if self.flip_y else 1 - f) * self.height

    def axes(self, xlabel: str, ylabel: str, xticks: bool = True) -> str:
        t, h, left, w = self.top, self.height, self.left, self.width
        out = [f'<rect class="frame" x="{_n(left)}" y="{_n(t)}" width="{_n(w)}" height="{_n(h)}"/>']
        ys, ystep = _ticks(self.y0, self.y1, max(3, int(h // 30)))
        for v in ys:
            y = self.py(v)
            out.append(f'<path class="grid" d="M{_n(left)} {_n(y)}h{_n(w)}"/>'
                       f'<text class="tick" x="{_n(left - 4)}" y="{_n(y + 3.5)}" text-anchor="end">'
                       f'{_e(_label(v, ystep))}</text>')
        if xticks:
            xs, xstep = _ticks(self.x0, self.x1, 6)
            for v in xs:
                x = self.px(v)
                out.append(f'<path class="grid" d="M{_n(x)} {_n(t)}v{_n(h)}"/>'
                           f'<text class="tick" x="{_n(x)}" y="{_n(t + h + 12)}" text-anchor="middle">'
                           f'{_e(_label(v, xstep))}</text>')
            out.append(f'<text class="axis" x="{_n(left + w / 2)}" y="{_n(t + h + 25)}" text-anchor="middle">'
                       f'{_e(xlabel)}</text>')
        out.append(f'<text class="axis" transform="translate({_n(left - 48)} {_n(t + h / 2)}) rotate(-90)" '
                   f'text-anchor="middle">{_e(ylabel)}</text>')
        return "".join(out)

    def series(self, env: Envelope, color: str, scale: float = 1.0, label: str = "") -> str:
        """An envelope as a line (one value per bucket) or a min/max band."""
        buckets = _merged(env)
        if not buckets:
            return ""
        title = f"<title>{_e(label)}</title>" if label else ""
        if all(lo == hi for _, _, lo, hi in buckets) or (env.width == 1 and len(buckets) == env.n):
            pts = " ".join(f"{_n(self.px((a + b) / 2))},{_n(self.py(lo * scale))}" for a, b, lo, _ in buckets)
            if len(buckets) == 1:
                a, b, lo, _ = buckets[0]
                return (f'<circle cx="{_n(self.px((a + b) / 2))}" cy="{_n(self.py(lo * scale))}" r="2.5" '
                        f'fill="{color}">{title}</circle>')
            return f'<polyline class="line" stroke="{color}" points="{pts}">{title}</polyline>'
        top = [f"{_n(self.px(a))},{_n(self.py(hi * scale))} {_n(self.px(b + 1))},{_n(self.py(hi * scale))}"
               for a, b, _, hi in buckets]
        bottom = [f"{_n(self.px(b + 1))},{_n(self.py(lo * scale))} {_n(self.px(a))},{_n(self.py(lo * scale))}"
                  for a, b, lo, _ in reversed(buckets)]
        return (f'<polygon class="band" fill="{color}" stroke="{color}" points="{" ".join(top + bottom)}">'
                f"{title}</polygon>")


def _merged(env: Envelope) -> list[tuple[int, int, float, float]]:
    """The envelope's buckets, neighbours merged until at most MAX_BUCKETS remain."""
    buckets = list(env.buckets())
    while len(buckets) > MAX_BUCKETS:
        merged = []
        for i in range(0, len(buckets), 2):
            pair = buckets[i:i + 2]
            merged.append((pair[0][0], pair[-1][1], min(p[2] for p in pair), max(p[3] for p in pair)))
        buckets = merged
    return buckets


# --- finding marks -----------------------------------------------------------------------------

_INDEX = {
    "carla": re.compile(r"^frame\[(\d+)\]"),
    "nanover": re.compile(r"^record\[(\d+)\]"),
    "matrix-smt": re.compile(r"^frames\[(\d+)\]"),
    "raskat-signal": re.compile(r"samples\[(\d+)\]"),
}


def _placed(fr: FileReport, anchor: Anchor) -> tuple[list[tuple[int, Finding, str]], list[tuple[Finding, str]]]:
    """Findings with their frame/record/sample index, and those without one."""
    rx = _INDEX.get(fr.format or "")
    at: list[tuple[int, Finding, str]] = []
    loose: list[tuple[Finding, str]] = []
    for f in fr.findings:
        m = rx.search(f.path) if rx else None
        if m:
            at.append((int(m.group(1)), f, anchor(f)))
        else:
            loose.append((f, anchor(f)))
    return at, loose


def _title(f: Finding, more: int = 0) -> str:
    where = f" at {f.path}" if f.path else (f" @{f.offset}" if f.offset is not None else "")
    extra = f" (and {more} more of this rule here)" if more else ""
    return f"{f.rule} ({f.severity.value}){where}: {f.message}{extra}"


def _mark(x: float, y: float, f: Finding, href: str, more: int = 0) -> str:
    return (f'<a href="#{_e(href)}" class="mark"><title>{_e(_title(f, more))}</title>'
            f'<path d="M{_n(x)} {_n(y)}l-4.5 -8h9z" fill="{_COLORS[f.severity]}"/></a>')


def _timeline_marks(panel: _Panel, placed: Sequence[tuple[int, Finding, str]], x_of: Callable[[int], float]) -> str:
    """Marks just above the panel, one row per rule: a triangle at a lone finding's x, or a triangle
    and a bar over a run of findings of one rule less than 2 * MARK_SPACING pixels apart (a rule that
    fires in every frame is one bar, not a thousand marks). Each links to its first finding."""
    by_rule: dict[str, list[tuple[float, int, Finding, str]]] = {}
    for index, f, href in placed:
        x = panel.px(x_of(index))
        if panel.left - 1 <= x <= panel.left + panel.width + 1:
            by_rule.setdefault(f.rule, []).append((x, index, f, href))
    out = []
    for row, rule in enumerate(sorted(by_rule)):
        items = sorted(by_rule[rule], key=lambda t: (t[0], t[1]))
        runs: list[list[tuple[float, int, Finding, str]]] = []
        for item in items:
            if runs and item[0] - runs[-1][-1][0] < 2 * MARK_SPACING:
                runs[-1].append(item)
            else:
                runs.append([item])
        y = panel.top - 1 - 9 * (row % 3)
        for run in runs:
            x, index, f, href = run[0]
            if len(run) == 1:
                out.append(_mark(x, y, f, href))
                out.append(f'<path class="tick-mark" d="M{_n(x)} {_n(panel.top)}v{_n(panel.height)}" '
                           f'stroke="{_COLORS[f.severity]}"/>')
                continue
            x1 = run[-1][0]
            title = _e(f"{_title(f)} (the first of {len(run)} findings of this rule "
                       f"from index {index} to {run[-1][1]})")
            out.append(f'<a href="#{_e(href)}" class="mark"><title>{title}</title>'
                       f'<path d="M{_n(x)} {_n(y)}l-4.5 -8h9z" fill="{_COLORS[f.severity]}"/>'
                       f'<rect x="{_n(x)}" y="{_n(y - 5)}" width="{_n(max(x1 - x, 1))}" height="3" '
                       f'fill="{_COLORS[f.severity]}"/></a>')
    return "".join(out)


def _file_marks(top: float, loose: Sequence[tuple[Finding, str]], what: str) -> str:
    if not loose:
        return ""
    out = [f'<text class="axis" x="{_LEFT}" y="{_n(top + 4)}">{_e(what)}:</text>']
    x = _LEFT + 7.2 * len(what) + 14
    for f, href in loose[:MAX_FILE_MARKS]:
        out.append(_mark(x, top + 5, f, href))
        x += 13
    if len(loose) > MAX_FILE_MARKS:
        out.append(f'<text class="tick" x="{_n(x)}" y="{_n(top + 4)}">+{len(loose) - MAX_FILE_MARKS} more</text>')
    return "".join(out)


def _legend(top: float, items: Iterable[tuple[str, str]], left: float = _LEFT) -> str:
    out = []
    x = left
    for color, text in items:
        out.append(f'<rect x="{_n(x)}" y="{_n(top - 8)}" width="10" height="10" fill="{color}" stroke="#57606a" '
                   'stroke-width=".5"/>'
                   f'<text class="tick" x="{_n(x + 14)}" y="{_n(top + 1)}">{_e(text)}</text>')
        x += 24 + 6.2 * len(text)
        if x > WIDTH - 100:
            top += 14
            x = left
    return "".join(out)


def _svg(height: float, label: str, body: Iterable[str]) -> str:
    return (f'<svg class="picture" viewBox="0 0 {WIDTH} {_n(height)}" width="{WIDTH}" height="{_n(height)}" '
            f'role="img" aria-label="{_e(label)}" xmlns="http://www.w3.org/2000/svg">' + "".join(body) + "</svg>")


def _figure(svgs: Sequence[str], caption: str) -> str:
    return f'<figure>{"".join(svgs)}<figcaption>{_e(caption)}</figcaption></figure>'


def _top(placed: Sequence[tuple[int, Finding, str]], loose: Sequence[tuple[Finding, str]]) -> float:
    """Where a timeline's first panel starts: below the title, the strip of file marks (if any) and
    the rows of timeline marks (one per rule, at most three)."""
    return (44 if loose else 26) + 9 * min(len({f.rule for _, f, _ in placed}), 3) + 4


def _every(stride: int) -> str:
    return f"; one frame in {stride} drawn" if stride > 1 else ""


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _downsampled(env: Envelope, unit: str) -> str:
    width = max(env.width, -(-env.n // MAX_BUCKETS) if len(list(env.buckets())) > MAX_BUCKETS else env.width)
    if width <= 1:
        return f"every {unit} drawn"
    return f"min/max of each {width} {unit}s drawn as a band"


# --- per format --------------------------------------------------------------------------------


def _tracks(sampler_tracks: dict[int, list[tuple[int, float, float, float]]], keep: set[int],
            axes: tuple[int, int]) -> tuple[list[tuple[int, list[tuple[float, float]]]], int, int]:
    """The tracks to draw (kept ids first, then the ones that travel farthest), thinned to the point
    budget: (id, [(a, b), ...]) pairs, how many tracks were left out, the thinning stride."""
    ia, ib = axes

    def travel(points: list[tuple[int, float, float, float]]) -> float:
        return sum(math.hypot(p[ia] - q[ia], p[ib] - q[ib]) for p, q in itertools.pairwise(points))

    finite = {k: [p for p in v if math.isfinite(p[ia]) and math.isfinite(p[ib])] for k, v in sampler_tracks.items()}
    finite = {k: v for k, v in finite.items() if v}
    order = sorted(finite, key=lambda k: (k not in keep, -travel(finite[k]), k))
    chosen = [k for k in order if k in keep] + [k for k in order if k not in keep][:MAX_TRACKS]
    total = sum(len(finite[k]) for k in chosen)
    stride = max(1, -(-total // MAX_TRACK_POINTS))
    out = []
    for k in chosen:
        pts = finite[k]
        thinned = pts[::stride]
        if thinned[-1] is not pts[-1]:
            thinned.append(pts[-1])
        out.append((k, [(p[ia], p[ib]) for p in thinned]))
    return out, len(finite) - len(chosen), stride


def _moves(pts: list[tuple[float, float]], eps: float) -> bool:
    """The track goes farther than ``eps`` from where it starts (a spawned actor settling does not count)."""
    a0, b0 = pts[0]
    return any(abs(a - a0) > eps or abs(b - b0) > eps for a, b in pts)


def _top_view(top: float, tracks: list[tuple[int, list[tuple[float, float]]]], scale: float, labels: dict[int, str],
              colors: dict[int, str], flip_y: bool, xlabel: str, ylabel: str, height: float = 300) -> tuple[str, float]:
    """Tracks seen from above, at one scale on both axes. The view fits the tracks that move (those
    that stand still are drawn as dots where they fall inside it), or all of them if none moves."""
    eps = 1.0 / scale  # one unit of the drawing (a metre for CARLA)
    framing = [pts for _, pts in tracks if _moves(pts, eps)] or [pts for _, pts in tracks]
    xs = [p[0] * scale for pts in framing for p in pts]
    ys = [p[1] * scale for pts in framing for p in pts]
    x0, x1 = _span(min(xs), max(xs))
    y0, y1 = _span(min(ys), max(ys))
    pad = max(x1 - x0, y1 - y0) * 0.05
    x0, x1, y0, y1 = x0 - pad, x1 + pad, y0 - pad, y1 + pad
    # equal scale on both axes, centred in the panel
    k = min(_PLOT_W / (x1 - x0), height / (y1 - y0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hw, hh = _PLOT_W / k / 2, height / k / 2
    panel = _Panel(top, height, (cx - hw, cx + hw), (cy - hh, cy + hh), flip_y=flip_y)
    out = [panel.axes(xlabel, ylabel)]
    for tid, pts in tracks:
        inside = all(panel.x0 <= a * scale <= panel.x1 and panel.y0 <= b * scale <= panel.y1
                     for a, b in pts[::max(1, len(pts) // 8)])
        if not inside and not _moves(pts, eps):
            continue  # a standing actor outside the view of the moving ones
        color = colors.get(tid, "#8c959f")
        hero = color == _HERO
        title = f"<title>{_e(labels.get(tid, f'id {tid}'))}</title>"
        if len(pts) > 1:
            d = " ".join(f"{_n(panel.px(a * scale))},{_n(panel.py(b * scale))}" for a, b in pts)
            kind = "track hero" if hero else "track"
            out.append(f'<polyline class="{kind}" stroke="{color}" points="{d}">{title}</polyline>')
        a, b = pts[-1]
        out.append(f'<circle cx="{_n(panel.px(a * scale))}" cy="{_n(panel.py(b * scale))}" r="{3.5 if hero else 2.5}" '
                   f'fill="{color}">{title}</circle>')
        a0, b0 = pts[0]
        if len(pts) > 1:
            out.append(f'<circle cx="{_n(panel.px(a0 * scale))}" cy="{_n(panel.py(b0 * scale))}" r="2.5" fill="#fff" '
                       f'stroke="{color}">{title}</circle>')
    return "".join(out), top + height + 30


def _carla(fr: FileReport, tr: CarlaTrace, anchor: Anchor) -> str:
    placed, loose = _placed(fr, anchor)
    frames = tr.frame + 1
    svgs = []
    tracks, left_out, stride = _tracks(tr.positions.tracks(), tr.hero, (1, 2))
    caption = []
    if tracks:
        colors = {tid: (_HERO if tid in tr.hero else _PALETTE[i % len(_PALETTE)]) for i, (tid, _) in enumerate(tracks)}
        labels = {tid: f"actor {tid}{' (hero)' if tid in tr.hero else ''}" for tid, _ in tracks}
        body, bottom = _top_view(26, tracks, 0.01, labels, colors, True, "x (m)", "y (m)")
        legend = [(_HERO, "hero")] if tr.hero & {t for t, _ in tracks} else []
        legend += [("#fff", "start"), ("#57606a", "last position")]
        svgs.append(_svg(bottom + 4, "actors' trajectories seen from above", [
            '<text class="title" x="8" y="14">Actors seen from above (Position records)</text>',
            _legend(14, legend, left=WIDTH - 260), body]))
        caption.append(f"Top: the Position records of {len(tracks)} actors{' (hero in red)' if tr.hero else ''}, "
                       f"x across and y down the page as CARLA's maps are drawn, in metres; the view fits the actors "
                       f"that move, standing ones are dots"
                       + (f"; {left_out} more actors that travel less are not drawn" if left_out else "")
                       + _every(tr.positions.stride * stride) + ".")
    if frames > 0:
        d_ext = tr.duration.extent() or (0.0, 1.0)
        e_ext = tr.elapsed.extent() or (0.0, 1.0)
        top = _top(placed, loose)
        p1 = _Panel(top, 110, (0, max(frames - 1, 1)), (min(d_ext[0], 0.0), d_ext[1]))
        p2 = _Panel(top + 130, 110, (0, max(frames - 1, 1)), e_ext)
        svgs.append(_svg(top + 270, "frame timeline: durationThis and elapsed per frame", [
            '<text class="title" x="8" y="14">Frames: durationThis and elapsed</text>',
            _file_marks(28, loose, "header, file"),
            p1.axes("", "durationThis (s)", xticks=False), p1.series(tr.duration, _PALETTE[0], label="durationThis"),
            p2.axes("frame", "elapsed (s)"), p2.series(tr.elapsed, _PALETTE[1], label="elapsed"),
            _timeline_marks(p1, placed, float)]))
        last = f"{tr.last_duration!r}" if tr.last_duration is not None else "unreadable"
        caption.append(f"Bottom: durationThis and elapsed of {frames} frames ({_downsampled(tr.elapsed, 'frame')}); "
                       f"the last frame's durationThis ({last}; CARLA writes -1.0 there) is not drawn. "
                       "Marks above the plot are findings at their frame; click one to go to it.")
    if not svgs:
        return ""
    return _figure(svgs, " ".join(caption))


def _nanover(fr: FileReport, tr: NanoverTrace, anchor: Anchor) -> str:
    placed, loose = _placed(fr, anchor)
    n = tr.records
    if n == 0:
        return ""
    top = _top(placed, loose)
    xr = (0, max(n - 1, 1)) if tr.kind == "traj" else (-0.5, n - 0.5)
    t_ext = tr.timestamps.extent() or (0.0, 1.0)
    body = ['<text class="title" x="8" y="14">Records: timestamps' +
            (", frame resets and particle.count" if tr.kind == "traj" else " and state keys") + "</text>",
            _file_marks(28, loose, "header, file")]
    left = _LEFT if tr.kind == "traj" else 230
    p1 = _Panel(top, 100, xr, t_ext, left=left, width=WIDTH - left - _RIGHT)
    body += [p1.axes("", "timestamp (s)", xticks=False), p1.series(tr.timestamps, _PALETTE[0], label="timestamp")]
    caption = [f"{_plural(n, 'record')}: the timestamp of each ({_downsampled(tr.timestamps, 'record')})"]
    if tr.kind == "traj":
        p_ext = tr.particles.extent() or (0.0, 1.0)
        p2 = _Panel(top + 120, 100, xr, (0.0, p_ext[1]))
        body += [p2.axes("record", "particle.count"), p2.series(tr.particles, _PALETTE[2], label="particle.count")]
        for r in tr.resets:
            x = p1.px(r)
            body.append(f'<path class="reset" d="M{_n(x)} {_n(top)}V{_n(top + 220)}"><title>frame reset at record '
                        f'{r} (frame_index 0)</title></path>')
        if tr.resets:
            body.append(_legend(14, [("#bc4c00", "frame reset")], left=WIDTH - 130))
        bottom = top + 250
        caption.append(f", the aggregate frame's particle.count after it, and the {len(tr.resets)} frame resets "
                       "(frame_index 0) as dashed lines")
    else:
        keys = sorted(tr.changes)
        row = 14
        p2 = _Panel(top + 120, max(row * len(keys), row), xr, (0, max(len(keys), 1)),
                    left=left, width=WIDTH - left - _RIGHT, flip_y=True)
        body.append(f'<rect class="frame" x="{left}" y="{_n(p2.top)}" width="{_n(p2.width)}" '
                    f'height="{_n(p2.height)}"/>')
        for i, key in enumerate(keys):
            y = p2.py(i + 0.5)
            shown = key if len(key) <= 34 else key[:33] + "\u2026"
            body.append(f'<text class="tick" x="{left - 4}" y="{_n(y + 3.5)}" text-anchor="end">{_e(shown)}'
                        f'<title>{_e(key)}</title></text>')
            for index, deleted in tr.changes[key]:
                x = p2.px(index)
                fill = "#fff" if deleted else _PALETTE[0]
                body.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="4" fill="{fill}" stroke="{_PALETTE[0]}"><title>'
                            f'{_e(key)} {"deleted" if deleted else "set"} at record {index}</title></circle>')
        xs, xstep = _ticks(p2.x0, p2.x1, 6)
        for v in xs:
            if v == int(v):
                body.append(f'<text class="tick" x="{_n(p2.px(v))}" y="{_n(p2.top + p2.height + 12)}" '
                            f'text-anchor="middle">{_e(_label(v, max(xstep, 1)))}</text>')
        body.append(f'<text class="axis" x="{_n(left + p2.width / 2)}" y="{_n(p2.top + p2.height + 25)}" '
                    f'text-anchor="middle">record</text>')
        body.append(_legend(p2.top - 6, [(_PALETTE[0], "key set"), ("#fff", "key deleted")], left=left))
        bottom = p2.top + p2.height + 30
        caption.append(f", and the records that set (filled) or delete (hollow) each of the state's "
                       f"{_plural(len(keys), 'key')}")
    body.append(_timeline_marks(p1, placed, float))
    caption.append(". Marks above the plot are findings at their record; click one to go to it.")
    return _figure([_svg(bottom, "record timeline", body)], "".join(caption))


def _raskat(fr: FileReport, tr: RaskatTrace, anchor: Anchor) -> str:
    placed, loose = _placed(fr, anchor)
    if not tr.wave.n:
        return ""
    top = _top(placed, loose)
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
    panel = _Panel(top, 180, (0, max(n - 1, 1)), (min(lo, 0), hi), width=_PLOT_W - 44)
    body = ['<text class="title" x="8" y="14">Waveform</text>', _file_marks(28, loose, "header fields")]
    body.append(panel.axes("", "ADC code", xticks=False))
    right = panel.left + panel.width
    if full is not None and tr.vref is not None:  # the same codes in volts on the right
        ys, ystep = _ticks(panel.y0, panel.y1, 6)
        volts = ystep * tr.vref / full
        for v in ys:
            body.append(f'<text class="tick" x="{_n(right + 4)}" y="{_n(panel.py(v) + 3.5)}">'
                        f'{_e(_label(v * tr.vref / full, volts))}</text>')
        body.append(f'<text class="axis" transform="translate({_n(right + 40)} {_n(top + 90)}) rotate(90)" '
                    f'text-anchor="middle">volts (code \u00d7 Vref / {full})</text>')
    xs, xstep = _ticks(0, x_of(max(n - 1, 1)), 6)
    for v in xs:
        x = panel.px(v / us if us else v)
        if x > right + 1:
            break
        body.append(f'<path class="grid" d="M{_n(x)} {_n(top)}v180"/><text class="tick" x="{_n(x)}" '
                    f'y="{_n(top + 192)}" text-anchor="middle">{_e(_label(v, xstep))}</text>')
    xlabel = "time after the first sample (\u00b5s)" if us else "sample"
    body.append(f'<text class="axis" x="{_n(_LEFT + panel.width / 2)}" y="{_n(top + 205)}" text-anchor="middle">'
                f'{xlabel}</text>')
    body.append(panel.series(tr.wave, _PALETTE[0], label="samples"))
    legend = [(_PALETTE[0], "samples")]
    if full is not None and tr.vref is not None and panel.y0 <= full <= panel.y1:
        y = panel.py(full)
        body.append(f'<path class="ref" d="M{_LEFT} {_n(y)}h{_n(panel.width)}" stroke="#8250df"><title>full scale: '
                    f'code {full} = Vref {tr.vref:.3g} V</title></path>')
        legend.append(("#8250df", f"Vref {tr.vref:.3g} V (code {full})"))
    if tr.threshold is not None:
        y = panel.py(tr.threshold)
        body.append(f'<path class="ref" d="M{_LEFT} {_n(y)}h{_n(panel.width)}" stroke="#bc4c00">'
                    f'<title>trigger threshold {tr.threshold}</title></path>')
        legend.append(("#bc4c00", f"threshold {tr.threshold}"))
        first = next((a for a, _, _, h in tr.wave.buckets() if h >= tr.threshold), None)
        if first is not None:
            x = panel.px(first)
            body.append(f'<path class="trigger" d="M{_n(x)} {_n(top)}v180"><title>trigger: first sample at or above '
                        f'the threshold (sample {first})</title></path>')
            legend.append(("#1a7f37", "trigger"))
    body.append(_legend(14, legend, left=WIDTH - 330))
    body.append(_timeline_marks(panel, placed, float))
    caption = (f"{n} samples" + (f" at {tr.rate:,} Hz" if tr.rate else "") + f" ({_downsampled(tr.wave, 'sample')})"
               + (f"; the right axis is volts, the code over {full} times Vref {tr.vref:.3g} V"
                  if tr.vref and full else "")
               + ("; the trigger is the first sample at or above the threshold" if tr.threshold is not None else
                  "; this version stores no trigger threshold")
               + ". Marks are findings at their sample or, in the strip above, about a header field.")
    return _figure([_svg(top + 215, "waveform", body)], caption)


def _matrix(fr: FileReport, tr: MatrixTrace, anchor: Anchor) -> str:
    placed, loose = _placed(fr, anchor)
    frames = tr.times.n
    svgs = []
    caption = []
    tracks, left_out, stride = _tracks(tr.positions.tracks(), set(), (1, 3))
    if tracks:
        colors = {tid: _PALETTE[i % len(_PALETTE)] for i, (tid, _) in enumerate(tracks)}
        labels = {tid: f"object {tid}" + (f" {tr.names[tid]!r}" if tid in tr.names else "") for tid, _ in tracks}
        body, bottom = _top_view(26, tracks, 1.0, labels, colors, False, "x", "z")
        legend = _legend(bottom + 6, [(colors[t], labels[t]) for t, _ in tracks])
        svgs.append(_svg(bottom + 14 + 14 * (len(tracks) // 4), "objects' trajectories seen from above", [
            '<text class="title" x="8" y="14">Objects seen from above (state positions p)</text>', body, legend]))
        caption.append(f"Top: the positions of {len(tracks)} objects, x across and z up the page (y, the height, "
                       "is not drawn); hollow circles are where they start"
                       + (f"; {left_out} more objects that travel less are not drawn" if left_out else "")
                       + _every(tr.positions.stride * stride) + ".")
    if frames:
        top = _top(placed, loose)
        t_ext = tr.times.extent() or (0.0, 1.0)
        s_ext = tr.states.extent() or (0.0, 1.0)
        p1 = _Panel(top, 110, (0, max(frames - 1, 1)), (min(t_ext[0], 0.0), t_ext[1]))
        p2 = _Panel(top + 130, 80, (0, max(frames - 1, 1)), (0.0, s_ext[1]))
        svgs.append(_svg(top + 240, "frame timeline", [
            '<text class="title" x="8" y="14">Frames: time and states per frame</text>',
            _file_marks(28, loose, "objects, file"),
            p1.axes("", "time (s)", xticks=False), p1.series(tr.times, _PALETTE[0], label="time"),
            p2.axes("frame", "states"), p2.series(tr.states, _PALETTE[2], label="states"),
            _timeline_marks(p1, placed, float)]))
        caption.append(f"Bottom: the time and number of states of {frames} frames "
                       f"({_downsampled(tr.times, 'frame')}). Marks above the plot are findings at their frame; "
                       "click one to go to it.")
    if not svgs:
        return ""
    return _figure(svgs, " ".join(caption))


#: The drawing function of each trace type; each takes the report, its trace (of that type) and the anchor.
_DRAW: dict[type, Callable[[FileReport, Any, Anchor], str]] = {
    CarlaTrace: _carla, NanoverTrace: _nanover, RaskatTrace: _raskat, MatrixTrace: _matrix}

#: The pictures' style, added to the report's stylesheet when a picture is drawn.
CSS = """
figure{margin:1em 0}figure svg.picture{display:block;max-width:100%;height:auto;margin-bottom:.5em}
figcaption{font-size:12px;color:#57606a;max-width:52em}
svg.picture text{font:11px system-ui,-apple-system,'Segoe UI',sans-serif;fill:#1b1f24}
svg.picture text.title{font-weight:600;font-size:12px}svg.picture text.tick{fill:#57606a;font-size:10px}
svg.picture .frame{fill:none;stroke:#8c959f}svg.picture .grid{stroke:#eaeef2}
svg.picture .line{fill:none;stroke-width:1.4}svg.picture .band{fill-opacity:.3;stroke-width:.6}
svg.picture .track{fill:none;stroke-width:1.2;stroke-opacity:.8}svg.picture .track.hero{stroke-width:2.4;stroke-opacity:1}
svg.picture .reset{stroke:#bc4c00;stroke-dasharray:4 3}svg.picture .ref{stroke-dasharray:6 3}
svg.picture .trigger{stroke:#1a7f37;stroke-width:1.5}svg.picture .tick-mark{stroke-opacity:.25}
svg.picture a.mark:hover path,svg.picture a.mark:focus path{stroke:#1b1f24;stroke-width:1.5}
"""  # noqa: E501 - one stylesheet, kept as the report carries it


def picture(fr: FileReport, anchor: Anchor) -> str:
    """The file's picture as a ``<figure>`` of inline SVG, or ``""`` when there is nothing to draw."""
    draw = _DRAW.get(type(fr.trace))
    if draw is None:
        return ""
    return draw(fr, fr.trace, anchor)
