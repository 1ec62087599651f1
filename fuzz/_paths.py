"""Where the fuzzers find their seeds and dictionaries, and where crashes go.

recspec runs in two situations:

* from its source checkout (an editable install, or the tests): the folder
  above the ``recspec`` package holds ``pyproject.toml`` and ``corpus/``. Seeds
  come from ``<repo>/corpus/<format>/`` and crashes are saved, next to the
  other regression files, in ``<repo>/corpus/<format>/regressions/``;
* installed from a wheel: seeds come from the packaged copy of the corpus
  (``importlib.resources.files("recspec.corpus") / <format>``) and there is no
  default place for crashes: the caller must name one (``--out``).

Only the standard library is imported here, so that the fuzzing subprocess can
import this module before atheris instruments recspec.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from recspec._paths import checkout_root

__all__ = ["SEED_SUBDIRS", "checkout_root", "corpus_dir", "default_crash_dir", "default_merge_dir",
           "dictionary_file"]

#: The sub-folders of ``corpus/<format>/`` that seed a campaign, in order (``fuzz``: the
#: corpus earlier campaigns grew, minimised by ``recspec fuzz --merge``).
SEED_SUBDIRS = ("valid", "invalid", "regressions", "fuzz")


def corpus_dir(fmt: str) -> Path | None:
    """``corpus/<fmt>/`` of the checkout, else of the installed package; ``None`` if absent."""
    root = checkout_root()
    if root is not None:
        d = root / "corpus" / fmt
        return d if d.is_dir() else None
    try:
        packaged = importlib.resources.files("recspec.corpus") / fmt
    except ModuleNotFoundError:
        return None
    d = Path(str(packaged))
    return d if d.is_dir() else None


def default_crash_dir(fmt: str) -> Path | None:
    """``<repo>/corpus/<fmt>/regressions`` in a checkout; ``None`` when installed."""
    root = checkout_root()
    return None if root is None else root / "corpus" / fmt / "regressions"


def default_merge_dir(fmt: str) -> Path | None:
    """``<repo>/corpus/<fmt>/fuzz`` in a checkout (where ``recspec fuzz --merge`` keeps the
    minimised campaign corpus, which seeds later campaigns); ``None`` when installed."""
    root = checkout_root()
    return None if root is None else root / "corpus" / fmt / "fuzz"


def dictionary_file(name: str) -> Path | None:
    """The libFuzzer dictionary shipped as ``fuzz/dictionaries/<name>`` (the registry's
    ``FormatInfo.dictionary``, ``<format id>.dict``), if present."""
    d = Path(__file__).resolve().parent / "dictionaries" / name
    return d if d.is_file() else None
