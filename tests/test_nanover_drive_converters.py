"""A NanoVer writer's per-key converters, as real recorders have them (tests/testees/nanover_converter_writer.py):
a key converted to the wrong array kind, a float array narrowed to uint8, integer ids written as an index array.
Each planted bug is found and shrunk, two at once are both reported, and the correct converters pass under both
profiles with nothing excused."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from recspec.cli import main

ROOT = Path(__file__).resolve().parents[1]
TESTEE = str(ROOT / "tests" / "testees" / "nanover_converter_writer.py")
PY = sys.executable


def _drive(capsys: pytest.CaptureFixture[str], profile: str, *bugs: str, examples: int = 50
           ) -> tuple[int, dict[str, Any]]:
    code = main(["drive", "writer", "nanover", "--variant", "traj", "--profile", profile, "--json",
                 "--max-examples", str(examples), "--seed", "1", "--", PY, TESTEE,
                 *(w for b in bugs for w in ("--bug", b)), "{case}", "{out}"])
    return code, json.loads(capsys.readouterr().out)["files"][0]


def _mismatched_keys(fr: dict[str, Any]) -> set[str]:
    keys = set()
    for f in fr["findings"]:
        if f["rule"] == "DRIVE-WRITER-007":
            rest = f["path"].split(".arrays.", 1)[1]
            keys.add(rest.rsplit(".", 1)[0])
    return keys


@pytest.mark.parametrize(("bug", "key"), [("orders-uint8", "bond.orders"), ("ids-index", "residue.ids"),
                                          ("velocities-kind", "particle.velocities")])
def test_each_converter_bug_is_found_and_shrunk(bug: str, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, fr = _drive(capsys, "spec", bug)
    assert code == 1
    assert _mismatched_keys(fr) == {key}
    assert {"NANOVER-FRAME-004", "NANOVER-FRAME-006"} & {f["rule"] for f in fr["findings"]}
    first = fr["evidence"]["drive"]["failures"][0]
    assert first["verdicts"] == ["invalid-file", "mismatch"]
    (record,) = first["case"]["records"]  # shrunk: one reset frame with no particles, the key's array empty
    frame = record["frame"]
    assert frame["frame_index"] == 0 and frame["values"]["particle.count"] == 0.0
    assert list(frame["arrays"][key].values()) == [[]]


def test_under_compat_the_bugs_are_found_on_non_empty_arrays(capsys: pytest.CaptureFixture[str]) -> None:
    """compat takes an empty array of any kind as the same value (NANOVER-FRAME-006), so what is left is the
    bug itself: a value read back as another."""
    code, fr = _drive(capsys, "compat", "ids-index")
    assert code == 1 and _mismatched_keys(fr) == {"residue.ids"}
    mismatch = next(f for f in fr["findings"] if f["rule"] == "DRIVE-WRITER-007")
    assert mismatch["path"].startswith("records[0].frame.arrays.residue.ids.")


def test_two_bugs_in_one_writer_are_both_reported(capsys: pytest.CaptureFixture[str]) -> None:
    code, fr = _drive(capsys, "spec", "orders-uint8", "ids-index", examples=100)
    assert code == 1
    assert _mismatched_keys(fr) == {"bond.orders", "residue.ids"}
    assert all(f["shrunk"] for f in fr["evidence"]["drive"]["failures"])


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_the_correct_converters_pass(profile: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, fr = _drive(capsys, profile)
    assert code == 0, fr
    assert fr["evidence"]["drive"]["examples"] == 50 and not fr.get("known_deviations")
