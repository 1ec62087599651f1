"""Messages that say what happened after corruption, on NanoVer recordings: an absurd record length is a
damaged length, with its offset and the bytes left, not a limit; a length the file holds is the limit."""

from __future__ import annotations

import struct
from pathlib import Path

import recspec
from helpers import SHIPPED_REAL

NANOVER_HEADER = 16  # u64 magic, u64 version


NANOVER_RECORD_HEADER = 24  # u128 timestamp, u64 payload length


def test_an_absurd_nanover_record_length_is_a_damaged_length_not_a_limit() -> None:
    data = bytearray((SHIPPED_REAL / "hello_vel.traj").read_bytes())
    at = NANOVER_HEADER + 16  # record[0]'s length field, after its timestamp
    data[at:at + 8] = struct.pack("<Q", 4898682855347960924)
    report = recspec.check(bytes(data), name="damaged.traj")
    [finding] = report.findings
    assert finding.rule == "NANOVER-STREAM-001" and finding.offset == at
    left = len(data) - NANOVER_HEADER - NANOVER_RECORD_HEADER
    assert finding.message.startswith("damaged length:")
    assert f"offset {at}" in finding.message and f"{left} bytes are left" in finding.message
    assert "limit" not in finding.message


def test_a_length_above_the_limit_that_the_file_holds_is_the_limit(tmp_path: Path) -> None:
    limit = 64 * 1024 * 1024  # MAX_PAYLOAD_SIZE, NANOVER-LIMIT-001's documented value
    head = (SHIPPED_REAL / "hello_vel.traj").read_bytes()[:NANOVER_HEADER]
    path = tmp_path / "huge.traj"
    with open(path, "wb") as f:
        f.write(head + struct.pack("<QQQ", 1, 0, limit + 1))
        f.truncate(NANOVER_HEADER + NANOVER_RECORD_HEADER + limit + 1)  # sparse: no disk written for the payload
    [finding] = recspec.check(path).findings
    assert finding.rule == "NANOVER-LIMIT-001" and finding.offset == NANOVER_HEADER + 16
