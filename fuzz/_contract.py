"""The exception every harness raises when its invariant does not hold."""

from __future__ import annotations

from typing import Any

__all__ = ["ContractViolation"]


class ContractViolation(AssertionError):
    """A harness's invariant does not hold for an input.

    A finding about recspec, never about the input. ``signature()`` groups
    findings that are the same bug (the runner saves one input per signature);
    ``None`` lets the runner sign by traceback. Each format's harness module
    subclasses it (``Divergent``) and re-exports it, so the runner finds it as
    ``recspec.fuzz.<format>.ContractViolation``.
    """

    #: Where the broken code is, when the traceback does not say (a divergence is raised by the harness).
    module: str | None = None

    def __init__(self, message: str, variant: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.variant = variant

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.variant))

    def signature(self) -> str | None:
        return None
