"""Rendering libFuzzer dictionaries (``fuzz/dictionaries/<format>.dict``) from named byte strings."""

from __future__ import annotations

from typing import Iterable

__all__ = ["render"]


def _escape(value: bytes) -> str:
    return "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\x{b:02X}" for b in value)


def render(comment: Iterable[str], entries: Iterable[tuple[str, bytes]]) -> str:
    """The dictionary file: ``# comment`` lines, then one ``name="escaped bytes"`` line per entry."""
    lines = [f"# {line}" for line in comment]
    lines += [f'{name}="{_escape(value)}"' for name, value in entries]
    return "\n".join(lines) + "\n"
