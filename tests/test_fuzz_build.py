"""The ClusterFuzzLite / OSS-Fuzz build: entry points, staged files, and one fuzzer built and run.

``fuzz/oss-fuzz/build.sh`` is what the builder image runs; ``tools/build_fuzzers_local.py``
runs that same script without Docker (its ``compile_python_fuzzer`` packages with
PyInstaller as OSS-Fuzz's does) and then runs the packaged fuzzer on its seed corpus zip,
so a change that breaks the build fails here (``slow``: about a minute).
"""

from __future__ import annotations

import configparser
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from recspec.formats import FORMATS
from recspec.fuzz import TARGETS, _paths

REPO = Path(__file__).resolve().parents[1]
FUZZERS_PY = REPO / "fuzz" / "oss-fuzz" / "fuzzers.py"


def _fuzzers(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(FUZZERS_PY), *args], capture_output=True, text=True)


def test_one_fuzzer_per_format_and_target_with_a_committed_entry_point() -> None:
    names = _fuzzers("list").stdout.split()
    expected = {f"{info.fuzz_module.rsplit('.', 1)[1]}_{t}_fuzzer" for info in FORMATS.values() for t in TARGETS}
    assert set(names) == expected and len(names) == len(FORMATS) * len(TARGETS)
    check = _fuzzers("entrypoints", "--check")
    assert check.returncode == 0, check.stderr  # regenerate: python fuzz/oss-fuzz/fuzzers.py entrypoints
    for name in names:
        text = (REPO / "fuzz" / "entrypoints" / f"{name}.py").read_text()
        assert "atheris.instrument_imports" in text and "exclude=not_instrumented()" in text


def test_stage_writes_seed_corpus_dictionary_and_options(tmp_path: Path) -> None:
    assert _fuzzers("stage", "--out", str(tmp_path), "--only", "carla_diff_fuzzer").returncode == 0
    with zipfile.ZipFile(tmp_path / "carla_diff_fuzzer_seed_corpus.zip") as z:
        seeds = [z.read(n) for n in z.namelist()]
    assert len(seeds) > 40 and all(seeds)
    assert (REPO / "corpus" / "carla" / "valid" / "0.9.15.log").read_bytes() in seeds
    dict_path = _paths.dictionary_file("carla.dict")
    assert dict_path is not None and (tmp_path / "carla_diff_fuzzer.dict").read_text() == dict_path.read_text()
    options = configparser.ConfigParser()
    options.read(tmp_path / "carla_diff_fuzzer.options")
    assert dict(options["libfuzzer"]) == {"dict": "carla_diff_fuzzer.dict", "max_len": "65536", "timeout": "30"}


def test_build_sh_runs_the_steps_the_local_build_runs() -> None:
    text = (REPO / "fuzz" / "oss-fuzz" / "build.sh").read_text()
    for step in ("pip3 install .", "fuzzers.py entrypoints --check", 'fuzzers.py stage --out "$OUT"',
                 "fuzzers.py list --paths", 'compile_python_fuzzer "$fuzzer"'):
        assert step in text, step


@pytest.mark.slow
def test_one_fuzzer_builds_with_pyinstaller_and_runs_on_its_seed_corpus(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install 'recspec[fuzz]')")
    pytest.importorskip("PyInstaller", reason="PyInstaller is not installed (pip install -e '.[test]')")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "build_fuzzers_local.py"), "raskat_signal_ref_fuzzer",
                           "--seconds", "3", "--out", str(out)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    assert "raskat_signal_ref_fuzzer: ran" in proc.stdout
    for name in ("raskat_signal_ref_fuzzer", "raskat_signal_ref_fuzzer.pkg", "raskat_signal_ref_fuzzer.options",
                 "raskat_signal_ref_fuzzer.dict", "raskat_signal_ref_fuzzer_seed_corpus.zip"):
        assert (out / name).is_file(), name
    assert "LLVMFuzzerTestOneInput" in (out / "raskat_signal_ref_fuzzer").read_text()  # how the service finds it
