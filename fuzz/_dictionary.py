"""Rendering a libFuzzer dictionary: the shared part of every format's ``dictionary_text``."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["render", "unique"]


def unique(entries: Iterable[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The entries without repeated values (the first name of each value is kept)."""
    seen: set[bytes] = set()
    out = []
    for name, value in entries:
        if value not in seen:
            seen.add(value)
            out.append((name, value))
    return out


def _escape(value: bytes) -> str:
    return "".join(chr(c) if 0x20 <= c < 0x7F and c not in (0x22, 0x5C) else f"\\x{c:02X}" for c in value)


def render(header: Iterable[str], entries: Iterable[tuple[str, bytes]]) -> str:
    """libFuzzer's dictionary format: ``# header`` lines, then ``name="escaped value"``."""
    lines = [f"# {line}" for line in header]
    lines += [f'{name}="{_escape(value)}"' for name, value in entries]
    return "\n".join(lines) + "\n"
