"""Lossless cases (``recspec_case`` 2): ``encode(from_case(to_case(decode(f)))) == f``.

For every format and variant on files the strategies draw (valid and merely invalid ones, and with the
details a writer may choose: NaN bits, NanoVer map order, Matrix-SMT's compat form, a tar member's mtime),
and byte for byte for every real file (corpus/real/ and ../shared/real/, skipped with the reason where
absent). The canonical case (``canonical=True``) leaves each detail out; a version 1 case is still read.
"""

from __future__ import annotations

import json
import struct
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import real_file
from recspec._case_json import CaseError
from recspec.cli import main
from recspec.errors import DecodeError
from recspec.formats import FORMATS
from recspec.reference.nanover import Array, ArrayKind, Kind
from recspec.reference.raskat_signal import FIELD_NAMES
from recspec.strategies import (
    carla_logs,
    matrix_files,
    matrix_recordings,
    nanover_recordings,
    raskat_files,
    raskat_signals,
)

_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _through_the_case(fmt: str, data: bytes, variant: str | None) -> bytes | None:
    """The file the lossless case of ``data`` encodes to (through JSON text), or None when the file has
    no case (it does not decode, or it has no frames to speak of: a finding, not a case)."""
    codec = FORMATS[fmt].load_reference()
    try:
        case = codec.to_case(codec.decode(data, variant=variant), variant=variant)
    except (DecodeError, CaseError):
        return None
    case = json.loads(json.dumps(case))
    assert case["recspec_case"] == 2
    return codec.encode(codec.from_case(case), variant=case["variant"])


# --- drawn files -------------------------------------------------------------------------------


@pytest.mark.parametrize("valid", [True, False], ids=["valid", "invalid"])
@pytest.mark.parametrize("variant", FORMATS["carla"].variants)
def test_carla_drawn_logs_come_back_byte_for_byte(variant: str, valid: bool) -> None:
    @_SETTINGS
    @given(carla_logs(variant, max_frames=3, valid=valid))
    def roundtrip(log: tuple[bytes, Any]) -> None:
        data, _ = log
        assert _through_the_case("carla", data, variant) == data  # every drawn log has a lossless case

    roundtrip()


def _nan_bits_f32() -> st.SearchStrategy[int]:
    """Quiet float32 NaNs: any sign, any payload (a signalling NaN is quieted by any float conversion)."""
    return st.builds(lambda sign, payload: sign << 31 | 0x7FC00000 | payload,
                     st.integers(0, 1), st.integers(0, (1 << 22) - 1))


@pytest.mark.parametrize("variant", ["0.9.12-0.9.13", "0.9.15"])
def test_carla_nan_bits_survive_the_case(variant: str) -> None:
    """A NaN's sign and payload are content of the case: {"nan": "0x........"}, its float32 bits, which the
    encoder writes back; the canonical case says "NaN"."""
    codec = FORMATS["carla"].load_reference()

    @_SETTINGS
    @given(_nan_bits_f32())
    def roundtrip(bits: int) -> None:
        case = _one_position_case(variant, {"nan": f"0x{bits:08x}"})
        data = codec.encode(codec.from_case(case), variant=variant)
        assert struct.pack("<I", bits) in data
        back = codec.to_case(codec.decode(data, variant=variant), variant=variant)
        x = back["frames"][0]["packets"][0]["records"][0]["location"][0]
        assert x == ("NaN" if bits == 0x7FC00000 else {"nan": f"0x{bits:08x}"})
        assert codec.encode(codec.from_case(json.loads(json.dumps(back))), variant=variant) == data
        canonical = codec.to_case(codec.decode(data, variant=variant), variant=variant, canonical=True)
        assert canonical["frames"][0]["packets"][0]["records"][0]["location"][0] == "NaN"

    roundtrip()


def _one_position_case(variant: str, x: Any) -> dict[str, Any]:
    return {"recspec_case": 2, "format": "carla", "variant": variant,
            "header": {"version": 1, "magic": "CARLA_RECORDER", "date": 0, "map_name": "Town01"},
            "frames": [{"frame_id": 1, "duration_this": 0.05, "elapsed": 0.0, "packets": [
                {"kind": "Position", "records": [{"database_id": 7, "location": [x, 0.0, 0.0],
                                                  "rotation": [0.0, 0.0, 0.0]}]}]}]}


