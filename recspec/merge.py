"""`recspec merge`: JSON reports of shards (or of whole runs) read back into one run's :class:`Report`.

The JSON report is the contract (report_schema 1, ``schemas/report-1.schema.json``)
and holds everything the other report formats are rendered from, so a report read
back renders byte for byte as the run that wrote it. Derived fields (each file's
``failed``, the ``summary``) are recomputed, and checked against what the report
says, so a report that was edited or cut short is refused rather than merged.

Shards of one run (``recspec check --shard K/N``) carry a ``shard`` section
(recspec/shard.py). Merging them requires the same PATH arguments and check
options, the same walk (same number of files and digest of their shard keys),
and all N shards, each once; the files are put back in the walk's order by the
position each shard recorded. Whole-run reports (no ``shard`` section) are
concatenated in the order given. Mixing the two is refused.

Every problem is a :class:`~recspec.errors.UsageError` that names the report and
says what differs; nothing here raises anything else for bad input.
"""

from __future__ import annotations

import heapq
import json
import pickle
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NoReturn, TextIO

from ._version import __version__
from .errors import UsageError
from .report import (
    PROFILES,
    REPORT_SCHEMA,
    FileReport,
    Finding,
    ProfileVerdict,
    Report,
    Severity,
    StaleExpectation,
    Tally,
    Verdict,
)
from .spool import Spool

__all__ = ["file_report_from_json", "merge_reports", "read_report"]

_HINT = "merge reads what `recspec check --json` or `--report json:PATH` writes"


class _Bad(Exception):
    """A field of a report that is not what the contract says (caught and named by its report)."""


def _need(obj: dict[str, Any], key: str, types: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise _Bad(f"{where}: '{key}' is missing")
    value = obj[key]
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _tuple(types)):
        raise _Bad(f"{where}: '{key}' is {type(value).__name__} {_short(value)}, not {_names(types)}")
    return value


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _names(types: type | tuple[type, ...]) -> str:
    return " or ".join("null" if t is type(None) else t.__name__ for t in _tuple(types))


def _short(value: Any) -> str:
    text = json.dumps(value)[:40]
    return text


def _finding(obj: Any, where: str) -> Finding:
    if not isinstance(obj, dict):
        raise _Bad(f"{where} is {type(obj).__name__}, not an object")
    severity = _need(obj, "severity", str, where)
    try:
        sev = Severity(severity)
    except ValueError:
        raise _Bad(f"{where}: severity {severity!r} is not one of error, warning, info") from None
    return Finding(_need(obj, "rule", str, where), sev, _need(obj, "message", str, where),
                   _need(obj, "offset", (int, type(None)), where), _need(obj, "length", (int, type(None)), where),
                   _need(obj, "path", str, where), obj.get("expected"), obj.get("actual"))


def _verdict(obj: Any, where: str) -> Verdict:
    try:
        return Verdict(obj)
    except ValueError:
        raise _Bad(f"{where}: verdict {obj!r} is not one of {', '.join(x.value for x in Verdict)}") from None


def _counts(obj: Any, where: str) -> dict[str, int]:
    """A rule id -> count object (``verdicts.*.rules``, ``capped.rules``)."""
    if not isinstance(obj, dict) or not all(isinstance(k, str) and type(n) is int and n >= 1 for k, n in obj.items()):
        raise _Bad(f"{where} must map rule ids to counts of 1 or more")
    return dict(obj)


def _profile_verdicts(obj: Any, where: str) -> dict[str, ProfileVerdict]:
    """A file's ``verdicts`` (every profile's verdict and true counts)."""
    if not isinstance(obj, dict) or not all(p in obj for p in PROFILES):
        raise _Bad(f"{where} must hold the verdict under every profile ({', '.join(PROFILES)})")
    out = {}
    for profile, pv in obj.items():
        w = f"{where}.{profile}"
        if not isinstance(pv, dict):
            raise _Bad(f"{w} is {type(pv).__name__}, not an object")
        out[profile] = ProfileVerdict(_verdict(_need(pv, "verdict", str, w), w), _counts(_need(pv, "rules", dict, w),
                                      f"{w}.rules"), _need(pv, "errors", int, w), _need(pv, "warnings", int, w),
                                      _need(pv, "infos", int, w))
    return out


