"""`recspec check -j N`: worker processes, a per-file time limit, crash and timeout verdicts.

The crash and timeout paths are real: RECSPEC_TEST_WORKER_FAULT makes a worker
segfault or hang on the named files (see recspec/_parallel.py), and the parent
has to notice, replace the worker and keep every other file's result.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from helpers import example_invalid_file, example_valid_file, format_valid_by_default, manifest_files
from helpers import run_cli as run
from recspec.cli import main
from recspec.conformance.corpus import corpus_folder
from recspec.formats import FORMATS

#: the example format: -j N and its verdicts are every format's, shown on one's corpus (valid by default)
INFO = format_valid_by_default()
CORPUS = corpus_folder(INFO.id)
#: the example's suffix: the folder's files are named with it, so that the format claims them
SUF = example_valid_file(INFO).suffix


def _by_verdict(verdict: str) -> list[str]:
    """The corpus files of the example's suffix that its manifest expects ``verdict`` of by default."""
    return [e["path"] for e in manifest_files(INFO) if e["path"].endswith(SUF)
            and e["expect"][INFO.default_profile]["verdict"] == verdict]



@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    valid = [v for v in _by_verdict("valid") if v != f"valid/{example_valid_file(INFO).name}"]
    names = {f"a{SUF}": f"valid/{example_valid_file(INFO).name}", f"boom{SUF}": valid[0],
             f"c{SUF}": f"invalid/{example_invalid_file(INFO)[0].name}", f"slow{SUF}": valid[1], f"e{SUF}": valid[2],
             f"f{SUF}": _by_verdict("malformed")[0]}
    for name, src in names.items():
        shutil.copy(CORPUS / src, tmp_path / name)
    return tmp_path


def verdicts(out: str) -> dict[str, str]:
    return {Path(f["path"]).name: f["verdict"] for f in json.loads(out)["files"]}


EXPECTED = {f"a{SUF}": "valid", f"boom{SUF}": "valid", f"c{SUF}": "invalid", f"slow{SUF}": "valid",
            f"e{SUF}": "valid", f"f{SUF}": "malformed"}


@pytest.mark.parametrize("jobs", ["1", "2", "3"])
def test_parallel_runs_give_the_serial_report(folder, jobs):
    code, out, _ = run("check", "--json", "-j", jobs, str(folder))
    assert code == 1
    assert verdicts(out) == EXPECTED
    assert list(verdicts(out)) == sorted(EXPECTED)  # the folder's sorted order, whatever finished first
    _, serial, _ = run("check", "--json", str(folder))
    assert out == serial


def test_a_crashing_and_a_hanging_file_get_crash_and_timeout_and_the_rest_is_kept(folder, monkeypatch):
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", "crash=boom;hang=slow")
    start = time.monotonic()
    code, out, err = run("check", "--json", "-j", "2", "--timeout", "4", str(folder))
    took = time.monotonic() - start
    assert code == 1 and err == ""
    assert verdicts(out) == {**EXPECTED, f"boom{SUF}": "crash", f"slow{SUF}": "timeout"}
    files = {Path(f["path"]).name: f for f in json.loads(out)["files"]}
    [crash] = files[f"boom{SUF}"]["findings"]
    assert crash["rule"] == "RECSPEC-INTERNAL" and "SIGSEGV" in crash["message"]
    [timeout] = files[f"slow{SUF}"]["findings"]
    assert timeout["rule"] == "RECSPEC-TIMEOUT" and "4 s" in timeout["message"]
    assert json.loads(out)["summary"]["crash"] == 1 and json.loads(out)["summary"]["timeout"] == 1
    assert took < 30  # the hang was cut at its limit, not waited out


def test_timeout_with_one_job_uses_one_worker(folder, monkeypatch):
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", "hang=slow")
    code, out, _ = run("check", "--json", "--timeout", "3", str(folder))
    assert code == 1
    assert verdicts(out) == {**EXPECTED, f"slow{SUF}": "timeout"}


