"""Running an atheris campaign in a subprocess and saving what it finds.

``atheris.Setup``/``atheris.Fuzz`` own the process they run in (libFuzzer
calls ``exit``), so :func:`run_campaign` starts a child Python
(``_child_main``) and watches it:

* a temporary working corpus is filled from the seed corpus (``corpus/<format>/``
  ``valid``, ``invalid``, ``regressions``), plus inputs derived from big seeds
  and one synthetic log per variant (the format's harness module, found through
  the registry: ``recspec.formats.FORMATS[<id>].fuzz_module``);
* the child runs libFuzzer with ``-fork=0 -max_total_time= -dict= -max_len=
  -seed= -artifact_prefix=<crash dir>/``, the harness of the target and the
  format's structure-aware ``custom_mutator``;
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
the recspec version and the libFuzzer seed.

Only the standard library, ``recspec.__version__`` and the registry
(``recspec.formats``, which imports no format's code) are imported at module
level: the child must import the code under test inside
``atheris.instrument_imports`` for it to report coverage.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import importlib.util
import json
import os
import pkgutil
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from recspec._version import __version__
from recspec.errors import UsageError
from recspec.formats import FormatInfo, resolve_format

from . import _paths

if TYPE_CHECKING:
    from ._contract import FuzzHarness

__all__ = ["INSTRUMENT", "NOT_INSTRUMENTED", "TARGETS", "CampaignResult", "campaign", "not_instrumented",
           "run_campaign", "signature"]

#: The targets every harness module provides (``FuzzHarness.TARGETS``).
TARGETS = ("ref", "ksy", "diff")

EXIT_OK, EXIT_CRASH, EXIT_USAGE = 0, 1, 2

INSTALL_HINT = "from a checkout of recspec's repository: pip install -e '.[fuzz]'"

#: Environment variable: more seed folders or files (os.pathsep-separated), for experiments.
SEEDS_ENV = "RECSPEC_FUZZ_SEEDS"

#: Environment variable: hex bytes; an input containing them fails as if the
#: harness had found a bug (``CanaryHit``). It exists so that the crash pipeline
#: (save, companion JSON, replay) is tested end to end without a real bug.
CANARY_ENV = "RECSPEC_FUZZ_CANARY"


class CanaryHit(AssertionError):
    """The self-test canary of ``RECSPEC_FUZZ_CANARY`` was found in an input."""


#: libFuzzer -timeout: one input running longer than this is saved as a crash (a hang).
INPUT_TIMEOUT_S = 30
#: A restart with less time left than this is not worth its start-up cost.
MIN_RUN_S = 2
#: Modules instrumented for coverage in the child.
INSTRUMENT = ("recspec", "kaitaistruct")
#: ... except these modules and packages with every module in them: the harnesses and mutators
#: themselves, the report and its rendering to plain JSON data (``to_plain``) and the HTML
#: trace: no parsing or checking there. Their code runs in every execution; instrumented, it
#: costs time and finds no parser bug.
NOT_INSTRUMENTED = ("recspec.fuzz", "recspec.report", "recspec._plain", "recspec.trace")


def not_instrumented() -> list[str]:
    """The module names of ``NOT_INSTRUMENTED``, each package's modules listed one by one:
    atheris' ``exclude`` matches whole module names, not packages."""
    names: list[str] = []
    for name in NOT_INSTRUMENTED:
        names.append(name)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            names += [m.name for m in pkgutil.walk_packages(spec.submodule_search_locations, name + ".")]
    return names

_ARTIFACT_KINDS = ("crash-", "timeout-", "oom-", "leak-")
_RE_WRITTEN = re.compile(r"Test unit written to (.+?)\s*$")
_RE_STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+(?:cov: (\d+) ft: (\d+) )?corp: (\d+)/")
_RE_STAT = re.compile(r"^stat::(\w+):\s+(\d+)")


# --- the child --------------------------------------------------------------------------


