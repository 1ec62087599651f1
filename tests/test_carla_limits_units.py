"""Limits on the units a CARLA recorder log can hold, and findings that must say where
(tests/test_limits_units.py): CARLA-FRAME-011, the packets a release writes in every frame."""

from __future__ import annotations

import struct

import pytest

import recspec
from helpers import REAL, REAL_SAMPLES_REASON
from recspec.report import Verdict


def _carla_bare_frames(frames: int) -> bytes:
    """A CARLA header, then frames holding only FrameStart and FrameEnd, timed as CARLA times them."""
    def s(text: str) -> bytes:
        return struct.pack("<H", len(text)) + text.encode()

    out = [struct.pack("<H", 1) + s("CARLA_RECORDER") + struct.pack("<q", 1_700_000_000) + s("Town10HD_Opt")]
    for i in range(frames):
        out.append(struct.pack("<BIQdd", 0, 24, i + 1, 0.05 if i + 1 < frames else -1.0, 0.05 * i))
        out.append(struct.pack("<BI", 1, 0))
    return b"".join(out)


def test_carla_frames_without_the_always_written_packets_are_not_valid_under_spec() -> None:
    data = _carla_bare_frames(3)
    spec = recspec.check(data, format="carla", variant="0.9.15")
    assert spec.verdict is Verdict.INVALID
    found = [f for f in spec.findings if f.rule == "CARLA-FRAME-011"]
    assert len(found) == 3
    header = len(data) - 3 * 34  # each frame: FrameStart (5 + 24 bytes) and FrameEnd (5)
    assert [f.offset for f in found] == [header + 29, header + 34 + 29, header + 68 + 29]  # each FrameEnd
    for name in ("VisualTime", "Position", "State", "AnimVehicleWheels", "AnimBiker"):
        assert name in found[0].message
    assert "EventAdd" not in found[0].message  # the document makes the event packets optional
    compat = recspec.check(data, format="carla", variant="0.9.15", profile="compat")
    assert compat.verdict is Verdict.VALID


def test_carla_real_logs_hold_every_always_written_packet() -> None:
    logs = sorted(REAL.glob("carla_*.log"))
    if not logs:
        pytest.skip(REAL_SAMPLES_REASON)
    for log in logs:
        r = recspec.check(log, cross_check=False)
        assert not [f for f in r.findings if f.rule == "CARLA-FRAME-011"], log.name
        assert r.verdict is Verdict.VALID, log.name
