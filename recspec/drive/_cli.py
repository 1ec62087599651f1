"""The ``recspec drive`` and ``recspec case`` commands (registered by ``recspec/cli.py``).

This module imports nothing heavy at load time: the parser is built for every
``recspec`` invocation; the engine (and Hypothesis) load when a command runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TextIO

from recspec.errors import EXIT_FAIL, EXIT_OK, InputError, UsageError
from recspec.formats import FORMATS

__all__ = ["add_case_parser", "add_drive_parser", "cmd_case", "cmd_drive"]

_DRIVE_EPILOG = """\
the testee:
  Everything after `--` is the command to run for each example.
  writer: {case} is replaced by the path of the case's JSON file (without it,
    the case is on standard input) and {out} by the path of the file to write
    (without it, the file is what the command prints). Exit 0 after writing;
    exit non-zero to refuse a case the format cannot hold (e.g. a negative
    raSkat v2 coordinate: v1/v2 store unsigned parts).
  reader: {file} is replaced by the path of the file to read (without it, the
    file is on standard input). Print the file's case as JSON (`recspec case
    FILE` shows what is expected; with --compare stats the report's stats
    object) and exit 0, or exit non-zero to reject the file.

what is judged:
  writer: each case drawn for the format and variant is written; the file
    must keep every rule the reference encoder's file of the case keeps (under
    --profile), read back as the same case (within --tolerance and the
    profile's value equivalences: under compat, e.g. a raSkat whole-number
    double stored as an integer, a Matrix-SMT zero's sign; under spec none),
    and with --byte-exact equal the reference encoder's bytes. A crash
    (signal), a hang (--timeout), a refusal or a missing file is a verdict of
    its own.
  reader: valid generated files must be accepted and read as the reference
    reads them; the corpus's malformed files and mutations of valid ones
    (truncated, a byte changed, bytes appended) must be rejected: accepting a
    malformed file is a failure (silent disagreement), accepting an invalid
    one is reported as lenient (a warning, by rule), accepting one that
    breaks only recspec's own policy rules (`recspec rules` marks them) a note.
  drive goes on after a failure until --max-examples; each distinct failure
  (verdict, rule, field) is shrunk by Hypothesis, re-running the testee, to
  the smallest input that still fails (up to --max-failures), and printed
  with its whole input; --out DIR saves each (case.json, the file,
  report.json and replay.sh, which replays it from any folder).
  --persistent starts the testee once and sends every case as length-prefixed
  JSON (docs/testees/README.md, "Persistent testees").

reports and known deviations:
  --report FORMAT:PATH writes the same reports as `recspec check` (json,
  junit, sarif, html, markdown), one entry per target
  (drive/writer/nanover/traj). --expectations FILE lists known deviations
  by target: {"files": {"drive/writer/nanover": {"NANOVER-FRAME-005": "why"}}};
  a key is a rule id or RULE:field.path (DRIVE-WRITER-007:bond.orders); one
  that no longer occurs fails the run (listed for the format: in no variant).

exit codes:
  0  the testee did right on every example (or only by known deviations)
  1  a failure, or a stale expectation
  2  usage or I/O error

examples:
  recspec drive writer raskat-signal --variant v2 --profile compat -- ./sigwriter {case} {out}
  recspec drive writer nanover --max-examples 200 --out failures/ -- python my_writer.py {case} {out}
  recspec drive reader carla --variant 0.9.15 -- ./carla_reader {file}
  recspec drive reader matrix-smt --compare stats --report junit:drive.xml -- node read.js {file}
  recspec drive writer nanover --replay failures/writer-nanover-traj/case.json -- python my_writer.py {case} {out}
  recspec drive writer nanover --persistent --max-examples 500 -- python my_persistent_writer.py
"""


class _HelpFormatter(Protocol):
    """The command line's help formatter class (recspec/cli.py): ``paragraph`` marks a description that
    the help wraps when it is shown."""

    @staticmethod
    def paragraph(text: str) -> str: ...


def add_drive_parser(sub: Any, formatter: _HelpFormatter, report_arg: Callable[[str], tuple[str, str]],
                     seconds_arg: Callable[[str], float]) -> None:
    _d = formatter.paragraph
    formats = ", ".join(FORMATS)
    p = sub.add_parser("drive", help="drive a third-party writer or reader with generated cases",
                       formatter_class=formatter,
                       description=_d("Run a writer or reader under test on generated cases and files, judge every "
                                      "result, and shrink the first failure to the smallest input."),
                       epilog=_DRIVE_EPILOG)
    p.add_argument("direction", choices=("writer", "reader"), help="what the testee is")
    p.add_argument("format", metavar="FORMAT", help=f"the format ({formats})")
    p.add_argument("testee", nargs=argparse.REMAINDER, metavar="-- COMMAND ...",
                   help="the testee's command line, after --")
    _add_options(p, report_arg, seconds_arg)
    options_only = argparse.ArgumentParser(prog="recspec drive DIRECTION FORMAT", add_help=False)
    _add_options(options_only, report_arg, seconds_arg)
    p.set_defaults(func=cmd_drive, drive_options=options_only)


def _add_options(p: Any, report_arg: Callable[[str], tuple[str, str]], seconds_arg: Callable[[str], float]) -> None:
    from recspec.render import RENDERERS

    from ._limits import DEFAULT_TIMEOUT

    legacy = "; ".join(f"{info.id} {', '.join(info.legacy_variants)}" for info in FORMATS.values()
                       if info.legacy_variants)
    p.add_argument("--variant", help="only this variant (default: every variant but the legacy ones, run only if "
                                     f"named: {legacy or 'none'})")
    p.add_argument("--profile", help="rule profile the files are judged under: spec (default) or compat")
    p.add_argument("--max-examples", type=int, default=100, metavar="N",
                   help="examples per variant (default 100; shrinking a failure runs more)")
    p.add_argument("--seed", type=int, default=None, metavar="N",
                   help="Hypothesis seed: the same seed gives the same report in any process, given the same "
                        "options, recspec and Hypothesis versions and a testee that answers alike (default: random, "
                        "shown in the report)")
    p.add_argument("--timeout", type=seconds_arg, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"time limit of one run of the testee (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--persistent", action="store_true",
                   help="start the testee once and send it every case (or file) as length-prefixed JSON on its "
                        "standard input, answers on its standard output (docs/testees/README.md, 'Persistent "
                        "testees'); a crash or hang is reported against its case and the testee restarted")
    p.add_argument("--tolerance", action="append", default=[], metavar="NAME",
                   help="a tolerance the format declares, for comparing cases (repeatable): float32 (every "
                        "format), millionth-floor (raskat-signal); an unknown name lists what the format declares")
    p.add_argument("--byte-exact", action="store_true",
                   help="writer: the bytes must equal the reference encoder's")
    p.add_argument("--compare", choices=("case", "stats"), default="case",
                   help="reader: what the reader prints (default case)")
    p.add_argument("--no-corpus", dest="corpus", action="store_false",
                   help="reader: do not feed the bundled corpus's files")
    p.add_argument("--max-failures", type=int, default=10, metavar="N",
                   help="distinct failures (by verdict, rule and field path) shrunk per variant (default 10); "
                        "drive goes on to --max-examples and reports the ones found beyond N unshrunk")
    p.add_argument("--max-size", type=int, default=4, metavar="N",
                   help="the most units in a drawn case: frames or records (samples in blocks of 8 for a "
                        "signal; README \"drive\") (default 4)")
    p.add_argument("--out", type=Path, metavar="DIR", help="save each target's minimal failure in DIR")
    p.add_argument("--replay", type=Path, metavar="PATH",
                   help="judge one saved input instead of drawing (writer: a case JSON; reader: a file)")
    p.add_argument("--json", action="store_true", help="print the JSON report instead of the summary")
    p.add_argument("--report", action="append", type=report_arg, default=[], metavar="FORMAT:PATH",
                   help=f"also write a report: {', '.join(RENDERERS)} (repeatable; PATH '-' is stdout)")
    p.add_argument("--expectations", metavar="FILE",
                   help="known deviations by target (drive/writer/FORMAT[/VARIANT]); a stale entry fails the run")


def add_case_parser(sub: Any, formatter: _HelpFormatter) -> None:
    _d = formatter.paragraph
    p = sub.add_parser("case", help="print a recording's case: its content in a writer's terms, as JSON",
                       formatter_class=formatter,
                       description=_d("Decode FILE with the reference decoder and print its case. By default the "
                                      "lossless case: besides the content it says how the file was written where "
                                      "that changes bytes (a NaN's sign and payload, the order and packing of NanoVer "
                                      "map entries, Matrix-SMT's compat form, raSkat MessagePack widths, a tar "
                                      "member's mtime), so `recspec encode` "
                                      "gives FILE back byte for byte. With --canonical, the content alone: the JSON "
                                      "a writer is given by `recspec drive writer` and a reader must print for "
                                      "`recspec drive reader`. The schema is recspec/schemas/case-2.schema.json."),
                       epilog="examples:\n  recspec case corpus/carla/valid/0.9.15.log > case.json\n"
                              "  recspec encode case.json -o again.log      # the same bytes\n"
                              "  recspec case --canonical hello_vel.traj    # what a reader must print\n"
                              "  recspec case --format nanover --variant state session.bin")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", help="force the format")
    p.add_argument("--variant", help="force the variant (otherwise detected as `recspec check` does)")
    p.add_argument("--canonical", action="store_true",
                   help="the content alone: leave out every detail of how the file was written (each means the "
                        "canonical encoding when left out)")
    p.set_defaults(func=cmd_case)


def cmd_case(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from recspec._case_json import case_text
    from recspec.api import check
    from recspec.pipeline import named_input

    from ._cases import decode_case

    path = Path(args.file)
    if named_input(args.file) != args.file:
        raise InputError(f"{args.file}: case reads its file more than once, so it takes no standard input; "
                         "save it to a file first", args.file)
    if not path.is_file():
        raise InputError(f"{args.file}: no such file", args.file)
    report = check(path, format=args.format, variant=args.variant, cross_check=False)
    if report.format is None:
        raise UsageError(f"{args.file}: no known format recognises this file", "force one with --format")
    info = FORMATS[report.format]
    variant = args.variant or report.variant
    case = decode_case(info, path.read_bytes(), variant, canonical=args.canonical)
    out.write(case_text(case) + "\n")
    return EXIT_OK


class _Progress:
    """One status line on a terminal (never in CI logs)."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.enabled = bool(getattr(err, "isatty", lambda: False)()) and not os.environ.get("CI")

    def __call__(self, target: str, text: str) -> None:
        if self.enabled:
            self.err.write(f"\r\x1b[2K{target}: {text}")
            self.err.flush()

    def done(self) -> None:
        if self.enabled:
            self.err.write("\r\x1b[2K")
            self.err.flush()


def cmd_drive(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from recspec.expectations import load_expectations
    from recspec.formats import resolve_format
    from recspec.render import render

    from ._cases import drive_variants, tolerances_for
    from ._engine import CommandReader, CommandWriter, DriveOptions
    from ._run import DriveRenderContext, run_drive

    # options may stand between FORMAT and --: argparse's remainder holds them, so read them here
    rest = list(args.testee)
    if "--" in rest:
        cut = rest.index("--")
        args.drive_options.parse_args(rest[:cut], namespace=args)
        command = rest[cut + 1:]
    else:
        command = rest
    if not command:
        raise UsageError("no testee command", "put it after --, e.g. recspec drive writer nanover -- "
                                              "python my_writer.py {case} {out}")
    info = resolve_format(args.format)
    profile = info.check_profile(args.profile)
    variants = drive_variants(info, args.variant)
    if args.replay is not None and not args.replay.is_file():
        raise InputError(f"--replay {args.replay}: no such file", str(args.replay))
    if args.max_examples < 1:
        raise UsageError("--max-examples must be at least 1")
    if args.max_failures < 1:
        raise UsageError("--max-failures must be at least 1")
    for kind, path in args.report:
        folder = Path(path).parent
        if path != "-" and not folder.is_dir():
            raise UsageError(f"--report {kind}:{path}: folder {folder} does not exist")
    expectations = load_expectations(args.expectations) if args.expectations else None
    testee: Any = (CommandWriter(command, args.timeout, args.persistent) if args.direction == "writer"
                   else CommandReader(command, args.timeout, args.persistent))
    opts = DriveOptions(info, None, profile, max_examples=args.max_examples, seed=args.seed,
                        tolerances=tolerances_for(info, args.tolerance), byte_exact=args.byte_exact,
                        compare=args.compare, max_size=args.max_size, corpus=args.corpus,
                        max_failures=args.max_failures)
    progress = _Progress(err)
    run = run_drive(args.direction, opts, variants, testee,
                    expectations=expectations.files if expectations else None, expectations_name=args.expectations,
                    out_dir=args.out, replay_prefix=(sys.executable, "-m", "recspec", "drive"), progress=progress,
                    replay=args.replay)
    progress.done()
    ctx = DriveRenderContext(run.report)
    if args.json:
        out.write(render("json", run.report, ctx))
    else:
        _summary(run, out)
    io_errors = []
    for kind, path in args.report:
        text = render(kind, run.report, ctx)
        if path == "-":
            out.write(text)
            continue
        try:
            from recspec.render import write_atomic

            write_atomic(path, text)
        except OSError as e:
            io_errors.append(f"--report {kind}:{path}: {e.strerror or e}")
    for msg in io_errors:
        err.write(f"recspec: {msg}\n")
    if io_errors:
        return UsageError.exit_code
    return EXIT_OK if run.ok else EXIT_FAIL


#: The longest input the summary prints whole; a longer one is saved (with --out, or to a temporary file) and
#: its path printed.
_PRINTED_WHOLE = 64 * 1024


def _whole_input(ex: Any, saved: Path | None) -> str:
    """The failure's input as the summary prints it: the whole case (and the mutation), or where it is saved."""
    if ex.source is not None:
        return f"the corpus file {ex.source}"
    if ex.case is None:
        return "(no case)"
    import json

    text: str = json.dumps(ex.case, ensure_ascii=False)
    how = f", {ex.mutation}" if ex.mutation and ex.mutation != "none" else ""
    if len(text) <= _PRINTED_WHOLE:
        return text + how
    if saved is not None:
        return f"the case in {saved / 'case.json'} ({len(text)} characters){how}"
    import tempfile

    fd, name = tempfile.mkstemp(prefix="recspec-drive-case-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(ex.case, indent=1, ensure_ascii=False) + "\n")
    return f"the case in {name} ({len(text)} characters){how}"


def _summary(run: Any, out: TextIO) -> None:
    from recspec.report import Severity

    from ._engine import excusing

    for r, fr in zip(run.results, run.report.files):
        state = "FAIL" if fr.failed else "ok"
        n = len(r.failures)
        extra = (f", {n} distinct failure(s)" if n else "") + (
            f", {len(r.excused)} known deviation(s)" if r.excused else "")
        out.write(f"{fr.path}: {state} ({r.examples} examples, seed {r.seed}{extra})\n")
        for k, ex in enumerate(r.failures):
            saved = r.saved_each[k] if k < len(r.saved_each) else None
            out.write(f"  failure {k + 1} of {n}" + ("" if ex.shrunk else " (not shrunk: --max-failures reached)")
                      + ":\n")
            for item in ex.items:
                known = " (known deviation)" if excusing(item, r.opts.expected) else ""
                out.write(f"    {item.severity.value.upper():7} {item.rule}{known}: {item.message}\n")
                for f in item.findings:
                    if f.severity is Severity.ERROR:
                        at = f" @{f.offset}" if f.offset is not None else ""
                        out.write(f"    {f.severity.value.upper():7} {f.rule}{at}: {f.message}\n")
            out.write(f"    {'minimal input' if ex.shrunk else 'input'}: {_whole_input(ex, saved)}\n")
            if ex.flaky:
                out.write(f"    note: the testee is flaky on this input ({ex.flaky})\n")
            if saved is not None:
                out.write(f"    saved in {saved}\n")
                if k < len(r.replays) and r.replays[k]:
                    out.write(f"    replay: {r.replays[k]}\n")
        for f in fr.findings:
            if f.rule in ("DRIVE-READER-007", "DRIVE-READER-008") or f.message.startswith("known deviation"):
                out.write(f"    {f.severity.value.upper():7} {f.rule}: {f.message}\n")
    for st in run.report.stale:
        out.write(f"STALE {st.rule} expected on {st.path}, but {st.why}\n")
    failed = sum(1 for fr in run.report.files if fr.failed)
    stale = len(run.report.stale)
    out.write(f"\n{len(run.report.files)} target(s), {failed} failed"
              + (f", {stale} stale known deviation(s)" if stale else "") + "\n")
