"""Running a testee: a command line (placeholders, stdin, a time limit) or a Python callable.

A testee never takes recspec down: its exit code, the signal that killed it,
its time-out and whatever it printed are the outcome, and recspec's own
exceptions are kept apart from the testee's.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import struct
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._limits import DEFAULT_TIMEOUT

__all__ = ["DEFAULT_TIMEOUT", "MAX_MESSAGE", "MAX_OUTPUT", "Outcome", "PersistentProcess", "absolute_command",
           "recorded_environment", "replay_script", "run_command", "shell_line"]

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
    #: a persistent testee that broke the protocol (ended without an answer, sent a malformed one): what it did
    broke: str | None = None

    @property
    def crashed(self) -> bool:
        return self.signal is not None or self.broke is not None

    def describe(self) -> str:
        if self.broke is not None:
            return self.broke
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


# --- a persistent testee: one process, many requests ----------------------------------------------

#: The largest message either side of the persistent protocol may send (the 4-byte length's bound in practice).
MAX_MESSAGE = MAX_OUTPUT


def _frame(obj: Any) -> bytes:
    body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
    return struct.pack("<I", len(body)) + body


class PersistentProcess:
    """A testee process that answers many requests (``--persistent``).

    Each request is a 4-byte little-endian length and that many bytes of UTF-8 JSON on the testee's standard
    input; the testee answers the same way on its standard output. The process starts on the first request; a
    request it does not answer within ``timeout`` (killed with its process group), or ends without answering,
    is that request's outcome, and the next request starts a fresh process. Its standard error goes to a
    temporary file whose end is kept for a failed request's outcome."""

    def __init__(self, argv: Sequence[str], timeout: float) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.err: Any = None
        self.starts = 0

    def _start(self) -> Outcome | None:
        import tempfile

        # kept open for the process's life and closed by _end: no with-block spans it
        self.err = tempfile.TemporaryFile(prefix="recspec-drive-stderr-")  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                         start_new_session=True, bufsize=0)
        except OSError as e:
            self.proc = None
            return Outcome(127, stderr=f"cannot start {self.argv[0]!r}: {e.strerror or e}")
        self.starts += 1
        return None

    def _stderr_tail(self) -> str:
        if self.err is None:
            return ""
        self.err.seek(0)
        return _tail(self.err.read())

    def _end(self, kill: bool) -> tuple[int | None, str]:
        """Stop the process (killed with its group when ``kill``); its exit status and the end of its stderr."""
        proc, self.proc = self.proc, None
        code = None
        if proc is not None:
            if kill:
                _kill_group(proc)
            try:
                code = proc.wait(timeout=self.timeout if not kill else None)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                code = proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()
        tail = self._stderr_tail()
        if self.err is not None:
            self.err.close()
            self.err = None
        return code, tail

    def request(self, message: Mapping[str, Any]) -> tuple[Outcome, dict[str, Any] | None]:
        """Send one request; the outcome (exit code 0 for an answer) and the answer, a JSON object."""
        if self.proc is None:
            failed = self._start()
            if failed is not None:
                return failed, None
        proc = self.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        deadline = time.monotonic() + self.timeout
        sent = self._send(proc, _frame(message), deadline)
        if sent is not None:
            return sent, None
        head = self._read(proc, 4, deadline)
        if isinstance(head, Outcome):
            return head, None
        (size,) = struct.unpack("<I", head)
        if size > MAX_MESSAGE:
            self._end(kill=True)
            return Outcome(None, broke=f"answered with a length of {size} bytes (at most {MAX_MESSAGE})"), None
        body = self._read(proc, size, deadline)
        if isinstance(body, Outcome):
            return body, None
        try:
            answer = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            self._end(kill=True)
            return Outcome(None, broke=f"answered with something that is not JSON ({e})"), None
        if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
            self._end(kill=True)
            return Outcome(None, broke='answered without "ok": true or false'), None
        return Outcome(0), answer

    def _send(self, proc: subprocess.Popen[bytes], data: bytes, deadline: float) -> Outcome | None:
        """Write a request without blocking past the deadline (a testee that stops reading fills the pipe)."""
        import selectors

        assert proc.stdin is not None
        fd = proc.stdin.fileno()
        os.set_blocking(fd, False)
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while view:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    _, tail = self._end(kill=True)
                    return Outcome(None, timed_out=True, stderr=tail)
                try:
                    n = os.write(fd, view)
                except BlockingIOError:
                    continue
                except OSError:  # EPIPE: it is gone
                    return self._died("ended before reading the request")
                view = view[n:]
        return None

    def _read(self, proc: subprocess.Popen[bytes], n: int, deadline: float) -> bytes | Outcome:
        import selectors

        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        chunks: list[bytes] = []
        got = 0
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while got < n:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    _, tail = self._end(kill=True)
                    return Outcome(None, timed_out=True, stderr=tail)
                chunk = os.read(fd, n - got)
                if not chunk:
                    return self._died("ended without answering" if not got else "ended inside its answer")
                chunks.append(chunk)
                got += len(chunk)
        return b"".join(chunks)

    def _died(self, what: str) -> Outcome:
        code, tail = self._end(kill=False)
        if code is not None and code < 0:
            return Outcome(None, signal=-code, stderr=tail)
        return Outcome(None, broke=f"{what} (exit status {code})", stderr=tail)

    def close(self) -> None:
        """End the process: its standard input closed (the end of the requests), then killed if it lingers."""
        if self.proc is None:
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._end(kill=self.proc is not None and self.proc.poll() is None)
