"""The CARLA case codec (reference/carla/_case.py) against cases written by hand from the case
schema's fields (the module's docstring, docs/) and the log bytes packed by hand with
``struct.pack`` from the layout in docs/formats/carla.md (0.9.15: FrameStart id 0, 24 bytes;
FrameEnd id 1, 0 bytes; Position id 6, a u16 count and 28-byte records; PlatformTime id 14,
an f64; ids of 100 and above are left to users). Every refusal is checked for its JSON path.
Written against mutants of the module that survived the codec's other tests."""

from __future__ import annotations

import struct
from typing import Any

import jsonschema
import pytest

from recspec._case_json import CaseError
from recspec.reference.carla import VARIANTS, decode, encode
from recspec.reference.carla._case import case_schema, from_case, to_case

V15 = "0.9.15"
HEADER = {"version": 1, "magic": "CARLA_RECORDER", "date": 1_700_000_000, "map_name": "Town01"}
HEADER_BYTES = (struct.pack("<HH", 1, 14) + b"CARLA_RECORDER" + struct.pack("<q", 1_700_000_000)
                + struct.pack("<H", 6) + b"Town01")


def _packet(packet_id: int, payload: bytes) -> bytes:
    return struct.pack("<BI", packet_id, len(payload)) + payload  # u8 id, u32 size, payload


def _frame_start(frame_id: int, duration: float, elapsed: float) -> bytes:
    return _packet(0, struct.pack("<Qdd", frame_id, duration, elapsed))


FRAME_END = _packet(1, b"")
# one Position record: u32 actor id, vec3 location, rot3 rotation (roll, pitch, yaw), all f32
POSITION = _packet(6, struct.pack("<H", 1) + struct.pack("<I3f3f", 7, 1.0, 2.0, 0.5, 0.0, 0.0, 90.0))
PLATFORM_TIME = _packet(14, struct.pack("<d", 0.05))
USER_PACKET = _packet(200, b"\xca\xfe")

FRAME_PACKETS: list[dict[str, Any]] = [
    {"kind": "Position", "records": [{"database_id": 7, "location": [1.0, 2.0, 0.5],
                                      "rotation": [0.0, 0.0, 90.0]}]},
    {"kind": "PlatformTime", "time": 0.05},
    {"kind": "Raw", "packet_id": 200, "payload": "cafe"},
]
CASE: dict[str, Any] = {
    "recspec_case": 2, "format": "carla", "variant": V15, "header": HEADER,
    "frames": [{"frame_id": 1, "duration_this": -1.0, "elapsed": 0.0, "packets": FRAME_PACKETS}]}
LOG = HEADER_BYTES + _frame_start(1, -1.0, 0.0) + POSITION + PLATFORM_TIME + USER_PACKET + FRAME_END


def _refusal(call: Any) -> CaseError:
    with pytest.raises(CaseError) as caught:
        call()
    return caught.value


def test_a_hand_written_case_encodes_to_the_hand_packed_log() -> None:
    assert encode(from_case(CASE), variant=V15) == LOG


def test_the_hand_packed_log_decodes_to_the_hand_written_case() -> None:
    model = decode(LOG, variant=V15)
    assert to_case(model, variant=V15) == CASE
    assert to_case(model, variant=VARIANTS[V15]) == CASE  # a Variant names itself
    assert to_case(model, variant=V15, canonical=True) == CASE  # no NaN: the canonical case is the same


def test_to_case_names_a_known_variant() -> None:
    model = decode(LOG, variant=V15)
    for variant in (None, "0.9.99"):
        assert _refusal(lambda variant=variant: to_case(model, variant=variant)).path == "variant"


# A log whose packets are not bracketed FrameStart .. FrameEnd: packets after the header in file order,
# with the packet index (0 = the first packet after the header) where the bracketing breaks.
UNBRACKETED = [
    ("a FrameStart before the previous frame's FrameEnd", _frame_start(1, -1.0, 0.0) + _frame_start(2, -1.0, 0.0)
     + FRAME_END, "packet[1]"),
    ("a FrameEnd outside a frame", FRAME_END, "packet[0]"),
    ("a packet outside a frame", _frame_start(1, -1.0, 0.0) + FRAME_END + PLATFORM_TIME, "packet[2]"),
    ("a last frame with no FrameEnd", _frame_start(1, -1.0, 0.0) + PLATFORM_TIME, "packet[2]"),
]


@pytest.mark.parametrize(("packets", "path"), [(p, where) for _, p, where in UNBRACKETED],
                         ids=[name for name, _, _ in UNBRACKETED])
def test_an_unbracketed_log_has_no_canonical_case_and_its_lossless_case_lists_packets(packets: bytes,
                                                                                      path: str) -> None:
    log = HEADER_BYTES + packets
    model = decode(log, variant=V15)
    assert _refusal(lambda: to_case(model, variant=V15, canonical=True)).path == path
    case = to_case(model, variant=V15)
    assert "frames" not in case and case["header"] == HEADER
    kinds = [p["kind"] for p in case["packets"]]
    assert kinds[0] in ("FrameStart", "FrameEnd") and len(kinds) == len(model.packets)
    assert encode(from_case(case), variant=V15) == log


