"""What a packaged fuzzer runs (``fuzz/entrypoints/<format>_<target>_fuzzer.py``, built by
ClusterFuzzLite / OSS-Fuzz with PyInstaller): one harness and the format's mutator under
atheris, with libFuzzer's own command line.

Unlike ``recspec fuzz``, nothing here restarts after a crash or passes over known
signatures: the fuzzing service does both (and groups crashes by stack). The
variant is detected per input, as ``recspec check`` does.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._contract import FuzzHarness

__all__ = ["main"]


def main(mod: FuzzHarness, target: str, argv: Sequence[str] | None = None) -> None:
    """Fuzz ``mod``'s ``target`` harness with libFuzzer arguments ``argv`` (default ``sys.argv``); never returns."""
    import atheris

    harness = mod.TARGETS[target]
    mutate = mod.mutate

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        return mutate(data, max_size, seed, byte_mutate=atheris.Mutate)

    atheris.Setup(list(sys.argv if argv is None else argv), harness, custom_mutator=custom_mutator)
    atheris.Fuzz()