def test_every_worker_crashing_still_gives_a_report(folder, monkeypatch):
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", f"crash={SUF}")
    code, out, _ = run("check", "--json", "-j", "2", str(folder))
    assert code == 1
    assert set(verdicts(out).values()) == {"crash"} and len(verdicts(out)) == len(EXPECTED)


def test_the_fault_hook_does_nothing_in_the_serial_path(folder, monkeypatch):
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", "crash=boom;hang=slow")
    _code, out, _ = run("check", "--json", str(folder))
    assert verdicts(out) == EXPECTED


def test_missing_file_is_an_io_error_in_parallel_too(folder):
    code, _out, err = run("check", "-j", "2", str(folder / f"a{SUF}"), str(folder / "nope.log"))
    assert code == 2 and "nope.log: no such file or folder" in err


@pytest.mark.parametrize(("args", "message"), [(["-j", "x"], "not a number of jobs"),
                                               (["-j", "-1"], "0 (one per CPU) or more"),
                                               (["--timeout", "0"], "more than 0 seconds")],
                         ids=["jobs-not-a-number", "jobs-negative", "timeout-zero"])
def test_bad_jobs_and_timeout(args, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(["check", str(CORPUS / "valid"), *args])
    assert e.value.code == 2 and message in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_and_none_in_ci(folder, monkeypatch):
    from recspec.cli import _cmd_check, _parser

    args = _parser().parse_args(["check", "-j", "2", str(folder)])
    monkeypatch.delenv("CI", raising=False)
    term = _Terminal()
    _cmd_check(args, io.StringIO(), term)
    shown = term.getvalue()
    assert "6/6" in shown and "[" + "#" * 30 + "]" in shown and shown.endswith("\r\x1b[2K")
    monkeypatch.setenv("CI", "true")
    term = _Terminal()
    _cmd_check(args, io.StringIO(), term)
    assert term.getvalue() == ""
    plain = io.StringIO()  # a pipe or a log file
    monkeypatch.delenv("CI")
    _cmd_check(args, io.StringIO(), plain)
    assert plain.getvalue() == ""


def test_a_result_that_cannot_cross_processes_is_a_crash_not_a_lost_run(folder, monkeypatch):
    """Workers are forked, so a patched check_file runs in them: one file's report holds a value
    pickle refuses (a lambda), and that file alone becomes a crash with the reason."""
    import recspec.pipeline as pipeline
    from recspec.report import FileReport, Verdict

    real = pipeline.check_file

    def check_file(path, **kwargs):
        if path.name == f"c{SUF}":
            return FileReport(str(path), INFO.id, None, "spec", Verdict.VALID, stats={"bad": lambda: 0})
        return real(path, **kwargs)

    monkeypatch.setattr(pipeline, "check_file", check_file)
    _code, out, _ = run("check", "--json", "-j", "2", str(folder))
    assert verdicts(out) == {**EXPECTED, f"c{SUF}": "crash"}
    [finding] = next(f for f in json.loads(out)["files"] if f["path"].endswith(f"c{SUF}"))["findings"]
    assert finding["rule"] == "RECSPEC-INTERNAL" and "could not be sent back" in finding["message"]


def test_plan_batches_groups_small_files_and_keeps_big_ones_alone_biggest_first():
    from recspec._parallel import BATCH_BYTES, BATCH_FILES, plan_batches

    big = [BATCH_BYTES, 3 * BATCH_BYTES, 2 * BATCH_BYTES]
    sizes = [100] * 4000 + big
    batches = plan_batches(sizes, jobs=2)
    assert batches[:3] == [[4001], [4002], [4000]]  # the big files alone, biggest first
    small = batches[3:]
    assert [i for b in small for i in b] == list(range(4000))  # every small file once, in the given order
    assert max(len(b) for b in small) == BATCH_FILES
    # few files: small enough batches that each of the workers gets several
    assert [len(b) for b in plan_batches([100] * 16, jobs=2)] == [2] * 8
    assert plan_batches([100] * 3, jobs=4) == [[0], [1], [2]]
    # the byte cap: files of 40% of BATCH_BYTES go two by two, though the count allows three
    assert plan_batches([BATCH_BYTES * 4 // 10] * 12, jobs=1) == [[i, i + 1] for i in range(0, 12, 2)]
    assert plan_batches([], jobs=2) == []


@pytest.fixture()
def many(tmp_path: Path) -> Path:
    """24 small logs: with -j 2, batches of 3, so a fault is in the middle of a batch."""
    sources = sorted((CORPUS / "valid").glob(f"*{SUF}")) + sorted((CORPUS / "invalid").glob(f"*{SUF}"))
    for i in range(24):
        shutil.copy(sources[i % len(sources)], tmp_path / f"f{i:02d}{SUF}")
    return tmp_path


def by_name(out: str) -> dict[str, dict[str, object]]:
    return {Path(f["path"]).name: f for f in json.loads(out)["files"]}


@pytest.mark.parametrize(("fault", "verdict"), [("crash", "crash"), ("hang", "timeout")])
def test_a_fault_inside_a_batch_costs_only_that_file(many, monkeypatch, fault, verdict):
    """f10 is the second file of a batch of three (f09-f11): the file before it finished but
    its result went down with the worker, the one after it had not started; both are checked
    again and keep their serial report."""
    from recspec._parallel import plan_batches

    assert [9, 10, 11] in plan_batches([(many / f"f{i:02d}{SUF}").stat().st_size for i in range(24)], jobs=2)
    serial_code, serial, _ = run("check", "--json", str(many))
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", f"{fault}=f10.")
    code, out, err = run("check", "--json", "-j", "2", "--timeout", "3", str(many))
    assert code == serial_code == 1 and err == ""
    got, want = by_name(out), by_name(serial)
    assert list(got) == list(want)  # every file, in the serial order
    assert got.pop(f"f10{SUF}")["verdict"] == verdict
    want.pop(f"f10{SUF}")
    assert got == want


def _table_blocks(table: str) -> list[str]:
    """The table's lines grouped a row at a time: a file's row with the findings' lines under it."""
    blocks: list[str] = []
    for line in table.splitlines():
        if line.startswith(" ") and blocks:
            blocks[-1] += "\n" + line
        else:
            blocks.append(line)
    return blocks


def test_a_worker_that_dies_keeps_the_table_rows_it_answered(tmp_path, monkeypatch):
    """The table's rows are made by the workers and written to their own segments of the spool with
    the reports: a worker that dies on f20 (its batch, f18-f20, is the seventh of eight, handed out
    in order since the files are the same size: each worker has answered a batch before) loses none
    of the rows it answered, and the worker that replaces it writes on after them. The table is the
    serial run's but for f20's row, which says crash, and the summary, which counts it."""
    from recspec._parallel import plan_batches

    source = CORPUS / f"invalid/{example_invalid_file(INFO)[0].name}"
    for i in range(24):
        shutil.copy(source, tmp_path / f"f{i:02d}{SUF}")
    assert plan_batches([source.stat().st_size] * 24, jobs=2)[6] == [18, 19, 20]
    serial_code, serial, _ = run("check", str(tmp_path))
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", "crash=f20.")
    code, out, err = run("check", "-j", "2", str(tmp_path))
    assert code == serial_code == 1 and err == ""
    f20 = str(tmp_path / f"f20{SUF}") + " "
    got, want = _table_blocks(out), _table_blocks(serial)
    assert len(got) == len(want) == 24 + 3  # the header, a row per file, a blank line, the summary
    crashed = [b for b in got if b.startswith(f20)]
    assert len(crashed) == 1 and "crash" in crashed[0].split("\n")[0].split()
    assert [b for b in got[:-1] if not b.startswith(f20)] == [b for b in want[:-1] if not b.startswith(f20)]


def _name_of(path: Path, named: bool) -> str:
    return path.name


@pytest.mark.parametrize(("fault", "kind"), [("crash", "crash"), ("hang", "timeout")])
def test_a_fault_in_the_second_batch_in_flight_blames_its_file(tmp_path, monkeypatch, fault, kind):
    """One worker is sent two batches at once; it answers the first, then faults on the middle
    file of the second: that file alone is lost, the other two are checked again. The third
    batch, sent when the first was answered, may find the worker already dead: it is checked
    by the next worker."""
    from recspec._parallel import run_in_workers

    files = [(tmp_path / f"{c}.bin", False) for c in "abcdefghi"]
    monkeypatch.setenv("RECSPEC_TEST_WORKER_FAULT", f"{fault}=e.bin")
    got: dict[str, tuple[str, object]] = {}
    run_in_workers(files, _name_of, jobs=1, timeout=2, batches=[[0, 1, 2], [3, 4, 5], [6, 7, 8]],
                   on_result=lambda i, k, v: got.setdefault(files[i][0].name, (k, v)))
    assert sorted(got) == [f"{c}.bin" for c in "abcdefghi"]
    lost_kind, lost = got.pop("e.bin")
    assert lost_kind == "lost" and getattr(lost, "kind", None) == kind
    assert got == {name: ("ok", name) for name in got}


def _hang(parent_pid: int) -> None:
    while True:
        time.sleep(1)


def test_a_worker_stuck_before_its_first_file_still_ends_the_run(tmp_path, monkeypatch):
    """A worker that never starts on its batch (stuck as it starts) is stopped after WALL_FACTOR
    times the limit; the batch's first file takes the timeout verdict, so every worker stuck
    the same way still lets the run end."""
    import recspec._parallel as parallel

    monkeypatch.setattr(parallel, "_die_with_parent", _hang)  # the forked worker runs it first
    files = [(tmp_path / f"{c}.bin", False) for c in "ab"]
    got: dict[int, tuple[str, object]] = {}
    start = time.monotonic()
    parallel.run_in_workers(files, _name_of, jobs=1, timeout=0.3, batches=[[0, 1]],
                            on_result=lambda i, k, v: got.setdefault(i, (k, v)))
    assert sorted(got) == [0, 1]
    assert all(kind == "lost" and getattr(lost, "kind", None) == "timeout" for kind, lost in got.values())
    assert time.monotonic() - start < 20


def test_two_jobs_give_the_serial_run_byte_for_byte_on_a_mixed_folder(tmp_path):
    """Every format's corpus twice (valid, invalid, malformed, real recordings, regressions), files no
    format claims, a recording no format recognises, and over TABLE_CHUNK files (the table is written in
    chunks; the workers send many batches of up to BATCH_FILES): the table, the messages, the exit code and
    every report equal -j 1's, byte for byte."""
    from recspec.render._table import TABLE_CHUNK

    root = Path(__file__).resolve().parents[1] / "corpus"
    mixed = tmp_path / "mixed"
    for copy in ("a", "b"):
        shutil.copytree(root, mixed / copy)
    (mixed / "a" / "notes.txt").write_text("not a recording\n")
    (mixed / "b" / f"zeroed{SUF}").write_bytes(bytes(64))  # claimed by its extension, recognised by nothing
    files = sum(1 for p in mixed.rglob("*") if p.is_file())
    assert files > TABLE_CHUNK
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        out.mkdir()
        reports = [f"{kind}:{out / ('r.' + kind)}" for kind in ("json", "sarif", "junit", "markdown", "html")]
        args = ["check", "-j", jobs, "--verbose", str(mixed)]
        for r in reports:
            args += ["--report", r]
        code, stdout, stderr = run(*args)
        runs[jobs] = (code, stdout, stderr, {p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert runs["1"][0] == 1 and "unclaimed" in runs["1"][1] and len(runs["1"][3]) == 5
    assert runs["2"] == runs["1"]


_PRELOAD_PROBE = """
import json, sys
from recspec.pipeline import check_paths
report, _ = check_paths([sys.argv[1]], jobs=2)
print(json.dumps({"files": len(report.files),
                  "loaded": sorted(m for m in sys.modules if m.startswith(sys.argv[2] + "._"))}))
"""


def test_the_parent_imports_the_checker_its_workers_need_before_forking(folder):
    """The workers share the parent's import of the first batches' checker (and cross-check) instead
    of each importing its own; the parent itself checks nothing."""
    import subprocess
    import sys

    probe = subprocess.run([sys.executable, "-c", _PRELOAD_PROBE, str(folder), INFO.module], capture_output=True,
                           text=True, check=True)
    got = json.loads(probe.stdout)
    assert got["files"] == len(EXPECTED)
    assert {f"{INFO.module}._check", f"{INFO.module}._xcheck"} <= set(got["loaded"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_fifo_named_with_two_jobs_is_read_by_its_worker_alone(tmp_path):
    """The parent's look at the first files before forking must not open a FIFO: the bytes it read
    would be missing from the stream the worker checks."""
    import threading

    fifo = tmp_path / f"rec{SUF}"
    os.mkfifo(fifo)
    shutil.copy(CORPUS / _by_verdict("valid")[1], tmp_path / f"other{SUF}")

    def write() -> None:
        with open(fifo, "wb") as f:  # blocks until a reader opens it
            f.write(example_valid_file(INFO).read_bytes())

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    code, out, err = run("check", "--json", "-j", "2", str(fifo), str(tmp_path / f"other{SUF}"))
    writer.join(timeout=10)
    assert code == 0, err
    assert verdicts(out) == {f"rec{SUF}": "valid", f"other{SUF}": "valid"}


@pytest.mark.parametrize(("jobs", "per_rule"), [(2, 5), (2, None), (1, 5)])
def test_each_stored_report_has_its_table_entry_as_the_table_would_render_it(tmp_path, jobs, per_rule):
    """With ``entry`` (what `recspec check` passes when it prints the table), every report stored (by a
    worker, or the serial loop) has its table entry beside it, equal to the one rendered from the report
    with the whole run's context; a spool rewritten (``--expectations``) has none, so the table renders
    its marked reports."""
    import dataclasses
    import pickle

    from recspec.pipeline import check_paths
    from recspec.render import RenderContext
    from recspec.render._table import EntryMaker, print_table, table_entry
    from recspec.spool import Spool

    root = Path(__file__).resolve().parents[1] / "corpus"
    mixed = tmp_path / "mixed"
    shutil.copytree(root, mixed)
    with Spool() as spool:
        report, errors = check_paths([str(mixed)], jobs=jobs, into=spool, entry=EntryMaker(per_rule))
        assert not errors and len(report.files) > 100
        ctx = RenderContext(report)
        formats = set()
        for i, fr in enumerate(report.files):
            stored = spool.entry(i)
            assert stored is not None, fr.path
            assert pickle.loads(stored) == table_entry(fr, ctx, per_rule), fr.path
            formats.add(fr.format)
        assert set(FORMATS) <= formats
        # the whole table printed from the entries equals the one printed from the reports themselves
        # (a list keeps no entry)
        from_entries, from_reports = io.StringIO(), io.StringIO()
        print_table(report, from_entries, per_rule=per_rule)
        print_table(dataclasses.replace(report, files=list(report.files)), from_reports, per_rule=per_rule)
        assert from_entries.getvalue() == from_reports.getvalue()
        rewritten = spool.rewrite()
        assert [rewritten.entry(i) for i in range(len(rewritten))] == [None] * len(rewritten)
        rewritten.close()
