"""A campaign started by a process that once held a lot of memory still gets its own memory limit.

libFuzzer ends a process whose peak resident set passes ``-rss_limit_mb`` (2,048 MB unless told), and it
reads the peak with ``getrusage``. On Linux a process started by fork or vfork and exec begins with the
peak of the process that started it, so a campaign started from a big process (a test suite's, a
notebook's, a CI job's Python that read big files first) used to stop at once with "out-of-memory" on
the empty input, an ``oom-`` artifact saved as a crash. The real campaign is ``slow`` (skipped without
atheris).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recspec.formats import FORMATS
from recspec.fuzz import _campaign

#: Any format: what is tested is the campaign's parent, not a harness.
FORMAT = next(iter(FORMATS))

#: The parent's peak: over libFuzzer's default limit of 2,048 MB, so the campaign's child starts over it.
PARENT_PEAK_MB = 2_300


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the peak carried over by exec is Linux's")
def test_a_campaign_started_by_a_process_with_a_big_peak_runs(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install 'recspec[fuzz]'): no campaign")
    # A process of its own, so that the test suite's own peak does not decide the case either way.
    script = textwrap.dedent(f"""
        import io, json, resource, sys
        from pathlib import Path
        block = bytearray(b"\\x01") * ({PARENT_PEAK_MB} * 1024 * 1024)  # touched: resident
        del block
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        from recspec.fuzz import run_campaign
        out, err = io.StringIO(), io.StringIO()
        # libFuzzer checks the peak once a second: the campaign runs for seconds, not a few hundred inputs
        rc = run_campaign({FORMAT!r}, target="ref", seconds=4, seed=1,
                          out_dir=Path(sys.argv[1]), stdout=out, stderr=err)
        print(json.dumps({{"rc": rc, "peak_mb": peak_mb, "out": out.getvalue(), "err": err.getvalue()[-3000:]}}))
    """)
    crashes = tmp_path / "crashes"
    proc = subprocess.run([sys.executable, "-c", script, str(crashes)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["peak_mb"] >= PARENT_PEAK_MB  # the case is the one described above
    assert result["rc"] == 0, result["out"] + result["err"]
    assert "no new crashes" in result["out"]
    assert "out-of-memory" not in result["err"]
    assert not list(crashes.glob("*oom-*")) and not list(crashes.glob("*.json"))


def test_the_limit_is_the_childs_own_memory_over_the_starting_peak() -> None:
    # libFuzzer compares the child's peak, which starts at its starter's, with the limit given: so the
    # limit given is the starter's peak plus the child's own allowance.
    assert _campaign.rss_limit_mb(starter_peak_mb=0) == _campaign.RSS_LIMIT_MB == 2048
    assert _campaign.rss_limit_mb(starter_peak_mb=8_357) == 8_357 + 2048


def test_every_fuzzing_process_is_given_the_limit(tmp_path: Path) -> None:
    import resource

    c = _campaign._Campaign(FORMAT, "ref", tmp_path, seed=1)
    args = _campaign._libfuzzer_args(c, worker=0, corpus=tmp_path / "corpus", dict_path=tmp_path / "d", seconds=1,
                                     runs=0, max_len=10, seed=1)
    [limit] = [int(a.split("=", 1)[1]) for a in args if a.startswith("-rss_limit_mb=")]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024 if sys.platform.startswith("linux") else 0
    assert limit >= peak_mb + 2048
