"""The parent of an atheris campaign (``recspec fuzz``): it starts the fuzzing processes,
watches them, restarts them, and saves and collects what they find.

``atheris.Setup``/``atheris.Fuzz`` own the process they run in (libFuzzer
calls ``exit``), so :func:`run_campaign` starts a child Python
(``_child.main``) and watches it:

* a temporary working corpus is filled from the seed corpus (``_seeds``:
  ``corpus/<format>/`` ``valid``, ``invalid``, ``regressions``), plus inputs derived
  from big seeds and one synthetic log per variant (the format's harness module, found
  through the registry: ``recspec.formats.FORMATS[<id>].fuzz_module``);
* the child runs libFuzzer with ``-fork=0 -max_total_time= -dict= -max_len=
  -seed= -artifact_prefix=<crash dir>/worker<k>-`` and ``SCHEDULE`` (inputs that run
  faster are mutated more often), the harness of the target and the format's
  structure-aware ``custom_mutator``;
* its output (libFuzzer's progress and the Python tracebacks) is streamed to
  ``stderr``; ``stdout`` gets only the summary.

Keep going: libFuzzer stops at the first crash, and the flag that would keep it
running (``-ignore_crashes``) works only in fork mode, which is off here. So
the runner **restarts** the child until the time budget is spent. Each restart
reuses the grown working corpus, and the child is told which crash signatures
are already saved: an input that breaks the same thing again (same exception
type at the same line, or the same kind of divergence) is counted and passed
over instead of stopping the run, so a shallow bug does not eat the budget.

Every new crash is moved to ``<name><ext>`` (``crash-<sha1>.log`` for CARLA) in
the crash folder with a companion ``<name>.json``: target, exception type and
message, the module and line that raised, the traceback, the variant, the date,
the recspec version and the libFuzzer seed; it is minimised first
(``_triage.minimise``, in a process of its own).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from recspec._version import __version__
from recspec.errors import UsageError
from recspec.formats import resolve_format

from . import _paths
from ._child import child_command, write_launcher
from ._harness import TARGETS, load_harness
from ._seeds import prepare_corpus
from ._triage import minimise

if TYPE_CHECKING:
    from ._contract import FuzzHarness

__all__ = ["MINIMISE_S", "CampaignResult", "campaign", "run_campaign"]

EXIT_OK, EXIT_CRASH, EXIT_USAGE = 0, 1, 2

INSTALL_HINT = "from a checkout of recspec's repository: pip install -e '.[fuzz]'"

#: libFuzzer -timeout: one input running longer than this is saved as a crash (a hang).
INPUT_TIMEOUT_S = 30

#: The memory a fuzzing process may take for itself (MB): past it, the input is saved as an ``oom`` crash.
#: libFuzzer's own default; see :func:`rss_limit_mb` for what is passed as ``-rss_limit_mb``.
RSS_LIMIT_MB = 2048


def rss_limit_mb(*, starter_peak_mb: int) -> int:
    """libFuzzer's ``-rss_limit_mb`` for a child started by a process whose peak RSS is ``starter_peak_mb``.

    libFuzzer compares ``RSS_LIMIT_MB`` with its process's peak resident set as ``getrusage`` tells it,
    and on Linux a process that Python's ``subprocess`` starts (vfork, then exec) begins with the peak
    of the process that started it. A campaign started from a process that once held more than 2 GB
    (a test suite's, a notebook's) would stop at once with "out-of-memory" on the empty input. The
    limit given is that inherited peak plus the child's own allowance.
    """
    return starter_peak_mb + RSS_LIMIT_MB


def _own_peak_mb() -> int:
    """This process's peak resident set in MB (0 where the platform does not carry it into a child)."""
    if not sys.platform.startswith("linux"):
        return 0
    import resource  # POSIX only; atheris runs on Linux and macOS

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # KiB on Linux
#: A restart with less time left than this is not worth its start-up cost.
MIN_RUN_S = 2

