"""Bounded memory for big runs: the spool (recspec/spool.py), the streaming report writers and the
streaming read of JSON reports by `recspec merge`."""

from __future__ import annotations

import gc
import json
import os
import random
import shutil
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import example_invalid_file, run_cli
from recspec import merge as merge_module
from recspec.conformance.corpus import corpus_folder
from recspec.errors import EXIT_FAIL
from recspec.formats import FORMATS
from recspec.pipeline import check_paths
from recspec.render import RENDERERS, RenderContext, render
from recspec.render._json import Lazy, iter_dumps
from recspec.report import FileReport, Report, Tally, Verdict
from recspec.spool import PathList, Spool, frame_records, record

ROOT = Path(__file__).resolve().parent.parent
#: two formats' corpora: what the spool keeps is every format's; FIRST's invalid files fail a run, OTHER's valid
#: files (valid under its EXAMPLES.valid_profile, compat here) pass
FIRST, OTHER = next(iter(FORMATS.values())), list(FORMATS.values())[-1]
FIRST_INVALID, OTHER_VALID = corpus_folder(FIRST.id) / "invalid", corpus_folder(OTHER.id) / "valid"


def live_file_reports() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is FileReport)


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of 60 small recordings, valid and not: four from FIRST's invalid/, so a run over it fails."""
    d = tmp_path_factory.mktemp("many")
    sources = sorted(OTHER_VALID.iterdir()) + sorted(FIRST_INVALID.iterdir())[:4]
    for i in range(60):
        src = sources[i % len(sources)]
        shutil.copy(src, d / f"{i:03d}-{src.name}")
    return d


# --- the run keeps no FileReport in memory ----------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_folder_run_holds_no_file_reports_in_memory(many: Path, tmp_path: Path, monkeypatch, jobs: str) -> None:
    """The number of FileReport objects alive after the checking and while the reports are written
    does not grow with the number of files (before: every file's report was held to the end)."""
    import recspec.pipeline as pipeline  # the CLI imports check_files from it when a check starts
    import recspec.report as report_module

    seen: dict[str, int] = {"after_check": -1, "while_writing": 0, "files": 0}
    check_files = pipeline.check_files

    def counting_check_files(*args, **kwargs):
        run = check_files(*args, **kwargs)
        seen["files"] = len(run.report.files)
        seen["after_check"] = live_file_reports()
        return run

    to_json = report_module.FileReport.to_json
    calls = {"n": 0}

    def counting_to_json(self):
        calls["n"] += 1
        if calls["n"] % 20 == 0:
            seen["while_writing"] = max(seen["while_writing"], live_file_reports())
        return to_json(self)

    monkeypatch.setattr(pipeline, "check_files", counting_check_files)
    monkeypatch.setattr(report_module.FileReport, "to_json", counting_to_json)
    baseline = live_file_reports()
    code, _, err = run_cli("check", "-j", jobs, str(many), "--report", f"json:{tmp_path / 'r.json'}",
                           "--report", f"junit:{tmp_path / 'r.xml'}", "--report", f"html:{tmp_path / 'r.html'}")
    assert code == EXIT_FAIL, err  # FIRST's invalid files fail the run
    assert seen["files"] == 60
    assert seen["after_check"] - baseline <= 1, seen
    assert calls["n"] >= 60 and seen["while_writing"] - baseline <= 3, seen
    assert len(json.loads((tmp_path / "r.json").read_text())["files"]) == 60


def test_merge_holds_no_file_reports_in_memory(many: Path, tmp_path: Path, monkeypatch) -> None:
    code, _, err = run_cli("check", str(many), "--report", f"json:{tmp_path / 'r.json'}")
    assert code == EXIT_FAIL, err  # FIRST's invalid files fail the run
    import recspec.report as report_module

    to_json = report_module.FileReport.to_json
    seen = {"max": 0, "n": 0}

    def counting_to_json(self):
        seen["n"] += 1
        if seen["n"] % 20 == 0:
            seen["max"] = max(seen["max"], live_file_reports())
        return to_json(self)

    baseline = live_file_reports()
    monkeypatch.setattr(report_module.FileReport, "to_json", counting_to_json)
    code, _, err = run_cli("merge", str(tmp_path / "r.json"), "--report", f"json:{tmp_path / 'm.json'}")
    assert code == EXIT_FAIL, err  # FIRST's invalid files fail the run
    assert (tmp_path / "m.json").read_bytes() == (tmp_path / "r.json").read_bytes()
    assert seen["n"] >= 60 and seen["max"] - baseline <= 3, seen


