"""Validate your writer or reader from your own test suite: ``check_writer`` and ``check_reader``.

::

    from recspec.testing import check_writer

    def write(case, out_path):            # your writer, given a case (recspec case JSON, as a dict)
        my_writer.save(to_my_model(case), out_path)

    def test_my_writer_writes_what_it_is_given():
        check_writer(write, format="nanover", profile="spec", max_examples=50)

Called as a test's body, each runs its own Hypothesis search over the format's
variants (or the one named), shrinks the first failure to the smallest case and
raises :class:`DriveFailure` (an ``AssertionError``) saying what is wrong, with
that case. Inside your own ``@given`` test, pass the case you drew
(``check_writer(write, format=..., case=case)``): it judges that one case and
raises on failure, so your test's Hypothesis shrinks it.

``expected`` lists known deviations, the same entries as an ``--expectations``
file's: rule ids (``["NANOVER-FRAME-005"]``) or rule id -> reason. Findings of a
listed rule do not fail; a listed rule that never occurs does (stale), so the
list cannot go stale silently.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .drive._cases import drive_variants, tolerances_for
from .drive._engine import CallableReader, CallableWriter, DriveOptions, judge_reader, judge_writer
from .drive._engine import failing as _failing
from .drive._run import DriveRun, run_drive
from .errors import UsageError
from .formats import resolve_format

__all__ = ["DriveFailure", "check_reader", "check_writer"]


class DriveFailure(AssertionError):
    """A writer or reader did wrong: the message says what, on which (shrunk) input; ``run`` is the whole run
    (its ``report`` renders like ``recspec check``'s), ``case`` the minimal case (when there is one)."""

    def __init__(self, message: str, run: DriveRun | None = None, case: dict[str, Any] | None = None,
                 data: bytes | None = None, verdicts: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.run = run
        self.case = case
        self.data = data
        self.verdicts = verdicts


def _expected(expected: Mapping[str, str] | Iterable[str] | None) -> dict[str, str]:
    if expected is None:
        return {}
    if isinstance(expected, Mapping):
        return {str(k): str(v) for k, v in expected.items()}
    if isinstance(expected, str):
        raise UsageError("expected= takes rule ids (a list) or {rule id: reason}, not one string",
                         f"write expected=[{expected!r}]")
    return {str(rule): "" for rule in expected}


def _in_hypothesis_test() -> bool:
    try:
        from hypothesis import currently_in_test_context
    except ImportError:  # pragma: no cover - Hypothesis older than 6.85
        return False
    return currently_in_test_context()


def _options(format: str, variant: str | None, profile: str | None, expected: Any, tolerances: Iterable[str],
             max_examples: int, seed: int | None, **more: Any) -> DriveOptions:
    info = resolve_format(format)
    return DriveOptions(info, variant, info.check_profile(profile), max_examples=max_examples, seed=seed,
                        tolerances=tolerances_for(info, list(tolerances)), expected=_expected(expected), **more)


def _raise_for(run: DriveRun, direction: str) -> DriveRun:
    lines = []
    first: Any = None
    for r, fr in zip(run.results, run.report.files):
        for ex in r.failures:
            for item in _failing(ex.items, r.opts.expected):
                where = ex.source or json.dumps(ex.case, ensure_ascii=False)
                how = f", {ex.mutation}" if ex.mutation and ex.mutation != "none" else ""
                lines.append(f"{fr.path}: {item.verdict} ({item.rule}): {item.message}\n"
                             f"    minimal input: {where}{how}")
                if ex.flaky:
                    lines.append(f"    the testee is flaky: {ex.flaky}")
                first = first or ex
    for st in run.report.stale:
        lines.append(f"{st.path}: the known deviation {st.rule} did not occur (stale)")
    if lines:
        raise DriveFailure(f"the {direction} failed:\n" + "\n".join(lines), run,
                           first.case if first else None, first.data if first else None,
                           tuple(i.verdict for i in first.items) if first else ())
    return run


def check_writer(fn: Callable[[Mapping[str, Any], Path], Any], *, format: str, variant: str | None = None,
                 profile: str | None = None, expected: Mapping[str, str] | Iterable[str] | None = None,
                 tolerances: Iterable[str] = (), byte_exact: bool = False, max_examples: int = 100,
                 seed: int | None = None, case: Mapping[str, Any] | None = None, max_size: int = 4,
                 max_failures: int = 10) -> DriveRun | None:
    """Judge a writer: ``fn(case, out_path)`` writes the case's file at ``out_path`` (or returns its bytes) and
    raises to refuse a case the format cannot hold.

    Without ``case``: draws up to ``max_examples`` cases per variant, shrinks the first failure and raises
    :class:`DriveFailure` (returns the run when all is well). With ``case`` (inside your ``@given`` test):
    judges that case only and raises :class:`DriveFailure` when the writer did wrong."""
    opts = _options(format, variant, profile, expected, tolerances, max_examples, seed, byte_exact=byte_exact,
                    max_size=max_size, max_failures=max_failures)
    testee = CallableWriter(fn)
    if case is not None:
        opts.variant = case.get("variant") if variant is None else variant
        ex = judge_writer(opts, testee, dict(case))
        bad = _failing(ex.items, opts.expected)
        if bad:
            raise DriveFailure("the writer failed: " + "; ".join(f"{i.verdict} ({i.rule}): {i.message}" for i in bad),
                               None, dict(case), ex.data, tuple(i.verdict for i in bad))
        return None
    if _in_hypothesis_test():
        raise UsageError("check_writer inside a Hypothesis test judges the case you drew",
                         "pass it: check_writer(fn, format=..., case=case)")
    return _raise_for(run_drive("writer", opts, drive_variants(opts.info, variant), testee), "writer")


def check_reader(fn: Callable[[Path], Any], *, format: str, variant: str | None = None, profile: str | None = None,
                 expected: Mapping[str, str] | Iterable[str] | None = None, tolerances: Iterable[str] = (),
                 compare: str = "case", max_examples: int = 100, seed: int | None = None, corpus: bool = True,
                 data: bytes | None = None, max_size: int = 4, max_failures: int = 10) -> DriveRun | None:
    """Judge a reader: ``fn(path)`` returns the file's case as a dict (with ``compare="stats"``: the stats
    object of recspec's report) and raises to reject the file.

    Without ``data``: feeds the corpus's files and up to ``max_examples`` generated files per variant (valid
    ones and mutations), shrinks the first failure and raises :class:`DriveFailure`. With ``data`` (inside your
    ``@given`` test, e.g. from ``recspec.strategies``): judges those bytes only."""
    if compare not in ("case", "stats"):
        raise UsageError(f"compare={compare!r}", "compare is 'case' or 'stats'")
    opts = _options(format, variant, profile, expected, tolerances, max_examples, seed, compare=compare,
                    corpus=corpus, max_size=max_size, max_failures=max_failures)
    testee = CallableReader(fn)
    if data is not None:
        ex = judge_reader(opts, testee, bytes(data))
        bad = _failing(ex.items, opts.expected)
        if bad:
            raise DriveFailure("the reader failed: " + "; ".join(f"{i.verdict} ({i.rule}): {i.message}" for i in bad),
                               None, None, bytes(data), tuple(i.verdict for i in bad))
        return None
    if _in_hypothesis_test():
        raise UsageError("check_reader inside a Hypothesis test judges the bytes you drew",
                         "pass them: check_reader(fn, format=..., data=data)")
    return _raise_for(run_drive("reader", opts, drive_variants(opts.info, variant), testee), "reader")
