"""The raSkat case: one signal file in a writer's terms (``recspec_case`` 2).

::

    {"recspec_case": 2, "format": "raskat-signal", "variant": "v2", "container": "raw",
     "time": "20250624100658", "microseconds": 412345,
     "longitude": 128.012345, "latitude": 70.5, "altitude": 12.0,
     "sample_rate": 1000000, "flags": 2, "samples": [512, 530, 498]}

    {"recspec_case": 2, "format": "raskat-signal", "variant": "v4", "container": "tar.xz",
     "member": "20250624100658.sig",
     "time": "20250624100658", "microseconds": 412345, "coordinate_1": 70.54, "coordinate_2": 128.01,
     "altitude": 12.0, "sample_rate": 1000000, "load_ohm": 50, "adc_bits": 10, "vref": 3.299999952316284,
     "flags": 2, "antenna": 1, "samples": [512, 530, 498], "threshold": 643}

The variant is the version word (``v1`` legacy, ``v2``, ``v3``, ``v4``). v1/v2
coordinates are degrees; the layout stores a u16 integer part and u32 millionths
(``value = int + frac / 1e6``), so a case coordinate is such a value: a whole
number of millionths, 0 .. 65535.999999. A negative coordinate (the western or
southern hemisphere) is a value a writer may be asked to write but v1/v2 cannot
hold: ``from_case`` refuses it (``EncodeError``), and so must a writer (research
notes A.5.5). v1 has no ``flags``. v3/v4 hold their 12 (13) MessagePack values in
stored order: ``coordinate_1`` is the first double (latitude as the raSkat
writer writes it; the document says longitude), ``coordinate_2`` the second;
each field keeps its JSON type (``1.0`` a float, ``1`` an integer), so a field of
the wrong type is a case too. ``container`` is ``raw`` or ``tar.xz`` (with the
tar ``member`` name, and in the lossless case the member's ``mtime`` when not 0;
a v1/v2 coordinate stored with millionths of a million or more, which no value
says, is ``{"int_part": N, "frac": M}`` there; a v3/v4 object a writer stored
wider than the smallest MessagePack form has its lead byte in ``msgpack``
(``{"sample_rate": "0xce", "samples[3]": "0xd1"}``);
the rest of the container is recspec's: ustar, mode 0644, uid/gid 0, one xz
stream with a CRC64 check at the default preset). The lossless case writes a NaN with a sign or payload as
``{"nan": "0x..."}``; the canonical one (``canonical=True``) as "NaN".
"""

from __future__ import annotations

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
)
from recspec.errors import EncodeError

from ._file import SignalFile
from ._signal import FIELD_NAMES, Fixed, SignalMsgpack, SignalV2

__all__ = ["CASE_TOLERANCES", "CASE_TOLERANCE_CHECKS", "case_schema", "fixed_from_degrees", "from_case", "to_case"]

CASE_TOLERANCES = {
    "float32": "a v3/v4 double (coordinates, altitude, Vref) may come back as the nearest float32, as the raSkat "
               "writer stores Vref",
    "millionth-floor": "a v1/v2 coordinate may come back one millionth below the case's, as from the raSkat writer, "
                       "which floors the fraction computed in floating point",
}

_FIXED_NAMES = ("longitude", "latitude", "altitude")
_V2_FIELDS = ("time", "microseconds", *_FIXED_NAMES, "sample_rate", "flags", "samples")


def fixed_from_degrees(x: float, path: str = "") -> Fixed:
    """The stored parts of a v1/v2 coordinate: exact for a whole number of millionths in 0 .. 65535.999999;
    :class:`recspec.errors.EncodeError` for any other value (a negative one above all: the parts are unsigned)."""
    from recspec.errors import EncodeError

    if not 0 <= x < 65536:
        raise EncodeError(f"{path or 'a v2 coordinate'} is {x}: v1/v2 store an unsigned u16 integer part and u32 "
                          "millionths, so a coordinate lies in 0 .. 65535.999999 (a negative one cannot be written)")
    whole = int(x)
    frac = round((x - whole) * 1_000_000)
    fixed = Fixed(whole, frac)
    if frac >= 1_000_000 or fixed.value != x:
        raise EncodeError(f"{path or 'a v2 coordinate'} is {x}, not a whole number of millionths of a degree "
                          "(v1/v2 store int + frac / 1e6)")
    return fixed


