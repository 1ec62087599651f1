"""Inputs that are not regular files: what recspec reads, what it skips, and how far.

A path on the command line can name a FIFO, a character or block device
(``/dev/zero``, ``/dev/urandom``, a tape), or a socket; a file object given to
:func:`recspec.check` can be a pipe. None of them has a size, some never end
and a FIFO without a writer never answers. recspec reads such a *stream* into
an anonymous temporary file on disk (so memory does not grow with it), at most
:data:`MAX_STREAM_SIZE` bytes, waiting at most :data:`STREAM_IDLE_TIMEOUT`
seconds for each next byte, and then checks the copy as a regular file. A
stream that goes past either limit is refused with an
:class:`~recspec.errors.InputError` that says which limit and what to do.

Folder walks never open these: :func:`file_kind` tells them apart from regular
files without opening anything (opening a FIFO blocks until a writer comes).
"""

from __future__ import annotations

import os
import select
import stat
import time
from collections.abc import Callable
from typing import IO, BinaryIO

from .errors import InputError

__all__ = ["MAX_STREAM_SIZE", "STREAM_IDLE_TIMEOUT", "file_kind", "open_input", "spool", "spool_file_object"]

#: The most recspec reads from a stream (a FIFO, a device, a pipe given to ``recspec.check``):
#: 1 GiB, the largest recording a stream is expected to carry; ``--stream-limit`` changes it.
MAX_STREAM_SIZE = 1 << 30
#: Seconds recspec waits for the next bytes of a stream (or for a FIFO's writer to appear).
STREAM_IDLE_TIMEOUT = 10.0

_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISREG, "regular file"),
    (stat.S_ISDIR, "folder"),
    (stat.S_ISFIFO, "FIFO"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)

#: The kinds read as a stream when named on the command line.
STREAM_KINDS = frozenset({"FIFO", "character device", "block device"})


def file_kind(mode: int) -> str:
    """What an ``st_mode`` is, in words: ``regular file``, ``folder``, ``FIFO``, ``character device``..."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "special file"


def _too_long(name: str, limit: int) -> InputError:
    return InputError(f"{name}: the stream did not end within {limit} bytes (--stream-limit); recspec reads a "
                      "FIFO, device or pipe up to that size; save it to a regular file to check it whole", name)


def spool(read: Callable[[int], bytes | None], name: str, *, limit: int = MAX_STREAM_SIZE,
          wait: Callable[[], bool] | None = None) -> tuple[BinaryIO, int]:
    """Copy a stream into an anonymous temporary file, at most ``limit`` bytes; (file at 0, size).

    ``read(n)`` returns up to ``n`` bytes, ``b""`` at the end, or ``None`` when nothing
    is ready yet; ``wait()`` then waits for more and returns False after
    :data:`STREAM_IDLE_TIMEOUT` seconds without any."""
    import tempfile  # here: only a stream (FIFO, device, standard input) is copied; every command imports _limits

    out = tempfile.TemporaryFile(prefix="recspec-stream-")  # noqa: SIM115 - handed to the caller, who closes it
    size = 0
    try:
        while True:
            chunk = read(min(_CHUNK, limit + 1 - size))
            if chunk is None:
                if wait is None or not wait():
                    raise InputError(f"{name}: no data for {STREAM_IDLE_TIMEOUT:g} s (STREAM_IDLE_TIMEOUT); "
                                     "a FIFO needs a writer, a device must produce bytes", name)
                continue
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise _too_long(name, limit)
            out.write(chunk)
        out.seek(0)
        return out, size
    except BaseException:
        out.close()
        raise


def spool_file_object(f: IO[bytes], name: str, *, limit: int = MAX_STREAM_SIZE) -> tuple[BinaryIO, int]:
    """A file object that cannot seek (a pipe, a socket) copied to disk up to ``limit`` bytes."""
    return spool(f.read, name, limit=limit)


def _spool_fd(fd: int, name: str, limit: int) -> tuple[BinaryIO, int]:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)

    def read(n: int) -> bytes | None:
        # Read only once poll() reports data or a hang-up: on a FIFO that no writer has opened
        # yet, read() returns b"" at once, which is not the end of the stream.
        if not poller.poll(0):
            return None
        try:
            return os.read(fd, n)
        except BlockingIOError:
            return None

    def wait() -> bool:
        deadline = time.monotonic() + STREAM_IDLE_TIMEOUT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if poller.poll(left * 1000):
                return True

    return spool(read, name, limit=limit, wait=wait)


def _without_waiting(path: str, flags: int) -> int:
    """``open()``'s opener for :class:`open_input`: the flags with O_NONBLOCK (opening a FIFO does not wait)."""
    return os.open(path, flags | os.O_NONBLOCK)


class open_input:
    """Open a path for checking: ``with open_input(path, name) as (f, size): ...``.

    A regular file is opened as it is. A FIFO or device is read as a stream
    (:func:`spool`, without blocking: opening a FIFO waits for no writer); a
    socket or anything else is refused with an :class:`InputError`; an ``OSError``
    (missing, unreadable) is raised as :func:`open` raises it."""

    def __init__(self, path: str | os.PathLike[str], name: str, *, stream_limit: int = MAX_STREAM_SIZE) -> None:
        self.path, self.name, self.stream_limit = path, name, stream_limit
        self.f: BinaryIO | None = None

    def __enter__(self) -> tuple[BinaryIO, int]:
        # Opened without waiting (O_NONBLOCK: a FIFO without a writer opens at once, where a plain open() would
        # wait for one), then looked at through the open file: one system call less per file than a look by
        # name first, and what is read is what was looked at. A regular file reads the same either way.
        try:
            f = open(self.path, "rb", opener=_without_waiting)
        except OSError:
            # left to the caller as open() raises it (a missing path, no permission, a folder), but for what
            # cannot be opened at all and is no file recspec reads (a socket): said so
            try:
                kind = file_kind(os.stat(self.path).st_mode)
            except OSError:
                kind = "regular file"
            if kind != "regular file" and kind != "folder" and kind not in STREAM_KINDS:
                raise self._refused(kind) from None
            raise
        st = os.fstat(f.fileno())
        if stat.S_ISREG(st.st_mode):
            self.f = f
            return f, st.st_size
        try:
            kind = file_kind(st.st_mode)
            if kind not in STREAM_KINDS:
                raise self._refused(kind)
            self.f, size = _spool_fd(f.fileno(), self.name, self.stream_limit)
        finally:
            f.close()
        return self.f, size

    def _refused(self, kind: str) -> InputError:
        return InputError(f"{self.name}: is a {kind}; recspec reads regular files, FIFOs and devices", self.name)

    def __exit__(self, *exc: object) -> None:
        if self.f is not None:
            self.f.close()
