"""A walk that gives no sizes (`recspec check -j 1`) knows a regular file by its directory entry's type.

``os.scandir`` gives each entry's type with the listing (``d_type``), so a regular file needs no
``stat`` to be told apart from a FIFO, a socket or a link; only a ``-j N`` run, which plans its batches
by size, asks the walk for sizes. Links and anything else are still looked at (a link to a file is a
member, a FIFO is not). The walk is the same either way.
"""

from __future__ import annotations

import os
from array import array
from pathlib import Path
from typing import Any

import pytest

from recspec import pipeline


class _Entry:
    """A directory entry that counts its ``stat`` calls."""

    def __init__(self, entry: os.DirEntry[str], stats: list[str]) -> None:
        self._entry, self._stats = entry, stats
        self.name, self.path = entry.name, entry.path

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        return self._entry.is_dir(follow_symlinks=follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        return self._entry.is_file(follow_symlinks=follow_symlinks)

    def is_symlink(self) -> bool:
        return self._entry.is_symlink()

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
        self._stats.append(self.name)
        return self._entry.stat(follow_symlinks=follow_symlinks)


class _Listing:
    def __init__(self, folder: str, stats: list[str], scandir: Any) -> None:
        self._it = scandir(folder)
        self._stats = stats

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        self._it.close()

    def __iter__(self) -> Any:
        return (_Entry(e, self._stats) for e in self._it)


def _tree(tmp_path: Path) -> Path:
    top = tmp_path / "top"
    (top / "sub").mkdir(parents=True)
    for name in ("a.log", "b.bson", "sub/c.traj"):
        (top / name).write_bytes(b"\0" * 16)
    (top / "link.sig").symlink_to(top / "a.log")
    os.mkfifo(top / "pipe.traj")
    return top


def _walk(top: Path, sizes: array[int] | None, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[str],
                                                                                         list[Path]]:
    stats: list[str] = []
    scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda folder: _Listing(folder, stats, scandir))
    not_regular: list[Path] = []
    walked = list(pipeline.walk_folders([str(top)], [], not_regular, sizes))
    monkeypatch.undo()
    return walked, sorted(stats), not_regular


def test_a_walk_without_sizes_stats_no_regular_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    top = _tree(tmp_path)
    walked, stats, not_regular = _walk(top, None, monkeypatch)
    assert walked == [([str(top / "a.log"), str(top / "b.bson"), str(top / "link.sig")], False),
                      ([str(top / "sub" / "c.traj")], False)]
    assert not_regular == [top / "pipe.traj"]
    assert stats == ["link.sig", "pipe.traj"]  # the link followed, the FIFO seen not to be a regular file


def test_a_walk_with_sizes_is_the_same_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    top = _tree(tmp_path)
    sizes = array("q")
    walked, stats, not_regular = _walk(top, sizes, monkeypatch)
    assert walked == _walk(top, None, monkeypatch)[0]
    assert not_regular == [top / "pipe.traj"]
    assert list(sizes) == [16, 16, 16, 16]
    assert stats == ["a.log", "b.bson", "c.traj", "link.sig", "pipe.traj"]
