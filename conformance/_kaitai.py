"""What every format's Kaitai cross-check (``conformance/<package>/_xcheck.py``) shares.

* :class:`KaitaiRejected`: the generated parser rejected the input. Each format
  subclasses it only to name its rule (``CARLA-XCHECK-REJECT``, ...), so that a
  rejection says which cross-check made it;
* :data:`KAITAI_INPUT_ERRORS` (and the narrower :data:`KAITAI_RUNTIME_ERRORS`):
  the exceptions a generated parser raises for bad input, as opposed to a bug in
  the parser or its adapter, which must leave the cross-check (the fuzz target
  ``ksy`` reports it);
* :meth:`KaitaiRejected.from_error`: the rejection made from one of those
  exceptions, with the offset of the stream it names and its ksy path;
* :class:`recspec.formats.Divergence`, re-exported: where two readings part;
* :func:`unread`: an object of a generated class that has not parsed yet, for
  either build (``recspec/_ksy`` in debug mode, ``recspec/_ksy_fast`` without it).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TypeVar

from kaitaistruct import KaitaiStructError

from recspec.errors import Malformed
from recspec.formats import Divergence

__all__ = ["KAITAI_INPUT_ERRORS", "KAITAI_RUNTIME_ERRORS", "Divergence", "KaitaiRejected", "stack_for_nesting",
           "unread"]

#: The Kaitai runtime's own errors for bad input: ``KaitaiStructError`` (validation
#: failures, and the process routines' errors, which derive from it) and
#: ``EOFError`` (the end-of-stream errors).
KAITAI_RUNTIME_ERRORS: tuple[type[BaseException], ...] = (KaitaiStructError, EOFError)

#: What a parser that reads text raises for bad input: the runtime's errors, plus
#: ``UnicodeDecodeError`` (the generated code decodes ``encoding: UTF-8`` strings
#: with ``bytes.decode``, outside the runtime's error classes) and ``ValueError``
#: (its base, and what the runtime's argument errors also are). The CARLA, NanoVer
#: and Matrix-SMT parsers read text. raskat-signal's reads none (its adapter
#: decodes names itself) and its process routine raises only ``KaitaiStructError``
#: (``recspec._ksy_process``), so it uses :data:`KAITAI_RUNTIME_ERRORS`: a
#: ``ValueError`` from it is a bug for the ``ksy`` fuzz target to report, not a
#: rejection to swallow.
KAITAI_INPUT_ERRORS: tuple[type[BaseException], ...] = (*KAITAI_RUNTIME_ERRORS, UnicodeDecodeError, ValueError)

_R = TypeVar("_R", bound="KaitaiRejected")


def _stream_offset(e: BaseException) -> int:
    """The position of the stream a validation error names (``e.io``), else 0."""
    pos = getattr(getattr(e, "io", None), "pos", None)
    return pos() if callable(pos) else 0


class KaitaiRejected(Malformed):
    """The Kaitai parser rejected the input (its message, the offset and the ksy path).

    A :class:`recspec.errors.DecodeError`: the input's fault. Each format's
    ``_xcheck`` subclasses it with its own ``rule``."""

    rule = "XCHECK-REJECT"

    @classmethod
    def from_error(cls: type[_R], e: BaseException, prefix: str = "", *, offset: int | None = None,
                   path: str | None = None) -> _R:
        """The rejection for the runtime error ``e``: the message ``prefix`` +
        ``"<exception type>: <error>"``; ``offset`` unless given, the position of the
        stream ``e`` names (0 when it names none); ``path`` unless given, ``e``'s ksy
        path (``src_path``)."""
        where = _stream_offset(e) if offset is None else offset
        src = str(getattr(e, "src_path", "") or "") if path is None else path
        return cls(f"{prefix}{type(e).__name__}: {e}", where, src)



_NOT_READING: dict[type, type] = {}


def unread(cls: type, *args: Any) -> Any:
    """``cls(*args)`` without parsing: call ``_read()`` on it next.

    The cross-check runs the parsers compiled without debug mode
    (``recspec/_ksy_fast``), whose constructor parses; the adapters want the
    object even when parsing fails (the packet's length read before a payload
    was rejected), as the debug build gives it. This builds the object through a
    subclass whose ``_read`` does nothing, then gives it back its own class, so
    ``type(obj)`` and ``isinstance`` are as if it had been built normally. A debug
    class (which never parses in its constructor) comes back the same way.
    """
    quiet = _NOT_READING.get(cls)
    if quiet is None:
        quiet = _NOT_READING[cls] = type(cls.__name__, (cls,), {"_read": lambda self: None})
    obj = quiet(*args)
    obj.__class__ = cls
    return obj


@contextlib.contextmanager
def stack_for_nesting(levels: int, frames_per_level: int = 12) -> Iterator[None]:
    """Room on the Python stack for a parse ``levels`` deep (the ksy bounds the depth).

    Without debug mode a generated constructor calls ``_read``, which constructs
    the children: every nesting level costs about twice the frames of the debug
    build, and a BSON document 100 levels deep (``MAX_DEPTH``, which the ksy also
    enforces) needs more than Python's default limit of 1,000. The limit is raised
    for the parse only, by what the bounded depth needs.
    """
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, old + levels * frames_per_level))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
