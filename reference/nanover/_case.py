"""The NanoVer case: a recording in a writer's terms (``recspec_case`` 2).

::

    {"recspec_case": 2, "format": "nanover", "variant": "traj",
     "records": [
       {"timestamp_us": 1000,
        "frame": {"frame_index": 0,
                  "values": {"particle.count": 2.0, "system.simulation.time": 0.0},
                  "arrays": {"particle.positions": {"float": [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]},
                             "particle.elements": {"index": [6, 8]},
                             "particle.names": {"string": ["C", "O"]}}}},
       {"timestamp_us": 2000,
        "frame": {"frame_index": 1, "values": {}, "arrays": {"particle.positions": {"float": [...]}}}}]}

    {"recspec_case": 2, "format": "nanover", "variant": "state",
     "records": [{"timestamp_us": 1000, "update": {"scene": {"scale": 1.0}, "avatar.1": null}}]}

The variant is the kind: a ``traj`` record holds a ``frame`` (a
GetFrameResponse: ``frame_index`` 0 is a reset, any other a delta applied key
by key), a ``state`` record an ``update`` (a StateUpdate: ``null`` removes the
key). ``values`` are google.protobuf.Value contents as JSON (null, number,
string, boolean, object, array); a non-finite number is ``{"$number": "NaN"}``
(or ``"Infinity"``, ``"-Infinity"``), and an object whose only key is
``$number`` or ``$struct`` is wrapped as ``{"$struct": {...}}``. An array
names its ValueArray member: ``{"float": [...]}`` (f32 values), ``{"index":
[...]}`` (uint32) or ``{"string": [...]}``; an empty array keeps its member.

The lossless case adds a record's ``order`` when its map entries are not in
the encoder's order (each map's keys in upb's deterministic order: by UTF-8
bytes, a key after the longer keys that begin with it, ``canonical_keys``; a
frame's values before its arrays), as NanoVer's Rust server writes them: a frame's entries as
``"values/KEY"`` and ``"arrays/KEY"``, a state update's keys, in wire order,
each entry once. A NaN with a sign or payload is ``{"nan": "0x..."}`` (in a
Value: ``{"$number": {"nan": "0x..."}}``), a record's ``unpacked``: the float and
index arrays written a number per field, a Value with no kind set as
``{"$unset": true}`` and a ValueArray with no member as ``{}`` (both
NANOVER-PROTO-005), and ``header`` (``magic``,
``version``) where the file's is not the version 2 header. The canonical case
(``canonical=True``) has none of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from recspec._case_json import (
    CaseError,
    check_envelope,
    envelope,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    float_in,
    float_out,
    float_schema,
    nan_schema,
)

from ._model import UNSET, Array, ArrayKind, Frame, Header, Kind, Record, Recording, StateUpdate

__all__ = ["CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "case_schema", "from_case", "to_case"]

CASE_TOLERANCES = {
    "float32": "a Value number (a double) may come back as the nearest float32, as from a writer that holds its "
               "numbers as floats",
}
#: The tolerances that are not about float widths: none here.
CASE_TOLERANCE_CHECKS: dict[str, Any] = {}

_NON_FINITE = {"NaN", "Infinity", "-Infinity"}
_TAGS = {"$number", "$struct", "$unset"}


def _value_out(v: Any, path: str, canonical: bool) -> Any:
    if v is UNSET:
        if canonical:
            raise CaseError("a Value with no kind set (NANOVER-PROTO-005) has no case", path)
        return {"$unset": True}
    if isinstance(v, float):
        return v if math.isfinite(v) else {"$number": float_out(v, canonical)}
    if isinstance(v, dict):
        inner = {k: _value_out(x, f"{path}.{k}", canonical) for k, x in v.items()}
        return {"$struct": inner} if len(inner) == 1 and next(iter(inner)) in _TAGS else inner
    if isinstance(v, (list, tuple)):
        return [_value_out(x, f"{path}[{i}]", canonical) for i, x in enumerate(v)]
    return v


def _value_in(v: Any, path: str) -> Any:
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, list):
        return [_value_in(x, f"{path}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, Mapping):
        if len(v) == 1 and "$number" in v:
            n = v["$number"]
            if not (isinstance(n, str) and n in _NON_FINITE) and not (isinstance(n, Mapping) and list(n) == ["nan"]):
                raise CaseError("$number holds \"NaN\", \"Infinity\", \"-Infinity\" or {\"nan\": \"0x...\"}",
                                f"{path}.$number")
            return float_in(v["$number"], f"{path}.$number")
        if len(v) == 1 and v.get("$unset") is True:
            return UNSET
        if len(v) == 1 and "$struct" in v:
            return {k: _value_in(x, f"{path}.{k}") for k, x in expect_object(v["$struct"], f"{path}.$struct").items()}
        return {k: _value_in(x, f"{path}.{k}") for k, x in v.items()}
    raise CaseError(f"not a Value: {v!r}", path)


def _array_out(a: Array, path: str, canonical: bool) -> dict[str, Any]:
    if a.kind is None:
        if canonical:
            raise CaseError("a ValueArray with no member set (NANOVER-PROTO-005) has no case", path)
        return {}
    if a.kind is ArrayKind.FLOAT:
        return {"float": [float_out(x, canonical) for x in a.values]}
    return {a.kind.value: list(a.values)}


def _array_in(v: Any, path: str) -> Array:
    obj = expect_object(v, path)
    if not obj:
        return Array(None, ())  # no member set (NANOVER-PROTO-005): only a lossless case says it
    if len(obj) != 1 or next(iter(obj)) not in ("float", "index", "string"):
        raise CaseError("an array is {\"float\": [...]}, {\"index\": [...]} or {\"string\": [...]}", path)
    (name, values), = obj.items()
    items = expect_list(values, f"{path}.{name}")
    if name == "float":
        return Array(ArrayKind.FLOAT, tuple(float_in(x, f"{path}.float[{i}]") for i, x in enumerate(items)))
    if name == "index":
        return Array(ArrayKind.INDEX, tuple(expect_int(x, f"{path}.index[{i}]", 0, 2**32 - 1)
                                            for i, x in enumerate(items)))
    return Array(ArrayKind.STRING, tuple(expect_str(x, f"{path}.string[{i}]") for i, x in enumerate(items)))


def to_case(model: Recording, *, variant: str | Kind | None = None, canonical: bool = False) -> dict[str, Any]:
    """The case of a decoded recording (its kind is the model's): lossless (with each record's wire
    ``order`` where it is not the encoder's, and NaN bits), or with ``canonical`` the content alone."""
    c = canonical
    records: list[dict[str, Any]] = []
    for i, r in enumerate(model.records):
        path = f"records[{i}]"
        if isinstance(r.message, Frame):
            f = r.message
            out: dict[str, Any] = {"timestamp_us": r.timestamp_us, "frame": {
                "frame_index": f.frame_index,
                "values": {k: _value_out(v, f"{path}.frame.values.{k}", c) for k, v in f.values.items()},
                "arrays": {k: _array_out(a, f"{path}.frame.arrays.{k}", c) for k, a in f.arrays.items()}}}
        else:
            out = {"timestamp_us": r.timestamp_us,
                   "update": {k: _value_out(v, f"{path}.update.{k}", c) for k, v in r.message.changes.items()}}
        if r.message.order is not None and not canonical:
            out["order"] = list(r.message.order)
        if isinstance(r.message, Frame) and r.message.unpacked and not canonical:
            out["unpacked"] = list(r.message.unpacked)
        records.append(out)
    header = {} if canonical or model.header == Header() else {
        "header": {"magic": model.header.magic, "version": model.header.version}}
    return {**envelope("nanover", model.kind.value), **header, "records": records}


def _unpacked_in(v: Any, path: str, arrays: Mapping[str, Any]) -> tuple[str, ...]:
    keys = tuple(expect_str(x, f"{path}[{i}]") for i, x in enumerate(expect_list(v, path)))
    for i, k in enumerate(keys):
        a = arrays.get(k)
        if not isinstance(a, Mapping) or next(iter(a), None) not in ("float", "index"):
            raise CaseError(f"{k!r} is not one of the frame's float or index arrays", f"{path}[{i}]")
    return keys


def _order_in(v: Any, path: str, names: list[str]) -> tuple[str, ...]:
    order = tuple(expect_str(x, f"{path}[{i}]") for i, x in enumerate(expect_list(v, path)))
    if sorted(order) != sorted(names):
        missing = sorted(set(names) - set(order))
        unknown = sorted(set(order) - set(names))
        raise CaseError("the order names each entry once"
                        + (f"; missing {', '.join(map(repr, missing))}" if missing else "")
                        + (f"; not an entry: {', '.join(map(repr, unknown))}" if unknown else "")
                        + ("; an entry named twice" if not missing and not unknown else ""), path)
    return order


def from_case(case: Mapping[str, Any]) -> Recording:
    """The recording a case describes."""
    kind = Kind(check_envelope(case, "nanover", ("traj", "state")))
    expect_object(case, "", ("recspec_case", "format", "variant", "records"), ("header",))
    header = Header()
    if "header" in case:
        h = expect_object(case["header"], "header", ("magic", "version"))
        header = Header(expect_int(h["magic"], "header.magic", 0, 2**64 - 1),
                        expect_int(h["version"], "header.version", 0, 2**64 - 1))
    want = "frame" if kind is Kind.TRAJ else "update"
    records: list[Record] = []
    for i, r in enumerate(expect_list(case["records"], "records")):
        path = f"records[{i}]"
        obj = expect_object(r, path, ("timestamp_us", want), ("order", "unpacked") if kind is Kind.TRAJ else ("order",))
        ts = expect_int(obj["timestamp_us"], f"{path}.timestamp_us", 0, 2**128 - 1)
        if kind is Kind.TRAJ:
            f = expect_object(obj["frame"], f"{path}.frame", ("frame_index", "values", "arrays"))
            values = expect_object(f["values"], f"{path}.frame.values")
            arrays = expect_object(f["arrays"], f"{path}.frame.arrays")
            order = (_order_in(obj["order"], f"{path}.order", [*(f"values/{k}" for k in values),
                                                              *(f"arrays/{k}" for k in arrays)])
                     if "order" in obj else None)
            message: Frame | StateUpdate = Frame(
                expect_int(f["frame_index"], f"{path}.frame.frame_index", 0, 2**32 - 1),
                {k: _value_in(v, f"{path}.frame.values.{k}") for k, v in values.items()},
                {k: _array_in(a, f"{path}.frame.arrays.{k}") for k, a in arrays.items()}, order,
                _unpacked_in(obj["unpacked"], f"{path}.unpacked", arrays) if "unpacked" in obj else None)
        else:
            update = expect_object(obj["update"], f"{path}.update")
            order = _order_in(obj["order"], f"{path}.order", list(update)) if "order" in obj else None
            message = StateUpdate({k: _value_in(v, f"{path}.update.{k}") for k, v in update.items()}, order)
        records.append(Record(ts, message))
    return Recording(kind, tuple(records), header)


def case_schema() -> dict[str, Any]:
    """The JSON Schema of a NanoVer case (its clause of ``recspec/schemas/case-2.schema.json``)."""
    number = {"type": "object", "additionalProperties": False, "required": ["$number"],
              "properties": {"$number": {"oneOf": [{"enum": sorted(_NON_FINITE)}, nan_schema()]}}}
    value = {"description": "a google.protobuf.Value: null (in an update: remove the key), number, string, boolean, "
                            "object, array; {\"$number\": ...} for a non-finite number",
             "oneOf": [{"type": ["null", "number", "string", "boolean", "array"]},  # {"$unset": true}: no kind set
                       {"type": "object", "not": {"required": ["$number"], "maxProperties": 1}}, number]}
    array = {"type": "object", "maxProperties": 1, "additionalProperties": False,
             "description": "{\"float\": [...]}, {\"index\": [...]} or {\"string\": [...]}; {} (lossless cases only) a "
                            "ValueArray with no member set",
             "properties": {"float": {"type": "array", "items": float_schema()},
                            "index": {"type": "array", "items": {"type": "integer", "minimum": 0,
                                                                 "maximum": 4294967295}},
                            "string": {"type": "array", "items": {"type": "string"}}}}
    frame = {"type": "object", "additionalProperties": False, "required": ["frame_index", "values", "arrays"],
             "properties": {"frame_index": {"type": "integer", "minimum": 0, "maximum": 4294967295},
                            "values": {"type": "object", "additionalProperties": value},
                            "arrays": {"type": "object", "additionalProperties": array}}}
    timestamp = {"type": "integer", "minimum": 0}
    header = {"type": "object", "additionalProperties": False, "required": ["magic", "version"],
              "description": "the file header, where it is not the version 2 header (magic e3 b7 89 99 c4 e3 71 5c)",
              "properties": {"magic": {"type": "integer", "minimum": 0}, "version": {"type": "integer", "minimum": 0}}}
    return {"type": "object", "required": ["records"],
            "properties": {"variant": {"enum": ["traj", "state"]}, "header": header,
                           "records": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["timestamp_us"],
                "properties": {"timestamp_us": timestamp, "frame": frame,
                               "update": {"type": "object", "additionalProperties": value},
                               "unpacked": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                                            "description": "the float and index arrays whose numbers are written "
                                                           "a field each (unpacked), not packed"},
                               "order": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                                         "description": "the map entries in wire order, when not the encoder's "
                                                        "(a frame's values/KEY and arrays/KEY, an update's keys)"}},
                "oneOf": [{"required": ["frame"]}, {"required": ["update"]}]}}}}
