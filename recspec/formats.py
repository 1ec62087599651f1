"""The format registry: every format recspec knows, and the contract each one fulfils.

A format is one :class:`FormatInfo` entry in :data:`FORMATS` plus its own folders:

* ``reference/<package>/`` (``recspec.reference.<package>``): the reference codec,
  a module that satisfies :class:`ReferenceCodec`;
* ``conformance/<package>/`` (``recspec.conformance.<package>``): the plugin, a
  module that satisfies :class:`FormatModule` (rules, sniff, check, dump, seeds,
  strategies, the Kaitai comparison);
* ``fuzz/<package>.py`` (``recspec.fuzz.<package>``): the atheris harnesses
  (``recspec.fuzz.FuzzHarness``) and ``fuzz/dictionaries/<id>.dict``;
* ``ksy/``, ``corpus/<id>/``, ``docs/formats/<id>.md``.

``<package>`` is the format id with ``-`` as ``_`` (``raskat-signal`` ->
``raskat_signal``). Everything that serves all formats (the CLI and its help,
``recspec corpus``, ``recspec reproduce``, the fuzz runner, ``recspec.strategies``,
the report schema's stats keys) iterates this registry instead of keeping its own
list; ``tests/test_format_contract.py`` fails when a registered format lacks a
member of the contract. ARCHITECTURE.md, "Adding a format", is the checklist.

Entries hold only static facts, so the registry imports nothing heavy: a plugin
module is imported on first use (``FormatInfo.load``). Content decides the
format where a sniffer recognises the first bytes; the file extension is weaker
evidence (``EXTENSION_EVIDENCE``), which outweighs a guess from a byte or two and names
the format of a file whose damaged header no sniffer claims.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import (
    TYPE_CHECKING,
    Any,
    BinaryIO,
    Protocol,
    TextIO,
    cast,
)

from ._paths import path_suffix
from .errors import UsageError

if TYPE_CHECKING:
    from .report import FileReport, Finding, Rule

__all__ = [
    "EXTENSION_EVIDENCE",
    "FORMATS",
    "SNIFF_BYTES",
    "CheckFunction",
    "Divergence",
    "FormatInfo",
    "FormatModule",
    "KaitaiComparison",
    "ReferenceCodec",
    "Seed",
    "by_extension",
    "resolve_format",
    "sniff",
    "sniff_evidence",
]

#: How many leading bytes sniffers see.
SNIFF_BYTES = 4096

#: A progress callback: (bytes done, bytes in all[, phase]).
Progress = Callable[..., None]


@dataclass(frozen=True)
class Seed:
    """One generated corpus file and what recspec must say about it.

    ``expect`` maps a profile to (verdict, the rule ids reported at warning level
    or above, and no others); ``variant`` is the variant the file holds (``None``
    for a format with one layout, or a file not checked with a forced variant)."""

    name: str  # path under corpus/<format id>/
    data: bytes
    variant: str | None = None
    expect: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    description: str = ""


@dataclass(frozen=True)
class Divergence:
    """A place where the Kaitai reading (or another independent reader) and the
    reference part: reported as the format's ``*-XCHECK-001`` rule."""

    message: str
    offset: int = 0
    path: str = ""
    reader: str = "kaitai"

    def __str__(self) -> str:
        return f"@{self.offset} {self.path}: {self.message}" if self.path else f"@{self.offset}: {self.message}"


class KaitaiComparison(Protocol):
    """How ``recspec reproduce`` sets a format's Kaitai reading beside the reference's."""

    #: The rule a divergence is reported as (``<PREFIX>-XCHECK-001``).
    rule: str

    def readings(self, data: bytes, variant: str | None) -> list[tuple[str, str, int | None]]:
        """One ``(reader, "accepts (...)" or "rejects: ...", offset of the rejection)`` per independent reader."""
        ...

    def divergences(self, data: bytes, variant: str | None) -> list[Divergence]:
        """Every place where the readings part (empty when they agree)."""
        ...

    def located(self, findings: Sequence[Finding]) -> list[Finding]:
        """The findings whose offsets are offsets into ``data`` (so a hex window of it shows them)."""
        ...


