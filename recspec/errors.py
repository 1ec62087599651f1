"""The one error hierarchy of recspec.

Contract: the public decoders and parsers of recspec raise only
:class:`RecspecError` subclasses. No ``struct.error``, ``IndexError``,
``UnicodeDecodeError`` or ``KeyError`` leaves a decoder; anything unexpected is
wrapped in :class:`InternalError` at the public boundary (with the original
traceback kept as ``__cause__``), so that a bug in recspec is never reported as
the file's fault.

Every error stores its data as attributes and defines ``__reduce__`` so that it
crosses process boundaries (fuzzing and parallel workers) intact.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "DecodeError",
    "ExtraData",
    "InputError",
    "InternalError",
    "LimitExceeded",
    "Malformed",
    "RecspecError",
    "Truncated",
    "UsageError",
]


class RecspecError(Exception):
    """Root of every error recspec raises on purpose."""

    exit_code = 2


class UsageError(RecspecError, ValueError):
    """The caller asked for something impossible (unknown format, bad option)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.hint))

    def __str__(self) -> str:
        return self.message if self.hint is None else f"{self.message}\n  hint: {self.hint}"


class InputError(RecspecError):
    """An input that cannot be read: a missing path, an unreadable file, a read that fails.

    Not a finding about the file's content (that is a report); ``recspec check`` lists it
    and exits with code 2 after checking the other files."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.path))

    def __str__(self) -> str:
        return self.message


class DecodeError(RecspecError, ValueError):
    """Bytes that cannot be decoded. Carries where: byte offset and structural path."""

    rule = "DECODE"

    def __init__(self, message: str, offset: int = 0, path: str = "", rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.path = path
        if rule is not None:
            self.rule = rule

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.offset, self.path, self.rule))

    def __str__(self) -> str:
        where = f" at offset {self.offset}"
        if self.path:
            where += f" ({self.path})"
        return f"{self.message}{where}"


class Truncated(DecodeError):
    """The input ended before the structure did."""

    def __init__(
        self, message: str, offset: int = 0, path: str = "", rule: str | None = None,
        needed: int = 0, available: int = 0,
    ) -> None:
        super().__init__(message, offset, path, rule)
        self.needed = needed
        self.available = available

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.offset, self.path, self.rule, self.needed, self.available))


class Malformed(DecodeError):
    """The bytes are present but cannot be the structure (wrong magic, bad size)."""


class LimitExceeded(DecodeError):
    """A documented resource limit was reached; the input may be valid but is not read."""

    def __init__(
        self, message: str, offset: int = 0, path: str = "", rule: str | None = None,
        limit: str = "", value: int = 0, maximum: int = 0,
    ) -> None:
        super().__init__(message, offset, path, rule)
        self.limit = limit
        self.value = value
        self.maximum = maximum

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.offset, self.path, self.rule, self.limit, self.value, self.maximum))


class ExtraData(DecodeError):
    """A complete value was decoded but bytes follow it. Carries both."""

    def __init__(self, message: str, offset: int, value: Any, extra: bytes, path: str = "", rule: str | None = None) -> None:
        super().__init__(message, offset, path, rule)
        self.value = value
        self.extra = extra

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.offset, self.value, self.extra, self.path, self.rule))


class InternalError(RecspecError, RuntimeError):
    """A bug in recspec. Never the file's fault; reported with the traceback kept."""

    exit_code = 3
