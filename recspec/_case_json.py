"""What every format's case codec shares: the envelope, numbers, located errors, equality.

A *case* is the content of one recording in a writer's terms, as JSON: what a
writer is asked to write (``recspec drive writer``) and what a reader is asked
to print (``recspec drive reader``). Each format's reference package has its
codec (``reference/<package>/_case.py``: ``to_case``, ``from_case``,
``case_schema``); this module is the part they share, so a case reads the same
way in every format:

* the envelope ``{"recspec_case": 2, "format": ..., "variant": ..., ...}``
  (version 1 cases are still read: version 2 only added fields, each of which
  means the canonical form when left out);
* numbers: JSON numbers, except the non-finite ones, written as the strings
  ``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` (JSON has no literal for them);
  a field typed float keeps ``1.0`` a float and ``-0.0`` negative; a NaN whose
  bits are not the canonical quiet NaN (a sign, a payload) is ``{"nan": "0x..."}``
  with its bits (:func:`nan_out`);
* a malformed case raises :class:`CaseError` naming the JSON path of the fault.

A case comes in two forms. The *lossless* one (``to_case(model)``) says
everything the decoder saw that changes the file's bytes, so that
``encode(from_case(to_case(decode(f)))) == f``; the *canonical* one
(``to_case(model, canonical=True)``, ``recspec case --canonical``) leaves out
every such detail: it is the content alone, what a writer is asked to write and
a reader to print. Every detail field is optional and, left out, means the
format's canonical encoding, so a canonical case is also a lossless case of the
canonical file.

:func:`first_difference` is the case equality every comparison uses: floats by
value with NaN equal to NaN and ``-0.0`` apart from ``0.0``, ints apart from
floats, and the tolerances a format declares (``float32``: a double may come
back as the nearest float32).
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Callable, Collection, Mapping
from typing import Any

from .errors import UsageError

__all__ = [
    "CASE_VERSION",
    "CASE_VERSIONS_READ",
    "CaseError",
    "Difference",
    "case_text",
    "check_envelope",
    "dataclass_in",
    "dataclass_out",
    "dataclass_schema",
    "envelope",
    "expect_bool",
    "expect_int",
    "expect_list",
    "expect_object",
    "expect_str",
    "first_difference",
    "float_in",
    "float_out",
    "float_schema",
    "int_schema",
    "nan_out",
    "nan_schema",
    "to_float32",
]

#: The case description's version: ``recspec_case`` in every case written; bumped when a field changes meaning.
#: 2 added the lossless detail fields (NaN bits, entry order, encoding forms), each optional.
CASE_VERSION = 2
#: The versions ``from_case`` reads: a version 1 case is a version 2 case without detail fields.
CASE_VERSIONS_READ = (1, 2)
#: The bits of the canonical NaN, the one ``float("nan")`` and every encoder here write.
CANONICAL_NAN_BITS = 0x7FF8000000000000

_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


class CaseError(UsageError):
    """A case that is not a well-formed case of its format: the JSON path and what is wrong there."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message,
                         "`recspec case FILE` prints a well-formed case; "
                         f"the schema is recspec/schemas/case-{CASE_VERSION}.schema.json")
        self.path = path


