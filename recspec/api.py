"""recspec's public Python API: check or dump one recording from a path, bytes or a file object.

::

    import recspec

    report = recspec.check("run1.log")                    # the format is detected
    report = recspec.check(data, format="raskat-signal")  # bytes in memory
    with open("session.traj", "rb") as f:
        report = recspec.check(f, profile="compat")
    print(report.verdict, [f.rule for f in report.findings])
    text = recspec.dump("run1.log")                       # the decoded structure as JSON text

``recspec.formats`` is the registry (``recspec.formats.FORMATS``); each format's
reference codec is ``recspec.reference.<package>`` with the same surface
(``decode``, ``encode``, ``iter_<unit>s``). Errors are those of
``recspec.errors``: :class:`UsageError` for a bad argument, :class:`InputError`
for a source that cannot be read; anything else is a bug and leaves as
:class:`InternalError`.
"""

from __future__ import annotations

import enum
import io
import os
from pathlib import Path
from typing import IO, BinaryIO, Union

from .errors import InputError, UsageError, public_boundary
from .formats import SNIFF_BYTES, FormatInfo, by_extension, resolve_format, sniff
from .pipeline import check_file, check_stream
from .report import FileReport

__all__ = ["MAX_STREAM_SIZE", "Source", "check", "dump"]

#: What ``check`` and ``dump`` accept: a path, the bytes of a file, or a binary file object.
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]

#: A file object that cannot seek (a pipe, a socket) is read into memory up to this
#: many bytes; a longer one is refused with :class:`InputError` (save it to a file).
MAX_STREAM_SIZE = 1 << 30  # the same limit as recspec.pipeline.MAX_STREAM_SIZE (a FIFO named to the CLI)


def variant_name(variant: object) -> str | None:
    """A variant as its registry name: the name itself, or the reference's own object for it
    (a CARLA ``Variant``, a NanoVer ``Kind``), as the strategies draw them."""
    if variant is None or isinstance(variant, str):
        return variant
    if isinstance(variant, enum.Enum) and isinstance(variant.value, str):
        return variant.value
    name = getattr(variant, "name", None)
    if isinstance(name, str):
        return name
    raise UsageError(f"not a variant: {variant!r}", "pass the variant's name, e.g. '0.9.15', 'traj' or 'v3'")


def _format(format: str | None, variant: str | None, profile: str | None) -> FormatInfo | None:
    if format is None:
        if variant is not None:
            raise UsageError("variant= needs format=", "example: recspec.check(path, format='carla', variant='0.9.15')")
        return None
    info = resolve_format(format)
    info.check_variant(variant)
    info.check_profile(profile)
    return info


def _seekable_from_start(f: IO[bytes]) -> tuple[BinaryIO, int]:
    """``f`` itself when it can seek (read from its current position), else its bytes in memory."""
    try:
        if f.seekable():
            start = f.tell()
            size = f.seek(0, os.SEEK_END) - start
            f.seek(start)
            if start == 0:
                return f, size  # type: ignore[return-value]
    except OSError:
        pass
    data = f.read(MAX_STREAM_SIZE + 1)
    if len(data) > MAX_STREAM_SIZE:
        raise InputError(f"the stream is longer than {MAX_STREAM_SIZE} bytes (MAX_STREAM_SIZE); save it to a file")
    return io.BytesIO(data), len(data)


@public_boundary
def check(source: Source, *, format: str | None = None, variant: object = None, profile: str | None = None,
          cross_check: bool = True, cross_check_limit: int | None = None, name: str | None = None) -> FileReport:
    """Check one recording and return its report (verdict, findings with rule ids, offsets and paths, stats).

    ``source``: a path, the file's bytes, or a binary file object (read from its
    current position). ``format``/``variant`` force what is otherwise detected;
    ``profile`` is ``spec`` (default) or ``compat``; ``cross_check`` runs the
    Kaitai second reading on files up to ``cross_check_limit`` bytes (default per
    format). ``name`` is the path shown in the report for bytes and file objects.

    Bad content is never an exception: it is the report's verdict. Raises
    :class:`UsageError` for bad arguments and :class:`InputError` when a path
    cannot be read."""
    variant = variant_name(variant)
    fmt = _format(format, variant, profile)
    options = dict(fmt=fmt, variant=variant, profile=profile, cross_check=cross_check,
                   cross_check_limit=cross_check_limit)
    if isinstance(source, (str, os.PathLike)):
        report = check_file(Path(source), **options)  # type: ignore[arg-type]
        assert report is not None  # a named file is always reported
        return report
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        return check_stream(io.BytesIO(data), name=name or "<bytes>", size=len(data), **options)  # type: ignore[arg-type]
    if hasattr(source, "read"):
        f, size = _seekable_from_start(source)
        shown = name or getattr(source, "name", None)
        return check_stream(f, name=shown if isinstance(shown, str) else "<stream>", size=size, **options)  # type: ignore[arg-type]
    raise UsageError(f"cannot check a {type(source).__name__}", "pass a path, bytes or a binary file object")


def _detect(head: bytes, name: str | None, format: str | None, variant: str | None) -> FormatInfo:
    if format is not None:
        info = resolve_format(format)
    else:
        found, _ = sniff(head, name)
        info_or_none = found or (by_extension(name) if name else None)
        if info_or_none is None:
            raise UsageError(f"{name or 'the input'}: no known format recognises this content", "force one with format=")
        info = info_or_none
    info.check_variant(variant)
    return info


@public_boundary
def dump(source: Source, out: IO[str] | None = None, *, format: str | None = None, variant: object = None,
         ksy: bool = False) -> str | None:
    """The decoded structure of one recording as JSON with byte offsets (``ksy=True``:
    the Kaitai parse tree instead), written to ``out`` as it is decoded, or returned
    as a string when ``out`` is ``None``.

    Raises :class:`recspec.errors.DecodeError` (located) where the bytes stop being
    the format; the JSON written up to there is kept."""
    variant = variant_name(variant)
    buffer = io.StringIO() if out is None else out
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            with open(path, "rb") as f:
                fs, _ = _seekable_from_start(f)  # a FIFO or /dev/stdin is read into memory (up to a limit)
                info = _detect(fs.read(SNIFF_BYTES), str(path), format, variant)
                fs.seek(0)
                info.load().dump(fs, buffer, variant=variant, ksy=ksy)
        except FileNotFoundError:
            raise InputError(f"{source}: no such file", str(source)) from None
        except IsADirectoryError:
            raise InputError(f"{source}: is a folder; dump takes one file", str(source)) from None
        except PermissionError as e:
            raise InputError(f"{source}: {e.strerror}", str(source)) from None
    else:
        if isinstance(source, (bytes, bytearray, memoryview)):
            fb: BinaryIO = io.BytesIO(bytes(source))
            shown = name_of(source)
        else:
            fb, _ = _seekable_from_start(source)
            shown = name_of(source)
        info = _detect(fb.read(SNIFF_BYTES), shown, format, variant)
        fb.seek(0)
        info.load().dump(fb, buffer, variant=variant, ksy=ksy)
    return buffer.getvalue() if out is None else None  # type: ignore[union-attr]


def name_of(source: object) -> str | None:
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None
