"""What a `recspec check` run does per file besides the format's check: the walk, storing the report,
the table entry, the bookkeeping. Counted in Python calls (cProfile), a deterministic measure: a
folder of small files is dominated by these fixed costs (benchmarks/bench_ratios.py, the raSkat
folder row; bench_folder.py), and a change that adds work to every file shows here whatever the load
of the machine."""

from __future__ import annotations

import cProfile
import pstats
import shutil
from pathlib import Path

import pytest

from helpers import run_cli
from recspec.formats import FORMATS
from recspec.pipeline import check_file
from recspec.render._table import EntryMaker

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: The Python calls a run makes per file outside check_file (the walk, the spool, the table entry and
#: line, the tally): 175 to 271 for the formats' first valid seeds, their findings' lines included (the
#: severity spelled through the Enum's value made it 180 to 302).
RUN_CALLS_PER_FILE = 290


def _sample(fmt: str) -> Path:
    return next(p for p in sorted((CORPUS / fmt / "valid").iterdir()) if p.is_file())


def _calls(fn: object, *args: object) -> tuple[int, pstats.Stats]:
    profile = cProfile.Profile()
    profile.enable()
    fn(*args)  # type: ignore[operator]
    profile.disable()
    stats = pstats.Stats(profile)
    return stats.total_calls, stats  # type: ignore[attr-defined]


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_run_adds_few_calls_per_file_to_the_check(fmt: str, tmp_path: Path) -> None:
    src = _sample(fmt)

    def folder(n: int) -> Path:
        d = tmp_path / f"copies-{n}"
        d.mkdir()
        for i in range(n):
            shutil.copyfile(src, d / f"f{i:04d}{src.suffix}")
        return d

    small, large = folder(40), folder(80)

    def run(d: Path) -> None:
        code, _out, err = run_cli("check", "-j", "1", "--no-cross-check", str(d))
        assert code in (0, 1), err  # a verdict, not a usage error

    run(small)  # imports and first-use caches out of the count
    per_file = (_calls(run, large)[0] - _calls(run, small)[0]) / 40
    def check_alone(p: Path) -> None:
        check_file(p, fmt=None, variant=None, profile=None, cross_check=False)

    check_alone(src)
    alone = _calls(check_alone, src)[0]
    assert per_file - alone <= RUN_CALLS_PER_FILE, (per_file, alone)


def test_a_table_entry_spells_verdicts_and_severities_without_the_enum_machinery() -> None:
    """A row's verdicts and each finding's severity are spelled from tables made once (an Enum's
    ``value`` is a Python-level property: three calls each, several findings a small file)."""
    reports = [check_file(_sample(f), fmt=None, variant=None, profile=None, cross_check=False) for f in FORMATS]
    report = next(r for r in reports if r is not None and r.findings)
    maker = EntryMaker(3)
    maker(report)  # the format's rendering context, made once a run
    _n, stats = _calls(maker, report)
    enum_calls = [func for func in stats.stats if func[0].endswith("enum.py")]  # type: ignore[attr-defined]
    assert enum_calls == []
    assert maker(report) == EntryMaker(3)(report)
