"""The drawing primitives of the HTML report's pictures: hand-written SVG panels, axes, series, tracks and
finding marks, shared by every format's picture drawer (``conformance/<package>/_picture.py``, the plugin's
``picture`` member) and by ``recspec/render/_pictures.py``, which calls the drawer of each file's format.

The SVG is written by hand (ARCHITECTURE.md says why): numbers at fixed
precision, elements in a fixed order, so the same trace gives the same bytes.
Its size is bounded whatever the recording's length: a series is drawn from at
most ``MAX_BUCKETS`` min/max buckets, trajectories from at most
``MAX_TRACK_POINTS`` points of at most ``MAX_TRACKS`` tracks (plus the hero), and at
most one mark per run of a rule's findings on a timeline. Those caps keep
one file's picture under ``PICTURE_BUDGET`` bytes.

A finding is marked at its frame, record or sample on a timeline where its path matches the format's
``FormatInfo.finding_index``, and otherwise in a strip of marks for findings about the file as a whole.
"""

from __future__ import annotations

import html
import itertools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from .formats import FORMATS
from .report import FileReport, Finding, Severity
from .trace import Envelope

__all__ = ["COLORS", "HERO", "LEFT", "MARK_SPACING", "MAX_BUCKETS", "MAX_FILE_MARKS", "MAX_TRACKS", "MAX_TRACK_POINTS",
           "PALETTE", "PICTURE_BUDGET", "PLOT_W", "RIGHT", "WIDTH", "Anchor", "Panel", "downsampled", "draw_legend",
           "esc", "every", "figure", "file_marks", "heading", "kept_tracks", "mark_at", "mark_title", "marks_caption",
           "merged_buckets", "moves", "nice_ticks", "num", "padded_span", "placed_findings", "plural", "svg",
           "tick_label", "timeline_marks", "timeline_svg", "timeline_top", "top_view"]

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
LEFT, RIGHT = 64, 16
PLOT_W = WIDTH - LEFT - RIGHT
COLORS = {Severity.ERROR: "#cf222e", Severity.WARNING: "#9a6700", Severity.INFO: "#0969da", Severity.OFF: "#57606a"}
PALETTE = ("#0969da", "#1a7f37", "#8250df", "#bc4c00", "#1b7c83", "#6639ba", "#9a6700", "#bf3989", "#57606a")
HERO = "#cf222e"