#: What libFuzzer names a saved input by the way it failed.
_ARTIFACT_KINDS = ("crash-", "timeout-", "oom-", "leak-")
#: Each worker's libFuzzer writes its artifacts under a prefix of its own (``worker<k>-crash-<sha1>``):
#: two workers that fail on the same input (a failing seed, which every worker runs first) would
#: otherwise write the same file, one truncating it while the other reads it.
_WORKER_ARTIFACT = re.compile(r"worker[0-9]+-")
#: libFuzzer's output: the saved input, the status lines and the final statistics.
_RE_WRITTEN = re.compile(r"Test unit written to (.+?)\s*$")
_RE_STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+(?:cov: (\d+) ft: (\d+) )?corp: (\d+)/")
_RE_STAT = re.compile(r"^stat::(\w+):\s+(\d+)")


@dataclass
class _RunResult:
    returncode: int
    artifact: Path | None = None
    execs: int = 0
    cov: int | None = None
    ft: int | None = None
    libfuzzer_error: str | None = None


@dataclass
class _Campaign:
    """What a campaign has done so far; its workers update it under ``lock``."""

    fmt: str
    target: str
    crash_dir: Path
    seed: int
    variant: str | None = None
    runs: int = 0
    execs: int = 0  # of finished runs
    live: dict[int, int] = field(default_factory=dict)  # worker -> execs of its run in progress
    cov: int | None = None
    ft: int | None = None
    saved: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)
    known: dict[str, str] = field(default_factory=dict)  # signature -> saved file name
    rehits: dict[str, int] = field(default_factory=dict)
    failure: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def total_execs(self) -> int:
        return self.execs + sum(self.live.values())


@dataclass
class CampaignResult:
    """What :func:`campaign` did: the summary's figures, for tools that record campaigns."""

    fmt: str
    target: str
    variant: str | None
    jobs: int
    seconds: float
    runs: int
    execs: int
    cov: int | None
    ft: int | None
    corpus_before: int
    corpus_after: int
    crashes: list[dict[str, Any]]
    rehits: dict[str, int]
    exit_code: int
    merged: tuple[Path, int] | None = None

    @property
    def execs_per_second(self) -> float:
        return self.execs / self.seconds if self.seconds > 0 else 0.0


def _write(stream: TextIO | None, text: str) -> None:
    if stream is not None:
        stream.write(text)
        stream.flush()


