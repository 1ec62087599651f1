"""CARLA payload shapes (reference/carla/_scan.py), held to the smallest record of each variable-record
layout in docs/formats/carla.md, every inner count and string length 0: EventAdd u32 id, u8 type, two
vectors (3 x f32 = 12 bytes, 3 x f64 = 24 in UE5 builds), u32 description uid, u16 description length,
u16 attribute count (37 or 61 bytes); PhysicsControl u32 id, 5 x f32, a bool, 4 x f32, the centre of
mass (3 x f32 in every build), four u32 counts (69 bytes); WalkerBones u32 id, u16 bone count (6);
AnimVehicleWheels u32 id, u32 wheel count (8). A payload of n records (u16 n first) of at least
2 + n x that size fits; one byte less is reported with the size the layout implies. Written against
the survivors of a fresh sample of tools/mutate.py's mutants of the module (seed 7)."""

from __future__ import annotations

import struct

import pytest

from recspec.reference.carla import VARIANTS, PacketKind, Variant
from recspec.reference.carla._scan import layout_misfit, physics_control_ids, record_chain_misfit, walker_bones_scan

F32, F64 = VARIANTS["0.9.15"], VARIANTS["ue5"]
SMALLEST = [
    (PacketKind.EVENT_ADD, F32, 4 + 1 + 12 + 12 + 4 + 2 + 2),
    (PacketKind.EVENT_ADD, F64, 4 + 1 + 24 + 24 + 4 + 2 + 2),
    (PacketKind.PHYSICS_CONTROL, F32, 4 + 5 * 4 + 1 + 4 * 4 + 3 * 4 + 4 * 4),
    (PacketKind.WALKER_BONES, F32, 4 + 2),
    (PacketKind.WALKER_BONES, F64, 4 + 2),
    (PacketKind.ANIM_VEHICLE_WHEELS, F32, 4 + 4),
    (PacketKind.ANIM_VEHICLE_WHEELS, F64, 4 + 4),
]


@pytest.mark.parametrize(("kind", "variant", "smallest"), SMALLEST)
@pytest.mark.parametrize("count", [1, 2])
def test_the_smallest_records_fit_and_one_byte_less_does_not(kind: PacketKind, variant: Variant, smallest: int,
                                                           count: int) -> None:
    assert smallest in (37, 61, 69, 6, 8)
    whole = struct.pack("<H", count) + bytes(count * smallest)
    assert layout_misfit(kind, whole, variant) is None
    assert layout_misfit(kind, whole + b"\x00", variant) is None  # at least: longer fits
    assert layout_misfit(kind, whole[:-1], variant) == f"at least {2 + count * smallest}"


def _string(text: bytes) -> bytes:
    return struct.pack("<H", len(text)) + text


def _bones(vec: str) -> bytes:
    """One WalkerBones record: u32 id, u16 bone count, each bone a name, a location and a rotation."""
    bone = [_string(name) + struct.pack(f"<6{vec}", 1, 2, 3, 4, 5, 6) for name in (b"crl_root", b"crl_hips__C")]
    return struct.pack("<IH", 7, len(bone)) + b"".join(bone)


def _wheels() -> bytes:
    """One AnimVehicleWheels record: u32 id, u32 wheel count, each wheel a u8 location and two f32."""
    return struct.pack("<II", 7, 3) + struct.pack("<Bff", 0, 1.0, 2.0) * 3


def _physics(wheel: int) -> bytes:
    """One PhysicsControl record: the 41-byte head, the centre of mass, two torque points, one gear, one
    steering point and two wheels of ``wheel`` bytes."""
    out = struct.pack("<I5fB4f", 7, 1, 2, 3, 4, 5, 1, 6, 7, 8, 9) + struct.pack("<3f", 0, 0, 0)
    out += struct.pack("<I4f", 2, 0, 1, 2, 3) + struct.pack("<I3f", 1, 1, 2, 3) + struct.pack("<I2f", 1, 4, 5)
    return out + struct.pack("<I", 2) + bytes(2 * wheel)


CHAINS = [
    (PacketKind.WALKER_BONES, F32, _bones("f")),
    (PacketKind.WALKER_BONES, F64, _bones("d")),
    (PacketKind.ANIM_VEHICLE_WHEELS, F32, _wheels()),
    (PacketKind.PHYSICS_CONTROL, VARIANTS["0.9.10-0.9.11"], _physics(36)),
    (PacketKind.PHYSICS_CONTROL, VARIANTS["0.9.12-0.9.13"], _physics(48)),
]


@pytest.mark.parametrize(("kind", "variant", "record"), CHAINS)
@pytest.mark.parametrize("count", [1, 2])
def test_records_laid_out_by_the_document_add_up_and_one_byte_off_does_not(
        kind: PacketKind, variant: Variant, record: bytes, count: int) -> None:
    whole = struct.pack("<H", count) + record * count
    assert record_chain_misfit(kind, whole, variant) is None
    assert record_chain_misfit(kind, whole + b"\x00", variant) is not None
    assert record_chain_misfit(kind, whole[:-1], variant) is not None


@pytest.mark.parametrize("kind", [PacketKind.EVENT_ADD, PacketKind.POSITION, PacketKind.WALKER_BONES])
def test_a_payload_of_one_byte_cannot_hold_its_u16_count(kind: PacketKind) -> None:
    assert layout_misfit(kind, b"\x00", F32) == "at least 2"
    if kind is not PacketKind.POSITION:  # a fixed layout: only layout_misfit judges it
        assert record_chain_misfit(kind, b"\x00", F32) is not None


@pytest.mark.parametrize(("vec", "f64"), [("f", False), ("d", True)])
@pytest.mark.parametrize("count", [1, 2])
def test_walker_bones_are_scanned_by_the_documents_layout(vec: str, f64: bool, count: int) -> None:
    # a bone: its name, then a location and a rotation (3 x f32 each, 3 x f64 in UE5 builds)
    payload = struct.pack("<H", count) + _bones(vec) * count
    assert walker_bones_scan(payload, f64) == ([7] * count, [b"crl_root", b"crl_hips__C"] * count)
    assert walker_bones_scan(payload + b"\x00", f64) is None
    assert walker_bones_scan(payload[:-1], f64) is None


@pytest.mark.parametrize("wheel", [36, 48])
def test_physics_control_ids_by_the_documents_layout(wheel: int) -> None:
    payload = struct.pack("<H", 2) + _physics(wheel) * 2
    assert physics_control_ids(payload, wheel) == [7, 7]
    assert physics_control_ids(payload[:-1], wheel) is None
