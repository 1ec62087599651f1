"""The pictures of the HTML report: each recording drawn as inline SVG from its trace.

The drawer is the format plugin's ``picture`` member (``conformance/<package>/_picture.py``, built of the
primitives in ``recspec/_svg.py``): it draws the plugin's trace (``recspec.trace``, filled during the check's
walk, so drawing reads nothing from the file) and marks every finding where it occurs, at its frame, record
or sample on the timeline, or in a strip of marks for findings about the file as a whole. Each mark links to
the finding's entry in the report and names it in a tooltip. A format whose plugin draws nothing says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._svg import MAX_BUCKETS, MAX_TRACK_POINTS, MAX_TRACKS, PICTURE_BUDGET, Anchor, esc
from ..formats import FORMATS, FormatInfo
from ..report import FileReport

__all__ = ["CSS", "MAX_BUCKETS", "MAX_TRACKS", "MAX_TRACK_POINTS", "PICTURE_BUDGET", "picture"]

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




def _drawer(info: FormatInfo) -> Callable[[FileReport, Any, Anchor], str] | None:
    """The plugin's ``picture``, or ``None`` for a plugin that has none (no member, no ``_picture`` module)."""
    try:
        return info.load().picture
    except AttributeError:
        return None
    except ModuleNotFoundError as e:
        if e.name != f"{info.module}._picture":
            raise
        return None


def picture(fr: FileReport, anchor: Anchor) -> str:
    """The file's picture as a ``<figure>`` of inline SVG, ``""`` when there is nothing to draw (no format, no
    trace), or a line saying that the format's plugin draws no picture."""
    info = FORMATS.get(fr.format or "")
    if info is None:
        return ""
    draw = _drawer(info)
    if draw is None:
        return f'<p class="no-picture">No picture for this format: the {esc(info.id)} plugin has no picture drawer.</p>'
    if fr.trace is None or not isinstance(fr.trace, info.load().TRACE):
        return ""
    return draw(fr, fr.trace, anchor)