# --- the spool --------------------------------------------------------------------------------


def _fr(i: int, verdict: Verdict = Verdict.VALID) -> FileReport:
    return FileReport(f"f{i}.sig", FIRST.id, None, "spec", verdict, stats={"i": i})


def test_spool_gives_the_files_order_whatever_order_they_were_stored_in() -> None:
    order = list(range(200))
    random.Random(5).shuffle(order)
    unclaimed = set(order[:17])  # indices that get no report (unclaimed or unreadable files)
    with Spool() as spool:
        for i in order:
            if i not in unclaimed:
                spool.put(i, _fr(i, Verdict.INVALID if i % 3 == 0 else Verdict.VALID))
        spool.seal()
        want = [i for i in range(200) if i not in unclaimed]
        assert [fr.stats["i"] for fr in spool] == want
        assert len(spool) == len(want)
        assert spool[0].stats["i"] == want[0] and spool[-1].stats["i"] == want[-1]
        assert [fr.stats["i"] for fr in spool[3:6]] == want[3:6]
        assert spool.tally == Tally.of(_fr(i, Verdict.INVALID if i % 3 == 0 else Verdict.VALID) for i in want)
        assert spool.tally.first == (want[0], "spec")
        with pytest.raises(ValueError, match="sealed"):
            spool.put(500, _fr(500))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list(Verdict)), min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_records_stored_with_their_batches_tallies_equal_reports_stored_one_by_one(verdicts, rnd) -> None:
    """-j N: a worker sends a batch's reports as records (spool.record) with the batch's tally; the
    spool that stores them (put_record, tally.merge), batches in any order, equals one that stored
    each report with put: the same files in order and the same tally, its first file included."""
    reports = [FileReport(f"{'x' * rnd.randrange(9)}{i}.sig", rnd.choice(list(FORMATS)), None,
                          rnd.choice(["spec", "compat"]), v, stats={"i": i}) for i, v in enumerate(verdicts)]
    order = list(range(len(reports)))
    rnd.shuffle(order)
    cuts = sorted(rnd.sample(range(1, len(order)), min(3, len(order) - 1))) if len(order) > 1 else []
    batches = [order[a:b] for a, b in zip([0, *cuts], [*cuts, len(order)])]
    rnd.shuffle(batches)
    entry = {i: None if rnd.random() < 0.3 else f"entry {i}".encode() for i in range(len(reports))}
    with Spool() as one_by_one, Spool() as batched, Spool() as framed:
        for i in order:
            one_by_one.put(i, reports[i], entry[i])
        for batch in batches:
            tally = Tally()
            for i in batch:
                batched.put_record(i, record(reports[i]), entry[i])
                tally.add(reports[i], i)
            batched.tally.merge(tally)
            # as a -j N worker sends a batch (pipeline._pack): the records and entries framed back to back
            framed.put_batch(array("q", batch), frame_records(record(reports[i]) for i in batch),
                             frame_records(entry[i] for i in batch))
            framed.tally.merge(tally)
        assert batched.tally == one_by_one.tally == framed.tally == Tally.of(reports)
        want = [{"i": i} for i in range(len(reports))]
        assert [fr.stats for fr in batched] == [fr.stats for fr in one_by_one] == [fr.stats for fr in framed] == want
        assert ([framed.entry(i) for i in range(len(reports))] == [one_by_one.entry(i) for i in range(len(reports))]
                == [entry[i] for i in range(len(reports))])


def test_spool_refuses_a_file_stored_twice() -> None:
    with Spool() as spool:
        spool.put(3, _fr(3))
        with pytest.raises(ValueError, match="twice"):
            spool.put(3, _fr(3))


def test_spool_keeps_what_json_does_not_and_rewrite_changes_it() -> None:
    report, _ = check_paths([str(FIRST_INVALID)], profile="compat")
    with Spool() as spool:
        spool.extend(report.files)
        assert list(spool) == report.files  # findings, verdicts, stats, evidence, capped counts

        def marked(files):
            for fr in files:
                fr.known_deviations = {fr.findings[0].rule: "why"} if fr.findings else {}
                yield fr

        again = spool.rewrite(marked(spool))
    with again:
        assert all(fr.known_deviations for fr in again if fr.findings)
        assert again.tally.known_files == sum(1 for fr in report.files if fr.findings)


