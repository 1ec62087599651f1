"""`recspec check -j 1` stores its reports in the spool a batch at a time, as a `-j N` worker's are stored.

Storing a report one by one cost two writes and the store's bookkeeping per file, for the report and
again for its table entry (about 4 us a file of a folder of small files); a batch of SERIAL_BATCH
reports is stored with one write for the records and one for the entries (``Spool.put_batch``). The
spool then holds the same reports, entries and tally as when each is stored on its own.
"""

from __future__ import annotations

import math
import shutil
from array import array
from pathlib import Path

import pytest

from recspec import pipeline, spool
from recspec._run import RunOptions
from recspec.formats import FORMATS
from recspec.render._table import EntryMaker

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
_FIRST = next(iter(FORMATS))  # a format's seeds: more than two batches of files


def _walked(tmp_path: Path) -> tuple[spool.PathList, array[int]]:
    """Three copies of the first format's seeds and a text file no format claims, walked as `check` walks."""
    top = tmp_path / "folder"
    for copy in range(3):
        shutil.copytree(CORPUS / _FIRST, top / f"copy{copy}")
    (top / "copy1" / "notes.txt").write_text("not a recording\n")
    files = spool.PathList()
    sizes = array("q")
    for names, named in pipeline.walk_folders([str(top)], [], [], sizes):
        files.extend_texts(names, named)
    return files, sizes


def _run(files: spool.PathList, sizes: array[int]) -> spool.Spool:
    into = spool.Spool()
    pipeline.check_files(files, RunOptions().of_run(len(files)), into=into, sizes=sizes, entry=EntryMaker(5))
    return into


def test_a_serial_run_writes_its_reports_a_batch_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files, sizes = _walked(tmp_path)
    seeds = sum(1 for p in (CORPUS / _FIRST).rglob("*") if p.is_file())
    assert len(files) == 3 * seeds + 1
    writes = {"one": 0, "framed": 0}
    one, framed = spool._Records.add, spool._Records.add_framed

    def add(self: spool._Records, data: bytes) -> int:
        writes["one"] += 1
        return one(self, data)

    def add_framed(self: spool._Records, data: bytes) -> int:
        writes["framed"] += 1
        return framed(self, data)

    monkeypatch.setattr(spool._Records, "add", add)
    monkeypatch.setattr(spool._Records, "add_framed", add_framed)
    stored = _run(files, sizes)
    reports = len(stored)  # the files a format claims
    assert 2 * pipeline.SERIAL_BATCH < reports <= 3 * seeds
    assert writes["one"] == 0
    # a write for the records and one for the entries of each batch
    assert writes["framed"] == 2 * math.ceil(reports / pipeline.SERIAL_BATCH) < reports


@pytest.mark.parametrize("batch", [1, 7])
def test_the_spool_is_the_one_each_report_stored_alone_makes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            batch: int) -> None:
    files, sizes = _walked(tmp_path)
    batched = _run(files, sizes)

    def alone(self: pipeline._Results, index: int, fr: object) -> None:
        self.put(index, fr)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline._Results, "hold", alone)
    each = _run(files, sizes)
    monkeypatch.undo()
    monkeypatch.setattr(pipeline, "SERIAL_BATCH", batch)
    small = _run(files, sizes)
    for other in (each, small):
        assert [fr.to_json() for fr in batched] == [fr.to_json() for fr in other]
        assert [batched.entry(i) for i in range(len(batched))] == [other.entry(i) for i in range(len(other))]
        assert batched.tally == other.tally
    assert all(batched.entry(i) is not None for i in range(len(batched)))
