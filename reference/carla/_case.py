"""The CARLA case: a recorder log in a writer's terms (``recspec_case`` 2).

::

    {"recspec_case": 2, "format": "carla", "variant": "0.9.15",
     "header": {"version": 1, "magic": "CARLA_RECORDER", "date": 1700000000, "map_name": "Town10HD_Opt"},
     "frames": [
       {"frame_id": 1, "duration_this": 0.05, "elapsed": 0.0,
        "packets": [
          {"kind": "EventAdd", "records": [{"database_id": 7, "type": 1, "location": [0.0, 0.0, 0.0],
                                            "rotation": [0.0, 0.0, 90.0], "description_uid": 1,
                                            "description_id": "vehicle.tesla.model3", "attributes": []}]},
          {"kind": "Position", "records": [{"database_id": 7, "location": [1.0, 2.0, 0.5],
                                            "rotation": [0.0, 0.0, 90.0]}]},
          {"kind": "PlatformTime", "time": 0.05}]}]}

A frame is what a writer writes between FrameStart and FrameEnd: the FrameStart
fields, then its packets in file order. A packet with records (EventAdd,
Position, ...) has ``records``, each an object with the model's field names
(``recspec.reference.carla``); a packet with one fixed value (PlatformTime,
VisualTime, FrameCounter) has that value's fields beside ``kind``. Vectors and
rotations are arrays (``[x, y, z]``, ``[roll, pitch, yaw]``: CARLA's order on
disk), colours ``[r, g, b, a]``. A packet the variant has no layout for is
``{"kind": "Raw", "packet_id": N, "payload": "hex"}``; a PhysicsControl of a
UE5 build (layout unknown) has its ``payload`` in hex. Numbers are stored as
the variant stores them (f32 in UE4 builds), so a case drawn by recspec holds
only values the format can hold; non-finite ones are "NaN", "Infinity",
"-Infinity", and a NaN with a sign or payload is ``{"nan": "0xffc00000"}``
(its float32 bits; 16 digits for a double), as CARLA 0.9.13 logs hold -NaN.
The canonical case (``canonical=True``) writes every NaN as "NaN". Everything
else a log's bytes say is a field already (every packet in file order, unknown
ones as ``Raw``), so the lossless case has no other detail, except for a log
whose packets are not bracketed into frames (CARLA-FRAME-001, -002, -007): it
has no canonical case, and its lossless case lists ``packets`` in file order
(``{"kind": "FrameStart", "frame_id": ...}``, ``{"kind": "FrameEnd"}`` among
them) in place of ``frames``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from recspec._case_json import (
    CaseError,
    check_envelope,
    dataclass_in,
    dataclass_out,
    dataclass_schema,
    envelope,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    float_schema,
)

from . import _model as m
from ._model import PacketKind as K
from ._variants import VARIANTS, Variant

__all__ = ["CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "case_schema", "from_case", "to_case"]

#: Tolerances ``recspec drive writer --tolerance`` accepts for CARLA: name -> what it allows.
CASE_TOLERANCES = {
    "float32": "a double (UE5 vectors, FrameStart times) may come back as the nearest float32, as from a writer "
               "that holds its values as floats",
}
#: The tolerances that are not about float widths: none here.
CASE_TOLERANCE_CHECKS: dict[str, Any] = {}

_SMALL = (m.Vec3, m.Rotator, m.Color)
_BY_LABEL = {k.label: k for k in K}


def _variant(v: str | Variant | None) -> Variant:
    if isinstance(v, Variant):
        return v
    if v is None or v not in VARIANTS:
        raise CaseError(f"a CARLA case names its variant, one of {', '.join(VARIANTS)}", "variant")
    return VARIANTS[v]


def _packet_out(p: m.Packet, path: str, canonical: bool, loose: bool = False) -> dict[str, Any]:
    if p.kind is K.RAW:
        return {"kind": "Raw", "packet_id": p.packet_id, "payload": bytes(p.body).hex()}  # type: ignore[arg-type]
    if p.kind in (K.FRAME_START, K.FRAME_END) and not loose:
        raise CaseError(f"a {p.kind.label} inside a frame: the log's frames are not bracketed "
                        "FrameStart .. FrameEnd (CARLA-FRAME-001), so it has no case", path)
    if isinstance(p.body, bytes):
        return {"kind": p.kind.label, "payload": p.body.hex()}
    if isinstance(p.body, tuple):
        return {"kind": p.kind.label, "records": dataclass_out(p.body, _SMALL, canonical)}
    return {"kind": p.kind.label, **dataclass_out(p.body, _SMALL, canonical)}


def to_case(model: m.Recording, *, variant: str | Variant | None = None, canonical: bool = False) -> dict[str, Any]:
    """The case of a decoded log; :class:`CaseError` when its packets are not bracketed into frames
    (a log recspec finds malformed or broken at the frame level has no case). ``canonical``: every
    NaN as "NaN" (the content alone), else the lossless case that encodes back to the log's bytes: for a
    log whose packets are not bracketed into frames, its ``packets`` in file order, FrameStart and
    FrameEnd among them, in place of ``frames``."""
    try:
        return _frames_case(model, variant, canonical)
    except CaseError:
        if canonical:
            raise
    v = _variant(variant.name if isinstance(variant, Variant) else variant)
    return {**envelope("carla", v.name), "header": dataclass_out(model.header, (), canonical),
            "packets": [_packet_out(p, f"packet[{i}]", canonical, loose=True) for i, p in enumerate(model.packets)]}


def _frames_case(model: m.Recording, variant: str | Variant | None, canonical: bool) -> dict[str, Any]:
    v = _variant(variant.name if isinstance(variant, Variant) else variant)
    frames: list[dict[str, Any]] = []
    current: list[dict[str, Any]] | None = None
    for i, p in enumerate(model.packets):
        if p.kind is K.FRAME_START:
            if current is not None:
                raise CaseError("a FrameStart before the previous frame's FrameEnd", f"packet[{i}]")
            current = []
            frames.append({**dataclass_out(p.body, _SMALL, canonical), "packets": current})
        elif p.kind is K.FRAME_END:
            if current is None:
                raise CaseError("a FrameEnd outside a frame", f"packet[{i}]")
            current = None
        elif current is None:
            raise CaseError(f"a {p.kind.label} packet outside a frame", f"packet[{i}]")
        else:
            current.append(_packet_out(p, f"packet[{i}]", canonical))
    if current is not None:
        raise CaseError("the last frame has no FrameEnd", f"packet[{len(model.packets)}]")
    return {**envelope("carla", v.name), "header": dataclass_out(model.header, (), canonical), "frames": frames}


def _packet_in(obj: Any, path: str, loose: bool = False) -> m.Packet:
    p = expect_object(obj, path)
    label = expect_str(p.get("kind"), f"{path}.kind")
    kind = _BY_LABEL.get(label)
    if kind is None or (kind in (K.FRAME_START, K.FRAME_END) and not loose):
        known = ", ".join(k.label for k in K if k not in (K.FRAME_START, K.FRAME_END, K.RAW))
        raise CaseError(f"unknown packet kind {label!r} (one of: {known}, Raw)", f"{path}.kind")
    if kind is K.RAW:
        expect_object(obj, path, ("kind", "packet_id", "payload"))
        return m.Packet(K.RAW, _hex(p["payload"], f"{path}.payload"), expect_int(p["packet_id"], f"{path}.packet_id",
                                                                               0, 255))
    if "payload" in p:
        expect_object(obj, path, ("kind", "payload"))
        return m.Packet(kind, _hex(p["payload"], f"{path}.payload"))
    if kind in m.FIXED_VALUE_CLASSES:
        body = dict(p)
        del body["kind"]
        return m.Packet(kind, dataclass_in(m.FIXED_VALUE_CLASSES[kind], body, path, _SMALL))
    expect_object(obj, path, ("kind", "records"))
    cls = m.RECORD_CLASSES[kind]
    records = expect_list(p["records"], f"{path}.records")
    return m.Packet(kind, tuple(dataclass_in(cls, r, f"{path}.records[{i}]", _SMALL) for i, r in enumerate(records)))


def _hex(v: Any, path: str) -> bytes:
    try:
        return bytes.fromhex(expect_str(v, path))
    except ValueError:
        raise CaseError("expected hex digits", path) from None


def from_case(case: Mapping[str, Any]) -> m.Recording:
    """The log a case describes (encode it with ``encode(model, variant=case['variant'])``)."""
    check_envelope(case, "carla", tuple(VARIANTS))
    if "packets" in case and "frames" not in case:  # a log whose packets are not bracketed into frames
        expect_object(case, "", ("recspec_case", "format", "variant", "header", "packets"))
        return m.Recording(dataclass_in(m.Header, case["header"], "header"), tuple(
            _packet_in(p, f"packets[{i}]", loose=True) for i, p in enumerate(expect_list(case["packets"], "packets"))))
    expect_object(case, "", ("recspec_case", "format", "variant", "header", "frames"))
    header = dataclass_in(m.Header, case["header"], "header")
    packets: list[m.Packet] = []
    for i, frame in enumerate(expect_list(case["frames"], "frames")):
        path = f"frames[{i}]"
        f = expect_object(frame, path, ("frame_id", "duration_this", "elapsed", "packets"))
        start = {k: f[k] for k in ("frame_id", "duration_this", "elapsed")}
        packets.append(m.Packet(K.FRAME_START, dataclass_in(m.FrameStart, start, path)))
        packets += [_packet_in(p, f"{path}.packets[{j}]")
                    for j, p in enumerate(expect_list(f["packets"], f"{path}.packets"))]
        packets.append(m.Packet(K.FRAME_END, m.FrameEnd()))
    return m.Recording(header, tuple(packets))


def case_schema() -> dict[str, Any]:
    """The JSON Schema of a CARLA case (the ``carla`` clause of ``recspec/schemas/case-2.schema.json``)."""
    packet_kinds: list[dict[str, Any]] = []
    for kind, cls in m.FIXED_VALUE_CLASSES.items():
        if kind in (K.FRAME_START, K.FRAME_END):
            continue
        s = dataclass_schema(cls, _SMALL)
        s["properties"] = {"kind": {"const": kind.label}, **s["properties"]}
        s["required"] = ["kind", *s["required"]]
        packet_kinds.append(s)
    for kind, cls in m.RECORD_CLASSES.items():
        packet_kinds.append({"type": "object", "additionalProperties": False, "required": ["kind", "records"],
                             "properties": {"kind": {"const": kind.label},
                                            "records": {"type": "array", "items": dataclass_schema(cls, _SMALL)}}})
    hex_text = {"type": "string", "pattern": "^([0-9a-fA-F]{2})*$"}
    packet_kinds.append({"type": "object", "additionalProperties": False, "required": ["kind", "payload"],
                         "description": "a PhysicsControl of a UE5 build, kept as its payload bytes",
                         "properties": {"kind": {"const": "PhysicsControl"}, "payload": hex_text}})
    packet_kinds.append({"type": "object", "additionalProperties": False, "required": ["kind", "packet_id", "payload"],
                         "properties": {"kind": {"const": "Raw"}, "packet_id": {"type": "integer", "minimum": 0,
                                                                                 "maximum": 255},
                                        "payload": hex_text}})
    frame = {"type": "object", "additionalProperties": False,
             "required": ["frame_id", "duration_this", "elapsed", "packets"],
             "properties": {"frame_id": {"type": "integer"}, "duration_this": float_schema(),
                            "elapsed": float_schema(), "packets": {"type": "array", "items": {"oneOf": packet_kinds}}}}
    loose = [*packet_kinds, {"type": "object", "additionalProperties": False, "required": ["kind"],
                             "properties": {"kind": {"const": "FrameEnd"}}}]
    start = dataclass_schema(m.FrameStart)
    loose.append({**start, "properties": {"kind": {"const": "FrameStart"}, **start["properties"]},
                  "required": ["kind", *start["required"]]})
    return {"type": "object", "required": ["header"],
            "oneOf": [{"required": ["frames"]}, {"required": ["packets"]}],
            "properties": {"variant": {"enum": list(VARIANTS)}, "header": dataclass_schema(m.Header),
                           "frames": {"type": "array", "items": frame},
                           "packets": {"type": "array", "items": {"oneOf": loose},
                                       "description": "a log whose packets are not bracketed FrameStart .. "
                                                      "FrameEnd (lossless cases only): every packet in file order"}}}
