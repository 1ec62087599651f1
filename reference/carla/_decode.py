"""Reference decoder for CARLA recorder logs.

Layers, from the bytes up:

* ``decode_header(buf, offset) -> (Header, offset)``: the info header;
* ``PacketReader``: the packet framing (``u8 id, u32 size, payload``), read
  from a binary file object in constant memory, one packet at a time;
* ``decode_body(kind, payload, variant, offset) -> body``: one payload, by the
  layout of its kind in the chosen variant;
* ``decode(data, variant) -> Recording`` / ``iter_packets(fileobj, variant)``:
  the whole file, in memory or streamed.

Every decoder here takes ``(buf, offset)`` style arguments and raises only
:class:`recspec.errors.DecodeError` subclasses, carrying the byte offset from
the start of the file and a structural path. Strings are decoded with
``surrogateescape``: invalid UTF-8 is kept (and re-encodes to the same bytes)
so that a rule can report it, instead of the decoder stopping.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import compress, count, repeat, starmap
from operator import add, gt, is_, itemgetter
from typing import Any, BinaryIO

from recspec._memo import BoundedMemo
from recspec.errors import LimitExceeded, Malformed, Truncated

from . import _model as m
from ._model import PacketKind as K
from ._variants import VARIANTS, Variant

__all__ = [
    "MAX_PACKET_SIZE",
    "PacketReader",
    "RawPacket",
    "count_repeats",
    "decode",
    "decode_body",
    "decode_header",
    "frame_packets",
    "is_fixed_record",
    "iter_packets",
    "read_header",
    "record_struct",
    "unpack_flat",
]

#: Packets larger than this are not read (``CARLA-LIMIT-001``). A packet's payload is
#: read whole; decoded whole, an EventAdd of distinct 7-byte attributes takes about 25
#: bytes of memory per payload byte (120 MiB for 4 MiB); the checker's ``scan_event_add``
#: keeps two offsets an attribute in arrays, about 2 bytes per payload byte.
#: The largest packet a real CARLA writes is frame 1's EventAdd (about 300 bytes an
#: actor: 9.4 KB in the real logs here, about 1 MiB for thousands of actors); a u32
#: size field allows 4 GiB.
MAX_PACKET_SIZE = 4 * 1024 * 1024

_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_PACKET_HEADER = struct.Struct("<BI")
_UNPACK_U16_FROM = _U16.unpack_from
_UNPACK_U32_FROM = _U32.unpack_from
_UNPACK_U8_FROM = struct.Struct("<B").unpack_from
_UNPACK_S64_FROM = struct.Struct("<q").unpack_from
_UNPACK_ATTR_HEAD = struct.Struct("<BH").unpack_from  # an attribute's type and its id's length
#: Bytes compared at a time by ``PacketReader.skip_repeats``.
_REPEAT_BLOCK = 1 << 16
#: ``PacketReader`` reads the file this many bytes at a time (a larger packet: whole).
READ_BLOCK = 1 << 18

MAGIC = "CARLA_RECORDER"


def _need(buf: bytes | memoryview, offset: int, n: int, base: int, path: str) -> None:
    if offset + n > len(buf):
        raise Truncated(
            f"needs {n} bytes, {len(buf) - offset} left", base + offset, path,
            rule="CARLA-STREAM-001", needed=n, available=len(buf) - offset,
        )


def decode_string(buf: bytes | memoryview, offset: int, base: int = 0, path: str = "") -> tuple[str, int]:
    """A CARLA string: u16 byte length, then that many UTF-8 bytes, no terminator."""
    _need(buf, offset, 2, base, path + ".len")
    (n,) = _UNPACK_U16_FROM(buf, offset)
    offset += 2
    _need(buf, offset, n, base, path)
    text = bytes(buf[offset:offset + n]).decode("utf-8", "surrogateescape")
    return text, offset + n


#: ``decode_header``'s answers by the header's bytes, kept across logs for headers of at most
#: ``_HEADERS_BYTES_MAX`` bytes (a CARLA map name is a few dozen), up to ``_HEADERS_MAX`` answers (then forgotten all
#: at once: at most 64 KiB of keys): a header depends on its bytes alone and is frozen, so one object serves every
#: log; the checker and the decoder each read the header of every log, and a fuzzer's mutants keep their parent's.
_HEADERS_BYTES_MAX = 256
_HEADERS_MAX = 256
_HEADERS: BoundedMemo[bytes, m.Header] = BoundedMemo(_HEADERS_MAX)


def decode_header(buf: bytes | memoryview, offset: int = 0) -> tuple[m.Header, int]:
    """The info header: u16 version, string magic, i64 date, string map name."""
    try:  # where it ends, from its two string lengths (a header cut short: the long way says where)
        (n,) = _UNPACK_U16_FROM(buf, offset + 2)
        end = offset + 4 + n + 8
        end += 2 + _UNPACK_U16_FROM(buf, end)[0]
    except struct.error:
        return _decode_header(buf, offset)
    if end > len(buf) or end - offset > _HEADERS_BYTES_MAX:
        return _decode_header(buf, offset)
    key = bytes(buf[offset:end])
    header = _HEADERS.get(key)
    if header is None:
        header = _HEADERS.keep(key, _decode_header(buf, offset)[0])
    return header, end


def _decode_header(buf: bytes | memoryview, offset: int) -> tuple[m.Header, int]:
    """``decode_header`` field by field."""
    _need(buf, offset, 2, 0, "header.version")
    (version,) = _UNPACK_U16_FROM(buf, offset)
    magic, offset = decode_string(buf, offset + 2, 0, "header.magic")
    _need(buf, offset, 8, 0, "header.date")
    (date,) = _UNPACK_S64_FROM(buf, offset)
    map_name, offset = decode_string(buf, offset + 8, 0, "header.map_name")
    return m.Header(version, magic, date, map_name), offset


#: The largest possible header: two strings of at most 65535 bytes each.
MAX_HEADER_SIZE = 2 + 2 + 0xFFFF + 8 + 2 + 0xFFFF


def read_header(f: BinaryIO) -> tuple[m.Header, int]:
    """Read the header from a seekable file object at its start; leave ``f`` just after it."""
    head = f.read(MAX_HEADER_SIZE)
    header, end = decode_header(head, 0)
    f.seek(end)
    return header, end


# --- payload layouts ----------------------------------------------------------
#
# Fixed-size records: (struct format with "V" for one FVector, builder from the
# flat tuple). "V" is 3f in UE4 builds and 3d in UE5 builds (research notes,
# sections 5 and 8). Records are packed (``#pragma pack(1)``), so "<" formats.

_FIXED_RECORDS: dict[K, tuple[str, Callable[[tuple[Any, ...]], m.Record]]] = {
    K.EVENT_DEL: ("I", lambda t: m.EventDel(*t)),
    K.EVENT_PARENT: ("II", lambda t: m.EventParent(*t)),
    K.COLLISION: ("IIIBB", lambda t: m.Collision(*t)),
    K.POSITION: ("IVV", lambda t: m.Position(t[0], m.Vec3(*t[1:4]), m.Rotator(*t[4:7]))),
    K.STATE: ("IBfB", lambda t: m.TrafficLightState(*t)),
    K.ANIM_VEHICLE: ("IfffBi", lambda t: m.AnimVehicle(*t)),
    K.ANIM_WALKER: ("If", lambda t: m.AnimWalker(*t)),
    K.VEHICLE_LIGHT: ("II", lambda t: m.VehicleLight(*t)),
    K.SCENE_LIGHT: ("ifffffBB", lambda t: m.SceneLight(t[0], t[1], m.Color(*t[2:6]), t[6], t[7])),
    K.KINEMATICS: ("IVV", lambda t: m.Kinematics(t[0], m.Vec3(*t[1:4]), m.Vec3(*t[4:7]))),
    K.BOUNDING_BOX: ("IVV", lambda t: m.BoundingBox(t[0], m.Vec3(*t[1:4]), m.Vec3(*t[4:7]))),
    K.TRAFFIC_LIGHT_TIME: ("Ifff", lambda t: m.TrafficLightTime(*t)),
    K.TRIGGER_VOLUME: ("IVV", lambda t: m.TriggerVolume(t[0], m.Vec3(*t[1:4]), m.Vec3(*t[4:7]))),
    K.ANIM_BIKER: ("Iff", lambda t: m.AnimBiker(*t)),
    K.VEHICLE_DOOR: ("IBB", lambda t: m.VehicleDoor(*t)),
}
#: The record classes built from their flat tuples as they are (``starmap``: no Python call a record).
_FLAT_CLASSES: dict[K, Callable[..., m.Record]] = {
    K.EVENT_DEL: m.EventDel, K.EVENT_PARENT: m.EventParent, K.COLLISION: m.Collision, K.STATE: m.TrafficLightState,
    K.ANIM_VEHICLE: m.AnimVehicle, K.ANIM_WALKER: m.AnimWalker, K.VEHICLE_LIGHT: m.VehicleLight,
    K.TRAFFIC_LIGHT_TIME: m.TrafficLightTime, K.ANIM_BIKER: m.AnimBiker, K.VEHICLE_DOOR: m.VehicleDoor,
}
_BUILDERS: dict[K, Callable[[list[tuple[Any, ...]]], Iterator[m.Record]]] = {
    kind: (partial(starmap, _FLAT_CLASSES[kind]) if kind in _FLAT_CLASSES else partial(map, build))
    for kind, (_, build) in _FIXED_RECORDS.items()
}

#: The payload of a fixed-record packet without records: a u16 count of 0.
_NO_RECORDS = b"\x00\x00"

# Packets without a record count: (exact payload size, struct, builder).
_NO_COUNT: dict[K, tuple[struct.Struct, Callable[[tuple[Any, ...]], m.Fixed]]] = {
    K.FRAME_START: (struct.Struct("<Qdd"), lambda t: m.FrameStart(*t)),
    K.FRAME_END: (struct.Struct("<"), lambda t: m.FrameEnd()),
    K.PLATFORM_TIME: (struct.Struct("<d"), lambda t: m.PlatformTime(*t)),
    K.VISUAL_TIME: (struct.Struct("<d"), lambda t: m.VisualTime(*t)),
    K.FRAME_COUNTER: (struct.Struct("<Q"), lambda t: m.FrameCounter(*t)),
}

#: The precompiled struct of each fixed-size record kind in each vector width, by (kind, f64 vectors).
_RECORD_STRUCTS: dict[tuple[K, bool], struct.Struct] = {
    (kind, vec_f64): struct.Struct("<" + fmt.replace("V", "3d" if vec_f64 else "3f"))
    for kind, (fmt, _) in _FIXED_RECORDS.items() for vec_f64 in (False, True)
}


def record_struct(kind: K, vec_f64: bool) -> struct.Struct:
    """The precompiled struct of a fixed-size record kind in one vector width."""
    return _RECORD_STRUCTS[kind, vec_f64]


def is_fixed_record(kind: K) -> bool:
    return kind in _FIXED_RECORDS


def _size_error(kind: K, size: int, expected: int | str, offset: int, path: str) -> Malformed:
    err = Malformed(
        f"{kind.label} payload is {size} bytes, its layout implies {expected}",
        offset, path, rule="CARLA-PACKET-001",
    )
    err.expected = expected  # type: ignore[attr-defined]
    err.actual = size  # type: ignore[attr-defined]
    return err


def unpack_flat(kind: K, payload: bytes | memoryview, variant: Variant, offset: int = 0, path: str = ""
                ) -> list[tuple[Any, ...]]:
    """Fixed-size record kinds only: the records as flat tuples (fast path for rules).

    ``offset`` is the file offset of the payload (for errors). Raises
    :class:`Malformed` when the size is not ``2 + count * record_size``.
    """
    s = _RECORD_STRUCTS[kind, variant.vec_f64]
    try:
        (count,) = _UNPACK_U16_FROM(payload, 0)
    except struct.error:  # fewer than 2 bytes
        raise _size_error(kind, len(payload), "at least 2", offset, path) from None
    if len(payload) != 2 + count * s.size:
        raise _size_error(kind, len(payload), 2 + count * s.size, offset, path)
    return list(s.iter_unpack(payload[2:]))  # no record: an empty list


class _Cursor:
    """Reads fields from one payload, raising located errors. Used by the
    variable-size layouts, which are rare compared with the fixed ones."""

    __slots__ = ("buf", "pos", "base", "path", "kind")

    def __init__(self, buf: bytes | memoryview, base: int, path: str, kind: K) -> None:
        self.buf = buf
        self.pos = 0
        self.base = base
        self.path = path
        self.kind = kind

    def take(self, s: struct.Struct, what: str, index: int | None = None) -> tuple[Any, ...]:
        """The fields of ``s`` at the cursor. ``what`` names them in an error; with ``index``, ``what`` is a
        template of it (``"wheels[{}]"``), filled only for an error (a record of many items pays no text)."""
        try:
            t = s.unpack_from(self.buf, self.pos)
        except struct.error:  # fewer than ``s.size`` bytes left
            if index is not None:
                what = what.format(index)
            raise Malformed(
                f"{self.kind.label} payload ends inside {what} (needs {s.size} bytes, {len(self.buf) - self.pos} left)",
                self.base + self.pos, f"{self.path}.{what}", rule="CARLA-PACKET-001",
            ) from None
        self.pos += s.size
        return t

    def string(self, what: str, index: int | None = None) -> str:
        """A u16-length string at the cursor; ``what`` and ``index`` as :meth:`take` takes them."""
        if self.pos + 2 > len(self.buf):
            self.take(_U16, what, index)
        (n,) = _UNPACK_U16_FROM(self.buf, self.pos)
        if self.pos + 2 + n > len(self.buf):
            if index is not None:
                what = what.format(index)
            raise Malformed(
                f"{self.kind.label} payload ends inside string {what} "
                f"({n} bytes declared, {len(self.buf) - self.pos - 2} left)",
                self.base + self.pos, f"{self.path}.{what}", rule="CARLA-PACKET-001",
            )
        start = self.pos + 2
        self.pos = start + n
        return bytes(self.buf[start:self.pos]).decode("utf-8", "surrogateescape")

    def done(self) -> None:
        if self.pos != len(self.buf):
            raise _size_error(self.kind, len(self.buf), self.pos, self.base, self.path)


_S_U16 = struct.Struct("<H")
_S_U32 = struct.Struct("<I")
_S_U8 = struct.Struct("<B")
_S_ID_TYPE = struct.Struct("<IB")
_S_V3F = struct.Struct("<3f")
_S_V3D = struct.Struct("<3d")
_S_PHYS_HEAD = struct.Struct("<I5fB4f")
_S_F2 = struct.Struct("<2f")
_S_F3 = struct.Struct("<3f")
_S_WHEEL36 = struct.Struct("<6f3f")
_S_WHEEL48 = struct.Struct("<9f3f")
_S_WHEEL_ANIM = struct.Struct("<Bff")
_S_ID_U16 = struct.Struct("<IH")
_S_ID_U32 = struct.Struct("<II")
# what the structs above unpack to, for the calls that spread them into a record's fields
_PhysHead = tuple[int, float, float, float, float, float, int, float, float, float, float]
_Wheel36 = tuple[float, float, float, float, float, float, float, float, float]
_Wheel48 = tuple[float, float, float, float, float, float, float, float, float, float, float, float]


#: An EventAdd record's fixed head (id, type, location, rotation, description uid), by vector struct.
_EVENT_ADD_HEAD = {vec: struct.Struct("<IB" + vec.format.lstrip("<") * 2 + "I") for vec in (_S_V3F, _S_V3D)}


def _event_add(c: _Cursor, vec: struct.Struct) -> m.EventAdd:
    head = _EVENT_ADD_HEAD[vec]
    try:
        t = head.unpack_from(c.buf, c.pos)  # the fixed head at once
    except struct.error:  # short: field by field, which says where (one of them raises)
        database_id, type_ = c.take(_S_ID_TYPE, "database_id")
        loc = m.Vec3(*c.take(vec, "location"))
        rot = m.Rotator(*c.take(vec, "rotation"))
        (uid,) = c.take(_S_U32, "description_uid")
    else:
        c.pos += head.size
        database_id, type_, loc, rot, uid = t[0], t[1], m.Vec3(*t[2:5]), m.Rotator(*t[5:8]), t[8]
    desc = c.string("description_id")
    (n,) = c.take(_S_U16, "num_attributes")
    return m.EventAdd(database_id, type_, loc, rot, uid, desc, _attributes(c, n))


def _attributes(c: _Cursor, n: int) -> tuple[m.ActorAttribute, ...]:
    """``n`` actor attributes (u8 type, two strings). A run of attributes repeating one
    byte for byte is one (frozen) object repeated, found a block at a time, so a flood
    of one attribute costs neither Python work nor memory per copy."""
    buf, pos, end = c.buf, c.pos, len(c.buf)
    out: list[m.ActorAttribute] = []
    while len(out) < n:
        if pos + 3 > end:
            break
        atype, id_len = _UNPACK_ATTR_HEAD(buf, pos)
        at_value = pos + 3 + id_len
        if at_value + 2 > end:
            break
        (value_len,) = _UNPACK_U16_FROM(buf, at_value)
        stop = at_value + 2 + value_len
        if stop > end:
            break
        a = m.ActorAttribute(atype, bytes(buf[pos + 3:at_value]).decode("utf-8", "surrogateescape"),
                             bytes(buf[at_value + 2:stop]).decode("utf-8", "surrogateescape"))
        unit = bytes(buf[pos:stop])
        if buf[stop:stop + len(unit)] == unit:  # a run: count it a block at a time
            copies = 1 + count_repeats(buf, stop, unit, n - len(out) - 1)
            out.extend([a] * copies)
            pos = stop + len(unit) * (copies - 1)
        else:
            out.append(a)
            pos = stop
    c.pos = pos
    for i in range(len(out), n):  # the payload ends inside attribute i: the field-by-field reading says where
        (atype,) = c.take(_S_U8, f"attributes[{i}].type")
        aid = c.string(f"attributes[{i}].id")
        aval = c.string(f"attributes[{i}].value")
        out.append(m.ActorAttribute(atype, aid, aval))  # pragma: no cover - the reading above raises first
    return tuple(out)


def count_repeats(buf: bytes | memoryview, start: int, unit: bytes, most: int) -> int:
    """How many copies of ``unit`` follow one another in ``buf`` from ``start`` (at most
    ``most``), compared a block at a time (C speed)."""
    width = len(unit)
    if not width or most <= 0 or buf[start:start + width] != unit:
        return 0  # no copy at all: the usual case costs one comparison
    per = max(1, _REPEAT_BLOCK // width)
    block = unit * per
    view = memoryview(buf)
    count = 0
    while count < most:
        take = min(per, most - count)
        at = start + count * width
        if view[at:at + take * width] == block[:take * width]:
            count += take
            continue
        lo, hi = 0, take - 1
        while lo < hi:  # the longest prefix of whole copies that matches
            mid = (lo + hi + 1) // 2
            if view[at:at + mid * width] == block[:mid * width]:
                lo = mid
            else:
                hi = mid - 1
        return count + lo
    return count


def _physics_control(c: _Cursor, wheel_size: int) -> m.PhysicsControl:
    h: _PhysHead = c.take(_S_PHYS_HEAD, "database_id")
    com = m.Vec3(*c.take(_S_V3F, "center_of_mass"))
    (n,) = c.take(_S_U32, "num_torque_curve")
    torque = tuple(m.CurvePoint(*c.take(_S_F2, "torque_curve[{}]", i)) for i in range(n))
    (n,) = c.take(_S_U32, "num_forward_gears")
    gears = tuple(m.GearPhysics(*c.take(_S_F3, "forward_gears[{}]", i)) for i in range(n))
    (n,) = c.take(_S_U32, "num_steering_curve")
    steering = tuple(m.CurvePoint(*c.take(_S_F2, "steering_curve[{}]", i)) for i in range(n))
    (n,) = c.take(_S_U32, "num_wheels")
    wheels = []
    for i in range(n):
        if wheel_size == 36:
            t36: _Wheel36 = c.take(_S_WHEEL36, "wheels[{}]", i)
            wheels.append(m.WheelPhysics(*t36[:6], None, None, None, m.Vec3(*t36[6:9])))
        else:
            t48: _Wheel48 = c.take(_S_WHEEL48, "wheels[{}]", i)
            wheels.append(m.WheelPhysics(*t48[:9], m.Vec3(*t48[9:12])))
    return m.PhysicsControl(*h[:11], com, torque, gears, steering, tuple(wheels))


def _walker_bones(c: _Cursor, vec: struct.Struct) -> m.WalkerBones:
    database_id, n = c.take(_S_ID_U16, "database_id")
    bones = []
    for i in range(n):
        name = c.string("bones[{}].name", i)
        loc = m.Vec3(*c.take(vec, "bones[{}].location", i))
        rot = m.Rotator(*c.take(vec, "bones[{}].rotation", i))
        bones.append(m.WalkerBone(name, loc, rot))
    return m.WalkerBones(database_id, tuple(bones))


def _anim_wheels(c: _Cursor, vec: struct.Struct) -> m.AnimVehicleWheels:
    database_id, n = c.take(_S_ID_U32, "database_id")
    if n * _S_WHEEL_ANIM.size > len(c.buf) - c.pos:
        raise Malformed(
            f"AnimVehicleWheels declares {n} wheels, more than the payload holds",
            c.base + c.pos - 4, f"{c.path}.num_wheels", rule="CARLA-PACKET-001",
        )
    wheels = tuple(m.WheelAnim(*c.take(_S_WHEEL_ANIM, "wheels[{}]", i)) for i in range(n))
    return m.AnimVehicleWheels(database_id, wheels)


def decode_body(
    kind: K, payload: bytes | memoryview, variant: Variant, offset: int = 0, path: str = "",
) -> m.Fixed | tuple[m.Record, ...] | bytes:
    """Decode one payload by the layout of ``kind`` in ``variant``.

    ``offset`` is the file offset of the payload's first byte, used in errors.
    Raises :class:`Malformed` (rule ``CARLA-PACKET-001``) when the payload
    size differs from what the layout implies.
    """
    flat_records = _BUILDERS.get(kind)  # the most common layouts first (the tables do not overlap)
    if flat_records is not None:
        if payload == _NO_RECORDS:  # the most common payload of all: a count of 0 and no record
            return ()
        return tuple(flat_records(unpack_flat(kind, payload, variant, offset, path)))
    if kind is K.RAW:
        return bytes(payload)
    entry = _NO_COUNT.get(kind)
    if entry is not None:
        s, build = entry
        if len(payload) != s.size:
            raise _size_error(kind, len(payload), s.size, offset, path)
        return build(s.unpack(payload))
    if kind is K.PHYSICS_CONTROL and variant.wheel_physics_size is None:
        return bytes(payload)  # UE5 layout not known: kept as bytes (research notes, section 7)
    if len(payload) < 2:
        raise _size_error(kind, len(payload), "at least 2", offset, path)
    (count,) = _UNPACK_U16_FROM(payload, 0)
    c = _Cursor(payload, offset, path, kind)
    c.pos = 2
    vec = _S_V3D if variant.vec_f64 else _S_V3F
    records: list[m.Record] = []
    for i in range(count):
        c.path = f"{path}/record[{i}]"
        if kind is K.EVENT_ADD:
            records.append(_event_add(c, vec))
        elif kind is K.PHYSICS_CONTROL:
            records.append(_physics_control(c, variant.wheel_physics_size or 48))
        elif kind is K.WALKER_BONES:
            records.append(_walker_bones(c, vec))
        elif kind is K.ANIM_VEHICLE_WHEELS:
            records.append(_anim_wheels(c, vec))
        else:  # pragma: no cover - every kind is in one of the tables above
            raise AssertionError(kind)
    c.path = path
    c.done()
    return tuple(records)


# --- framing ------------------------------------------------------------------


@dataclass(slots=True)
class RawPacket:
    """One framed packet before its payload is interpreted."""

    offset: int  # file offset of the id byte
    packet_id: int
    kind: K
    payload: bytes

    @property
    def payload_offset(self) -> int:
        return self.offset + 5

    @property
    def end(self) -> int:
        return self.offset + 5 + len(self.payload)


def _read_more(read: Callable[[int], bytes], got: bytes, n: int) -> bytes:
    """Complete a short read: a raw stream or a pipe may return fewer bytes than
    asked for before its end. Only an empty read means end of file."""
    parts = [got] if got else []
    have = len(got)
    while have < n:
        more = read(n - have)
        if not more:
            break
        parts.append(more)
        have += len(more)
    if len(parts) == 1 and type(parts[0]) is bytes:
        return parts[0]  # one part: no copy
    return b"".join(parts)  # bytes whatever the stream returned: payloads are kept by their bytes (hashable)


class PacketReader:
    """Reads packets one at a time from a binary file object, in constant memory.

    ``size`` (the total file size, when known) lets a truncated payload be
    reported without allocating its declared size. Raises :class:`Truncated`
    (rule ``CARLA-STREAM-001``) when the file ends inside a packet and
    :class:`LimitExceeded` (``CARLA-LIMIT-001``) for a packet larger than
    ``max_packet_size``. ``tell()`` is the offset of the next packet.

    The file is read a block (``READ_BLOCK`` bytes) at a time, or a whole
    packet when it is larger, so a packet costs no read call of its own;
    ``window`` lends the block to a caller that reads several packets at once
    (the checker's frame fast path), which then moves on with ``advance``.
    """

    def __init__(
        self, f: BinaryIO, variant: Variant, offset: int, size: int | None = None,
        max_packet_size: int = MAX_PACKET_SIZE,
    ) -> None:
        self._f = f
        self._read = f.read
        self._kinds = variant.ids
        self._pos = offset
        self._size = size
        self._max = max_packet_size
        self._buf = b""  # bytes of the file from offset ``_base`` on, read but not yet walked past
        self._base = offset
        self._eof = False

    def tell(self) -> int:
        return self._pos

    @property
    def max_packet_size(self) -> int:
        return self._max

    @property
    def size(self) -> int | None:
        return self._size

    def window(self, n: int) -> tuple[bytes, int]:
        """``(buffer, index)``: the buffered bytes and the index in it of ``tell()``, with at
        least ``n`` bytes from there on unless the file ends first."""
        buf = self._buf
        i = self._pos - self._base
        have = len(buf) - i
        if have >= n or self._eof:
            return buf, i
        want = max(n, have + READ_BLOCK)  # a refill serves the next READ_BLOCK bytes too
        buf = _read_more(self._read, buf[i:], want)
        self._eof = len(buf) < want  # only an empty read ends a short one
        self._buf, self._base = buf, self._pos
        return buf, 0

    def advance(self, n: int) -> None:
        """Step past ``n`` bytes the caller read from ``window`` (whole packets)."""
        self._pos += n

    def skip_repeats(self, unit: bytes) -> int:
        """Step past the packets right after the last one read that repeat ``unit`` (that
        packet's 5 header bytes and payload) byte for byte; returns how many. The bytes
        are compared a block at a time (C speed), so a flood of one tiny packet costs
        no Python work per packet. Only whole packets within the file count."""
        width = len(unit)
        per = max(1, _REPEAT_BLOCK // width)
        most = (self._size - self._pos) // width if self._size is not None else None  # within the file's size
        count = 0
        while most is None or count < most:
            step = per if most is None else min(per, most - count)
            buf, i = self.window(step * width)
            have = min(step, (len(buf) - i) // width)
            found = count_repeats(buf, i, unit, have)
            count += found
            self._pos += found * width
            if found < step:
                break
        return count

    def __iter__(self) -> Iterator[RawPacket]:
        kinds_get = self._kinds.get
        unpack_header = _PACKET_HEADER.unpack_from
        raw = K.RAW
        size_limit = self._max
        total = self._size
        stop = total if total is not None else 1 << 64  # no packet ends past it
        seen: bytes | None = None  # the buffer ``room`` was worked out for (window() replaces it on a refill)
        base = room = 0
        while True:
            pos = self._pos
            buf = self._buf
            if buf is not seen:
                seen, base = buf, self._base
                # no packet of this buffer ends past it; and none ending by it is above the size limit (only
                # the first ``size_limit + 5`` bytes of a larger buffer are read this way)
                room = min(len(buf), stop - base, size_limit + 5)
            i = pos - base
            try:
                # the common case in one comparison: the header is in the buffer (else struct raises),
                # the packet is whole in it, ends within the file's size and is within the limit
                # (anything else: below, at length)
                packet_id, size = unpack_header(buf, i)
            except struct.error:
                pass
            else:
                end = i + 5 + size
                if end <= room:
                    self._pos = pos + 5 + size
                    yield RawPacket(pos, packet_id, kinds_get(packet_id, raw), buf[i + 5:end])
                    continue
            if len(buf) - i < 5:
                buf, i = self.window(5)
                if len(buf) - i < 5:
                    if len(buf) == i:
                        return
                    raise Truncated(
                        f"file ends inside a packet header ({len(buf) - i} of 5 bytes)", pos, "",
                        rule="CARLA-STREAM-001", needed=5, available=len(buf) - i,
                    )
            packet_id, size = unpack_header(buf, i)
            if total is not None and pos + 5 + size > total:
                left = total - pos - 5
                raise Truncated(
                    # above the limit and the file's end: a damaged size field rather than a file cut short
                    f"damaged length: the packet's size field at offset {pos + 1} declares {size} payload bytes, "
                    f"above the limit of {size_limit} and the {left} bytes left in the file" if size > size_limit
                    else f"file ends inside a packet payload ({left} of {size} bytes)", pos, "",
                    rule="CARLA-STREAM-001", needed=size, available=left,
                )
            if size > size_limit:
                raise LimitExceeded(
                    f"packet declares {size} payload bytes, above the limit of {size_limit}",
                    pos + 1, "", rule="CARLA-LIMIT-001", limit="max_packet_size", value=size, maximum=size_limit,
                )
            end = i + 5 + size
            if end > len(buf):
                buf, i = self.window(5 + size)
                end = i + 5 + size
                if end > len(buf):
                    raise Truncated(
                        f"file ends inside a packet payload ({len(buf) - i - 5} of {size} bytes)", pos, "",
                        rule="CARLA-STREAM-001", needed=size, available=len(buf) - i - 5,
                    )
            self._pos = pos + 5 + size
            yield RawPacket(pos, packet_id, kinds_get(packet_id, raw), buf[i + 5:end] if size else b"")


_GET_ID = itemgetter(0)
_GET_SIZE = itemgetter(1)
#: A packet's path in ``decode``'s errors, by its index.
_PACKET_PATH = "packet[{}]".format


def frame_packets(buf: bytes, start: int, end: int, limit: int) -> tuple[list[int], bytes, list[int]]:
    """The packets of ``buf`` from ``start`` on that ``PacketReader`` would read before it stops:
    each whole within ``buf[:end]`` and of at most ``limit`` payload bytes (the first that is not
    ends them). Their offsets in ``buf``, ids and payload sizes, framed in a loop that does
    nothing but step from one packet to the next (the checks are C loops over the lists)."""
    starts: list[int] = []
    heads: list[tuple[int, int]] = []
    head = _PACKET_HEADER.unpack_from
    j = start
    try:
        if end >= len(buf):  # the whole buffer (``decode``, the mutator): its end stops the loop, as a header
            while True:  # past it raises; no test of a packet's own (a fuzz campaign hooks every comparison)
                h = head(buf, j)
                heads.append(h)
                starts.append(j)
                j += 5 + h[1]
        while j < end:
            h = head(buf, j)  # raises where a header runs past the buffer
            heads.append(h)
            starts.append(j)
            j += 5 + h[1]
    except struct.error:
        pass
    sizes = list(map(_GET_SIZE, heads))
    n = len(starts)
    if n and j > end:
        n -= 1  # only the last one can end past ``end``: every other one ends where the next starts
    if n and max(sizes) > limit:
        n = min(n, next(compress(count(), map(gt, sizes, repeat(limit)))))
    del starts[n:], sizes[n:]
    return starts, bytes(map(_GET_ID, heads[:n])), sizes


def iter_packets(f: BinaryIO, variant: Variant, size: int | None = None) -> Iterator[m.Packet]:
    """Stream a whole log: the header is consumed, then every packet is decoded.

    Use :func:`read_header` first if you need the header; this generator
    expects ``f`` positioned at the start of the file.
    """
    _, offset = read_header(f)
    for i, raw in enumerate(PacketReader(f, variant, offset, size)):
        body = decode_body(raw.kind, raw.payload, variant, raw.payload_offset, f"packet[{i}]")
        yield m.Packet(raw.kind, body, raw.packet_id)


#: ``decode_body``'s answers by (variant, packet id, payload), kept across logs for payloads of at most
#: ``_BODIES_PAYLOAD_MAX`` bytes, up to ``_BODIES_MAX`` answers (then forgotten all at once; at most
#: 1 MiB of payloads and their records; larger ones below): an answer depends on the payload's bytes and the variant's
#: layout of that id alone, and is immutable (a tuple of frozen records, a frozen record, bytes), so one
#: object serves every copy. A fuzzer's mutants keep most of their parent's payloads, and a log repeats
#: its empty and small packets frame after frame. Only answers are kept: a payload that does not decode
#: is decoded again, in file order, and raises as before.
_BODIES_PAYLOAD_MAX = 256
_BODIES_MAX = 4096
_BODIES: BoundedMemo[tuple[str, int, bytes], Any] = BoundedMemo(_BODIES_MAX)
#: The same for payloads of more than ``_BODIES_PAYLOAD_MAX`` bytes and at most ``_LARGE_BODIES_PAYLOAD_MAX``
#: (a frame's EventAdd or PhysicsControl packet, which a fuzzer's mutants keep as often), up to
#: ``_LARGE_BODIES_MAX`` answers (at most 1 MiB of payloads and their records), looked up one by one.
_LARGE_BODIES_PAYLOAD_MAX = 4096
_LARGE_BODIES_MAX = 256
_LARGE_BODIES: BoundedMemo[tuple[str, int, bytes], Any] = BoundedMemo(_LARGE_BODIES_MAX)


def _bodies(ids: bytes, kinds: list[K], payloads: list[bytes], at: list[int], variant: Variant) -> list[Any]:
    """``decode_body`` of each packet, in file order (the first that does not decode raises), the ones
    kept in ``_BODIES`` looked up in C loops, with no Python step per packet."""
    if VARIANTS.get(variant.name) is not variant:  # a variant of its own (a test's): nothing kept
        return list(map(decode_body, kinds, payloads, repeat(variant), at, map(_PACKET_PATH, count())))
    memo = _BODIES
    keys = list(zip(repeat(variant.name), ids, payloads))
    bodies = list(map(memo.get, keys))
    large = _LARGE_BODIES
    for j in list(compress(count(), map(is_, bodies, repeat(None)))):  # not kept: decoded (no answer is None)
        payload, key = payloads[j], keys[j]
        if len(payload) <= _BODIES_PAYLOAD_MAX:
            bodies[j] = memo.keep(key, decode_body(kinds[j], payload, variant, at[j], _PACKET_PATH(j)))
        elif len(payload) > _LARGE_BODIES_PAYLOAD_MAX:
            bodies[j] = decode_body(kinds[j], payload, variant, at[j], _PACKET_PATH(j))
        elif (body := large.get(key)) is not None:
            bodies[j] = body
        else:
            bodies[j] = large.keep(key, decode_body(kinds[j], payload, variant, at[j], _PACKET_PATH(j)))
    return bodies


def decode(data: bytes, variant: Variant) -> m.Recording:
    """Decode a whole log held in memory. Raises :class:`DecodeError` subclasses only."""
    import io

    header, offset = decode_header(data, 0)
    # the packets that are whole and within the limit, framed in one loop; where they stop,
    # ``PacketReader`` says why (the same error as reading packet by packet: the bodies before it first)
    total = len(data)
    starts, ids, sizes = frame_packets(data, offset, total, MAX_PACKET_SIZE)
    pos = starts[-1] + 5 + sizes[-1] if starts else offset
    # each packet decoded in file order, the first that does not decode raising: in C loops over the
    # lists (``map``), with no Python step of this function's own per packet
    kinds = list(map(variant.ids.get, ids, repeat(K.RAW)))
    at = list(map(add, starts, repeat(5)))  # the payloads' offsets
    payloads = list(map(data.__getitem__, map(slice, at, map(add, at, sizes))))
    bodies = (_bodies(ids, kinds, payloads, at, variant) if isinstance(data, bytes)  # a key must be hashable
              else map(decode_body, kinds, payloads, repeat(variant), at, map(_PACKET_PATH, count())))
    packets: list[m.Packet] = list(map(m.Packet, kinds, bodies, ids))
    append = packets.append
    if pos < total:
        f = io.BytesIO(data)
        f.seek(pos)
        for raw in PacketReader(f, variant, pos, total):  # pragma: no branch - it raises at its first packet
            kind = raw.kind
            append(m.Packet(kind, decode_body(kind, raw.payload, variant, raw.offset + 5, f"packet[{len(packets)}]"),
                            raw.packet_id))
    return m.Recording(header, tuple(packets))


def frames(packets: Iterator[m.Packet] | tuple[m.Packet, ...]) -> Iterator[tuple[m.FrameStart, list[m.Packet]]]:
    """Group packets into frames: each FrameStart with the packets up to its FrameEnd.

    Packets outside any frame are skipped here (the checker reports them).
    """
    current: list[m.Packet] | None = None
    start: m.FrameStart | None = None
    for p in packets:
        if p.kind is K.FRAME_START:
            if current is not None and start is not None:
                yield start, current
            start, current = p.body, []  # type: ignore[assignment]
        elif p.kind is K.FRAME_END:
            if current is not None and start is not None:
                yield start, current
            start, current = None, None
        elif current is not None:
            current.append(p)
    if current is not None and start is not None:
        yield start, current
