"""A run's settings travel as one value (recspec._run.RunOptions) from the CLI to the checks, and the
run's results come back from check_files: no run state in a module global or an environment variable.

The run's size decides the default cross-check's sample (conformance/_plugin.py ``run_sampled_out``:
a run of more than RUN_SAMPLE_FROM = 256 files reads a file whose path has a CRC-32 of 0 mod 16, and
every malformed one). Outside a run a file is read in full."""

from __future__ import annotations

import os
import shutil
import zlib
from pathlib import Path

import pytest

import recspec
from helpers import example_invalid_file, example_valid_file, format_valid_by_default, run_cli
from recspec.formats import FORMATS
from recspec.pipeline import CheckRun, RunOptions, check_files
from recspec.report import SAMPLED_OUT

#: the example format: the sample is every format's (the default cross-check), shown on one's files
INFO = format_valid_by_default()
#: a size from which the default cross-check samples (RUN_SAMPLE_FROM is 256)
LONG_RUN = 100_000


def _valid_log_out_of_the_sample(folder: Path) -> Path:
    """A copy of a valid seed whose path the long runs' sample leaves out (CRC-32 not 0 mod 16)."""
    src = example_valid_file(INFO)
    for i in range(64):
        dst = folder / f"run{i}{src.suffix}"
        if zlib.crc32(os.fsencode(str(dst))) % 16 != 0:
            shutil.copyfile(src, dst)
            return dst
    raise AssertionError("no name out of the sample in 64 tries")  # 1 in 16 is in: cannot happen


def _cross_check(run: CheckRun, path: Path) -> str:
    (fr,) = [fr for fr in run.report.files if fr.path == str(path)]
    return str(fr.evidence.get("cross_check", ""))


def test_the_run_size_comes_from_the_options(tmp_path: Path) -> None:
    log = _valid_log_out_of_the_sample(tmp_path)
    files = [(log, True)]
    long_run = check_files(files, RunOptions(run_files=LONG_RUN))
    assert _cross_check(long_run, log).startswith(SAMPLED_OUT)
    # the same file in no run (the options' default) or in a short one: read
    assert _cross_check(check_files(files, RunOptions()), log).startswith("kaitai")
    assert _cross_check(check_files(files, RunOptions(run_files=256)), log).startswith("kaitai")
    # "full" reads every file whatever the run's size
    assert _cross_check(check_files(files, RunOptions(run_files=LONG_RUN, cross_check="full")), log).startswith(
        "kaitai")


def test_worker_processes_get_the_run_size_from_the_options(tmp_path: Path) -> None:
    logs = [_valid_log_out_of_the_sample(tmp_path)]
    invalid = example_invalid_file(INFO)[0]
    shutil.copyfile(invalid, tmp_path / f"frame{invalid.suffix}")
    logs.append(tmp_path / f"frame{invalid.suffix}")
    files = [(p, True) for p in logs]
    serial = check_files(files, RunOptions(run_files=LONG_RUN))
    workers = check_files(files, RunOptions(run_files=LONG_RUN, jobs=2))
    assert [fr.to_json() for fr in workers.report.files] == [fr.to_json() for fr in serial.report.files]
    assert _cross_check(workers, logs[0]).startswith(SAMPLED_OUT)


def test_an_inherited_environment_variable_does_not_make_a_run(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A process started by a long `recspec check` (it used to put the run's size in the environment,
    RECSPEC_RUN_FILES) checks a file of its own in full: the size is the options', not the process's."""
    log = _valid_log_out_of_the_sample(tmp_path)
    monkeypatch.setenv("RECSPEC_RUN_FILES", str(LONG_RUN))
    assert recspec.check(log).evidence["cross_check"].startswith("kaitai")
    assert _cross_check(check_files([(log, True)], RunOptions()), log).startswith("kaitai")


def test_a_cli_run_leaves_nothing_of_itself_in_the_process(tmp_path: Path) -> None:
    log = _valid_log_out_of_the_sample(tmp_path)
    for i in range(300):  # a long run: the sample applies
        (tmp_path / f"notes{i}.txt").write_bytes(b"not a recording")
    before = dict(os.environ)
    code, _out, err = run_cli("check", str(tmp_path))
    assert code == 0, err
    assert dict(os.environ) == before
    # the next check in the same process is a file of its own, read in full
    assert recspec.check(log).evidence["cross_check"].startswith("kaitai")


def test_check_files_returns_the_walk_errors_then_the_files_errors(tmp_path: Path) -> None:
    src = example_valid_file(INFO)
    log = tmp_path / f"a{src.suffix}"
    shutil.copyfile(src, log)
    (tmp_path / "notes.txt").write_bytes(b"not a recording")
    files = [(tmp_path / "gone.log", True), (log, True), (tmp_path / "notes.txt", False)]
    walk_errors = ["x: no such file or folder"]
    run = check_files(files, RunOptions(), walk_errors=walk_errors, not_regular=[tmp_path / "b", tmp_path / "a"])
    assert run.errors == ["x: no such file or folder", f"{tmp_path / 'gone.log'}: No such file or directory"]
    assert walk_errors == ["x: no such file or folder"]  # the caller's list is not filled
    assert [fr.path for fr in run.report.files] == [str(log)]
    assert run.report.unclaimed == [str(tmp_path / "notes.txt")]
    assert run.report.not_regular == [str(tmp_path / "a"), str(tmp_path / "b")]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_the_registry_entry_names_the_checker(fmt: str) -> None:
    """`recspec check` reaches a format's code through its registry entry: ``FormatInfo.checker`` is
    the ``check`` defined in the plugin's _format module (the contract's entry point)."""
    info = FORMATS[fmt]
    assert info.checker.__module__ == f"recspec.conformance.{fmt.replace('-', '_')}._format"
    assert info.checker.__name__ == "check"
    assert info.checker is info.load().check


def test_the_options_are_one_frozen_value() -> None:
    options = RunOptions(jobs=2)
    with pytest.raises(AttributeError):
        options.jobs = 3  # type: ignore[misc]
    assert options.in_workers and not RunOptions().in_workers and RunOptions(timeout=5).in_workers
    assert options.of_run(7).run_files == 7 and options.run_files is None
