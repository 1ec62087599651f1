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
import os
import sys
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import dataclass
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

from ._builtin_formats import BUILTIN
from ._paths import path_suffix
from .errors import UsageError

if TYPE_CHECKING:
    from ._plugin_data import Equivalence, FormatExamples, HeaderDamage, Seed
    from .report import FileReport, Finding, Rule

__all__ = [
    "BUILTIN_FORMATS",
    "ENTRY_POINT_GROUP",
    "EXTENSION_EVIDENCE",
    "FORMATS",
    "SNIFF_BYTES",
    "CheckFunction",
    "Divergence",
    "Equivalence",
    "FormatExamples",
    "FormatInfo",
    "FormatModule",
    "FormatRegistry",
    "HeaderDamage",
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

#: Names of this module's contract defined in recspec/_plugin_data.py, imported when first asked for.
_PLUGIN_DATA = frozenset({"Equivalence", "FormatExamples", "HeaderDamage", "Seed"})


def __getattr__(name: str) -> Any:
    if name in _PLUGIN_DATA:
        return getattr(importlib.import_module("recspec._plugin_data"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    """The plugin: what ``recspec.conformance.<package>`` exports. ``tests/test_format_contract.py`` names a
    member a plugin lacks. Everything a format brings is here or in its :class:`FormatInfo`, so that no
    shared module names a format (``tests/test_no_format_ids.py``)."""

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

    #: Valid seeds with a damaged header (``corpus/<id>/damaged/``; may be empty).
    DAMAGED_HEADERS: Sequence[HeaderDamage]

    # What the HTML report draws (``recspec/render/_pictures.py``), drive and the shared tests use:

    #: The class of the trace ``check`` leaves in ``FileReport.trace`` while ``recspec.trace.enabled()``.
    TRACE: type

    def picture(self, report: FileReport, trace: Any, anchor: Callable[[Finding], str]) -> str:
        """The file's picture from its trace: a ``<figure>`` of inline SVG (``recspec._svg``) with each
        finding marked and linked through ``anchor``, or ``""`` when the trace holds nothing to draw."""
        ...

    def drive_cases(self, variant: str | None, profile: str, max_size: int) -> Any:
        """The Hypothesis strategy of the cases ``recspec drive writer`` hands a writer of ``variant`` under
        ``profile`` (``max_size``: frames, records or so), including cases the format cannot hold where
        a writer's terms allow them (the writer must refuse those)."""
        ...

    def field_path(self, path: str) -> str:
        """The field a case's JSON path is in, list indices already dropped: the keys that are data, not
        field names, made ``*`` (so failures at one field are one failure); the path itself where none are."""
        ...

    #: The value equivalences of ``recspec drive`` per profile (empty where a read-back case must be the case).
    EQUIVALENCES: Sequence[Equivalence]
    #: What the shared tests take from this format.
    EXAMPLES: FormatExamples


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
    #: A regular expression whose first group is the frame, record or sample index in a finding's ``path``:
    #: where the HTML picture marks the finding on its timeline. A finding it does not match (or every
    #: finding, when empty) is marked in the strip of findings about the whole file.
    finding_index: str = ""
    #: The variants ``recspec drive`` leaves out when none is named: legacy layouts that a writer of the
    #: format's document never targets (``--variant`` still names them).
    legacy_variants: tuple[str, ...] = ()
    #: ``(variant, suffix)`` where a variant is told by the file's suffix (a ``.state`` file is the
    #: ``state`` variant): ``recspec drive`` names a variant's files so, and feeds a reader only the
    #: corpus files of its variant. Other variants' files take the first of ``extensions``.
    variant_suffixes: tuple[tuple[str, str], ...] = ()
    # Where the format's code lives. A built-in format leaves them empty and gets its folders' modules
    # (``recspec.conformance.<package>`` and so on, filled in from the id); a format from another package
    # (:data:`ENTRY_POINT_GROUP`) names its own.
    #: The plugin, a :class:`FormatModule`.
    module: str = ""
    #: The reference codec, a :class:`ReferenceCodec`.
    reference_module: str = ""
    #: The fuzz harnesses, a ``recspec.fuzz.FuzzHarness``.
    fuzz_module: str = ""
    #: The libFuzzer dictionary's file name under ``fuzz/dictionaries/`` (``<id>.dict``).
    dictionary: str = ""
    #: The format's document: relative to the repository root for a built-in (``docs/formats/<id>.md``),
    #: an absolute path for a format from another package.
    docs: str = ""
    #: The format's seed corpus folder (``valid/``, ``invalid/``, ``manifest.json``): empty for a built-in,
    #: whose corpus is ``corpus/<id>/`` of the checkout or of the installed package; an absolute path for a
    #: format from another package (``recspec corpus``, ``corpus export``, ``drive reader``).
    corpus: str = ""

    def __post_init__(self) -> None:
        package = self.id.replace("-", "_")
        defaults = {"module": f"recspec.conformance.{package}", "reference_module": f"recspec.reference.{package}",
                    "fuzz_module": f"recspec.fuzz.{package}", "dictionary": f"{self.id}.dict",
                    "docs": f"docs/formats/{self.id}.md"}
        for name, default in defaults.items():
            if not getattr(self, name):
                object.__setattr__(self, name, default)  # frozen: the defaults are part of construction

    # cached: sniffing asks each format for its module for every file of a folder
    @cached_property
    def package(self) -> str:
        """The Python name of the format's folders (``raskat-signal`` -> ``raskat_signal``)."""
        return self.id.replace("-", "_")

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

    def suffix_of(self, variant: str | None) -> str:
        """The file suffix of a variant's files (``variant_suffixes``, else the first extension)."""
        for name, suffix in self.variant_suffixes:
            if name == variant:
                return suffix
        return self.extensions[0] if self.extensions else ".bin"

    def variant_suffix(self, variant: str | None) -> str | None:
        """The suffix that tells ``variant`` apart, or ``None`` where the suffix does not tell variants apart."""
        return next((suffix for name, suffix in self.variant_suffixes if name == variant), None)

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


#: The formats recspec carries in its own folders (``recspec/_builtin_formats.py``).
BUILTIN_FORMATS: Mapping[str, FormatInfo] = MappingProxyType(
    {entry["id"]: FormatInfo(**entry) for entry in BUILTIN})


#: The entry-point group through which an installed package registers a format: each entry point's object is
#: a :class:`FormatInfo` that names the package's own modules (README, "Formats from other packages").
ENTRY_POINT_GROUP = "recspec.formats"


class FormatRegistry(Mapping[str, FormatInfo]):
    """Every format: the built-ins, then those installed packages register (:data:`ENTRY_POINT_GROUP`),
    read on first use. A plugin that cannot be loaded (its entry point fails to import, is not a
    :class:`FormatInfo`, takes an id, alias or extension already taken, or its plugin module fails to
    import or has no ``sniff``) is left out: the problem,
    naming the distribution and the entry point, is written to standard error once and kept in
    :attr:`problems`, and the other formats load."""

    def __init__(self, builtins: Mapping[str, FormatInfo]) -> None:
        self._builtins = builtins
        self._all: dict[str, FormatInfo] | None = None
        #: What kept a plugin out, one line each (filled on first use).
        self.problems: list[str] = []

    def _formats(self) -> dict[str, FormatInfo]:
        if self._all is None:
            found = dict(self._builtins)
            if _declares_plugins():
                # while the plugins load, the registry is what has loaded so far: a plugin's module that reads
                # FORMATS as it is imported sees it instead of loading the plugins again
                self._all = found
                try:
                    self.problems = _add_plugins(found)
                except BaseException:
                    self._all = None
                    raise
                for problem in self.problems:
                    sys.stderr.write(f"recspec: warning: {problem}\n")
            self._all = found
        return self._all

    def __getitem__(self, key: str) -> FormatInfo:
        return self._formats()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._formats())

    def __len__(self) -> int:
        return len(self._formats())

    def __contains__(self, key: object) -> bool:
        return key in self._formats()

    # the dict's own views: sniffing iterates the values for every file of a run
    def keys(self) -> KeysView[str]:
        return self._formats().keys()

    def values(self) -> ValuesView[FormatInfo]:
        return self._formats().values()

    def items(self) -> ItemsView[str, FormatInfo]:
        return self._formats().items()

    def reload(self) -> None:
        """Read the installed plugins again on next use (after installing one in a running process)."""
        self._all = None
        self.problems = []


def _declares_plugins() -> bool:
    """Whether a distribution on ``sys.path`` declares an entry point of :data:`ENTRY_POINT_GROUP`.

    A look at the ``entry_points.txt`` of each ``*.dist-info``/``*.egg-info`` folder (well under a
    millisecond for a hundred installed packages), so that a run with no plugin installed does not import
    ``importlib.metadata``, which costs more than the rest of start-up's registry (it imports ``email``,
    ``zipfile``, ``csv`` and ``socket``). It may say yes wrongly (the header in another file's text), never
    no wrongly for a folder on the path; ``importlib.metadata`` then decides."""
    header = f"[{ENTRY_POINT_GROUP}]"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a missing folder, a path hook's name, a zip file
            if os.path.isfile(entry):
                return True  # a zip archive is not looked into here: importlib.metadata reads it
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(entry or ".", name, "entry_points.txt"), encoding="utf-8",
                              errors="replace") as f:
                        if header in f.read():
                            return True
                except OSError:
                    continue
    return False


def _add_plugins(found: dict[str, FormatInfo]) -> list[str]:
    """Add the installed plugins' formats to ``found``; the problems that kept any out, one line each."""
    from importlib.metadata import entry_points

    problems: list[str] = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(point, "dist", None)
        owner = dist.name if dist is not None else "an unknown distribution"
        where = f"format plugin {point.name!r} ({point.value}) of {owner}"
        try:
            info = point.load()
        except Exception as e:  # noqa: BLE001  (whatever the plugin's import raises: reported, the other formats load)
            problems.append(f"{where} failed to import: {type(e).__name__}: {e}; left out")
            continue
        if not isinstance(info, FormatInfo):
            problems.append(f"{where} is a {type(info).__name__}, not a recspec.formats.FormatInfo; left out")
            continue
        clash = _clash(info, found)
        if clash:
            problems.append(f"{where}: {clash}; left out")
            continue
        # the plugin module now, not at the first file's sniff: a module that cannot be imported would make
        # every file of every run a crash blamed on recspec (what a run imports anyway: only its light sniffer)
        try:
            sniffer = getattr(_import(info.module), "sniff", None)
        except Exception as e:  # noqa: BLE001  (as above)
            problems.append(f"{where}: its module {info.module} failed to import: {type(e).__name__}: {e}; left out")
            continue
        if not callable(sniffer):
            problems.append(f"{where}: its module {info.module} has no sniff(head); left out")
            continue
        found[info.id] = info
    return problems


def _clash(info: FormatInfo, found: Mapping[str, FormatInfo]) -> str:
    """What of ``info``'s names another format already has ("" when nothing): its id and aliases are names
    on the command line, its extensions decide a file's format."""
    names = {n.lower() for n in (info.id, *info.aliases)}
    for other in found.values():
        taken = names & {n.lower() for n in (other.id, *other.aliases)}
        if taken:
            return f"the name {sorted(taken)[0]!r} is already {other.id}'s"
        ext = set(info.extensions) & set(other.extensions)
        if ext:
            return f"the extension {sorted(ext)[0]!r} is already {other.id}'s"
    return ""


#: Every format recspec knows (:class:`FormatRegistry`): the built-ins and the installed plugins'.
FORMATS: FormatRegistry = FormatRegistry(BUILTIN_FORMATS)


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