def test_carla_013_minus_nan_is_0000c0ff_on_disk() -> None:
    """The 0.9.13 logs' -NaN: float32 bits 0xffc00000, stored little-endian as 00 00 c0 ff (the canonical
    quiet NaN is 00 00 c0 7f)."""
    codec = FORMATS["carla"].load_reference()
    variant = "0.9.12-0.9.13"
    minus = codec.encode(codec.from_case(_one_position_case(variant, {"nan": "0xffc00000"})), variant=variant)
    plain = codec.encode(codec.from_case(_one_position_case(variant, "NaN")), variant=variant)
    assert bytes.fromhex("0000c0ff") in minus and bytes.fromhex("0000c0ff") not in plain
    assert bytes.fromhex("0000c07f") in plain


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


@pytest.mark.parametrize("valid", [True, False], ids=["valid", "invalid"])
@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_matrix_drawn_files_of_either_form_come_back_byte_for_byte(profile: str, valid: bool) -> None:
    @_SETTINGS
    @given(matrix_files(profile, max_frames=3, valid=valid))
    def roundtrip(drawn: tuple[bytes, str]) -> None:
        data, _ = drawn
        again = _through_the_case("matrix-smt", data, None)
        assert again is None or again == data

    roundtrip()


def test_matrix_whole_numbers_stored_as_integers_in_a_spec_file_come_back_byte_for_byte() -> None:
    """BSON stores a number as double (type 0x01), int32 (0x10) or int64 (0x12); a spec writer may store a
    whole frame time as int32: the lossless case names each such number under ``numbers``."""
    codec = FORMATS["matrix-smt"].load_reference()

    @_SETTINGS
    @given(matrix_recordings(min_frames=1, max_frames=3), st.data())
    def roundtrip(rec: Any, data: Any) -> None:
        times = [float(data.draw(st.integers(0, 1000))) for _ in rec.frames]
        frames = tuple(replace(f, time=t) for f, t in zip(rec.frames, times))
        kinds = [data.draw(st.sampled_from(["double", "int32", "int64"])) for _ in frames]
        numbers = tuple((f"frames[{i}].t", k) for i, k in enumerate(kinds) if k != "double")
        file = codec.encode(replace(rec, frames=frames, numbers=numbers or None))
        for (_, kind), t in zip(numbers, (t for t, k in zip(times, kinds) if k != "double")):
            element = (b"\x10t\x00" + struct.pack("<i", int(t)) if kind == "int32"
                       else b"\x12t\x00" + struct.pack("<q", int(t)))
            assert element in file
        assert _through_the_case("matrix-smt", file, None) == file

    roundtrip()


@pytest.mark.parametrize("valid", [True, False], ids=["valid", "invalid"])
@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_raskat_drawn_files_come_back_byte_for_byte(version: int, valid: bool) -> None:
    codec = FORMATS["raskat-signal"].load_reference()

    @_SETTINGS
    @given(raskat_files(version, max_samples=8, valid=valid), st.integers(0, 8**11 - 1))
    def roundtrip(drawn: tuple[bytes, int, str], mtime: int) -> None:
        data, _, container = drawn
        if container == "tar.xz":  # the member's mtime is the writer's choice too
            data = codec.encode(codec.decode(data), mtime=mtime)
        again = _through_the_case("raskat-signal", data, None)
        assert again is None or again == data

    roundtrip()


@pytest.mark.parametrize("version", [3, 4])
def test_raskat_msgpack_objects_stored_wider_come_back_byte_for_byte(version: int) -> None:
    """MessagePack lets a writer store 5 as uint 32 (ce 00 00 00 05) or a short string as str 8: the
    lossless case names each such lead byte under ``msgpack``."""
    from recspec.reference.raskat_signal import SignalFile, SignalMsgpack

    codec = FORMATS["raskat-signal"].load_reference()
    unsigned = {0xCC: 0xFF, 0xCD: 0xFFFF, 0xCE: 0xFFFFFFFF, 0xCF: 2**64 - 1}

    @_SETTINGS
    @given(raskat_signals(version, max_samples=6), st.data())
    def roundtrip(sig: Any, data: Any) -> None:
        leads = []
        for i, value in enumerate(sig.fields):
            if type(value) is int and value >= 0:
                fits = [lead for lead, top in unsigned.items() if value <= top]
                leads.append((FIELD_NAMES[i], data.draw(st.sampled_from(fits))))
        wide = SignalMsgpack(sig.version, sig.fields, tuple(leads))
        file = codec.encode(SignalFile("raw", wide))
        for _, lead in leads:  # each named field starts with its lead byte
            assert bytes([lead]) in file
        assert _through_the_case("raskat-signal", file, None) == file

    roundtrip()