def test_path_list_gives_back_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    from recspec import spool as spool_module

    monkeypatch.setattr(spool_module, "_EXTEND_CHUNK", 7)  # extend writes the walk 7 paths at a time
    items = [(Path(f"a/b{i}/c.sig"), i % 2 == 0) for i in range(50)] + [(Path("odd\udcffname"), True)]
    with PathList(items[:3]) as more:  # appended one at a time after a chunked extend, then extended again
        more.append(items[3])
        more.extend(items[4:])
        assert list(more) == items
    with PathList(items) as paths:
        assert list(paths) == items and len(paths) == 51 and paths[7] == items[7] and paths[-1] == items[-1]
        texts = paths.texts()
        # a -j N batch's paths, read in one go when its indices run on (the last item's odd name too)
        for indices in ([3, 4, 5, 6], [0], [45, 46, 47, 48, 49, 50], [5, 9, 10], [8, 7, 9], [2, 3, 3], []):
            assert texts.many(indices) == [(os.fsdecode(bytes(str(items[i][0]), "utf-8", "surrogateescape")),
                                            items[i][1]) for i in indices] == [texts[i] for i in indices]


# --- the writers ------------------------------------------------------------------------------


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5)
                     | st.floats(allow_nan=False, allow_infinity=False),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                     max_leaves=20)


