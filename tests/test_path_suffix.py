"""``recspec._paths.path_suffix`` is ``PurePath(path).suffix`` (it only skips building the path object)."""

from __future__ import annotations

from pathlib import Path, PurePath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recspec._paths import path_suffix

_PARTS = st.sampled_from(["", ".", "..", "a", "a.b", ".traj", "..traj", "x.traj", "x.TRAJ", "x.tar.xz", "x.", "x..",
                          "run 1.log", "é.state", "..", "...", "a.b.c."])


@given(st.lists(_PARTS, max_size=4).map("/".join) | st.text(st.sampled_from("ab./ "), max_size=12))
def test_path_suffix_is_purepaths(path: str) -> None:
    assert path_suffix(path) == PurePath(path).suffix


@pytest.mark.parametrize(("path", "suffix"), [("a/b/run.traj", ".traj"), ("x.tar.xz", ".xz"), ("..traj", ".traj"),
                                              (".traj", ""), ("a.traj/", ".traj"), ("a.traj/.", ".traj"), ("x.", "")])
def test_path_suffix_examples(path: str, suffix: str) -> None:
    assert path_suffix(path) == suffix == path_suffix(Path(path))
