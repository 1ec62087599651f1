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

import collections
import datetime as _dt
import hashlib
import json
import os
import re
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

__all__ = ["TARGETS", "run_campaign"]

#: The targets every harness module provides (``FuzzHarness.TARGETS``).
TARGETS = ("ref", "ksy", "diff")

EXIT_OK, EXIT_CRASH, EXIT_USAGE = 0, 1, 2

#: recspec is not on the package index: the fuzz extra is installed from a checkout of its repository.
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

_ARTIFACT_KINDS = ("crash-", "timeout-", "oom-", "leak-")
_RE_WRITTEN = re.compile(r"Test unit written to (.+?)\s*$")
_RE_STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+(?:cov: (\d+) ft: (\d+) )?corp: (\d+)/")
_RE_STAT = re.compile(r"^stat::(\w+):\s+(\d+)")


# --- the child --------------------------------------------------------------------------


def harness_module(fmt: str) -> str:
    """The module holding a format's harnesses: the registry's ``FormatInfo.fuzz_module``."""
    return resolve_format(fmt).fuzz_module


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


def signature(e: BaseException) -> str:
    """What makes two failures the same bug: the exception type and where it was raised.

    A ``ContractViolation`` that wraps another exception is signed by the cause;
    one that knows its own signature (``Divergent``) gives it.
    """
    own = getattr(e, "signature", None)
    if callable(own):
        sig = own()
        if sig:
            return str(sig)
    cause = _root_cause(e)
    frames = traceback.extract_tb(cause.__traceback__)
    if not frames:
        return type(cause).__name__
    last = frames[-1]
    return f"{type(cause).__name__}@{_module_name(last.filename)}:{last.name}:{last.lineno}"


def _crash_info(e: BaseException, data: bytes, describe: Callable[[bytes], dict[str, Any]]) -> dict[str, Any]:
    cause = _root_cause(e)
    frames = traceback.extract_tb(cause.__traceback__)
    last = frames[-1] if frames else None
    info: dict[str, Any] = {
        "exception": type(e).__name__,
        "message": str(e),
        "signature": signature(e),
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


def _child_main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the fuzzing subprocess (never returns: libFuzzer exits).

    ``argv``: ``FORMAT TARGET STATE_DIR -- <libFuzzer arguments>``. STATE_DIR
    holds ``known.json`` (signatures to pass over, read at start),
    ``crash.json`` (written for a new failure just before it propagates) and
    ``rehits.json`` (how often each known signature was hit again).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    sep = args.index("--")
    fmt, target, state = args[0], args[1], Path(args[2])
    libfuzzer_args = args[sep + 1:]

    import atheris

    info = resolve_format(fmt)
    with atheris.instrument_imports(include=list(INSTRUMENT)):
        mod = load_harness(info)
    target_harness = mod.TARGETS[target]
    canary = bytes.fromhex(os.environ.get(CANARY_ENV, ""))

    def harness(data: bytes) -> None:
        if canary and canary in data:
            raise CanaryHit(f"input contains the self-test canary {canary.hex()}")
        target_harness(data)

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

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        return mod.mutate(data, max_size, seed, byte_mutate=atheris.Mutate)

    atheris.Setup([sys.argv[0], *libfuzzer_args], test_one_input, custom_mutator=custom_mutator)
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
    fmt: str
    target: str
    crash_dir: Path
    seed: int
    runs: int = 0
    execs: int = 0
    cov: int | None = None
    ft: int | None = None
    saved: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)
    known: dict[str, str] = field(default_factory=dict)  # signature -> saved file name
    rehits: dict[str, int] = field(default_factory=dict)
    #: libFuzzer's own log (about 330 lines a minute) is passed through only with ``--verbose``; by default
    #: one progress line is redrawn on a terminal, and the log's tail is shown if a run fails
    verbose: bool = False


#: Lines of libFuzzer's log kept for a failure's report when it is not passed through.
LOG_TAIL_LINES = 40


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


