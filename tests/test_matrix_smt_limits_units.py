"""Limits on the units a Matrix-SMT recording can hold (tests/test_limits_units.py): the cross-check's budget
is counted in units, not bytes."""

from __future__ import annotations

import struct

import recspec


def test_matrix_cross_check_is_skipped_with_a_reason_past_its_unit_budget() -> None:
    from recspec.conformance.matrix_smt._format import MAX_CROSS_CHECK_UNITS

    def frames(n: int) -> bytes:  # {objects: [], frames: [{}, {}, ...]}, each frame an empty document
        empty = struct.pack("<i", 5) + b"\0"
        elements = b"".join(b"\x03" + str(i).encode() + b"\0" + empty for i in range(n))
        arr = struct.pack("<i", 4 + len(elements) + 1) + elements + b"\0"
        body = b"\x04objects\0" + empty + b"\x04frames\0" + arr
        return struct.pack("<i", 4 + len(body) + 1) + body + b"\0"

    over = recspec.check(frames(MAX_CROSS_CHECK_UNITS + 1), format="matrix-smt")
    assert over.evidence["cross_check"].startswith("skipped:") and "MAX_CROSS_CHECK_UNITS" in \
        over.evidence["cross_check"]
    under = recspec.check(frames(100), format="matrix-smt")
    assert under.evidence["cross_check"].startswith("kaitai:")