def to_case(model: SignalFile, *, variant: str | None = None, canonical: bool = False) -> dict[str, Any]:
    """The case of a decoded signal file (``canonical``: every NaN as "NaN")."""
    sig = model.signal
    out = {**envelope("raskat-signal", f"v{sig.version}"), "container": model.container}
    if model.container == "tar.xz":
        out["member"] = model.member
        if model.mtime and not canonical:
            out["mtime"] = model.mtime
    if isinstance(sig, SignalV2):
        try:
            time = sig.time.decode("ascii")
        except UnicodeDecodeError:
            raise CaseError(f"the time field {sig.time!r} is not ASCII text (RSIG-TIME-001)", "time") from None
        out.update(time=time, microseconds=sig.microseconds,
                   **{n: _fixed_out(getattr(sig, n), canonical) for n in _FIXED_NAMES}, sample_rate=sig.sample_rate)
        if sig.version == 2:
            out["flags"] = sig.flags
        out["samples"] = list(sig.samples)
        return out
    for name, value in zip(FIELD_NAMES, sig.fields):
        out[name] = _json_value(value, name, canonical)
    if sig.leads and not canonical:
        out["msgpack"] = {path: f"0x{lead:02x}" for path, lead in sig.leads}
    return out


def _leads_in(v: Any) -> tuple[tuple[str, int], ...] | None:
    leads = []
    for path, text in expect_object(v, "msgpack").items():
        lead = expect_str(text, f"msgpack.{path}")
        try:
            byte = int(lead, 16) if lead[:2].lower() == "0x" and len(lead) == 4 else -1
        except ValueError:
            byte = -1
        if byte < 0:
            raise CaseError(f"a lead byte is 0x and 2 hex digits, not {lead!r}", f"msgpack.{path}")
        leads.append((path, byte))
    return tuple(leads) or None


def _fixed_out(fixed: Fixed, canonical: bool) -> Any:
    """A v1/v2 coordinate: its value, or (lossless) its stored parts where the value does not give them
    back (millionths of a million or more: a value of several splits)."""
    if not canonical:
        try:
            same = fixed_from_degrees(fixed.value) == fixed
        except EncodeError:
            same = False
        if not same:
            return {"int_part": fixed.int_part, "frac": fixed.frac}
    return float_out(fixed.value, canonical)


def _fixed_in(v: Any, path: str) -> Fixed:
    if isinstance(v, Mapping) and list(v) != ["nan"]:  # {"nan": ...} is a float, which no v2 coordinate holds
        parts = expect_object(v, path, ("int_part", "frac"))
        return Fixed(expect_int(parts["int_part"], f"{path}.int_part", 0, 0xFFFF),
                     expect_int(parts["frac"], f"{path}.frac", 0, 2**32 - 1))
    return fixed_from_degrees(float_in(v, path), path)


def _json_value(v: Any, path: str, canonical: bool) -> Any:
    if isinstance(v, float):
        return float_out(v, canonical)
    if isinstance(v, (tuple, list)):
        return [_json_value(x, f"{path}[{i}]", canonical) for i, x in enumerate(v)]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    raise CaseError(f"a {type(v).__name__} value has no case (only JSON's types do)", path)


def _typed_in(v: Any, path: str) -> Any:
    """A v3/v4 field as the MessagePack value to store: the JSON type decides (``1.0`` a float64)."""
    if isinstance(v, str) and v in ("NaN", "Infinity", "-Infinity"):
        return v  # a string field; a non-finite double is only written where a double belongs
    if isinstance(v, list):
        return tuple(_typed_in(x, f"{path}[{i}]") for i, x in enumerate(v))
    if isinstance(v, Mapping) and list(v) == ["nan"]:
        return float_in(v, path)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise CaseError(f"not a JSON value: {v!r}", path)


_DOUBLES = {"coordinate_1", "coordinate_2", "altitude", "vref"}
#: In a double's place these strings are the non-finite doubles; any other string is a string of the wrong type.
_NON_FINITE_NAMES = ("NaN", "Infinity", "-Infinity")


