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
from typing import IO, BinaryIO, TextIO, Union, cast

from ._limits import MAX_STREAM_SIZE, open_input, spool_file_object
from ._run import CROSS_CHECK_MODES
from .errors import InputError, UsageError, public_boundary
from .formats import SNIFF_BYTES, FormatInfo, by_extension, resolve_format, sniff
from .pipeline import check_file, check_stream
from .report import FileReport
from .trace import collecting

__all__ = ["MAX_STREAM_SIZE", "Source", "check", "dump"]

#: What ``check`` and ``dump`` accept: a path, the bytes of a file, or a binary file object.
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]

# MAX_STREAM_SIZE (recspec/_limits.py): a file object that cannot seek (a pipe, a socket)
# is copied to an anonymous temporary file on disk up to this many bytes, so memory does
# not grow with it; a longer one is refused with InputError (save it to a file).


def _source(source: object) -> Source:
    """``source`` when ``check``/``dump`` can read it; a UsageError that says what to pass otherwise."""
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if isinstance(text, bytes) or "\x00" in text:
            raise UsageError(f"source={source!r} is not a path recspec can open",
                             "pass the path as text without NUL characters, or the file's bytes")
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        return source
    if isinstance(source, io.TextIOBase):
        raise UsageError(f"source: {name_of(source) or 'the file object'} is open in text mode",
                         "open it in binary mode: open(path, 'rb')")
    read = getattr(source, "read", None)
    if callable(read):
        try:
            probe = read(0)
        except Exception as e:  # noqa: BLE001 - a file object that cannot read is the caller's to fix
            raise UsageError(f"source: the file object cannot be read ({type(e).__name__}: {e})",
                             "pass a binary file object open for reading, a path or bytes") from None
        if isinstance(probe, str):
            raise UsageError(f"source: {name_of(source) or 'the file object'} is open in text mode",
                             "open it in binary mode: open(path, 'rb')")
        if not isinstance(probe, (bytes, bytearray)):
            raise UsageError(f"source: the file object's read() returns {type(probe).__name__}, not bytes",
                             "pass a binary file object, a path or bytes")
        return source  # type: ignore[return-value]
    raise UsageError(f"source: cannot check a {type(source).__name__}", "pass a path, bytes or a binary file object")


def _cross_check_mode(value: object) -> bool | str:
    """``cross_check=``: a mode name (``CROSS_CHECK_MODES``), or ``True``/``False`` for ``"default"``/``"off"``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in CROSS_CHECK_MODES:
        return CROSS_CHECK_MODES[value]
    raise UsageError(f"cross_check={value!r} is not a cross-check mode",
                     "choose 'default', 'full' or 'off' (True and False stand for 'default' and 'off')")


def _non_negative_int(argument: str, value: object) -> None:
    """A size or count argument: ``None`` (the default) or an int >= 0; ``True`` is not a number here."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{argument}={value!r} is not a number of bytes",
                         f"pass an int >= 0, e.g. {argument}=1_048_576 for 1 MiB")
    if value < 0:
        raise UsageError(f"{argument}={value} is negative", "pass an int >= 0")


