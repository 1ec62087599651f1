"""A hexdump window around a byte offset: for the HTML report and ``recspec reproduce``."""

from __future__ import annotations

__all__ = ["hex_window"]


def hex_window(data: bytes, offset: int, length: int | None = None, context: int = 32, *, base: int = 0) -> str:
    """A hexdump of ``data`` around ``offset`` with a ``~~^`` marker under the bytes of interest.

    ``data`` holds the bytes from file offset ``base`` on (a window read from a big file, with
    ``base`` a multiple of 16); ``offset`` and the printed addresses are file offsets.
    """
    length = max(1, min(length or 1, 16))
    offset -= base
    start = max(0, (offset - context) // 16 * 16)
    end = min(len(data), (offset + length + context + 15) // 16 * 16)
    lines = []
    for row in range(start, max(end, start + 16), 16):
        chunk = data[row:row + 16]
        hexpart = " ".join(f"{b:02x}" for b in chunk).ljust(47)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"  {row + base:08x}  {hexpart}  |{text}|")
        if row <= offset < row + 16 or (row < offset + length <= row + 16) or (offset < row and offset + length > row):
            marks = []
            for i in range(16):
                pos = row + i
                marks.append("^^" if pos == offset else ("~~" if offset < pos < offset + length else "  "))
            lines.append("            " + " ".join(marks).rstrip())
    if offset >= len(data):
        lines.append(f"  (offset {offset + base} is at or past the end of the data, {len(data) + base} bytes)")
    return "\n".join(lines)
