"""Verdicts a CI can trust, on CARLA's own files: a folder of broken recordings (CARLA logs and a NanoVer
.traj beside them) is reported file by file and fails the run, `reproduce` compares the Kaitai reading of
each, and a log's stats carry no float noise. What every format shares is in ``test_verdicts.py``.

Each test here was written against a failure measured on the real files (issue
"Verdicts a CI can trust") and failed before the fix it names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import REPO, check_json
from helpers import run_cli as run

CARLA_VALID = REPO / "corpus" / "carla" / "valid" / "0.9.15.log"
NANOVER_VALID = REPO / "corpus" / "nanover" / "valid" / "small.traj"


# --- a folder run never skips a broken recording silently ----------------------------------------


def mixed_folder(root: Path) -> Path:
    """The issue's folder: a good CARLA log, an empty run2.log, a run4.log whose first 34 bytes
    (the whole info header) were zeroed, and a .traj whose magic was zeroed."""
    folder = root / "mixed"
    folder.mkdir()
    good = CARLA_VALID.read_bytes()
    (folder / "run1.log").write_bytes(good)
    (folder / "run2.log").write_bytes(b"")
    (folder / "run4.log").write_bytes(bytes(34) + good[34:])
    traj = bytearray(NANOVER_VALID.read_bytes())
    traj[:8] = bytes(8)
    (folder / "session.traj").write_bytes(bytes(traj))
    return folder


def test_a_folder_run_reports_every_broken_recording_and_fails(tmp_path):
    folder = mixed_folder(tmp_path)
    code, rep = check_json(str(folder))
    assert code == 1
    by_name = {Path(f["path"]).name: f for f in rep["files"]}
    assert set(by_name) == {"run1.log", "run2.log", "run4.log", "session.traj"}
    assert by_name["run1.log"]["verdict"] == "valid"
    for name in ("run2.log", "run4.log", "session.traj"):
        assert by_name[name]["verdict"] == "malformed", name
        assert by_name[name]["failed"] is True
        assert by_name[name]["findings"], name
    # no sniffer claims them, the extension does: checked as that format, with its header rule
    assert by_name["run4.log"]["format"] == "carla"
    assert "CARLA-HEADER-001" in {f["rule"] for f in by_name["run4.log"]["findings"]}
    assert by_name["session.traj"]["format"] == "nanover"
    assert by_name["session.traj"]["findings"][0]["rule"] == "NANOVER-HEADER-001"
    assert rep["summary"]["files"] == 4


def test_the_mixed_folder_table_and_markdown_say_failed(tmp_path):
    folder = mixed_folder(tmp_path)
    md = tmp_path / "r.md"
    code, out, _err = run("check", str(folder), "--report", f"markdown:{md}")
    assert code == 1
    for name in ("run2.log", "run4.log", "session.traj"):
        assert name in out
    assert "4 files" in out and "1 valid" in out
    assert "FAILED" in md.read_text()


@pytest.mark.parametrize(("fmt", "name"), [("carla", "run2.log"), ("carla", "run4.log"), ("nanover", "session.traj")])
def test_reproduce_compares_the_kaitai_reading_for_every_format(tmp_path, fmt, name):
    folder = mixed_folder(tmp_path)
    _code, out, err = run("reproduce", "--format", fmt, str(folder / name))
    assert "Traceback" not in err
    assert "kaitai:" in out and "no Kaitai comparison" not in out
    assert "the readings agree" in out


# --- the smaller things a user hits ------------------------------------------------------------------


def test_stats_have_no_float_noise():
    _code, rep = check_json(str(REPO / "corpus" / "carla" / "invalid" / "CARLA-FRAME-004.log"))
    assert rep["files"][0]["stats"]["duration_s"] == 0.15  # stored as 0.15000000000000002
