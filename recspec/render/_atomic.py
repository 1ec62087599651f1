"""Writing a report so that a killed run never leaves a half-written one."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: str | Path, text: str | Iterable[str]) -> None:
    """Write ``text`` (a string, or the pieces of one, written as they come; UTF-8; undecodable
    bytes a finding quotes, kept as lone surrogates, become
    ``\\udcxx`` escapes) to ``path`` through a temporary file in the same folder, flushed
    to disk and renamed over ``path``: readers see the old report or the whole new one, never
    part of it. The temporary file is removed if writing fails."""
    import tempfile  # here: `recspec --help`, `rules` and a check printing its table alone write no report

    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as f:
            if isinstance(text, str):
                f.write(text)
            else:
                for piece in text:
                    f.write(piece)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # what open() would have given; mkstemp makes 0600
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _umask() -> int:
    # os.umask can only be read by setting it; set it back at once.
    mask = os.umask(0)
    os.umask(mask)
    return mask
