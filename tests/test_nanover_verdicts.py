"""Verdicts a CI can trust, on NanoVer's own files: the Kaitai dump's offsets count from the start of the
file. What every format shares is in ``test_verdicts.py``."""

from __future__ import annotations

import json

from helpers import REPO
from helpers import run_cli as run


def test_nanover_dump_ksy_offsets_count_from_the_start_of_the_file():
    traj = REPO / "corpus" / "nanover" / "valid" / "small.traj"
    _code, out, _err = run("dump", "--ksy", str(traj))
    data = traj.read_bytes()
    keys = []

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if isinstance(v, str) and len(v) > 3 and f"{k}@" in o and not k.startswith("_"):
                    keys.append((v, *o[f"{k}@"]))
                walk(v)
        elif isinstance(o, list):
            for x in o:
                walk(x)

    for line in out.splitlines()[1:]:
        walk(json.loads(line))
    assert any(v == "particle.count" for v, _, _ in keys)
    for value, start, end in keys:  # a key string inside a payload is found at its absolute offset
        assert value.encode() in data[start:end], (value, start, end)
