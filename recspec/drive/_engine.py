"""Driving a writer or reader: draw inputs, run the testee, judge, shrink the first failure with Hypothesis.

One *target* is a format and variant in one direction (``writer``/``reader``).
Hypothesis draws the inputs (cases for a writer; files for a reader: valid
generated ones and mutations of them), :func:`judge_writer` /
:func:`judge_reader` say what is wrong with one example (a list of
:class:`Item`, empty when the testee did right), and a failing example is
shrunk by Hypothesis, re-running the testee each time, to the smallest input
that still fails. Known deviations (``expected``) excuse the items whose rules
they list; a listed rule that never occurs is stale.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from recspec._case_json import CaseError, first_difference
from recspec.api import check
from recspec.errors import DecodeError
from recspec.formats import FormatInfo
from recspec.report import FileReport, Finding, Severity, Verdict

from ._cases import case_strategy, compare, decode_case, field_path, reference_file
from ._rules import VERDICT_RULES
from ._testee import DEFAULT_TIMEOUT, MAX_OUTPUT, Outcome, PersistentProcess, run_command, shell_line, substitute

__all__ = ["CallableReader", "CallableWriter", "CommandReader", "CommandWriter", "DriveOptions", "Example", "Item",
           "TargetResult", "drive_target", "judge_reader", "judge_writer", "replay_target"]


# --- testees -------------------------------------------------------------------------------------


class WriterTestee(Protocol):
    @property
    def name(self) -> str: ...  # read-only: each testee derives it from its command or function

    def write(self, case: Mapping[str, Any], workdir: Path, suffix: str) -> tuple[Outcome, bytes | None]: ...

    def replay(self, case_path: Path, out_path: Path) -> list[str] | None: ...


class ReaderTestee(Protocol):
    @property
    def name(self) -> str: ...  # read-only: each testee derives it from its command or function

    def read(self, path: Path) -> Outcome: ...


def _case_text(case: Mapping[str, Any]) -> str:
    return json.dumps(case, indent=1, ensure_ascii=False) + "\n"


@dataclass
class CommandWriter:
    """A writer run as a command: ``{case}`` is the case's JSON file (else the case is on stdin), ``{out}`` the
    file to write (else the file is what the command prints)."""

    command: Sequence[str]
    timeout: float = DEFAULT_TIMEOUT
    #: one process for every case (the length-prefixed JSON protocol of docs/testees), not one per case
    persistent: bool = False
    _process: PersistentProcess | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return shell_line(self.command)

    def close(self) -> None:
        if self._process is not None:
            self._process.close()

    def write(self, case: Mapping[str, Any], workdir: Path, suffix: str) -> tuple[Outcome, bytes | None]:
        case_path, out_path = workdir / "case.json", workdir / f"out{suffix}"
        if self.persistent:
            if self._process is None:
                self._process = PersistentProcess(self.command, self.timeout)
            outcome, answer = self._process.request({"case": case, "out": str(out_path)})
            if answer is None:
                return outcome, None
            if not answer["ok"]:
                return Outcome(1, stderr=str(answer.get("error", ""))), None
            return outcome, out_path.read_bytes() if out_path.is_file() else None
        case_path.write_text(_case_text(case), encoding="utf-8")
        argv = substitute(self.command, case=case_path, out=out_path)
        uses_case = any("{case}" in w for w in self.command)
        uses_out = any("{out}" in w for w in self.command)
        outcome = run_command(argv, stdin=None if uses_case else case_path.read_bytes(), timeout=self.timeout)
        if uses_out:  # the file it wrote, if any
            return outcome, out_path.read_bytes() if out_path.is_file() else None
        return outcome, outcome.stdout or None  # what it printed

    def replay(self, case_path: Path, out_path: Path) -> list[str] | None:
        return list(self.command)


@dataclass
class CallableWriter:
    """A Python writer: ``fn(case, out_path)`` writes the file at ``out_path`` or returns its bytes;
    an exception is a refusal."""

    fn: Callable[[Mapping[str, Any], Path], Any]

    @property
    def name(self) -> str:
        return getattr(self.fn, "__qualname__", repr(self.fn))

    def write(self, case: Mapping[str, Any], workdir: Path, suffix: str) -> tuple[Outcome, bytes | None]:
        out_path = workdir / f"out{suffix}"
        try:
            returned = self.fn(json.loads(json.dumps(case)), out_path)
        except Exception as e:  # noqa: BLE001 - the testee's exception is its refusal, never recspec's
            return Outcome(1, stderr="".join(traceback.format_exception_only(type(e), e)).strip()), None
        if isinstance(returned, (bytes, bytearray)):
            return Outcome(0), bytes(returned)
        return Outcome(0), out_path.read_bytes() if out_path.is_file() else None

    def replay(self, case_path: Path, out_path: Path) -> list[str] | None:
        return None


@dataclass
class CommandReader:
    """A reader run as a command: ``{file}`` is the file to read (else the file is on stdin); it prints the
    case JSON (or the stats object) and exits 0, or exits non-zero to reject."""

    command: Sequence[str]
    timeout: float = DEFAULT_TIMEOUT
    #: one process for every file (the length-prefixed JSON protocol of docs/testees), not one per file
    persistent: bool = False
    _process: PersistentProcess | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return shell_line(self.command)

    def close(self) -> None:
        if self._process is not None:
            self._process.close()

    def read(self, path: Path) -> Outcome:
        if self.persistent:
            if self._process is None:
                self._process = PersistentProcess(self.command, self.timeout)
            outcome, answer = self._process.request({"file": str(path)})
            if answer is None:
                return outcome
            if not answer["ok"]:
                return Outcome(1, stderr=str(answer.get("error", "")))
            try:
                return Outcome(0, stdout=json.dumps(answer.get("case"), ensure_ascii=False).encode("utf-8"))
            except (TypeError, ValueError) as e:  # pragma: no cover - it came from JSON
                return Outcome(0, stderr=f"not JSON: {e}")
        uses_file = any("{file}" in w for w in self.command)
        return run_command(substitute(self.command, file=path), stdin=None if uses_file else path.read_bytes(),
                           timeout=self.timeout)


@dataclass
class CallableReader:
    """A Python reader: ``fn(path)`` returns the case (or stats) as a dict; an exception is a rejection."""

    fn: Callable[[Path], Any]

    @property
    def name(self) -> str:
        return getattr(self.fn, "__qualname__", repr(self.fn))

    def read(self, path: Path) -> Outcome:
        try:
            value = self.fn(path)
        except Exception as e:  # noqa: BLE001 - the testee's exception is its rejection, never recspec's
            return Outcome(1, stderr="".join(traceback.format_exception_only(type(e), e)).strip())
        try:
            return Outcome(0, stdout=json.dumps(value).encode("utf-8"))
        except (TypeError, ValueError) as e:
            return Outcome(0, stdout=repr(value).encode("utf-8", "replace"), stderr=f"not JSON: {e}")


# --- judging ---------------------------------------------------------------------------------------


@dataclass
class Item:
    """One thing wrong with one example."""

    verdict: str  # crash, timeout, mismatch, ...
    rule: str
    message: str
    path: str = ""
    expected: Any = None
    actual: Any = None
    #: the rule ids whose known deviation excuses this item (the drive rule, and for an invalid file its rules)
    excused_by: frozenset[str] = frozenset()
    findings: tuple[Finding, ...] = ()
    severity: Severity = Severity.ERROR

    #: the field the item is about (``_cases.field_path``: indices dropped, data keys as ``*``); set by the judge
    field: str = ""

    @property
    def signatures(self) -> frozenset[tuple[str, str, str]]:
        """What makes two failures the same one: the verdict, the rule and the field. A written file that breaks
        rules has one per rule it breaks."""
        if self.findings:
            return frozenset((self.verdict, f.rule, "") for f in self.findings)
        return frozenset({(self.verdict, self.rule, self.field)})


_INDEX = re.compile(r"\[\d+\]")


def _item(direction: str, verdict: str, message: str, **kw: Any) -> Item:
    rule = VERDICT_RULES[(direction, verdict)]
    extra = kw.pop("excused_by", frozenset())
    info = kw.pop("info", None)
    item = Item(verdict, rule, message, excused_by=frozenset({rule}) | extra, **kw)
    if item.path and info is not None:
        item.field = field_path(info, item.path)
    return item


@dataclass
class DriveOptions:
    info: FormatInfo
    variant: str | None
    profile: str
    max_examples: int = 100
    seed: int | None = None
    tolerances: tuple[str, ...] = ()
    byte_exact: bool = False
    compare: str = "case"  # reader: "case" or "stats"
    expected: Mapping[str, str] = field(default_factory=dict)
    max_size: int = 4
    #: distinct failures (by signature) shrunk per target; the ones found beyond it are reported unshrunk
    max_failures: int = 10
    corpus: bool = True  # reader: also feed the corpus's files
    progress: Callable[[str], None] | None = None

    @property
    def suffix(self) -> str:
        return self.info.suffix_of(self.variant)


@dataclass
class Example:
    """One input and what became of it."""

    case: dict[str, Any] | None  # the case given (writer) or read (reader, when the file has one)
    data: bytes | None  # the file written (writer) or fed (reader)
    items: list[Item]
    mutation: str | None = None  # reader: how the file was made from the case's reference file
    source: str | None = None  # reader: the corpus file it came from
    stdout: bytes = b""
    stderr: str = ""
    #: set when the testee failed on this input, then did not when it was run again
    flaky: str | None = None
    #: False for a failure found after --max-failures distinct ones were shrunk: reported as first seen
    shrunk: bool = True
    #: writer: the reference encoder's file of the case (None where the format cannot hold it)
    reference: bytes | None = None


def _errors(report: FileReport) -> set[str]:
    return {f.rule for f in report.findings if f.severity is Severity.ERROR}


def _check(opts: DriveOptions, data: bytes) -> FileReport:
    return check(data, format=opts.info.id, variant=opts.variant, profile=opts.profile, cross_check=False,
                 name=f"out{opts.suffix}")


def _first_byte_difference(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


def _died(ex: Example, who: str, outcome: Outcome) -> bool:
    """Whether the testee (``who``: writer or reader) timed out or was killed: then that is the example's
    one item and there is nothing else to judge."""
    if outcome.timed_out:
        ex.items.append(_item(who, "timeout", f"the {who} {outcome.describe()}"))
        return True
    if outcome.crashed:
        ex.items.append(_item(who, "crash", f"the {who} {outcome.describe()}" + _stderr(outcome)))
        return True
    return False


def judge_writer(opts: DriveOptions, testee: WriterTestee, case: dict[str, Any]) -> Example:
    """Run the writer on ``case`` and judge the file it writes."""
    info = opts.info
    ref = reference_file(info, case, opts.profile)
    with tempfile.TemporaryDirectory(prefix="recspec-drive-") as tmp:
        outcome, data = testee.write(case, Path(tmp), opts.suffix)
    ex = Example(case, data, [], stdout=b"", stderr=outcome.stderr, reference=ref.data)
    w = "writer"
    if _died(ex, w, outcome):
        return ex
    if ref.data is None:
        if outcome.exit_code != 0 or data is None:
            return ex  # refused, as it must
        try:
            reads = "; it reads back as " + json.dumps(_subject(decode_case(info, data, opts.variant), case))
        except (DecodeError, CaseError) as e:
            reads = f"; recspec cannot read it back ({e})"
        ex.items.append(_item(w, "wrote-unrepresentable", f"the case cannot be written ({ref.refusal}), but the "
                              f"writer wrote {len(data)} bytes instead of refusing{reads}"))
        return ex
    if outcome.exit_code != 0:
        ex.items.append(_item(w, "refused", f"the writer {outcome.describe()} on a case the format holds"
                              + _stderr(outcome)))
        return ex
    if data is None:
        ex.items.append(_item(w, "no-output", "the writer exited with status 0 but wrote no file"))
        return ex
    got, want = _check(opts, data), _check(opts, ref.data)
    extra = [f for f in got.findings if f.severity is Severity.ERROR and f.rule not in _errors(want)]
    if extra:
        rules = sorted({f.rule for f in extra})
        first = extra[0]
        ex.items.append(_item(w, "invalid-file", f"the file is {got.verdict.value} under {opts.profile}: "
                              f"{', '.join(rules)} (first: {first.message}"
                              + (f" @{first.offset}" if first.offset is not None else "") + ")",
                              excused_by=frozenset(rules), findings=tuple(extra)))
    canonical = decode_case(info, ref.data, opts.variant)
    try:
        actual = decode_case(info, data, opts.variant)
    except (DecodeError, CaseError) as e:
        ex.items.append(_item(w, "mismatch", f"the file does not read back as a case: {e}"))
    else:
        diff = compare(info, canonical, actual, opts.tolerances, opts.profile)
        if diff is not None:
            ex.items.append(_item(w, "mismatch", f"the file holds another case: {diff}", path=diff.path, info=info,
                                  expected=_plain(diff.expected), actual=_plain(diff.actual)))
    if opts.byte_exact and data != ref.data:
        at = _first_byte_difference(data, ref.data)
        ex.items.append(_item(w, "not-byte-exact", f"the bytes differ from the reference encoder's from offset {at} "
                              f"({len(data)} bytes written, {len(ref.data)} expected)", expected=len(ref.data),
                              actual=len(data)))
    return ex


def _plain(v: Any) -> Any:
    """A compared value for the report: the "nothing there" marker of a Difference becomes None."""
    return None if v is not None and type(v) is object else v


def _stderr(outcome: Outcome) -> str:
    text = outcome.stderr.strip().splitlines()
    return f": {text[-1]}" if text else ""


def _subject(case: Mapping[str, Any], like: Mapping[str, Any]) -> Any:
    """The part of a read-back case that differs from ``like`` (the whole case when nothing does)."""
    diff = first_difference(like, case)
    return {"at": diff.path, "value": _plain(diff.actual)} if diff is not None else case


def _parse_output(opts: DriveOptions, outcome: Outcome) -> tuple[Any, str | None]:
    if len(outcome.stdout) > MAX_OUTPUT:
        return None, f"printed more than {MAX_OUTPUT} bytes"
    try:
        value = json.loads(outcome.stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        return None, f"printed something that is not JSON ({e})"
    if not isinstance(value, dict):
        return None, "printed JSON that is not an object"
    if opts.compare == "case":
        try:
            # well-formed for its format: the codec reads it (and gives back its canonical form)
            codec = opts.info.load_reference()
            value = codec.to_case(codec.from_case(value), variant=value.get("variant"), canonical=True)
        except CaseError as e:
            return None, f"printed JSON that is not a {opts.info.id} case: {e}"
        except Exception as e:  # noqa: BLE001 - EncodeError: a case the format cannot hold; not a reading of a file
            return None, f"printed a case the format cannot hold: {e}"
    return value, None


def _is_policy(opts: DriveOptions, rule_id: str) -> bool:
    """Whether a rule is recspec's own policy (a limit, a refusal), not the format's."""
    rule = opts.info.load().RULES_BY_ID.get(rule_id)
    return rule is not None and rule.policy


def _stats(report: FileReport, opts: DriveOptions) -> dict[str, Any]:
    from recspec._plain import to_plain

    return {k: to_plain(report.stats.get(k)) for k in opts.info.stats_keys}


def judge_reader(opts: DriveOptions, testee: ReaderTestee, data: bytes, *, case: dict[str, Any] | None = None,
                 mutation: str | None = None, source: str | None = None) -> Example:
    """Run the reader on ``data`` and judge its answer against recspec's verdict on the same bytes."""
    report = _check(opts, data)
    with tempfile.TemporaryDirectory(prefix="recspec-drive-") as tmp:
        path = Path(tmp) / f"input{opts.suffix}"
        path.write_bytes(data)
        outcome = testee.read(path)
    ex = Example(case, data, [], mutation=mutation, source=source, stdout=outcome.stdout[:4096],
                 stderr=outcome.stderr)
    r = "reader"
    if _died(ex, r, outcome):
        return ex
    accepted = outcome.exit_code == 0
    verdict = report.verdict
    if verdict is Verdict.VALID:
        if not accepted:
            ex.items.append(_item(r, "rejects-valid", f"the reader {outcome.describe()} on a valid file"
                                  + _stderr(outcome)))
            return ex
        value, bad = _parse_output(opts, outcome)
        if bad is not None:
            ex.items.append(_item(r, "bad-output", f"the reader {bad}"))
            return ex
        if opts.compare == "stats":
            want: Any = _stats(report, opts)
            value = {k: value.get(k) for k in want}
        else:
            try:
                want = decode_case(opts.info, data, opts.variant)
            except (DecodeError, CaseError):
                return ex  # a valid file without a case: accepting it is all that can be asked
        diff = compare(opts.info, want, value, opts.tolerances, opts.profile)
        if diff is not None:
            ex.items.append(_item(r, "disagrees", f"the reader reads another {opts.compare}: {diff}", path=diff.path,
                                  info=opts.info,
                                  expected=_plain(diff.expected), actual=_plain(diff.actual)))
        return ex
    if not accepted:
        return ex  # rejected a file that is not valid, as it should
    rules = sorted(_errors(report))
    first = next((f for f in report.findings if f.severity is Severity.ERROR), None)
    where = f" ({first.rule} @{first.offset}: {first.message})" if first is not None else ""
    if rules and all(_is_policy(opts, r) for r in rules):
        ex.items.append(_item(r, "accepts-policy", f"the reader accepted a file that breaks only recspec's policy "
                              f"({', '.join(rules)}), not the format's{where}", excused_by=frozenset(rules),
                              severity=Severity.INFO))
        return ex
    if verdict is Verdict.MALFORMED:
        ex.items.append(_item(r, "accepts-malformed", f"the reader accepted a malformed file{where} and printed "
                              f"{len(outcome.stdout)} bytes: a silent disagreement", excused_by=frozenset(rules)))
    else:
        ex.items.append(_item(r, "lenient", f"the reader accepted an {verdict.value} file{where}",
                              excused_by=frozenset(rules), severity=Severity.WARNING))
    return ex


