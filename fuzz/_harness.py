"""A format's fuzz harness as every fuzzing process loads and runs it.

The campaign's child (``_child``), the minimiser and the triage children
(``_triage``) and the packaged fuzzers (``entrypoints/``) all load a harness
module through the registry, instrument what they fuzz and leave the rest out
(``INSTRUMENT``, ``not_instrumented``), and run a target with the self-test
canary (``checked_harness``). Only the standard library is imported here (the
registry inside a function): a fuzzing process imports this module before atheris
instruments recspec.
"""

from __future__ import annotations

import importlib.util
import os
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from recspec.formats import FormatInfo

    from ._contract import FuzzHarness

__all__ = ["CANARY_ENV", "INSTRUMENT", "KAITAI_SIDE", "NOT_INSTRUMENTED", "PLUGIN_KAITAI_SIDE",
           "PLUGIN_NOT_INSTRUMENTED", "TARGETS", "CanaryHit", "checked_harness", "format_modules_not_instrumented",
           "kaitai_side_modules", "load_harness", "not_instrumented"]

#: The targets every harness module provides (``FuzzHarness.TARGETS``).
TARGETS = ("ref", "ksy", "diff")

#: Environment variable: hex bytes; an input containing them fails as if the
#: harness had found a bug (``CanaryHit``). It exists so that the crash pipeline
#: (save, companion JSON, replay) is tested end to end without a real bug.
CANARY_ENV = "RECSPEC_FUZZ_CANARY"


class CanaryHit(AssertionError):
    """The self-test canary of ``RECSPEC_FUZZ_CANARY`` was found in an input."""


#: Modules instrumented for coverage in a fuzzing process.
INSTRUMENT = ("recspec", "kaitaistruct")
#: ... except these modules and packages with every module in them: the harnesses and mutators
#: themselves, the report and its rendering to plain JSON data (``to_plain``), the HTML trace,
#: the finding sink every checker reports into (``recspec.conformance._sink``: the per-rule cap
#: and the profiles' counts, the same branches whatever the rule) and the errors module (the
#: public-boundary wrapper around every decoder call): no parsing or checking there. Their code
#: runs in every execution; instrumented, it costs time and finds no parser bug (the sink's
#: branches were about an eighth of a CARLA ``ref`` execution's coverage hooks). Each format's
#: own modules of that kind join them from the registry (``format_modules_not_instrumented``).
NOT_INSTRUMENTED = ("recspec.fuzz", "recspec.report", "recspec._plain", "recspec.trace", "recspec.conformance._sink",
                    "recspec.errors")
#: The plugin modules (``FormatInfo.module``'s submodules) that only collect a check's trace and draw
#: its picture (``FormatModule.TRACE``, ``picture``): no parsing or checking there either.
PLUGIN_NOT_INSTRUMENTED = ("_trace", "_picture")

#: The Kaitai side: the generated parsers (``recspec._ksy_fast``, the debug builds in ``recspec._ksy``, the
#: process hooks in ``recspec._ksy_process``), their runtime (``kaitaistruct``), the adapter that runs them
#: (``recspec.conformance._kaitai``) and the sampled cross-check's cutting (``recspec.conformance._sample``),
#: with each format's cross-check module (``PLUGIN_KAITAI_SIDE``, named from the registry). The ``ksy`` and
#: ``diff`` harnesses run them; the ``ref`` harnesses never do, so a ``ref`` campaign leaves them out of the
#: instrumentation (``not_instrumented("ref")``): instrumenting them took about a third of a CARLA fuzzing
#: process's start (0.7 of 1.9 CPU seconds) and gave no coverage. ``tests/test_fuzz_instrument_target.py``
#: runs every ``ref`` harness over its seeds and mutants and fails if any code of these modules runs.
KAITAI_SIDE = ("kaitaistruct", "recspec._ksy_fast", "recspec._ksy", "recspec._ksy_process",
               "recspec.conformance._kaitai", "recspec.conformance._sample")
#: The plugin modules (``FormatInfo.module``'s submodules) of the Kaitai side: the format's cross-check.
PLUGIN_KAITAI_SIDE = ("_xcheck",)
#: The targets that run no Kaitai-side code (``KAITAI_SIDE``).
_WITHOUT_KAITAI = frozenset({"ref"})


def format_modules_not_instrumented() -> list[str]:
    """Every registered format's harness module and its plugin's ``PLUGIN_NOT_INSTRUMENTED`` modules, by
    name: the registry knows where a format's code lives (a format from another package names its own).
    Only names: finding a submodule's spec would import its plugin package (and what that imports)
    before atheris instruments it."""
    from recspec.formats import FORMATS  # the registry, which imports no checker

    return [name for info in FORMATS.values()
            for name in (info.fuzz_module, *(f"{info.module}.{sub}" for sub in PLUGIN_NOT_INSTRUMENTED))]


def _with_submodules(packages: tuple[str, ...]) -> list[str]:
    """``packages`` and, for each that is a package, every module in it by name (atheris' ``exclude``
    matches whole module names, not packages)."""
    names: list[str] = []
    for name in packages:
        names.append(name)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            names += [m.name for m in pkgutil.walk_packages(spec.submodule_search_locations, name + ".")]
    return names


def kaitai_side_modules() -> list[str]:
    """The module names of ``KAITAI_SIDE``, each package's modules one by one, and every registered
    format's ``PLUGIN_KAITAI_SIDE`` modules (only names, as in ``format_modules_not_instrumented``)."""
    from recspec.formats import FORMATS

    return list(dict.fromkeys([*_with_submodules(KAITAI_SIDE),
                               *(f"{info.module}.{sub}" for info in FORMATS.values() for sub in PLUGIN_KAITAI_SIDE)]))


def not_instrumented(target: str | None = None) -> list[str]:
    """The module names of ``NOT_INSTRUMENTED``, each package's modules listed one by one (atheris'
    ``exclude`` matches whole module names, not packages), and ``format_modules_not_instrumented()``;
    for ``target`` ``ref``, also ``kaitai_side_modules()`` (code that target never runs). Without a
    target (a packaged fuzzer, built for any target), the Kaitai side stays instrumented."""
    names = [*_with_submodules(NOT_INSTRUMENTED), *format_modules_not_instrumented()]
    if target in _WITHOUT_KAITAI:
        names += kaitai_side_modules()
    return list(dict.fromkeys(names))


def load_harness(info: FormatInfo) -> FuzzHarness:
    """A format's harness module (``ModuleNotFoundError`` when it has none)."""
    return cast("FuzzHarness", info.load_fuzz())


def checked_harness(mod: FuzzHarness, target: str) -> Callable[[bytes], None]:
    """The target's harness as a campaign runs it: with the self-test canary (``RECSPEC_FUZZ_CANARY``)."""
    target_harness = mod.TARGETS[target]
    canary = bytes.fromhex(os.environ.get(CANARY_ENV, ""))
    if not canary:
        return target_harness

    def harness(data: bytes) -> None:
        if canary in data:
            raise CanaryHit(f"input contains the self-test canary {canary.hex()}")
        target_harness(data)

    return harness

