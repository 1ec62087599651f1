"""The garbage collector's settings for a run of many files (recspec/pipeline.py ``_collector_for_run``): what is
alive frozen at the start and after the first file of each format, unfrozen after the run unless the caller had
frozen something, the thresholds untouched, and nothing of the reports changed by it, -j 1 and -j 2."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import REPO
from recspec import pipeline
from recspec._run import RunOptions

SEEDS = sorted(p for p in (REPO / "corpus").rglob("*") if p.is_file() and not p.name.startswith(".")
               and p.relative_to(REPO / "corpus").parts[0] != "real")


def _folder(root: Path, copies: int) -> list[tuple[Path, bool]]:
    files = []
    for c in range(copies):
        for p in SEEDS:
            dst = root / f"copy{c}" / p.relative_to(REPO / "corpus")
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, dst)
            files.append((dst, False))
    return sorted(files)


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, bool]]:
    files = _folder(tmp_path_factory.mktemp("many"), 2)
    assert len(files) >= pipeline.RUN_GC_FILES
    return files


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str | None, tuple[int, ...], int]]]:
    """Each file's format, the collector's threshold when it was checked and the freezes made by then; each
    ``gc.freeze`` also appends the number of files checked before it to ``_freezes``.

    The freezes are recorded as they happen, not read back with ``gc.get_freeze_count()`` after each file: that
    call walks the whole frozen list, which in a long test process (the whole suite) holds millions of objects."""
    calls: list[tuple[str | None, tuple[int, ...], int]] = []
    plain = pipeline.check_file
    freeze = gc.freeze

    def spying(path: Path, **kw: Any) -> Any:
        threshold = gc.get_threshold()
        fr = plain(path, **kw)
        calls.append((fr.format if fr is not None else None, threshold, len(_freezes)))
        return fr

    def freezing() -> None:
        _freezes.append(len(calls))  # the files checked before this freeze
        freeze()

    _freezes.clear()
    monkeypatch.setattr(pipeline, "check_file", spying)
    monkeypatch.setattr(gc, "freeze", freezing)
    yield calls


#: the number of files checked before each ``gc.freeze`` of the current test (filled by the ``seen`` fixture)
_freezes: list[int] = []


def test_a_run_of_many_files_freezes_what_is_alive_and_unfreezes_it(many: list[tuple[Path, bool]],
                                                                     seen: list[Any]) -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    pipeline.check_files(many, RunOptions(cross_check=False, run_files=len(many)))
    assert {threshold for _, threshold, _ in seen} == {before}
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0  # unfrozen at the end: nothing was frozen before the run
    # frozen at the start, and again after the first file of each format (its modules imported by then)
    firsts: dict[str | None, int] = {}
    for i, (fmt, _, _) in enumerate(seen):
        firsts.setdefault(fmt, i)
    assert _freezes == [0, *sorted(i + 1 for i in firsts.values())]
    assert len(firsts) >= 5  # every format and the unclaimed files


def test_a_short_run_leaves_the_collector_alone(many: list[tuple[Path, bool]], seen: list[Any]) -> None:
    before = gc.get_threshold()
    short = many[:pipeline.RUN_GC_FILES - 1]
    pipeline.check_files(short, RunOptions(cross_check=False, run_files=len(short)))
    assert {threshold for _, threshold, _ in seen} == {before}
    assert _freezes == [] and len(seen) == len(short)


def _tracked(obj: object) -> bool:
    """Whether ``obj`` is in one of the collector's generations (a frozen object is in none)."""
    return any(o is obj for o in gc.get_objects())


def test_what_the_caller_froze_stays_frozen(many: list[tuple[Path, bool]]) -> None:
    mine: list[object] = [object()]
    assert _tracked(mine)
    gc.freeze()
    try:
        assert not _tracked(mine)
        pipeline.check_files(many, RunOptions(cross_check=False, run_files=len(many)))
        assert not _tracked(mine) and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert _tracked(mine)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_reports_are_the_same_with_the_interpreters_collector(many: list[tuple[Path, bool]], jobs: int,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    options = RunOptions(jobs=jobs, run_files=10_000)
    tuned = pipeline.check_files(many, options).report
    with monkeypatch.context() as m:
        m.setattr(pipeline, "RUN_GC_FILES", 10**9)
        plain = pipeline.check_files(many, options).report
    assert [fr.to_json() for fr in tuned.files] == [fr.to_json() for fr in plain.files]
    assert tuned.unclaimed == plain.unclaimed
    assert len(tuned.files) > 300
