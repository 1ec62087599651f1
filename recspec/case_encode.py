"""``recspec encode CASE.json``: the reference encoder on the command line.

A case (``recspec case FILE``, or one written by hand: recspec/schemas/case-2.schema.json)
names its format and variant; the reference codec turns it into the file. A
lossless case gives back the bytes it was read from; a canonical one (or a field
left out) gives the canonical encoding. A case the format cannot hold is
refused with the JSON path and why, the same messages ``recspec drive`` gives:
:class:`recspec._case_json.CaseError` for a malformed case,
:class:`recspec.errors.EncodeError` for a well-formed one the format cannot
store (a negative raSkat v2 coordinate).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from ._case_json import CaseError, expect_object
from .errors import InputError, UsageError
from .formats import FORMATS, resolve_format

__all__ = ["encode_case", "read_case"]


def read_case(path: Path) -> Any:
    """The JSON of a case file (``-``: standard input is the caller's); :class:`InputError` when it cannot
    be read, :class:`CaseError` when it is not JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: {e.strerror if isinstance(e, OSError) else e}", str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CaseError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None


def encode_case(case: Any, *, format: str | None = None, variant: str | None = None,
                profile: str | None = None) -> bytes:
    """The file ``case`` describes, by the reference encoder.

    ``format`` / ``variant`` fill in what the case leaves out and must agree with what it says;
    ``profile`` is the encoder profile where a format has several ways to write one case (Matrix-SMT:
    ``spec``, ``compat``; by default the case's ``form``)."""
    obj = dict(expect_object(case, ""))
    if format is not None:
        info = resolve_format(format)
        if obj.setdefault("format", info.id) != info.id:
            raise CaseError(f"the case is for {obj['format']!r}, not {info.id} (--format)", "format")
    elif not isinstance(obj.get("format"), str) or obj["format"] not in FORMATS:
        raise CaseError(f"format must be one of {', '.join(FORMATS)}, not {obj.get('format')!r} "
                        "(or name it with --format)", "format")
    info = FORMATS[obj["format"]]
    if variant is not None:
        info.check_variant(variant)
        if obj.setdefault("variant", variant) != variant:
            raise CaseError(f"the case is for variant {obj['variant']!r}, not {variant!r} (--variant)", "variant")
    obj.setdefault("variant", None)
    codec = info.load_reference()
    model = codec.from_case(obj)
    options: dict[str, Any] = {}
    if profile is not None:
        if "profile" not in inspect.signature(codec.encode).parameters:
            raise UsageError(f"{info.id} has one way to write a case: --profile does not apply")
        options["profile"] = profile
    return bytes(codec.encode(model, variant=obj["variant"], **options))

