"""Reference encoder for CARLA recorder logs: writes what CARLA writes.

* sizes: every payload size is computed from what was written (CARLA computes
  ``2 + N * sizeof(record)`` or back-patches; both give the same number);
* :class:`RecorderWriter` reproduces ``ACarlaRecorder``'s frame timing: each
  FrameStart is written with ``durationThis = -1.0`` and the previous frame's
  ``durationThis`` is back-patched with the new tick's delta, so
  ``elapsed[n+1] == elapsed[n] + durationThis[n]`` holds bit for bit and the
  last frame keeps ``-1.0``.

Canonical form: a decoded canonical log re-encodes to the same bytes; strings
decoded with ``surrogateescape`` re-encode to their original bytes.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import BinaryIO, cast

from recspec.errors import EncodeError

from . import _model as m
from ._decode import _FIXED_RECORDS, _NO_COUNT, record_struct
from ._model import PacketKind as K
from ._variants import Variant

__all__ = ["RecorderWriter", "encode", "encode_body", "encode_header", "encode_packet"]

_PACK_U16 = struct.Struct("<H").pack
_PACK_U32 = struct.Struct("<I").pack
_PACK_U8 = struct.Struct("<B").pack
_PACK_PACKET_HEADER = struct.Struct("<BI").pack
_PACK_F64 = struct.Struct("<d").pack


def encode_string(text: str) -> bytes:
    raw = text.encode("utf-8", "surrogateescape")
    if len(raw) > 0xFFFF:
        raise EncodeError(f"string of {len(raw)} bytes does not fit a u16 length")
    return _PACK_U16(len(raw)) + raw


def encode_header(h: m.Header) -> bytes:
    return struct.pack("<H", h.version) + encode_string(h.magic) + struct.pack("<q", h.date) + encode_string(h.map_name)


def _flat(kind: K, r: m.Record) -> tuple[object, ...]:
    """The flat tuple of a fixed-size record, in struct order (inverse of the builders).

    ``kind`` names the record's class (the decoder builds each kind's records with
    one class), hence the casts."""
    if kind is K.POSITION:
        pos = cast(m.Position, r)
        return (pos.database_id, *_xyz(pos.location), *_xyz(pos.rotation))
    if kind is K.KINEMATICS:
        kin = cast(m.Kinematics, r)
        return (kin.database_id, *_xyz(kin.linear_velocity), *_xyz(kin.angular_velocity))
    if kind in (K.BOUNDING_BOX, K.TRIGGER_VOLUME):
        box = cast("m.BoundingBox | m.TriggerVolume", r)
        return (box.database_id, *_xyz(box.origin), *_xyz(box.extent))
    if kind is K.SCENE_LIGHT:
        light = cast(m.SceneLight, r)
        c = light.color
        return (light.light_id, light.intensity, c.r, c.g, c.b, c.a, light.is_on, light.light_group)
    return tuple(getattr(r, name) for name in r.__slots__)


def _xyz(v: m.Vec3 | m.Rotator) -> tuple[float, float, float]:
    if isinstance(v, m.Rotator):
        return (v.roll, v.pitch, v.yaw)
    return (v.x, v.y, v.z)


def _vec(v: m.Vec3 | m.Rotator, fmt: struct.Struct) -> bytes:
    return fmt.pack(*_xyz(v))


_V3F = struct.Struct("<3f")
_V3D = struct.Struct("<3d")


def encode_body(kind: K, body: object, variant: Variant) -> bytes:
    """The payload bytes of one packet (without the 5-byte packet header)."""
    if kind is K.RAW or (kind is K.PHYSICS_CONTROL and isinstance(body, (bytes, bytearray))):
        return bytes(cast(bytes, body))  # RAW bodies are the payload bytes
    entry = _NO_COUNT.get(kind)
    if entry is not None:
        s, _ = entry
        if kind is K.FRAME_END:
            return b""
        fixed = cast(m.Fixed, body)  # a kind without a record count has one fixed value
        return s.pack(*(getattr(fixed, n) for n in fixed.__slots__))
    # every counted kind's body is a tuple of records of the class that its kind names
    records = cast("tuple[m.Record, ...]", body)
    if len(records) > 0xFFFF:
        raise EncodeError(f"{kind.label}: {len(records)} records do not fit the u16 record count")
    out = [_PACK_U16(len(records))]
    if kind in _FIXED_RECORDS:
        s = record_struct(kind, variant.vec_f64)
        out.extend(s.pack(*_flat(kind, r)) for r in records)
        return b"".join(out)
    vec = _V3D if variant.vec_f64 else _V3F
    if kind is K.EVENT_ADD:
        for e in cast("tuple[m.EventAdd, ...]", records):
            out.append(struct.pack("<IB", e.database_id, e.type))
            out.append(_vec(e.location, vec) + _vec(e.rotation, vec))
            out.append(_PACK_U32(e.description_uid) + encode_string(e.description_id))
            out.append(_PACK_U16(len(e.attributes)))
            for a in e.attributes:
                out.append(_PACK_U8(a.type) + encode_string(a.id) + encode_string(a.value))
    elif kind is K.PHYSICS_CONTROL:
        for r in cast("tuple[m.PhysicsControl, ...]", records):
            out.append(struct.pack(
                "<I5fB4f", r.database_id, r.max_rpm, r.moi, r.damping_rate_full_throttle,
                r.damping_rate_zero_throttle_clutch_engaged, r.damping_rate_zero_throttle_clutch_disengaged,
                r.use_gear_autobox, r.clutch_strength, r.final_ratio, r.mass, r.drag_coefficient,
            ))
            out.append(_vec(r.center_of_mass, _V3F))  # physics vectors stay f32
            out.append(_PACK_U32(len(r.torque_curve)))
            out.extend(struct.pack("<2f", p.x, p.y) for p in r.torque_curve)
            out.append(_PACK_U32(len(r.forward_gears)))
            out.extend(struct.pack("<3f", g.ratio, g.down_ratio, g.up_ratio) for g in r.forward_gears)
            out.append(_PACK_U32(len(r.steering_curve)))
            out.extend(struct.pack("<2f", p.x, p.y) for p in r.steering_curve)
            out.append(_PACK_U32(len(r.wheels)))
            for w in r.wheels:
                head = [w.tire_friction, w.damping_rate, w.max_steer_angle, w.radius,
                        w.max_brake_torque, w.max_handbrake_torque]
                if variant.wheel_physics_size == 48:
                    # ``None`` (a 36-byte record moved to a 48-byte variant) becomes 0.0;
                    # a stored -0.0 keeps its sign.
                    head += [0.0 if x is None else x
                             for x in (w.lat_stiff_max_load, w.lat_stiff_value, w.long_stiff_value)]
                out.append(struct.pack(f"<{len(head)}f", *head) + _vec(w.position, _V3F))
    elif kind is K.WALKER_BONES:
        for wb in cast("tuple[m.WalkerBones, ...]", records):
            out.append(struct.pack("<IH", wb.database_id, len(wb.bones)))
            for b in wb.bones:
                out.append(encode_string(b.name) + _vec(b.location, vec) + _vec(b.rotation, vec))
    elif kind is K.ANIM_VEHICLE_WHEELS:
        for aw in cast("tuple[m.AnimVehicleWheels, ...]", records):
            out.append(struct.pack("<II", aw.database_id, len(aw.wheels)))
            out.extend(struct.pack("<Bff", w.location, w.steering_angle, w.tire_rotation) for w in aw.wheels)
    elif records:  # pragma: no cover
        raise AssertionError(kind)
    return b"".join(out)


def packet_id(p: m.Packet, variant: Variant) -> int:
    if p.packet_id is not None:
        return p.packet_id
    try:
        return variant.id_of[p.kind]
    except KeyError:
        raise EncodeError(f"variant {variant.name} has no {p.kind.label} packet") from None


def encode_packet(p: m.Packet, variant: Variant) -> bytes:
    payload = encode_body(p.kind, p.body, variant)
    return _PACK_PACKET_HEADER(packet_id(p, variant), len(payload)) + payload


def encode(rec: m.Recording, variant: Variant) -> bytes:
    """The whole log as bytes, packets exactly as given (no timing rewrite)."""
    return encode_header(rec.header) + b"".join(encode_packet(p, variant) for p in rec.packets)


class RecorderWriter:
    """Writes a log the way CARLA's recorder does, to a seekable binary file.

    >>> w = RecorderWriter(f, header, variant)
    >>> w.frame(packets, delta=0.05)   # frame 1: elapsed 0.0, delta unused
    >>> w.frame(packets, delta=0.05)   # patches frame 1's durationThis to 0.05
    >>> w.close()                      # the last frame keeps durationThis = -1.0

    ``packets`` are the packets between FrameStart and FrameEnd, in the order to
    write them. Frame ids start at 1.
    """

    def __init__(self, f: BinaryIO, header: m.Header, variant: Variant) -> None:
        self._f = f
        self._variant = variant
        self._frame_id = 0
        self._elapsed = 0.0
        self._last_duration_pos: int | None = None
        self._end_id = variant.id_of[K.FRAME_END]
        self._start_id = variant.id_of[K.FRAME_START]
        f.write(encode_header(header))

    def frame(self, packets: Iterable[m.Packet], delta: float = 0.0) -> int:
        """Write one frame; returns its frame id."""
        f = self._f
        self._frame_id += 1
        if self._frame_id > 1:
            self._elapsed = self._elapsed + delta
        start = f.tell()
        f.write(_PACK_PACKET_HEADER(self._start_id, 24))
        f.write(struct.pack("<Qdd", self._frame_id, -1.0, self._elapsed))
        if self._last_duration_pos is not None:
            f.seek(self._last_duration_pos)
            f.write(_PACK_F64(delta))
            f.seek(0, 2)
        self._last_duration_pos = start + 5 + 8
        variant = self._variant
        for p in packets:
            f.write(encode_packet(p, variant))
        f.write(_PACK_PACKET_HEADER(self._end_id, 0))
        return self._frame_id

    @property
    def elapsed(self) -> float:
        return self._elapsed

    def close(self) -> None:
        self._f.flush()
