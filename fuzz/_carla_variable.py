"""The CARLA ``ref`` harness's reading of what the fixed-layout model view leaves out: the header's strings
and the variable-size records (docs/formats/carla.md § Info header, § Payload layouts), read from the bytes
here with ``struct`` and compared with the reference decoder's model.

``carla.model_view`` reads the header's version and date and every fixed-size record again; a string, a
name or a record whose size depends on a count it does not read. A decoder that cuts a blueprint id,
swaps an attribute's id and value, strips the map name or reads a bone's or a wheel's fields out of order
then gives the checker, the second opinion and the round trip of a valid file the same wrong model. What
is read here, at the document's positions:

* the header: the magic (``string`` at 2) and the map name (``string`` after the ``i64`` date);
* EventAdd (id 2): per actor the id, type, location, rotation, description uid, description id, and each
  attribute's type, id and value;
* WalkerBones: per walker the id, and each bone's name, location and rotation;
* AnimVehicleWheels: per vehicle the id, and each wheel's index, steering angle and tyre rotation.

A ``string`` is a ``u16`` byte count and that many bytes, read as UTF-8 with the bytes that are not kept
(``surrogateescape``: the model keeps them for CARLA-STRING-001). A ``vec3`` and a ``rot3`` are three
``f32`` (UE5: ``f64``). Numbers compare by ``repr`` (a NaN equals itself). :func:`variable_view` names the
first difference by the record class and field (``EventAdd.attributes``, ``Header.map_name``), one crash
signature per field; a payload that does not parse as its layout here is left to ``refusal``.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any

from recspec.reference.carla import PacketKind as K

__all__ = ["variable_view"]

_U16, _U32 = struct.Struct("<H").unpack_from, struct.Struct("<I").unpack_from
_WHEEL = struct.Struct("<Bff")


class _Short(Exception):
    """The bytes end before the layout does (the decoder would have refused: not this view's to judge)."""


class _Bytes:
    """A cursor over one payload."""

    def __init__(self, buf: bytes, vec_f64: bool) -> None:
        self.buf, self.pos = buf, 0
        self.vec = struct.Struct("<3d" if vec_f64 else "<3f")

    def take(self, s: struct.Struct) -> tuple[Any, ...]:
        if self.pos + s.size > len(self.buf):
            raise _Short
        t = s.unpack_from(self.buf, self.pos)
        self.pos += s.size
        return t

    def u8(self) -> int:
        return int(self.take(_S8)[0])

    def u16(self) -> int:
        return int(self.take(_S16)[0])

    def u32(self) -> int:
        return int(self.take(_S32)[0])

    def vector(self) -> tuple[float, ...]:
        return tuple(self.take(self.vec))

    def string(self) -> str:
        n = self.u16()
        if self.pos + n > len(self.buf):
            raise _Short
        self.pos += n
        return self.buf[self.pos - n:self.pos].decode("utf-8", "surrogateescape")


_S8, _S16, _S32 = struct.Struct("<B"), struct.Struct("<H"), struct.Struct("<I")


def _string_at(data: bytes, at: int) -> tuple[str, int]:
    n = _U16(data, at)[0]
    if at + 2 + n > len(data):
        raise _Short
    return data[at + 2:at + 2 + n].decode("utf-8", "surrogateescape"), at + 2 + n


def variable_view(data: bytes, rec: Any, vec_f64: bool) -> tuple[dict[str, str], dict[str, str]] | None:
    """The first header string or variable-size record field where the decoded recording ``rec`` and the
    bytes differ, as ``check_model_view``'s pair, or ``None`` where they agree (or the bytes do not parse
    as the layout here)."""
    try:
        for name, mine, theirs in _pairs(data, rec, vec_f64):
            if repr(mine) != repr(theirs):
                return {name: repr(mine)[:200]}, {name: repr(theirs)[:200]}
    except (_Short, struct.error):
        return None
    return None


def _numbers(v: Any) -> tuple[float, ...]:
    """A model vector's (x, y, z) or rotation's (roll, pitch, yaw) numbers in its fields' order, whichever
    class the decoder put there."""
    return tuple(getattr(v, name) for name in type(v).__slots__)


def _pairs(data: bytes, rec: Any, vec_f64: bool) -> Iterator[tuple[str, Any, Any]]:
    magic, at = _string_at(data, 2)
    yield "Header.magic", rec.header.magic, magic
    map_name, at = _string_at(data, at + 8)
    yield "Header.map_name", rec.header.map_name, map_name
    for p in rec.packets:
        if at + 5 > len(data):
            return
        size = _U32(data, at + 1)[0]
        payload = data[at + 5:at + 5 + size]
        at += 5 + size
        body = p.body
        if p.kind is K.EVENT_ADD and type(body) is tuple:
            yield from _event_add(_Bytes(payload, vec_f64), body)
        elif p.kind is K.WALKER_BONES and type(body) is tuple:
            yield from _walker_bones(_Bytes(payload, vec_f64), body)
        elif p.kind is K.ANIM_VEHICLE_WHEELS and type(body) is tuple:
            yield from _wheels(_Bytes(payload, vec_f64), body)


def _event_add(c: _Bytes, body: tuple[Any, ...]) -> Iterator[tuple[str, Any, Any]]:
    n = c.u16()
    yield "EventAdd.count", len(body), n
    for e in body:
        yield "EventAdd.database_id", e.database_id, c.u32()
        yield "EventAdd.type", e.type, c.u8()
        yield "EventAdd.location", _numbers(e.location), c.vector()
        yield "EventAdd.rotation", _numbers(e.rotation), c.vector()
        yield "EventAdd.description_uid", e.description_uid, c.u32()
        yield "EventAdd.description_id", e.description_id, c.string()
        attributes = [(c.u8(), c.string(), c.string()) for _ in range(c.u16())]
        yield "EventAdd.attributes", [(a.type, a.id, a.value) for a in e.attributes], attributes


def _walker_bones(c: _Bytes, body: tuple[Any, ...]) -> Iterator[tuple[str, Any, Any]]:
    n = c.u16()
    yield "WalkerBones.count", len(body), n
    for w in body:
        yield "WalkerBones.database_id", w.database_id, c.u32()
        bones = [(c.string(), c.vector(), c.vector()) for _ in range(c.u16())]
        yield "WalkerBones.bones", [(b.name, _numbers(b.location), _numbers(b.rotation)) for b in w.bones], bones


def _wheels(c: _Bytes, body: tuple[Any, ...]) -> Iterator[tuple[str, Any, Any]]:
    n = c.u16()
    yield "AnimVehicleWheels.count", len(body), n
    for v in body:
        yield "AnimVehicleWheels.database_id", v.database_id, c.u32()
        wheels = [c.take(_WHEEL) for _ in range(c.u32())]
        yield "AnimVehicleWheels.wheels", [(w.location, w.steering_angle, w.tire_rotation) for w in v.wheels], wheels
