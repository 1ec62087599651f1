"""The format registry: which formats recspec knows and how a file is matched to one.

Each entry names the module that implements it (imported on first use, so the
CLI starts fast); the module exposes the :class:`FormatModule` functions.
Content decides the format: ``sniff`` looks at the first bytes; the file
extension only breaks ties and names the format of a file no sniffer claims.
"""

from __future__ import annotations

import difflib
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, BinaryIO, Callable, Mapping, Protocol, Sequence

from .errors import UsageError
from .report import FileReport, Rule

__all__ = ["FORMATS", "SNIFF_BYTES", "FormatInfo", "FormatModule", "resolve_format", "sniff"]

#: How many leading bytes sniffers see.
SNIFF_BYTES = 4096


class FormatModule(Protocol):
    RULES: Sequence[Rule]

    def sniff(self, head: bytes) -> float: ...

    def check(self, f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
              cross_check: bool, cross_check_limit: int = ...,
              progress: Callable[..., None] | None = None) -> FileReport: ...

    def dump(self, f: BinaryIO, out: Any, *, variant: str | None, ksy: bool) -> None: ...


@dataclass(frozen=True)
class FormatInfo:
    id: str
    title: str
    aliases: tuple[str, ...]
    extensions: tuple[str, ...]
    variants: tuple[str, ...]
    profiles: tuple[str, ...]
    default_profile: str
    module: str

    def load(self) -> FormatModule:
        # sys.modules first: import_module costs ~25 us even for a loaded module,
        # which shows when a folder holds 100,000 small files
        loaded = sys.modules.get(self.module)
        return loaded if loaded is not None else importlib.import_module(self.module)  # type: ignore[return-value]

    def check_variant(self, variant: str | None) -> None:
        if variant is not None and variant not in self.variants:
            raise UsageError(f"{self.id} has no variant {variant!r}",
                             f"choose one of: {', '.join(self.variants)}")

    def check_profile(self, profile: str | None) -> str:
        if profile is None:
            return self.default_profile
        if profile not in self.profiles:
            raise UsageError(f"{self.id} has no profile {profile!r}", f"choose one of: {', '.join(self.profiles)}")
        return profile


FORMATS: Mapping[str, FormatInfo] = MappingProxyType({
    "carla": FormatInfo(
        id="carla",
        title="CARLA simulator recorder log",
        aliases=("carla-recorder", "carla_recorder"),
        extensions=(".log", ".rec"),
        variants=("0.9.4-0.9.5", "0.9.6-0.9.9", "0.9.10-0.9.11", "0.9.12-0.9.13", "0.9.14", "0.9.15",
                  "dev-2023", "0.9.16", "ue5"),
        profiles=("spec", "compat"),
        default_profile="spec",
        module="recspec.conformance.carla",
    ),
    "nanover": FormatInfo(
        id="nanover",
        title="NanoVer recording (.traj frames, .state shared state)",
        aliases=("nanover-recording", "nanover_recording", "narupa"),
        extensions=(".traj", ".state"),
        variants=("traj", "state"),
        profiles=("spec", "compat"),
        default_profile="spec",
        module="recspec.conformance.nanover",
    ),
    "raskat-signal": FormatInfo(
        id="raskat-signal",
        title="raSkat lightning-detector signal file",
        aliases=("raskat", "sig", "raskat_signal"),
        extensions=(".sig",),
        variants=("v1", "v2", "v3", "v4"),
        profiles=("spec", "compat"),
        default_profile="spec",
        module="recspec.conformance.raskat_signal",
    ),
    "matrix-smt": FormatInfo(
        id="matrix-smt",
        title="Matrix-SMT simulation recording (BSON)",
        aliases=("matrix", "smt", "matrix_smt", "matrix-smt-record"),
        extensions=(".bson",),
        variants=(),
        profiles=("spec", "compat"),
        default_profile="spec",
        module="recspec.conformance.matrix_smt",
    ),
})


def resolve_format(name: str) -> FormatInfo:
    """A format by id or alias, case-insensitive; a UsageError with a suggestion otherwise."""
    key = name.lower()
    for info in FORMATS.values():
        if key == info.id or key in info.aliases:
            return info
    names = [n for info in FORMATS.values() for n in (info.id, *info.aliases)]
    close = difflib.get_close_matches(key, names, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known formats: {', '.join(FORMATS)}"
    raise UsageError(f"unknown format {name!r}", hint)


def sniff(head: bytes, path: str | Path | None = None) -> tuple[FormatInfo | None, float]:
    """The best-matching format for a file's first bytes, with its confidence.

    Content decides; the extension counts only as a tie-break (0.01).
    """
    suffix = Path(path).suffix.lower() if path is not None else ""
    best: FormatInfo | None = None
    best_score = 0.0
    for info in FORMATS.values():
        score = info.load().sniff(head)
        if score > 0 and suffix in info.extensions:
            score += 0.01
        if score > best_score:
            best, best_score = info, score
    return best, best_score


def by_extension(path: str | Path) -> FormatInfo | None:
    suffix = Path(path).suffix.lower()
    for info in FORMATS.values():
        if suffix in info.extensions:
            return info
    return None
