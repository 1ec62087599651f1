"""`recspec encode` and `recspec case` on NanoVer cases: facts of the NanoVer layout (the behaviour
every format shares is tests/test_encode_cli.py's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import REPO, case_file
from recspec.cli import main


def test_case_canonical_leaves_the_details_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Rust-ordered trajectory (corpus/real/hello_vel.traj): the lossless case names each record's order,
    the canonical one has none, and encodes to the encoder's own order, a file of the same length."""
    traj = REPO / "corpus" / "real" / "hello_vel.traj"
    assert main(["case", str(traj)]) == 0
    lossless = json.loads(capsys.readouterr().out)
    assert main(["case", "--canonical", str(traj)]) == 0
    canonical = json.loads(capsys.readouterr().out)
    assert all("order" in r for r in lossless["records"]) and not any("order" in r for r in canonical["records"])
    assert [{k: v for k, v in r.items() if k != "order"} for r in lossless["records"]] == canonical["records"]
    assert main(["encode", str(case_file(tmp_path, canonical)), "-o", str(tmp_path / "c.traj")]) == 0
    again = (tmp_path / "c.traj").read_bytes()
    assert len(again) == traj.stat().st_size and again != traj.read_bytes()