def _paths(data: dict[str, Any], key: str) -> list[str]:
    """A run's ``unclaimed`` or ``not_regular`` list of paths (absent: none)."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise _Bad(f"'{key}' must be a list of paths")
    return value


def file_report_from_json(obj: Any, where: str = "file") -> FileReport:
    """One entry of a JSON report's ``files`` as the :class:`FileReport` that wrote it."""
    if not isinstance(obj, dict):
        raise _Bad(f"{where} is {type(obj).__name__}, not an object")
    v = _verdict(_need(obj, "verdict", str, where), where)
    findings = _need(obj, "findings", list, where)
    known = obj.get("known_deviations", {})
    if not isinstance(known, dict) or not all(isinstance(k, str) and isinstance(r, str) for k, r in known.items()):
        raise _Bad(f"{where}: 'known_deviations' must map rule ids to reasons")
    evidence = obj.get("evidence", {})
    if not isinstance(evidence, dict):
        raise _Bad(f"{where}: 'evidence' is {type(evidence).__name__}, not an object")
    fr = FileReport(_need(obj, "path", str, where), _need(obj, "format", (str, type(None)), where),
                    _need(obj, "variant", (str, type(None)), where), _need(obj, "profile", str, where), v,
                    [_finding(f, f"{where}.findings[{i}]") for i, f in enumerate(findings)],
                    _need(obj, "stats", dict, where), evidence, dict(known))
    if "verdicts" in obj:
        fr.verdicts = _profile_verdicts(obj["verdicts"], f"{where}.verdicts")
        if fr.verdicts[fr.profile].verdict is not v:
            raise _Bad(f"{where}: 'verdict' is {v.value} but its verdicts say "
                       f"{fr.verdicts[fr.profile].verdict.value} under {fr.profile}")
    if "capped" in obj:
        capped = _need(obj, "capped", dict, where)
        fr.findings_cap = _need(capped, "limit", int, f"{where}.capped")
        fr.capped = _counts(_need(capped, "rules", dict, f"{where}.capped"), f"{where}.capped.rules")
    if "failed" in obj and obj["failed"] is not fr.failed:
        raise _Bad(f"{where}: 'failed' is {json.dumps(obj['failed'])} but its verdict and known deviations say "
                   f"{json.dumps(fr.failed)}")
    return fr


class _Loaded:
    def __init__(self, name: str, data: dict[str, Any], report: Report) -> None:
        self.name = name
        self.data = data
        self.report = report
        self.shard: dict[str, Any] | None = data.get("shard")

    @property
    def spool(self) -> Spool:
        assert isinstance(self.report.files, Spool)
        return self.report.files


#: Characters read from a report at a time; one entry of its ``files`` may be longer (it is read on).
CHUNK = 1 << 16


class _Text:
    """A JSON document read a value at a time (``json.JSONDecoder.raw_decode`` on a window of the text
    that grows only while a value does not fit), so a report's ``files`` need not be in memory at once."""

    def __init__(self, f: TextIO, path: str) -> None:
        self._f = f
        self._path = path
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._decoder = json.JSONDecoder()
        self._done = 0  # characters dropped from the front of the window

    def _more(self, at_least: int = CHUNK) -> bool:
        if self._eof:
            return False
        chunk = self._f.read(max(CHUNK, at_least))
        if not chunk:
            self._eof = True
            return False
        if self._pos > CHUNK:
            self._done += self._pos
            self._buf = self._buf[self._pos:]
            self._pos = 0
        self._buf += chunk
        return True

    def peek(self) -> str:
        """The next character that is not white space ('' at the end of the text)."""
        while True:
            while self._pos < len(self._buf) and self._buf[self._pos] in " \t\n\r":
                self._pos += 1
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._more():
                return ""

    def expect(self, chars: str) -> str:
        c = self.peek()
        if not c or c not in chars:
            self.fail(f"expected {' or '.join(repr(x) for x in chars)}" if c else "the text ends early")
        self._pos += 1
        return c

    def value(self) -> Any:
        """The next JSON value; a number or word at the end of the window waits for the next chunk."""
        self.peek()
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as e:
                if self._more(len(self._buf) - self._pos):  # perhaps cut by the window: as much again
                    continue
                self.fail(e.msg, e.pos)
            if end < len(self._buf) or not self._more():
                self._pos = end
                return value

    def fail(self, msg: str, pos: int | None = None) -> NoReturn:
        at = self._done + (self._pos if pos is None else pos)
        raise UsageError(f"{self._path} is not JSON ({msg}: char {at}); is it complete?", _HINT)


