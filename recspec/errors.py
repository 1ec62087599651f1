"""The one error hierarchy of recspec.

Contract: the public decoders, encoders and parsers of recspec raise only
:class:`RecspecError` subclasses (an encoder given a model it cannot write raises
:class:`EncodeError`). No ``struct.error``, ``IndexError``,
``UnicodeDecodeError`` or ``KeyError`` leaves a decoder; anything unexpected is
wrapped in :class:`InternalError` at the public boundary (with the original
traceback kept as ``__cause__``), so that a bug in recspec is never reported as
the file's fault.

Exit codes come from here too: every command of the CLI and the fuzz runner
exits with :data:`EXIT_OK`, :data:`EXIT_FAIL`, or the ``exit_code`` of the
error that stopped it (2 for usage and input errors, 3 for a bug in recspec).

Every error stores its data as attributes and defines ``__reduce__`` so that it
crosses process boundaries (fuzzing and parallel workers) intact.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = [
    "EXIT_FAIL",
    "EXIT_OK",
    "DecodeError",
    "EncodeError",
    "InputError",
    "InternalError",
    "LimitExceeded",
    "Malformed",
    "RecspecError",
    "Truncated",
    "UsageError",
    "public_boundary",
]

#: Success: every file valid, no crash found, the readings agree.
EXIT_OK = 0
#: The run worked and found something: a file not valid, a fuzz crash, a divergence.
EXIT_FAIL = 1


class RecspecError(Exception):
    """Root of every error recspec raises on purpose."""

    #: The exit code of a command this error stops (usage and input errors: 2).
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


class EncodeError(RecspecError, ValueError):
    """A model the encoder cannot write (a value out of its field's range, a
    packet the variant does not have). Carries where in the model, as a path."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.path))

    def __str__(self) -> str:
        return f"{self.message} ({self.path})" if self.path else self.message


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

    #: a command stopped by the file's own bytes found a file that is not valid
    exit_code = 1

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


class InternalError(RecspecError, RuntimeError):
    """A bug in recspec. Never the file's fault; reported with the traceback kept."""

    exit_code = 3


_F = TypeVar("_F", bound=Callable[..., Any])


def public_boundary(func: _F) -> _F:
    """Wrap a public entry point: recspec's own errors pass through; anything else
    is a bug in recspec and leaves as :class:`InternalError`, the original kept as
    ``__cause__``."""

    def caller_error(e: Exception) -> bool:
        # a TypeError raised by the call itself (wrong arguments) is the caller's, not a bug here
        tb = e.__traceback__
        return isinstance(e, TypeError) and tb is not None and tb.tb_next is None

    def internal(e: Exception) -> InternalError:
        return InternalError(f"{func.__module__}.{func.__qualname__}: {type(e).__name__}: {e}")

    if inspect.isgeneratorfunction(func):
        @functools.wraps(func)
        def gen_wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                yield from func(*args, **kwargs)
            except _PASS_THROUGH:
                raise
            except Exception as e:
                if caller_error(e):
                    raise
                raise internal(e) from e

        return cast(_F, gen_wrapper)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except _PASS_THROUGH:
            raise
        except Exception as e:
            if caller_error(e):
                raise
            raise internal(e) from e

    return cast(_F, wrapper)


#: What crosses the public boundary unchanged: recspec's own errors, the user's
#: interrupt, memory exhaustion, and I/O errors of the caller's own files.
_PASS_THROUGH = (RecspecError, KeyboardInterrupt, MemoryError, OSError)
