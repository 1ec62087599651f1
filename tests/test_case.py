"""Cases: every format's case codec round-trips through the reference codec, matches the shipped JSON
Schema, rejects malformed cases with a located error, and `recspec case FILE` prints one."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec._case_json import CaseError, first_difference
from recspec.cli import main
from recspec.errors import EncodeError
from recspec.formats import FORMATS, FormatInfo
from recspec.strategies import carla_cases, matrix_cases, nanover_cases, raskat_cases, raskat_signals

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "recspec" / "schemas" / "case-2.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

#: (format, variant, encode options) for every format and variant, and both Matrix-SMT profiles
TARGETS = ([("carla", v, {}) for v in FORMATS["carla"].variants] + [("nanover", "traj", {}), ("nanover", "state", {})]
           + [("raskat-signal", v, {}) for v in ("v1", "v2", "v3", "v4")]
           + [("matrix-smt", None, {"profile": p}) for p in ("spec", "compat")])


def _cases(fmt: str, variant: str | None) -> st.SearchStrategy[dict]:
    if fmt == "carla":
        return carla_cases(variant, max_frames=3)
    if fmt == "nanover":
        return nanover_cases(variant, max_records=3)
    if fmt == "raskat-signal":
        return raskat_cases(int(variant[1:]), max_samples=8)  # type: ignore[index]
    return matrix_cases(max_frames=3)


@pytest.mark.parametrize(("fmt", "variant", "options"), TARGETS,
                         ids=[f"{f}-{v or o.get('profile')}" for f, v, o in TARGETS])
def test_decode_of_encode_is_the_case(fmt: str, variant: str | None, options: dict) -> None:
    """The property of the issue: decode(encode(case)) == case, for every format and variant; each drawn
    case (through JSON, as a writer receives it) also matches the shipped schema."""
    codec = FORMATS[fmt].load_reference()

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_cases(fmt, variant))
    def roundtrip(case: dict) -> None:
        case = json.loads(json.dumps(case))
        VALIDATOR.validate(case)
        data = codec.encode(codec.from_case(case), variant=case["variant"], **options)
        back = codec.to_case(codec.decode(data, variant=variant), variant=variant, canonical=True)
        assert first_difference(case, back) is None, first_difference(case, back)

    roundtrip()


def test_the_case_schema_is_generated_from_the_codecs() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_case_schema.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("info", list(FORMATS.values()), ids=lambda i: i.id)
def test_recspec_case_prints_a_corpus_files_case(info: FormatInfo, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = json.loads((ROOT / "corpus" / info.id / "manifest.json").read_text())
    entry = next(e for e in manifest["files"] if e["path"].startswith("valid/"))
    assert main(["case", str(ROOT / "corpus" / info.id / entry["path"])]) == 0
    case = json.loads(capsys.readouterr().out)
    VALIDATOR.validate(case)
    assert case["format"] == info.id and case["recspec_case"] == 2
    if info.variants and entry.get("variant"):
        assert case["variant"] == entry["variant"]
    # and the case is the file: the reference encoder writes it back to an equal case
    codec = info.load_reference()
    data = codec.encode(codec.from_case(case), variant=case["variant"])
    assert codec.to_case(codec.decode(data, variant=case["variant"]), variant=case["variant"]) == case


def test_recspec_case_on_a_file_without_a_case_is_an_error_not_a_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    truncated = ROOT / "corpus" / "carla" / "invalid" / "CARLA-STREAM-001.log"
    assert main(["case", str(truncated)]) == 1
    err = capsys.readouterr().err
    assert "CARLA-STREAM-001" in err and "Traceback" not in err


@pytest.mark.parametrize(("fmt", "case", "path"), [
    ("carla", {"recspec_case": 1, "format": "carla", "variant": "0.9.15", "header": {
        "version": 1, "magic": "CARLA_RECORDER", "date": 0, "map_name": "x"}, "frames": [{
            "frame_id": 1, "duration_this": -1.0, "elapsed": 0.0, "packets": [{"kind": "Position", "records": [
                {"database_id": 1, "location": [0.0, 0.0], "rotation": [0.0, 0.0, 0.0]}]}]}]},
     "frames[0].packets[0].records[0].location"),
    ("nanover", {"recspec_case": 1, "format": "nanover", "variant": "traj", "records": [
        {"timestamp_us": 1, "frame": {"frame_index": 0, "values": {}, "arrays": {"a": {"double": []}}}}]},
     "records[0].frame.arrays.a"),
    ("raskat-signal", {"recspec_case": 1, "format": "raskat-signal", "variant": "v9"}, "variant"),
    ("matrix-smt", {"recspec_case": 1, "format": "matrix-smt", "variant": None, "objects": [],
                    "frames": [{"time": "soon", "states": [], "commands": []}]}, "frames[0].time"),
], ids=["carla", "nanover", "raskat-signal", "matrix-smt"])
def test_a_malformed_case_is_a_located_case_error(fmt: str, case: dict, path: str) -> None:
    with pytest.raises(CaseError) as e:
        FORMATS[fmt].load_reference().from_case(case)
    assert e.value.path == path
    assert not VALIDATOR.is_valid(case)


def test_a_negative_v2_coordinate_is_a_case_the_format_cannot_hold() -> None:
    """Research notes A.5.5: v1/v2 store unsigned parts; the reference refuses (EncodeError), not garbage."""
    from recspec.reference.raskat_signal import SignalFile, from_case, to_case

    @settings(max_examples=30, deadline=None)
    @given(raskat_signals(2))
    def refuses(sig: object) -> None:
        case = to_case(SignalFile("raw", sig))  # type: ignore[arg-type]
        case["latitude"] = -70.5
        with pytest.raises(EncodeError, match=r"latitude is -70\.5"):
            from_case(case)

    refuses()


def test_a_v2_coordinate_is_a_whole_number_of_millionths() -> None:
    from recspec.reference.raskat_signal import fixed_from_degrees

    assert (fixed_from_degrees(128.012345).int_part, fixed_from_degrees(128.012345).frac) == (128, 12345)
    with pytest.raises(EncodeError, match="whole number of millionths"):
        fixed_from_degrees(0.1234567)


def test_a_v2_coordinate_splits_as_the_document_floors_it_where_the_floor_is_exact() -> None:
    """The document's writer stores ``floor(x)`` and ``floor((x - floor(x)) * 1'000'000)`` in a u16 and a u32;
    for values exact in binary its floor and the case codec's split agree, and the u16 ends at 65535."""
    from recspec.reference.raskat_signal import Fixed, fixed_from_degrees

    assert fixed_from_degrees(12.5) == Fixed(12, 500_000)
    assert fixed_from_degrees(100.125) == Fixed(100, 125_000)
    assert fixed_from_degrees(0.0) == Fixed(0, 0)
    assert fixed_from_degrees(65535.999999) == Fixed(65535, 999_999)
    with pytest.raises(EncodeError, match=r"0 \.\. 65535\.999999"):
        fixed_from_degrees(65536.0)