# --- the hunt ------------------------------------------------------------------------------------


class _Failed(Exception):
    """Raised inside the Hypothesis test for an example whose items are not all excused."""


@dataclass
class TargetResult:
    direction: str
    opts: DriveOptions
    testee: str
    seed: int
    #: examples drawn and judged (shrinking's steps not counted)
    examples: int = 0
    #: the distinct failures found, each shrunk to its smallest input (up to ``max_failures``), in finding order
    found: list[Example] = field(default_factory=list)
    #: known-deviation key (``RULE`` or ``RULE:field.path``) -> how many examples it excused
    excused: Counter[str] = field(default_factory=Counter)
    lenient: Counter[str] = field(default_factory=Counter)
    #: policy rule -> how many files breaking only policy rules the reader accepted (a note)
    policy: Counter[str] = field(default_factory=Counter)
    corpus_failures: list[Example] = field(default_factory=list)
    #: the last reference file judged, for the report's stats
    last_reference: bytes | None = None
    #: the folder of each failure saved (``--out``), and the command that replays it (for a command testee)
    saved_each: list[Path] = field(default_factory=list)
    replays: list[str | None] = field(default_factory=list)

    @property
    def saved(self) -> Path | None:
        return self.saved_each[0] if self.saved_each else None

    @property
    def replay(self) -> str | None:
        return self.replays[0] if self.replays else None

    @property
    def failure(self) -> Example | None:
        """The first failure found (shrunk)."""
        return self.found[0] if self.found else None

    @property
    def failures(self) -> list[Example]:
        return self.found + self.corpus_failures

    @property
    def flaky(self) -> str | None:
        return next((ex.flaky for ex in self.found if ex.flaky), None)