def load_harness(info: FormatInfo) -> FuzzHarness:
    """A format's harness module (``ModuleNotFoundError`` when it has none)."""
    return cast("FuzzHarness", info.load_fuzz())


def _module_name(filename: str) -> str:
    for name, mod in list(sys.modules.items()):
        if getattr(mod, "__file__", None) == filename:
            return name
    return filename


def _root_cause(e: BaseException) -> BaseException:
    while e.__cause__ is not None:
        e = e.__cause__
    return e


#: Modules that are the project's own code: a signature names the innermost frame among them.
PROJECT_MODULES = ("recspec",)


def _project_frame(frames: Sequence[traceback.FrameSummary]) -> traceback.FrameSummary | None:
    """The innermost frame in recspec's own code (a library's frame says little about which
    of recspec's calls broke), else the innermost frame."""
    for frame in reversed(frames):
        if _module_name(frame.filename).split(".", 1)[0] in PROJECT_MODULES:
            return frame
    return frames[-1] if frames else None


def _rule_of(e: BaseException) -> str | None:
    """The rule id an exception carries (a ``DecodeError`` says which rule the input broke)."""
    while True:
        rule = getattr(e, "rule", None)
        if isinstance(rule, str) and rule:
            return rule
        if e.__cause__ is None:
            return None
        e = e.__cause__


def signature(e: BaseException) -> str:
    """What makes two failures the same bug: the exception type, the innermost frame of
    recspec's own code that it passed through, and the rule it carries, if any
    (``ValueError@recspec.reference.carla._decode:decode_body:412[CARLA-FRAME-001]``).

    A ``ContractViolation`` that wraps another exception is signed by the cause;
    one that knows its own signature (``Divergent``) gives it.
    """
    own = getattr(e, "signature", None)
    if callable(own):
        sig = own()
        if sig:
            return str(sig)
    cause = _root_cause(e)
    frame = _project_frame(traceback.extract_tb(cause.__traceback__))
    rule = _rule_of(e)
    where = "" if frame is None else f"@{_module_name(frame.filename)}:{frame.name}:{frame.lineno}"
    return f"{type(cause).__name__}{where}" + (f"[{rule}]" if rule else "")


def _crash_info(e: BaseException, data: bytes, describe: Callable[[bytes], dict[str, Any]]) -> dict[str, Any]:
    cause = _root_cause(e)
    frames = traceback.extract_tb(cause.__traceback__)
    last = _project_frame(frames)
    info: dict[str, Any] = {
        "exception": type(e).__name__,
        "message": str(e),
        "signature": signature(e),
        "rule": _rule_of(e),
        "module": getattr(e, "module", None) or (_module_name(last.filename) if last else None),
        "where": f"{_module_name(last.filename)}:{last.lineno} in {last.name}" if last else None,
        "traceback": [f"{_module_name(f.filename)}:{f.lineno} in {f.name}: {f.line}" for f in frames],
    }
    if cause is not e:
        info["cause"] = {"exception": type(cause).__name__, "message": str(cause)}
    divergences = getattr(e, "divergences", None)
    if divergences:
        info["divergences"] = [str(d) for d in divergences]
    try:
        info.update(describe(data))
    except Exception as err:  # never lose the crash over its description
        info["describe_error"] = f"{type(err).__name__}: {err}"
    return info


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


def child_command(fmt: str, target: str, state: Path, variant: str | None) -> list[str]:
    """The command line of the fuzzing process, before libFuzzer's own arguments."""
    code = "import sys; from recspec.fuzz._runner import _child_main; _child_main(sys.argv[1:])"
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


