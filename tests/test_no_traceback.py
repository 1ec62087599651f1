"""No subcommand shows a traceback or leaves with an unplanned exit code, whatever it is given:
arbitrary bytes under any extension, empty files, folders, FIFOs, unreadable paths, missing paths.

Exit codes are those of recspec.errors (0, 1, 2); 3 (InternalError, a recspec bug) and anything
else fail, as does a Python traceback on either stream.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import REPO, example_valid_file
from helpers import run_cli as run
from recspec.formats import FORMATS

EXTENSIONS = sorted({e for info in FORMATS.values() for e in info.extensions} | {".bin", ".txt", ""})
FORMAT_ARGS = [[]] + [["--format", f] for f in FORMATS]
#: Every subcommand that takes a path, with the argument shapes it takes.
COMMANDS = [["check"], ["check", "--json"], ["check", "--profile", "compat", "--all-findings"], ["dump"],
            ["dump", "--ksy"], ["reproduce"]]
ALLOWED = {0, 1, 2}


def assert_clean(code: int, out: str, err: str, what: str) -> None:
    assert code in ALLOWED, f"{what}: exit {code}\n{err[-2000:]}"
    assert "Traceback" not in out and "Traceback" not in err, f"{what}:\n{err[-3000:]}"
    assert "internal error" not in err, f"{what}:\n{err[-3000:]}"


def _seeds() -> list[bytes]:
    """Real prefixes to mutate: a little of every format's corpus."""
    out = []
    for info in FORMATS.values():
        for p in sorted((REPO / "corpus" / info.id / "valid").iterdir())[:2]:
            out.append(p.read_bytes()[:2048])
    return out


SEEDS = _seeds()


@st.composite
def inputs(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["random", "seed-prefix", "seed-flipped", "empty"]))
    if kind == "random":
        return draw(st.binary(max_size=512))
    if kind == "empty":
        return b""
    seed = draw(st.sampled_from(SEEDS))
    cut = draw(st.integers(0, len(seed)))
    data = bytearray(seed[:cut])
    if kind == "seed-flipped" and data:
        for _ in range(draw(st.integers(1, 8))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] = draw(st.integers(0, 255))
    return bytes(data)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=inputs(), ext=st.sampled_from(EXTENSIONS), command=st.sampled_from(COMMANDS),
       fmt=st.sampled_from(FORMAT_ARGS))
def test_any_bytes_any_subcommand(tmp_path: Path, data: bytes, ext: str, command: list[str], fmt: list[str]) -> None:
    path = tmp_path / f"input{ext}"
    path.write_bytes(data)
    args = [*command, *fmt, str(path)]
    assert_clean(*run(*args), " ".join(args[:-1]) + f" <{len(data)} bytes{ext}>")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_folders_missing_paths_and_unreadable_files(tmp_path: Path, command: list[str]) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.log").write_bytes(b"\x00" * 10)
    unreadable = tmp_path / "secret.log"
    unreadable.write_bytes(b"x")
    unreadable.chmod(0)
    try:
        for target in (folder, tmp_path / "missing.log", unreadable):
            assert_clean(*run(*command, str(target)), f"{command} {target.name}")
    finally:
        unreadable.chmod(0o600)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_fifos(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    data = example_valid_file(next(iter(FORMATS.values()))).read_bytes()

    def feed() -> None:  # a writer for as long as the command keeps opening the FIFO (reproduce refuses it)
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            return
        try:
            os.write(fd, data[:60000])
        except OSError:
            pass
        finally:
            os.close(fd)

    stop = threading.Event()

    def writer() -> None:
        while not stop.is_set():
            feed()
            stop.wait(0.01)

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    try:
        assert_clean(*run(*command, str(fifo)), f"{command} fifo")
    finally:
        stop.set()
        t.join(2)


def test_other_subcommands_with_bad_arguments() -> None:
    for args in (["rules", "nope"], ["explain", "NOPE-001"], ["fuzz", "nope"], ["corpus", "--format", "nope"],
                 ["check"], ["dump"], ["check", "--report", "xml:x"], ["check", "-j", "-1", "x"], []):
        assert_clean(*run(*args), " ".join(args))
