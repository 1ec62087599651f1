"""Cases per format, as drive uses them: what to draw, the reference file of a case, a file's case.

Everything here goes through the registry: each format's public codec
(``to_case``/``from_case``/``encode``/``decode``) and its plugin's drive members
(``drive_cases``: which strategy draws its cases, with what knobs; ``field_path``;
``EQUIVALENCES``), so a new format needs no edit here.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from hypothesis import strategies as st

from recspec._case_json import CaseError, Difference, first_difference
from recspec.errors import EncodeError, UsageError
from recspec.formats import FormatInfo

__all__ = ["Reference", "case_strategy", "compare", "decode_case", "drive_variants", "field_path", "reference_file",
           "tolerances_for"]

def drive_variants(info: FormatInfo, variant: str | None) -> list[str | None]:
    """The variants drive runs: the one named, or every variant but the legacy ones a spec writer never
    targets (``FormatInfo.legacy_variants``)."""
    if variant is not None:
        info.check_variant(variant)
        return [variant]
    if not info.variants:
        return [None]
    return [v for v in info.variants if v not in info.legacy_variants]


def case_strategy(info: FormatInfo, variant: str | None, profile: str, *, max_size: int = 4
                  ) -> st.SearchStrategy[dict[str, Any]]:
    """Valid cases of one format and variant (and, where the writer's terms allow values the format cannot
    store, such cases too: a writer must refuse them): the plugin's ``drive_cases``."""
    return cast("st.SearchStrategy[dict[str, Any]]", info.load().drive_cases(variant, profile, max_size))


@dataclass(frozen=True)
class Reference:
    """What the reference codec makes of a case: its file, or why the format cannot hold it."""

    data: bytes | None
    refusal: str | None = None


def _profile_kwargs(fn: Callable[..., Any], profile: str) -> dict[str, Any]:
    return {"profile": profile} if "profile" in inspect.signature(fn).parameters else {}


def reference_file(info: FormatInfo, case: Mapping[str, Any], profile: str) -> Reference:
    """The canonical file of ``case`` under ``profile``; :class:`CaseError` for a malformed case."""
    codec = info.load_reference()
    try:
        model = codec.from_case(case)
        return Reference(codec.encode(model, variant=case.get("variant"), **_profile_kwargs(codec.encode, profile)))
    except CaseError:
        raise
    except EncodeError as e:
        return Reference(None, str(e))


def decode_case(info: FormatInfo, data: bytes, variant: str | None, *, canonical: bool = True) -> dict[str, Any]:
    """The case of a file by the reference decoder; DecodeError or CaseError when it has none. Canonical
    (the content, what drive compares) unless ``canonical`` is False (the lossless case of ``recspec case``)."""
    codec = info.load_reference()
    return codec.to_case(codec.decode(data, variant=variant), variant=variant, canonical=canonical)


def tolerances_for(info: FormatInfo, names: Sequence[str]) -> tuple[str, ...]:
    """Check ``--tolerance`` names against what the format declares."""
    declared = info.load_reference().CASE_TOLERANCES
    for name in names:
        if name not in declared:
            raise UsageError(f"{info.id} declares no tolerance {name!r}",
                             "declared: " + "; ".join(f"{k}: {v}" for k, v in declared.items()))
    return tuple(names)


def compare(info: FormatInfo, expected: Any, actual: Any, tolerances: Sequence[str], profile: str = "spec"
            ) -> Difference | None:
    """The first difference between two cases, within the named tolerances and the profile's value
    equivalences (``_equivalences.py``: none under spec)."""
    from ._equivalences import equivalences_for

    special = dict(info.load_reference().CASE_TOLERANCE_CHECKS)
    names = list(tolerances)
    for eq in equivalences_for(info.id, profile):
        special[f"{profile}:{eq.name}"] = eq.same
        names.append(f"{profile}:{eq.name}")
    return first_difference(expected, actual, names, special)


_INDEX = re.compile(r"\[\d+\]")


def field_path(info: FormatInfo, path: str) -> str:
    """The field a case's JSON path is in: list indices dropped (``records.frame.arrays.bond.orders.float``), and
    the keys that are data rather than field names (a NanoVer frame's own keys) made ``*``. Failures at one field
    are one failure, whichever record or element they are found in."""
    return info.load().field_path(_INDEX.sub("", path))
