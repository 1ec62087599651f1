"""Cases per format, as drive uses them: what to draw, the reference file of a case, a file's case.

Everything here goes through the registry and each format's public codec
(``to_case``/``from_case``/``encode``/``decode``) and strategies, so a new format
needs only its own entry in :data:`_DRAW` (which strategy draws its cases,
with what knobs). An entry imports its ``*_cases`` strategy from the plugin's
``_strategies`` module (what the plugin's ``STRATEGIES`` and ``recspec.strategies``
hand out), on first use and by name, so the type checker sees its signature.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from recspec._case_json import CaseError, Difference, first_difference
from recspec.errors import EncodeError, UsageError
from recspec.formats import FormatInfo

__all__ = ["Reference", "case_strategy", "compare", "decode_case", "drive_variants", "field_path", "reference_file",
           "tolerances_for"]

#: Variants drive runs when none is named: every variant but the legacy ones a spec writer never targets.
_LEGACY = {"raskat-signal": ("v1",)}


def drive_variants(info: FormatInfo, variant: str | None) -> list[str | None]:
    if variant is not None:
        info.check_variant(variant)
        return [variant]
    if not info.variants:
        return [None]
    return [v for v in info.variants if v not in _LEGACY.get(info.id, ())]


def _carla(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from recspec.conformance.carla._strategies import carla_cases

    return carla_cases(variant, max_frames=max_size)


def _nanover(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from recspec.conformance.nanover._strategies import nanover_cases

    return nanover_cases(variant, max_records=max_size)


def _raskat(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from recspec.conformance.raskat_signal._strategies import raskat_cases

    # the document's container is tar.xz; what the raSkat writer (and compat) writes is the raw signal
    version = int(variant[1:]) if variant else None
    return raskat_cases(version, container="tar.xz" if profile == "spec" else "raw",
                        max_samples=8 * max(max_size, 1), negative_coordinates=True)


def _matrix(variant: str | None, profile: str, max_size: int) -> st.SearchStrategy[dict[str, Any]]:
    from recspec.conformance.matrix_smt._strategies import matrix_cases

    return matrix_cases(max_frames=max_size)


#: format id -> (variant, profile, size bound) -> the cases drive hands a writer.
_DRAW: Mapping[str, Callable[[str | None, str, int], st.SearchStrategy[dict[str, Any]]]] = {
    "carla": _carla, "nanover": _nanover, "raskat-signal": _raskat, "matrix-smt": _matrix,
}


def case_strategy(info: FormatInfo, variant: str | None, profile: str, *, max_size: int = 4
                  ) -> st.SearchStrategy[dict[str, Any]]:
    """Valid cases of one format and variant (and, where the writer's terms allow values the format cannot
    store, such cases too: a writer must refuse them)."""
    return _DRAW[info.id](variant, profile, max_size)


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
#: NanoVer's open maps: a frame's values and arrays, a state update. Their keys are data, except the standard ones.
_NANOVER_MAPS = re.compile(r"(records\.frame\.values|records\.frame\.arrays|records\.update)\.(.*)")


def _nanover_field_path(path: str) -> str:
    m = _NANOVER_MAPS.fullmatch(path)
    if m is None:
        return path
    from recspec.conformance.nanover._check import STANDARD_ARRAYS, STANDARD_NUMBERS

    head, rest = m.groups()
    for key in sorted((*STANDARD_ARRAYS, *STANDARD_NUMBERS), key=len, reverse=True):
        if rest == key or rest.startswith(key + "."):
            return f"{head}.{rest}"
    return f"{head}.*"  # any other key: one field, whatever its name and content


#: format id -> a field path (indices dropped) with the names that are data, not fields, made ``*``.
_FIELD_PATHS: Mapping[str, Callable[[str], str]] = {"nanover": _nanover_field_path}


def field_path(info: FormatInfo, path: str) -> str:
    """The field a case's JSON path is in: list indices dropped (``records.frame.arrays.bond.orders.float``), and
    the keys that are data rather than field names (a NanoVer frame's own keys) made ``*``. Failures at one field
    are one failure, whichever record or element they are found in."""
    plain = _INDEX.sub("", path)
    fn = _FIELD_PATHS.get(info.id)
    return fn(plain) if fn is not None else plain