def from_case(case: Mapping[str, Any]) -> SignalFile:
    """The signal file a case describes; :class:`recspec.errors.EncodeError` for a well-formed case the format
    cannot hold (a negative v1/v2 coordinate), :class:`CaseError` for a malformed one."""
    variant = check_envelope(case, "raskat-signal", ("v1", "v2", "v3", "v4"))
    version = int(variant[1:])  # type: ignore[index]
    container = case.get("container", "raw")
    if container not in ("raw", "tar.xz"):
        raise CaseError("container is \"raw\" or \"tar.xz\"", "container")
    head = ("recspec_case", "format", "variant", "container")
    member = None
    mtime = 0
    if container == "tar.xz" and "member" in case:
        member = expect_str(case["member"], "member")
    if container == "tar.xz" and "mtime" in case:
        mtime = expect_int(case["mtime"], "mtime", 0, 8**11 - 1)
    if version <= 2:
        names = _V2_FIELDS if version == 2 else tuple(n for n in _V2_FIELDS if n != "flags")
        obj = expect_object(case, "", names, (*head, "member", "mtime"))
        time = expect_str(obj["time"], "time").encode("utf-8")
        microseconds = expect_int(obj["microseconds"], "microseconds", 0, 2**32 - 1)
        longitude, latitude, altitude = (_fixed_in(obj[n], n) for n in _FIXED_NAMES)
        sig: SignalV2 | SignalMsgpack = SignalV2(
            version, time, microseconds, longitude, latitude, altitude,
            expect_int(obj["sample_rate"], "sample_rate", 0, 2**32 - 1),
            expect_int(obj["flags"], "flags", 0, 255) if version == 2 else None,
            tuple(expect_int(s, f"samples[{i}]", -0x8000, 0x7FFF)
                  for i, s in enumerate(expect_list(obj["samples"], "samples"))))
    else:
        names = FIELD_NAMES[:12] if version == 3 else FIELD_NAMES
        obj = expect_object(case, "", names, (*head, "member", "mtime", "msgpack"))
        fields = []
        for n in names:
            v = obj[n]
            double = isinstance(v, (float, Mapping)) or (isinstance(v, str) and v in _NON_FINITE_NAMES)
            fields.append(float_in(v, n) if n in _DOUBLES and double else _typed_in(v, n))
        sig = SignalMsgpack(version, tuple(fields), _leads_in(obj["msgpack"]) if "msgpack" in obj else None)
    return SignalFile(container, sig, member, mtime)


def case_schema() -> dict[str, Any]:
    """The JSON Schema of a raSkat case (its clause of ``recspec/schemas/case-2.schema.json``)."""
    time = {"type": "string", "description": "14 ASCII digits, %Y%m%d%H%M%S, UTC"}
    u32 = {"type": "integer", "minimum": 0, "maximum": 4294967295}
    parts = {"type": "object", "additionalProperties": False, "required": ["int_part", "frac"],
             "properties": {"int_part": {"type": "integer", "minimum": 0, "maximum": 65535}, "frac": u32},
             "description": "the stored parts, where no value gives them back (frac of 1000000 or more)"}
    coord = {"oneOf": [*float_schema()["oneOf"], parts],
             "description": "degrees: a whole number of millionths in 0 .. 65535.999999 (a negative value is one "
                            "the layout cannot hold: a writer must refuse it)"}
    v2 = {"properties": {"variant": {"enum": ["v1", "v2"]}, "time": time, "microseconds": u32, "longitude": coord,
                         "latitude": coord, "altitude": coord, "sample_rate": u32,
                         "flags": {"type": "integer", "minimum": 0, "maximum": 255},
                         "samples": {"type": "array", "items": {"type": "integer", "minimum": -32768,
                                                                "maximum": 32767}}},
          "required": ["time", "microseconds", "longitude", "latitude", "altitude", "sample_rate", "samples"]}
    v3 = {"properties": {"variant": {"enum": ["v3", "v4"]}, **{n: {"description": f"MessagePack field {i + 1}"}
                                                              for i, n in enumerate(FIELD_NAMES)}},
          "required": list(FIELD_NAMES[:12])}
    return {"type": "object",
            "properties": {"container": {"enum": ["raw", "tar.xz"]}, "member": {"type": "string"},
                           "mtime": {"type": "integer", "minimum": 0, "maximum": 8**11 - 1,
                                     "description": "the tar member's modification time; left out: 0"},
                           "msgpack": {"type": "object",
                                       "additionalProperties": {"type": "string", "pattern": "^0[xX][0-9a-fA-F]{2}$"},
                                       "description": "v3/v4: the lead byte of each object stored wider than the "
                                                      "smallest form (a uint 32 for a small number, a float 32, an "
                                                      "array 16 of 3), by path: field name, then [index] inside"}},
            "oneOf": [v2, v3]}


def _millionth_floor(expected: Any, actual: Any, path: str) -> bool:
    if path not in _FIXED_NAMES or not isinstance(expected, float) or not isinstance(actual, float):
        return False
    return round(expected * 1_000_000) - round(actual * 1_000_000) == 1


#: The tolerances that are not about float widths: name -> (expected, actual, JSON path) -> equal under it.
CASE_TOLERANCE_CHECKS = {"millionth-floor": _millionth_floor}
