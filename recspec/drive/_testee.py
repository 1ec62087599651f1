"""Running a testee: a command line (placeholders, stdin, a time limit) or a Python callable.

A testee never takes recspec down: its exit code, the signal that killed it,
its time-out and whatever it printed are the outcome, and recspec's own
exceptions are kept apart from the testee's.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ._limits import DEFAULT_TIMEOUT

__all__ = ["DEFAULT_TIMEOUT", "MAX_OUTPUT", "Outcome", "absolute_command", "recorded_environment", "replay_script",
           "run_command", "shell_line"]

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


def absolute_command(command: Sequence[str]) -> list[str]:
    """``command`` as it runs from any folder: the program by its absolute path (found on PATH when named
    bare), and each argument that names an existing file or folder relative to here made absolute;
    placeholders and everything else as given."""
    out = []
    for i, word in enumerate(command):
        if i == 0 and os.sep not in word:
            found = shutil.which(word)
            out.append(os.path.abspath(found) if found else word)
        elif "{" not in word and not os.path.isabs(word) and not word.startswith("-") and os.path.exists(word):
            out.append(os.path.abspath(word))
        else:
            out.append(word)
    return out


#: Environment variables that change which program runs or how it loads and reads its input; replay.sh sets
#: those whose value differs from the default (unset; ``os.defpath`` for PATH), so it runs the testee as drive
#: did. Every ``PYTHON*`` and ``RECSPEC_*`` variable is recorded too.
RECORDED_ENVIRONMENT = ("PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "LD_PRELOAD", "DYLD_LIBRARY_PATH",
                        "NODE_PATH", "CLASSPATH", "LANG", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "TZ")


def recorded_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The variables of :data:`RECORDED_ENVIRONMENT` (and ``PYTHON*``, ``RECSPEC_*``) set to a value other than
    their default."""
    env = dict(os.environ if environ is None else environ)
    defaults = {"PATH": os.defpath}
    return {k: v for k, v in sorted(env.items())
            if (k in RECORDED_ENVIRONMENT or k.startswith(("PYTHON", "RECSPEC_"))) and v != defaults.get(k)}


def replay_script(command_line: str, *, cwd: str | None = None, environ: dict[str, str] | None = None) -> str:
    """``replay.sh``: from any folder, go to the folder drive ran in, set the environment it ran with, and run
    the replay command (recspec by the interpreter that ran it, the testee by absolute paths)."""
    lines = ["#!/bin/sh", "# Replays one failure of `recspec drive`: the folder, environment and commands it ran with.",
             f"cd {shlex.quote(cwd or os.getcwd())} || exit 2"]
    lines += [f"export {k}={shlex.quote(v)}" for k, v in recorded_environment(environ).items()]
    lines.append(f"exec {command_line}")
    return "\n".join(lines) + "\n"


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
