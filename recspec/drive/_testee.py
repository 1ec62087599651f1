"""Running a testee: a command line (placeholders, stdin, a time limit) or a Python callable.

A testee never takes recspec down: its exit code, the signal that killed it,
its time-out and whatever it printed are the outcome, and recspec's own
exceptions are kept apart from the testee's.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ._limits import DEFAULT_TIMEOUT

__all__ = ["DEFAULT_TIMEOUT", "MAX_OUTPUT", "Outcome", "run_command", "shell_line"]

#: Bytes of a testee's standard output kept (a reader's case JSON); more is a ``bad-output`` finding.
MAX_OUTPUT = 64 * 1024 * 1024
#: Bytes of a testee's standard error kept for the report.
STDERR_KEPT = 2000


@dataclass(frozen=True)
class Outcome:
    """How one run of a testee ended."""

    exit_code: int | None  # None: killed by a signal or timed out
    signal: int | None = None
    timed_out: bool = False
    stdout: bytes = b""
    stderr: str = ""

    @property
    def crashed(self) -> bool:
        return self.signal is not None

    def describe(self) -> str:
        if self.timed_out:
            return "did not finish within the time limit (killed)"
        if self.signal is not None:
            try:
                name = signal.Signals(self.signal).name
            except ValueError:
                name = f"signal {self.signal}"
            return f"was killed by {name}"
        return f"exited with status {self.exit_code}"


def substitute(command: Sequence[str], **paths: Path) -> list[str]:
    """``command`` with ``{case}``, ``{out}``, ``{file}`` replaced (also inside a word: ``--out={out}``)."""
    out = []
    for word in command:
        for name, value in paths.items():
            word = word.replace("{" + name + "}", str(value))
        out.append(word)
    return out


def shell_line(words: Sequence[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)


def run_command(argv: Sequence[str], *, stdin: bytes | None, timeout: float, cwd: Path | None = None) -> Outcome:
    """Run ``argv`` in its own process group; kill the whole group when it overruns ``timeout``."""
    try:
        proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, start_new_session=True)
    except OSError as e:
        return Outcome(127, stderr=f"cannot start {argv[0]!r}: {e.strerror or e}")
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        return Outcome(None, timed_out=True, stdout=out[:MAX_OUTPUT + 1], stderr=_tail(err))
    code = proc.returncode
    if code < 0:
        return Outcome(None, signal=-code, stdout=out[:MAX_OUTPUT + 1], stderr=_tail(err))
    return Outcome(code, stdout=out[:MAX_OUTPUT + 1], stderr=_tail(err))


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _tail(err: bytes) -> str:
    text = err.decode("utf-8", "replace")
    return text if len(text) <= STDERR_KEPT else "..." + text[-STDERR_KEPT:]