@given(_JSON, st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_iter_dumps_is_json_dumps(value, rnd) -> None:
    def lazily(v):  # some of the arrays made as they are written
        if isinstance(v, dict):
            return {k: lazily(x) for k, x in v.items()}
        if isinstance(v, list):
            items = [lazily(x) for x in v]
            return Lazy(iter(items)) if rnd.random() < 0.5 else items
        return v

    assert "".join(iter_dumps(lazily(value))) == json.dumps(value, indent=2)


def test_iter_dumps_of_lazy_arrays_is_json_dumps_of_lists() -> None:
    value = {"a": [1, Lazy(iter([{"x": [1, 2]}, "s"])), Lazy(iter([]))], "b": Lazy(iter([{"c": {}}, []])), "d": {}}
    plain = {"a": [1, [{"x": [1, 2]}, "s"], []], "b": [{"c": {}}, []], "d": {}}
    assert "".join(iter_dumps(value)) == json.dumps(plain, indent=2)


@pytest.mark.parametrize("kind", list(RENDERERS))
def test_every_report_from_a_spool_equals_the_report_from_a_list(kind: str, tmp_path: Path) -> None:
    from recspec.expectations import Expectations, apply_expectations

    report, _ = check_paths([str(FIRST_INVALID), str(corpus_folder(OTHER.id))], profile="compat")
    invalid, rule = example_invalid_file(FIRST)
    listed_file = os.path.relpath(invalid, tmp_path)
    exp = Expectations(tmp_path / "e.json", {Path(listed_file).as_posix(): {rule: "known", "X-NO-RULE-999": "stale"}})
    with Spool() as spool:
        spool.extend(report.files)
        spooled = Report(spool.seal(), unclaimed=["x.txt"], not_regular=["fifo"])
        listed = Report(list(report.files), unclaimed=["x.txt"], not_regular=["fifo"])
        apply_expectations(listed, exp, name="e.json")
        apply_expectations(spooled, exp, name="e.json")
        assert listed.stale and spooled.stale == listed.stale
        assert spooled.summary() == listed.summary() and spooled.ok == listed.ok
        want = render(kind, listed, RenderContext(listed, pictures=False))
        got = render(kind, spooled, RenderContext(spooled, pictures=False))
        spooled.files.close()  # type: ignore[attr-defined]
    assert got == want
    assert render(kind, Report(), RenderContext(Report())) == render(kind, Report(), RenderContext(Report()))


# --- merge reads reports a value at a time ----------------------------------------------------


@pytest.fixture(scope="module")
def report_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    d = tmp_path_factory.mktemp("rep")
    code, _, err = run_cli("check", "--profile", "compat", str(FIRST_INVALID), str(OTHER_VALID),
                           "--report", f"json:{d / 'r.json'}")
    assert code == EXIT_FAIL, err  # FIRST's invalid files fail the run
    return (d / "r.json").read_text()


@pytest.mark.parametrize("chunk", [1, 7, 100, 1 << 16])
@pytest.mark.parametrize("compact", [False, True])
def test_merge_reads_any_chunking_and_layout_alike(report_text: str, tmp_path: Path, monkeypatch, chunk: int,
                                                   compact: bool) -> None:
    monkeypatch.setattr(merge_module, "CHUNK", chunk)
    src = tmp_path / "r.json"
    src.write_text(json.dumps(json.loads(report_text), separators=(",", ":")) if compact else report_text)
    code, out, err = run_cli("merge", "--json", str(src))
    assert code == EXIT_FAIL, err  # FIRST's invalid files fail the run
    assert out == report_text


@pytest.mark.parametrize("cut", [0, 1, 2, 30, 200, 1000, 5000, -200, -30, -2])
def test_a_cut_report_is_refused_with_a_clear_error(report_text: str, tmp_path: Path, monkeypatch, cut: int) -> None:
    monkeypatch.setattr(merge_module, "CHUNK", 64)
    src = tmp_path / "cut.json"
    src.write_text(report_text[:cut] if cut >= 0 else report_text[:len(report_text) + cut])
    code, out, err = run_cli("merge", str(src))
    assert code == 2 and out == "", err
    assert "Traceback" not in err
    assert "is not JSON" in err or "is not a recspec JSON report" in err or "does not match its files" in err, err


@pytest.mark.parametrize("text, says", [
    ('{"report_schema": 1, "files": [1]}', "files[0] is int, not an object"),
    ('{"report_schema": 1, "files": {}}', "'files' is dict"),
    ('{"report_schema": 1, "files": []} trailing', "more text after"),
    ('{"report_schema": 1, "files": [{"path": "a",}]}', "is not JSON"),
    ('{"report_schema": 1 "files": []}', "is not JSON (expected ',' or '}'"),
    ("\ufeff{}", "is not a recspec JSON report"),
    ("", "is not JSON (it is empty)"),
])
def test_bad_reports_are_refused_with_a_clear_error(tmp_path: Path, text: str, says: str) -> None:
    src = tmp_path / "bad.json"
    src.write_text(text)
    code, _, err = run_cli("merge", str(src))
    assert code == 2 and says in err and "Traceback" not in err, err


def test_merged_shards_come_back_in_walk_order_as_they_are_read(many: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(merge_module, "CHUNK", 50)
    code, _, err = run_cli("check", str(many), "--report", f"json:{tmp_path / 'whole.json'}")
    assert code == EXIT_FAIL, err  # FIRST's invalid files fail the run
    for k in (1, 2, 3):
        run_cli("check", str(many), "--shard", f"{k}/3", "--report", f"json:{tmp_path / f's{k}.json'}")
    code, _, err = run_cli("merge", *(str(tmp_path / f"s{k}.json") for k in (3, 1, 2)),
                           "--report", f"json:{tmp_path / 'merged.json'}")
    assert code == EXIT_FAIL, err  # FIRST's invalid files fail the run
    assert (tmp_path / "merged.json").read_bytes() == (tmp_path / "whole.json").read_bytes()
    # a shard whose positions go backwards is refused, not mis-ordered
    doc = json.loads((tmp_path / "s1.json").read_text())
    doc["shard"]["positions"][:2] = doc["shard"]["positions"][1::-1]
    (tmp_path / "s1.json").write_text(json.dumps(doc))
    code, _, err = run_cli("merge", *(str(tmp_path / f"s{k}.json") for k in (1, 2, 3)))
    assert code == 2 and "walk position" in err and "Traceback" not in err, err


def test_a_full_disk_under_the_spool_is_a_clear_error(many: Path, tmp_path: Path, monkeypatch) -> None:
    import tempfile  # the spool imports it when it makes its first store, and gets this one

    class Full:
        def __init__(self, *a, **k) -> None:
            pass

        def write(self, data: bytes) -> int:
            raise OSError(28, "No space left on device")

        tell = seek = flush = close = lambda self, *a: 0

    monkeypatch.setattr(tempfile, "TemporaryFile", Full)
    code, _, err = run_cli("check", str(many))
    assert code == 2 and "No space left on device" in err and "temporary store" in err and "TMPDIR" in err, err
    assert "Traceback" not in err


def test_merged_counts_are_the_counts_of_the_merged_files(many: Path, tmp_path: Path) -> None:
    from recspec.merge import merge_reports

    for k in (1, 2, 3):
        run_cli("check", str(many), "--profile", "compat", "--shard", f"{k}/3",
                "--report", f"json:{tmp_path / f's{k}.json'}")
    run_cli("check", str(min(many.iterdir())), "--report", f"json:{tmp_path / 'one.json'}")
    for names in (["s2", "s3", "s1"], ["one", "one"]):
        merged = merge_reports([str(tmp_path / f"{n}.json") for n in names])
        try:
            counted = Tally.of(list(merged.files))
            kept = merged.tally()
            assert kept.profile == counted.profile
            kept.first = counted.first = None
            assert kept == counted and counted.files == (60 if names[0] == "s2" else 2)
        finally:
            merged.files.close()  # type: ignore[attr-defined]


def test_html_draws_the_first_pictured_files_and_says_so(monkeypatch) -> None:
    from recspec.render import _html
    from recspec.trace import collecting

    with collecting(True):
        report, _ = check_paths([str(p) for p in sorted((corpus_folder(FIRST.id) / "valid").iterdir())[:3]])
    drawn = render("html", report, RenderContext(report))
    assert drawn.count("<figure") == 3 and "Pictures are drawn for the first" not in drawn
    monkeypatch.setattr(_html, "PICTURED_FILES", 1)
    cut = render("html", report, RenderContext(report))
    assert cut.count("<figure") == 1 and "Pictures are drawn for the first 1 files of the 3" in cut


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list(Verdict)), min_size=1, max_size=60), st.randoms(use_true_random=False),
       st.integers(1, 9))