def _run_child(c: _Campaign, *, state: Path, corpus: Path, dict_path: Path, seconds: int, max_len: int,
               seed: int, stderr: TextIO | None) -> _RunResult:
    (state / "known.json").write_text(json.dumps(sorted(c.known)))
    for name in ("crash.json", "rehits.json"):
        (state / name).unlink(missing_ok=True)
    lf_args = [
        "-fork=0",
        f"-max_total_time={seconds}",
        f"-max_len={max_len}",
        f"-dict={dict_path}",
        f"-artifact_prefix={c.crash_dir}{os.sep}",
        f"-timeout={INPUT_TIMEOUT_S}",
        f"-report_slow_units={10 ** 6}",  # no slow-unit-* files among the crashes
        "-print_final_stats=1",
        *([f"-seed={seed}"] if seed else []),
        str(corpus),
    ]
    code = "import sys; from recspec.fuzz._runner import _child_main; _child_main(sys.argv[1:])"
    cmd = [sys.executable, "-c", code, c.fmt, c.target, str(state), "--", *lf_args]
    result = _RunResult(0)
    tail: collections.deque[str] = collections.deque(maxlen=LOG_TAIL_LINES)
    live = not c.verbose and stderr is not None and bool(getattr(stderr, "isatty", lambda: False)()) \
        and not os.environ.get("CI")
    with subprocess.Popen(cmd, cwd=state, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", bufsize=1) as proc:
        # Watchdog: libFuzzer enforces -max_total_time itself; this only ends a child that hangs past it.
        watchdog = threading.Timer(seconds + INPUT_TIMEOUT_S + 30, proc.kill)
        watchdog.daemon = True
        watchdog.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                _parse_line(line, result)
                if c.verbose:
                    _write(stderr, line)
                    continue
                tail.append(line)
                if live and _RE_STATUS.match(line):  # one line, redrawn: execs and coverage so far
                    cov = f", coverage {result.cov} edges" if result.cov is not None else ""
                    _write(stderr, f"\r\x1b[2Krecspec fuzz {c.fmt}/{c.target}: {c.execs + result.execs} execs{cov}")
            result.returncode = proc.wait()
            if live:
                _write(stderr, "\r\x1b[2K")
            if result.returncode != 0 and result.artifact is None and not c.verbose:
                # a failure without a saved input: show what libFuzzer said last (--verbose shows it all)
                _write(stderr, "".join(tail))
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


def _save_crash(c: _Campaign, run: _RunResult, state: Path, ext: str, lf_seed: int) -> tuple[Path, dict[str, Any]]:
    artifact = run.artifact
    assert artifact is not None
    if not artifact.is_absolute():
        artifact = state / artifact
    crash_json = state / "crash.json"
    if crash_json.is_file():
        info = json.loads(crash_json.read_text())
    else:  # not a Python exception: a timeout, out of memory or a signal in native code
        kind = next((k.rstrip("-") for k in _ARTIFACT_KINDS if artifact.name.startswith(k)), "crash")
        what = run.libfuzzer_error or f"child exited with status {run.returncode}"
        info = {"exception": kind, "message": what, "signature": f"{kind}:{re.sub(r'[0-9]+', 'N', what)}",
                "module": None, "where": None, "traceback": []}
    target = artifact.with_name(artifact.name + ext) if ext and not artifact.name.endswith(ext) else artifact
    if target != artifact:
        os.replace(artifact, target)
    data = target.read_bytes()
    info = {
        "file": target.name,
        "format": c.fmt,
        "target": c.target,
        **info,
        "input_size": len(data),
        "input_sha1": hashlib.sha1(data).hexdigest(),
        "input_hex_head": data[:256].hex(),
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "recspec_version": __version__,
        "python": sys.version.split()[0],
        "libfuzzer_seed": lf_seed,
        "reproduce": f"recspec reproduce {target}",
    }
    meta = target.with_name(target.name[: -len(ext)] + ".json" if ext else target.name + ".json")
    meta.write_text(json.dumps(info, indent=2, default=str) + "\n")
    return target, info


def _atheris_available() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


def run_campaign(fmt: str, *, target: str = "diff", seconds: int = 60, out_dir: Path | None = None,
                 seed: int = 0, max_len: int = 65536, stdout: TextIO | None = None,
                 stderr: TextIO | None = None, extra_seeds: Sequence[Path] = (), verbose: bool = False) -> int:
    """Fuzz ``fmt``'s ``target`` harness for ``seconds`` seconds with atheris.

    ``verbose`` passes libFuzzer's log through to ``stderr``; otherwise one progress line is
    redrawn there on a terminal (nothing in a CI log) and the summary goes to ``stdout``.

    Returns 0 when no new crash was found, 1 when new crashes were found and
    saved, 2 for a usage problem (atheris missing, no crash folder, bad
    arguments). Crashes go to ``out_dir``, or by default, in a source checkout
    only, to ``corpus/<fmt>/regressions/``. ``seed`` is libFuzzer's ``-seed``
    (0: random); each restart after a crash uses ``seed + n``. ``extra_seeds``
    (and the ``RECSPEC_FUZZ_SEEDS`` environment variable) add seed files or
    folders to the corpus ones, for experiments.
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
    try:
        info = resolve_format(fmt)
        mod = load_harness(info)
    except (UsageError, ModuleNotFoundError):
        return usage(f"no fuzz harnesses for format {fmt!r}")
    fmt = info.id
    if not _atheris_available():
        return usage("atheris is not installed; fuzzing needs it", INSTALL_HINT)
    crash_dir = out_dir if out_dir is not None else _paths.default_crash_dir(fmt)
    if crash_dir is None:
        return usage("--out is required: recspec is not running from its source checkout, so there is no "
                     f"corpus/{fmt}/regressions/ to save crashes in", "example: --out crashes/")
    crash_dir = Path(crash_dir).resolve()
    try:
        crash_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return usage(f"cannot create {crash_dir}: {e.strerror or e}")

    c = _Campaign(fmt, target, crash_dir, seed, verbose=verbose)
    c.known = _load_known(crash_dir, fmt, target)
    previously_known = set(c.known)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"recspec-fuzz-{fmt}-{target}-") as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        state = work / "state"
        state.mkdir()
        n_files, n_seeds = _prepare_corpus(mod, fmt, corpus, max_len, extra_seeds, stderr)
        dict_path = _paths.dictionary_file(info.dictionary)
        if dict_path is None:  # an install without the data file: write the generated one
            dict_path = work / info.dictionary
            dict_path.write_text(mod.dictionary_text())
        _write(stderr, f"recspec fuzz: {fmt}/{target} for {seconds} s; {n_seeds} seed inputs "
                       f"(from {n_files} files + synthetic); crashes go to {crash_dir}\n")
        failure: str | None = None
        while True:
            left = seconds - int(time.monotonic() - started)
            if left < (1 if c.runs == 0 else MIN_RUN_S):
                break
            lf_seed = seed + c.runs if seed else 0
            run = _run_child(c, state=state, corpus=corpus, dict_path=dict_path, seconds=left, max_len=max_len,
                             seed=lf_seed, stderr=stderr)
            c.runs += 1
            c.execs += run.execs
            if run.cov is not None:
                c.cov, c.ft = run.cov, run.ft
            rehits_file = state / "rehits.json"
            if rehits_file.is_file():
                for sig, n in json.loads(rehits_file.read_text()).items():
                    c.rehits[sig] = c.rehits.get(sig, 0) + n
            if run.returncode == 0:
                break
            if run.artifact is None:
                failure = (f"the fuzzing process failed (exit status {run.returncode}) without saving an input; "
                           "its output is above")
                break
            path, crash = _save_crash(c, run, state, mod.EXTENSION, lf_seed)
            c.saved.append((path, crash))
            sig = str(crash["signature"])
            if sig in c.known:  # not passed over by the child (a hang or a native crash): stop here
                failure = f"the same failure came back ({sig}); stopping"
                break
            c.known[sig] = path.name
        corpus_size = sum(1 for _ in corpus.iterdir())
    elapsed = time.monotonic() - started
    _summary(c, stdout, elapsed, n_seeds, corpus_size, previously_known)
    if failure is not None:
        _write(stderr, f"recspec fuzz: {failure}\n")
        if not c.saved:
            return EXIT_USAGE
    return EXIT_CRASH if c.saved else EXIT_OK


def _summary(c: _Campaign, out: TextIO, elapsed: float, n_seeds: int, corpus_size: int,
             previously_known: set[str]) -> None:
    rate = c.execs / elapsed if elapsed > 0 else 0.0
    cov = f"coverage {c.cov} edges, {c.ft} features" if c.cov is not None else "coverage not reported"
    lines = [
        f"recspec fuzz {c.fmt} --target {c.target}: {elapsed:.1f} s, {c.runs} run(s), {c.execs} execs "
        f"({rate:.1f}/s), {cov}, corpus {n_seeds} -> {corpus_size} inputs",
    ]
    if c.saved:
        lines.append(f"{len(c.saved)} new crash(es) saved in {c.crash_dir}:")
        for path, info in c.saved:
            where = f" [{info['where']}]" if info.get("where") else ""
            message = str(info.get("message", "")).splitlines()[0][:160] if info.get("message") else ""
            lines.append(f"  {path.name}: {info.get('exception')}{where}: {message}")
            module = info.get("module")
            if module and not str(info.get("where") or "").startswith(f"{module}:"):
                lines.append(f"    broke: {module}")
            lines.append(f"    details: {path.with_suffix('.json').name}; replay: recspec reproduce {path}")
    else:
        lines.append("no new crashes")
    for sig, n in sorted(c.rehits.items()):
        origin = "saved earlier" if sig in previously_known else "saved in this campaign"
        lines.append(f"  passed over {n} input(s) that hit {sig} again ({origin}: {c.known.get(sig, '?')})")
    out.write("\n".join(lines) + "\n")
    out.flush()
