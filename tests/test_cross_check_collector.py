"""The cross-check of a small file runs with the garbage collector off (conformance/_plugin.py
``QUIET_COLLECTOR_SIZE``): off inside, back on after (also when the cross-check raises), a caller's own
``gc.disable()`` kept, a larger file left as it is, and every corpus file's report the same either way."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from helpers import REPO
from recspec.conformance import _plugin
from recspec.pipeline import check_file
from recspec.report import FileReport, Verdict

CORPUS = sorted(p for p in (REPO / "corpus").rglob("*") if p.is_file() and not p.name.startswith(".")
                and p.relative_to(REPO / "corpus").parts[0] != "real" and p.suffix not in (".json", ".md"))


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    # back as it was, whatever the test left: a test that turns the collector off must not leave the rest of
    # the suite's process without collections (its garbage cycles then pile up)
    if was:
        gc.enable()
    else:
        gc.disable()


def _within(size: int, run: object) -> None:
    report = FileReport("x", "toy", None, "spec", Verdict.VALID)
    _plugin.cross_check_within(report, enabled=True, size=size, limit=1 << 30, run=run)  # type: ignore[arg-type]


@pytest.mark.usefixtures("collector_on")
def test_the_collector_is_off_while_a_small_file_is_cross_checked() -> None:
    seen: list[bool] = []
    _within(_plugin.QUIET_COLLECTOR_SIZE, lambda: seen.append(gc.isenabled()))
    _within(0, lambda: seen.append(gc.isenabled()))
    _within(_plugin.QUIET_COLLECTOR_SIZE + 1, lambda: seen.append(gc.isenabled()))
    assert seen == [False, False, True]
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_the_collector_is_back_on_after_a_cross_check_that_raises() -> None:
    def fails() -> None:
        assert not gc.isenabled()
        raise RecursionError("deep")

    with pytest.raises(RecursionError):
        _within(100, fails)
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_a_callers_collector_left_off_stays_off() -> None:
    gc.disable()
    seen: list[bool] = []
    _within(100, lambda: seen.append(gc.isenabled()))
    assert seen == [False] and not gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_every_corpus_file_reports_the_same_with_the_collector_on(monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = [check_file(p, fmt=None, variant=None, profile=None, cross_check="full", named=True) for p in CORPUS]
    assert gc.isenabled()
    monkeypatch.setattr(_plugin, "QUIET_COLLECTOR_SIZE", -1)
    plain = [check_file(p, fmt=None, variant=None, profile=None, cross_check="full", named=True) for p in CORPUS]
    assert [None if r is None else r.to_json() for r in quiet] == [None if r is None else r.to_json() for r in plain]
    assert sum(r is not None and "cross_check" in r.evidence for r in quiet) > 100