def _load_known(crash_dir: Path, fmt: str, target: str) -> dict[str, str]:
    """Signatures of crashes already saved in ``crash_dir`` for this format and target."""
    known: dict[str, str] = {}
    for meta in sorted(crash_dir.glob("*.json")):
        try:
            info = json.loads(meta.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(info, dict) and info.get("format") == fmt and info.get("target") == target \
                and info.get("signature"):
            known.setdefault(str(info["signature"]), str(info.get("file", meta.stem)))
    return known


def _artifact_kind(artifact: Path) -> str:
    """``crash-``, ``timeout-``, ``oom-`` or ``leak-``: what libFuzzer saved, by its artifact's name."""
    name = artifact.name
    m = _WORKER_ARTIFACT.match(name)
    if m:
        name = name[m.end():]
    return next((k for k in _ARTIFACT_KINDS if name.startswith(k)), "crash-")


def _libfuzzer_args(c: _Campaign, *, worker: int, corpus: Path, dict_path: Path, seconds: int, runs: int,
                    max_len: int, seed: int) -> list[str]:
    return [
        "-fork=0",
        f"-max_total_time={seconds}",
        *([f"-runs={runs}"] if runs else []),
        f"-max_len={max_len}",
        f"-dict={dict_path}",
        f"-artifact_prefix={c.crash_dir}{os.sep}worker{worker}-",
        f"-timeout={INPUT_TIMEOUT_S}",
        f"-rss_limit_mb={rss_limit_mb(starter_peak_mb=_own_peak_mb())}",
        f"-report_slow_units={10 ** 6}",  # no slow-unit-* files among the crashes
        "-print_final_stats=1",
        *SCHEDULE,
        *([f"-seed={seed}"] if seed else []),
        str(corpus),
    ]


#: How libFuzzer picks the next input to mutate: entropic's weights (rare features first), scaled by each
#: input's execution time against the corpus's mean (x3 for one under a quarter of the mean, down to x0.1
#: for one over ten times it; libFuzzer's ``-entropic_scale_per_exec_time``, off by default). A campaign's
#: corpus grows inputs that find new features (CARLA's repeated frames, longer logs: a 30 s campaign's corpus
#: held inputs of median 2.1 KB, the seeds' 2.8 KB, up to 9.4 KB), and a slow input picked as often as a fast
#: one costs executions; no input is left out, and the mutators make every kind of edit from any input.
SCHEDULE = ("-entropic_scale_per_exec_time=1",)


def _prepare_state(c: _Campaign, state: Path) -> None:
    state.mkdir(parents=True, exist_ok=True)
    with c.lock:
        (state / "known.json").write_text(json.dumps(sorted(c.known)))
    for name in ("crash.json", "rehits.json"):
        (state / name).unlink(missing_ok=True)
    write_launcher(c.fmt, c.target, state, c.variant)


def _run_child(c: _Campaign, worker: int, state: Path, lf_args: Sequence[str], echo: Callable[[str], None],
               watchdog_s: float) -> _RunResult:
    """One libFuzzer process: its output goes to ``echo`` line by line, its numbers to ``c.live``."""
    _prepare_state(c, state)
    cmd = [*child_command(c.fmt, c.target, state, c.variant), *lf_args]
    result = _RunResult(0)
    with subprocess.Popen(cmd, cwd=state, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", bufsize=1) as proc:
        # Watchdog: libFuzzer enforces -max_total_time itself; this only ends a child that hangs past it.
        watchdog = threading.Timer(watchdog_s, proc.kill)
        watchdog.daemon = True
        watchdog.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                echo(line)
                _parse_line(line, result)
                with c.lock:
                    c.live[worker] = result.execs
                    if result.cov is not None:
                        c.cov = max(c.cov or 0, result.cov)
                        c.ft = max(c.ft or 0, result.ft or 0)
            result.returncode = proc.wait()
        finally:
            watchdog.cancel()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return result


def _parse_line(line: str, result: _RunResult) -> None:
    """Pick the numbers and the artifact path out of one line of libFuzzer's output."""
    m = _RE_STATUS.match(line)
    if m:
        result.execs = int(m.group(1))
        if m.group(3):
            result.cov, result.ft = int(m.group(3)), int(m.group(4))
        return
    m = _RE_STAT.match(line)
    if m:
        if m.group(1) == "number_of_executed_units":
            result.execs = max(result.execs, int(m.group(2)))
        return
    m = _RE_WRITTEN.search(line)
    if m:
        result.artifact = Path(m.group(1))
    elif "ERROR: libFuzzer:" in line:
        result.libfuzzer_error = line.split("ERROR: libFuzzer:", 1)[1].strip()


def _crash_file_info(c: _Campaign, run: _RunResult, state: Path) -> dict[str, Any]:
    crash_json = state / "crash.json"
    if crash_json.is_file():
        return dict(json.loads(crash_json.read_text()))
    assert run.artifact is not None
    # not a Python exception: a timeout, out of memory or a signal in native code
    kind = _artifact_kind(run.artifact).rstrip("-")
    what = run.libfuzzer_error or f"child exited with status {run.returncode}"
    return {"exception": kind, "message": what, "signature": f"{kind}:{re.sub(r'[0-9]+', 'N', what)}",
            "rule": None, "module": None, "where": None, "traceback": []}


def _save_crash(c: _Campaign, run: _RunResult, state: Path, mod: FuzzHarness, lf_seed: int,
                minimise_s: float) -> tuple[Path, dict[str, Any]] | None:
    """Save a new failure once per signature: minimised, renamed to ``crash-<sha1><ext>``, with its
    JSON beside it. ``None`` when another worker saved the same signature meanwhile."""
    artifact = run.artifact
    assert artifact is not None
    if not artifact.is_absolute():
        artifact = state / artifact
    info = _crash_file_info(c, run, state)
    sig = str(info["signature"])
    with c.lock:
        if sig in c.known:  # found by two workers at once: one copy is enough
            c.rehits[sig] = c.rehits.get(sig, 0) + 1
            artifact.unlink(missing_ok=True)
            return None
        c.known[sig] = artifact.name  # claimed; renamed below
    original = artifact.read_bytes()
    data, info, shrink = original, info, None
    if info["exception"] not in ("timeout", "oom") and minimise_s > 0:
        shrunk = minimise(c.fmt, c.target, c.variant, original, sig, seconds=minimise_s)
        if shrunk is not None:
            data, info, shrink = shrunk.data, shrunk.info, shrunk
    ext = mod.EXTENSION
    digest = hashlib.sha1(data).hexdigest()
    kind = _artifact_kind(artifact)
    target = c.crash_dir / f"{kind}{digest}{ext}"
    target.write_bytes(data)
    if target != artifact:
        artifact.unlink(missing_ok=True)
    reproduce = f"recspec reproduce {shlex.quote(str(target))}" + (f" --variant {c.variant}" if c.variant else "")
    info = {
        "file": target.name,
        "format": c.fmt,
        "target": c.target,
        **info,
        "signature": sig,
        "input_size": len(data),
        "input_sha1": digest,
        "input_hex_head": data[:256].hex(),
        "minimised": None if shrink is None else {
            "from_size": len(original), "from_sha1": hashlib.sha1(original).hexdigest(), "tries": shrink.tries},
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "recspec_version": __version__,
        "python": sys.version.split()[0],
        "libfuzzer_seed": lf_seed,
        "campaign_variant": c.variant,
        "reproduce": reproduce,
        "replay_harness": f"recspec fuzz {c.fmt} --target {c.target} --triage {shlex.quote(str(target))}"
                          + (f" --variant {c.variant}" if c.variant else ""),
    }
    meta = target.with_name(target.name[: -len(ext)] + ".json" if ext else target.name + ".json")
    meta.write_text(json.dumps(info, indent=2, default=str) + "\n")
    with c.lock:
        c.known[sig] = target.name
        c.saved.append((target, info))
    return target, info


def _atheris_available() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


#: How long minimising one crash may take (seconds); 0 turns it off.
MINIMISE_S = 30
#: A progress line at most this often when stderr is not a terminal (seconds).
PROGRESS_EVERY_S = 30


class _Progress:
    """One line of progress on stderr: rewritten in place on a terminal, else now and then."""

    def __init__(self, c: _Campaign, stream: TextIO | None, corpus: Path, started: float) -> None:
        self.c, self.stream, self.corpus, self.started = c, stream, corpus, started
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.width = 0

    def line(self) -> str:
        c = self.c
        elapsed = time.monotonic() - self.started
        with c.lock:
            execs, cov, ft, crashes = c.total_execs(), c.cov, c.ft, len(c.saved)
        try:
            corpus = sum(1 for _ in self.corpus.iterdir())
        except OSError:
            corpus = 0
        rate = execs / elapsed if elapsed > 0 else 0.0
        coverage = f"cov {cov} ft {ft}" if cov is not None else "cov -"
        return (f"recspec fuzz {c.fmt}/{c.target}: {elapsed:5.0f} s  {execs:,} execs ({rate:,.0f}/s)  "
                f"{coverage}  corpus {corpus}  crashes {crashes}")

    def _loop(self) -> None:
        every = 1.0 if self.tty else PROGRESS_EVERY_S
        while not self.stop.wait(every):
            self.show()

    def show(self, final: bool = False) -> None:
        if self.stream is None:
            return
        text = self.line()
        if self.tty:
            _write(self.stream, "\r" + text.ljust(self.width) + ("\n" if final else ""))
            self.width = len(text)
        elif not final:
            _write(self.stream, text + "\n")

    def __enter__(self) -> _Progress:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.show(final=True)


def _worker(c: _Campaign, worker: int, *, work: Path, corpus: Path, dict_path: Path, mod: FuzzHarness,
            started: float, seconds: int, runs: int, max_len: int, echo: Callable[[str], None],
            minimise_s: float) -> None:
    """Run libFuzzer again and again until the time (or the executions) is spent or it fails for good."""
    state = work / f"state-{worker}"
    done = 0
    while c.failure is None:
        left = seconds - int(time.monotonic() - started)
        if left < (1 if done == 0 else MIN_RUN_S) or (runs and done >= runs):
            return
        with c.lock:
            n = c.runs
            c.runs += 1
        lf_seed = c.seed + n if c.seed else 0
        lf_args = _libfuzzer_args(c, worker=worker, corpus=corpus, dict_path=dict_path, seconds=left,
                                  runs=runs - done if runs else 0, max_len=max_len, seed=lf_seed)
        run = _run_child(c, worker, state, lf_args, echo, left + INPUT_TIMEOUT_S + 30)
        done += run.execs
        with c.lock:
            c.execs += run.execs
            c.live.pop(worker, None)
        rehits_file = state / "rehits.json"
        if rehits_file.is_file():
            with c.lock:
                for sig, k in json.loads(rehits_file.read_text()).items():
                    c.rehits[sig] = c.rehits.get(sig, 0) + k
        if run.returncode == 0:
            return
        if run.artifact is None:
            c.failure = (f"the fuzzing process failed (exit status {run.returncode}) without saving an input; "
                         "run with --verbose to see its output")
            return
        if _save_crash(c, run, state, mod, lf_seed, minimise_s) is None and not (state / "crash.json").is_file():
            # a hang or a native crash that is saved already: the child cannot pass over it
            c.failure = "the same failure came back (a hang or a crash outside Python); stopping"
            return


def _merge(c: _Campaign, *, work: Path, corpus: Path, dest: Path, max_len: int, echo: Callable[[str], None]) -> int:
    """Minimise the working corpus plus what ``dest`` holds into ``dest`` (libFuzzer ``-merge=1``):
    the smallest set of inputs that keeps every feature. Returns how many inputs ``dest`` holds."""
    state = work / "state-merge"
    merged = work / "merged"
    merged.mkdir()
    sources = [str(d) for d in (dest, corpus) if d.is_dir() and any(d.iterdir())]
    lf_args = ["-merge=1", f"-merge_control_file={state / 'merge.ctl'}", f"-max_len={max_len}",
               f"-timeout={INPUT_TIMEOUT_S}", f"-rss_limit_mb={rss_limit_mb(starter_peak_mb=_own_peak_mb())}",
               str(merged), *sources]
    run = _run_child(c, -1, state, lf_args, echo, 3600)
    if run.returncode != 0:
        c.failure = f"merging the corpus failed (exit status {run.returncode}); run with --verbose to see why"
        return -1
    dest.mkdir(parents=True, exist_ok=True)
    keep = {p.name for p in merged.iterdir()}
    for old in dest.iterdir():
        if old.is_file() and old.name not in keep:
            old.unlink()
    for new in merged.iterdir():
        shutil.copyfile(new, dest / new.name)
    return len(keep)


def campaign(fmt: str, *, target: str = "diff", seconds: int = 60, runs: int = 0, out_dir: Path | None = None,
             seed: int = 0, max_len: int = 65536, variant: str | None = None, jobs: int = 1,
             merge_into: Path | None = None, merge: bool = False, verbose: bool = False,
             minimise_s: float = MINIMISE_S, stdout: TextIO | None = None, stderr: TextIO | None = None,
             extra_seeds: Sequence[Path] = ()) -> CampaignResult | int:
    """Fuzz ``fmt``'s ``target`` harness with atheris; :func:`run_campaign` without the exit code.

    Returns the result, or the exit code of a usage problem (2). See :func:`run_campaign`.
    """
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr

    def usage(message: str, hint: str | None = None) -> int:
        _write(stderr, f"recspec fuzz: {message}\n" + (f"  hint: {hint}\n" if hint else ""))
        return EXIT_USAGE

    if target not in TARGETS:
        return usage(f"unknown target {target!r}", f"choose one of: {', '.join(TARGETS)}")
    if seconds < 1:
        return usage(f"--time must be at least 1 second, not {seconds}")
    if max_len < 1:
        return usage(f"--max-len must be at least 1, not {max_len}")
    if jobs < 1:
        return usage(f"--jobs must be at least 1, not {jobs}")
    if runs < 0:
        return usage(f"--runs must be at least 0, not {runs}")
    try:
        info = resolve_format(fmt)
        mod = load_harness(info)
    except (UsageError, ModuleNotFoundError):
        return usage(f"no fuzz harnesses for format {fmt!r}")
    fmt = info.id
    try:
        mod.use_variant(variant)  # checked here, used in the child
    except UsageError as e:
        return usage(e.message, e.hint)
    finally:
        mod.use_variant(None)
    if not _atheris_available():
        return usage("atheris is not installed; fuzzing needs it", INSTALL_HINT)
    crash_dir = out_dir if out_dir is not None else _paths.default_crash_dir(fmt)
    if crash_dir is None:
        return usage("--out is required: recspec is not running from its source checkout, so there is no "
                     f"corpus/{fmt}/regressions/ to save crashes in", "example: --out crashes/")
    if merge and merge_into is None:
        merge_into = _paths.default_merge_dir(fmt)
        if merge_into is None:
            return usage("--merge needs a folder: recspec is not running from its source checkout, so there is "
                         f"no corpus/{fmt}/fuzz/", "example: --merge corpus-out/")
    crash_dir = Path(crash_dir).resolve()
    try:
        crash_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return usage(f"cannot create {crash_dir}: {e.strerror or e}")

    c = _Campaign(fmt, target, crash_dir, seed, variant)
    c.known = _load_known(crash_dir, fmt, target)
    previously_known = set(c.known)
    started = time.monotonic()
    merged: tuple[Path, int] | None = None
    with tempfile.TemporaryDirectory(prefix=f"recspec-fuzz-{fmt}-{target}-") as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        n_files, n_seeds = prepare_corpus(mod, fmt, corpus, max_len, extra_seeds, stderr)
        dict_path = _paths.dictionary_file(info.dictionary)
        if dict_path is None:  # an install without the data file: write the generated one
            dict_path = work / info.dictionary
            dict_path.write_text(mod.dictionary_text())
        budget = f"{runs:,} execs (at most {seconds} s)" if runs else f"{seconds} s"
        _write(stderr, f"recspec fuzz: {fmt}/{target} for {budget}"
                       f"{f' under variant {variant}' if variant else ''}"
                       f"{f' in {jobs} processes' if jobs > 1 else ''}; {n_seeds} seed inputs "
                       f"(from {n_files} files + synthetic); crashes go to {crash_dir}\n")
        echo_lock = threading.Lock()

        def echo_for(worker: int) -> Callable[[str], None]:
            if not verbose:
                return lambda line: None
            prefix = f"[{worker}] " if jobs > 1 else ""

            def echo(line: str) -> None:
                with echo_lock:
                    _write(stderr, prefix + line)

            return echo

        per_worker_runs = -(-runs // jobs) if runs else 0
        progress = _Progress(c, None if verbose else stderr, corpus, started)
        with progress:
            threads = [threading.Thread(target=_worker, args=(c, k), daemon=True, kwargs=dict(
                work=work, corpus=corpus, dict_path=dict_path, mod=mod, started=started, seconds=seconds,
                runs=per_worker_runs, max_len=max_len, echo=echo_for(k), minimise_s=minimise_s))
                for k in range(jobs)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        corpus_size = sum(1 for _ in corpus.iterdir())
        fuzzed_s = time.monotonic() - started
        if merge_into is not None and c.failure is None:
            _write(stderr, f"recspec fuzz: merging {corpus_size} inputs into {merge_into}\n")
            n = _merge(c, work=work, corpus=corpus, dest=Path(merge_into), max_len=max_len, echo=echo_for(-1))
            if n >= 0:
                merged = (Path(merge_into), n)
    _summary(c, stdout, fuzzed_s, n_seeds, corpus_size, previously_known, merged)
    code = EXIT_CRASH if c.saved else EXIT_OK
    if c.failure is not None:
        _write(stderr, f"recspec fuzz: {c.failure}\n")
        if not c.saved:
            code = EXIT_USAGE
    return CampaignResult(fmt, target, variant, jobs, fuzzed_s, c.runs, c.execs, c.cov, c.ft, n_seeds, corpus_size,
                          [info for _, info in c.saved], dict(c.rehits), code, merged)


def run_campaign(fmt: str, *, target: str = "diff", seconds: int = 60, out_dir: Path | None = None,
                 seed: int = 0, max_len: int = 65536, stdout: TextIO | None = None,
                 stderr: TextIO | None = None, extra_seeds: Sequence[Path] = (), variant: str | None = None,
                 jobs: int = 1, runs: int = 0, merge: bool = False, merge_into: Path | None = None,
                 verbose: bool = False, minimise_s: float = MINIMISE_S) -> int:
    """Fuzz ``fmt``'s ``target`` harness for ``seconds`` seconds with atheris.

    Returns 0 when no new crash was found, 1 when new crashes were found and
    saved, 2 for a usage problem (atheris missing, no crash folder, bad
    arguments). Crashes go to ``out_dir``, or by default, in a source checkout
    only, to ``corpus/<fmt>/regressions/``, each once per signature, minimised
    (at most ``minimise_s`` seconds each), with a JSON beside it. ``seed`` is
    libFuzzer's ``-seed`` (0: random); each restart after a crash uses ``seed + n``.
    ``extra_seeds`` (and the ``RECSPEC_FUZZ_SEEDS`` environment variable) add seed
    files or folders to the corpus ones, for experiments.

    ``variant``: read every input under this variant (else detected per input);
    ``jobs``: that many libFuzzer processes sharing one working corpus; ``runs``:
    stop after about this many executions in all (``seconds`` still caps it);
    ``merge``/``merge_into``: afterwards, minimise the working corpus together with
    the folder's inputs into the folder (``corpus/<fmt>/fuzz/`` by default);
    ``verbose``: libFuzzer's whole log on ``stderr`` instead of one progress line.
    """
    result = campaign(fmt, target=target, seconds=seconds, runs=runs, out_dir=out_dir, seed=seed, max_len=max_len,
                      variant=variant, jobs=jobs, merge=merge, merge_into=merge_into, verbose=verbose,
                      minimise_s=minimise_s, stdout=stdout, stderr=stderr, extra_seeds=extra_seeds)
    return result if isinstance(result, int) else result.exit_code


def _summary(c: _Campaign, out: TextIO, elapsed: float, n_seeds: int, corpus_size: int,
             previously_known: set[str], merged: tuple[Path, int] | None) -> None:
    rate = c.execs / elapsed if elapsed > 0 else 0.0
    cov = f"coverage {c.cov} edges, {c.ft} features" if c.cov is not None else "coverage not reported"
    lines = [
        f"recspec fuzz {c.fmt} --target {c.target}: {elapsed:.1f} s, {c.runs} run(s), {c.execs} execs "
        f"({rate:.1f}/s), {cov}, corpus {n_seeds} -> {corpus_size} inputs",
    ]
    if merged is not None:
        lines.append(f"corpus merged into {merged[0]}: {merged[1]} inputs keep every feature")
    if c.saved:
        lines.append(f"{len(c.saved)} new crash(es) saved in {c.crash_dir}:")
        for path, info in c.saved:
            where = f" [{info['where']}]" if info.get("where") else ""
            message = str(info.get("message", "")).splitlines()[0][:160] if info.get("message") else ""
            lines.append(f"  {path.name}: {info.get('exception')}{where}: {message}")
            module = info.get("module")
            if module and not str(info.get("where") or "").startswith(f"{module}:"):
                lines.append(f"    broke: {module}")
            shrunk = info.get("minimised")
            size = f"{info['input_size']} bytes" + (f" (minimised from {shrunk['from_size']})" if shrunk else "")
            lines.append(f"    {size}; details: {path.with_suffix('.json').name}; replay: {info['reproduce']}")
    else:
        lines.append("no new crashes")
    for sig, n in sorted(c.rehits.items()):
        origin = "saved earlier" if sig in previously_known else "saved in this campaign"
        lines.append(f"  passed over {n} input(s) that hit {sig} again ({origin}: {c.known.get(sig, '?')})")
    out.write("\n".join(lines) + "\n")
    out.flush()
