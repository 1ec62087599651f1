"""Checking files in worker processes (`recspec check -j N`), with a per-file time limit.

Each worker is a long-lived process that checks one file at a time and sends
the result back, so a file that crashes its worker (a segfault in an extension,
the kernel's OOM killer) or hangs it loses only that file: the worker is
replaced, the file gets the verdict ``crash`` or ``timeout``, and every other
file's result is kept. Results come back in the order the files were given, so
``-j N`` and ``-j 1`` give byte-identical reports.

The serial path (``-j 1`` without ``--timeout``) does not come here at all: it
checks in the recspec process itself, with no per-file process or IPC cost.

The time limit counts the worker's CPU time (from ``/proc/PID/stat``), so a
file is not timed out because a busy machine gave its worker half a core; a
worker that uses no CPU (blocked) is stopped after ``WALL_FACTOR`` times the
limit of wall time. Without ``/proc`` the limit is wall time.

Workers die with the parent: each asks the kernel for SIGKILL when its parent
dies (``PR_SET_PDEATHSIG`` on Linux), and each closes every parent-side pipe
end it inherited, so an idle worker blocked on its pipe sees the end of it
when the parent is gone, on any system.

Testing hook: ``RECSPEC_TEST_WORKER_FAULT`` (read once per worker, never in the
serial path) makes a worker really crash or hang on files whose name contains a
given text, so the crash and timeout paths are exercised end to end:
``RECSPEC_TEST_WORKER_FAULT="crash=boom.log;hang=slow.log"``.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["DEFAULT_FILE_TIMEOUT", "FAULT_ENV", "WorkerLost", "run_in_workers"]

#: Seconds one file may take in a worker before it is stopped (`--timeout`). Generous: the
#: slowest legitimate check is the Kaitai cross-check of a 32 MiB file, about 30 s here.
DEFAULT_FILE_TIMEOUT = 300.0
#: A worker that has not used its CPU-time limit is still stopped after this many times the
#: limit in wall-clock time (blocked on something that never comes).
WALL_FACTOR = 3.0
#: The testing hook's environment variable (see the module docstring).
FAULT_ENV = "RECSPEC_TEST_WORKER_FAULT"


@dataclass(frozen=True)
class WorkerLost:
    """What happened to a file whose worker did not send a result."""

    kind: str  # "crash" (the worker died), "timeout" (it overran), "error" (it sent back an error)
    detail: str  # "killed by signal SIGSEGV", "exit status 70", "no result after 300 s"


def _faults() -> dict[str, str]:
    spec = os.environ.get(FAULT_ENV, "")
    out = {}
    for part in filter(None, spec.split(";")):
        kind, _, needle = part.partition("=")
        if kind in ("crash", "hang") and needle:
            out[needle] = kind
    return out


def _inject_fault(faults: dict[str, str], name: str) -> None:
    for needle, kind in faults.items():
        if needle in name:
            if kind == "crash":
                import ctypes
                import faulthandler

                faulthandler.disable()  # a test runner's fault handler would dump a traceback into its log
                ctypes.string_at(0)  # a real segmentation fault, as a buggy extension would cause
            while True:  # a real hang: a loop that never ends, as a parser bug would make
                pass


#: Parent-side ends of every worker's pipe, closed in each new worker (see _die_with_parent).
_PARENT_ENDS: weakref.WeakSet[Connection] = weakref.WeakSet()


def _die_with_parent(parent_pid: int) -> None:
    """In a new worker: be killed when the parent dies, and hold none of its pipe ends."""
    for end in list(_PARENT_ENDS):  # inherited through fork: holding them would hide the parent's death
        try:
            end.close()
        except OSError:
            pass
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os._exit(0)


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a live process, from /proc (None where there is none)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime, stime (fields 14 and 15)
    except (OSError, IndexError, ValueError):
        return None


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _worker(conn: Connection, check: Callable[[Path, bool], Any], parent_pid: int | None = None) -> None:
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    faults = _faults()
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        index, path, named = task
        if faults:
            _inject_fault(faults, path.name)
        try:
            result: tuple[str, Any] = ("ok", check(path, named))
        except Exception as e:  # noqa: BLE001 - passed back to the parent, which knows what each error means
            result = ("raised", e)
        try:
            conn.send((index, result))
        except (pickle.PicklingError, TypeError, AttributeError) as e:  # a result that cannot cross processes
            conn.send((index, ("raised", RuntimeError(f"the result could not be sent back: {type(e).__name__}: {e}"))))


class _Slot:
    """One worker process and the file it is checking."""

    def __init__(self, ctx: Any, check: Callable[[Path, bool], Any]) -> None:
        self.conn, child = ctx.Pipe()
        _PARENT_ENDS.add(self.conn)
        self.proc = ctx.Process(target=_worker, args=(child, check, os.getpid()), daemon=True)
        self.proc.start()
        child.close()
        self.task: tuple[int, Path, bool] | None = None
        self.deadline = 0.0
        self.started = 0.0
        self.cpu_start: float | None = None

    def give(self, task: tuple[int, Path, bool], timeout: float) -> None:
        self.task = task
        self.started = time.monotonic()
        self.deadline = self.started + timeout
        self.cpu_start = _cpu_seconds(self.proc.pid) if self.proc.pid is not None else None
        self.conn.send(task)

    def overran(self, now: float, timeout: float) -> bool:
        """At its deadline: has the file used its CPU-time limit (or WALL_FACTOR times it in wall
        time)? If not, the deadline moves to when the rest of the limit could be used up."""
        cpu = _cpu_seconds(self.proc.pid) if self.cpu_start is not None and self.proc.pid is not None else None
        if cpu is None or self.cpu_start is None:
            return True  # no CPU clock for the worker: the limit is wall time
        used = cpu - self.cpu_start
        if used >= timeout or now - self.started >= timeout * WALL_FACTOR:
            return True
        self.deadline = min(now + max(timeout - used, 0.05), self.started + timeout * WALL_FACTOR)
        return False

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()

    def death(self) -> str:
        self.proc.join()
        code = self.proc.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"


def run_in_workers(files: Sequence[tuple[Path, bool]], check: Callable[[Path, bool], Any], *, jobs: int,
                   timeout: float, on_result: Callable[[int, str, Any], None],
                   order: Sequence[int] | None = None) -> None:
    """Check ``files`` in ``jobs`` worker processes; ``on_result(index, kind, value)`` is called once
    per file, in completion order, with kind ``ok`` (value: what ``check`` returned), ``raised``
    (value: the exception ``check`` raised) or ``lost`` (value: a :class:`WorkerLost`).

    ``order`` is the order in which files are handed out (indices into ``files``; default as given):
    biggest first keeps the workers evenly busy to the end. ``check`` must be picklable where
    processes are spawned rather than forked.
    """
    import multiprocessing  # here, not at the top: a serial run (-j 1) never pays for it
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pending = [(i, files[i]) for i in (order if order is not None else range(len(files)))]
    pending.reverse()  # pop() from the end hands the files out in order
    slots: list[_Slot] = []
    try:
        for _ in range(min(jobs, len(pending))):
            slots.append(_Slot(ctx, check))
        for slot in slots:
            if pending:
                index, (path, named) = pending.pop()
                slot.give((index, path, named), timeout)
        while any(slot.task is not None for slot in slots):
            busy = [s for s in slots if s.task is not None]
            now = time.monotonic()
            wait_for = max(0.0, min(s.deadline for s in busy) - now)
            ready = wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=wait_for)
            now = time.monotonic()
            for i, slot in enumerate(slots):
                if slot.task is None:
                    continue
                index = slot.task[0]
                lost: WorkerLost | None = None
                if slot.conn in ready:
                    try:
                        got_index, (kind, value) = slot.conn.recv()
                    except (EOFError, OSError):
                        lost = WorkerLost("crash", slot.death())
                    else:
                        assert got_index == index
                        slot.task = None
                        on_result(index, kind, value)
                elif slot.proc.sentinel in ready:
                    lost = WorkerLost("crash", slot.death())
                elif now >= slot.deadline and slot.overran(now, timeout):
                    lost = WorkerLost("timeout", f"no result after {timeout:g} s of CPU time")
                if lost is not None:
                    slot.kill()
                    slot.task = None
                    on_result(index, "lost", lost)
                    if pending:
                        slots[i] = slot = _Slot(ctx, check)  # a fresh worker for the remaining files
                if slot.task is None and pending:
                    index, (path, named) = pending.pop()
                    slot.give((index, path, named), timeout)
    finally:
        # idle workers are told to stop; busy ones (an interrupted run) are stopped
        for slot in slots:
            if slot.task is None and slot.proc.is_alive():
                try:
                    slot.conn.send(None)
                except OSError:
                    pass
                slot.proc.join(timeout=5)
            slot.kill()