class CheckFunction(Protocol):
    """A format's ``check``: one file's report. ``run_files`` is the size of the `recspec check` run the
    file is checked in (``None``: a file checked on its own), which the default cross-check of a long
    run reads to sample its files (conformance/_plugin.py ``cross_check_within``)."""

    def __call__(self, f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
                 cross_check: bool | str, cross_check_limit: int = ..., progress: Progress | None = None,
                 run_files: int | None = None) -> FileReport: ...


class FormatModule(Protocol):
    """The plugin: what ``recspec.conformance.<package>`` exports."""

    RULES: Sequence[Rule]
    RULES_BY_ID: Mapping[str, Rule]
    #: Hypothesis strategies by public name; ``recspec.strategies`` re-exports them.
    STRATEGIES: Mapping[str, Callable[..., Any]]
    #: The Kaitai (and other independent readers') comparison for ``reproduce``.
    KAITAI: KaitaiComparison

    def sniff(self, head: bytes) -> float: ...

    def check(self, f: BinaryIO, *, path: str, variant: str | None, profile: str, size: int,
              cross_check: bool | str, cross_check_limit: int = ..., progress: Progress | None = None,
              run_files: int | None = None) -> FileReport: ...

    def dump(self, f: BinaryIO, out: TextIO, *, variant: str | None, ksy: bool) -> None: ...

    def seeds(self) -> Iterable[Seed]: ...


class ReferenceCodec(Protocol):
    """The reference codec: what ``recspec.reference.<package>`` exports, the same surface for every format.

    ``decode``/``encode`` take and give the whole file's model; ``iter_units``
    streams a file object in memory that does not grow with the file (each format
    also names it for its unit: ``iter_packets``, ``iter_records``, ...)."""

    #: What one streamed item is ("packet", "record", "signal", "frame").
    UNIT: str

    def decode(self, data: bytes, *, variant: str | None = None) -> Any: ...

    def encode(self, model: Any, *, variant: str | None = None) -> bytes: ...

    def iter_units(self, f: BinaryIO, *, variant: str | None = None) -> Iterator[Any]: ...

    # The case codec (``reference/<package>/_case.py``): a recording's content in a writer's terms, as JSON
    # (``recspec case FILE``, ``recspec drive``), with the JSON Schema ``recspec/schemas/case-2.schema.json``.

    #: Tolerance name -> what it allows, for ``recspec drive writer --tolerance`` (``float32`` at least).
    CASE_TOLERANCES: Mapping[str, str]
    #: The tolerances that are not about float widths: name -> (expected, actual, JSON path) -> equal under it.
    CASE_TOLERANCE_CHECKS: Mapping[str, Callable[[Any, Any, str], bool]]

    def to_case(self, model: Any, *, variant: str | None = None, canonical: bool = False) -> dict[str, Any]:
        """The case of a decoded model; ``recspec._case_json.CaseError`` when the model has no case.
        Lossless (``encode(from_case(case))`` gives the decoded bytes back), or with ``canonical`` the
        content alone: every detail of how the file was written (NaN bits, entry order, encoding form)
        left out, which is what a writer is asked for and a reader compared with."""
        ...

    def from_case(self, case: Mapping[str, Any]) -> Any:
        """The model a case describes; ``CaseError`` (located) for a malformed case, ``EncodeError`` for a
        well-formed one the format cannot hold."""
        ...

    def case_schema(self) -> dict[str, Any]:
        """The format's clause of the case schema."""
        ...


