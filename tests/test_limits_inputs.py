"""Inputs that are not regular files, report paths that are not regular files, workers without a parent.

Each case was measured failing before recspec/_limits.py, recspec/render/_write.py
and the worker changes of recspec/_parallel.py: /dev/zero read without end (GBs of
memory), a FIFO blocking forever, a report renamed over a device or a link to one,
SARIF raising on a file name that is not UTF-8 (and losing every other report),
workers outliving a killed parent.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import recspec
from helpers import example_valid_file, format_valid_by_default, manifest_entry
from helpers import run_cli as run
from recspec import _limits
from recspec.errors import InputError
from recspec.formats import FORMATS
from recspec.render import RENDERERS

#: the example format and its valid file: the limits on inputs are every format's, shown on one's files
INFO = format_valid_by_default()
VALID = example_valid_file(INFO)

posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")


# --- streams: devices and FIFOs ------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_with_a_forced_format_is_refused_at_the_stream_limit():
    t0 = time.monotonic()
    code, _, err = run("check", "--format", INFO.id, "--stream-limit", "4M", "/dev/zero")
    assert code == 2
    assert "/dev/zero: the stream did not end within 4194304 bytes (--stream-limit)" in err
    assert time.monotonic() - t0 < 30


@pytest.mark.skipif(not os.path.exists("/dev/urandom"), reason="needs /dev/urandom")
def test_dev_urandom_is_refused_at_the_stream_limit_too():
    other = list(FORMATS)[-1]  # another format than /dev/zero's: the limit is the stream's, not a format's
    code, _, err = run("check", "--format", other, "--stream-limit", "2M", "/dev/urandom")
    assert code == 2 and "did not end within 2097152 bytes" in err


@posix_only
def test_a_fifo_without_a_writer_is_refused_after_the_idle_time(tmp_path, monkeypatch):
    monkeypatch.setattr(_limits, "STREAM_IDLE_TIMEOUT", 0.5)
    fifo = tmp_path / "rec.log"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    code, _, err = run("check", str(fifo))
    assert code == 2
    assert f"{fifo}: no data for 0.5 s (STREAM_IDLE_TIMEOUT); a FIFO needs a writer" in err
    assert time.monotonic() - t0 < 10


@posix_only
def test_a_fifo_with_a_writer_is_checked_as_a_stream(tmp_path):
    fifo = tmp_path / f"rec{VALID.suffix}"
    os.mkfifo(fifo)

    def write() -> None:
        time.sleep(0.3)  # after recspec has opened it: the reader waits for the writer
        with open(fifo, "wb") as f:
            f.write(VALID.read_bytes())

    writer = threading.Thread(target=write)
    writer.start()
    code, out, _ = run("check", "--json", str(fifo))
    writer.join()
    assert code == 0
    [fr] = json.loads(out)["files"]
    variant = manifest_entry(INFO, f"valid/{VALID.name}").get("variant")
    assert (fr["format"], fr["variant"], fr["verdict"]) == (INFO.id, variant, "valid")


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="needs /dev/stdin")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_dash_reads_standard_input_as_a_stream(tmp_path, jobs):
    """``-`` is standard input (as ``/dev/stdin``, which the report names), sniffed by content: a real
    process given the file on a pipe, beside a file named after it (workers inherit the parent's stdin)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with open(VALID, "rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "recspec", "check", "-j", jobs, "--json", "-", str(VALID)],
                              stdin=stdin, capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    files = {fr["path"]: fr for fr in json.loads(done.stdout)["files"]}
    assert set(files) == {"/dev/stdin", str(VALID)}
    variant = manifest_entry(INFO, f"valid/{VALID.name}").get("variant")
    assert (files["/dev/stdin"]["format"], files["/dev/stdin"]["variant"], files["/dev/stdin"]["verdict"]) == (
        INFO.id, variant, "valid")


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="needs /dev/stdin")
def test_dump_of_a_dash_reads_standard_input_from_a_pipe():
    """``recspec dump -`` prints what ``recspec dump FILE`` prints, the file given on a real pipe (not a
    redirected file, which /dev/stdin would name as a regular file)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    data = VALID.read_bytes()
    piped = subprocess.run([sys.executable, "-m", "recspec", "dump", "-"], input=data, capture_output=True,
                           env=env, timeout=120)
    named = subprocess.run([sys.executable, "-m", "recspec", "dump", str(VALID)], capture_output=True, env=env,
                           timeout=120)
    assert piped.returncode == named.returncode == 0, piped.stderr
    assert piped.stdout == named.stdout and piped.stdout


@pytest.mark.parametrize("command", ["case", "reproduce"])
def test_commands_that_read_a_file_twice_refuse_a_dash_with_what_to_do(command):
    code, _, err = run(command, "-")
    assert code == 2
    assert f"-: {command} reads its file more than once, so it takes no standard input; save it to a file first" \
        in err
    assert "Traceback" not in err


def test_a_file_named_dash_is_still_that_file(tmp_path, monkeypatch):
    """``-`` names standard input only where no file of that name exists."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(VALID, tmp_path / "-")
    code, out, _ = run("check", "--json", "--format", INFO.id, "-")
    assert code == 0
    [fr] = json.loads(out)["files"]
    assert fr["path"] == "-" and fr["verdict"] == "valid"


