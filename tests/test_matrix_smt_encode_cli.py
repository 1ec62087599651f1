"""`recspec encode` and `recspec case` on Matrix-SMT cases: facts of the Matrix-SMT layout (the behaviour
every format shares is tests/test_encode_cli.py's)."""

from __future__ import annotations

from pathlib import Path

from helpers import case_file
from recspec.cli import main


def test_matrix_profile_option_chooses_the_form(tmp_path: Path) -> None:
    """compat writes the frame time under "time", spec under "t" (docs/formats/matrix-smt.md)."""
    case = {"recspec_case": 2, "format": "matrix-smt", "variant": None, "objects": [],
            "frames": [{"time": 1.0, "states": [], "commands": []}]}
    path = case_file(tmp_path, case)
    assert main(["encode", str(path), "-o", str(tmp_path / "s.bson")]) == 0
    assert main(["encode", "--profile", "compat", str(path), "-o", str(tmp_path / "c.bson")]) == 0
    assert main(["encode", str(case_file(tmp_path, {**case, "form": "compat"}, "f.json")),
                 "-o", str(tmp_path / "f.bson")]) == 0
    assert b"\x01t\x00" in (tmp_path / "s.bson").read_bytes()
    assert b"\x10time\x00\x01\x00\x00\x00" in (tmp_path / "c.bson").read_bytes()  # int32 1
    assert (tmp_path / "f.bson").read_bytes() == (tmp_path / "c.bson").read_bytes()
