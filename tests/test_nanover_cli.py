"""recspec check on NanoVer files: how the kind is chosen (extension, content,
--variant), a version-1 file, and the exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import real_file

# the samples come through helpers.real_file: corpus/real/ (shipped, MIT), or ../shared/real/ with a skip reason


def _check(*args: str) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "-m", "recspec", "check", "--json", *args], capture_output=True,
                          text=True, check=False)
    return proc.returncode, json.loads(proc.stdout)["files"][0]


def test_kind_from_content_without_an_extension(tmp_path: Path) -> None:
    p = tmp_path / "session-state"
    shutil.copy(real_file("sim-switching-test-recording.state"), p)
    rc, f = _check(str(p))
    assert rc == 0 and f["variant"] == "state" and f["evidence"]["variant"]["method"] == "content"


def test_variant_forces_the_kind_and_a_state_update_in_a_traj_is_a_finding() -> None:
    rc, f = _check("--format", "nanover", "--variant", "traj", str(real_file("sim-switching-test-recording.state")))
    assert rc == 1 and f["verdict"] == "invalid"
    (finding,) = f["findings"]
    assert finding["rule"] == "NANOVER-PAYLOAD-001" and finding["offset"] == 40 and finding["path"] == "record[0]"


def test_version_1_file_is_recognised_and_reported(tmp_path: Path) -> None:
    """A version-1 file is the records without the header (research notes, section 0)."""
    p = tmp_path / "old.traj"
    p.write_bytes(real_file("hello_vel.traj").read_bytes()[16:])
    rc, f = _check(str(p))
    assert rc == 1 and f["format"] == "nanover" and f["verdict"] == "malformed"
    assert [x["rule"] for x in f["findings"]] == ["NANOVER-HEADER-003"]
    assert "version-1" in f["findings"][0]["message"]


def test_header_only_file_is_valid(tmp_path: Path) -> None:
    p = tmp_path / "empty.traj"
    p.write_bytes(real_file("hello_vel.traj").read_bytes()[:16])
    rc, f = _check(str(p))
    assert rc == 0 and f["stats"]["records"] == 0 and f["stats"]["first_timestamp_us"] is None