def _path_matches(field: str, where: str) -> bool:
    """Whether a known deviation's field path (``bond.orders``, ``frames.duration_this``) names ``field``: a run
    of its dotted names (``bond.orders`` names ``records.frame.arrays.bond.orders.float``)."""
    where = _INDEX.sub("", where)
    return bool(where) and f".{where}." in f".{field}."


def excusing(item: Item, expected: Mapping[str, str]) -> list[str]:
    """The known-deviation keys that excuse ``item``: a rule id that excuses it (the drive rule, or for a written
    file that breaks rules, one of those rules), or ``RULE:field.path`` with such a rule and its field path."""
    out = []
    for key in expected:
        rule, _, where = key.partition(":")
        if rule in item.excused_by and (not where or _path_matches(item.field, where)):
            out.append(key)
    return out


def failing(items: Sequence[Item], expected: Mapping[str, str]) -> list[Item]:
    """The items that fail the run: errors not excused by a listed known deviation."""
    return [i for i in items if i.severity is Severity.ERROR and not excusing(i, expected)]


def signatures(ex: Example, expected: Mapping[str, str]) -> frozenset[tuple[str, str, str]]:
    """The signatures of an example's failing items."""
    return frozenset(sig for i in failing(ex.items, expected) for sig in i.signatures)


