"""What every harness module provides (:class:`FuzzHarness`) and the findings they raise."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from recspec.errors import UsageError
from recspec.formats import Divergence

__all__ = ["ContractViolation", "Divergent", "FuzzHarness", "Harness", "divergence_kind", "refuse_variant"]

#: One fuzz target: returns when its invariant holds for the input, raises when it does not.
Harness = Callable[[bytes], None]


class ContractViolation(AssertionError):
    """A harness's invariant does not hold for an input.

    A finding about recspec, never about the input. ``signature()`` groups
    findings that are the same bug (the runner saves one input per signature);
    ``None`` lets the runner sign by traceback. Each harness module re-exports
    it (and :class:`Divergent`), so ``recspec.fuzz.<format>.ContractViolation``
    is the one class.
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


def divergence_kind(d: Divergence) -> str:
    """The default name of a divergence's kind: its reader, path and the message's
    first clause without numbers and parenthesised details."""
    text = re.sub(r"\([^()]*\)", "", d.message.split(":", 1)[0])
    return f"Divergent:{d.reader}:{d.path}:{re.sub(r'[0-9]+', 'N', text).strip()[:100]}"


class Divergent(ContractViolation):
    """The independent readings of an input differ: the ``diff`` targets' finding.

    ``divergences``: what the format's ``_xcheck.differential`` returned (the
    first three are shown); ``variant``: the variant the input was read as
    (``None`` for a format with one layout); ``module``: the code that broke (the
    readers and the comparison); ``kind``: how the signature names the first
    divergence, so that inputs that break the same comparison are one crash
    (a module-level function, for pickling; :func:`divergence_kind` when not given).
    """

    def __init__(self, divergences: Iterable[Divergence], variant: str | None = None, module: str | None = None,
                 kind: Callable[[Divergence], str | None] | None = None) -> None:
        self.divergences = tuple(divergences)
        self.module = module
        self.kind = kind
        n = len(self.divergences)
        shown = "; ".join(str(d) for d in self.divergences[:3])
        more = f" (+{n - 3} more)" if n > 3 else ""
        under = f" under {variant}" if variant is not None else ""
        super().__init__(f"{n} divergence(s){under}: {shown}{more}", variant)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.divergences, self.variant, self.module, self.kind))

    def signature(self) -> str | None:
        if not self.divergences:
            return None
        return (self.kind or divergence_kind)(self.divergences[0])


def refuse_variant(fmt: str, name: str | None) -> None:
    """``use_variant`` of a format whose input's own bytes choose the layout: only ``None`` is accepted."""
    if name is not None:
        raise UsageError(f"--variant does not apply to {fmt}: the input's own bytes choose its layout",
                         "leave --variant out")


@runtime_checkable
class FuzzHarness(Protocol):
    """What ``recspec.fuzz.<package>`` provides (``FormatInfo.fuzz_module``): the
    runner and ``tests/test_fuzz_harnesses.py`` rely on exactly this.

    Importing the module does not import atheris; every function is deterministic
    and never raises except where its contract says so.
    """

    @property
    def TARGETS(self) -> Mapping[str, Harness]:
        """The fuzz targets by name, one per entry of ``recspec.fuzz.TARGETS``: ``ref``
        (the reference codec and the checker), ``ksy`` (the generated Kaitai parser),
        ``diff`` (the readings agree, else :class:`Divergent`). Read-only, so that a
        module's ``dict`` of them conforms."""
        ...

    #: The suffix of saved crashes (so that ``recspec check``/``reproduce`` read them).
    EXTENSION: str
    #: How often :meth:`mutate` mutates bytes although the input parses.
    BYTE_MUTATION_RATE: float
    ContractViolation: type[ContractViolation]
    Divergent: type[Divergent]

    def fuzz_ref(self, data: bytes) -> None: ...

    def fuzz_ksy(self, data: bytes) -> None: ...

    def fuzz_diff(self, data: bytes) -> None: ...

    def divergence_kind(self, d: Divergence) -> str | None:
        """How ``fuzz_diff``'s :class:`Divergent` signs its first divergence (``None``: by traceback)."""
        ...

    def use_variant(self, name: str | None) -> None:
        """Read every input under variant ``name`` from now on (``recspec fuzz --variant``: a
        campaign that fixes the variant saves detecting it in every execution), or detect
        each input's again (``None``). ``UsageError`` for a variant the format does not have,
        or when its inputs choose their layout themselves (:func:`refuse_variant`)."""
        ...

    def describe_input(self, data: bytes) -> dict[str, Any]:
        """What the runner records about a crashing input besides the exception (never raises)."""
        ...

    def mutate(self, data: bytes, max_size: int, seed: int, *,
               byte_mutate: Callable[[bytes, int], bytes] | None = None) -> bytes:
        """atheris' ``custom_mutator``: at most ``max_size`` bytes, the same for the same seed, never raises."""
        ...

    def synthetic_seeds(self) -> list[tuple[str, bytes]]:
        """(name, input) seeds that need no corpus folder."""
        ...

    def derive_seeds(self, data: bytes, max_len: int) -> list[bytes]:
        """Smaller inputs made from one seed file (at most ``max_len`` bytes each)."""
        ...

    def dictionary_entries(self) -> list[tuple[str, bytes]]:
        """The libFuzzer dictionary as (name, value) pairs."""
        ...

    def dictionary_text(self) -> str:
        """The dictionary rendered: ``fuzz/dictionaries/<FormatInfo.dictionary>`` holds exactly this."""
        ...
