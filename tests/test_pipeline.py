"""recspec.pipeline: the per-file pipeline below the CLI (check_file, check_stream, check_paths)."""

from __future__ import annotations

import io
import os
import pickle
from array import array
from pathlib import Path

import pytest

from helpers import example_invalid_file, example_valid_file
from recspec.errors import InputError, RecspecError
from recspec.formats import FORMATS, FormatInfo
from recspec.pipeline import check_file, check_paths, check_stream


@pytest.mark.parametrize("path", [p for info in FORMATS.values() for p in (example_valid_file(info),
                                                                            example_invalid_file(info)[0])],
                         ids=lambda p: p.name)
def test_a_stream_gets_the_report_of_its_file(path: Path) -> None:
    data = path.read_bytes()
    from_file = check_file(path, fmt=None, variant=None, profile=None)
    from_stream = check_stream(io.BytesIO(data), name=str(path), size=len(data))
    assert from_file is not None and from_stream.to_json() == from_file.to_json()


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_a_stream_is_read_from_its_start(info: FormatInfo) -> None:
    f = io.BytesIO(example_valid_file(info).read_bytes())
    f.seek(100)
    profile = info.load().EXAMPLES.valid_profile
    assert check_stream(f, name="x", size=len(f.getvalue()), fmt=info, profile=profile).verdict.value == "valid"


def test_unrecognised_content_is_a_report_for_a_stream_and_none_for_a_folder_member(tmp_path: Path) -> None:
    data = b"hello, not a recording\n" * 4
    report = check_stream(io.BytesIO(data), name="notes.txt", size=len(data))
    assert report.verdict.value == "unrecognized" and report.findings[0].rule == "RECSPEC-UNRECOGNIZED"
    (tmp_path / "notes.txt").write_bytes(data)
    assert check_file(tmp_path / "notes.txt", fmt=None, variant=None, profile=None, named=False) is None


def test_an_unreadable_input_is_an_input_error_that_crosses_processes(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        check_file(tmp_path / "nope.log", fmt=None, variant=None, profile=None)
    assert isinstance(e.value, RecspecError) and e.value.exit_code == 2
    assert str(e.value) == f"{tmp_path / 'nope.log'}: No such file or directory"
    copy = pickle.loads(pickle.dumps(e.value))
    assert type(copy) is InputError and str(copy) == str(e.value) and copy.path == e.value.path


def test_check_paths_lists_missing_paths_and_keeps_the_folders_order(tmp_path: Path) -> None:
    invalid = example_invalid_file(next(iter(FORMATS.values())))[0].parent  # a format's invalid/ folder
    report, errors = check_paths([str(invalid), str(tmp_path / "nope.log")], profile="compat")
    assert errors == [f"{tmp_path / 'nope.log'}: no such file or folder"]
    names = [Path(fr.path).name for fr in report.files]
    assert names == sorted(names) and names and all(fr.profile == "compat" for fr in report.files)


@pytest.mark.parametrize("spelling", [".", "./", "data", "./data/", "data//sub/..", "ABS"])
def test_the_walk_spells_each_member_as_its_path_object_would(tmp_path: Path, monkeypatch, spelling: str) -> None:
    """walk_files joins text, not Path objects: each member must read as ``str(Path(folder) / name)``
    (what the reports showed when the walk made Paths), whatever the spelling of the folder argument."""
    from recspec.pipeline import walk_files

    (tmp_path / "data" / "sub" / "deeper").mkdir(parents=True)
    for rel in ("data/b.log", "data/a.log", "data/sub/c.log", "data/sub/deeper/d.log", "data/.hidden.log"):
        (tmp_path / rel).write_bytes(b"x" * len(rel))  # sizes 10 to 21
    monkeypatch.chdir(tmp_path / "data" if spelling in (".", "./") else tmp_path)
    arg = str(tmp_path / "data") if spelling == "ABS" else spelling
    want = []
    for folder, dirs, files in os.walk(arg):  # the walk's order, spelled by Path
        dirs.sort()
        want += [(str(Path(folder) / f), False) for f in sorted(files) if not f.startswith(".")]
    sizes = array("q")
    got = list(walk_files([arg, str(tmp_path / "data" / "a.log")], [], sizes=sizes))
    assert got == [*want, (str(tmp_path / "data" / "a.log"), True)] and len(got) == 5
    assert all(text == str(Path(text)) for text, _ in got)
    # each member's size from the walk's own look at it (-j N plans by it); a named file's is not looked at
    assert list(sizes) == [os.stat(text).st_size for text, _ in want] + [-1]