def _stream_report(text: _Text, path: str, spool: Spool) -> dict[str, Any]:
    """The top-level object of a JSON report, its ``files`` read one at a time into ``spool``
    (``data["files"]`` is then the number of files)."""
    if text.peek() != "{":
        if not text.peek():
            raise UsageError(f"{path} is not JSON (it is empty); is it complete?", _HINT)
        raise UsageError(f"{path} is not a recspec JSON report", _HINT)
    text.expect("{")
    data: dict[str, Any] = {}
    if text.peek() == "}":
        text.expect("}")
    else:
        while True:
            key = text.value()
            if not isinstance(key, str):
                raise UsageError(f"{path} is not JSON (an object's key is not a string); is it complete?", _HINT)
            text.expect(":")
            if key == "files" and text.peek() == "[":
                data[key] = _stream_files(text, path, spool)  # the count; the files are in the spool
            else:
                data[key] = text.value()
                _refuse_early(path, key, data[key])
            if text.expect(",}") == "}":
                break
    if text.peek():
        text.fail("there is more text after the report's object")
    return data


def _refuse_early(path: str, key: str, value: Any) -> None:
    """What tells at its first key that a file is not a report this recspec reads."""
    if key == "$schema" and "sarif" in str(value).lower():
        raise UsageError(f"{path} is a SARIF log, not a recspec JSON report", _HINT)
    if key == "recspec_expectations":
        raise UsageError(f"{path} is an expectations file, not a report (pass it with --expectations)", _HINT)
    if key == "report_schema" and value != REPORT_SCHEMA:
        raise UsageError(f"{path} has report_schema {json.dumps(value)}; this recspec ({__version__}) reads "
                         f"report_schema {REPORT_SCHEMA}", "merge with the recspec version that wrote the reports")


def _stream_files(text: _Text, path: str, spool: Spool) -> int:
    text.expect("[")
    n = 0
    if text.peek() == "]":
        text.expect("]")
        return 0
    while True:
        where = f"files[{n}]"
        try:
            spool.append(file_report_from_json(text.value(), where))
        except _Bad as e:
            raise UsageError(f"{path}: {e}", _HINT) from None
        n += 1
        if text.expect(",]") == "]":
            return n


def read_report(path: str) -> tuple[dict[str, Any], Report]:
    """A JSON report file as (its JSON without the files, the Report it was rendered from, its files
    in a :class:`~recspec.spool.Spool`); UsageError otherwise. The files are read one at a time."""
    spool = Spool()
    try:
        return _read_report(path, spool)
    except BaseException:
        spool.close()
        raise


def _read_report(path: str, spool: Spool) -> tuple[dict[str, Any], Report]:
    try:
        with open(path, encoding="utf-8") as f:
            data = _stream_report(_Text(f, path), path, spool)
    except FileNotFoundError:
        raise UsageError(f"{path}: no such report") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a JSON report", _HINT) from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a JSON report (not UTF-8 text)", _HINT) from None
    except OSError as e:
        raise UsageError(f"{path}: cannot read: {e.strerror or e}") from None
    if "report_schema" not in data or "files" not in data:
        raise UsageError(f"{path} is not a recspec JSON report", _HINT)
    _refuse_early(path, "report_schema", data["report_schema"])
    try:
        n_files = data["files"]
        if type(n_files) is not int:  # "files" held something other than an array
            raise _Bad(f"the report: 'files' is {type(n_files).__name__} {_short(n_files)}, not list")
        report = Report(spool.seal(), unclaimed=_paths(data, "unclaimed"), not_regular=_paths(data, "not_regular"))
        _need(data, "recspec_version", str, "the report")
        summary = _need(data, "summary", dict, "the report")
        exp = data.get("expectations")
        if exp is not None:
            _need(exp, "file", str, "expectations")
            stale = _need(exp, "stale", list, "expectations")
            report.expectations = exp["file"]
            for i, s in enumerate(stale):
                w = f"expectations.stale[{i}]"
                if not isinstance(s, dict):
                    raise _Bad(f"{w} is not an object")
                report.stale.append(StaleExpectation(_need(s, "path", str, w), _need(s, "rule", str, w),
                                                     _need(s, "reason", str, w), _need(s, "why", str, w)))
        if summary != report.summary():
            raise _Bad(f"its summary {json.dumps(summary)} does not match its files "
                       f"{json.dumps(report.summary())}; was it edited or cut short?")
        if "shard" in data:
            _check_shard_section(data["shard"], n_files)
    except _Bad as e:
        raise UsageError(f"{path}: {e}", _HINT) from None
    return data, report