def _note(result: TargetResult, ex: Example) -> None:
    for item in ex.items:
        if item.severity is Severity.WARNING:
            result.lenient.update(item.excused_by - {item.rule})
        elif item.severity is Severity.INFO:
            result.policy.update(item.excused_by - {item.rule})
        for key in excusing(item, result.opts.expected):
            result.excused[key] += 1


def _mutations(data: bytes) -> Any:
    from hypothesis import strategies as st

    none = st.just(("none", data))
    if not data:
        return none
    truncate = st.integers(1, len(data)).map(lambda k: (f"truncated by {k} byte(s)", data[:len(data) - k]))
    flip = st.tuples(st.integers(0, len(data) - 1), st.integers(1, 255)).map(
        lambda p: (f"byte {p[0]} xor 0x{p[1]:02x}", data[:p[0]] + bytes([data[p[0]] ^ p[1]]) + data[p[0] + 1:]))
    append = st.binary(min_size=1, max_size=8).map(lambda b: (f"{len(b)} byte(s) appended", data + b))
    # appending first: the shrinker prefers earlier branches, and bytes appended fit any file (a cut of the
    # smallest file may land in its header instead), so a reader that misses where a file ends shrinks to
    # one smallest input
    return st.one_of(none, append, truncate, flip)


class _NoConstants:
    """An empty pool of source-code constants (see :func:`_same_examples_in_any_process`)."""

    def set_for_type(self, choice_type: str) -> tuple[()]:
        return ()


