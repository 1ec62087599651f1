"""The two real CARLA logs: every fact PROVENANCE.md gives, computed independently.

The expected numbers below are copied from shared/real/PROVENANCE.md, not from
recspec's output.
"""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from collections import Counter

import pytest

from helpers import carla_packets, real_file
from recspec.conformance.carla import check_stream
from recspec.reference.carla import VARIANTS, PacketKind, decode, encode, frames

# the samples come through helpers.real_file: corpus/real/ (shipped, MIT), or ../shared/real/ with a skip reason

RECSPEC = [sys.executable, "-m", "recspec"]

FACTS = {
    "carla_0910_DistanceToLaneCenter.log": dict(
        size=283_543, variant="0.9.10-0.9.11", date=1599118659, map="Town01", frames=461, packets=6_456,
        max_id=16, last_elapsed=15.880943656899035, event_add=183, event_del=5, positions=460, collisions=0,
        actor_types={0: 125, 1: 1, 3: 36, 4: 21}, hero=259,
    ),
    "carla_0915_crash.log": dict(
        size=306_828, variant="0.9.15", date=1702698119, map="Town05", frames=158, packets=2_212,
        last_elapsed=4.74132364615798, event_add=128, event_del=0, positions=1_974, collisions=0,
        first_visual_time=737.7792997732759,
    ),
}


@pytest.fixture(params=sorted(FACTS), ids=lambda n: n.split("_")[1])
def real(request):
    name = request.param
    return name, real_file(name).read_bytes(), FACTS[name]


def test_provenance_facts(real):
    _name, data, facts = real
    assert len(data) == facts["size"]
    v = VARIANTS[facts["variant"]]
    rec = decode(data, variant=v)
    assert rec.header.version == 1 and rec.header.magic == "CARLA_RECORDER"
    assert rec.header.date == facts["date"] and rec.header.map_name == facts["map"]
    assert len(rec.packets) == facts["packets"]
    starts = [p.body for p in rec.packets if p.kind is PacketKind.FRAME_START]
    assert [s.frame_id for s in starts] == list(range(1, facts["frames"] + 1))
    assert starts[-1].elapsed == facts["last_elapsed"] and starts[-1].duration_this == -1.0
    assert all(a.elapsed + a.duration_this == b.elapsed for a, b in itertools.pairwise(starts))
    assert len(list(frames(rec.packets))) == facts["frames"]
    records = Counter()
    for p in rec.packets:
        if isinstance(p.body, tuple):
            records[p.kind] += len(p.body)
    assert records[PacketKind.EVENT_ADD] == facts["event_add"]
    assert records[PacketKind.EVENT_DEL] == facts["event_del"]
    assert records[PacketKind.POSITION] == facts["positions"]
    assert records[PacketKind.COLLISION] == facts["collisions"]
    if "actor_types" in facts:
        adds = [r for p in rec.packets if p.kind is PacketKind.EVENT_ADD for r in p.body]
        assert dict(Counter(r.type for r in adds)) == facts["actor_types"]
        assert len({r.database_id for r in adds}) == facts["event_add"]
        heroes = [r.database_id for r in adds if any(a.id == "role_name" and a.value == "hero" for a in r.attributes)]
        assert heroes == [facts["hero"]]
        assert max(p.packet_id for p in rec.packets) == facts["max_id"]
        wheels = [p for p in rec.packets if p.kind is PacketKind.PHYSICS_CONTROL]
        assert wheels and all(len(w.wheels) == 4 for p in wheels for w in p.body)
    if "first_visual_time" in facts:
        ids = {p.packet_id for p in rec.packets}
        assert ids == set(range(0, 11)) | {20, 21, 22}
        vt = next(p.body for p in rec.packets if p.kind is PacketKind.VISUAL_TIME)
        assert vt.time == facts["first_visual_time"]
        wheel_counts = {len(r.wheels) for p in rec.packets if p.kind is PacketKind.ANIM_VEHICLE_WHEELS for r in p.body}
        assert wheel_counts == {4}
    assert encode(rec, variant=v) == data  # the reference encoder writes what CARLA wrote


def test_check_reports_valid_with_detected_variant(real):
    name, data, facts = real
    report = check_stream(io.BytesIO(data), path=name, variant=None, profile="spec")
    assert report.verdict.value == "valid", report.findings
    assert report.findings == []
    assert report.variant == facts["variant"]
    assert report.stats == {
        "frames": facts["frames"], "packets": facts["packets"], "duration_s": facts["last_elapsed"],
        "map": facts["map"], "actors_added": facts["event_add"], "position_records": facts["positions"],
    }


def test_cli_json_on_both_real_files():
    paths = [str(real_file(n)) for n in sorted(FACTS)]
    # --cross-check full: the two readings must agree on every byte of the real logs (the default samples)
    run = subprocess.run([*RECSPEC, "check", "--json", "--cross-check", "full", *paths], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["report_schema"] == 1 and out["summary"] == {"files": 2, "valid": 2, "invalid": 0, "malformed": 0,
                                                              "unrecognized": 0}
    for f in out["files"]:
        facts = FACTS[f["path"].rsplit("/", 1)[-1]]
        assert (f["format"], f["variant"], f["profile"], f["verdict"]) == ("carla", facts["variant"], "spec", "valid")
        assert f["stats"]["frames"] == facts["frames"] and f["stats"]["duration_s"] == facts["last_elapsed"]
        assert f["evidence"]["cross_check"] == "kaitai: agrees"


def _frame_starts(data: bytes) -> list[int]:
    """Offsets of FrameStart packets."""
    return [off for off, pid, _ in carla_packets(data) if pid == 0]


def test_truncated_copy_gets_located_finding(tmp_path):
    data = real_file("carla_0915_crash.log").read_bytes()
    starts = _frame_starts(data)
    cut = starts[100] + 10  # inside frame 101's FrameStart payload
    path = tmp_path / "cut.log"
    path.write_bytes(data[:cut])
    run = subprocess.run([*RECSPEC, "check", "--json", str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    f = json.loads(run.stdout)["files"][0]
    assert f["verdict"] == "malformed"
    [finding] = [x for x in f["findings"] if x["rule"] == "CARLA-STREAM-001"]
    assert finding["offset"] == starts[100]
    assert "last complete frame: frame[99] (id 100)" in finding["message"]  # place from 0, id from 1
    assert f"{cut - starts[100]} bytes remain" in finding["message"]


def test_bit_flipped_copy_gets_located_finding(tmp_path):
    data = bytearray(real_file("carla_0915_crash.log").read_bytes())
    starts = _frame_starts(bytes(data))
    target = starts[50] + 5 + 16  # frame 51's elapsed (f64), low mantissa byte
    data[target] ^= 0x01
    path = tmp_path / "flip.log"
    path.write_bytes(bytes(data))
    run = subprocess.run([*RECSPEC, "check", "--json", str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    f = json.loads(run.stdout)["files"][0]
    assert f["verdict"] == "invalid"
    hits = [x for x in f["findings"] if x["rule"] == "CARLA-FRAME-004"]
    assert hits and hits[0]["offset"] == target
    assert hits[0]["path"] == "frame[50]/packet[0]:FrameStart.elapsed"