def _check_shard_section(sh: Any, n_files: int) -> None:
    if not isinstance(sh, dict):
        raise _Bad("'shard' is not an object")
    w = "shard"
    index, count = _need(sh, "index", int, w), _need(sh, "count", int, w)
    if not 1 <= index <= count:
        raise _Bad(f"shard {index}/{count} is not a shard (K must be between 1 and N)")
    _need(sh, "run", dict, w)
    _need(sh, "walked_files", int, w)
    _need(sh, "walk_digest", str, w)
    positions = _need(sh, "positions", list, w)
    if len(positions) != n_files or not all(isinstance(p, int) and not isinstance(p, bool) for p in positions):
        raise _Bad(f"shard.positions must hold one integer per file ({n_files}), it holds {len(positions)} items")


def _differs(loaded: Sequence[_Loaded], what: str, value: Any) -> str | None:
    """'a.json: X, b.json: Y' when the reports disagree on ``value(report)``, else None."""
    seen: dict[str, list[str]] = {}
    for lr in loaded:
        seen.setdefault(json.dumps(value(lr), sort_keys=True), []).append(lr.name)
    if len(seen) < 2:
        return None
    parts = []
    for text, names in seen.items():
        shown = ", ".join(names[:3]) + (f" (+{len(names) - 3} more)" if len(names) > 3 else "")
        parts.append(f"{shown}: {text}")
    return f"the reports differ in {what}: " + "; ".join(parts)


def _profiles(report: Report) -> dict[str, list[str]]:
    return {k: sorted(v) for k, v in sorted(report.tally().formats.items())}


def merge_reports(paths: Sequence[str], *, rejudge: bool = False) -> Report:
    """The run the JSON reports at ``paths`` are parts of, its files in a sealed
    :class:`~recspec.spool.Spool` (each report is read a file at a time; the caller closes it).

    ``rejudge``: the caller will judge the merged run against an expectations file, so the
    reports' own known deviations and stale expectations are dropped; otherwise they are kept
    (and must come from the same expectations file)."""
    loaded: list[_Loaded] = []
    try:
        for p in paths:
            loaded.append(_Loaded(p, *read_report(p)))
        return _merge(loaded, rejudge)
    finally:
        for lr in loaded:
            lr.spool.close()


def _merge(loaded: Sequence[_Loaded], rejudge: bool) -> Report:
    problem = _differs(loaded, "recspec_version", lambda lr: lr.data["recspec_version"])
    if problem:
        raise UsageError(problem, "merge reports of one recspec version")
    if loaded[0].data["recspec_version"] != __version__:
        raise UsageError(f"{loaded[0].name} was written by recspec {loaded[0].data['recspec_version']}; this is "
                         f"recspec {__version__}", "merge with the version that checked the files")
    shards = [lr for lr in loaded if lr.shard is not None]
    if shards and len(shards) != len(loaded):
        whole = [lr.name for lr in loaded if lr.shard is None]
        first = _section(shards[0])
        raise UsageError(f"{shards[0].name} is shard {first['index']}/{first['count']} of a "
                         f"run, but {', '.join(whole[:3])} {'is' if len(whole) == 1 else 'are'} a whole run",
                         "merge the shards of one run, or whole runs, not both")
    if shards:
        records, first_profile = _merge_shards(shards)
    else:
        problem = _differs(loaded, "the profile each format was checked under", lambda lr: _profiles(lr.report))
        if problem and len({p for lr in loaded for v in _profiles(lr.report).values() for p in v}) > 1:
            raise UsageError(problem, "merge runs checked under the same profile")
        records = (data for lr in loaded for data in lr.spool.records())
        first_profile = next((lr.spool.tally.profile for lr in loaded if lr.spool.tally.files), None)
    merged_files = Spool()
    try:
        # the files are copied as stored, not read back, unless their known deviations are dropped
        if rejudge:
            merged_files.extend(_without_known_deviations(pickle.loads(data) for data in records))
        else:
            merged_files.copy_records(records, Tally.combined((lr.spool.tally for lr in loaded), first_profile))
    except BaseException:
        merged_files.close()
        raise
    # a shard lists the unclaimed and not regular members of its share of the walk; a run lists them
    # sorted by path, so the merged lists are the unsharded run's
    merged = Report(merged_files.seal(), unclaimed=sorted(p for lr in loaded for p in lr.report.unclaimed),
                    not_regular=sorted(p for lr in loaded for p in lr.report.not_regular))
    if rejudge:
        return merged
    problem = _differs(loaded, "the expectations file they were judged against", lambda lr: lr.report.expectations)
    if problem:
        merged_files.close()
        raise UsageError(problem, "give --expectations FILE to judge the merged run against one file")
    merged.expectations = loaded[0].report.expectations
    stale = {(s.path, s.rule, s.reason, s.why): s for lr in loaded for s in lr.report.stale}
    merged.stale = sorted(stale.values(), key=lambda s: (s.path, s.rule))
    return merged