def test_case_equality_keeps_the_sign_of_zero_and_the_type_of_numbers() -> None:
    assert first_difference({"x": 0.0}, {"x": -0.0}) is not None
    assert first_difference({"x": math.nan}, {"x": math.nan}) is None
    assert first_difference({"x": 1}, {"x": 1.0}) is not None
    assert first_difference({"x": 3.3}, {"x": 3.299999952316284}) is not None
    assert first_difference({"x": 3.3}, {"x": 3.299999952316284}, ("float32",)) is None
    assert str(first_difference({"a": [1, 2]}, {"a": [1]})) == "a[1]: expected 2, got nothing"


def test_strategies_have_the_missing_knobs() -> None:
    from hypothesis import find

    from recspec.reference.nanover import Frame
    from recspec.strategies import nanover_recordings

    find(nanover_recordings("traj", min_records=2, deltas=True),
         lambda r: any(isinstance(x.message, Frame) and x.message.frame_index > 0 for x in r.records))
    find(nanover_recordings("state", min_records=2, removals=True),
         lambda r: any(v is None for x in r.records for v in x.message.changes.values()))  # type: ignore[union-attr]

    @settings(max_examples=30, deadline=None)
    @given(nanover_recordings("traj", min_records=1, min_particles=2))
    def at_least_two(rec: object) -> None:
        first = rec.records[0].message  # type: ignore[attr-defined]
        assert len(first.arrays["particle.positions"].values) >= 6

    at_least_two()

    @settings(max_examples=200, deadline=None)
    @given(raskat_signals(3))
    def never_subnormal(sig: object) -> None:
        assert sig.vref >= sys.float_info.min  # type: ignore[attr-defined]

    never_subnormal()
