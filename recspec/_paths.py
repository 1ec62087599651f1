"""Where recspec finds its bundled data: ksy specs, the seed corpus and the format documents.

From a checkout (``pip install -e .`` or running in the repository) these are
the top-level ``ksy/``, ``corpus/`` and ``docs/`` folders; from an installed wheel
they are the package-data copies ``recspec.ksy``, ``recspec.corpus`` and
``recspec.docs``. All are plain folders on disk in either case, so callers get a
:class:`pathlib.Path`.

Rule clauses cite ``docs/formats/<id>.md#<rule id>``: that path is relative to
the repository root in a checkout and to the installed ``recspec`` package
folder in a wheel (``recspec/docs/formats/<id>.md``); :func:`docs_dir` returns
the folder that holds ``formats/``.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path, PurePath

__all__ = ["checkout_root", "corpus_dir", "docs_dir", "ksy_dir", "path_suffix"]


def path_suffix(path: str | os.PathLike[str]) -> str:
    """``PurePath(path).suffix``, without building a path object for a plain POSIX name (every file of a
    run asks for its extension once or twice, and a ``Path`` costs more than a small file's check)."""
    s = os.fspath(path)
    if os.sep == "/" and os.altsep is None:
        name = s[s.rfind("/") + 1:]
        if name and name != ".":  # else PurePath drops the empty or "." last part: ask it
            i = name.rfind(".")
            return name[i:] if 0 < i < len(name) - 1 else ""
    return PurePath(s).suffix


def checkout_root() -> Path | None:
    """The repository root when recspec runs from a source checkout, else ``None``."""
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "corpus").is_dir() and (root / "reference").is_dir():
        return root
    return None


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"package data {name} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def corpus_dir(fmt: str | None = None) -> Path:
    root = checkout_root()
    base = root / "corpus" if root is not None else _package_dir("recspec.corpus")
    return base / fmt if fmt else base


def ksy_dir() -> Path:
    root = checkout_root()
    return root / "ksy" if root is not None else _package_dir("recspec.ksy")


def docs_dir() -> Path:
    """The folder that holds ``formats/<id>.md``, the documents rule clauses cite."""
    root = checkout_root()
    return root / "docs" if root is not None else _package_dir("recspec.docs")
