"""Checking files in worker processes (`recspec check -j N`), with a per-file time limit.

Each worker is a long-lived process that is handed a batch of files (see
:func:`plan_batches`: small files together, so that a round trip to the worker
and the parent's wake-up are not paid per file; big files alone, biggest first)
and sends the batch's results back in one message; the next batch is sent to it
before it has finished, so it does not wait for the parent between batches.
While it works it keeps, in memory shared with the parent, how many files it
has started, and the CPU and wall-clock time at which the last one started. So a
file that crashes its worker (a segfault in an extension, the kernel's OOM
killer) or hangs it loses only that file: it gets the verdict ``crash`` or ``timeout``, the worker is
replaced, and the new worker checks the batch's other files again (those before
it had finished, but their results went down with the worker). The caller puts
the results back in the files' order, so ``-j N`` and ``-j 1`` give
byte-identical reports.

The serial path (``-j 1`` without ``--timeout``) does not come here at all: it
checks in the recspec process itself, with no per-file process or IPC cost.

The time limit is per file, not per batch, and counts the worker's CPU time
(from ``/proc/PID/stat``, against the CPU time the worker noted when the file
started), so a file is not timed out because a busy machine gave its worker half
a core; a worker that uses no CPU (blocked) is stopped after ``WALL_FACTOR``
times the limit of wall time. Without ``/proc`` the limit is wall time.

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

import gc
import os
import pickle
import signal
import sys
import time
import weakref
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .spool import unframe_paths

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["BATCH_BYTES", "BATCH_FILES", "FAULT_ENV", "PICKLE_ERRORS", "Pack", "Result",
           "WorkerLost", "cannot_send", "plan_batches", "run_in_workers"]

#: A worker that has not used its CPU-time limit is still stopped after this many times the
#: limit in wall-clock time (blocked on something that never comes).
WALL_FACTOR = 3.0
#: The testing hook's environment variable (see the module docstring).
FAULT_ENV = "RECSPEC_TEST_WORKER_FAULT"
#: A batch holds at most this many files and this many bytes; a file of BATCH_BYTES or more is
#: a batch of its own. A small file's check (about 0.5 ms for a raSkat file) is shorter than a
#: round trip to a worker, so handing them out one at a time made -j 2 slower than -j 1; and the
#: parent's work per batch (a wake-up, a message each way, a tally merged: about 0.3 ms) is spread
#: over the batch's files, 1.2 us a file at 256 (5 us at 64, the cap before).
BATCH_FILES = 256
BATCH_BYTES = 1 << 20
#: Batches are made small enough that each worker gets at least this many, so that no worker is
#: left with a long batch while the others are idle at the end of a run.
BATCHES_PER_WORKER = 4

#: A batch as it is sent to a worker: the files' indices (in the caller's list), and their ``(path, named)``
#: items (named: on the command line; the path may be text: the worker makes the Path, so that the parent
#: does not make one per file), or those of a run of consecutive files as the caller's store keeps them
#: (bytes: ``recspec.spool.unframe_paths`` decodes them in the worker, so that the parent decodes no path).
Message = tuple[list[int], "list[tuple[Path | str, bool]] | bytes"]
#: One file's outcome: (index, kind, value), kind ``ok`` (value: what ``check`` returned) or ``raised``
#: (value: the exception it raised).
Result = tuple[int, str, Any]
#: Run in the worker on a batch's results before they are sent, with what ``setup`` made for the worker
#: (None without): the results to send in their place and a summary of the batch, handed to the
#: parent's ``on_summary`` (see :func:`run_in_workers`).
Pack = Callable[[list[Result], Any], tuple[list[Result], Any]]
#: What pickling an object it cannot pickle raises.
PICKLE_ERRORS = (pickle.PicklingError, TypeError, AttributeError)


def cannot_send(e: Exception) -> RuntimeError:
    """The error a file gets in place of a result that could not be pickled (``e``: why)."""
    return RuntimeError(f"the result could not be sent back: {type(e).__name__}: {e}")


def plan_batches(sizes: Sequence[int], jobs: int) -> list[list[int]]:
    """Group the files (``sizes[i]``: file i's size in bytes) into batches, in the order to hand
    them out: files of BATCH_BYTES or more alone; the others, in their given order, together, up
    to BATCH_FILES files and BATCH_BYTES bytes a batch and at most 1/BATCHES_PER_WORKER of a
    worker's share; the batches biggest first (in bytes; ties in the given order)."""
    small = [i for i, size in enumerate(sizes) if size < BATCH_BYTES]
    per_batch = max(1, min(BATCH_FILES, -(-len(small) // (max(1, jobs) * BATCHES_PER_WORKER))))
    batches = [[i] for i, size in enumerate(sizes) if size >= BATCH_BYTES]
    weights = [-sizes[b[0]] for b in batches]  # minus each batch's bytes, the key it is sorted by
    # the small files' bytes summed in order (before[k]: the first k files'), so that each batch is cut where
    # a search puts it: the recspec process plans a million files' batches with no call per file
    before = [0, *accumulate([sizes[i] for i in small])]
    lo, n = 0, len(small)
    while lo < n:
        # the most files from lo that hold at most BATCH_BYTES together (a file alone may hold more: none
        # here) and at most per_batch; at least one
        hi = max(lo + 1, min(lo + per_batch, bisect_right(before, before[lo] + BATCH_BYTES, lo) - 1))
        batches.append(small[lo:hi])
        weights.append(before[lo] - before[hi])
        lo = hi
    order = sorted(range(len(batches)), key=weights.__getitem__)  # stable: ties keep the given order
    return [batches[b] for b in order]


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


#: Slots of a worker's shared progress record (a RawArray of doubles): the number of files it
#: has started, less one (the position of its current file among all it was given), and that
#: file's start in the worker's CPU time and in wall-clock (monotonic) time.
_AT, _CPU_START, _WALL_START = 0, 1, 2
#: Batches sent to a worker and not yet answered: the one it is checking and the next.
_IN_FLIGHT = 2


def _worker(conn: Connection, check: Callable[[Path, bool], Any], progress: Any,
            parent_pid: int | None = None, pack: Pack | None = None, made: Any = None) -> None:
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    faults = _faults()
    while True:
        try:
            batch = conn.recv()
        except EOFError:
            return
        if batch is None:
            return
        indices, items = batch
        results: list[Result] = []
        for index, (name, named) in zip(indices, unframe_paths(items) if isinstance(items, bytes) else items):
            path = Path(name)
            progress[_CPU_START] = time.process_time()  # the clocks first: the parent reads _AT first
            progress[_WALL_START] = time.monotonic()
            progress[_AT] += 1
            if faults:
                _inject_fault(faults, path.name)
            try:
                results.append((index, "ok", check(path, named)))
            except Exception as e:  # noqa: BLE001 - passed back to the parent, which knows what each error means
                results.append((index, "raised", e))
        summary = None
        if pack is not None:
            results, summary = pack(results, made)
        try:
            conn.send((results, summary))
        except PICKLE_ERRORS:  # a result that cannot cross processes
            conn.send(([_sendable(r) for r in results], summary))


def _sendable(result: Result) -> Result:
    """The result, or in its place an error saying why it cannot be sent to the parent."""
    try:
        pickle.dumps(result)
    except PICKLE_ERRORS as e:
        return result[0], "raised", cannot_send(e)
    return result


class _Slot:
    """One worker process and the files sent to it whose results have not come back."""

    def __init__(self, ctx: Any, check: Callable[[Path, bool], Any], pack: Pack | None = None,
                 made: Any = None) -> None:
        self.conn, child = ctx.Pipe()
        _PARENT_ENDS.add(self.conn)
        self.progress = ctx.RawArray("d", 3)
        self.progress[_AT] = -1.0  # no file started yet
        self.proc = ctx.Process(target=_worker, args=(child, check, self.progress, os.getpid(), pack, made),
                                daemon=True)
        self.proc.start()
        child.close()
        self.queue: list[int] = []  # the files sent, not answered, in the order the worker checks them
        self.in_flight: deque[int] = deque()  # how many files each unanswered batch holds
        self.answered = 0  # files whose results have come back
        self.deadline = 0.0
        self.waiting_since = 0.0  # when the worker last had no file of ``queue`` started
        self.cpu_clock = True  # False where the worker's CPU time cannot be read: the limit is wall time

    def give(self, batch: Message, timeout: float) -> None:
        if not self.queue:
            self.waiting_since = time.monotonic()
            self.deadline = self.waiting_since + timeout
        self.queue.extend(batch[0])
        self.in_flight.append(len(batch[0]))
        try:
            self.conn.send(batch)
        except OSError:  # the worker died after its last answer: the loop sees it, and the batch goes to the next
            pass

    def wants_more(self, next_batch: Message) -> bool:
        """Idle, or one batch in flight and the next is a batch of several (small) files: a big
        file waits for an idle worker, so that it does not queue behind another big one."""
        return not self.in_flight or (len(self.in_flight) < _IN_FLIGHT and len(next_batch[0]) > 1)

    def answer(self, results: list[Result], timeout: float) -> list[Result]:
        """The results of the oldest batch in flight, which it is taken off."""
        n = self.in_flight.popleft()
        assert len(results) <= n  # with ``pack``, the files its summary holds are not among them
        del self.queue[:n]
        self.answered += n
        self.waiting_since = time.monotonic()
        self.deadline = self.waiting_since + timeout  # overran() reads when its current file started
        return results

    def at(self) -> int:
        """The position in ``queue`` of the file the worker is checking (-1: none started yet)."""
        return max(-1, int(self.progress[_AT]) - self.answered)

    def overran(self, now: float, timeout: float) -> bool:
        """At its deadline: has the file being checked used its CPU-time limit (or WALL_FACTOR
        times it in wall time)? If not, the deadline moves to when the rest of the limit could
        be used up."""
        if self.at() < 0:  # not started yet (a fork that takes long on a loaded machine), within reason
            if now - self.waiting_since >= timeout * WALL_FACTOR:
                return True
            self.deadline = now + timeout
            return False
        cpu_start, started = self.progress[_CPU_START], self.progress[_WALL_START]
        cpu = _cpu_seconds(self.proc.pid) if self.cpu_clock and self.proc.pid is not None else None
        if cpu is None:
            self.cpu_clock = False
            if now - started >= timeout:
                return True  # no CPU clock for the worker: the limit is wall time
            self.deadline = started + timeout
            return False
        used = cpu - cpu_start
        if used >= timeout or now - started >= timeout * WALL_FACTOR:
            return True
        self.deadline = min(now + max(timeout - used, 0.05), started + timeout * WALL_FACTOR)
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


class _Pending:
    """The batches not handed out yet, in order: a lost worker's files first, then the planned batches,
    whose messages are made as they are handed out (not all at the start: a run may have a million)."""

    def __init__(self, files: Sequence[tuple[Path | str, bool]], batches: Sequence[Sequence[int]]) -> None:
        self._files = files
        self._batches = batches
        self._next = 0
        self._again: list[Message] = []

    def __bool__(self) -> bool:
        return bool(self._again) or self._next < len(self._batches)

    def __len__(self) -> int:
        return len(self._again) + len(self._batches) - self._next

    def message(self, batch: Sequence[int]) -> Message:
        """What a worker is sent for these files: a run of consecutive files of a stored walk as stored
        (``framed``, one read, decoded by the worker), else their items."""
        framed = getattr(self._files, "framed", None)
        items = framed(batch) if framed is not None else None
        if items is None:
            many = getattr(self._files, "many", None)  # a stored walk reads a batch's paths in one go
            items = many(batch) if many is not None else [self._files[i] for i in batch]
        return list(batch), items

    def peek(self) -> Message:
        if not self._again:
            self._again.append(self.message(self._batches[self._next]))
            self._next += 1
        return self._again[-1]

    def pop(self) -> Message:
        batch = self.peek()
        self._again.pop()
        return batch

    def push(self, batch: list[int]) -> None:
        self._again.append(self.message(batch))


def run_in_workers(files: Sequence[tuple[Path | str, bool]], check: Callable[[Path, bool], Any], *, jobs: int,
                   timeout: float, on_result: Callable[[int, str, Any], None],
                   batches: Sequence[Sequence[int]] | None = None, pack: Pack | None = None,
                   on_summary: Callable[[Any], None] | None = None, setup: Callable[[int], Any] | None = None) -> None:
    """Check ``files`` in ``jobs`` worker processes; ``on_result(index, kind, value)`` is called once
    per file, in completion order, with kind ``ok`` (value: what ``check`` returned), ``raised``
    (value: the exception ``check`` raised) or ``lost`` (value: a :class:`WorkerLost`).

    ``batches`` are the files (indices into ``files``) handed to a worker at a time, in the order
    they are handed out (see :func:`plan_batches`; default: one file a batch, as given). ``check``
    must be picklable where processes are spawned rather than forked.

    ``pack``, if given, runs in the worker on each batch's results (see :data:`Pack`): what it returns
    is sent in their place, so the work of making results ready for the parent (pickling them in the
    form the parent stores, counting them) is shared by the workers; its summary of the batch goes to
    ``on_summary`` before the batch's ``on_result`` calls. The files ``pack`` took into its summary
    get no ``on_result`` call (``on_summary`` has them), so the parent's work per file can be as
    little as the summary needs. A batch lost with its worker sends no summary.

    ``setup``, if given, is called in the parent before each worker is forked, with the worker's
    number (0 .. ``jobs`` - 1; a worker that replaces a lost one gets the lost one's number, after
    every answer the lost one sent has gone to ``on_summary``): what it returns is handed to ``pack`` in
    that worker (files it opened are inherited). Where workers are spawned, not forked, it is not
    called and ``pack`` gets None.
    """
    import multiprocessing  # here, not at the top: a serial run (-j 1) never pays for it
    from multiprocessing.connection import wait

    forking = "fork" in multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if forking else "spawn")

    def start(number: int) -> _Slot:
        return _Slot(ctx, check, pack, setup(number) if setup is not None and forking else None)

    pending = _Pending(files, batches if batches is not None else [[i] for i in range(len(files))])
    slots: list[_Slot] = []
    # what the workers inherit is left out of their garbage collections: a collection that went
    # through it would copy every page it touched (about 7% of a worker's CPU on 10,000 small files)
    gc.freeze()
    try:
        for number in range(min(jobs, len(pending))):
            slots.append(start(number))
        for slot in slots:
            while pending and slot.wants_more(pending.peek()):
                slot.give(pending.pop(), timeout)
        while any(slot.queue for slot in slots):
            busy = [s for s in slots if s.queue]
            now = time.monotonic()
            wait_for = max(0.0, min(s.deadline for s in busy) - now)
            ready = wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=wait_for)
            now = time.monotonic()
            for i, slot in enumerate(slots):
                if not slot.queue:
                    continue
                lost: WorkerLost | None = None
                if slot.conn in ready:
                    try:
                        results, summary = slot.conn.recv()
                    except (EOFError, OSError):
                        lost = WorkerLost("crash", slot.death())
                    else:
                        results = slot.answer(results, timeout)
                        if on_summary is not None and summary is not None:
                            on_summary(summary)
                        for index, kind, value in results:
                            on_result(index, kind, value)
                elif slot.proc.sentinel in ready:
                    lost = WorkerLost("crash", slot.death())
                elif now >= slot.deadline and slot.overran(now, timeout):
                    lost = WorkerLost("timeout", f"no result after {timeout:g} s of CPU time")
                if lost is not None:
                    blamed = slot.at()
                    slot.kill()
                    if lost.kind == "timeout" and blamed < 0:
                        blamed = 0  # stuck before its first file: that file takes the verdict, so the run ends
                    elif lost.kind == "timeout" and slot.at() != blamed:
                        blamed = -1  # it finished that file just before it was stopped: nobody is to blame
                    # the files before and after the one it was checking are checked again by a new worker
                    again = [index for at, index in enumerate(slot.queue) if at != blamed]
                    if blamed >= 0:
                        on_result(slot.queue[blamed], "lost", lost)
                    slot.queue = []
                    if again:
                        pending.push(again)
                    if pending:
                        slots[i] = slot = start(i)  # a fresh worker for the remaining files
                while pending and slot.wants_more(pending.peek()):
                    slot.give(pending.pop(), timeout)
    finally:
        gc.unfreeze()
        # idle workers are told to stop; busy ones (an interrupted run) are stopped
        for slot in slots:
            if not slot.queue and slot.proc.is_alive():
                try:
                    slot.conn.send(None)
                except OSError:
                    pass
                slot.proc.join(timeout=5)
            slot.kill()