def test_a_hand_written_packets_case_encodes_to_its_log() -> None:
    """The lossless form of a log not bracketed into frames: FrameStart and FrameEnd are packets."""
    case = {"recspec_case": 2, "format": "carla", "variant": V15, "header": HEADER, "packets": [
        {"kind": "FrameEnd"}, {"kind": "FrameStart", "frame_id": 3, "duration_this": 0.25, "elapsed": 1.5},
        {"kind": "PlatformTime", "time": 0.05}]}
    log = HEADER_BYTES + FRAME_END + _frame_start(3, 0.25, 1.5) + PLATFORM_TIME
    assert encode(from_case(case), variant=V15) == log
    assert to_case(decode(log, variant=V15), variant=V15) == case


def _with_packet(packet: Any) -> dict[str, Any]:
    return {**CASE, "frames": [{**CASE["frames"][0], "packets": [packet]}]}


@pytest.mark.parametrize("packet", [
    {"kind": "FrameStart", "frame_id": 2, "duration_this": 0.0, "elapsed": 0.0},  # frames bracket themselves
    {"kind": "FrameEnd"},
    {"kind": "Teleport", "records": []},
], ids=["FrameStart", "FrameEnd", "unknown"])
def test_a_packet_kind_a_frame_cannot_hold_is_refused_at_its_kind(packet: dict[str, Any]) -> None:
    error = _refusal(lambda: from_case(_with_packet(packet)))
    assert error.path == "frames[0].packets[0].kind"
    # the kinds a frame may hold are named: record packets, fixed values and Raw, never the frame's own brackets
    listed = str(error).split("(one of: ")[1].split(")")[0]
    assert "Position" in listed and "PlatformTime" in listed and listed.endswith(", Raw")
    assert "FrameStart" not in listed and "FrameEnd" not in listed


def test_a_case_with_neither_frames_nor_packets_asks_for_frames() -> None:
    """``packets`` is the form of a log not bracketed into frames only; a case otherwise has ``frames``."""
    case = {"recspec_case": 2, "format": "carla", "variant": V15, "header": HEADER}
    assert "frames" in str(_refusal(lambda: from_case(case)))


@pytest.mark.parametrize(("payload", "path"), [
    ("cafg", "frames[0].packets[0].payload"),  # not hex
    ("caf", "frames[0].packets[0].payload"),  # half a byte
])
def test_a_payload_that_is_not_hex_is_refused_at_its_path(payload: str, path: str) -> None:
    error = _refusal(lambda: from_case(_with_packet({"kind": "Raw", "packet_id": 200, "payload": payload})))
    assert error.path == path and "hex" in str(error)


def test_a_raw_packet_id_is_a_u8() -> None:
    """The packet id is one byte on disk (docs/formats/carla.md: offset 0, u8): 0 .. 255."""
    assert encode(from_case(_with_packet({"kind": "Raw", "packet_id": 0, "payload": ""})), variant=V15) == (
        HEADER_BYTES + _frame_start(1, -1.0, 0.0) + _packet(0, b"") + FRAME_END)
    assert encode(from_case(_with_packet({"kind": "Raw", "packet_id": 255, "payload": ""})), variant=V15) == (
        HEADER_BYTES + _frame_start(1, -1.0, 0.0) + _packet(255, b"") + FRAME_END)
    for bad in (256, -1):
        error = _refusal(lambda bad=bad: from_case(_with_packet({"kind": "Raw", "packet_id": bad, "payload": ""})))
        assert error.path == "frames[0].packets[0].packet_id"


def test_a_ue5_physics_control_payload_is_kept_as_bytes() -> None:
    """A UE5 build's PhysicsControl (id 15) has no known layout: its case is the payload in hex."""
    payload = bytes(range(7))
    log = HEADER_BYTES + _frame_start(1, -1.0, 0.0) + _packet(15, payload) + FRAME_END
    case = to_case(decode(log, variant="ue5"), variant="ue5")
    assert case["frames"][0]["packets"] == [{"kind": "PhysicsControl", "payload": "00010203040506"}]
    assert encode(from_case(case), variant="ue5") == log


def test_the_schema_accepts_the_hand_written_cases_and_refuses_what_the_codec_refuses() -> None:
    validator = jsonschema.Draft202012Validator(case_schema())
    assert validator.is_valid(CASE)
    assert validator.is_valid({"header": HEADER, "packets": [{"kind": "FrameEnd"}, {
        "kind": "FrameStart", "frame_id": 3, "duration_this": 0.25, "elapsed": 1.5}]})
    for packet in ({"kind": "Raw", "packet_id": 256, "payload": ""}, {"kind": "Raw", "packet_id": -1, "payload": ""},
                   {"kind": "Raw", "packet_id": 200, "payload": "caf"}, {"kind": "FrameEnd"},
                   {"kind": "PlatformTime", "time": 0.05, "extra": 1}):
        assert not validator.is_valid(_with_packet(packet)), packet
    assert validator.is_valid(_with_packet({"kind": "Raw", "packet_id": 255, "payload": "CAFE"}))
    assert validator.is_valid(_with_packet({"kind": "Raw", "packet_id": 0, "payload": ""}))
    assert validator.is_valid(_with_packet({"kind": "PhysicsControl", "payload": "00"}))
    assert not validator.is_valid({"header": HEADER})  # frames or packets
    assert not validator.is_valid({**CASE, "packets": []})  # not both
