"""`recspec check -j 1` checks a walk's paths as the text the walk stored: no Path object per file.

The walk stores each path as the text ``str(Path(...))`` gives (``pipeline.walk_folders``,
``spool.PathList``); a Path made from it only to be turned back into that text cost about 3 us a file
of a folder of small files. The reports are the same whether a run is given a PathList or the
``(Path, named)`` pairs, and a PathList's text is its Path's spelling whatever it was given.
"""

from __future__ import annotations

import shutil
from array import array
from pathlib import Path

import pytest

from recspec import pipeline, spool
from recspec._run import RunOptions
from recspec.formats import FORMATS

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def _folder(tmp_path: Path) -> Path:
    """A small folder: each format's valid and invalid example seeds (``EXAMPLES``) and a file no format claims."""
    top = tmp_path / "seeds"
    for info in FORMATS.values():
        examples = info.load().EXAMPLES
        for kind, name in (("valid", examples.valid_file), ("invalid", examples.invalid_file[0])):
            if name:
                dest = top / info.id / kind / name
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(CORPUS / info.id / kind / name, dest)
    (top / "notes.txt").write_text("not a recording\n")
    return top


def _walked(top: Path) -> tuple[spool.PathList, array[int]]:
    files = spool.PathList()
    sizes = array("q")
    for names, named in pipeline.walk_folders([str(top)], [], [], sizes):
        files.extend_texts(names, named)
    return files, sizes


def test_a_serial_run_makes_no_path_per_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    top = _folder(tmp_path)
    files, sizes = _walked(top)
    seeds = sum(1 for p in top.rglob("*") if p.suffix != ".txt" and p.is_file())
    assert len(files) == seeds + 1
    made = []
    real = spool.Path

    def counted(*parts: object) -> Path:
        made.append(parts)
        return real(*parts)  # type: ignore[arg-type]

    monkeypatch.setattr(spool, "Path", counted)
    run = pipeline.check_files(files, RunOptions().of_run(len(files)), sizes=sizes)
    assert made == []
    assert len(run.report.files) == seeds and len(run.report.unclaimed) == 1


def test_the_reports_are_those_of_the_paths(tmp_path: Path) -> None:
    top = _folder(tmp_path)
    files, sizes = _walked(top)
    pairs = [(Path(text), named) for text, named in files.texts()]
    for options in (RunOptions().of_run(len(files)), RunOptions(cross_check="full"), RunOptions(cross_check=False)):
        by_text = pipeline.check_files(files, options, sizes=sizes).report
        by_path = pipeline.check_files(pairs, options, sizes=sizes).report
        assert [fr.to_json() for fr in by_text.files] == [fr.to_json() for fr in by_path.files]
        assert by_text.unclaimed == by_path.unclaimed == [str(top / "notes.txt")]
        assert [fr.path for fr in by_text.files] == sorted(str(p) for p, _ in pairs if p.suffix != ".txt")


def test_a_path_list_keeps_each_text_as_its_path_spells_it(tmp_path: Path) -> None:
    given = ["./a//b.x", "c/./d.y", "e/", str(tmp_path / "f.z")]
    files = spool.PathList((text, False) for text in given)
    assert [text for text, _ in files.texts()] == ["a/b.x", "c/d.y", "e", str(tmp_path / "f.z")]
    assert [path for path, _ in files] == [Path(text) for text in given]
