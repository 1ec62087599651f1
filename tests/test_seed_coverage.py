"""tools/seed_coverage.py: every kind, field and edge value a real writer writes is held by a valid seed
(corpus/<format>/valid/), so that a fuzz campaign starts one mutation away from a rule's edge; the audit
notices a seed taken away; and the edge seeds are one byte away from the finding of the rule whose edge
they hold (the checker judges the byte after the edge, at its offset, in the fast path and the walk)."""

from __future__ import annotations

import io
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from helpers import load_script
from recspec.conformance.carla import _check as carla_check
from recspec.conformance.carla._seeds import HEADER, edge_packets
from recspec.conformance.nanover import check_stream as nanover_stream
from recspec.conformance.raskat_signal import check_bytes as raskat_bytes
from recspec.reference import carla as m
from recspec.reference.carla import VARIANTS, encode
from recspec.reference.carla import PacketKind as K

ROOT = Path(__file__).resolve().parent.parent
coverage = load_script("tools/seed_coverage.py", "seed_coverage_tool")


@pytest.mark.parametrize("fmt", list(coverage.AUDITS))
def test_every_seedable_item_is_held_by_a_seed(fmt: str) -> None:
    cov = coverage.AUDITS[fmt](ROOT / "corpus")
    assert cov, fmt
    assert [item for item, seeds in cov.items() if not seeds] == []


def _without(tmp_path: Path, fmt: str, gone: str) -> Path:
    """A copy of corpus/<fmt>/ whose manifest leaves out the seeds whose path contains ``gone``."""
    shutil.copytree(ROOT / "corpus" / fmt, tmp_path / fmt)
    manifest = json.loads((tmp_path / fmt / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"] = [e for e in manifest["files"] if gone not in e["path"]]
    (tmp_path / fmt / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("fmt", "gone", "missing"), [
    ("carla", "0.9.16-edges", {"0.9.16: enum VEHICLE_DOOR.door = 6", "0.9.16: flag STATE.is_frozen = 1",
                               "0.9.16: event-free frames the bulk proof takes whole (template and run)",
                               "0.9.16: a judged flag or enum changing between two event-free frames"}),
    ("carla", "-least", {"CARLA-ENUM-003: VEHICLE_DOOR.door one past its last value (the least break) in an "
                         "invalid seed"}),
    ("nanover", "every-key", {"key bond.orders", "key particle.velocities", "key system.temperature",
                              "forces.user.index reaching particle.count - 1 (NANOVER-FRAME-001)"}),
    ("raskat-signal", "v3-edges", {"v3: antenna 2 (RSIG-ANTENNA-001)", "v3: microseconds 999,999 (RSIG-TIME-002)"}),
    ("matrix-smt", "FRAME-002-twice", {"frames judged against the latest time so far"}),
])
def test_the_audit_reports_what_a_missing_seed_held(tmp_path: Path, fmt: str, gone: str, missing: set[str]) -> None:
    cov = coverage.AUDITS[fmt](_without(tmp_path, fmt, gone))
    assert missing <= {item for item, seeds in cov.items() if not seeds}


def test_the_command_line_exits_1_on_a_missing_item(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert coverage.main(["nanover", "--corpus", str(_without(tmp_path, "nanover", "every-key"))]) == 1
    assert "MISSING key bond.orders" in capsys.readouterr().out
    assert coverage.main(["nanover"]) == 0


def nanover_check(data: bytes) -> list[str]:
    return [f.rule for f in nanover_stream(io.BytesIO(data), path="x.traj", variant="traj").findings]


def raskat_check(data: bytes) -> list[tuple[str, int]]:
    report, _ = raskat_bytes(data, path="x.sig", variant=None, profile="compat")
    return [(f.rule, f.offset) for f in report.findings]


def _one_byte_apart(a: bytes, b: bytes) -> int:
    assert len(a) == len(b)
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    assert len(diff) == 1, diff
    return diff[0]


def _carla_findings(data: bytes, variant: str, fast: bool) -> list[tuple[str, int]]:
    report = carla_check.check_stream(io.BytesIO(data), path="x.log", variant=VARIANTS[variant], profile="spec",
                                      fast_path=fast)
    return [(f.rule, f.offset) for f in report.findings]


@pytest.mark.parametrize(("kind", "field", "value", "rule"), [
    (K.VEHICLE_DOOR, "door", 7, "CARLA-ENUM-003"),  # CARLA's seven doors are 0 .. 6
    (K.STATE, "is_frozen", 2, "CARLA-VALUE-001"),  # a flag is 0 or 1
    (K.STATE, "state", 4, "CARLA-ENUM-002"),  # 0.9.16's traffic-light states are 0 .. 3
])
@pytest.mark.parametrize("frame_from_end", [1, 2, 3])
def test_a_carla_edge_seed_is_one_byte_from_its_rule_in_the_steady_frames(
        kind: K, field: str, value: int, rule: str, frame_from_end: int) -> None:
    v = VARIANTS["0.9.16"]
    packets = edge_packets(v)
    # the record in the frame_from_end-th frame from the end whose field sits at its edge (value - 1)
    at = [i for i, p in enumerate(packets) if p.kind is kind and any(getattr(r, field) == value - 1 for r in p.body)]
    i = at[-frame_from_end]
    j = next(j for j, r in enumerate(packets[i].body) if getattr(r, field) == value - 1)
    body = list(packets[i].body)
    body[j] = replace(body[j], **{field: value})
    edited = [*packets[:i], m.Packet(kind, tuple(body)), *packets[i + 1:]]
    good, bad = (encode(m.Recording(HEADER, tuple(ps)), variant=v) for ps in (packets, edited))
    pos = _one_byte_apart(good, bad)
    assert _carla_findings(good, v.name, True) == []
    for fast in (True, False):
        found = [off for r, off in _carla_findings(bad, v.name, fast) if r == rule]
        assert found and all(off <= pos for off in found), (fast, found, pos)


def test_the_nanover_every_key_seed_is_one_byte_from_frame_003() -> None:
    data = (ROOT / "corpus" / "nanover" / "valid" / "every-key.traj").read_bytes()
    assert nanover_check(data) == []
    # residue.chains (0, 1, 1) of 2 chains: its last index is the edge; 2 is a chain that does not exist
    # (uint32 varints in a packed IndexArray: the bytes 00 01 01 end with the last index)
    head = data.index(b"residue.chains")
    pos = data.index(bytes((0, 1, 1)), head)
    bad = data[:pos + 2] + b"\x02" + data[pos + 3:]
    assert "NANOVER-FRAME-003" in nanover_check(bad)


def test_the_raskat_edge_seed_is_one_byte_from_antenna_001() -> None:
    data = (ROOT / "corpus" / "raskat-signal" / "valid" / "v3-edges.sig").read_bytes()
    # field 11 (antenna) is the positive fixint 0x02 right before the samples' array head (0x95: 5 elements)
    pos = data.index(b"\x02\x95")
    bad = data[:pos] + b"\x03" + data[pos + 1:]
    assert raskat_check(data) == []  # compat: the raw container is what the writer writes
    assert raskat_check(bad) == [("RSIG-ANTENNA-001", pos)]
