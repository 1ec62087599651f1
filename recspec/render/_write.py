"""Where a report goes: atomically onto a regular file, in place onto anything else.

The atomic write (a temporary file renamed over the target, ``_atomic.py``) is
right for a regular file or a new path: a killed run leaves the old report or
the whole new one. It is wrong for anything else: renaming over ``/dev/null``,
``/dev/full`` or ``/dev/stdout`` (as root, in most CI containers) replaces the
device node with a regular file and hides every write error. So a path that
exists and is not a regular file (a device, a FIFO, a link to one) is opened
and written in place, and its errors (``ENOSPC`` on ``/dev/full``, no reader on
a FIFO) reach the caller. A link to a regular file is followed, so the link
stays and its target gets the report.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ._atomic import write_atomic

__all__ = ["write_report"]


def write_report(path: str | Path, text: str | Iterable[str]) -> None:
    """Write a report's ``text`` (a string, or its pieces in order) to ``path`` (UTF-8,
    undecodable bytes as ``\\udcxx`` escapes).

    Raises ``OSError`` when it cannot be written, whatever the kind of file."""
    target = Path(path)
    try:
        st = os.stat(target)  # follows links: what a link points at decides
    except FileNotFoundError:
        st = None
    if st is None or stat.S_ISREG(st.st_mode):
        write_atomic(target.resolve() if target.is_symlink() else target, text)
        return
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    # A FIFO opened without O_NONBLOCK waits for a reader forever; with it, no reader is ENXIO.
    flags = os.O_WRONLY | (os.O_NONBLOCK if stat.S_ISFIFO(st.st_mode) else 0)
    fd = os.open(target, flags)
    try:
        if stat.S_ISFIFO(st.st_mode):
            os.set_blocking(fd, True)  # a reader is there: wait for it as a pipe would
        for piece in [text] if isinstance(text, str) else text:
            view = memoryview(piece.encode("utf-8", "backslashreplace"))
            while view:
                n = os.write(fd, view)
                view = view[n:]
    finally:
        os.close(fd)
