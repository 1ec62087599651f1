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

__all__ = ["CANARY_ENV", "INSTRUMENT", "NOT_INSTRUMENTED", "PLUGIN_NOT_INSTRUMENTED", "TARGETS", "CanaryHit",
           "checked_harness", "format_modules_not_instrumented", "load_harness", "not_instrumented"]

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


def format_modules_not_instrumented() -> list[str]:
    """Every registered format's harness module and its plugin's ``PLUGIN_NOT_INSTRUMENTED`` modules, by
    name: the registry knows where a format's code lives (a format from another package names its own).
    Only names: finding a submodule's spec would import its plugin package (and what that imports)
    before atheris instruments it."""
    from recspec.formats import FORMATS  # the registry, which imports no checker

    return [name for info in FORMATS.values()
            for name in (info.fuzz_module, *(f"{info.module}.{sub}" for sub in PLUGIN_NOT_INSTRUMENTED))]


def not_instrumented() -> list[str]:
    """The module names of ``NOT_INSTRUMENTED``, each package's modules listed one by one (atheris'
    ``exclude`` matches whole module names, not packages), and ``format_modules_not_instrumented()``."""
    names: list[str] = []
    for name in NOT_INSTRUMENTED:
        names.append(name)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            names += [m.name for m in pkgutil.walk_packages(spec.submodule_search_locations, name + ".")]
    return list(dict.fromkeys([*names, *format_modules_not_instrumented()]))


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

