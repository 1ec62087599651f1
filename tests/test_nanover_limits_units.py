"""Limits on the units a NanoVer recording can hold, and findings that must say where
(tests/test_limits_units.py): values per payload, state keys, the cross-check's budget."""

from __future__ import annotations

import struct

import pytest
from build_nanover import varint
from test_limits_units import _finding

import recspec
from recspec.report import Verdict

_NANOVER_HEADER = bytes.fromhex("e3b78999c4e3715c") + struct.pack("<Q", 2)


def _ld(field: int, payload: bytes) -> bytes:
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def _state_record(timestamp: int, keys: list[bytes]) -> bytes:
    """A StateUpdate record setting each key to true (entries written by hand, as protobuf does)."""
    entries = b"".join(_ld(1, _ld(1, k) + _ld(2, b"\x20\x01")) for k in keys)
    payload = _ld(1, entries)  # StateUpdate.changed_keys = Struct{fields: entries}
    return struct.pack("<QQQ", timestamp, 0, len(payload)) + payload


def test_nanover_payload_of_too_many_map_entries_is_a_limit_finding() -> None:
    from recspec.reference.nanover import MAX_VALUES

    many = [b"k%07d" % i for i in range(MAX_VALUES + 1)]
    data = _NANOVER_HEADER + _state_record(1, many) + _state_record(2, [b"a"]) + _state_record(3, [b"b"])
    r = recspec.check(data, format="nanover", variant="state")
    f = _finding(r, "NANOVER-LIMIT-003")
    first_entry = len(_NANOVER_HEADER) + 24 + 1 + len(varint(16 * MAX_VALUES + 16))
    assert f.offset == first_entry + 16 * MAX_VALUES  # the first entry over the limit
    assert r.verdict is Verdict.MALFORMED
    assert r.stats["records"] == 3  # the record is skipped, the walk goes on
    assert r.stats["state_keys"] == 2
    assert "kaitai: agrees" in r.evidence["cross_check"]  # the oversized record is not a divergence
    # the default sample leaves the first record to the hash; the full reading leaves it out
    full = recspec.check(data, format="nanover", variant="state", cross_check="full")
    assert full.evidence["cross_check"].startswith("kaitai: agrees on every record but 1"), full.evidence


def test_nanover_cross_check_leaves_out_records_over_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from recspec.conformance.nanover import _xcheck
    from recspec.conformance.nanover._xcheck import XCHECK_MAX_VALUES

    keys = [b"k%06d" % i for i in range(XCHECK_MAX_VALUES + 1)]
    # the full reading meets the big record first; the default sample (above SAMPLE_ABOVE, the hash
    # choosing none of three records) takes the last, here the big one: with a byte budget of the whole
    # file (SAMPLE_BUDGET 1), as a file of 8 MB or more gives such a record
    monkeypatch.setattr(_xcheck, "SAMPLE_BUDGET", 1)
    for data, mode, said in ((_NANOVER_HEADER + _state_record(1, keys) + _state_record(2, [b"a"])
                              + _state_record(3, [b"b"]), "full", "kaitai: agrees on every record but 1, "),
                             (_NANOVER_HEADER + _state_record(1, [b"a"]) + _state_record(2, [b"b"])
                              + _state_record(3, keys), True, "kaitai: agrees; 1 record(s) left out")):
        r = recspec.check(data, format="nanover", variant="state", cross_check=mode)  # type: ignore[arg-type]
        assert r.verdict is Verdict.VALID, r.findings
        assert r.stats["state_keys"] == XCHECK_MAX_VALUES + 3
        assert r.evidence["cross_check"].startswith(said), r.evidence["cross_check"]


def test_nanover_state_stops_keeping_keys_past_its_limit() -> None:
    from recspec.conformance.nanover._bounds import MAX_STATE_KEYS

    per = 8192
    records = [_state_record(i + 1, [b"r%02dk%05d" % (i, j) for j in range(per)])
               for i in range(MAX_STATE_KEYS // per + 1)]
    delete = _ld(1, _ld(1, _ld(1, b"nothing") + _ld(2, b"\x08\x00")))  # {nothing: null}: deletes a missing key
    data = _NANOVER_HEADER + b"".join(records) + struct.pack("<QQQ", 999, 0, len(delete)) + delete
    r = recspec.check(data, format="nanover", variant="state", cross_check=False)
    f = _finding(r, "NANOVER-LIMIT-004")
    assert f.path == f"record[{MAX_STATE_KEYS // per}]"
    assert not [x for x in r.findings if x.rule == "NANOVER-STATE-001"]  # no longer checked
    assert r.stats["state_keys"] is None and r.verdict is Verdict.VALID
    # below the limit the same deletion is a finding
    small = _NANOVER_HEADER + records[0] + struct.pack("<QQQ", 999, 0, len(delete)) + delete
    assert _finding(recspec.check(small, format="nanover", variant="state"), "NANOVER-STATE-001")


def test_nanover_small_file_evidence_names_the_records_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to SAMPLE_ABOVE the default reads every record: with one over the budget, the evidence says
    "every record but 1", not a sample's stride it did not use."""
    from recspec.conformance.nanover import _xcheck

    monkeypatch.setattr(_xcheck, "XCHECK_MAX_VALUES", 4)
    data = (_NANOVER_HEADER + _state_record(1, [b"a"]) + _state_record(2, [b"k%d" % i for i in range(5)])
            + _state_record(3, [b"b"]))
    assert len(data) <= _xcheck.SAMPLE_ABOVE
    r = recspec.check(data, format="nanover", variant="state")
    assert r.evidence["cross_check"].startswith("kaitai: agrees on every record but 1, each above 4 "), r.evidence
