"""A campaign's working corpus: the seed files (``corpus/<format>/`` ``valid``, ``invalid``,
``regressions``, plus ``RECSPEC_FUZZ_SEEDS`` and the caller's), inputs the harness
derives from big seeds, and its synthetic seeds, each once. ``recspec fuzz`` starts
from it, and ``fuzz/oss-fuzz/fuzzers.py stage`` zips it as a fuzzer's seed corpus.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from . import _paths

if TYPE_CHECKING:
    from ._contract import FuzzHarness

__all__ = ["SEEDS_ENV", "prepare_corpus"]

#: Environment variable: more seed folders or files (os.pathsep-separated), for experiments.
SEEDS_ENV = "RECSPEC_FUZZ_SEEDS"


def _seed_sources(fmt: str, extra: Sequence[Path]) -> list[Path]:
    sources: list[Path] = []
    base = _paths.corpus_dir(fmt)
    if base is not None:
        sources += [base / sub for sub in _paths.SEED_SUBDIRS if (base / sub).is_dir()]
    env = os.environ.get(SEEDS_ENV, "")
    sources += [Path(p) for p in env.split(os.pathsep) if p]
    sources += list(extra)
    return sources


def _iter_seed_files(sources: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for src in sources:
        if src.is_file():
            files.append(src)
        elif src.is_dir():
            files += sorted(p for p in src.rglob("*") if p.is_file() and not p.name.startswith(".")
                            and p.suffix != ".json")
    return files


def prepare_corpus(mod: FuzzHarness, fmt: str, work: Path, max_len: int, extra: Sequence[Path],
                   stderr: TextIO | None) -> tuple[int, int]:
    """Fill ``work`` with the seeds; returns (seed files read, inputs written)."""
    work.mkdir(parents=True, exist_ok=True)
    seen: set[bytes] = set()

    def put(data: bytes) -> None:
        digest = hashlib.sha1(data).digest()
        if data and digest not in seen:
            seen.add(digest)
            (work / f"seed-{digest.hex()[:16]}").write_bytes(data)

    files = _iter_seed_files(_seed_sources(fmt, extra))
    for path in files:
        data = path.read_bytes()
        if len(data) <= max_len:
            put(data)
        for derived in mod.derive_seeds(data, max_len):
            put(derived)
    for _, data in mod.synthetic_seeds():
        if len(data) <= max_len:
            put(data)
    if not files:
        where = _paths.corpus_dir(fmt)
        if stderr is not None:
            stderr.write(f"recspec fuzz: no seed files in {where or f'corpus/{fmt}/'}; "
                         "starting from the synthetic seeds only\n")
            stderr.flush()
    return len(files), len(seen)
