"""Verdicts a CI can trust, as every format has them: files that are not recordings are counted and not
checked, a FIFO or a folder that cannot be read is handled, one file is one file, and the shipped real
samples pass a fresh clone under both profiles. Each example file is the registry's (a plugin's
``EXAMPLES``); what is one format's own is in ``test_<format>_verdicts.py``.

Each test here was written against a failure measured on the real files (issue
"Verdicts a CI can trust") and failed before the fix it names.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import REPO, check_json, example_valid_file, format_valid_by_default
from helpers import run_cli as run
from recspec.formats import FORMATS

# --- 1. a folder run never skips a broken recording silently -----------------------------------


def test_files_that_are_clearly_not_recordings_are_counted_and_listed_with_verbose(tmp_path):
    valid = example_valid_file(format_valid_by_default())
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / valid.name).write_bytes(valid.read_bytes())
    (folder / "notes.txt").write_text("not a recording\n")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(40))
    code, out, err = run("check", str(folder))
    assert code == 0, out + err
    assert "1 file," in out and "2 unclaimed" in out
    assert "notes.txt" not in out
    code, out, err = run("check", "--verbose", str(folder))
    assert code == 0
    assert "notes.txt" in out and "image.png" in out
    code, rep = check_json(str(folder))
    assert rep["summary"]["unclaimed"] == 2
    assert [Path(p).name for p in rep["unclaimed"]] == ["image.png", "notes.txt"]  # sorted by path


# --- 4. reports -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_json_stdout_report_is_not_mixed_with_the_table(fmt):
    info = FORMATS[fmt]
    profile = info.load().EXAMPLES.valid_profile
    code, out, _err = run("check", "--profile", profile, str(example_valid_file(info)), "--report", "json:-")
    rep = json.loads(out)  # stdout holds the JSON and nothing else (a table line would not parse)
    assert code == 0 and [f["verdict"] for f in rep["files"]] == ["valid"]


# --- 10. the smaller things a user hits ------------------------------------------------------------


def test_a_fifo_named_on_the_command_line_is_read(tmp_path):
    import os
    import threading

    info = format_valid_by_default()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = example_valid_file(info).read_bytes()
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    code, rep = check_json(str(fifo))
    writer.join()
    assert code == 0 and rep["files"][0]["verdict"] == "valid" and rep["files"][0]["format"] == info.id


def test_a_missing_path_prints_the_error_and_no_empty_table(tmp_path):
    code, out, err = run("check", str(tmp_path / "nope.log"))
    assert code == 2 and out == "" and "no such file" in err


def test_an_unreadable_folder_is_reported(tmp_path, monkeypatch):
    import os

    valid = example_valid_file(format_valid_by_default())
    folder = tmp_path / "d"
    (folder / "locked").mkdir(parents=True)
    (folder / valid.name).write_bytes(valid.read_bytes())
    real_scandir = os.scandir

    def scandir(path="."):  # as for a folder without read permission (the tests may run as root)
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, err = run("check", str(folder))
    assert code == 2 and "locked: Permission denied" in err
    assert valid.name in out  # the rest of the run goes on


def test_an_unknown_profile_is_rejected_even_when_no_file_is_recognised(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("hello\n")
    code, out, err = run("check", "--profile", "nope", str(p))
    assert code == 2 and "no profile 'nope'" in err and out == ""


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_one_file_is_one_file(fmt):
    info = FORMATS[fmt]
    _code, out, _err = run("check", "--profile", info.load().EXAMPLES.valid_profile, str(example_valid_file(info)))
    assert "\n1 file, 1 valid" in out


# --- 11. real samples in a fresh clone ---------------------------------------------------------------

SHIPPED = REPO / "corpus" / "real"


def test_the_mit_licensed_real_samples_ship_with_provenance_and_licence_notices():
    shipped = sorted(p.name for p in SHIPPED.iterdir() if p.suffix not in (".md",))
    assert shipped == ["carla_0910_DistanceToLaneCenter.log", "hello_vel.traj", "sim-switching-test-recording.state",
                       "sim-switching-test-recording.traj"]
    provenance = (SHIPPED / "PROVENANCE.md").read_text()
    licences = (SHIPPED / "LICENSES.md").read_text()
    for name in shipped:
        row = next(line for line in provenance.splitlines() if line.startswith(f"| {name} |"))
        assert "| MIT |" in row and "@" in row
        assert name in licences
    assert "Copyright (c) 2018 CARLA" in licences
    assert "Copyright (c) 2025 University of Bristol, Intangible Realities Lab" in licences


def test_a_fresh_clone_checks_its_real_samples_under_both_profiles():
    code, rep = check_json("--cross-check", "full", str(SHIPPED))  # real files: the whole second reading
    assert code == 0 and rep["summary"]["files"] == 4 and rep["summary"]["unclaimed"] == 2  # the two .md files
    for f in rep["files"]:
        assert f["verdicts"]["spec"]["verdict"] == f["verdicts"]["compat"]["verdict"] == "valid", f["path"]
