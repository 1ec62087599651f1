"""The ``recspec`` command line.

Exit codes (all commands): 0 success / every file valid; 1 at least one file
is not valid (an error-level finding or worse), or a fuzz campaign found a
crash, or a reproduction diverges; 2 usage or I/O errors. recspec never shows a
traceback for bad input: a file it cannot read is reported and the run goes on.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TextIO

from . import __version__
from .errors import RecspecError, UsageError
from .catalog import all_rules, explain_text
from .formats import FORMATS, SNIFF_BYTES, FormatInfo, by_extension, resolve_format, sniff
from .report import CORE_RULES, FileReport, Finding, Report, Severity, Verdict

__all__ = ["main"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

_CHECK_EPILOG = """\
how the format is chosen:
  The content decides (the magic and structure of the first bytes); the file
  extension is only a hint. --format forces a format, --variant a variant
  (otherwise recspec detects it and says why in the report's evidence).

folders:
  A folder is checked recursively, in sorted order. Files in a folder that no
  format recognises (by content or extension) are skipped; a file named on
  the command line is always reported, as 'unrecognized' if need be.

exit codes:
  0  every file is valid (warnings and info findings allowed)
  1  at least one file is invalid, malformed, unrecognized or crashed recspec
  2  usage or I/O error (a missing path, an unreadable file)

examples:
  recspec check run1.log
  recspec check --json recordings/ > report.json
  recspec check --format carla --variant 0.9.15 --profile compat crash.log
"""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def _d(text: str) -> str:
    """A subcommand description, wrapped (the formatter keeps line breaks as written)."""
    import textwrap

    return textwrap.fill(text, width=78)


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
                                   "byte offset and structural path."), epilog=_CHECK_EPILOG)
    c.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (folders recursively)")
    c.add_argument("--format", help=f"force the format ({formats})")
    c.add_argument("--variant", help="force the variant (see `recspec rules FORMAT` for the list)")
    c.add_argument("--profile", help="rule profile: spec (the document, default) or compat (what real writers do)")
    c.add_argument("--json", action="store_true", help="print the JSON report (the documented contract) instead of a table")
    c.add_argument("--no-cross-check", dest="cross_check", action="store_false",
                   help="skip the second reading by the Kaitai parser (faster on big files)")
    c.add_argument("--cross-check-limit", type=_size_arg, default=None, metavar="BYTES",
                   help="cross-check only files up to this size (default 32M; suffixes K, M, G)")
    c.set_defaults(func=_cmd_check)

    d = sub.add_parser("dump", help="print the decoded structure as JSON with byte offsets",
                       formatter_class=_Formatter,
                       description=_d("Decode FILE with the reference decoder and print it as JSON, one packet or "
                                   "record per line, with byte offsets. --ksy prints the Kaitai parse tree instead."),
                       epilog="example:\n  recspec dump run1.log | head\n  recspec dump --ksy run1.log > tree.json")
    d.add_argument("file", metavar="FILE")
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
                                   "what it means and where the document is wrong."),
                       epilog="example:\n  recspec explain CARLA-FRAME-004")
    e.add_argument("rule", metavar="RULE")
    e.set_defaults(func=_cmd_explain)

    fz = sub.add_parser("fuzz", help="run an atheris fuzzing campaign", formatter_class=_Formatter,
                        description=_d("Fuzz the reference decoder (ref), the Kaitai parser (ksy) or both against each "
                                    "other (diff), seeded from corpus/FORMAT/. Every crash is saved with what it "
                                    "broke: under corpus/FORMAT/regressions/ in a checkout, or in --out."),
                        epilog="example:\n  recspec fuzz carla --target diff --time 60\n"
                               "  recspec fuzz carla --out crashes/ --time 600")
    fz.add_argument("format", metavar="FORMAT")
    fz.add_argument("--target", choices=("ref", "ksy", "diff"), default="diff", help="what to fuzz (default diff)")
    fz.add_argument("--time", type=int, default=60, metavar="SECONDS", help="campaign length (default 60)")
    fz.add_argument("--out", type=Path, help="where to save crashes (default corpus/FORMAT/regressions in a checkout)")
    fz.add_argument("--seed", type=int, default=0, help="libFuzzer seed (0: random)")
    fz.add_argument("--max-len", type=int, default=65536, help="largest input to try (default 65536)")
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

    co = sub.add_parser("corpus", help="check the bundled corpus against its manifest", formatter_class=_Formatter,
                        description=_d("Check every file of the bundled seed corpus and compare each verdict and rule "
                                    "id with the manifest's expectations. This is recspec's main self-test."),
                        epilog="example:\n  recspec corpus\n  recspec corpus --format carla --verbose")
    co.add_argument("--format", help="only this format")
    co.add_argument("--dir", type=Path, help="corpus folder (default: the bundled one)")
    co.add_argument("--verbose", "-v", action="store_true", help="one line per file")
    co.set_defaults(func=_cmd_corpus)
    return p


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


def _iter_files(paths: Sequence[str], errors: list[str]) -> Iterator[tuple[Path, bool]]:
    """(path, named) pairs: named files are always reported; folder members only if recognised."""
    for name in paths:
        p = Path(name)
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for fn in sorted(files):
                    if not fn.startswith("."):
                        yield Path(root) / fn, False
        elif p.exists():
            yield p, True
        else:
            errors.append(f"{name}: no such file or folder")


def check_file(path: Path, *, fmt: FormatInfo | None, variant: str | None, profile: str | None,
               cross_check: bool = True, cross_check_limit: int | None = None, named: bool = True,
               progress: Callable[..., None] | None = None) -> FileReport | None:
    """Check one file; ``None`` for an unrecognised folder member. Never raises for bad input."""
    shown = str(path)
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
            size = os.fstat(f.fileno()).st_size
            info = fmt
            if info is None:
                info, score = sniff(head, path)
                if info is None:
                    if not named:
                        return None
                    guess = by_extension(path)
                    hint = f" (its extension suggests {guess.id}; force it with --format {guess.id})" if guess else ""
                    return FileReport(shown, None, None, profile or "spec", Verdict.UNRECOGNIZED, [Finding(
                        "RECSPEC-UNRECOGNIZED", Severity.ERROR,
                        f"no known format recognises this content{hint}", 0, min(size, 16), "")])
            prof = info.check_profile(profile)
            info.check_variant(variant)
            f.seek(0)
            module = info.load()
            kwargs: dict[str, Any] = {}
            if cross_check_limit is not None:
                kwargs["cross_check_limit"] = cross_check_limit
            if progress is not None:
                kwargs["progress"] = progress
            return module.check(f, path=shown, variant=variant, profile=prof, size=size,
                                cross_check=cross_check, **kwargs)
    except UsageError:
        raise
    except OSError as e:
        raise _IOFailure(f"{shown}: {e.strerror or e}") from None
    except RecspecError as e:
        return FileReport(shown, fmt.id if fmt else None, variant, profile or "spec", Verdict.CRASH, [Finding(
            "RECSPEC-INTERNAL", Severity.ERROR, f"recspec could not finish this file: {e}", None, None, "")])
    except Exception as e:  # a bug in recspec, never the file's fault
        tb = traceback.format_exc(limit=-3).strip().splitlines()[-1]
        return FileReport(shown, fmt.id if fmt else None, variant, profile or "spec", Verdict.CRASH, [Finding(
            "RECSPEC-INTERNAL", Severity.ERROR,
            f"internal error in recspec ({type(e).__name__}: {e}); this is a recspec bug, not a finding about the "
            f"file. Please report it with the file. [{tb}]", None, None, "")])


class _IOFailure(Exception):
    pass


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    fmt = resolve_format(args.format) if args.format else None
    if args.variant and fmt is None:
        raise UsageError("--variant needs --format", "example: --format carla --variant 0.9.15")
    if fmt is not None:
        fmt.check_variant(args.variant)
        fmt.check_profile(args.profile)
    io_errors: list[str] = []
    report = Report()
    progress = _Progress(err)
    for path, named in _iter_files(args.paths, io_errors):
        progress.step(path)
        try:
            fr = check_file(path, fmt=fmt, variant=args.variant, profile=args.profile,
                            cross_check=args.cross_check, cross_check_limit=args.cross_check_limit, named=named,
                            progress=progress.bytes if progress.enabled else None)
        except _IOFailure as e:
            io_errors.append(str(e))
            continue
        if fr is not None:
            report.files.append(fr)
    progress.done()
    if args.json:
        json.dump(report.to_json(), out, indent=2, allow_nan=False)
        out.write("\n")
    else:
        _print_table(report, out)
    for msg in io_errors:
        err.write(f"recspec: {msg}\n")
    if io_errors:
        return EXIT_USAGE
    if not report.files:
        err.write("recspec: no recognised files to check\n")
        return EXIT_USAGE
    return EXIT_OK if report.ok else EXIT_FAIL


class _Progress:
    """A one-line progress display on a terminal; silent when stderr is not a
    terminal (CI logs) or CI is set."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.enabled = bool(getattr(err, "isatty", lambda: False)()) and not os.environ.get("CI")
        self.n = 0
        self.label = ""

    def step(self, path: Path) -> None:
        self.n += 1
        text = str(path)
        self.label = f"[{self.n}] " + (text if len(text) <= 60 else "..." + text[-57:])
        if self.enabled:
            self.err.write(f"\r\x1b[2K{self.label}")
            self.err.flush()

    def bytes(self, done: int, total: int, phase: str = "check") -> None:
        """Progress inside one big file: the reference pass, then the Kaitai cross-check."""
        if self.enabled and total:
            width = 30
            filled = width * done // total
            self.err.write(f"\r\x1b[2K{self.label} {phase} [{'#' * filled}{'.' * (width - filled)}] "
                           f"{100 * done // total}% of {total / 1e6:.0f} MB")
            self.err.flush()

    def done(self) -> None:
        if self.enabled and self.n:
            self.err.write("\r\x1b[2K")
            self.err.flush()


_SEV = {Severity.ERROR: "ERROR", Severity.WARNING: "WARN ", Severity.INFO: "INFO "}


def _print_table(report: Report, out: TextIO) -> None:
    rows = [("FILE", "FORMAT", "VARIANT", "PROFILE", "VERDICT", "E/W/I")]
    for fr in report.files:
        rows.append((fr.path, fr.format or "-", fr.variant or "-", fr.profile, fr.verdict.value,
                     f"{fr.count(Severity.ERROR)}/{fr.count(Severity.WARNING)}/{fr.count(Severity.INFO)}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")
        if i == 0:
            continue
        fr = report.files[i - 1]
        for f in fr.findings:
            where = f"@{f.offset}" if f.offset is not None else ""
            path = f" {f.path}" if f.path else ""
            out.write(f"    {_SEV.get(f.severity, '     ')} {f.rule} {where}{path}: {f.message}\n")
    s = report.summary()
    out.write("\n" + ", ".join(f"{v} {k}" for k, v in s.items()) + "\n")


# --- other commands --------------------------------------------------------------------


def _open_for(path_text: str, fmt_name: str | None, variant: str | None) -> tuple[Path, FormatInfo]:
    path = Path(path_text)
    if not path.is_file():
        raise _IOFailure(f"{path_text}: no such file")
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
    path, info = _open_for(args.file, args.format, args.variant)
    with open(path, "rb") as f:
        info.load().dump(f, out, variant=args.variant, ksy=args.ksy)
    return EXIT_OK


def _cmd_rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    pairs = all_rules(args.format)
    if args.json:
        json.dump([{"format": info.id, "id": r.id, "title": r.title, "clause": r.clause,
                    "levels": {k: v.value for k, v in r.levels.items()}, "structural": r.structural,
                    "explanation": r.explanation, "deviation": r.deviation} for info, r in pairs], out, indent=2)
        out.write("\n")
        return EXIT_OK
    width = max(len(r.id) for _, r in pairs)
    out.write(f"{'RULE'.ljust(width)}  {'SPEC':7}  {'COMPAT':7}  TITLE\n")
    for info, r in pairs:
        out.write(f"{r.id.ljust(width)}  {r.level('spec').value:7}  {r.level('compat').value:7}  {r.title}"
                  f"{'  [structural]' if r.structural else ''}\n")
    out.write(f"\n{len(pairs)} rules. `recspec explain RULE` prints one in full.\n")
    return EXIT_OK


def _cmd_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    want = args.rule.upper()
    pairs = all_rules(None)
    for info, r in pairs:
        if r.id == want:
            out.write(explain_text(info, r))
            return EXIT_OK
    import difflib

    close = difflib.get_close_matches(want, [r.id for _, r in pairs], n=3)
    raise UsageError(f"no rule {args.rule!r}", f"did you mean {', '.join(close)}?" if close else "see `recspec rules`")


def _cmd_fuzz(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    info = resolve_format(args.format)
    from .fuzz import run_campaign

    return run_campaign(info.id, target=args.target, seconds=args.time, out_dir=args.out, seed=args.seed,
                        max_len=args.max_len, stdout=out, stderr=err)


def _cmd_reproduce(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    path, info = _open_for(args.file, args.format, args.variant)
    from .conformance.reproduce import reproduce

    return reproduce(path, info, variant=args.variant, out=out)


def _cmd_corpus(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .conformance.corpus import verify_corpus

    infos = [resolve_format(args.format)] if args.format else list(FORMATS.values())
    return verify_corpus(infos, corpus_dir=args.dir, verbose=args.verbose, out=out, err=err)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    out, err = sys.stdout, sys.stderr
    try:
        return int(args.func(args, out, err))
    except UsageError as e:
        err.write(f"recspec {args.command}: {e}\n")
        return EXIT_USAGE
    except _IOFailure as e:
        err.write(f"recspec {args.command}: {e}\n")
        return EXIT_USAGE
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