@dataclass(frozen=True)
class FormatInfo:
    """A registry entry: the static facts of one format (nothing here imports its code)."""

    id: str
    title: str
    aliases: tuple[str, ...]
    extensions: tuple[str, ...]
    variants: tuple[str, ...]
    profiles: tuple[str, ...]
    default_profile: str
    #: Files up to this size get the Kaitai cross-check by default (``--cross-check-limit``).
    cross_check_limit: int
    #: The keys every report of this format has in ``stats`` (the report schema requires them).
    stats_keys: tuple[str, ...]
    #: One line for ``--help``: why the cross-check limit is what it is.
    cross_check_note: str = ""

    # cached: sniffing asks each format for its module for every file of a folder
    @cached_property
    def package(self) -> str:
        """The Python name of the format's folders and modules."""
        return self.id.replace("-", "_")

    @cached_property
    def module(self) -> str:
        return f"recspec.conformance.{self.package}"

    @property
    def reference_module(self) -> str:
        return f"recspec.reference.{self.package}"

    @property
    def fuzz_module(self) -> str:
        return f"recspec.fuzz.{self.package}"

    @property
    def dictionary(self) -> str:
        """The libFuzzer dictionary's file name under ``fuzz/dictionaries/``."""
        return f"{self.id}.dict"

    @property
    def docs(self) -> str:
        """The format's document, relative to the repository root."""
        return f"docs/formats/{self.id}.md"

    def load(self) -> FormatModule:
        return cast("FormatModule", _import(self.module))

    @cached_property
    def checker(self) -> CheckFunction:
        """The format's ``check`` (the contract's entry point, :meth:`FormatModule.check`), from the
        plugin's ``_format`` module where every plugin defines it (conformance/<package>/_format.py):
        what `recspec check` runs on each file, imported on first use and kept."""
        return cast("CheckFunction", _import(f"{self.module}._format").check)

    def load_reference(self) -> ReferenceCodec:
        return cast("ReferenceCodec", _import(self.reference_module))

    def load_fuzz(self) -> ModuleType:
        """The harness module (typed by ``recspec.fuzz.FuzzHarness``; it imports atheris lazily)."""
        return _import(self.fuzz_module)

    def check_variant(self, variant: str | None) -> None:
        if variant is not None and variant not in self.variants:
            if not self.variants:
                raise UsageError(f"{self.id} has no variants (it has one layout)", "leave out --variant")
            raise UsageError(f"{self.id} has no variant {variant!r}",
                             f"choose one of: {', '.join(self.variants)}")

    def check_profile(self, profile: str | None) -> str:
        if profile is None:
            return self.default_profile
        if profile not in self.profiles:
            raise UsageError(f"{self.id} has no profile {profile!r}", f"choose one of: {', '.join(self.profiles)}")
        return profile


def _import(name: str) -> ModuleType:
    # sys.modules first: import_module costs ~25 us even for a loaded module,
    # which shows when a folder holds 100,000 small files
    loaded = sys.modules.get(name)
    return loaded if loaded is not None else importlib.import_module(name)