@posix_only
def test_folder_walks_skip_fifos_sockets_and_devices_and_count_them(tmp_path):
    shutil.copy(VALID, tmp_path / f"a{VALID.suffix}")
    os.mkfifo(tmp_path / "fifo.log")
    if os.path.exists("/dev/zero"):
        os.symlink("/dev/zero", tmp_path / "zero.log")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "sock.log"))
        code, out, err = run("check", "--json", str(tmp_path))
        _, table, _ = run("check", str(tmp_path))
    finally:
        sock.close()
    expected = 3 if os.path.exists("/dev/zero") else 2
    assert code == 0, err
    rep = json.loads(out)
    assert rep["summary"]["files"] == 1 and rep["summary"]["not_regular"] == expected
    assert "unclaimed" not in rep["summary"]  # the other kind of member passed over: none here
    assert [Path(p).name for p in rep["not_regular"]] == sorted(["fifo.log", "sock.log", "zero.log"][:expected])
    assert f", {expected} not regular (" in table


@posix_only
def test_a_socket_named_on_the_command_line_is_refused_clearly(tmp_path):
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s"))
        code, _, err = run("check", str(tmp_path / "s"))
    finally:
        sock.close()
    assert code == 2 and "is a socket; recspec reads regular files, FIFOs and devices" in err


def test_a_pipe_given_to_the_api_is_copied_to_disk_not_memory(monkeypatch):
    read_r, read_w = os.pipe()
    data = VALID.read_bytes()

    def write() -> None:
        with os.fdopen(read_w, "wb") as w:
            w.write(data)

    threading.Thread(target=write).start()
    spooled: list[int] = []
    real = _limits.spool

    def watch(*args, **kwargs):
        f, size = real(*args, **kwargs)
        spooled.append(size)
        assert not isinstance(f, io.BytesIO)  # a temporary file on disk
        return f, size

    monkeypatch.setattr(_limits, "spool", watch)
    with os.fdopen(read_r, "rb", buffering=0) as pipe:
        report = recspec.check(pipe, name=f"piped{VALID.suffix}")
    assert spooled == [len(data)] and report.verdict.value == "valid"


def test_the_api_refuses_a_pipe_longer_than_the_limit(monkeypatch):
    monkeypatch.setattr(recspec.api, "MAX_STREAM_SIZE", 1000)

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, b) -> int:
            b[:] = bytes(len(b))
            return len(b)

    with pytest.raises(InputError, match="did not end within 1000 bytes"):
        recspec.check(Endless(), format=INFO.id)


# --- report paths ------------------------------------------------------------------


