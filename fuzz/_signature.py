"""What makes two failures the same bug (``signature``), and a failure's description as a
campaign saves it beside the input (``crash_info``).

Only the standard library is imported here: the fuzzing process imports this module
before atheris instruments recspec.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["PROJECT_MODULES", "crash_info", "project_frame", "signature"]


def _module_name(filename: str) -> str:
    for name, mod in list(sys.modules.items()):
        if getattr(mod, "__file__", None) == filename:
            return name
    return filename


def _root_cause(e: BaseException) -> BaseException:
    while e.__cause__ is not None:
        e = e.__cause__
    return e


#: Modules that are the project's own code: a signature names the innermost frame among them.
PROJECT_MODULES = ("recspec",)


def project_frame(frames: Sequence[traceback.FrameSummary]) -> traceback.FrameSummary | None:
    """The innermost frame in recspec's own code (a library's frame says little about which
    of recspec's calls broke), else the innermost frame."""
    for frame in reversed(frames):
        if _module_name(frame.filename).split(".", 1)[0] in PROJECT_MODULES:
            return frame
    return frames[-1] if frames else None


def _rule_of(e: BaseException) -> str | None:
    """The rule id an exception carries (a ``DecodeError`` says which rule the input broke)."""
    while True:
        rule = getattr(e, "rule", None)
        if isinstance(rule, str) and rule:
            return rule
        if e.__cause__ is None:
            return None
        e = e.__cause__


def signature(e: BaseException) -> str:
    """What makes two failures the same bug: the exception type, the innermost frame of
    recspec's own code that it passed through, and the rule it carries, if any
    (``ValueError@recspec.reference.carla._decode:decode_body:412[CARLA-FRAME-001]``).

    A ``ContractViolation`` that wraps another exception is signed by the cause;
    one that knows its own signature (``Divergent``) gives it.
    """
    own = getattr(e, "signature", None)
    if callable(own):
        sig = own()
        if sig:
            return str(sig)
    cause = _root_cause(e)
    frame = project_frame(traceback.extract_tb(cause.__traceback__))
    rule = _rule_of(e)
    where = "" if frame is None else f"@{_module_name(frame.filename)}:{frame.name}:{frame.lineno}"
    return f"{type(cause).__name__}{where}" + (f"[{rule}]" if rule else "")


def crash_info(e: BaseException, data: bytes, describe: Callable[[bytes], dict[str, Any]]) -> dict[str, Any]:
    cause = _root_cause(e)
    frames = traceback.extract_tb(cause.__traceback__)
    last = project_frame(frames)
    info: dict[str, Any] = {
        "exception": type(e).__name__,
        "message": str(e),
        "signature": signature(e),
        "rule": _rule_of(e),
        "module": getattr(e, "module", None) or (_module_name(last.filename) if last else None),
        "where": f"{_module_name(last.filename)}:{last.lineno} in {last.name}" if last else None,
        "traceback": [f"{_module_name(f.filename)}:{f.lineno} in {f.name}: {f.line}" for f in frames],
    }
    if cause is not e:
        info["cause"] = {"exception": type(cause).__name__, "message": str(cause)}
    divergences = getattr(e, "divergences", None)
    if divergences:
        info["divergences"] = [str(d) for d in divergences]
    try:
        info.update(describe(data))
    except Exception as err:  # never lose the crash over its description
        info["describe_error"] = f"{type(err).__name__}: {err}"
    return info
