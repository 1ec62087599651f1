"""Campaigns at scale, what every format's campaign shares: crash signatures, minimising, and --triage's
usage errors. Each format comes from the registry; a campaign on one format's harness (its variants, its
fuzzer folders, the campaign table of tools/run_campaigns.py, the real --jobs campaigns) is in
``test_<format>_fuzz_campaigns.py``.
"""

from __future__ import annotations

import io
import json
import random
import sys
import time
import traceback
from pathlib import Path

import pytest

from helpers import run_cli
from recspec.errors import DecodeError
from recspec.formats import FORMATS
from recspec.fuzz import ContractViolation, _signature, _triage

# --- signatures ---------------------------------------------------------------------------------


def test_a_signature_names_the_innermost_recspec_frame_not_the_library_below_it() -> None:
    recspec_file = sys.modules["recspec.errors"].__file__
    frames = [traceback.FrameSummary(recspec_file, 10, "outer"), traceback.FrameSummary(recspec_file, 20, "inner"),
              traceback.FrameSummary(json.__file__, 30, "loads")]
    frame = _signature.project_frame(frames)
    assert frame is not None and (frame.name, frame.lineno) == ("inner", 20)
    assert _signature.project_frame([traceback.FrameSummary(json.__file__, 30, "loads")]).name == "loads"


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_signature_carries_the_rule_of_the_error(fmt: str) -> None:
    _file, rule = FORMATS[fmt].load().EXAMPLES.invalid_file  # one of the format's rules
    try:
        try:
            raise DecodeError("bad", 3, rule=rule)
        except DecodeError as cause:
            raise ContractViolation("check_stream raised DecodeError") from cause
    except ContractViolation as e:
        sig = _signature.signature(e)
        info = _signature.crash_info(e, b"", lambda d: {})
    assert sig.startswith("DecodeError@") and sig.endswith(f"[{rule}]")
    assert info["rule"] == rule and info["signature"] == sig


# --- minimising ---------------------------------------------------------------------------------


def test_shrink_keeps_only_what_still_fails() -> None:
    rng = random.Random(5)
    data = bytes(rng.randrange(1, 256) for _ in range(3000)) + b"BUG" + bytes(rng.randrange(1, 256) for _ in range(700))
    shrunk, tries = _triage.shrink(data, lambda d: b"BUG" in d, deadline=time.monotonic() + 60)
    assert shrunk == b"BUG" and 0 < tries < 2000


def test_shrink_stops_at_its_deadline() -> None:
    data = bytes(range(256)) * 4
    shrunk, tries = _triage.shrink(data, lambda d: len(d) > 0, deadline=time.monotonic() - 1)
    assert (shrunk, tries) == (data, 0)


# --- triage ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_triage_of_a_missing_folder_is_a_usage_error(tmp_path: Path, fmt: str) -> None:
    code, _, err = run_cli("fuzz", fmt, "--triage", str(tmp_path / "nope"))
    assert code == 2 and "does not exist" in err


# --- artifacts of several workers -----------------------------------------------------------------


def test_each_worker_saves_its_artifacts_under_a_name_of_its_own(tmp_path: Path) -> None:
    """Every worker runs the seeds first, so with a failing seed two libFuzzer processes save the same
    input at once; under one shared name one truncates the file while the other reads it (a CI run saved
    a zero-byte 'minimised' crash that way). Each worker's artifacts are named apart in the crash folder."""
    from recspec.fuzz import _campaign

    c = _campaign._Campaign(next(iter(FORMATS)), "ref", tmp_path, seed=1)
    prefixes = []
    for worker in (0, 1):
        args = _campaign._libfuzzer_args(c, worker=worker, corpus=tmp_path / "corpus", dict_path=tmp_path / "d",
                                         seconds=1, runs=0, max_len=10, seed=1)
        [prefix] = [a.split("=", 1)[1] for a in args if a.startswith("-artifact_prefix=")]
        assert Path(prefix).parent == tmp_path  # still in the crash folder: nothing is lost on an interrupt
        prefixes.append(prefix)
    assert prefixes[0] != prefixes[1]
    # libFuzzer appends "<kind>-<sha1>" to the prefix; the kind is still read from the name
    for kind in ("crash-", "timeout-", "oom-", "leak-"):
        assert _campaign._artifact_kind(Path(prefixes[1] + kind + "ab" * 20)) == kind
    assert _campaign._artifact_kind(Path(tmp_path / ("timeout-" + "ab" * 20))) == "timeout-"


@pytest.mark.slow
def test_libfuzzer_picks_inputs_by_their_execution_time_and_takes_the_flag(tmp_path: Path) -> None:
    """The campaign asks libFuzzer to weigh each corpus input by its execution time (faster ones mutated
    more often), and the libFuzzer that atheris bundles knows the flag: an unknown one it would only warn
    about and ignore."""
    pytest.importorskip("atheris", reason="atheris is not installed (pip install -e '.[fuzz]'): no campaign")
    from recspec.fuzz import _campaign
    from recspec.fuzz._campaign import run_campaign

    first = next(iter(FORMATS))
    c = _campaign._Campaign(first, "ref", tmp_path, seed=1)
    args = _campaign._libfuzzer_args(c, worker=0, corpus=tmp_path / "corpus", dict_path=tmp_path / "d", seconds=1,
                                     runs=0, max_len=10, seed=1)
    assert "-entropic_scale_per_exec_time=1" in args
    err = io.StringIO()
    rc = run_campaign(first, target="ref", seconds=2, out_dir=tmp_path / "out", seed=1, max_len=4096,
                      stdout=io.StringIO(), stderr=err, verbose=True)
    assert rc == 0, err.getvalue()[-3000:]
    assert "INITED" in err.getvalue()
    assert "unrecognized flag" not in err.getvalue()
