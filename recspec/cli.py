"""The ``recspec`` command line.

Exit codes (all commands): 0 success / every file valid; 1 at least one file
is not valid (an error-level finding or worse), or a fuzz campaign found a
crash, or a reproduction diverges; 2 usage or I/O errors. recspec never shows a
traceback for bad input: a file it cannot read is reported and the run goes on.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ._limits import MAX_STREAM_SIZE
from ._run import CROSS_CHECK_MODES, DEFAULT_FILE_TIMEOUT, RunOptions
from ._version import __version__
from .catalog import all_rules, explain_text, installed_document
from .errors import EXIT_FAIL, EXIT_OK, DecodeError, InputError, InternalError, RecspecError, UsageError
from .formats import FORMATS, SNIFF_BYTES, FormatInfo, Progress, by_extension, resolve_format, sniff
from .render import RENDERERS, RenderContext, render_pieces
from .render._table import TABLE_FINDINGS_PER_RULE, EntryMaker
from .render._table import print_table as _print_table
from .render._verdicts import PROFILES
from .report import Report
from .spool import Spool

if TYPE_CHECKING:
    # loaded by the runs that name --expectations (_report_options, _judge_expectations), not by every start-up
    from .expectations import Expectations

    # the pipeline and the walk (recspec.shard) are imported by the commands that check or read files, not by
    # `--help`, `rules` or `explain` (with recspec.trace, about 3 ms of their start-up)
    from .shard import Shard, ShardSelection

__all__ = ["main"]

#: usage and input errors (the exit code of recspec.errors.UsageError and InputError)
EXIT_USAGE = UsageError.exit_code

_CHECK_EPILOG = """\
how the format is chosen:
  The content decides (the magic and structure of the first bytes); the file
  extension is only a hint. --format forces a format, --variant a variant
  (otherwise recspec detects it and says why in the report's evidence).

folders:
  A folder is checked recursively, in sorted order. A file that a format's
  content sniff or extension claims is always reported (a broken recording
  never passes silently: an empty run2.log is 'unrecognized' and fails the
  run). Files that nothing claims (notes.txt, image.png) are skipped, counted
  in the summary as 'unclaimed' and listed with --verbose. A file named on
  the command line is always reported, as 'unrecognized' if need be.
  FIFOs, sockets and devices inside folders are not opened, counted as 'not
  regular' and listed with --verbose; a FIFO or device named on the command
  line is read as a stream, up to --stream-limit bytes (default 1G), waiting
  at most 10 s for its data; so is standard input, named - (reported as
  /dev/stdin): `cat run1.log | recspec check -`.

profiles:
  Every file is judged under both profiles in one walk: spec (the document as
  written, with its errors corrected) and compat (what the format's real
  readers accept). The table, --json and every report carry both verdicts;
  --profile (default spec) picks the one that drives the exit code, the
  findings listed and E/W/I. A file that fails spec but passes compat gets a
  line naming the rules that make the difference.

reports (for CI):
  --report FORMAT:PATH writes a report file; repeat it for several formats,
  all from the same run: json (the documented contract), junit (one test case
  per file and rule family), sarif (SARIF 2.1.0, for code-scanning pages),
  html (one self-contained page), markdown (a short summary, e.g. for
  $GITHUB_STEP_SUMMARY). Each is written atomically: a killed run leaves the
  previous report or none, never half of one. The same files give
  byte-identical reports.

known deviations:
  --expectations FILE lists the rules a writer's files are known to break.
  Those findings are reported but do not fail the run; a listed deviation
  that no longer occurs does fail it, so the list cannot go stale silently.
  --update-expectations rewrites FILE from this run (reasons are kept; a new
  entry's reason is a TODO, and the run fails until each one is written).

{cross_check}
parallel runs:
  -j N checks N files at a time in worker processes, each file under a time
  limit (--timeout, default 300 s). A file that crashes or hangs its worker
  gets the verdict crash or timeout and the other files' results are kept.

many machines (--shard K/N, then `recspec merge`):
  N runs of the same command with --shard 1/N .. N/N check every file exactly
  once. A file goes to shard  blake2b(key, 8 bytes) % N + 1,  where the key is
  its path relative to the folder named on the command line ('/' separators,
  UTF-8), or the name as given for a file named directly; so the split is the
  same on every machine and file system. Each shard walks all the PATHs and
  checks its part; an empty part is not an error. Write each shard's JSON
  report and combine them with `recspec merge` (see `recspec merge --help`):
    recspec check recordings/ --shard 2/7 --report json:shard-2.json
    recspec check detector/ --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT \\
        --report json:shards/$SLURM_ARRAY_TASK_ID.json    (in an sbatch --array=1-N job)
    recspec merge shards/*.json --report junit:junit.xml --report sarif:recspec.sarif

exit codes:
  0  every file is valid, or fails only by known deviations (warnings and
     info findings allowed)
  1  at least one file is invalid, malformed or unrecognized (beyond its known
     deviations), or crashed or timed out recspec, or an expectation is stale
  2  usage or I/O error (a missing path, an unreadable file, a bad
     expectations file, a report that cannot be written)

examples:
  recspec check run1.log
  recspec check --json recordings/ > report.json
  recspec check -j 2 recordings/ --report junit:junit.xml --report sarif:recspec.sarif
  recspec check recordings/ --expectations writer-expectations.json
  recspec check --format carla --variant 0.9.15 --profile compat crash.log
  recspec check --profile compat detector/2025/          (a folder of raSkat .sig files)
  recspec check --format nanover --variant state session.bin
  recspec check --all-findings --profile spec Scene1.bson
  recspec check -j 2 recordings/ --shard 3/8 --report json:shards/3.json
"""

_MERGE_EPILOG = """\
what it checks:
  Every REPORT must be what `recspec check --json` or --report json: writes,
  with the same report_schema and recspec version as this recspec. Shards
  (check --shard K/N) must come from the same command line (PATH arguments,
  --format, --variant, --profile, cross-check options), have walked the same
  files, and be all N of them, each once; the error says what differs. Reports
  of whole runs (no --shard) are combined in the order given.

order and result:
  Shards' files are put back in the unsharded run's order: each shard report
  records every file's position in the sorted walk of the PATH arguments. The
  merged run is the unsharded run's result: its reports are byte-identical to
  those of one `recspec check` over all the files, and the exit code follows
  the same rule. Run merge in the folder the checks ran in: report paths are
  as named on the command line, the HTML report reads its hex windows from the
  checked files, and --expectations names files relative to its own folder.

known deviations:
  --expectations FILE judges the merged run against FILE (the shards need not
  have used it); without it, the shards' own expectation results are combined
  (they must all name the same file). --update-expectations rewrites FILE.

exit codes:
  0  every file is valid, or fails only by known deviations
  1  at least one file fails, or an expectation is stale
  2  usage or I/O error: a report that is missing, not JSON, not a recspec
     report, or does not belong with the others; a report that cannot be written

examples:
  recspec merge shard-*.json --report junit:junit.xml --report sarif:recspec.sarif
  recspec merge shards/*.json --json > recspec.json
  recspec merge shards/*.json --expectations writer-expectations.json --report html:recspec.html
"""


class _Paragraph(str):
    """A subcommand's description, to be wrapped when its help is shown (:meth:`_Formatter.paragraph`)."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs keep their line breaks as written, but for a :meth:`paragraph`, wrapped to 78
    columns when the help is shown. The parser is built for every command: wrapping its descriptions then
    imported textwrap and filled a dozen paragraphs (about 1.5 ms) in every run, help or not."""

    @staticmethod
    def paragraph(text: str) -> str:
        return _Paragraph(text)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if isinstance(text, _Paragraph):
            import textwrap

            text = textwrap.fill(text, width=78)
        return super()._fill_text(text, width, indent)


_d = _Formatter.paragraph


def _parser() -> argparse.ArgumentParser:
    formats = ", ".join(FORMATS)
    p = argparse.ArgumentParser(
        prog="recspec",
        formatter_class=_Formatter,
        description=(
            "Conformance checking, round-trip and fuzz testing for recording formats.\n"
            f"Formats: {formats}.\n\n"
            "Start with `recspec check FILE`; `recspec rules` lists what is checked and\n"
            "`recspec explain RULE` says why."
        ),
    )
    p.add_argument("--version", action="version", version=f"recspec {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    c = sub.add_parser("check", help="check files against their format's rules", formatter_class=_Formatter,
                       description=_d("Check recordings and report a verdict per file, with every finding's rule id, "
                                   "byte offset and structural path."),
                       epilog=_CHECK_EPILOG.format(cross_check=_cross_check_section()))
    c.add_argument("paths", nargs="+", metavar="PATH",
                   help="files or folders (folders recursively); - reads standard input")
    c.add_argument("--format", help=f"force the format ({formats})")
    c.add_argument("--variant", help="force the variant (see `recspec rules FORMAT` for the list)")
    c.add_argument("--profile", help="the profile that drives the exit code: spec (the document, default) or compat "
                                     "(what the real readers accept); both verdicts are always reported")
    c.add_argument("--json", action="store_true",
                   help="print the JSON report (the documented contract) instead of a table")
    c.add_argument("--report", action="append", type=_report_arg, default=[], metavar="FORMAT:PATH",
                   help=f"also write a report: {', '.join(RENDERERS)} (repeatable; PATH '-' is stdout)")
    c.add_argument("--expectations", metavar="FILE",
                   help="known deviations: the listed rules do not fail the run, a stale entry does")
    c.add_argument("--update-expectations", action="store_true",
                   help="rewrite the --expectations FILE from this run (keeps the reasons already written; a new "
                        "entry gets a TODO reason, which fails the run until it is replaced)")
    c.add_argument("-j", "--jobs", type=_jobs_arg, default=1, metavar="N",
                   help="check N files at a time in worker processes (0: one per CPU; default 1, in-process)")
    c.add_argument("--timeout", type=_seconds_arg, default=None, metavar="SECONDS",
                   help=f"per-file time limit in a worker (default {DEFAULT_FILE_TIMEOUT:g} with -j N > 1; "
                        "with -j 1 it runs the check in one worker process)")
    c.add_argument("--cross-check", dest="cross_check", type=_cross_check_mode, default=True, metavar="MODE",
                   help="the second reading by the Kaitai parser: default (a sample of a long file's units where "
                        "the format samples, so that it at most about doubles the check's time, and a sample of the "
                        "files in a run of more than 256; see below), full (every byte of every file), off")
    c.add_argument("--no-cross-check", dest="cross_check", action="store_false",
                   help="skip the second reading by the Kaitai parser (same as --cross-check off)")
    c.add_argument("--cross-check-limit", type=_size_arg, default=None, metavar="BYTES",
                   help="cross-check only files up to this size (default per format: "
                        f"{_cross_check_defaults()}; suffixes K, M, G)")
    c.add_argument("--no-pictures", dest="pictures", action="store_false",
                   help="leave the pictures of the recordings out of the HTML report (smaller, text only)")
    c.add_argument("--stream-limit", type=_size_arg, default=MAX_STREAM_SIZE, metavar="BYTES",
                   help="read a FIFO or device named on the command line up to this size, then refuse it "
                        "(default 1G; suffixes K, M, G)")
    c.add_argument("--verbose", "-v", action="store_true",
                   help="also list the folder members that were passed over: files no format claims "
                        "(unclaimed) and FIFOs, sockets, devices (not regular); both are always counted")
    c.add_argument("--all-findings", action="store_true",
                   help=f"list every finding in the table (default: the first {TABLE_FINDINGS_PER_RULE} of each "
                        "rule per file, then a count; --json and the reports always have them all)")
    c.add_argument("--shard", type=_shard_arg, default=None, metavar="K/N",
                   help="check only shard K of N (1 <= K <= N) of the files, split by a hash of each file's path "
                        "relative to its PATH argument; see 'many machines' below")
    c.set_defaults(func=_cmd_check)

    m = sub.add_parser("merge", help="combine the JSON reports of shards (or runs) into one run's reports",
                       formatter_class=_Formatter,
                       description=_d("Read the JSON reports of `recspec check --shard K/N` runs (or of whole runs) "
                                      "and write the reports of the combined run, as one `recspec check` over all "
                                      "the files would have."), epilog=_MERGE_EPILOG)
    m.add_argument("reports", nargs="+", metavar="REPORT.json", help="JSON reports written by recspec check")
    m.add_argument("--json", action="store_true", help="print the merged JSON report instead of a table")
    m.add_argument("--report", action="append", type=_report_arg, default=[], metavar="FORMAT:PATH",
                   help=f"write a report of the merged run: {', '.join(RENDERERS)} (repeatable; PATH '-' is stdout)")
    m.add_argument("--expectations", metavar="FILE",
                   help="judge the merged run against these known deviations (as check --expectations does)")
    m.add_argument("--update-expectations", action="store_true",
                   help="rewrite the --expectations FILE from the merged run (keeps the reasons already written)")
    m.add_argument("--all-findings", action="store_true", help="list every finding in the table")
    m.add_argument("--verbose", "-v", action="store_true",
                   help="also list the folder members the runs passed over (unclaimed, not regular)")
    m.set_defaults(func=_cmd_merge)

    d = sub.add_parser("dump", help="print the decoded structure as JSON with byte offsets",
                       formatter_class=_Formatter,
                       description=_d("Decode FILE with the reference decoder and print it as JSON, one packet or "
                                   "record per line, with byte offsets. --ksy prints the Kaitai parse tree instead."),
                       epilog="example:\n  recspec dump run1.log | head\n  recspec dump --ksy run1.log > tree.json")
    d.add_argument("file", metavar="FILE", help="the recording ('-': standard input, read as a stream)")
    d.add_argument("--format", help="force the format")
    d.add_argument("--variant", help="force the variant")
    d.add_argument("--ksy", action="store_true", help="dump the Kaitai parse tree (with _debug offsets)")
    d.set_defaults(func=_cmd_dump)

    r = sub.add_parser("rules", help="list the rule catalog", formatter_class=_Formatter,
                       description=_d("List every rule: id, level under each profile, title."),
                       epilog="example:\n  recspec rules carla\n  recspec rules --json")
    r.add_argument("format", nargs="?", metavar="FORMAT")
    r.add_argument("--json", action="store_true", help="machine-readable catalog")
    r.set_defaults(func=_cmd_rules)

    e = sub.add_parser("explain", help="print one rule in full", formatter_class=_Formatter,
                       description=_d("Print a rule: its title, the spec clause it enforces, its level per profile, "
                                   "what it means and where the document is wrong. The clause names the "
                                   "document by its path in recspec's repository (docs/formats/...); the "
                                   "'document:' line gives the same file where this recspec is installed "
                                   "(inside the installed package), to open it without a checkout."),
                       epilog="example:\n  recspec explain CARLA-FRAME-004")
    e.add_argument("rule", metavar="RULE")
    e.set_defaults(func=_cmd_explain)

    fz = sub.add_parser("fuzz", help="run an atheris fuzzing campaign, merge its corpus, triage crashes",
                        formatter_class=_Formatter,
                        description=_d("Fuzz the reference decoder (ref), the Kaitai parser (ksy) or both against each "
                                    "other (diff), seeded from corpus/FORMAT/. Every crash is saved once per "
                                    "signature (exception type, innermost recspec frame, rule), minimised, with a "
                                    "JSON of what it broke and how to replay it: under corpus/FORMAT/regressions/ "
                                    "in a checkout, or in --out. One progress line on stderr (execs/s, coverage, "
                                    "corpus size, crashes); --verbose shows libFuzzer's whole log."),
                        epilog="examples:\n  recspec fuzz carla --target diff --time 60\n"
                               "  recspec fuzz carla --target ref --variant 0.9.15 --jobs 2 --time 3600 --merge\n"
                               "  recspec fuzz carla --out crashes/ --time 600\n"
                               "  recspec fuzz carla --triage artifacts/   # group downloaded crashes by signature")
    fz.add_argument("format", metavar="FORMAT")
    fz.add_argument("--target", choices=("ref", "ksy", "diff"), default=None,
                    help="what to fuzz (default diff; with --triage: the target each input names, else all)")
    fz.add_argument("--time", type=int, default=60, metavar="SECONDS", help="campaign length (default 60)")
    fz.add_argument("--runs", type=int, default=0, metavar="N",
                    help="stop after about N executions in all (--time still caps the campaign)")
    fz.add_argument("--out", type=Path, help="where to save crashes (default corpus/FORMAT/regressions in a checkout)")
    fz.add_argument("--seed", type=int, default=0, help="libFuzzer seed (0: random)")
    fz.add_argument("--max-len", type=int, default=65536, help="largest input to try (default 65536)")
    fz.add_argument("--variant", help="read every input under this variant instead of detecting it per input "
                                      "(`recspec rules FORMAT` lists its variants): faster")
    fz.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="run N libFuzzer processes sharing one corpus (default 1)")
    fz.add_argument("--merge", nargs="?", const=True, default=None, type=Path, metavar="DIR",
                    help="afterwards, minimise the grown corpus together with DIR's inputs into DIR "
                         "(default corpus/FORMAT/fuzz/, which seeds later campaigns)")
    fz.add_argument("--triage", type=Path, metavar="DIR",
                    help="run no campaign: group the crashes in DIR (or one file) by signature")
    fz.add_argument("-v", "--verbose", action="store_true", help="libFuzzer's whole log instead of the progress line")
    fz.set_defaults(func=_cmd_fuzz)

    rp = sub.add_parser("reproduce", help="replay a crash or regression file through both parsers",
                        formatter_class=_Formatter,
                        description=_d("Run FILE through the reference decoder and the Kaitai parser and print where "
                                    "they diverge: rule, offset, structural path and a hex window."),
                        epilog="example:\n  recspec reproduce corpus/carla/regressions/crash-1a2b3c.log")
    rp.add_argument("file", metavar="FILE")
    rp.add_argument("--format", help="force the format")
    rp.add_argument("--variant", help="force the variant")
    rp.set_defaults(func=_cmd_reproduce)

    co = sub.add_parser("corpus", help="check the bundled corpus against its manifest, or export it as test vectors",
                        formatter_class=_Formatter,
                        description=_d("Check every file of the bundled seed corpus and compare each verdict and rule "
                                    "id with the manifest's expectations. This is recspec's main self-test.\n\n"
                                    "`recspec corpus export DIR` instead writes the corpus as test vectors that a "
                                    "reader or writer in any language can run without Python: each file, a JSON "
                                    "sidecar FILE.json beside it (its expected case where it decodes, its verdict "
                                    "and rule ids per profile) and DIR/manifest.json listing them "
                                    "(recspec/schemas/vectors-1.schema.json; docs/testees/vectors.md)."),
                        epilog="example:\n  recspec corpus\n  recspec corpus --format carla --verbose\n"
                               "  recspec corpus export vectors/ --format nanover")
    co.add_argument("action", nargs="?", choices=["export"], help="export: write the test vectors to DIR")
    co.add_argument("out", nargs="?", metavar="DIR", type=Path,
                    help="with export: the folder to write (created; or empty, or a previous export, which is "
                         "replaced)")
    co.add_argument("--format", help="only this format")
    co.add_argument("--dir", type=Path, help="corpus folder (default: the bundled one)")
    co.add_argument("--verbose", "-v", action="store_true", help="one line per file")
    co.set_defaults(func=_cmd_corpus)

    en = sub.add_parser("encode", help="write the file a case describes, by the reference encoder",
                        formatter_class=_Formatter,
                        description=_d("Read CASE.json (a case: what `recspec case FILE` prints; the schema is "
                                       "recspec/schemas/case-2.schema.json) and write the file it describes with the "
                                       "reference encoder: the golden file for content you choose. A lossless case "
                                       "gives back the bytes it was read from; a detail left out (NaN bits, NanoVer "
                                       "map order, Matrix-SMT form, tar mtime) means the canonical encoding. A case "
                                       "the format cannot hold is refused with its JSON path and why (exit 2), as "
                                       "`recspec drive` refuses it."),
                        epilog="examples:\n  recspec case corpus/real/hello_vel.traj > case.json\n"
                               "  recspec encode case.json -o again.traj      # the same bytes\n"
                               "  recspec encode --format raskat-signal --variant v3 mine.json -o golden.sig\n"
                               "  recspec encode --profile compat scene.json -o scene.bson")
    en.add_argument("case", metavar="CASE.json", help="the case ('-': standard input)")
    en.add_argument("-o", "--output", metavar="FILE", type=Path,
                    help="where to write (default: standard output, unless it is a terminal)")
    en.add_argument("--format", help="the format, where the case does not name it (else it must agree)")
    en.add_argument("--variant", help="the variant, where the case does not name it (else it must agree)")
    en.add_argument("--profile", help="Matrix-SMT: spec or compat (default: the case's form, else spec)")
    en.set_defaults(func=_cmd_encode)

    from .drive._cli import add_case_parser, add_drive_parser

    add_drive_parser(sub, _Formatter, _report_arg, _seconds_arg)
    add_case_parser(sub, _Formatter)
    return p


def _size_text(n: int) -> str:
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def _cross_check_mode(text: str) -> bool | str:
    """--cross-check MODE: True (the default, sampled where a format samples), "full" or False."""
    if text not in CROSS_CHECK_MODES:
        raise argparse.ArgumentTypeError(f"{text!r} is not a cross-check mode; choose default, full or off")
    return CROSS_CHECK_MODES[text]


def _cross_check_section() -> str:
    """The epilog's cross-check paragraph: every registered format's default limit and why."""
    lines = ["the Kaitai cross-check:",
             "  Every file is read a second time by the parser generated from the format's",
             "  Kaitai spec, up to a size per format (--cross-check-limit to change it,",
             "  --cross-check off to skip it; the report's evidence says what ran). Where",
             "  a format's line below says so, the default reads a sample of a long file's",
             "  units (packets, records, frames), chosen by a hash of the unit's index, so",
             "  that a check with its cross-check takes about twice the check alone or",
             "  less. A run of more than 256 files (the whole walk) cross-checks about 1",
             "  file in 16, chosen by a hash of its path, and every malformed file, in",
             "  every format; the others' evidence says 'sampled: not run', the",
             "  summary counts them. A file named alone is read in full; --cross-check",
             "  full reads every byte of every file.",
             "  Limits per format:"]
    for info in FORMATS.values():
        lines.append(f"  {info.id:<14} {_size_text(info.cross_check_limit):>4}  {info.cross_check_note}")
    return "\n".join(lines) + "\n"


def _cross_check_defaults() -> str:
    """Each format's default cross-check limit, from the registry."""
    return ", ".join(f"{info.id} {_size_text(info.cross_check_limit)}" for info in FORMATS.values())


def _report_arg(text: str) -> tuple[str, str]:
    fmt, sep, path = text.partition(":")
    fmt = fmt.strip().lower()
    if not sep or not path:
        raise argparse.ArgumentTypeError(f"expected FORMAT:PATH, got {text!r} (example: junit:reports/recspec.xml)")
    if fmt not in RENDERERS:
        import difflib

        close = difflib.get_close_matches(fmt, list(RENDERERS), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise argparse.ArgumentTypeError(f"unknown report format {fmt!r}; {hint}choose one of {', '.join(RENDERERS)}")
    return fmt, path


def _shard_arg(text: str) -> Shard:
    from .shard import shard_arg  # see the TYPE_CHECKING import at the top

    return shard_arg(text)


def _jobs_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of jobs: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("jobs must be 0 (one per CPU) or more")
    return n or (os.cpu_count() or 1)


def _seconds_arg(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not t > 0:
        raise argparse.ArgumentTypeError("the time limit must be more than 0 seconds")
    return t


def _size_arg(text: str) -> int:
    units = {"k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}
    t = text.strip().lower()
    try:
        if t and t[-1] in units:
            return int(float(t[:-1]) * units[t[-1]])
        return int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (examples: 1000000, 64M, 1G)") from None


# --- check ---------------------------------------------------------------------


def _table_per_rule(args: argparse.Namespace) -> int | None:
    """How many findings of a rule the table lists per file (None: every stored one)."""
    return None if args.all_findings else TABLE_FINDINGS_PER_RULE


def _report_on_stdout(args: argparse.Namespace) -> list[str]:
    """The reports asked for on standard output (``--json``, ``--report FORMAT:-``)."""
    return [kind for kind, path in args.report if path == "-"] + (["--json"] if args.json else [])


def _one_report_on_stdout(args: argparse.Namespace) -> None:
    """Standard output holds one report alone (and then no table), so that it can be piped."""
    to_stdout = _report_on_stdout(args)
    if len(to_stdout) > 1:
        raise UsageError(f"only one report can go to standard output ({', '.join(to_stdout)} were asked for)",
                         "write the others to files: --report FORMAT:PATH")


def _report_options(args: argparse.Namespace) -> Expectations | None:
    """What `check` and `merge` verify before they read anything: the expectations options, that every
    ``--report`` folder exists and that one report at most goes to standard output; the expectations loaded."""
    if args.update_expectations and not args.expectations:
        raise UsageError("--update-expectations needs --expectations FILE", "the file is created if it does not exist")
    expectations = None
    if args.expectations:
        from .expectations import load_expectations  # here: see the TYPE_CHECKING import at the top

        expectations = load_expectations(args.expectations, missing_ok=args.update_expectations)
    for kind, path in args.report:  # fail before the run, not after it
        folder = Path(path).parent
        if path != "-" and not folder.is_dir():
            raise UsageError(f"--report {kind}:{path}: folder {folder} does not exist")
    _one_report_on_stdout(args)
    return expectations


def _judge_expectations(args: argparse.Namespace, report: Report, expectations: Expectations | None,
                        err: TextIO) -> None:
    """Apply the known deviations to ``report`` (first rewriting the file with ``--update-expectations``)."""
    if expectations is None:
        return
    from .expectations import apply_expectations, unexplained, update_expectations  # loaded already (_report_options)

    if args.update_expectations:
        from .render import write_report  # here: see _write_reports

        expectations = update_expectations(report, expectations)
        write_report(expectations.path, expectations.to_text())
        todo = sum(unexplained(why) for listed in expectations.files.values() for why in listed.values())
        err.write(f"recspec: wrote {args.expectations} ({sum(len(v) for v in expectations.files.values())} "
                  f"known deviations in {len(expectations.files)} files"
                  + (f"; {todo} without a reason: write each one in place of the TODO, the run fails until then"
                     if todo else "") + ")\n")
    apply_expectations(report, expectations, name=args.expectations)


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .pipeline import check_files  # see the TYPE_CHECKING import at the top
    from .shard import select as select_files

    fmt = resolve_format(args.format) if args.format else None
    if args.variant and fmt is None:
        raise UsageError("--variant needs --format", "example: --format carla --variant 0.9.15")
    if fmt is not None:
        fmt.check_variant(args.variant)
        fmt.check_profile(args.profile)
    elif args.profile is not None and args.profile not in {p for info in FORMATS.values() for p in info.profiles}:
        # checked before the run, so a bad --profile is an error even when no file is recognised
        raise UsageError(f"no profile {args.profile!r}", f"choose one of: {', '.join(PROFILES)}")
    expectations = _report_options(args)
    options = RunOptions(fmt=fmt, variant=args.variant, profile=args.profile, cross_check=args.cross_check,
                         cross_check_limit=args.cross_check_limit, stream_limit=args.stream_limit,
                         # the walk collects what the pictures draw only when an HTML report will draw them
                         collect_traces=args.pictures and any(kind == "html" for kind, _ in args.report),
                         jobs=args.jobs, timeout=args.timeout)
    # -j N plans its batches by size: the walk's look at each file gives it (not in a shard: it keeps a part)
    sizes = array("q") if options.in_workers and args.shard is None else None
    walk = select_files(args.paths, args.shard, sizes=sizes)
    walked = walk.walked
    options = options.of_run(walked)  # the run's size, the same in every shard
    if walk.selection is not None:
        err.write(f"recspec: shard {args.shard}: {len(walk.files)} of the {walked} files found\n")
    progress = _Progress(err)
    # the file reports go to disk as they come (recspec/spool.py): the run's memory does not grow with its files
    with walk.files, Spool() as spool:
        # each file's table entry is made as its report is stored (by the worker with -j N) when the table
        # will show the reports unchanged (--expectations rewrites them first; a report on stdout replaces it)
        entry = (EntryMaker(_table_per_rule(args)) if expectations is None and not _report_on_stdout(args)
                 else None)
        run = check_files(walk.files, options, walk_errors=walk.errors, not_regular=walk.not_regular,
                          progress=progress, into=spool, sizes=sizes, entry=entry)
        progress.done()
        report = run.report
        try:
            return _check_done(args, report, run.errors, expectations, walk.selection, walked, out, err)
        finally:
            if isinstance(report.files, Spool):
                report.files.close()  # a spool rewritten by the expectations


def _check_done(args: argparse.Namespace, report: Report, io_errors: list[str], expectations: Expectations | None,
                selection: ShardSelection | None, walked: int, out: TextIO, err: TextIO) -> int:
    """The end of `recspec check`: expectations, the table, the reports and the exit code."""
    _judge_expectations(args, report, expectations, err)
    if selection is not None:
        from .shard import shard_section

        report.shard = shard_section(selection, args, (fr.path for fr in report.files))
    if args.json:
        out.writelines(render_pieces("json", report))
    elif not _report_on_stdout(args) and (report.files or report.unclaimed or report.not_regular or not io_errors):
        # the table, unless a report goes to stdout (which then holds that report alone), or nothing was
        # checked because the paths could not be read (the errors below say so; no empty table first)
        _print_table(report, out, per_rule=_table_per_rule(args), verbose=args.verbose)
    if args.report:
        _write_reports(args.report, report, RenderContext(report, pictures=args.pictures), out, io_errors)
    for msg in io_errors:
        err.write(f"recspec: {msg}\n")
    if io_errors:
        return EXIT_USAGE
    if not report.files and (selection is None or not walked):  # a shard may well get no file
        err.write("recspec: no recognised files to check\n")
        return EXIT_USAGE
    return EXIT_OK if report.ok else EXIT_FAIL


def _cmd_merge(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .merge import merge_reports

    expectations = _report_options(args)
    report = merge_reports(args.reports, rejudge=expectations is not None)
    try:
        return _merge_done(args, report, expectations, out, err)
    finally:
        if isinstance(report.files, Spool):
            report.files.close()


def _merge_done(args: argparse.Namespace, report: Report, expectations: Expectations | None, out: TextIO,
                err: TextIO) -> int:
    """The end of `recspec merge`: expectations, the table, the reports and the exit code."""
    _judge_expectations(args, report, expectations, err)
    if args.json:
        out.writelines(render_pieces("json", report))
    elif not _report_on_stdout(args):
        _print_table(report, out, per_rule=_table_per_rule(args), verbose=args.verbose)
    io_errors: list[str] = []
    # no pictures: the JSON reports do not carry the traces they are drawn from
    _write_reports(args.report, report, RenderContext(report, pictures=False), out, io_errors)
    for msg in io_errors:
        err.write(f"recspec: {msg}\n")
    if io_errors:
        return EXIT_USAGE
    if not report.files:
        err.write("recspec: the reports hold no files\n")
        return EXIT_USAGE
    return EXIT_OK if report.ok else EXIT_FAIL


def _write_reports(reports: Sequence[tuple[str, str]], report: Report, ctx: RenderContext, out: TextIO,
                   io_errors: list[str]) -> None:
    """Each ``--report FORMAT:PATH``, written as its renderer makes it, piece by piece; a renderer's
    failure (a recspec bug) leaves no half-written report and costs no other report."""
    from .render import write_report  # here: a run that writes no report file does not load the writers

    for kind, path in reports:
        try:
            text = render_pieces(kind, report, ctx)
            if path == "-":
                out.writelines(t.encode("utf-8", "backslashreplace").decode("utf-8") for t in text)
                out.flush()
            else:
                write_report(path, text)
        except OSError as e:
            io_errors.append(f"--report {kind}:{path}: {e.strerror or e}")
        except Exception as e:  # noqa: BLE001 - a renderer's bug must not cost the other reports
            io_errors.append(f"--report {kind}:{path}: not written: internal error in the {kind} renderer "
                             f"({type(e).__name__}: {e}); this is a recspec bug, please report it")


class _Progress:
    """A progress bar on a terminal: files done of the total, and inside a big file (serial runs)
    the bytes read. Silent when stderr is not a terminal (CI logs) or CI is set."""

    WIDTH = 30
    #: Redraw at most this often between files: a folder of 100,000 small files
    #: would otherwise spend more time drawing the line than checking.
    INTERVAL_S = 0.05

    def __init__(self, err: TextIO, total: int = 0) -> None:
        self.err = err
        self.enabled = bool(getattr(err, "isatty", lambda: False)()) and not os.environ.get("CI")
        self.total = total
        self.n = 0
        self.path: Path | str | None = None
        self._drawn = float("-inf")
        self._drawn = float("-inf")

    def start(self, total: int) -> None:
        self.total = total

    def within_file(self) -> Progress | None:
        return self.bytes if self.enabled else None

    def _bar(self, done: int, total: int) -> str:
        filled = self.WIDTH * done // total if total else 0
        return f"[{'#' * filled}{'.' * (self.WIDTH - filled)}]"

    @property
    def label(self) -> str:
        text = str(self.path or "")
        text = text if len(text) <= 50 else "..." + text[-47:]
        count = f"{self.n}/{self.total}" if self.total else str(self.n)
        return f"{self._bar(self.n, self.total)} {count} {text}"

    def step(self, path: Path | str) -> None:
        self.steps(1, path)

    def steps(self, n: int, path: Path | str) -> None:
        """``n`` more files, ``path`` the last (a worker's batch)."""
        self.n += n
        self.path = path
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= self.INTERVAL_S or self.n == self.total):
            self._drawn = now
            self.err.write(f"\r\x1b[2K{self.label}")
            self.err.flush()

    def bytes(self, done: int, total: int, phase: str = "check") -> None:
        """Progress inside one big file: the reference pass, then the Kaitai cross-check."""
        if self.enabled and total:
            self.err.write(f"\r\x1b[2K{self.label} {phase} {100 * done // total}% of {total / 1e6:.0f} MB")
            self.err.flush()

    def done(self) -> None:
        if self.enabled and self.n:
            self.err.write("\r\x1b[2K")
            self.err.flush()


# --- other commands --------------------------------------------------------------------


def _open_for(path_text: str, fmt_name: str | None, variant: str | None) -> tuple[Path, FormatInfo]:
    from .pipeline import named_input  # see the TYPE_CHECKING import at the top

    path = Path(path_text)
    if named_input(path_text) != path_text:
        raise InputError(f"{path_text}: reproduce reads its file more than once, so it takes no standard input; "
                         "save it to a file first", path_text)
    if not path.exists():
        raise InputError(f"{path_text}: no such file", path_text)
    if path.is_dir():
        raise InputError(f"{path_text}: is a folder; this command takes one file", path_text)
    if not path.is_file():  # a FIFO or device: reproduce reads the file more than once
        raise InputError(f"{path_text}: not a regular file (a pipe or device); save it to a file first", path_text)
    if fmt_name:
        info = resolve_format(fmt_name)
    else:
        with open(path, "rb") as f:
            info_or_none, _ = sniff(f.read(SNIFF_BYTES), path)
        if info_or_none is None:
            info_or_none = by_extension(path)
        if info_or_none is None:
            raise UsageError(f"{path_text}: no known format recognises this file", "force one with --format")
        info = info_or_none
    info.check_variant(variant)
    return path, info


def _cmd_dump(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .api import dump
    from .pipeline import named_input

    dump(named_input(args.file), out, format=args.format, variant=args.variant, ksy=args.ksy)
    return EXIT_OK


def _cmd_rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    pairs = all_rules(args.format)
    if args.json:
        import json  # here: `--help` and the table of `rules` print no JSON

        json.dump([{"format": info.id, "id": r.id, "title": r.title, "clause": r.clause,
                    "levels": {k: v.value for k, v in r.levels.items()}, "structural": r.structural,
                    "source": r.source, "explanation": r.explanation, "deviation": r.deviation}
                   for info, r in pairs], out, indent=2)
        out.write("\n")
        return EXIT_OK
    width = max(len(r.id) for _, r in pairs)
    out.write(f"{'RULE'.ljust(width)}  {'SPEC':7}  {'COMPAT':7}  TITLE\n")
    for _info, r in pairs:
        out.write(f"{r.id.ljust(width)}  {r.level('spec').value:7}  {r.level('compat').value:7}  {r.title}"
                  f"{'  [structural]' if r.structural else ''}{'  [recspec policy]' if r.policy else ''}\n")
    out.write(f"\n{len(pairs)} rules. `recspec explain RULE` prints one in full.\n")
    return EXIT_OK


def _cmd_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    want = args.rule.upper()
    pairs = all_rules(None)
    for info, r in pairs:
        if r.id == want:
            out.write(explain_text(info, r, document=installed_document(r)))
            return EXIT_OK
    import difflib

    close = difflib.get_close_matches(want, [r.id for _, r in pairs], n=3)
    raise UsageError(f"no rule {args.rule!r}", f"did you mean {', '.join(close)}?" if close else "see `recspec rules`")


def _cmd_fuzz(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    info = resolve_format(args.format)
    if args.triage is not None:
        from .fuzz import triage

        return triage(info.id, args.triage, target=args.target, variant=args.variant, out=out, err=err)
    from .fuzz import run_campaign

    merge_into = args.merge if isinstance(args.merge, Path) else None
    return run_campaign(info.id, target=args.target or "diff", seconds=args.time, out_dir=args.out, seed=args.seed,
                        max_len=args.max_len, stdout=out, stderr=err, variant=args.variant, jobs=args.jobs,
                        runs=args.runs, merge=args.merge is not None, merge_into=merge_into, verbose=args.verbose)


def _cmd_reproduce(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    path, info = _open_for(args.file, args.format, args.variant)
    from .reproduce import reproduce

    return reproduce(path, info, variant=args.variant, out=out)


def _cmd_corpus(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    infos = [resolve_format(args.format)] if args.format else list(FORMATS.values())
    if args.action == "export":
        if args.out is None:
            raise UsageError("recspec corpus export needs the folder to write", "recspec corpus export DIR")
        from .vectors import export_vectors

        manifest = export_vectors(infos, args.out, corpus_dir=args.dir)
        out.write(f"wrote {len(manifest['vectors'])} test vectors to {args.out} "
                  f"({sum(1 for v in manifest['vectors'] if v['has_case'])} with a case)\n")
        return EXIT_OK
    if args.out is not None:
        raise UsageError(f"unexpected argument {str(args.out)!r}", "recspec corpus export DIR")
    from .corpus_check import verify_corpus

    return verify_corpus(infos, corpus_dir=args.dir, verbose=args.verbose, out=out, err=err)


def _cmd_encode(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json  # see _cmd_rules

    from .case_encode import encode_case, read_case

    if args.case == "-":
        try:
            case = json.load(sys.stdin)
        except json.JSONDecodeError as e:
            raise UsageError(f"standard input is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    else:
        case = read_case(Path(args.case))
    data = encode_case(case, format=args.format, variant=args.variant, profile=args.profile)
    if args.output is None:
        if out.isatty():
            raise UsageError("the file is binary: not written to a terminal", "write it with -o FILE, or redirect")
        out.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return EXIT_OK
    try:
        args.output.write_bytes(data)
    except OSError as e:
        raise UsageError(f"cannot write {args.output}: {e.strerror}") from None
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    out, err = sys.stdout, sys.stderr
    try:
        return int(args.func(args, out, err))
    except DecodeError as e:
        # dump stops where the bytes stop being the format: say where, after what it printed
        err.write(f"recspec {args.command}: {e.rule}: {e}\n")
        return e.exit_code
    except InternalError as e:
        err.write(f"recspec {args.command}: internal error (a bug in recspec, please report it): {e}\n")
        return e.exit_code
    except RecspecError as e:
        err.write(f"recspec {args.command}: {e}\n")
        return e.exit_code
    except BrokenPipeError:
        # `recspec dump big.log | head`: the reader left; exit quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        err.write("recspec: interrupted\n")
        return 130
    except OSError as e:
        if e.errno == errno.EPIPE:
            return EXIT_OK
        err.write(f"recspec {args.command}: {e}\n")
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
