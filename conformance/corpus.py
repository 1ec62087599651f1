"""The seed corpus and its manifests: building them and checking recspec against them.

Each format has ``corpus/<format>/manifest.json``::

    {"format": "carla", "files": [
      {"path": "invalid/CARLA-FRAME-004.log", "variant": "0.9.15", "detect": false,
       "description": "...",
       "expect": {"spec": {"verdict": "invalid", "rules": ["CARLA-FRAME-004"]},
                  "compat": {"verdict": "invalid", "rules": ["CARLA-FRAME-004"]}}}]}

``rules`` lists every rule that must be reported at warning level or above, and
no others (info findings are not compared). ``detect: true`` means the variant
must be found from content; otherwise the file is checked with that variant
forced. Entries under ``regressions/`` are written by hand when a fuzz-found
case is kept, and survive ``tools/make_corpus.py``.

Entries under ``damaged/`` (``format_from: "extension"``) are valid files with a
damaged header (each plugin's ``DAMAGED_HEADERS``, ``recspec.formats.HeaderDamage``): they are checked
without ``--format``, so the manifest also says that the file's extension, not a damaged byte that happens to
look like another format, decides the format (``recspec.formats.EXTENSION_EVIDENCE``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from recspec._paths import corpus_dir as _bundled_corpus
from recspec.formats import FORMATS, Seed

__all__ = ["build_manifest", "corpus_folder", "damaged_header_seeds", "generated_formats",
           "load_manifest", "manifest_json"]


def damaged_header_seeds(fmt: str, seeds: Iterable[Seed]) -> list[Seed]:
    """The format's damaged-header files (its plugin's ``DAMAGED_HEADERS``), made from its valid seeds."""
    by_name = {s.name: s.data for s in seeds}
    made = []
    for d in FORMATS[fmt].load().DAMAGED_HEADERS:
        data = bytearray(by_name[d.base])
        data[d.at:d.at + len(d.written)] = d.written
        made.append(Seed(d.name, bytes(data), d.variant, d.expect, d.description))
    return made


def _seeds_with_damaged(fmt: str) -> list[Seed]:
    seeds = list(FORMATS[fmt].load().seeds())
    return seeds + damaged_header_seeds(fmt, seeds)


def generated_formats() -> dict[str, Callable[[], Iterable[Seed]]]:
    """format id -> the function that builds its generated seed files (every registered format), with the
    damaged-header files."""
    return {fid: functools.partial(_seeds_with_damaged, fid) for fid in FORMATS}


def build_manifest(fmt: str, seeds: Iterable[Seed], old: Mapping[str, Any]) -> dict[str, Any]:
    files = []
    for s in seeds:
        files.append({
            "path": s.name,
            "variant": s.variant,
            "detect": s.name.startswith(("valid/", "damaged/")) or s.variant is None,
            "description": s.description,
            "expect": {p: {"verdict": v, "rules": sorted(set(r))} for p, (v, r) in s.expect.items()},
        })
        if s.name.startswith("damaged/"):
            files[-1]["format_from"] = "extension"
    kept = [e for e in old.get("files", []) if e["path"].startswith("regressions/")]
    return {"format": fmt, "files": files + sorted(kept, key=lambda e: e["path"])}


def manifest_json(manifest: Mapping[str, Any]) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def load_manifest(folder: Path) -> dict[str, Any]:
    with open(folder / "manifest.json", encoding="utf-8") as f:
        manifest: dict[str, Any] = json.load(f)
    return manifest


def corpus_folder(fmt: str) -> Path:
    """The corpus folder of a format: its registry entry's (a format from another package), else the bundled
    one (the checkout's, or the installed package data)."""
    info = FORMATS.get(fmt)
    return Path(info.corpus) if info is not None and info.corpus else _bundled_corpus(fmt)
