"""The CARLA encoder (reference/carla/_encode.py), held to docs/formats/carla.md with the expected bytes
packed by ``struct``: a WalkerBones record is u32 id, u16 bone count, and per bone its name (u16 length,
bytes), location and rotation (3 x f32, 3 x f64 in UE5 builds; a rotation is written roll, pitch, yaw),
all little-endian; a UE5 PhysicsControl payload, whose layout is not known, is kept as bytes and written
back as it is. Written against the survivors of a fresh sample of tools/mutate.py's mutants of the module
(seed 7)."""

from __future__ import annotations

import struct

import pytest

from recspec.reference.carla import VARIANTS, PacketKind, Rotator, Vec3, WalkerBone, WalkerBones, encode_body


@pytest.mark.parametrize(("variant", "vec"), [("0.9.14", "f"), ("ue5", "d")])
def test_walker_bones_are_written_little_endian(variant: str, vec: str) -> None:
    bones = (WalkerBone("crl_root", Vec3(1.0, 2.0, 3.0), Rotator(roll=4.0, pitch=5.0, yaw=6.0)),
             WalkerBone("crl_hips__C", Vec3(-1.5, 0.25, 0.0), Rotator(roll=0.0, pitch=90.0, yaw=-90.0)))
    record = WalkerBones(0x01020304, bones)
    expected = struct.pack("<H", 1) + struct.pack("<IH", 0x01020304, 2)
    expected += struct.pack("<H", 8) + b"crl_root" + struct.pack(f"<6{vec}", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    expected += struct.pack("<H", 11) + b"crl_hips__C" + struct.pack(f"<6{vec}", -1.5, 0.25, 0.0, 0.0, 90.0, -90.0)
    assert encode_body(PacketKind.WALKER_BONES, (record,), VARIANTS[variant]) == expected


def test_a_ue5_physics_control_payload_is_written_back_as_its_bytes() -> None:
    payload = struct.pack("<H", 1) + bytes(range(40))  # any bytes: only the framing is known
    assert encode_body(PacketKind.PHYSICS_CONTROL, payload, VARIANTS["ue5"]) == payload
    assert encode_body(PacketKind.RAW, b"\x00\x01", VARIANTS["ue5"]) == b"\x00\x01"