# --- real files ----------------------------------------------------------------------------------

REAL_FILES = ["carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log", "hello_vel.traj",
              "sim-switching-test-recording.traj", "sim-switching-test-recording.state", "signal.v3", "Scene1.bson"]


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_files_come_back_byte_for_byte_through_recspec_case_and_encode(
        name: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = real_file(name)
    fmt = FORMATS[{"log": "carla", "traj": "nanover", "state": "nanover", "v3": "raskat-signal",
                   "bson": "matrix-smt"}[name.rsplit(".", 1)[1]]]
    assert main(["case", "--format", fmt.id, str(path)]) == 0
    (tmp_path / "case.json").write_text(capsys.readouterr().out)
    assert main(["encode", str(tmp_path / "case.json"), "-o", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again").read_bytes() == path.read_bytes()


def test_scene1_is_the_producers_compat_form() -> None:
    """Scene1.bson's keys are sorted and its whole numbers int32 (PROVENANCE: four int32 times): the
    lossless case says ``form: compat``; the canonical case, encoded the document's way, is 1,248 bytes
    shorter (whole numbers as 8-byte doubles replace ..., "t" replaces "time")."""
    path = real_file("Scene1.bson")
    codec = FORMATS["matrix-smt"].load_reference()
    rec = codec.decode(path.read_bytes())
    assert codec.to_case(rec)["form"] == "compat"
    canonical = codec.to_case(rec, canonical=True)
    assert "form" not in canonical
    assert path.stat().st_size - len(codec.encode(codec.from_case(canonical))) == 1248


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


# --- the case's own rules ------------------------------------------------------------------------


def test_a_log_not_bracketed_into_frames_has_a_lossless_case_of_packets_and_no_canonical_one() -> None:
    """corpus/carla/invalid/CARLA-FRAME-001.log is a log with an EventDel packet after the last FrameEnd (its
    manifest): the lossless case lists the packets in file order, FrameStart and FrameEnd among them."""
    log = Path(__file__).resolve().parents[1] / "corpus" / "carla" / "invalid" / "CARLA-FRAME-001.log"
    codec = FORMATS["carla"].load_reference()
    model = codec.decode(log.read_bytes(), variant="0.9.15")
    case = codec.to_case(model, variant="0.9.15")
    assert "frames" not in case and case["packets"][-1] == {"kind": "EventDel", "records": []}
    assert case["packets"][-2] == {"kind": "FrameEnd"} and case["packets"][0]["kind"] == "FrameStart"
    assert _through_the_case("carla", log.read_bytes(), "0.9.15") == log.read_bytes()
    with pytest.raises(CaseError, match="outside a frame"):
        codec.to_case(model, variant="0.9.15", canonical=True)


def test_a_version_1_case_is_still_read_and_version_3_is_refused() -> None:
    codec = FORMATS["carla"].load_reference()
    v1 = {**_one_position_case("0.9.15", 1.5), "recspec_case": 1}
    assert codec.from_case(v1) == codec.from_case({**v1, "recspec_case": 2})
    with pytest.raises(CaseError) as e:
        codec.from_case({**v1, "recspec_case": 3})
    assert e.value.path == "recspec_case"


@pytest.mark.parametrize(("x", "why"), [({"nan": "0x3f800000"}, "not the bits of a NaN"),
                                        ({"nan": "0xffc0"}, "8 hex digits"),
                                        ({"nan": "ffc00000"}, "8 hex digits"),
                                        ({"nan": "0xffc0_000"}, "8 hex digits")])
def test_a_nan_object_that_is_not_a_nan_is_a_located_case_error(x: Any, why: str) -> None:
    with pytest.raises(CaseError, match=why) as e:
        FORMATS["carla"].load_reference().from_case(_one_position_case("0.9.15", x))
    assert e.value.path == "frames[0].packets[0].records[0].location[0].nan"


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
