"""Lossless cases of NanoVer recordings (tests/test_case_lossless.py): drawn files in any map order, unpacked
floats and a foreign header, values and arrays with nothing set, the Rust server's own order per frame, an
order naming each entry once, the canonical case encoding to the canonical file, the real files byte for byte."""

from __future__ import annotations

import struct
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_case_lossless import _SETTINGS, _through_the_case, real_file_comes_back

from helpers import real_file
from recspec._case_json import CaseError
from recspec.formats import FORMATS
from recspec.reference.nanover import Array, ArrayKind, Kind
from recspec.strategies import (
    nanover_recordings,
)


@pytest.mark.parametrize("kind", ["traj", "state"])
def test_nanover_drawn_files_in_any_map_order_come_back_byte_for_byte(kind: str) -> None:
    """The wire allows map entries in any order (NanoVer's Rust server writes each frame's in a new one):
    a record written in a drawn order decodes to that order, which the case keeps."""
    codec = FORMATS["nanover"].load_reference()

    @_SETTINGS
    @given(nanover_recordings(kind, max_records=3), st.randoms(use_true_random=False))
    def roundtrip(rec: Any, rnd: Any) -> None:
        records = []
        for r in rec.records:
            m = r.message
            names = ([f"values/{k}" for k in m.values] + [f"arrays/{k}" for k in m.arrays]
                     if kind == "traj" else list(m.changes))
            rnd.shuffle(names)
            m = replace(m, order=tuple(names))
            if kind == "traj":  # numbers a field each: what a protobuf reader must accept as well as packed
                m = replace(m, unpacked=tuple(k for k, a in m.arrays.items()
                                              if a.kind in (ArrayKind.FLOAT, ArrayKind.INDEX) and rnd.random() < 0.5))
            records.append(replace(r, message=m))
        data = codec.encode(replace(rec, records=tuple(records)))
        assert _through_the_case("nanover", data, kind) == data

    roundtrip()


def test_unpacked_floats_and_a_foreign_header_are_said_by_the_case() -> None:
    """corpus/nanover/valid/unpacked-floats.traj writes particle.positions as three fields 0x0d + float32;
    NANOVER-HEADER-002.traj has version 3 in bytes 8..16. Both come back byte for byte through the case."""
    codec = FORMATS["nanover"].load_reference()
    root = Path(__file__).resolve().parents[1] / "corpus" / "nanover"
    unpacked = (root / "valid" / "unpacked-floats.traj").read_bytes()
    assert unpacked.count(b"\x0d") >= 3 and struct.pack("<f", 2.0) in unpacked
    case = codec.to_case(codec.decode(unpacked, variant="traj"))
    assert case["records"][0]["unpacked"] == ["particle.positions"]
    assert _through_the_case("nanover", unpacked, "traj") == unpacked
    header = (root / "invalid" / "NANOVER-HEADER-002.traj").read_bytes()
    case = codec.to_case(codec.decode(header, variant="traj"))
    assert case["header"]["version"] == struct.unpack_from("<Q", header, 8)[0] == 3
    assert "header" not in codec.to_case(codec.decode(header, variant="traj"), canonical=True)
    assert _through_the_case("nanover", header, "traj") == header


def test_a_value_or_array_with_nothing_set_has_a_lossless_case_and_no_canonical_one() -> None:
    """NANOVER-PROTO-005: a google.protobuf.Value with no kind (0a 01 6b 12 00: key "k", an empty Value) and
    a ValueArray with no member are on the wire; the lossless case says {"$unset": true} and {}."""
    from recspec.reference.nanover import UNSET, Frame, Record, Recording, StateUpdate

    codec = FORMATS["nanover"].load_reference()
    for kind, message in (("state", StateUpdate({"k": UNSET})), ("traj", Frame(1, {}, {"k": Array(None)}))):
        data = codec.encode(Recording(Kind(kind), (Record(5, message),)))
        assert bytes.fromhex("0a016b1200") in data  # the entry of key "k" holding an empty message
        case = codec.to_case(codec.decode(data, variant=kind))
        held = case["records"][0]["update"]["k"] if kind == "state" else case["records"][0]["frame"]["arrays"]["k"]
        assert held == ({"$unset": True} if kind == "state" else {})
        assert _through_the_case("nanover", data, kind) == data
        with pytest.raises(CaseError, match="NANOVER-PROTO-005"):
            codec.to_case(codec.decode(data, variant=kind), canonical=True)


def test_rust_written_trajectory_keeps_each_frames_own_order() -> None:
    """hello_vel.traj (NanoVer's Rust server): every record's map entries are out of key order, and not in
    one order for all; the canonical case has no order."""
    path = real_file("hello_vel.traj")
    codec = FORMATS["nanover"].load_reference()
    rec = codec.decode(path.read_bytes(), variant="traj")
    case = codec.to_case(rec)
    orders = [tuple(r["order"]) for r in case["records"] if "order" in r]
    assert len(orders) == 114 and len(set(orders)) > 1
    assert all("order" not in r for r in codec.to_case(rec, canonical=True)["records"])


def test_a_nanover_order_must_name_each_entry_once() -> None:
    codec = FORMATS["nanover"].load_reference()
    record = {"timestamp_us": 1, "frame": {"frame_index": 0, "values": {"a": 1.0, "b": 2.0}, "arrays": {}}}
    case = {"recspec_case": 2, "format": "nanover", "variant": "traj", "records": [record]}
    ok = codec.from_case({**case, "records": [{**record, "order": ["values/b", "values/a"]}]})
    data = codec.encode(ok)
    assert data.index(b"\x0a\x01b") < data.index(b"\x0a\x01a")  # the entry of key "b" is written first
    for bad, why in ((["values/b"], "missing 'values/a'"), (["values/b", "values/a", "arrays/c"], "not an entry"),
                     (["values/a", "values/a", "values/b"], "named twice")):
        with pytest.raises(CaseError, match=why) as e:
            codec.from_case({**case, "records": [{**record, "order": bad}]})
        assert e.value.path == "records[0].order"


def test_a_canonical_case_encodes_to_the_canonical_file() -> None:
    """Left out, every detail means the canonical encoding: the canonical case of a Rust-ordered frame
    encodes to the encoder's own order, which decodes with no order."""
    codec = FORMATS["nanover"].load_reference()

    @_SETTINGS
    @given(nanover_recordings("traj", min_records=1, max_records=2), st.randoms(use_true_random=False))
    def canonical(rec: Any, rnd: Any) -> None:
        f = rec.records[0].message
        names = [f"values/{k}" for k in f.values] + [f"arrays/{k}" for k in f.arrays]
        rnd.shuffle(names)
        shuffled = replace(rec, records=(replace(rec.records[0], message=replace(f, order=tuple(names))),
                                         *rec.records[1:]))
        case = codec.to_case(codec.decode(codec.encode(shuffled), variant="traj"), canonical=True)
        assert codec.encode(codec.from_case(case)) == codec.encode(rec)

    canonical()


# --- real files ----------------------------------------------------------------------------------

REAL_FILES = ["hello_vel.traj", "sim-switching-test-recording.traj", "sim-switching-test-recording.state"]


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_files_come_back_byte_for_byte_through_recspec_case_and_encode(
        name: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    real_file_comes_back(name, "nanover", tmp_path, capsys)
