"""`recspec encode` and `recspec case` on CARLA cases: facts of the CARLA layout (the behaviour
every format shares is tests/test_encode_cli.py's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import REPO
from recspec.cli import main


def test_a_case_with_undecodable_bytes_prints_and_encodes_back(tmp_path: Path) -> None:
    """corpus/carla/invalid/CARLA-STRING-001.log holds a name that is not UTF-8: the case keeps its bytes
    (\\udcXX escapes in ASCII JSON) and encodes back to the file; before, `recspec case` raised
    UnicodeEncodeError writing it."""
    log = REPO / "corpus" / "carla" / "invalid" / "CARLA-STRING-001.log"
    done = subprocess.run([sys.executable, "-m", "recspec", "case", str(log)], capture_output=True)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert b"\\udc" in done.stdout and done.stdout.isascii()
    (tmp_path / "case.json").write_bytes(done.stdout)
    assert main(["encode", str(tmp_path / "case.json"), "-o", str(tmp_path / "again.log")]) == 0
    assert (tmp_path / "again.log").read_bytes() == log.read_bytes()
