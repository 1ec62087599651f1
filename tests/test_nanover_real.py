"""The three real NanoVer files of ../shared/real check as valid, and their facts
(PROVENANCE.md, computed independently of recspec) are what recspec reads."""

from __future__ import annotations

import io
import itertools
import json
import struct
import subprocess
import sys

import pytest

from helpers import real_file
from recspec.conformance.nanover import check_stream
from recspec.reference.nanover import FrameAggregate, Kind, decode, iter_records, merged

# the samples come through helpers.real_file: corpus/real/ (shipped, MIT), or ../shared/real/ with a skip reason

TRAJ = "sim-switching-test-recording.traj"
STATE = "sim-switching-test-recording.state"
HELLO = "hello_vel.traj"


def _records(data: bytes) -> list[tuple[int, int, bytes]]:
    """(ts, offset, payload) by a hand-written walk with struct (independent of recspec)."""
    out, off = [], 16
    while off < len(data):
        lo, hi, n = struct.unpack_from("<QQQ", data, off)
        out.append((lo | hi << 64, off, data[off + 24:off + 24 + n]))
        off += 24 + n
    assert off == len(data)
    return out


def test_sim_switching_traj_facts() -> None:
    data = real_file(TRAJ).read_bytes()
    assert len(data) == 832_398
    rec = decode(data, variant=Kind.TRAJ)
    assert rec.header.version == 2
    assert len(rec.records) == 454
    ts = [r.timestamp_us for r in rec.records]
    assert ts[0] == 2_224 and ts[-1] == 15_315_361 and all(a < b for a, b in itertools.pairwise(ts))
    assert rec.records[0].message.frame_index == 2019 and rec.records[-1].message.frame_index == 114
    resets = [r for r in rec.records if r.message.frame_index == 0]
    assert len(resets) == 3
    raw = _records(data)
    for r in resets:  # the field is absent on the wire each time
        payload = next(p for t, _, p in raw if t == r.timestamp_us)
        assert payload[0] != 0x08
    counts = {r.message.values["particle.count"] for r in rec.records if "particle.count" in r.message.values}
    assert counts == {65.0, 173.0}
    sizes = [len(p) for _, _, p in raw]
    assert min(sizes) == 1_161 and max(sizes) == 4_235


def test_sim_switching_state_facts() -> None:
    data = real_file(STATE).read_bytes()
    assert len(data) == 78
    rec = decode(data, variant=Kind.STATE)
    assert [r.timestamp_us for r in rec.records] == [1_994]
    assert rec.records[0].message.changes == {"imd.velocity_reset_available": False}
    assert len(_records(data)[0][2]) == 38


def test_hello_vel_facts() -> None:
    data = real_file(HELLO).read_bytes()
    assert len(data) == 520_749
    rec = decode(data, variant=Kind.TRAJ)
    assert len(rec.records) == 114
    assert rec.records[0].timestamp_us == 235_553 and rec.records[-1].timestamp_us == 4_361_298
    assert rec.records[0].message.frame_index == 0 and rec.records[-1].message.frame_index == 124
    assert _records(data)[0][2][0] != 0x08  # frame_index absent
    assert {r.message.values["particle.count"] for r in rec.records if "particle.count" in r.message.values} == {173.0}
    sizes = [len(p) for _, _, p in _records(data)]
    assert min(sizes) == 3_056 and max(sizes) == 4_557
    agg = FrameAggregate()
    for r in rec.records:
        agg.apply(r.message)
    assert len(agg.arrays["particle.velocities"].values) == 3 * 173


@pytest.mark.parametrize("name,kind,records,first,last,resets", [
    (TRAJ, "traj", 454, 2_224, 15_315_361, 3),
    (STATE, "state", 1, 1_994, 1_994, None),
    (HELLO, "traj", 114, 235_553, 4_361_298, 1),
])
def test_real_files_check_valid_with_the_contract_stats(name: str, kind: str, records: int, first: int, last: int,
                                                          resets: int | None) -> None:
    path = real_file(name)
    # --cross-check full: the two readings must agree on every record (the default samples)
    proc = subprocess.run([sys.executable, "-m", "recspec", "check", "--json", "--cross-check", "full", str(path)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout
    report = json.loads(proc.stdout)["files"][0]
    assert report["format"] == "nanover" and report["verdict"] == "valid"
    stats = report["stats"]
    assert (stats["kind"], stats["records"], stats["first_timestamp_us"], stats["last_timestamp_us"]) == \
        (kind, records, first, last)
    if resets is not None:
        assert stats["resets"] == resets
    assert report["evidence"]["cross_check"] == "kaitai: agrees"
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert errors == []
    if name == HELLO:  # the Rust writer's float residue ids: reported, not a silent pass
        assert {f["rule"] for f in report["findings"]} == {"NANOVER-FRAME-005"}


def test_truncated_copy_is_located(tmp_path) -> None:
    data = real_file(HELLO).read_bytes()
    raw = _records(data)
    cut = raw[65][1] + 24 + 100  # inside record 65's payload
    p = tmp_path / "cut.traj"
    p.write_bytes(data[:cut])
    proc = subprocess.run([sys.executable, "-m", "recspec", "check", "--json", str(p)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1
    f = json.loads(proc.stdout)["files"][0]
    assert f["verdict"] == "malformed"
    (finding,) = [x for x in f["findings"] if x["rule"] == "NANOVER-STREAM-001"]
    assert finding["offset"] == raw[65][1]
    assert f"record[64] at offset {raw[64][1]}" in finding["message"]
    assert f"{cut - raw[65][1]} bytes remain" in finding["message"]


def test_bit_flipped_tag_is_located(tmp_path) -> None:
    data = bytearray(real_file(TRAJ).read_bytes())
    raw = _records(bytes(data))
    at = raw[10][1] + 24  # the first tag of record 10's payload
    data[at] |= 0x07  # wire type 7
    p = tmp_path / "flip.traj"
    p.write_bytes(bytes(data))
    report = check_stream(io.BytesIO(bytes(data)), path=str(p), size=len(data))
    assert report.verdict.value == "malformed"
    (finding,) = report.findings
    assert finding.rule == "NANOVER-PROTO-001" and finding.offset == at and finding.path == "record[10]"
    assert report.stats["records"] == 454  # the walk goes on after the bad record


def test_merged_pairs_the_real_session() -> None:
    traj = list(iter_records(io.BytesIO(real_file(TRAJ).read_bytes()), variant=Kind.TRAJ))
    state = list(iter_records(io.BytesIO(real_file(STATE).read_bytes()), variant=Kind.STATE))
    entries = list(merged(traj, state))
    assert len(entries) == 455  # no shared timestamp: the state update (1,994 us) comes first
    assert entries[0][0] == 1_994 and entries[0][1] is None and entries[0][2] is not None
    assert [e[0] for e in entries] == sorted(e[0] for e in entries)


def test_unreadable_topology_frame_does_not_cascade() -> None:
    """When the frame carrying the topology cannot be read, the aggregate is unknown until the
    next reset: one finding, not one per later frame."""
    data = bytearray(real_file(TRAJ).read_bytes())
    data[16 + 24] |= 0x07
    report = check_stream(io.BytesIO(bytes(data)), path="x.traj", size=len(data))
    assert [(f.rule, f.offset) for f in report.findings] == [("NANOVER-PROTO-001", 40)]
