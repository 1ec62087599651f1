"""Lossless cases of CARLA logs (tests/test_case_lossless.py): drawn logs of every variant, NaN bits, the
0.9.13 -NaN on disk, a log not bracketed into frames, the real logs byte for byte; a version 1 case is still
read, and a NaN object that is not a NaN is a located case error."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_case_lossless import _SETTINGS, _through_the_case, real_file_comes_back

from recspec._case_json import CaseError
from recspec.formats import FORMATS
from recspec.strategies import (
    carla_logs,
)


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


# --- real files ----------------------------------------------------------------------------------

REAL_FILES = ["carla_0910_DistanceToLaneCenter.log", "carla_0915_crash.log"]


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_files_come_back_byte_for_byte_through_recspec_case_and_encode(
        name: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    real_file_comes_back(name, "carla", tmp_path, capsys)