def test_reports_written_to_workers_segments_equal_reports_stored_one_by_one(verdicts, rnd, at_once) -> None:
    """-j N: each worker writes its batches' reports and table entries to its own segments of the spool
    (SegmentWriter) and the recspec process stores where they lie (put_written), batches in any order.
    A worker dies after writing a batch it never answered: its replacement writes on from the end of
    what was answered, over the unanswered bytes. The spool equals one that stored each report with
    put: the same files in order, the same entries, read one by one and a chunk at a time."""
    import pickle

    from recspec import spool as spool_module

    reports = [FileReport(f"{'x' * rnd.randrange(9)}{i}.sig", rnd.choice(list(FORMATS)), None,
                          rnd.choice(["spec", "compat"]), v, stats={"i": i}) for i, v in enumerate(verdicts)]
    # some files get no report (no format claims them) and some no entry; the rest an entry as the table's
    stored = [i for i in range(len(reports)) if rnd.random() < 0.85]
    entry = {i: None if rnd.random() < 0.2 else pickle.dumps((("cell", str(i)), f"under {i}\n")) for i in stored}
    # batches of consecutive files, handed to two workers in any order
    cuts = sorted(rnd.sample(range(1, len(reports)), min(4, len(reports) - 1))) if len(reports) > 1 else []
    batches = [[i for i in range(a, b) if i in entry] for a, b in zip([0, *cuts], [*cuts, len(reports)])]
    rnd.shuffle(batches)
    saved = spool_module._ENTRIES_AT_ONCE
    spool_module._ENTRIES_AT_ONCE = at_once  # chunks of entries as small as one file
    try:
        with Spool() as one_by_one, Spool() as written:
            for i in stored:
                one_by_one.put(i, reports[i], entry[i])
            workers = [written.segment(entries=True), written.segment(entries=True)]
            ends = {0: (0, 0), 1: (0, 0)}  # where each worker's segments ended at its last answer
            for n, batch in enumerate(batches):
                if not batch:
                    continue
                worker = workers[n % 2]
                lo = batch[0]
                if rnd.random() < 0.3:  # this worker writes a batch and dies before answering it
                    worker.write_batch(lo, batch[-1] - lo + 1, batch, [b"lost" * 9] * len(batch),
                                       [b"lost entry"] * len(batch))
                    # its replacement: the same segments, from where its last answer ended
                    worker.records.end, worker.entries.end = ends[n % 2]  # type: ignore[union-attr]
                offsets, entry_offsets = worker.write_batch(lo, batch[-1] - lo + 1, batch,
                                                            [record(reports[i]) for i in batch],
                                                            [entry[i] for i in batch])
                ends[n % 2] = worker.ends()
                tally = Tally()
                for i in batch:
                    tally.add(reports[i], i)
                assert written.put_written(lo, offsets, entry_offsets) == len(batch)
                written.tally.merge(tally)
            assert written.tally == one_by_one.tally
            assert [fr.stats for fr in written] == [fr.stats for fr in one_by_one] == [{"i": i} for i in stored]
            want = [entry[i] for i in stored]
            assert [written.entry(k) for k in range(len(stored))] == list(written.entries()) == want
            loaded = [e for chunk in written.entry_chunks(pickle.loads) for e in chunk]
            assert loaded == [pickle.loads(e) if e is not None else None for e in want]
    finally:
        spool_module._ENTRIES_AT_ONCE = saved
