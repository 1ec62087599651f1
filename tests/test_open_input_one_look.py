"""A file to check is opened without a look by name first: one ``stat`` system call less a file.

``open_input`` opens with O_NONBLOCK (a FIFO without a writer opens at once instead of waiting for
one) and looks at what it opened (``fstat``), so a regular file costs an open and its look; a FIFO or
device is read as a stream through the same descriptor; what cannot be opened (a socket) or is not
readable as a file (a folder, a missing path) is refused as before.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from recspec import _limits
from recspec.errors import InputError
from recspec.formats import FORMATS
from recspec.pipeline import check_file

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def _stats(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    looked: list[str] = []
    real = os.stat

    def counted(path: object, *args: object, **kwargs: object) -> os.stat_result:
        looked.append(os.fspath(path))  # type: ignore[arg-type]
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", counted)
    return looked


def test_a_regular_file_is_not_looked_at_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = next(iter(FORMATS.values()))
    name = info.load().EXAMPLES.valid_file
    seed = tmp_path / name
    seed.write_bytes((CORPUS / info.id / "valid" / name).read_bytes())
    expected = seed.stat().st_size
    looked = _stats(monkeypatch)
    with _limits.open_input(str(seed), "x") as (f, size):
        assert size == expected == len(f.read())
    report = check_file(str(seed), fmt=None, variant=None, profile=None)
    assert str(seed) not in looked
    assert report is not None and report.format == info.id


def test_what_is_not_a_regular_file_is_refused_as_before(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="Is a directory"):
        check_file(tmp_path, fmt=None, variant=None, profile=None)
    with pytest.raises(InputError, match="No such file or directory"):
        check_file(tmp_path / "missing", fmt=None, variant=None, profile=None)
    where = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.bind(str(where))
        with pytest.raises(InputError, match="is a socket; recspec reads regular files, FIFOs and devices"):
            check_file(where, fmt=None, variant=None, profile=None)

