"""Known deviations: which rules a writer's files are expected to break.

An expectations file lists, per file, the rules expected to fail there, each
with a reason::

    {
      "recspec_expectations": 1,
      "files": {
        "out/run1.log": {"CARLA-FRAME-004": "our writer rounds elapsed to ms, see tracker #12"}
      }
    }

Paths are relative to the expectations file's folder, with ``/`` separators,
so the file can live in the writer's repository next to its outputs.

`recspec check --expectations FILE`: a listed rule that fires on its file is a
known deviation (reported, but it does not fail the run); a listed rule that
does not fire, or a listed file that no longer exists, is stale and fails the
run. Listed files that exist but were not part of this run are left alone.
`--update-expectations` rewrites the file from the run: each failing file's
error rules, keeping the reasons already written and giving each new entry the
reason :data:`PLACEHOLDER_REASON`. An entry whose reason is that placeholder or
empty fails the run (a stale expectation, "its reason is not written yet") until
someone writes why the deviation is expected.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ._limits import open_input
from .errors import InputError, UsageError
from .report import FileReport, Report, Severity, StaleExpectation, Verdict
from .spool import Spool

__all__ = ["EXPECTATIONS_SCHEMA", "PLACEHOLDER_REASON", "Expectations", "apply_expectations", "load_expectations",
           "unexplained", "update_expectations"]

EXPECTATIONS_SCHEMA = 1
#: The largest expectations file read (a list of rule ids per file; 64 MiB is millions of entries).
MAX_EXPECTATIONS_SIZE = 64 * 1024 * 1024
_TOP_LEVEL_KEYS = ("recspec_expectations", "files")

_HARNESS = (Verdict.CRASH, Verdict.TIMEOUT)

#: The reason ``--update-expectations`` gives a new entry: the run fails until it is replaced.
PLACEHOLDER_REASON = "TODO: write why this deviation is expected (the run fails until this is replaced)"
#: Why an entry without a reason fails the run (a stale expectation's ``why``).
NO_REASON = "its reason is not written yet"


def unexplained(reason: str) -> bool:
    """Whether an entry's reason still has to be written: empty, or the placeholder left as it was."""
    return not reason.strip() or reason == PLACEHOLDER_REASON


@dataclass
class Expectations:
    path: Path  # the expectations file
    files: dict[str, dict[str, str]] = field(default_factory=dict)  # relative path -> {rule id: reason}

    @property
    def base(self) -> Path:
        return self.path.resolve().parent

    def key(self, checked_path: str) -> str:
        """How this expectations file names a checked file."""
        return Path(os.path.relpath(os.path.abspath(checked_path), self.base)).as_posix()

    def to_text(self) -> str:
        files = {k: dict(sorted(v.items())) for k, v in sorted(self.files.items())}
        return json.dumps({"recspec_expectations": EXPECTATIONS_SCHEMA, "files": files}, indent=2) + "\n"


def load_expectations(path: str | Path, *, missing_ok: bool = False) -> Expectations:
    """Read and check an expectations file; a UsageError saying what is wrong otherwise."""
    p = Path(path)
    if missing_ok and not p.exists():
        return Expectations(p)
    try:
        # a FIFO or device is read as a stream, within the same size limit (recspec/_limits.py)
        with open_input(p, str(path), stream_limit=MAX_EXPECTATIONS_SIZE) as (f, size):
            if size > MAX_EXPECTATIONS_SIZE:
                raise UsageError(f"expectations file {path} is {size} bytes, more than MAX_EXPECTATIONS_SIZE "
                                 f"({MAX_EXPECTATIONS_SIZE} bytes)")
            data = json.loads(f.read(MAX_EXPECTATIONS_SIZE).decode("utf-8"))
    except FileNotFoundError:
        raise UsageError(f"expectations file {path} does not exist",
                         "create it from a run with --update-expectations") from None
    except InputError as e:
        raise UsageError(f"cannot read expectations file: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read expectations file {path}: {e}") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"expectations file {path} is not JSON: {e}") from None
    except RecursionError:
        raise UsageError(f"expectations file {path} nests arrays or objects too deeply to be an expectations file",
                         'expected {"recspec_expectations": 1, "files": {...}}') from None
    example = 'expected {"recspec_expectations": 1, "files": {"out/run1.log": {"RULE-ID": "reason"}}}'
    if not isinstance(data, dict) or data.get("recspec_expectations") != EXPECTATIONS_SCHEMA:
        raise UsageError(f"expectations file {path}: not a version {EXPECTATIONS_SCHEMA} expectations file", example)
    unknown = sorted(set(data) - set(_TOP_LEVEL_KEYS))
    if unknown:
        raise UsageError(f"expectations file {path}: unknown top-level key(s) {', '.join(map(repr, unknown))}; "
                         f"the keys are {', '.join(_TOP_LEVEL_KEYS)}", example)
    files = data.get("files")
    if not isinstance(files, dict) or not all(
            isinstance(k, str) and isinstance(v, dict) and all(isinstance(r, str) and isinstance(why, str)
                                                              for r, why in v.items())
            for k, v in files.items()):
        raise UsageError(f"expectations file {path}: 'files' must map paths to {{rule id: reason}}", example)
    return Expectations(p, {k: dict(v) for k, v in files.items()})


def apply_expectations(report: Report, exp: Expectations, *, name: str) -> None:
    """Mark known deviations on ``report``'s files and record the stale expectations (a run kept
    in a :class:`~recspec.spool.Spool` is written again, marked)."""
    report.expectations = name
    seen: set[str] = set()
    stale: list[StaleExpectation] = []

    def marked(files: Iterable[FileReport]) -> Iterator[FileReport]:
        for fr in files:
            key = exp.key(fr.path)
            listed = exp.files.get(key)
            if listed is not None:
                seen.add(key)
                # a file recspec did not finish (crash, timeout): nothing can be said; it fails anyway
                if fr.verdict not in _HARNESS:
                    occurred = {f.rule for f in fr.findings}
                    fr.known_deviations = {r: why for r, why in listed.items() if r in occurred}
                    stale.extend(StaleExpectation(key, r, why, "it did not occur")
                                 for r, why in listed.items() if r not in occurred)
                    stale.extend(StaleExpectation(key, r, why, NO_REASON)
                                 for r, why in fr.known_deviations.items() if unexplained(why))
            yield fr

    if isinstance(report.files, Spool):
        report.files = report.files.rewrite(marked(report.files))
    else:
        for _ in marked(report.files):
            pass
    for key, listed in exp.files.items():
        if key not in seen and not (exp.base / key).exists():
            stale += [StaleExpectation(key, r, why, "the file no longer exists") for r, why in listed.items()]
    report.stale = sorted(stale, key=lambda s: (s.path, s.rule))


def update_expectations(report: Report, exp: Expectations) -> Expectations:
    """The expectations this run would pass with: every file's error rules, with the reasons kept."""
    files = {k: v for k, v in exp.files.items() if (exp.base / k).exists()}
    for fr in report.files:
        key = exp.key(fr.path)
        if fr.verdict in _HARNESS:
            continue  # keep what was listed; a crash says nothing about the file
        old = exp.files.get(key, {})
        rules = sorted({f.rule for f in fr.findings if f.severity is Severity.ERROR})
        if rules:
            files[key] = {r: old.get(r) or PLACEHOLDER_REASON for r in rules}
        else:
            files.pop(key, None)
    return Expectations(exp.path, files)
