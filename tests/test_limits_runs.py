"""Floods of one tiny unit: runs of byte-identical units are walked in bulk.

A CARLA packet that repeats the previous one byte for byte (an empty EventDel,
the 5 zero bytes of an empty FrameStart) and a Matrix-SMT frame that is an empty
document under the next index are walked one by one until every rule they break
has its stored findings; the rest of the run is compared a block at a time and
counted (``benchmarks/hostile.py``: carla-empty-packets, carla-header-zeros,
matrix-empty-frames). These tests count the per-unit walk calls (the bulk step
must replace them) and hold the fast and the slow path to the same reports.

The tests are each format's own (tests/test_carla_limits_runs.py,
tests/test_matrix_smt_limits_runs.py); this module holds what they share: the
call counter and the comparison of two reports.
"""

from __future__ import annotations

import pytest

from recspec.report import FileReport


def _same(a: FileReport, b: FileReport) -> None:
    assert a.findings == b.findings
    assert a.stats == b.stats
    assert a.verdicts == b.verdicts
    assert a.capped == b.capped
    assert a.verdict == b.verdict


class _Counting:
    """Counts the calls of one method while the test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> None:
        self.calls = 0
        inner = getattr(owner, name)

        def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            self.calls += 1
            return inner(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)
