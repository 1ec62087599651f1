"""A campaign at scale on raSkat's harness: --jobs, --runs, --merge and the progress line. What every
format's campaign shares is in ``test_fuzz_campaigns.py``.

The real campaign is ``slow`` (run by default; skipped without atheris).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from recspec.fuzz import _campaign, run_campaign

REPO = Path(__file__).resolve().parents[1]
#: A file of another format in the folder merged into: kept or replaced, never a reason to fail.
CARLA_VALID = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"


@pytest.mark.slow
def test_jobs_runs_merge_and_the_progress_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install 'recspec[fuzz]'): no campaign")
    monkeypatch.setattr(_campaign, "PROGRESS_EVERY_S", 1)
    merged = tmp_path / "merged"
    (merged).mkdir()
    (merged / "old-input").write_bytes(CARLA_VALID.read_bytes())
    out, err = io.StringIO(), io.StringIO()
    rc = run_campaign("raskat-signal", target="ref", seconds=60, runs=3000, jobs=2, out_dir=tmp_path / "crashes",
                      seed=1, merge_into=merged, stdout=out, stderr=err)
    assert rc == 0, out.getvalue() + err.getvalue()[-3000:]
    summary = out.getvalue()
    assert "2 run(s)" in summary and "no new crashes" in summary
    execs = int(summary.split(" execs (")[0].rsplit(" ", 1)[1])
    assert 3000 <= execs < 3000 + 2000  # both processes stop at about half of --runs
    assert f"corpus merged into {merged}:" in summary
    assert not (merged / "old-input").exists() or len(list(merged.iterdir())) > 1
    assert len(list(merged.iterdir())) > 5
    assert "INITED" not in err.getvalue()  # quiet: libFuzzer's log is not shown
    progress = [line for line in err.getvalue().splitlines() if line.startswith("recspec fuzz raskat-signal/ref:")]
    assert progress and "execs (" in progress[-1] and " corpus " in progress[-1] and "crashes 0" in progress[-1]
