"""Where the fuzzers find their seeds and dictionaries, and where crashes go.

recspec runs in two situations:

* from its source checkout (an editable install, or the tests): the folder
  above the ``recspec`` package holds ``pyproject.toml`` and ``corpus/``. Seeds
  come from ``<repo>/corpus/<format>/`` and crashes are saved, next to the
  other regression files, in ``<repo>/corpus/<format>/regressions/``;
* installed from a wheel: seeds come from the packaged copy of the corpus
  (the ``recspec.corpus`` package data) and there is no default place for
  crashes: the caller must name one (``--out``).

A format from another package brings its own corpus folder (the registry's
``FormatInfo.corpus``): its seeds come from there, and its crashes and merged
inputs go there, installed or not.

The registry is imported only inside the functions that need it (the campaign's
parent process), so that the fuzzing subprocess can import this module before
atheris instruments recspec.
"""

from __future__ import annotations

from pathlib import Path

from recspec._paths import checkout_root

__all__ = ["SEED_SUBDIRS", "checkout_root", "corpus_dir", "default_crash_dir", "default_merge_dir",
           "dictionary_file"]

#: The sub-folders of ``corpus/<format>/`` that seed a campaign, in order (``fuzz``: the
#: corpus earlier campaigns grew, minimised by ``recspec fuzz --merge``).
SEED_SUBDIRS = ("valid", "invalid", "regressions", "fuzz")


def corpus_dir(fmt: str) -> Path | None:
    """The format's seed corpus folder as the registry gives it (``FormatInfo.corpus`` for a format from
    another package, else ``corpus/<fmt>/`` of the checkout or of the installed package); ``None`` if
    absent."""
    from recspec.conformance.corpus import corpus_folder  # the registry: imported only when asked

    try:
        d = corpus_folder(fmt)
    except FileNotFoundError:  # installed without the package data
        return None
    return d if d.is_dir() else None


def _own_corpus(fmt: str) -> Path | None:
    """The folder that crashes and merged inputs go to: the corpus folder of a format that brings its own
    (``FormatInfo.corpus``), else ``corpus/<fmt>/`` of the checkout; ``None`` for a built-in format of an
    installed recspec, whose packaged corpus is not the place for new files."""
    from recspec.formats import FORMATS

    info = FORMATS.get(fmt)
    if info is not None and info.corpus:
        return Path(info.corpus)
    root = checkout_root()
    return None if root is None else root / "corpus" / fmt


def default_crash_dir(fmt: str) -> Path | None:
    """``regressions/`` of the format's own corpus folder (``_own_corpus``): where crashes are saved next to
    the other regression files; ``None`` when there is none."""
    base = _own_corpus(fmt)
    return None if base is None else base / "regressions"


def default_merge_dir(fmt: str) -> Path | None:
    """``fuzz/`` of the format's own corpus folder (``_own_corpus``), where ``recspec fuzz --merge`` keeps
    the minimised campaign corpus, which seeds later campaigns; ``None`` when there is none."""
    base = _own_corpus(fmt)
    return None if base is None else base / "fuzz"


def dictionary_file(name: str) -> Path | None:
    """The libFuzzer dictionary shipped as ``fuzz/dictionaries/<name>`` (the registry's
    ``FormatInfo.dictionary``, ``<format id>.dict``), if present."""
    d = Path(__file__).resolve().parent / "dictionaries" / name
    return d if d.is_file() else None