Anchor = Callable[[Finding], str]


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def num(v: float) -> str:
    """A pixel coordinate: one decimal, no trailing zeros, no negative zero."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def nice_ticks(lo: float, hi: float, n: int = 5) -> tuple[list[float], float]:
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


def tick_label(v: float, step: float) -> str:
    if abs(v) >= 1e7 or (v and abs(v) < 1e-4):
        return f"{v:.3g}"
    d = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    return f"{v:,.{d}f}"


def padded_span(lo: float, hi: float) -> tuple[float, float]:
    if hi > lo:
        return lo, hi
    pad = abs(lo) * 0.05 or 0.5
    return lo - pad, hi + pad


class Panel:
    """One plot: data ranges mapped to a rectangle of the SVG, with its axes."""

    def __init__(self, top: float, height: float, x: tuple[float, float], y: tuple[float, float],
                 left: float = LEFT, width: float = PLOT_W, flip_y: bool = False) -> None:
        self.top, self.height, self.left, self.width = top, height, left, width
        self.x0, self.x1 = padded_span(*x)
        self.y0, self.y1 = padded_span(*y)
        self.flip_y = flip_y

    def px(self, v: float) -> float:
        return self.left + (v - self.x0) / (self.x1 - self.x0) * self.width

    def py(self, v: float) -> float:
        f = (v - self.y0) / (self.y1 - self.y0)
        return self.top + (f if self.flip_y else 1 - f) * self.height

    def axes(self, xlabel: str, ylabel: str, xticks: bool = True) -> str:
        t, h, left, w = self.top, self.height, self.left, self.width
        out = [f'<rect class="frame" x="{num(left)}" y="{num(t)}" width="{num(w)}" height="{num(h)}"/>']
        ys, ystep = nice_ticks(self.y0, self.y1, max(3, int(h // 30)))
        for v in ys:
            y = self.py(v)
            out.append(f'<path class="grid" d="M{num(left)} {num(y)}h{num(w)}"/>'
                       f'<text class="tick" x="{num(left - 4)}" y="{num(y + 3.5)}" text-anchor="end">'
                       f'{esc(tick_label(v, ystep))}</text>')
        if xticks:
            xs, xstep = nice_ticks(self.x0, self.x1, 6)
            for v in xs:
                x = self.px(v)
                out.append(f'<path class="grid" d="M{num(x)} {num(t)}v{num(h)}"/>'
                           f'<text class="tick" x="{num(x)}" y="{num(t + h + 12)}" text-anchor="middle">'
                           f'{esc(tick_label(v, xstep))}</text>')
            out.append(f'<text class="axis" x="{num(left + w / 2)}" y="{num(t + h + 25)}" text-anchor="middle">'
                       f'{esc(xlabel)}</text>')
        out.append(f'<text class="axis" transform="translate({num(left - 48)} {num(t + h / 2)}) rotate(-90)" '
                   f'text-anchor="middle">{esc(ylabel)}</text>')
        return "".join(out)

    def series(self, env: Envelope, color: str, scale: float = 1.0, label: str = "") -> str:
        """An envelope as a line (one value per bucket) or a min/max band."""
        buckets = merged_buckets(env)
        if not buckets:
            return ""
        title = f"<title>{esc(label)}</title>" if label else ""
        if all(lo == hi for _, _, lo, hi in buckets) or (env.width == 1 and len(buckets) == env.n):
            pts = " ".join(f"{num(self.px((a + b) / 2))},{num(self.py(lo * scale))}" for a, b, lo, _ in buckets)
            if len(buckets) == 1:
                a, b, lo, _ = buckets[0]
                return (f'<circle cx="{num(self.px((a + b) / 2))}" cy="{num(self.py(lo * scale))}" r="2.5" '
                        f'fill="{color}">{title}</circle>')
            return f'<polyline class="line" stroke="{color}" points="{pts}">{title}</polyline>'
        top = [f"{num(self.px(a))},{num(self.py(hi * scale))} {num(self.px(b + 1))},{num(self.py(hi * scale))}"
               for a, b, _, hi in buckets]
        bottom = [f"{num(self.px(b + 1))},{num(self.py(lo * scale))} {num(self.px(a))},{num(self.py(lo * scale))}"
                  for a, b, lo, _ in reversed(buckets)]
        return (f'<polygon class="band" fill="{color}" stroke="{color}" points="{" ".join(top + bottom)}">'
                f"{title}</polygon>")


def merged_buckets(env: Envelope) -> list[tuple[int, int, float, float]]:
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

@cache
def _finding_index(format_id: str) -> re.Pattern[str] | None:
    info = FORMATS.get(format_id)
    return re.compile(info.finding_index) if info is not None and info.finding_index else None


def placed_findings(fr: FileReport, anchor: Anchor) -> tuple[list[tuple[int, Finding, str]], list[tuple[Finding, str]]]:
    """Findings with their frame/record/sample index, and those without one."""
    rx = _finding_index(fr.format or "")
    at: list[tuple[int, Finding, str]] = []
    loose: list[tuple[Finding, str]] = []
    for f in fr.findings:
        m = rx.search(f.path) if rx else None
        if m:
            at.append((int(m.group(1)), f, anchor(f)))
        else:
            loose.append((f, anchor(f)))
    return at, loose


def mark_title(f: Finding, more: int = 0) -> str:
    where = f" at {f.path}" if f.path else (f" @{f.offset}" if f.offset is not None else "")
    extra = f" (and {more} more of this rule here)" if more else ""
    return f"{f.rule} ({f.severity.value}){where}: {f.message}{extra}"


def mark_at(x: float, y: float, f: Finding, href: str, more: int = 0) -> str:
    return (f'<a href="#{esc(href)}" class="mark"><title>{esc(mark_title(f, more))}</title>'
            f'<path d="M{num(x)} {num(y)}l-4.5 -8h9z" fill="{COLORS[f.severity]}"/></a>')


def timeline_marks(panel: Panel, placed: Sequence[tuple[int, Finding, str]], x_of: Callable[[int], float]) -> str:
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
                out.append(mark_at(x, y, f, href))
                out.append(f'<path class="tick-mark" d="M{num(x)} {num(panel.top)}v{num(panel.height)}" '
                           f'stroke="{COLORS[f.severity]}"/>')
                continue
            x1 = run[-1][0]
            title = esc(f"{mark_title(f)} (the first of {len(run)} findings of this rule "
                       f"from index {index} to {run[-1][1]})")
            out.append(f'<a href="#{esc(href)}" class="mark"><title>{title}</title>'
                       f'<path d="M{num(x)} {num(y)}l-4.5 -8h9z" fill="{COLORS[f.severity]}"/>'
                       f'<rect x="{num(x)}" y="{num(y - 5)}" width="{num(max(x1 - x, 1))}" height="3" '
                       f'fill="{COLORS[f.severity]}"/></a>')
    return "".join(out)


def file_marks(top: float, loose: Sequence[tuple[Finding, str]], what: str) -> str:
    if not loose:
        return ""
    out = [f'<text class="axis" x="{LEFT}" y="{num(top + 4)}">{esc(what)}:</text>']
    x = LEFT + 7.2 * len(what) + 14
    for f, href in loose[:MAX_FILE_MARKS]:
        out.append(mark_at(x, top + 5, f, href))
        x += 13
    if len(loose) > MAX_FILE_MARKS:
        out.append(f'<text class="tick" x="{num(x)}" y="{num(top + 4)}">+{len(loose) - MAX_FILE_MARKS} more</text>')
    return "".join(out)


def draw_legend(top: float, items: Iterable[tuple[str, str]], left: float = LEFT) -> str:
    out = []
    x = left
    for color, text in items:
        out.append(f'<rect x="{num(x)}" y="{num(top - 8)}" width="10" height="10" fill="{color}" stroke="#57606a" '
                   'stroke-width=".5"/>'
                   f'<text class="tick" x="{num(x + 14)}" y="{num(top + 1)}">{esc(text)}</text>')
        x += 24 + 6.2 * len(text)
        if x > WIDTH - 100:
            top += 14
            x = left
    return "".join(out)


def svg(height: float, label: str, body: Iterable[str]) -> str:
    return (f'<svg class="picture" viewBox="0 0 {WIDTH} {num(height)}" width="{WIDTH}" height="{num(height)}" '
            f'role="img" aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg">' + "".join(body) + "</svg>")


def figure(svgs: Sequence[str], caption: str) -> str:
    return f'<figure>{"".join(svgs)}<figcaption>{esc(caption)}</figcaption></figure>'


def heading(text: str) -> str:
    """A picture's title, at its top left."""
    return f'<text class="title" x="8" y="14">{esc(text)}</text>'