_MiB = 1024 * 1024

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
        cross_check_limit=32 * _MiB,
        stats_keys=("frames", "packets", "duration_s", "map", "actors_added", "position_records"),
        cross_check_note="a sample of about 1 packet in 1,024 by default (--cross-check full: every packet)",
    ),
    "nanover": FormatInfo(
        id="nanover",
        title="NanoVer recording (.traj frames, .state shared state)",
        aliases=("nanover-recording", "nanover_recording", "narupa"),
        extensions=(".traj", ".state"),
        variants=("traj", "state"),
        profiles=("spec", "compat"),
        default_profile="spec",
        cross_check_limit=32 * _MiB,
        stats_keys=("kind", "records", "first_timestamp_us", "last_timestamp_us"),
        cross_check_note=("a sample of about 1 record in 256 by default (--cross-check full: every record); "
                          "records of more than 8,192 map entries and list elements are left out"),
    ),
    "raskat-signal": FormatInfo(
        id="raskat-signal",
        title="raSkat lightning-detector signal file",
        aliases=("raskat", "sig", "raskat_signal"),
        extensions=(".sig",),
        variants=("v1", "v2", "v3", "v4"),
        profiles=("spec", "compat"),
        default_profile="spec",
        cross_check_limit=64 * 1024,
        stats_keys=("version", "container", "samples", "sample_rate_hz"),
        cross_check_note="the Kaitai parser builds an object per MessagePack value; long runs are sampled",
    ),
    "matrix-smt": FormatInfo(
        id="matrix-smt",
        title="Matrix-SMT simulation recording (BSON)",
        aliases=("matrix", "smt", "matrix_smt", "matrix-smt-record"),
        extensions=(".bson",),
        variants=(),
        profiles=("spec", "compat"),
        default_profile="spec",
        cross_check_limit=1 * _MiB,
        stats_keys=("objects", "frames", "states"),
        cross_check_note="Kaitai and pymongo read every frame up to 64 KiB, above it about 1 frame in 1,024 "
                         "(--cross-check full: every frame); skipped past 20,000 frames, states, etc.",
    ),
})


def resolve_format(name: str) -> FormatInfo:
    """A format by id or alias, case-insensitive; a UsageError with a suggestion otherwise."""
    key = name.lower()
    for info in FORMATS.values():
        if key == info.id or key in info.aliases:
            return info
    import difflib  # here: only a misspelt format name needs it, not every run's start-up

    names = [n for info in FORMATS.values() for n in (info.id, *info.aliases)]
    close = difflib.get_close_matches(key, names, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known formats: {', '.join(FORMATS)}"
    raise UsageError(f"unknown format {name!r}", hint)


#: How much a file's extension weighs as evidence of its format, on the sniffers' 0..1 scale: more than a
#: content guess from a byte or two (a raSkat version word 0.05, a BSON-looking first key 0.2, a headerless
#: NanoVer version-1 record 0.3), less than a header a sniffer recognises (0.5 and up). So a damaged
#: ``run.state`` is checked as NanoVer and reported malformed with the header rule that failed, rather than
#: as unrecognised or as whichever format a damaged byte happens to resemble.
EXTENSION_EVIDENCE = 0.4


def sniff_evidence(head: bytes, path: str | Path | None = None) -> tuple[FormatInfo | None, float, str]:
    """The best-supported format for a file's first bytes and its name: ``(format, score, extension)``,
    the format ``None`` when neither content nor extension names one, and ``extension`` the suffix that
    decided (``".state"``) when the content's own claim was weaker than it, else ``""``.

    A header a sniffer recognises decides; the extension counts as evidence of
    :data:`EXTENSION_EVIDENCE`, so it outweighs a weak content guess and names the format of a
    file whose header no sniffer claims; among equal scores the extension breaks the tie."""
    suffix = path_suffix(path).lower() if path is not None else ""
    best: FormatInfo | None = None
    best_score = 0.0
    decided = ""
    for info in FORMATS.values():  # plain locals and a tuple: this runs for every file of a run
        content = info.load().sniff(head)
        if suffix in info.extensions:
            score = (content if content > EXTENSION_EVIDENCE else EXTENSION_EVIDENCE) + 0.01
            if score > best_score:
                best, best_score, decided = info, score, suffix if content < EXTENSION_EVIDENCE else ""
        elif content > best_score:
            best, best_score, decided = info, content, ""
    return best, best_score, decided


def sniff(head: bytes, path: str | Path | None = None) -> tuple[FormatInfo | None, float]:
    """The best-matching format for a file's first bytes and its name, with its score (``sniff_evidence``)."""
    found, score, _ = sniff_evidence(head, path)
    return found, score


def by_extension(path: str | Path) -> FormatInfo | None:
    suffix = path_suffix(path).lower()
    for info in FORMATS.values():
        if suffix in info.extensions:
            return info
    return None
