"""No false alarms (and no false pass) on raSkat files built the way the format's real writers build them:
MessagePack by the PyPI ``msgpack`` package as msgpack-cxx 4.1.2-6.x packs a raSkat v3 signal, not with
recspec's encoder. (The other formats' real writers: tests/test_<package>_real_writers.py.)"""

from __future__ import annotations

import struct

import msgpack

import recspec
from recspec.report import Severity

#: signal.v3's fields (PROVENANCE.md), latitude first as the writer stores them
V3_FIELDS = ["20250624100658", 73755, 70.54321, 128.012345, 150.0, 500_000, 1000, 10, 3.299999952316284, 138, 1,
             list(range(100))]


def raskat_v3(fields: list, *, whole_doubles_as_ints: bool) -> bytes:
    """A raw v3 signal: the u16 LE version word, then the bare MessagePack objects. With
    ``whole_doubles_as_ints`` the doubles that hold whole numbers are packed as integers, as
    msgpack-cxx 4.1.2 to 6.x does (``msgpack::pack(double)`` writes 150.0 as the fixint 150)."""
    out = [struct.pack("<H", 3)]
    for x in fields:
        if whole_doubles_as_ints and type(x) is float and x.is_integer():
            x = int(x)
        out.append(msgpack.packb(x, use_bin_type=True))
    return b"".join(out)


def test_raskat_whole_number_double_packed_as_int_is_not_an_error_under_compat():
    data = raskat_v3(V3_FIELDS, whole_doubles_as_ints=True)
    assert data[2:].count(b"\xcb") == 3  # three doubles left as float 64; the altitude is the fixint 150
    report = recspec.check(data, format="raskat-signal", profile="compat")
    assert report.verdict.value == "valid"
    assert not [f for f in report.findings if f.severity is Severity.ERROR]
    assert "RSIG-FIELDS-001" not in {f.rule for f in report.findings}
    # spec holds the writer to the document's type, by its own rule
    assert report.verdicts["spec"].rules.get("RSIG-FIELDS-003") == 1


def test_raskat_one_non_float_coordinate_does_not_skip_the_others_range_checks():
    fields = list(V3_FIELDS)
    fields[2] = 95.0  # the writer's latitude, out of range
    fields[4] = None  # the altitude stored as nil: RSIG-FIELDS-001
    report = recspec.check(raskat_v3(fields, whole_doubles_as_ints=False), format="raskat-signal", profile="compat")
    rules = [f.rule for f in report.findings]
    assert "RSIG-FIELDS-001" in rules
    coord = [f for f in report.findings if f.rule == "RSIG-COORD-002"]
    assert [f.actual for f in coord] == [95.0]