def timeline_top(placed: Sequence[tuple[int, Finding, str]], loose: Sequence[tuple[Finding, str]]) -> float:
    """Where a timeline's first panel starts: below the title, the strip of file marks (if any) and
    the rows of timeline marks (one per rule, at most three)."""
    return (44 if loose else 26) + 9 * min(len({f.rule for _, f, _ in placed}), 3) + 4


def timeline_svg(height: float, label: str, title: str, body: Iterable[str], marked: Panel,
                 placed: Sequence[tuple[int, Finding, str]], loose: Sequence[tuple[Finding, str]],
                 loose_what: str) -> str:
    """A timeline picture, as every drawer lays one out: the title; the strip of marks of the findings
    about the file as a whole (``loose``, labelled ``loose_what``); ``body``, the panels from
    :func:`timeline_top` down, whose x is the frame, record or sample index; and the marks of the
    findings at an index (``placed``) just above the panel ``marked``."""
    return svg(height, label, [heading(title), file_marks(28, loose, loose_what), *body,
                               timeline_marks(marked, placed, float)])


def marks_caption(unit: str) -> str:
    """The caption's sentence on a timeline's marks, each at its ``unit`` (frame, record)."""
    return f"Marks above the plot are findings at their {unit}; click one to go to it."


def every(stride: int) -> str:
    return f"; one frame in {stride} drawn" if stride > 1 else ""


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def downsampled(env: Envelope, unit: str) -> str:
    width = max(env.width, -(-env.n // MAX_BUCKETS) if len(list(env.buckets())) > MAX_BUCKETS else env.width)
    if width <= 1:
        return f"every {unit} drawn"
    return f"min/max of each {width} {unit}s drawn as a band"


# --- trajectories -----------------------------------------------------------------------------


def kept_tracks(sampler_tracks: dict[int, list[tuple[int, float, float, float]]], keep: set[int],
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


def moves(pts: list[tuple[float, float]], eps: float) -> bool:
    """The track goes farther than ``eps`` from where it starts (a spawned actor settling does not count)."""
    a0, b0 = pts[0]
    return any(abs(a - a0) > eps or abs(b - b0) > eps for a, b in pts)


def top_view(top: float, tracks: list[tuple[int, list[tuple[float, float]]]], scale: float, labels: dict[int, str],
              colors: dict[int, str], flip_y: bool, xlabel: str, ylabel: str, height: float = 300) -> tuple[str, float]:
    """Tracks seen from above, at one scale on both axes. The view fits the tracks that move (those
    that stand still are drawn as dots where they fall inside it), or all of them if none moves."""
    eps = 1.0 / scale  # one unit of the drawing (a metre for CARLA)
    framing = [pts for _, pts in tracks if moves(pts, eps)] or [pts for _, pts in tracks]
    xs = [p[0] * scale for pts in framing for p in pts]
    ys = [p[1] * scale for pts in framing for p in pts]
    x0, x1 = padded_span(min(xs), max(xs))
    y0, y1 = padded_span(min(ys), max(ys))
    pad = max(x1 - x0, y1 - y0) * 0.05
    x0, x1, y0, y1 = x0 - pad, x1 + pad, y0 - pad, y1 + pad
    # equal scale on both axes, centred in the panel
    k = min(PLOT_W / (x1 - x0), height / (y1 - y0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hw, hh = PLOT_W / k / 2, height / k / 2
    panel = Panel(top, height, (cx - hw, cx + hw), (cy - hh, cy + hh), flip_y=flip_y)
    out = [panel.axes(xlabel, ylabel)]
    for tid, pts in tracks:
        inside = all(panel.x0 <= a * scale <= panel.x1 and panel.y0 <= b * scale <= panel.y1
                     for a, b in pts[::max(1, len(pts) // 8)])
        if not inside and not moves(pts, eps):
            continue  # a standing actor outside the view of the moving ones
        color = colors.get(tid, "#8c959f")
        hero = color == HERO
        title = f"<title>{esc(labels.get(tid, f'id {tid}'))}</title>"
        if len(pts) > 1:
            d = " ".join(f"{num(panel.px(a * scale))},{num(panel.py(b * scale))}" for a, b in pts)
            kind = "track hero" if hero else "track"
            out.append(f'<polyline class="{kind}" stroke="{color}" points="{d}">{title}</polyline>')
        a, b = pts[-1]
        out.append(f'<circle cx="{num(panel.px(a * scale))}" cy="{num(panel.py(b * scale))}" '
                   f'r="{3.5 if hero else 2.5}" fill="{color}">{title}</circle>')
        a0, b0 = pts[0]
        if len(pts) > 1:
            out.append(f'<circle cx="{num(panel.px(a0 * scale))}" cy="{num(panel.py(b0 * scale))}" r="2.5" fill="#fff" '
                       f'stroke="{color}">{title}</circle>')
    return "".join(out), top + height + 30