def case_text(case: Any, indent: int | None = 1) -> str:
    """A case (or any JSON holding cases) as JSON text. A string the decoder kept with undecodable bytes
    (``surrogateescape``: a NanoVer key, a CARLA name that is not UTF-8) has no UTF-8 form; then the whole
    text is ASCII, with each such byte a ``\\udcXX`` escape, which every JSON reader reads back."""
    text = json.dumps(case, indent=indent, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(case, indent=indent, ensure_ascii=True)
    return text


def envelope(format_id: str, variant: str | None) -> dict[str, Any]:
    return {"recspec_case": CASE_VERSION, "format": format_id, "variant": variant}


def check_envelope(case: Any, format_id: str, variants: Collection[str]) -> str | None:
    """The case's variant, after checking its envelope."""
    obj = expect_object(case, "")
    version = obj.get("recspec_case")
    if isinstance(version, bool) or version not in CASE_VERSIONS_READ:
        raise CaseError(f"recspec_case must be one of {', '.join(map(str, CASE_VERSIONS_READ))}, not {version!r}",
                        "recspec_case")
    if obj.get("format") != format_id:
        raise CaseError(f"this is a {format_id} codec; the case is for {obj.get('format')!r}", "format")
    variant = obj.get("variant")
    if variants and variant not in variants:
        raise CaseError(f"variant must be one of {', '.join(variants)}, not {variant!r}", "variant")
    if not variants and variant is not None:
        raise CaseError(f"{format_id} has no variants: variant must be null", "variant")
    return variant


def float_out(x: float, canonical: bool = False) -> Any:
    """A float as a case holds it: non-finite as a string, a NaN that is not the canonical one as
    :func:`nan_out` (in the canonical form, every NaN is ``"NaN"``)."""
    if math.isfinite(x):
        return x
    if math.isnan(x):
        return "NaN" if canonical else nan_out(x)
    return "Infinity" if x > 0 else "-Infinity"


def nan_out(x: float) -> str | dict[str, str]:
    """A NaN in a lossless case: ``"NaN"`` for the canonical quiet NaN, else ``{"nan": "0x..."}``.

    The hex digits are the NaN's bits: 8 digits (the float32 pattern, as a file storing a float32
    holds it) when the double is a float32 NaN widened (its low 29 mantissa bits are zero), else 16
    (the double's). ``0xffc00000`` is the float32 -NaN that CARLA 0.9.13 logs hold."""
    (bits,) = struct.unpack("<Q", struct.pack("<d", x))
    if bits == CANONICAL_NAN_BITS:
        return "NaN"
    if bits & 0x1FFFFFFF == 0:
        return {"nan": f"0x{struct.unpack('<I', struct.pack('<f', x))[0]:08x}"}
    return {"nan": f"0x{bits:016x}"}


def _nan_in(v: Any, path: str) -> float:
    text = expect_str(v, path)
    digits = text[2:] if text[:2].lower() == "0x" else ""
    if len(digits) not in (8, 16) or not all(c in "0123456789abcdefABCDEF" for c in digits):
        raise CaseError(f"expected 0x and 8 hex digits (float32 bits) or 16 (float64 bits), got {v!r}", path)
    bits = int(digits, 16)
    x = struct.unpack("<f" if len(digits) == 8 else "<d",
                      bits.to_bytes(len(digits) // 2, "little"))[0]
    if not math.isnan(x):
        raise CaseError(f"{text} is not the bits of a NaN (exponent all ones, a mantissa not zero)", path)
    return float(x)


def float_in(v: Any, path: str) -> float:
    """A case's float: a JSON number (an integer literal is taken as its float), a non-finite string,
    or ``{"nan": "0x..."}``."""
    if isinstance(v, bool):
        raise CaseError(f"expected a number, got {v!r}", path)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str) and v in _NON_FINITE:
        return _NON_FINITE[v]
    if isinstance(v, Mapping) and list(v) == ["nan"]:
        return _nan_in(v["nan"], f"{path}.nan")
    raise CaseError(f"expected a number (or \"NaN\", \"Infinity\", \"-Infinity\", {{\"nan\": \"0x...\"}}), "
                    f"got {v!r}", path)


def expect_int(v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise CaseError(f"expected an integer, got {v!r}", path)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise CaseError(f"{v} is outside {lo} .. {hi}", path)
    return v


def expect_str(v: Any, path: str) -> str:
    if not isinstance(v, str):
        raise CaseError(f"expected a string, got {v!r}", path)
    return v


def expect_bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise CaseError(f"expected true or false, got {v!r}", path)
    return v


def expect_list(v: Any, path: str, length: int | None = None) -> list[Any]:
    if not isinstance(v, (list, tuple)):
        raise CaseError(f"expected an array, got {type(v).__name__}", path)
    if length is not None and len(v) != length:
        raise CaseError(f"expected {length} elements, got {len(v)}", path)
    return list(v)


def expect_object(v: Any, path: str, required: Collection[str] = (),
                  optional: Collection[str] = ()) -> Mapping[str, Any]:
    """A JSON object with the required keys and no keys beyond ``required`` and ``optional``
    (``optional`` empty and ``required`` empty: any keys)."""
    if not isinstance(v, Mapping):
        raise CaseError(f"expected an object, got {type(v).__name__}", path)
    missing = [k for k in required if k not in v]
    if missing:
        raise CaseError(f"missing {', '.join(missing)}", path)
    if required or optional:
        extra = sorted(set(v) - set(required) - set(optional))
        if extra:
            raise CaseError(f"unknown key(s) {', '.join(map(repr, extra))}", path)
    return v


def nan_schema() -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": ["nan"],
            "description": "a NaN that is not the canonical quiet NaN: its float32 (8 hex digits) or float64 "
                           "(16) bits",
            "properties": {"nan": {"type": "string", "pattern": "^0[xX]([0-9a-fA-F]{8}|[0-9a-fA-F]{16})$"}}}


def float_schema() -> dict[str, Any]:
    return {"oneOf": [{"type": "number"}, {"enum": list(_NON_FINITE)}, nan_schema()]}


def int_schema(lo: int | None = None, hi: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "integer"}
    if lo is not None:
        out["minimum"] = lo
    if hi is not None:
        out["maximum"] = hi
    return out


def to_float32(x: float) -> float:
    """The float32 nearest ``x``, widened back (``x`` itself when out of float32 range)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", x))[0])  # unpack gives tuple[Any, ...]
    except (OverflowError, struct.error):
        return x


class Difference:
    """Where two cases part: the JSON path, and the value each holds there."""

    __slots__ = ("path", "expected", "actual")

    def __init__(self, path: str, expected: Any, actual: Any) -> None:
        self.path, self.expected, self.actual = path, expected, actual

    def __str__(self) -> str:
        return f"{self.path or '(the case)'}: expected {_show(self.expected)}, got {_show(self.actual)}"

    def to_json(self) -> dict[str, Any]:
        """``None`` stands for a value that is not there (``nothing`` in the text)."""
        return {"path": self.path, "expected": None if self.expected is _MISSING else self.expected,
                "actual": None if self.actual is _MISSING else self.actual}


_MISSING = object()


def _show(v: Any) -> str:
    if v is _MISSING:
        return "nothing"
    text = repr(v)
    return text if len(text) <= 120 else text[:117] + "..."


def _same_float(a: float, b: float, tolerances: Collection[str]) -> bool:
    if math.isnan(a) and math.isnan(b):
        return True
    if a == b and math.copysign(1.0, a) == math.copysign(1.0, b):
        return True
    return "float32" in tolerances and to_float32(a) == b and math.copysign(1.0, a) == math.copysign(1.0, b)


#: A per-format tolerance that is not about floats: (expected, actual, path) -> whether they count as equal.
Tolerance = Callable[[Any, Any, str], bool]


def first_difference(expected: Any, actual: Any, tolerances: Collection[str] = (),
                     special: Mapping[str, Tolerance] | None = None, path: str = "") -> Difference | None:
    """The first place where ``actual`` differs from ``expected``, or None when they are the same case.

    ``tolerances`` are the names in force: ``float32`` here, and any in ``special``
    (the format's own, tried before the exact comparison fails)."""
    for name in tolerances:
        if special and name in special and special[name](expected, actual, path):
            return None
    if isinstance(expected, float) and isinstance(actual, float):
        return None if _same_float(expected, actual, tolerances) else Difference(path, expected, actual)
    if type(expected) is not type(actual) and not (isinstance(expected, (list, tuple))
                                                   and isinstance(actual, (list, tuple))):
        return Difference(path, expected, actual)
    if isinstance(expected, Mapping):
        for key in expected:
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                return Difference(sub, expected[key], _MISSING)
            d = first_difference(expected[key], actual[key], tolerances, special, sub)
            if d is not None:
                return d
        for key in actual:
            if key not in expected:
                return Difference(f"{path}.{key}" if path else str(key), _MISSING, actual[key])
        return None
    if isinstance(expected, (list, tuple)):
        for i, (x, y) in enumerate(zip(expected, actual)):
            d = first_difference(x, y, tolerances, special, f"{path}[{i}]")
            if d is not None:
                return d
        if len(expected) != len(actual):
            i = min(len(expected), len(actual))
            return Difference(f"{path}[{i}]", expected[i] if i < len(expected) else _MISSING,
                              actual[i] if i < len(actual) else _MISSING)
        return None
    return None if expected == actual else Difference(path, expected, actual)


# --- dataclass models <-> case objects ---------------------------------------------------------
#
# Models whose fields are ints, floats, strings, optional values, tuples and nested dataclasses
# (CARLA's records) map to a case mechanically: a dataclass is an object with its field names,
# except the small value types named in ``as_array``, which are arrays of their fields
# (a location is [x, y, z]).


def _hints(cls: type) -> dict[str, Any]:
    import typing

    return typing.get_type_hints(cls)


def _fields(cls: type) -> list[str]:
    import dataclasses

    return [f.name for f in dataclasses.fields(cls)]


def dataclass_out(obj: Any, as_array: Collection[type] = (), canonical: bool = False) -> Any:
    """A model value as case JSON."""
    import dataclasses

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        values = [dataclass_out(getattr(obj, name), as_array, canonical) for name in _fields(type(obj))]
        if type(obj) in as_array:
            return values
        return dict(zip(_fields(type(obj)), values))
    if isinstance(obj, float):
        return float_out(obj, canonical)
    if isinstance(obj, (tuple, list)):
        return [dataclass_out(x, as_array, canonical) for x in obj]
    if isinstance(obj, bytes):
        return obj.hex()
    return obj


def _type_in(tp: Any, v: Any, path: str, as_array: Collection[type]) -> Any:
    import dataclasses
    import types
    import typing

    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if v is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _type_in(inner, v, path, as_array)
    if origin is tuple:
        args = typing.get_args(tp)
        return tuple(_type_in(args[0], x, f"{path}[{i}]", as_array) for i, x in enumerate(expect_list(v, path)))
    if tp is float:
        return float_in(v, path)
    if tp is int:
        return expect_int(v, path)
    if tp is str:
        return expect_str(v, path)
    if tp is bool:
        return expect_bool(v, path)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):  # a class, never an instance: an annotation
        return dataclass_in(tp, v, path, as_array)
    raise TypeError(f"no case mapping for {tp!r}")  # pragma: no cover - a model type nobody mapped


def dataclass_in(cls: type, v: Any, path: str, as_array: Collection[type] = ()) -> Any:
    """A model value from case JSON; :class:`CaseError` at the first misfit."""
    names = _fields(cls)
    hints = _hints(cls)
    if cls in as_array:
        items = expect_list(v, path, len(names))
        return cls(*(_type_in(hints[n], x, f"{path}[{i}]", as_array) for i, (n, x) in enumerate(zip(names, items))))
    obj = expect_object(v, path, names)
    return cls(*(_type_in(hints[n], obj[n], f"{path}.{n}", as_array) for n in names))


def _type_schema(tp: Any, as_array: Collection[type]) -> dict[str, Any]:
    import dataclasses
    import types
    import typing

    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        return {"oneOf": [{"type": "null"}, _type_schema(inner, as_array)]}
    if origin is tuple:
        return {"type": "array", "items": _type_schema(typing.get_args(tp)[0], as_array)}
    if tp is float:
        return float_schema()
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if tp is bool:
        return {"type": "boolean"}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):  # a class, never an instance: an annotation
        return dataclass_schema(tp, as_array)
    raise TypeError(f"no case schema for {tp!r}")  # pragma: no cover


def dataclass_schema(cls: type, as_array: Collection[type] = ()) -> dict[str, Any]:
    """The JSON Schema of a model class's case form."""
    hints = _hints(cls)
    names = _fields(cls)
    if cls in as_array:
        return {"type": "array", "description": f"[{', '.join(names)}]",
                "prefixItems": [_type_schema(hints[n], as_array) for n in names],
                "minItems": len(names), "maxItems": len(names)}
    return {"type": "object", "required": names, "additionalProperties": False,
            "properties": {n: _type_schema(hints[n], as_array) for n in names}}
