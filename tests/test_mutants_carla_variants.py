"""The CARLA variant table (reference/carla/_variants.py) and the packet kinds (reference/carla/_model.py)
held to the research notes (shared/formats/carla_recorder.md), written out here from them: the packet-id
table (section 4), the vector width (sections 1 and 8), the PhysicsControl wheel record (section 7:
36 bytes up to 0.9.11, 48 from 0.9.12; UE5's layout is kept as bytes), the actor type, attribute type and
traffic light state enumerations (section 6; docs/formats/carla.md's variant table says the same, and
that 0.9.6-0.9.9 admits 0.9.9's TrafficSign in the whole group), and the Kaitai spec's ``variant`` and
``packet_kind`` enums (ksy/carla_recorder.ksy), whose codes the variants and kinds must carry. Written against
the mutants tools/mutate.py makes of the two modules (a table entry one off)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from recspec.reference.carla import VARIANTS, PacketKind, variant_by_code, variant_by_name

KSY = Path(__file__).resolve().parents[1] / "ksy" / "carla_recorder.ksy"

#: Section 4, ids 0 to 20, as the notes name them (the same in every numbering that has them).
NAMES_0_20 = ("FrameStart", "FrameEnd", "EventAdd", "EventDel", "EventParent", "Collision", "Position", "State",
              "AnimVehicle", "AnimWalker", "VehicleLight", "SceneLight", "Kinematics", "BoundingBox",
              "PlatformTime", "PhysicsControl", "TrafficLightTime", "TriggerVolume", "FrameCounter",
              "WalkerBones", "VisualTime")
_UP_TO = {n: dict(enumerate(NAMES_0_20[:n + 1])) for n in (7, 9, 17, 20)}
#: Section 4's columns: on-disk id -> packet, per variant.
ID_TABLE = {
    "0.9.4-0.9.5": _UP_TO[7],
    "0.9.6-0.9.9": _UP_TO[9],
    "0.9.10-0.9.11": _UP_TO[17],
    "0.9.12-0.9.13": _UP_TO[17],
    "0.9.14": _UP_TO[20],
    "0.9.15": {**_UP_TO[20], 21: "AnimVehicleWheels", 22: "AnimBiker"},
    "dev-2023": {**_UP_TO[20], 21: "VehicleDoor", 22: "AnimVehicleWheels", 23: "AnimBiker"},
    "0.9.16": {**_UP_TO[20], 21: "AnimVehicleWheels", 22: "AnimBiker", 23: "VehicleDoor"},
    "ue5": {**_UP_TO[20], 21: "VehicleDoor", 22: "AnimVehicleWheels", 23: "AnimBiker"},
}
#: Section 6. Actor types: 0 Other, 1 Vehicle, 2 Walker, 3 TrafficLight, then 4 INVALID (0.9.4 to 0.9.8),
#: 4 TrafficSign and 5 INVALID (0.9.9 to 0.9.11), 4 TrafficSign, 5 Sensor and 6 INVALID (0.9.12 on); the
#: count includes INVALID. 0.9.6-0.9.9 admits 0.9.9's TrafficSign (its logs cannot be told from 0.9.6's).
ACTOR_TYPES = {"0.9.4-0.9.5": 5, "0.9.6-0.9.9": 6, "0.9.10-0.9.11": 6, "0.9.12-0.9.13": 7, "0.9.14": 7,
               "0.9.15": 7, "dev-2023": 7, "0.9.16": 7, "ue5": 7}
#: Traffic light states: 0 Red, 1 Yellow, 2 Green, and 3 Off from 0.9.10 on.
TRAFFIC_LIGHT_STATES = {"0.9.4-0.9.5": 3, "0.9.6-0.9.9": 3, "0.9.10-0.9.11": 4, "0.9.12-0.9.13": 4,
                        "0.9.14": 4, "0.9.15": 4, "dev-2023": 4, "0.9.16": 4, "ue5": 4}
#: Attribute types: Bool 0 .. RGBColor 4 in the releases to 0.9.15; Bool 1 .. RGBColor 5 in the ue4-dev
#: numbering (dev-2023, 0.9.16); ue5-dev Bool 0 .. RGBColor 4 and Vector 5.
ATTRIBUTE_TYPES = {"0.9.4-0.9.5": (0, 1, 2, 3, 4), "0.9.6-0.9.9": (0, 1, 2, 3, 4), "0.9.10-0.9.11": (0, 1, 2, 3, 4),
                   "0.9.12-0.9.13": (0, 1, 2, 3, 4), "0.9.14": (0, 1, 2, 3, 4), "0.9.15": (0, 1, 2, 3, 4),
                   "dev-2023": (1, 2, 3, 4, 5), "0.9.16": (1, 2, 3, 4, 5), "ue5": (0, 1, 2, 3, 4, 5)}
#: PhysicsControl's wheel record: none before 0.9.10 (no PhysicsControl), 36 bytes in 0.9.10-0.9.11,
#: 48 from 0.9.12, kept as bytes in UE5 builds (None).
WHEEL_PHYSICS = {"0.9.4-0.9.5": None, "0.9.6-0.9.9": None, "0.9.10-0.9.11": 36, "0.9.12-0.9.13": 48,
                 "0.9.14": 48, "0.9.15": 48, "dev-2023": 48, "0.9.16": 48, "ue5": None}
#: The ksy ``variant`` enum's ids, by variant.
KSY_VARIANT_IDS = {"0.9.4-0.9.5": "v0_9_4", "0.9.6-0.9.9": "v0_9_6", "0.9.10-0.9.11": "v0_9_10",
                   "0.9.12-0.9.13": "v0_9_12", "0.9.14": "v0_9_14", "0.9.15": "v0_9_15", "dev-2023": "dev_2023",
                   "0.9.16": "v0_9_16", "ue5": "ue5"}


def _ksy_enum(name: str) -> dict[str, int]:
    enum = yaml.safe_load(KSY.read_text(encoding="utf-8"))["enums"][name]
    return {(v["id"] if isinstance(v, dict) else v): int(k) for k, v in enum.items()}


def test_the_table_has_the_nine_variants() -> None:
    assert list(VARIANTS) == list(ID_TABLE)


@pytest.mark.parametrize("name", list(ID_TABLE))
def test_each_on_disk_id_means_the_packet_of_the_notes_id_table(name: str) -> None:
    v = variant_by_name(name)
    assert v.name == name
    assert {i: k.label for i, k in v.ids.items()} == ID_TABLE[name]
    assert {k.label: i for k, i in v.id_of.items()} == {label: i for i, label in ID_TABLE[name].items()}


@pytest.mark.parametrize("name", list(ID_TABLE))
def test_each_variant_has_the_notes_vectors_wheels_and_enumerations(name: str) -> None:
    v = VARIANTS[name]
    assert v.vec_f64 is (name == "ue5")  # section 8: only UE5 builds write 3 x f64
    assert v.vec_size == (24 if name == "ue5" else 12)
    assert v.wheel_physics_size == WHEEL_PHYSICS[name]
    assert v.actor_types == ACTOR_TYPES[name]
    assert v.traffic_light_states == TRAFFIC_LIGHT_STATES[name]
    assert v.attribute_types == ATTRIBUTE_TYPES[name]


def test_each_variant_code_is_the_ksy_enum_value() -> None:
    codes = _ksy_enum("variant")
    for name, ksy_id in KSY_VARIANT_IDS.items():
        assert VARIANTS[name].code == codes[ksy_id], name
        assert variant_by_code(codes[ksy_id]) is VARIANTS[name]


def test_packet_kinds_are_the_0_9_16_ids_and_the_ksy_enum() -> None:
    """A kind's value is its id in the 0.9.16 numbering (section 4's last column), and the ksy
    ``packet_kind`` enum has the same values, with ``raw`` (an id the variant does not define) at 0xff."""
    assert {k.value: k.label for k in PacketKind if k is not PacketKind.RAW} == ID_TABLE["0.9.16"]
    ksy = _ksy_enum("packet_kind")
    assert ksy["raw"] == 0xFF == PacketKind.RAW.value
    assert {k.name.lower(): k.value for k in PacketKind} == ksy
    assert PacketKind.RAW.label == "Raw"
