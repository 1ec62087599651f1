"""The same ``recspec drive --seed`` gives the same report in any process.

A protobuf map read through upb iterates in an order seeded from a memory address, so it changes from one
process to the next (address-space layout randomisation), whatever PYTHONHASHSEED is. NanoVer's frames and
state updates are such maps: the order of a decoded case's keys decided which difference drive reported first
(and with it which failures it told apart), and the order of the checker's findings which one a report named
first. Each check here runs in fresh processes, with different PYTHONHASHSEED values, and compares them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTEES = ROOT / "tests" / "testees"

#: A trajectory frame whose map keys upb would iterate in a shuffled order: values (one a struct), and arrays
#: of which five are standard arrays written as empty index arrays (NANOVER-FRAME-006 each under spec).
_PROBE = r'''
import json
from recspec.api import check
from recspec.reference.nanover import decode, encode, from_case, to_case

frame = {"frame_index": 0,
         "values": {"system.simulation.time": 0.0, "particle.count": 0.0, "residue.count": 0.0,
                    "user.z": {"b": 1.0, "a": 2.0, "ab": 3.0, "c": 4.0}},
         "arrays": {"residue.ids": {"index": []}, "particle.names": {"index": []}, "bond.orders": {"index": []},
                    "chain.names": {"index": []}, "particle.positions": {"float": []},
                    "residue.names": {"index": []}}}
traj = {"recspec_case": 2, "format": "nanover", "variant": "traj",
        "records": [{"timestamp_us": 1, "frame": frame}]}
state = {"recspec_case": 2, "format": "nanover", "variant": "state",
         "records": [{"timestamp_us": 1, "update": {"zeta": 1.0, "alpha": 2.0, "mid": "x", "al": True}}]}
data = encode(from_case(traj))
read = to_case(decode(data, variant="traj"), variant="traj", canonical=True)["records"][0]["frame"]
update = to_case(decode(encode(from_case(state)), variant="state"), variant="state",
                 canonical=True)["records"][0]["update"]
report = check(data, format="nanover", variant="traj", profile="spec")
print(json.dumps({"values": list(read["values"]), "struct": list(read["values"]["user.z"]),
                  "arrays": list(read["arrays"]), "update": list(update),
                  "findings": [[f.rule, f.path] for f in report.findings]}))
'''


def _env(hash_seed: str) -> dict[str, str]:
    return {**os.environ, "PYTHONHASHSEED": hash_seed}


def test_nanover_maps_are_read_and_checked_in_the_encoders_key_order_in_every_process() -> None:
    runs = [subprocess.Popen([sys.executable, "-c", _PROBE], env=_env(h), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for h in ("1", "1", "2", "3", "4")]
    outs = []
    for p in runs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        outs.append(json.loads(out))
    # upb's deterministic serialisation order: by UTF-8 bytes, a key before the shorter keys it begins with
    assert outs[0]["values"] == ["particle.count", "residue.count", "system.simulation.time", "user.z"]
    assert outs[0]["struct"] == ["ab", "a", "b", "c"]
    assert outs[0]["arrays"] == ["bond.orders", "chain.names", "particle.names", "particle.positions",
                                 "residue.ids", "residue.names"]
    assert outs[0]["update"] == ["alpha", "al", "mid", "zeta"]
    assert outs[0]["findings"] == [["NANOVER-FRAME-006", f"record[0]/arrays[{k!r}]"] for k in
                                   ("bond.orders", "chain.names", "particle.names", "residue.ids", "residue.names")]
    for other in outs[1:]:
        assert other == outs[0]


def _drive(hash_seed: str, *argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "recspec", "drive", *argv], env=_env(hash_seed),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)


def test_the_same_seed_gives_byte_identical_reports_in_any_process() -> None:
    """The issue's run: a NanoVer writer with two planted bugs, whose smallest failing case holds both empty
    arrays; three processes (two with one PYTHONHASHSEED, one with another) give the same JSON bytes."""
    argv = ("writer", "nanover", "--variant", "traj", "--profile", "spec", "--json", "--max-examples", "50",
            "--seed", "1", "--", sys.executable, str(TESTEES / "nanover_converter_writer.py"),
            "--bug", "orders-uint8", "--bug", "ids-index", "{case}", "{out}")
    runs = [_drive(h, *argv) for h in ("1", "1", "2")]
    outs = []
    for p in runs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 1, err.decode()
        outs.append(out)
    report = json.loads(outs[0])
    failures = report["files"][0]["evidence"]["drive"]["failures"]
    assert len(failures) >= 2  # the two planted bugs at least: bond.orders and residue.ids
    assert outs[1] == outs[0]
    assert outs[2] == outs[0]