def test_a_report_through_a_link_to_a_device_writes_the_device_and_keeps_the_link(tmp_path):
    link = tmp_path / "report.json"
    os.symlink(os.devnull, link)
    code, _, err = run("check", "--report", f"json:{link}", str(VALID))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == os.devnull  # before: replaced by a regular file
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_report_through_a_link_to_a_regular_file_replaces_the_target_not_the_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "report.json"
    os.symlink(target, link)
    assert run("check", "--report", f"json:{link}", str(VALID))[0] == 0
    assert link.is_symlink() and json.loads(target.read_text())["summary"]["valid"] == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_is_reported_and_the_other_reports_are_written(tmp_path):
    code, _, err = run("check", "--report", "junit:/dev/full", "--report", f"json:{tmp_path / 'r.json'}", str(VALID))
    assert code == 2
    assert "--report junit:/dev/full: No space left on device" in err
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["valid"] == 1


@posix_only
def test_a_report_to_a_fifo_without_a_reader_is_an_error_not_a_hang(tmp_path):
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    code, _, err = run("check", "--report", f"json:{fifo}", str(VALID))
    assert code == 2 and f"--report json:{fifo}:" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(sys.platform == "win32" or sys.platform == "darwin",
                    reason="needs a file system that takes any bytes in a name")
def test_every_renderer_takes_a_file_name_that_is_not_utf8(tmp_path):
    name = os.fsdecode(b"bad\xff\x01name") + VALID.suffix
    shutil.copy(VALID, tmp_path / name)
    args = [a for kind in RENDERERS for a in ("--report", f"{kind}:{tmp_path / ('out.' + kind)}")]
    code, _, err = run("check", *args, str(tmp_path / name))
    assert code == 0, err  # before: SARIF raised UnicodeEncodeError and no report was written
    sarif = json.loads((tmp_path / "out.sarif").read_text())
    uris = [a["location"]["uri"] for a in sarif["runs"][0]["artifacts"]]
    assert uris[0].endswith("bad%FF%01name" + VALID.suffix)
    for kind in RENDERERS:
        assert (tmp_path / f"out.{kind}").stat().st_size > 0


def test_one_renderer_failing_does_not_lose_the_others(tmp_path, monkeypatch):
    def broken(report, ctx):
        raise ValueError("boom")

    monkeypatch.setitem(RENDERERS, "sarif", broken)
    code, _, err = run("check", "--report", f"sarif:{tmp_path / 'r.sarif'}", "--report",
                       f"json:{tmp_path / 'r.json'}", str(VALID))
    assert code == 2
    assert "internal error in the sarif renderer (ValueError: boom)" in err
    assert not (tmp_path / "r.sarif").exists() and (tmp_path / "r.json").exists()


# --- workers die with their parent ---------------------------------------------------


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers through /proc")
def test_sigkill_of_the_parent_of_a_j2_run_leaves_no_worker(tmp_path):
    # one file hangs its worker (busy), the other finishes, so the second worker waits idle on its pipe
    shutil.copy(VALID, tmp_path / f"a{VALID.suffix}")
    shutil.copy(VALID, tmp_path / f"slow{VALID.suffix}")
    env = {**os.environ, "RECSPEC_TEST_WORKER_FAULT": "hang=slow"}
    parent = subprocess.Popen([sys.executable, "-m", "recspec", "check", "-j", "2", "--timeout", "120", str(tmp_path)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            workers = _children(parent.pid)
            time.sleep(0.2)
        assert len(workers) == 2, "the run did not start its two workers"
        time.sleep(1.0)  # a.log done: one worker idle, one spinning
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        survivors = [w for w in workers if _alive(w)]
    finally:
        for w in _children(parent.pid) | workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
    assert survivors == []


def test_an_idle_worker_sees_its_pipe_end_when_the_parent_side_closes():
    # The fallback where PR_SET_PDEATHSIG does not exist: a worker holds no parent-side end
    # (its own or another worker's), so closing the parent's ends is EOF in every worker.
    import multiprocessing

    from recspec import _parallel

    ctx = multiprocessing.get_context("fork")
    slots = [_parallel._Slot(ctx, lambda p, n: None) for _ in range(2)]
    for slot in slots:
        slot.conn.close()
    for slot in slots:
        slot.proc.join(timeout=10)
        assert slot.proc.exitcode == 0