def _optional_text(argument: str, value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise UsageError(f"{argument}={value!r} is not text", f"pass {argument} as a str, or leave it out")


def _flag(argument: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise UsageError(f"{argument}={value!r} is not True or False", f"pass {argument}=True or {argument}=False")


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
    raise UsageError(f"variant={variant!r} is not a variant", "pass the variant's name, e.g. '0.9.15', 'traj' or 'v3'")


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
    """``f`` itself when it can seek (read from its current position), else a copy on disk."""
    try:
        if f.seekable():
            start = f.tell()
            size = f.seek(0, os.SEEK_END) - start
            f.seek(start)
            if start == 0:
                return f, size  # type: ignore[return-value]
    except OSError:
        pass
    return spool_file_object(f, name_of(f) or "<stream>", limit=MAX_STREAM_SIZE)


@public_boundary
def check(source: Source, *, format: str | None = None, variant: object = None, profile: str | None = None,
          cross_check: str | bool = "default", cross_check_limit: int | None = None, name: str | None = None,
          trace: bool = False) -> FileReport:
    """Check one recording and return its report (verdict, findings with rule ids, offsets and paths, stats).

    ``source``: a path, the file's bytes, or a binary file object (read from its
    current position). ``format``/``variant`` force what is otherwise detected;
    ``profile`` is ``spec`` (default) or ``compat``; ``cross_check`` is the mode of
    the Kaitai second reading, as ``--cross-check`` takes it: ``"default"`` (files up
    to ``cross_check_limit`` bytes, a non-negative int; default per format),
    ``"full"`` or ``"off"`` (``True`` and ``False`` stand for ``"default"`` and
    ``"off"``). ``name`` is the path shown in the report for bytes and file objects.
    ``trace`` collects what the HTML report's pictures draw (``FileReport.trace``).

    Bad content is never an exception: it is the report's verdict. Raises
    :class:`UsageError` for bad arguments and :class:`InputError` when a path
    cannot be read."""
    source = _source(source)
    mode = _cross_check_mode(cross_check)
    _optional_text("format", format)
    _optional_text("profile", profile)
    _non_negative_int("cross_check_limit", cross_check_limit)
    shown = _optional_text("name", name)
    with collecting(_flag("trace", trace)):
        return _check(source, format=format, variant=variant_name(variant), profile=profile,
                      cross_check=mode, cross_check_limit=cross_check_limit, name=shown)


def _check(source: Source, *, format: str | None, variant: str | None, profile: str | None, cross_check: bool | str,
           cross_check_limit: int | None, name: str | None) -> FileReport:
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
        try:
            return check_stream(f, name=shown if isinstance(shown, str) else "<stream>", size=size, **options)  # type: ignore[arg-type]
        finally:
            if f is not source:  # our copy on disk of a stream
                f.close()
    raise UsageError(f"cannot check a {type(source).__name__}", "pass a path, bytes or a binary file object")


def _detect(head: bytes, name: str | None, format: str | None, variant: str | None) -> FormatInfo:
    if format is not None:
        info = resolve_format(format)
    else:
        found, _ = sniff(head, name)
        info_or_none = found or (by_extension(name) if name else None)
        if info_or_none is None:
            raise UsageError(f"{name or 'the input'}: no known format recognises this content",
                             "force one with format=")
        info = info_or_none
    info.check_variant(variant)
    return info


@public_boundary
def dump(source: Source, out: TextIO | None = None, *, format: str | None = None, variant: object = None,
         ksy: bool = False) -> str | None:
    """The decoded structure of one recording as JSON with byte offsets (``ksy=True``:
    the Kaitai parse tree instead), written to ``out`` as it is decoded, or returned
    as a string when ``out`` is ``None``.

    Raises :class:`recspec.errors.DecodeError` (located) where the bytes stop being
    the format; the JSON written up to there is kept."""
    source = _source(source)
    _optional_text("format", format)
    variant = variant_name(variant)
    ksy = _flag("ksy", ksy)
    if out is not None and not callable(getattr(out, "write", None)):
        raise UsageError(f"out={out!r} cannot be written to", "pass a text file object (open(path, 'w')) or None")
    buffer: TextIO = io.StringIO() if out is None else out
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            with open_input(path, str(path)) as (f, _):
                info = _detect(f.read(SNIFF_BYTES), str(path), format, variant)
                f.seek(0)
                info.load().dump(f, buffer, variant=variant, ksy=ksy)
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
        try:
            info = _detect(fb.read(SNIFF_BYTES), shown, format, variant)
            fb.seek(0)
            info.load().dump(fb, buffer, variant=variant, ksy=ksy)
        finally:
            if fb is not source:
                fb.close()
    return cast(io.StringIO, buffer).getvalue() if out is None else None  # without out, the StringIO made above


def name_of(source: object) -> str | None:
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None
