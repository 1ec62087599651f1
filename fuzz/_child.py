"""What runs inside the fuzzing process: atheris and libFuzzer over one harness.

``atheris.Setup``/``atheris.Fuzz`` own the process they run in (libFuzzer calls
``exit``), so a campaign (``_campaign``) starts this module's :func:`main` in a child
Python (``child_command``) and watches it. The child instruments the code under test,
runs the target's harness with the format's structure-aware ``custom_mutator``, passes
over the crash signatures the campaign already saved, and writes the description of a
new one to its state folder just before libFuzzer saves the input.

Only the standard library and the registry (``recspec.formats``, which imports no
format's code) are imported at module level: the code under test must be imported
inside ``atheris.instrument_imports`` for it to report coverage.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from recspec.formats import resolve_format

from ._harness import INSTRUMENT, checked_harness, load_harness, not_instrumented
from ._signature import crash_info, signature

__all__ = ["child_command", "main", "write_launcher"]


def child_command(fmt: str, target: str, state: Path, variant: str | None) -> list[str]:
    """The command line of the fuzzing process, before libFuzzer's own arguments."""
    code = "import sys; from recspec.fuzz._child import main; main(sys.argv[1:])"
    return [sys.executable, "-c", code, fmt, target, str(state), variant or "", "--"]


def write_launcher(fmt: str, target: str, state: Path, variant: str | None) -> Path:
    """An executable script that starts the fuzzing process with the libFuzzer arguments it is given.

    libFuzzer starts copies of itself for ``-merge=1`` (and fork mode) by running
    its ``argv[0]`` through the shell with new arguments, so ``argv[0]`` must be a
    program; ``python -c ...`` is not one.
    """
    launcher = state / "launch.sh"
    command = " ".join(shlex.quote(a) for a in child_command(fmt, target, state, variant))
    launcher.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
    launcher.chmod(0o755)
    return launcher


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the fuzzing subprocess (never returns: libFuzzer exits).

    ``argv``: ``FORMAT TARGET STATE_DIR VARIANT -- <libFuzzer arguments>`` (VARIANT
    empty: detected per input). STATE_DIR holds ``known.json`` (signatures to pass
    over, read at start), ``crash.json`` (written for a new failure just before it
    propagates), ``rehits.json`` (how often each known signature was hit again) and
    ``launch.sh`` (this command, for the copies libFuzzer starts to merge).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    sep = args.index("--")
    fmt, target, state, variant = args[0], args[1], Path(args[2]), args[3] or None
    libfuzzer_args = args[sep + 1:]

    import atheris

    info = resolve_format(fmt)
    # The harness modules (and their mutators) are not instrumented: only the code under test
    # should report coverage, and the mutator runs once per execution (NOT_INSTRUMENTED); nor, for
    # the ref target, the Kaitai side, which it never runs (KAITAI_SIDE).
    with atheris.instrument_imports(include=list(INSTRUMENT), exclude=not_instrumented(target)):
        mod = load_harness(info)
    mod.use_variant(variant)
    harness = checked_harness(mod, target)

    known = set(json.loads((state / "known.json").read_text()))
    rehits: dict[str, int] = {}
    crash_path = state / "crash.json"
    rehits_path = state / "rehits.json"

    def test_one_input(data: bytes) -> None:
        try:
            harness(data)
        except Exception as e:
            sig = signature(e)
            if sig in known:
                rehits[sig] = rehits.get(sig, 0) + 1
                rehits_path.write_text(json.dumps(rehits))
                return
            crash = crash_info(e, data, mod.describe_input)
            crash_path.write_text(json.dumps(crash, indent=2, default=str))
            raise

    mutate = mod.mutate

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        return mutate(data, max_size, seed, byte_mutate=atheris.Mutate)

    launcher = state / "launch.sh"
    argv0 = str(launcher) if launcher.is_file() else sys.argv[0]
    atheris.Setup([argv0, *libfuzzer_args], test_one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()