@contextmanager
def _same_examples_in_any_process() -> Iterator[None]:
    """While a search runs, keep Hypothesis from drawing constants found in the source of the modules loaded.

    Hypothesis (recent releases) now and then draws a constant it found in the source of the local modules
    imported so far, so the same ``--seed`` drew different examples, and shrank a failure to a different
    case, depending on what the process had imported before the search (a pytest suite's earlier tests,
    the CLI's renderers). Hypothesis has no setting for it; its own constants (0, 1, the float edge values)
    still come. On a Hypothesis without this machinery, nothing is changed.
    """
    try:
        from hypothesis.internal.cache import LRUCache
        from hypothesis.internal.conjecture import providers

        saved = providers._get_local_constants, providers.CONSTANTS_CACHE
    except (ImportError, AttributeError):
        yield
        return
    providers._get_local_constants = _NoConstants  # type: ignore[assignment]
    providers.CONSTANTS_CACHE = LRUCache(1024)  # the permitted constants computed without the local ones
    try:
        yield
    finally:
        providers._get_local_constants, providers.CONSTANTS_CACHE = saved


def drive_target(direction: str, opts: DriveOptions, testee: WriterTestee | ReaderTestee) -> TargetResult:
    """Drive one target: ``max_examples`` examples, every distinct failure found and (up to ``max_failures``)
    shrunk.

    One Hypothesis search per failure: a search stops at the first example with a failure whose signature
    (:attr:`Item.signatures`) no failure reported so far has, and shrinks it to the smallest input that still has
    such a failure (the first search: any failure); the next
    search (the same seed, so the same examples, whose judgements are remembered rather than run again) goes on
    past it. The search that finds nothing new has judged all ``max_examples``. An example is run again only when
    it carries a signature not yet reported: the one a search shrinks, and the shrunk input Hypothesis replays at
    its end (which tells a flaky testee). A flaky failure's judgement is remembered as it was, so its signatures
    stay reported and the searches end."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st
    from hypothesis.errors import Flaky, Unsatisfiable

    seed = opts.seed if opts.seed is not None else random.SystemRandom().randrange(2**32)
    result = TargetResult(direction, opts, testee.name, seed)
    cases = case_strategy(opts.info, opts.variant, opts.profile, max_size=opts.max_size)
    expected = opts.expected
    reported: set[tuple[str, str, str]] = set()  # signatures covered by a failure in result.found
    judged: dict[Any, Example] = {}  # input -> its judgement, remembered across the searches
    beyond: dict[tuple[str, str, str], Example] = {}  # signatures found past max_failures: first example
    counted: set[Any] = set()  # the inputs drawn, each counted (and its notes taken) once

    if direction == "reader" and opts.corpus:
        for name, data in _corpus_files(opts):
            ex = judge_reader(opts, testee, data, source=name)  # type: ignore[arg-type]
            _note(result, ex)
            if failing(ex.items, expected):
                result.corpus_failures.append(ex)

    if direction == "writer":
        strategy = cases
    else:
        def with_file(case: dict[str, Any]) -> Any:
            ref = reference_file(opts.info, case, opts.profile)
            if ref.data is None:
                return st.nothing()
            return _mutations(ref.data).map(lambda m: (case, m[0], m[1], ref.data))
        strategy = cases.flatmap(with_file)

    def key_of(example: Any) -> Any:
        if direction == "writer":
            return json.dumps(example, sort_keys=True)
        return example[2]  # the bytes fed

    def judge(example: Any) -> Example:
        if direction == "writer":
            ex = judge_writer(opts, testee, example)  # type: ignore[arg-type]
            ref = ex.reference
        else:
            case, mutation, data, ref = example
            ex = judge_reader(opts, testee, data, case=case, mutation=mutation)  # type: ignore[arg-type]
        if ref is not None:
            result.last_reference = ref
        return ex

    def one_search() -> Example | None:
        """Search for an example with a failure not yet reported and shrink it to the smallest input that still
        has one; None when the search found none."""
        found: list[Example] = []
        drawn = [0]  # examples drawn by this search; the last search draws every one of them

        def tick() -> None:
            if opts.progress is not None:
                n = len(result.found)
                opts.progress(f"{result.examples} example(s)" + (f", {n} failure(s)" if n else "")
                              + (", shrinking a failure" if found else ""))

        @settings(max_examples=opts.max_examples, deadline=None, database=None, report_multiple_bugs=False,
                  print_blob=False, verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck),
                  phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink))
        @given(strategy)
        def search(example: Any) -> None:
            key = key_of(example)
            ex = judged.get(key)
            if ex is None or signatures(ex, expected) - reported:
                ex = judged[key] = judge(example)
            if not found:  # an example drawn, not a shrinking step
                drawn[0] += 1
                result.examples = max(result.examples, drawn[0])
                if key not in counted:  # its notes taken once
                    counted.add(key)
                    _note(result, ex)
                tick()
            new = signatures(ex, expected) - reported
            if not new:
                return
            if len(result.found) >= opts.max_failures:
                for sig in new:
                    beyond.setdefault(sig, ex)
                return
            found.append(ex)
            raise _Failed()

        search = hseed(seed)(search)
        try:
            with _same_examples_in_any_process():
                search()
        except _Failed:
            return found[-1]
        except Flaky:  # the testee failed, then passed on the same input: report the last failure seen
            if not found:
                return None
            found[-1].flaky = _FLAKY
            return found[-1]
        except Unsatisfiable:
            return None  # every drawn case was one the format cannot hold; nothing to feed a reader
        except BaseExceptionGroup:  # hypothesis's FlakyFailure on some versions
            if not found:
                raise
            found[-1].flaky = _FLAKY
            return found[-1]
        if found:  # failed, then passed when replayed, without Hypothesis saying so
            found[-1].flaky = _FLAKY
            return found[-1]
        return None

    while (shrunk := one_search()) is not None:
        result.found.append(shrunk)
        reported.update(signatures(shrunk, expected))
    for sig, ex in beyond.items():
        if sig not in reported:
            ex.shrunk = False
            result.found.append(ex)
            reported.update(signatures(ex, expected))
    return result


#: What a flaky run says (Hypothesis's own message starts with the whole input, not with what happened).
_FLAKY = "it failed on this input, then did not when the input was run again"


def _corpus_files(opts: DriveOptions) -> list[tuple[str, bytes]]:
    """The bundled corpus's files of the target's format and variant (every file when the format has no variants)."""
    from recspec.conformance.corpus import corpus_folder

    base = corpus_folder(opts.info.id)
    manifest = base / "manifest.json"
    if not manifest.is_file():
        return []
    entries = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    out = []
    for e in entries:
        variant = e.get("variant")
        if opts.info.variants and variant not in (None, opts.variant):
            continue
        path = base / e["path"]
        wanted = opts.info.variant_suffix(opts.variant)  # where the suffix tells the variant, only its files
        if wanted is not None and path.suffix not in ("", wanted):
            continue
        if path.is_file():
            out.append((f"corpus/{opts.info.id}/{e['path']}", path.read_bytes()))
    return out


def example_json(ex: Example) -> dict[str, Any]:
    out: dict[str, Any] = {"verdicts": [i.verdict for i in ex.items], "shrunk": ex.shrunk}
    if ex.flaky:
        out["flaky"] = ex.flaky
    if ex.case is not None:
        out["case"] = ex.case
    if ex.mutation is not None:
        out["mutation"] = ex.mutation
    if ex.source is not None:
        out["source"] = ex.source
    if ex.stderr:
        out["stderr"] = ex.stderr[-500:]
    return out



def replay_target(direction: str, opts: DriveOptions, testee: WriterTestee | ReaderTestee, path: Path
                  ) -> TargetResult:
    """Judge one saved input (``--replay``): a case JSON for a writer, a file for a reader."""
    result = TargetResult(direction, opts, testee.name, opts.seed or 0, examples=1)
    if direction == "writer":
        try:
            case = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            from recspec.errors import InputError

            raise InputError(f"{path}: not a case JSON file ({e})", str(path)) from None
        ex = judge_writer(opts, testee, case)  # type: ignore[arg-type]
        result.last_reference = reference_file(opts.info, case, opts.profile).data
    else:
        data = path.read_bytes()
        ex = judge_reader(opts, testee, data, source=str(path))  # type: ignore[arg-type]
    _note(result, ex)
    if failing(ex.items, opts.expected):
        result.found.append(ex)
    return result