def _without_known_deviations(files: Iterable[FileReport]) -> Iterator[FileReport]:
    for fr in files:
        fr.known_deviations = {}
        yield fr


def _section(lr: _Loaded) -> dict[str, Any]:
    """The shard section of a report known to be a shard's."""
    assert lr.shard is not None
    return lr.shard


_RUN_LABELS = {"paths": "the PATH arguments", "format": "--format", "variant": "--variant", "profile": "--profile",
               "cross_check": "the cross-check (--no-cross-check)", "cross_check_limit": "--cross-check-limit"}


def _merge_shards(shards: Sequence[_Loaded]) -> tuple[Iterator[bytes], str | None]:
    """The shards' files in walk order: each shard's files are in walk order already, so they are
    merged as they are read (only the last position placed is kept, not every one)."""
    checks: list[tuple[str, Any]] = [("the number of shards", lambda sh: sh["count"])]
    options = sorted({k for lr in shards for k in _section(lr)["run"]})
    checks += [(_RUN_LABELS.get(k, f"the check option {k!r}"), lambda sh, k=k: sh["run"].get(k)) for k in options]
    checks += [("the number of files their walk found", lambda sh: sh["walked_files"]),
               ("the files their walk found (walk_digest: were files added, removed or renamed between the shards?)",
                lambda sh: sh["walk_digest"])]
    for what, value in checks:
        problem = _differs(shards, what, lambda lr, value=value: value(lr.shard))
        if problem:
            raise UsageError(problem, "merge the shards of one `recspec check --shard K/N` command over the same files")
    count = _section(shards[0])["count"]
    by_index: dict[int, list[str]] = {}
    for lr in shards:
        by_index.setdefault(_section(lr)["index"], []).append(lr.name)
    repeated = {k: v for k, v in by_index.items() if len(v) > 1}
    if repeated:
        k, names = min(repeated.items())
        raise UsageError(f"shard {k}/{count} is given more than once: {', '.join(names)}")
    missing = [k for k in range(1, count + 1) if k not in by_index]
    if missing:
        shown = ", ".join(f"{k}/{count}" for k in missing[:10]) + (" ..." if len(missing) > 10 else "")
        raise UsageError(f"{len(missing)} of {count} shards missing: {shown}",
                         "every shard's JSON report is needed; a shard that found no file still writes one")
    # the merged run's first file is the one at the lowest walk position
    starts = [(_section(lr)["positions"][0], lr.spool.tally.profile) for lr in shards if lr.spool.tally.files]
    return _placed(shards, _section(shards[0])["walked_files"]), min(starts)[1] if starts else None


def _placed(shards: Sequence[_Loaded], walked: int) -> Iterator[bytes]:
    def positioned(lr: _Loaded) -> Iterator[tuple[int, _Loaded, int, bytes]]:
        last = -1
        for i, (pos, data) in enumerate(zip(_section(lr)["positions"], lr.spool.records())):
            if not last < pos < walked:  # out of the walk, or not after the shard's previous file
                raise UsageError(f"{lr.name}: file {lr.spool[i].path!r} is at walk position {pos}",
                                 "the shard reports do not fit together; rerun the shards")
            last = pos
            yield pos, lr, i, data

    previous: tuple[int, str] | None = None
    for pos, lr, i, data in heapq.merge(*(positioned(lr) for lr in shards), key=lambda item: item[0]):
        if previous is not None and previous[0] == pos:
            raise UsageError(f"{lr.name}: file {lr.spool[i].path!r} is at walk position {pos} and in {previous[1]}",
                             "the shard reports do not fit together; rerun the shards")
        previous = (pos, lr.name)
        yield data
