"""The shared steps of the benchmark generators' smoke tests (each format's
tests/test_<package>_benchmark_generator.py): a generator writes files that recspec checks valid, with no
finding above what the format's writer is known for (so that the throughput figures are about valid
files), and writes the same bytes twice from the same seed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from helpers import load_script
from recspec.formats import FORMATS
from recspec.report import FileReport

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(script: str) -> ModuleType:
    return load_script(f"benchmarks/{script}", f"bench_{Path(script).stem}")


def script(name: str, suffix: str, *args: str) -> Callable[[Path, tuple[str, ...]], list[Path]]:
    """A generator run as ``python benchmarks/NAME OUT ARGS EXTRA --quiet``, writing one file."""

    def write(folder: Path, extra: tuple[str, ...]) -> list[Path]:
        out = folder / f"synthetic{suffix}"
        subprocess.run([sys.executable, str(BENCHMARKS / name), str(out), *args, *extra, "--quiet"], check=True)
        return [out]

    return write


@dataclass(frozen=True)
class Generator:
    """One format's benchmark generator: how it writes, and what recspec must say of what it writes."""

    write: Callable[[Path, tuple[str, ...]], list[Path]]
    profile: str
    min_size: int
    expect: Callable[[FileReport], None]
    #: The arguments of a small run with a fixed seed, for the determinism test.
    seeded: tuple[str, ...]


def generated_files_are_valid(fmt: str, gen: Generator, folder: Path) -> None:
    plugin = FORMATS[fmt].load()
    for path in gen.write(folder, ()):
        size = path.stat().st_size
        assert size >= gen.min_size
        with open(path, "rb") as f:
            report = plugin.check(f, path=str(path), variant=None, profile=gen.profile, size=size, cross_check=False)
        gen.expect(report)


def generator_is_deterministic(gen: Generator, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    written = []
    for folder in (a, b):
        folder.mkdir()
        written.append({p.relative_to(folder): p.read_bytes() for p in gen.write(folder, gen.seeded)})
    assert written[0] == written[1]