def _child_main(argv: Sequence[str] | None = None) -> None:
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
    # should report coverage, and the mutator runs once per execution (NOT_INSTRUMENTED).
    with atheris.instrument_imports(include=list(INSTRUMENT), exclude=not_instrumented()):
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
            crash = _crash_info(e, data, mod.describe_input)
            crash_path.write_text(json.dumps(crash, indent=2, default=str))
            raise

    mutate = mod.mutate

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        return mutate(data, max_size, seed, byte_mutate=atheris.Mutate)

    launcher = state / "launch.sh"
    argv0 = str(launcher) if launcher.is_file() else sys.argv[0]
    atheris.Setup([argv0, *libfuzzer_args], test_one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()


# --- the parent ---------------------------------------------------------------------------


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


def _seed_sources(fmt: str, extra: Sequence[Path]) -> list[Path]:
    sources: list[Path] = []
    base = _paths.corpus_dir(fmt)
    if base is not None:
        sources += [base / sub for sub in _paths.SEED_SUBDIRS if (base / sub).is_dir()]
    env = os.environ.get(SEEDS_ENV, "")
    sources += [Path(p) for p in env.split(os.pathsep) if p]
    sources += list(extra)
    return sources


def _iter_seed_files(sources: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for src in sources:
        if src.is_file():
            files.append(src)
        elif src.is_dir():
            files += sorted(p for p in src.rglob("*") if p.is_file() and not p.name.startswith(".")
                            and p.suffix != ".json")
    return files


def _prepare_corpus(mod: FuzzHarness, fmt: str, work: Path, max_len: int, extra: Sequence[Path],
                    stderr: TextIO | None) -> tuple[int, int]:
    """Fill ``work`` with the seeds; returns (seed files read, inputs written)."""
    work.mkdir(parents=True, exist_ok=True)
    seen: set[bytes] = set()

    def put(data: bytes) -> None:
        digest = hashlib.sha1(data).digest()
        if data and digest not in seen:
            seen.add(digest)
            (work / f"seed-{digest.hex()[:16]}").write_bytes(data)

    files = _iter_seed_files(_seed_sources(fmt, extra))
    for path in files:
        data = path.read_bytes()
        if len(data) <= max_len:
            put(data)
        for derived in mod.derive_seeds(data, max_len):
            put(derived)
    for _, data in mod.synthetic_seeds():
        if len(data) <= max_len:
            put(data)
    if not files:
        where = _paths.corpus_dir(fmt)
        _write(stderr, f"recspec fuzz: no seed files in {where or f'corpus/{fmt}/'}; "
                       f"starting from the synthetic seeds only\n")
    return len(files), len(seen)


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


def _libfuzzer_args(c: _Campaign, *, corpus: Path, dict_path: Path, seconds: int, runs: int, max_len: int,
                    seed: int) -> list[str]:
    return [
        "-fork=0",
        f"-max_total_time={seconds}",
        *([f"-runs={runs}"] if runs else []),
        f"-max_len={max_len}",
        f"-dict={dict_path}",
        f"-artifact_prefix={c.crash_dir}{os.sep}",
        f"-timeout={INPUT_TIMEOUT_S}",
        f"-report_slow_units={10 ** 6}",  # no slow-unit-* files among the crashes
        "-print_final_stats=1",
        *([f"-seed={seed}"] if seed else []),
        str(corpus),
    ]


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
    kind = next((k.rstrip("-") for k in _ARTIFACT_KINDS if run.artifact.name.startswith(k)), "crash")
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
        from ._triage import minimise

        shrunk = minimise(c.fmt, c.target, c.variant, original, sig, seconds=minimise_s)
        if shrunk is not None:
            data, info, shrink = shrunk.data, shrunk.info, shrunk
    ext = mod.EXTENSION
    digest = hashlib.sha1(data).hexdigest()
    kind = next((k for k in _ARTIFACT_KINDS if artifact.name.startswith(k)), "crash-")
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
        lf_args = _libfuzzer_args(c, corpus=corpus, dict_path=dict_path, seconds=left,
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
               f"-timeout={INPUT_TIMEOUT_S}", str(merged), *sources]
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
        n_files, n_seeds = _prepare_corpus(mod, fmt, corpus, max_len, extra_seeds, stderr)
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
